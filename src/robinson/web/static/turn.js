// @ts-check
// The turn's panels at a live table, each drawn from the table's state (table.js): the banner
// that says whose turn it is, and the moves offered to this browser's seat, each naming where
// it leads, or the rematch once the game is over.
import { markTarget } from "./board.js";
import { $, make } from "./dom.js";
import { bringIntoView } from "./scene.js";
import { play } from "./sounds.js";
import { t, texts } from "./texts.js";
import { awaiting } from "./waiting.js";

/** @typedef {import("./table.js").TableState} TableState */
/** @typedef {import("./table.js").Send} Send */

/** The viewer's own seat, told in the second person ("You roll 6.", "Roll the die."): only when
 * this browser holds exactly one seat. In hot-seat several people share the screen and "you"
 * would not say whom, so every seat keeps its name (third person); a spectator has none.
 * @param {TableState} state */
export function ownSeat(state) { return state.you.length === 1 ? state.you[0] : null; }

/** Whose turn: a banner, the tab title, the pawn ring (drawPawns) and, if asked for, a sound.
 * @param {TableState} state */
export function renderTurn(state) {
  const game = state.game, banner = $("turn");
  const mover = game.over ? null : game.players[game.to_move];
  const mine = !!mover && state.you.includes(game.to_move) && mover.kind === "human" && !awaiting(game);
  let text, kind;
  if (game.over) {
    kind = "over";
    text = game.winner === null ? t("ui.no_winner") : t("web.winner", { name: game.players[game.winner].name });
  } else if (mine) {
    kind = "yours"; text = t("web.your_turn_name", { name: mover.name });
  } else {
    kind = mover.kind === "bot" ? "bot" : "waiting";
    text = mover.kind === "bot" ? t("web.bot_thinking", { name: mover.name }) : t("ui.waiting", { name: mover.name });
  }
  if (!state.you.length) text = `${t("web.watching")} ${text}`;
  $("sound-box").hidden = !state.you.length;  // "when it is my turn": never, for a spectator
  $("push-box").hidden = !state.you.length;
  banner.dataset.state = kind;
  banner.textContent = text;
  document.title = mine ? `▶ ${t("ui.your_turn")} · ${t("ui.title")}` : t("ui.title");
  if (mine && !state.wasMine) play("turn");  // the chime (sounds.js: only when switched on)
  // your turn begins: your pawn in sight (on a phone it may be under the bar), gently
  if (mine && !state.wasMine && mover.position > 0) requestAnimationFrame(() => bringIntoView(mover.position));
  state.wasMine = mine;
}

/** A decision's option with where it leads: "Move on → 9 The cave" (its chance is added by
 * odds.js when it comes); "Stay" where the pawn does not move.
 * @param {string} move @param {number | null | undefined} square */
function optionLabel(move, square) {
  if (move === "roll") return t("ui.roll");
  const option = texts.options[move] || move;
  if (square === null || square === undefined) return option;
  const title = texts.squares[square - 1]?.title ?? "";
  // "Paddle to 27: Savages", not "Paddle to 27 → 27 Savages": the label may name the square
  if (new RegExp(`(^|\\D)${square}(\\D|$)`).test(option)) return t("web.option_titled", { option, title });
  return t("web.option_to", { option, square, title });
}

/** Hovering or focusing an option lights the square it leads to on the board, with a ghost of
 * the mover's pawn there when it would move.
 * @param {HTMLElement} button @param {number} square @param {number} seat @param {boolean} moves */
function showLeadOn(button, square, seat, moves) {
  button.dataset.target = String(square);
  const on = () => { markTarget($("board"), square, moves ? seat : null); bringIntoView(square); };
  const off = () => markTarget($("board"), null);
  button.addEventListener("focus", on); button.addEventListener("mouseenter", on);
  button.addEventListener("blur", off); button.addEventListener("mouseleave", off);
}

/** The prompt and the moves offered to this browser's seat (or the rematch once it is over).
 * @param {TableState} state @param {Send} send */
export function renderActions(state, send) {
  const game = state.game;
  const asked = !game.over && game.to_move === ownSeat(state) && game.players[game.to_move].kind === "human";
  $("prompt").textContent = awaiting(game) ? "" : asked && game.prompt_you ? game.prompt_you : game.prompt;
  const actions = $("actions");
  const hadFocus = actions.contains(document.activeElement);
  actions.replaceChildren();
  actions.dataset.version = String(game.version);
  const mover = game.players[game.to_move];
  if (!game.over && !awaiting(game) && state.you.includes(game.to_move) && mover.kind === "human") {
    const leads = Object.fromEntries((game.leads || []).map((l) => [l.option, l.square]));
    for (const move of game.legal) {
      const b = make("button", null, { type: "button", "data-move": move });
      b.append(make("span", optionLabel(move, leads[move]), { class: "option" }), make("span", null, { class: "chance" }));
      if (move in leads) showLeadOn(b, leads[move] ?? mover.position, game.to_move, leads[move] !== null);
      b.onclick = () => {
        if (state.busy) return;
        state.busy = true;
        for (const x of actions.querySelectorAll("button")) x.disabled = true;
        send({ type: "act", game: game.id, version: game.version, move, token: state.seatTokens[game.to_move] });
      };
      actions.append(b);
    }
    // Keep the keyboard where the play is: the new buttons take the focus the old ones had.
    if (hadFocus || document.activeElement === document.body || !document.activeElement) {
      /** @type {HTMLElement | null} */ (actions.firstElementChild)?.focus();
    }
  }
}

/** The rematch, where the moves were: big and in reach (after the odds filled the chances).
 * @param {TableState} state @param {Send} send */
export function renderRematch(state, send) {
  if (!state.game.over || !state.you.length) return;
  const b = make("button", t("web.rematch"), { type: "button", id: "rematch" });
  b.onclick = () => send({ type: "rematch", token: state.seatTokens[state.you[0]] });
  $("actions").append(b);
}
