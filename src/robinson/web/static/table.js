// A table: play (online, hot-seat, with bots) or watch. The server decides everything; this only
// shows its state and sends the player's clicks.
//
// Other modules add their own panels without editing this file much: `addPanel(fn)` calls
// fn(game, view) after every render, with view = { you, seatTokens, table, send, box } where
// box is the #side-panels element (each panel keeps its own child there).
import { COLOURS, drawBoard, drawDie, drawLegend, drawParrot, drawPawns, markTarget, robotIcon, seatIcon, spots } from "./board.js";
import { renderDice, verifyDice } from "./dice.js";
import { renderEnd, renderSeries } from "./end.js";
import { renderHints } from "./hints.js";
import { renderReactions, renderWatching, showReaction } from "./reactions.js";
import { entriesOf, TurnLog } from "./log.js";
import { flyTokens, parrotMoment, still, tumbleDie, walkPawns } from "./motion.js";
import { showChart, showOdds } from "./odds.js";
import { decorateSeats, takeFragment } from "./seats.js";
import { ensureTexts, errorText, joinNumbers, loadTexts, ownLine, t, texts, tn } from "./texts.js";
import { play, playEvents } from "./sounds.js";
import { awaiting, renderWaiting } from "./waiting.js";
import { rememberTable } from "./yours.js";

export const $ = (id) => document.getElementById(id);
export function make(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;  // text, never markup
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
// A refused move or request, in a toast in the viewport (an alert: read out at once); it goes
// by itself after a while, or when the next move is accepted.
let errorTimer = null;
export function showError(message, stay = false) {
  $("error").textContent = message || "";
  clearTimeout(errorTimer);
  if (message && !stay) errorTimer = setTimeout(() => { $("error").textContent = ""; }, 8000);
}
// The connection's state ("Connection lost; reconnecting…"), in view until it is back.
export function showConnection(message) { $("connection").textContent = message || ""; }

const state = { table: null, tokens: [], seatTokens: {}, you: [], game: null, ws: null, busy: false,
  retry: 500, payoutShown: null, log: null, wasMine: false, inbox: [], draining: false };
const panels = [];
export function addPanel(render) { panels.push(render); if (state.game) render(state.game, view()); }
function view() { return { you: state.you, seatTokens: state.seatTokens, table: state.table, send, box: $("side-panels") }; }

// The full text of a square, on tap or focus, in a live region of fixed height (the page does
// not move when it fills).
export function pickSquare(sq) {
  $("square-info").replaceChildren(make("strong", `${sq.number}. ${sq.title || ""}`), make("p", joinNumbers(sq.story)),
    make("p", ownLine(sq.effect), { class: "effect" }));
}

function squareHint() {
  $("square-info").replaceChildren(make("p", t("web.square_hint"), { class: "hint" }));
}

// On a phone the log starts folded away (one tap opens it); on a desk it is open.
export function foldLog() { $("log-box").open = !window.matchMedia("(max-width: 760px)").matches; }

export function redrawBoard() {
  squareHint();
  drawBoard($("board"), texts.squares, pickSquare);
  drawLegend($("legend"), t);
}

// Who is who: "Cila serves Anna" for each Friday link.
function fridayLine(players, p) { return t("web.serves", { friday: players[p.friday].name, master: p.name }); }

// The purses, the bank, Friday links and skips of `players` (a game view's or a replay step's).
export function renderPlayers(players, { toMove = null, you = [], bank = null } = {}) {
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
    const chip = make("li", null, { "data-purse": p.seat });
    chip.append(seatIcon(p.seat, 14), make("span", `${p.name} ${p.purse}`));
    if (p.seat === toMove) chip.classList.add("to-move");
    strip.append(chip);
  }
}

// Resolves when the die shows `face` (after its tumble, when `roll`).
export function showDie(face, roll = true) {
  const die = $("die");
  return new Promise((done) => {
    const settle = () => {
      drawDie(die, face);
      die.dataset.face = face || "";
      die.setAttribute("aria-label", face ? t("web.die_face", { face }) : t("web.die"));
      done();
    };
    if (roll && face) tumbleDie(die, face, settle); else settle();
  });
}

