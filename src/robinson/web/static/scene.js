// @ts-check
// What the live table and the replay both show, drawn from a position: the board with its
// square texts, the pawns, the purses and the bank (the players panel), the die, and the board
// scrolled so a square is in sight on a phone.
import { drawBoard, drawDie, drawLegend, drawPawns, robotIcon, seatIcon } from "./board.js";
import { $, make } from "./dom.js";
import { still, tumbleDie } from "./motion.js";
import { joinNumbers, ownLine, t, texts, tn } from "./texts.js";

/** @typedef {import("./types.js").PlayerView} PlayerView */
/** @typedef {import("./types.js").GameEvent} GameEvent */

// The full text of a square, on tap or focus, in a live region of fixed height (the page does
// not move when it fills).
/** @param {import("./types.js").SquareText} sq */
export function pickSquare(sq) {
  $("square-info").replaceChildren(make("strong", `${sq.number}. ${sq.title || ""}`), make("p", joinNumbers(sq.story)),
    make("p", ownLine(sq.effect), { class: "effect" }));
}

function squareHint() {
  $("square-info").replaceChildren(make("p", t("web.square_hint"), { class: "hint" }));
}

/** On a phone the log starts folded away (one tap opens it); on a desk it is open. */
export function foldLog() {
  /** @type {HTMLDetailsElement} */ ($("log-box")).open = !window.matchMedia("(max-width: 760px)").matches;
}

export function redrawBoard() {
  squareHint();
  drawBoard($("board"), texts.squares, pickSquare);
  drawLegend($("legend"), t);
}

/** Who is who: "Cila serves Anna" for each Friday link. @param {PlayerView[]} players @param {PlayerView} p */
function fridayLine(players, p) { return t("web.serves", { friday: players[p.friday].name, master: p.name }); }

/**
 * A seat in the player strip (issue 18), on every screen: its shape and colour, presence, name,
 * purse and square (a coin and a square drawn by style.css, the words for screen readers), and
 * how long an absent player has been away (seats.js's ticker counts it up). Greyed when dead.
 * @param {PlayerView} p @param {boolean} moving @param {boolean} over
 */
function stripChip(p, moving, over) {
  const chip = make("li", null, { "data-purse": p.seat });
  if (moving) chip.classList.add("to-move");
  if (!p.alive) chip.classList.add("out");
  chip.append(seatIcon(p.seat, 14));
  if (p.kind === "human" && typeof p.present === "boolean") {
    chip.append(make("span", null, { class: "presence", "data-present": String(p.present), "aria-hidden": "true" }));
  }
  chip.append(make("span", p.name, { class: "who" }),
    make("span", String(p.purse), { class: "coins", "aria-hidden": "true" }),
    make("span", String(p.position), { class: "at", "aria-hidden": "true" }),
    make("span", t("web.strip_seat", { purse: tn("web.tokens", p.purse), square: p.position }), { class: "visually-hidden" }));
  if (p.kind === "human" && p.present === false && p.away_since && !over) {
    chip.append(make("span", "", { class: "away", "data-away-since": p.away_since }));
  }
  return chip;
}

/**
 * The players panel: the pawns, purses, the bank, Friday links and skips of `players` (a game
 * view's or a replay step's); seats.js adds presence, clocks and each seat's menu after it.
 * @param {PlayerView[]} players
 * @param {{toMove?: number | null, you?: number[], bank?: number | null, over?: boolean}} [where]
 */
export function renderPlayers(players, { toMove = null, you = [], bank = null, over = false } = {}) {
  drawPawns($("board"), players, toMove);
  $("bank").replaceChildren(make("span", t("ui.bank"), { class: "label" }), ": ",
    make("span", bank === null ? "" : tn("web.tokens", bank), { id: "bank-amount" }));
  const list = $("players"), strip = $("purses");
  list.replaceChildren(); strip.replaceChildren();
  for (const p of players) {
    const li = make("li", null, { "data-player": p.seat });
    if (p.seat === toMove) li.classList.add("to-move");
    if (!p.alive) li.classList.add("out");  // greyed: out of the game
    li.append(seatIcon(p.seat), " ", make("span", p.name, { class: "name" }));
    if (p.kind === "bot") li.append(" ", robotIcon(), make("span", t("web.bot_named", { bot: t(`web.bot.${p.bot}`, {}, p.bot) }), { class: "bot" }));
    if (you.includes(p.seat)) li.append(" ", make("span", t("web.you"), { class: "you" }));
    const facts = [`${t("ui.square")} ${p.position}`, `${t("ui.purse")}: ${tn("web.tokens", p.purse)}`];
    if (!p.alive) facts.push(t("web.died_on", { square: p.position }));
    if (p.friday !== null && p.friday !== undefined) facts.push(fridayLine(players, p));
    if (p.skips) facts.push(tn("web.skips", p.skips));
    if (p.shipwrecked) facts.push(t("ui.mark"));
    li.append(make("div", facts.join(" · "), { class: "facts" }));
    list.append(li);
    strip.append(stripChip(p, p.seat === toMove, over));
  }
}

/**
 * Resolves when the die shows `face` (after its tumble, when `roll`).
 * @param {number | null} face
 * @param {boolean} [roll]
 * @returns {Promise<void>}
 */
export function showDie(face, roll = true) {
  const die = $("die");
  return new Promise((done) => {
    const settle = () => {
      drawDie(die, face);
      die.dataset.face = face ? String(face) : "";
      die.setAttribute("aria-label", face ? t("web.die_face", { face }) : t("web.die"));
      done();
    };
    if (roll && face) tumbleDie(die, face, settle); else settle();
  });
}

// A square kept in sight: on a phone the fixed bar covers the bottom of the window, so the
// square must be between the top and the bar (scrolled there only if it is not).
/** @param {number} square */
export function bringIntoView(square) {
  const card = document.querySelector(`#board [data-square="${square}"]`);
  if (!card) return;
  const box = card.getBoundingClientRect(), dock = $("dock").getBoundingClientRect();
  const bottom = getComputedStyle($("dock")).position === "fixed" ? dock.top : window.innerHeight;
  const by = box.top < 0 ? box.top - 8 : box.bottom > bottom ? box.bottom - bottom + 8 : 0;
  if (by) window.scrollBy({ top: by, behavior: still() ? "auto" : "smooth" });
}

// On a phone the board is taller than the screen: the square a pawn walks to is scrolled
// into sight (between the top and the bar) if it is not, so the move is seen where it ends.
/** @param {GameEvent[]} events */
export function followPawn(events) {
  if (!window.matchMedia("(max-width: 760px)").matches) return;
  const last = [...events].reverse().find((e) => e.kind === "moved");
  if (last) bringIntoView(last.end);
}