// ------------------------------------------------------------------------------- connection
function tableTokens(tableId) {
  const key = `robinson.tokens.${tableId}`;
  const known = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
  for (const tok of decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean)) known.add(tok);
  localStorage.setItem(key, JSON.stringify([...known]));
  if (location.hash) history.replaceState(null, "", location.pathname);  // keep the secret out of sight
  return [...known];
}

// With the game and version it shows, the page is sent only the moves it missed (a few), else
// a snapshot.
function hello() {
  const shown = state.shown && state.game ? { game: state.game.id, version: state.game.version } : {};
  send({ type: "hello", lang: texts.lang, tokens: state.tokens, ...shown });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${state.table}`);
  state.ws = ws;
  ws.onopen = () => { state.retry = 500; showConnection(""); hello(); };
  ws.onmessage = (m) => arrived(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (ev.code === 4404) return;
    showConnection(t("web.connection_lost"));
    // lost connection (its server process may have gone): come back through the load balancer
    // and resync with hello; jittered so the viewers of a dead process do not return at once
    setTimeout(connect, state.retry * (0.5 + Math.random()));
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

// Messages are taken one at a time, in order: a move's update waits for the one before to be
// told (its die landed, its pawns arrived). A reaction is shown at once.
function arrived(msg) {
  if (msg.type === "reaction") { showReaction(msg, state.game); return; }
  state.inbox.push(msg);
  if (!state.draining) drain();
}

async function drain() {
  state.draining = true;
  while (state.inbox.length) {
    const msg = state.inbox.shift();
    try { await receive(msg); } catch (e) { setTimeout(() => { throw e; }); }  // reported, not stuck
  }
  state.draining = false;
}

export function send(msg) { if (state.ws && state.ws.readyState === 1) state.ws.send(JSON.stringify(msg)); }

const names = (game) => game.players.map((p) => p.name);

// The viewer's own seat, told in the second person ("You roll 6.", "Roll the die."): only when
// this browser holds exactly one seat. In hot-seat several people share the screen and "you"
// would not say whom, so every seat keeps its name (third person); a spectator has none.
function ownSeat() { return state.you.length === 1 ? state.you[0] : null; }
function toYou(entry, you) {
  return you && entry.seat !== null && entry.seat !== undefined && entry.seat === ownSeat() ? { ...entry, line: you } : entry;
}

async function receive(msg) {
  if (msg.type === "snapshot") {
    const newGame = !state.game || state.game.id !== msg.game.id;
    state.you = msg.you; state.game = msg.game;
    if (newGame) {
      if (texts.game !== msg.game.id) { await ensureTexts(texts.lang, msg.game.id); redrawBoard(); }
      showDie(msg.game.last_roll, false);
    }
    const turn = msg.log_turn || 1;  // the first turn shown is the game's first: its mover is known
    state.log.reset(turn, names(state.game), turn === 1 ? msg.game.first ?? null : null);
    const kinds = msg.log_kinds || msg.log.map(() => ["", null]), yours = msg.log_you || [];
    state.log.add(msg.log.map((line, i) => toYou({ kind: kinds[i][0], seat: kinds[i][1], line }, yours[i])));
    render(state.game);  // not msg.game: an update may have come in while the texts loaded
    state.shown = true;
  } else if (msg.type === "update") {
    if (msg.game === state.game.id && msg.version <= state.game.version) return;  // had it already
    if (msg.game !== state.game.id || msg.version !== state.game.version + 1) { hello(); return; }  // resync
    state.game = msg.state;
    state.log.add((msg.notes || []).map((line) => ({ kind: "note", seat: null, line })));  // seats.js
    const yours = msg.narration_you || [];
    const entries = entriesOf(msg.events, msg.narration, msg.told).map((entry, j) => toYou(entry, yours[j]));
    const before = { ...spots };
    // In order (issue 18): the die lands, the pawns arrive, then the words, purses and banner
    // change. At once under reduced motion, or when more messages wait (a page catching up).
    const told = !still() && !state.inbox.length && !document.hidden;
    if (told) await playMove(msg.events, before, msg.state);
    state.log.add(entries);
    render(msg.state);
    animate(msg.events, before, told);
  } else if (msg.type === "state") {  // seats changed: who did what is in `narration`
    state.log?.add((msg.narration || []).map((line) => ({ kind: "note", seat: null, line })));
    state.game = msg.state;
    if (state.shown) render(msg.state);  // else the snapshot being drawn renders it
  } else if (msg.type === "error" && msg.code === "seeds_fixed") {
    // This page's seed came after the first roll: the server's stands in for it (dice.js).
  } else if (msg.type === "error") {
    state.busy = false;
    if (msg.code === "stale_version") hello();
    showError(errorText(msg));
    if (state.game) render(state.game);
  } else if (msg.type === "ack") {
    showError("");
  }
}

// The die tumbles to each face rolled, then the pawns walk (drawn where they end, the walk
// playing over it); resolves when they have arrived.
async function playMove(events, before, game) {
  for (const e of events) {
    if (e.kind === "rolled") { play("die"); await showDie(e.face); }
  }
  followPawn(events);
  drawPawns($("board"), game.players, game.over ? null : game.to_move);
  await walkPawns($("board"), events, before);
  if (events.some((e) => e.kind === "moved")) play("land");
}

// On a phone the board is taller than the screen: the square a pawn walks to is scrolled
// into sight (between the top and the bar) if it is not, so the move is seen where it ends.
function followPawn(events) {
  if (!window.matchMedia("(max-width: 760px)").matches) return;
  const last = [...events].reverse().find((e) => e.kind === "moved");
  if (last) bringIntoView(last.end);
}

// What follows the words: the parrot, the tokens flying. Without `played` (no motion, or a
// page catching up) the die and the pawns are set at once.
function animate(events, before, played) {
  if (!played) followPawn(events);
  for (const e of events) {
    if (e.kind === "rolled" && !played) showDie(e.face, false);
    if (e.kind === "chorus") parrotMoment($("parrot"));  // square 17: every viewer gets the parrot
  }
  flyTokens(events);
  playEvents(events);
}

// Whose turn: a banner, the tab title, the pawn ring (drawPawns) and, if asked for, a sound.
function renderTurn(game) {
  const banner = $("turn");
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

// A decision's option with where it leads: "Move on → 9 The cave" (its chance is added by
// odds.js when it comes); "Stay" where the pawn does not move.
function optionLabel(move, square) {
  if (move === "roll") return t("ui.roll");
  const option = texts.options[move] || move;
  if (square === null || square === undefined) return option;
  const title = texts.squares[square - 1]?.title ?? "";
  // "Paddle to 27: Savages", not "Paddle to 27 → 27 Savages": the label may name the square
  if (new RegExp(`(^|\\D)${square}(\\D|$)`).test(option)) return t("web.option_titled", { option, title });
  return t("web.option_to", { option, square, title });
}

// Hovering or focusing an option lights the square it leads to on the board, with a ghost of
// the mover's pawn there when it would move.
function showLeadOn(button, square, seat, moves) {
  button.dataset.target = square;
  const on = () => { markTarget($("board"), square, moves ? seat : null); bringIntoView(square); };
  const off = () => markTarget($("board"), null);
  button.addEventListener("focus", on); button.addEventListener("mouseenter", on);
  button.addEventListener("blur", off); button.addEventListener("mouseleave", off);
}

// A square kept in sight: on a phone the fixed bar covers the bottom of the window, so the
// square must be between the top and the bar (scrolled there only if it is not).
function bringIntoView(square) {
  const card = document.querySelector(`#board [data-square="${square}"]`);
  if (!card) return;
  const box = card.getBoundingClientRect(), dock = $("dock").getBoundingClientRect();
  const bottom = getComputedStyle($("dock")).position === "fixed" ? dock.top : window.innerHeight;
  const by = box.top < 0 ? box.top - 8 : box.bottom > bottom ? box.bottom - bottom + 8 : 0;
  if (by) window.scrollBy({ top: by, behavior: still() ? "auto" : "smooth" });
}

function render(game) {
  state.busy = false;
  markTarget($("board"), null);
  renderPlayers(game.players, { toMove: game.over ? null : game.to_move, you: state.you, bank: game.bank });
  renderTurn(game);
  renderWaiting($("waiting-room"), game, state.table);  // a waiting room: whom, and the host's start
  renderSeries($("series"), game);
  renderHints($("hints"), game, state.you);  // the quick start, in a player's first game here
  renderWatching($("watching"), game);
  renderReactions($("reactions"), game, state.you, send);
  $("reactions").dataset.mover = game.over || game.to_move === null ? "" : String(game.to_move);
  decorateSeats(game, { you: state.you, seatTokens: state.seatTokens, send });
  renderInForce(game);
  renderDice(game, view());
  const asked = !game.over && game.to_move === ownSeat() && game.players[game.to_move].kind === "human";
  $("prompt").textContent = awaiting(game) ? "" : asked && game.prompt_you ? game.prompt_you : game.prompt;
  const actions = $("actions");
  const hadFocus = actions.contains(document.activeElement);
  actions.replaceChildren();
  actions.dataset.version = game.version;
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
    if (hadFocus || document.activeElement === document.body || !document.activeElement) actions.firstChild?.focus();
  }
  showOdds(game.id, game.version, game.over ? null : game.to_move);  // after the buttons: it fills their chances
  if (game.over && state.you.length) {  // the rematch, where the moves were: big and in reach
    const b = make("button", t("web.rematch"), { type: "button", id: "rematch" });
    b.onclick = () => send({ type: "rematch", token: state.seatTokens[state.you[0]] });
    actions.append(b);
  }
  const fresh = game.over && state.payoutShown !== game.id;
  if (game.over) state.payoutShown = game.id;
  renderEnd($("end"), game, { fresh, links: true, start: game.ruleset?.start_tokens ?? null });
  if (game.over) showChart(game.id, $("end"), names(game), (v) => { location.href = `/replay/${game.id}?step=${v}`; });
  for (const panel of panels) panel(game, view());
}

// The rules in force at this table, always in view: who started and keeps the bank (the
// printed rules' youngest, or the table's first seat), then the edition and the money options.
function renderInForce(game) {
  const first = game.players[game.first ?? 0];
  $("starts").textContent = first ? t("web.starts", { name: first.name }) : "";
  $("rules-summary").textContent = game.rules || texts.rules || "";
}

// Which token holds which seat: ask the server once per token.
async function mapTokens() {
  state.seatTokens = {};
  for (const tok of state.tokens) {
    const r = await fetch(`/api/tables/${state.table}/whoami`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tok }) });
    if (r.ok) state.seatTokens[(await r.json()).seat] = tok;
  }
}

export async function openTable(tableId) {
  $("table").hidden = false;
  state.table = tableId;
  await takeFragment(tableId);  // offers an invite (#i:…), keeps the host's secret (#h:…)
  state.tokens = tableTokens(tableId);
  state.log = new TurnLog($("log"), []);
  foldLog();
  await mapTokens();
  // "Your tables" on the home page: which seats this browser holds here, and when it was here
  if (Object.keys(state.seatTokens).length || localStorage.getItem(`robinson.host.${tableId}`)) {
    rememberTable(tableId, Object.keys(state.seatTokens));
  }
  drawParrot($("parrot-bird"));
  if (!texts.squares.length || $("board").childElementCount === 0) redrawBoard();
  $("verify").onclick = () => verifyDice(state.game.id);
  $("sound").checked = localStorage.getItem("robinson.sound") === "on";
  $("sound").onchange = () => localStorage.setItem("robinson.sound", $("sound").checked ? "on" : "off");
  $("push").checked = localStorage.getItem(`robinson.push.${tableId}`) === "on";
  $("push").onchange = () => pushChanged($("push").checked);
  // The board's column count follows the window (columnsFor): redraw it when a resize or a
  // turned phone crosses the breakpoint, pawns and all.
  window.matchMedia("(max-width: 639.98px)").addEventListener("change", () => {
    if (state.game) { redrawBoard(); render(state.game); }
  });
  connect();
}

// Web Push for this browser's seats here (push.js, loaded only now): on, off, or on again in a
// new language. What went wrong is said under the box, and the box shows what is true.
async function pushChanged(on) {
  $("push-note").textContent = "";
  const { setPush } = await import("./push.js");
  const problem = await setPush(on, state.table, state.seatTokens, texts.lang);
  if (problem && on) $("push").checked = false;
  $("push-note").textContent = problem ? t(problem) : "";
  localStorage.setItem(`robinson.push.${state.table}`, $("push").checked ? "on" : "off");
}

export async function switchLanguage(lang) {
  await loadTexts(lang, state.game ? state.game.id : null);
  if ($("push").checked && state.table) pushChanged(true);
  if (!state.game) return;
  redrawBoard(); render(state.game); showDie(Number($("die").dataset.face) || null, false);
  send({ type: "lang", lang: texts.lang });  // the server sends a fresh snapshot: the log in this language
}

export { COLOURS };
