// @ts-check
// A table: play (online, hot-seat, with bots) or watch. The server decides everything; this only
// shows its state and sends the player's clicks.
//
// One state object (`state`) holds what the page knows; each server message type has one
// handler (`HANDLERS`) that changes it; then each panel (`PANELS`) draws its own part of the
// page from it: the players and seats, the turn, the moves, the chances, the end. The log is
// told by the handlers as the messages come (log.js), the board by scene.js and board.js.
import { drawParrot, drawPawns, markTarget, spots } from "./board.js";
import { request, NETWORK } from "./api.js";
import { renderDice, verifyDice } from "./dice.js";
import { $, showConnection, showError } from "./dom.js";
import { renderEnd, renderSeries } from "./end.js";
import { renderHints } from "./hints.js";
import { renderReactions, renderWatching, showReaction } from "./reactions.js";
import { entriesOf, TurnLog } from "./log.js";
import { flyTokens, parrotMoment, still, walkPawns } from "./motion.js";
import { showChart, showOdds } from "./odds.js";
import { followPawn, foldLog, redrawBoard, renderPlayers, showDie } from "./scene.js";
import { decorateSeats, takeFragment } from "./seats.js";
import { hostSecret, keepPush, keepSeatTokens, keepSound, pushOn, seatTokens, soundOn } from "./storage.js";
import { ensureTexts, errorText, loadTexts, t, texts } from "./texts.js";
import { play, playEvents } from "./sounds.js";
import { ownSeat, renderActions, renderRematch, renderTurn } from "./turn.js";
import { renderWaiting } from "./waiting.js";
import { rememberTable } from "./yours.js";

/** @typedef {import("./types.js").GameView} GameView */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {(msg: Record<string, unknown>) => void} Send */
/**
 * What the page knows of its table.
 * @typedef {object} TableState
 * @property {string | null} table
 * @property {string[]} tokens the seats' secrets this browser holds here
 * @property {Record<number, string>} seatTokens which secret holds which seat
 * @property {number[]} you the seats this connection holds (the server says)
 * @property {GameView | null} game the game as last drawn (or about to be)
 * @property {WebSocket | null} ws
 * @property {boolean} busy a move sent, its answer not come
 * @property {number} retry ms before the next reconnection
 * @property {string | null} payoutShown the game whose payout was told
 * @property {TurnLog | null} log
 * @property {boolean} wasMine it was this browser's turn at the last drawing
 * @property {ServerMessage[]} inbox messages waiting to be told, in order
 * @property {boolean} draining
 * @property {boolean} shown a snapshot has been drawn
 */

/** @type {TableState} */
const state = { table: null, tokens: [], seatTokens: {}, you: [], game: null, ws: null, busy: false,
  retry: 500, payoutShown: null, log: null, wasMine: false, inbox: [], draining: false, shown: false };
function view() { return { you: state.you, seatTokens: state.seatTokens, table: state.table, send, box: $("side-panels") }; }

// ------------------------------------------------------------------------------- the panels
// Each draws its own part of the page from `state` (its game is the one to show).
/** @type {((state: TableState) => void)[]} */
const PANELS = [
  function players(s) {  // the pawns, purses and bank
    renderPlayers(s.game.players, { toMove: s.game.over ? null : s.game.to_move, you: s.you, bank: s.game.bank, over: s.game.over });
  },
  function turn(s) {  // whose turn; a waiting room's whom and the host's start; the series; hints
    renderTurn(s);
    renderWaiting($("waiting-room"), s.game, s.table);
    renderSeries($("series"), s.game);
    renderHints($("hints"), s.game, s.you);  // the quick start, in a player's first game here
  },
  function social(s) {  // who is watching, the reactions
    renderWatching($("watching"), s.game);
    renderReactions($("reactions"), s.game, s.you, send);
    $("reactions").dataset.mover = s.game.over || s.game.to_move === null ? "" : String(s.game.to_move);
  },
  function seats(s) {  // presence, clocks, each seat's menu, the host's invites (seats.js)
    decorateSeats(s.game, { you: s.you, seatTokens: s.seatTokens, send });
  },
  function rules(s) {  // the rules in force and the fair dice
    renderInForce(s.game);
    renderDice(s.game, view());
  },
  (s) => renderActions(s, send),
  function odds(s) {  // after the buttons: it fills their chances
    showOdds(s.game.id, s.game.version, s.game.over ? null : s.game.to_move);
  },
  (s) => renderRematch(s, send),
  function end(s) {
    const game = s.game;
    const fresh = game.over && s.payoutShown !== game.id;
    if (game.over) s.payoutShown = game.id;
    renderEnd($("end"), game, { fresh, links: true, start: game.ruleset?.start_tokens ?? null });
    if (game.over) showChart(game.id, $("end"), names(game), (v) => { location.href = `/replay/${game.id}?step=${v}`; });
  },
];

function render() {
  state.busy = false;
  markTarget($("board"), null);
  for (const panel of PANELS) panel(state);
}

// The rules in force at this table, always in view: who started and keeps the bank (the
// printed rules' youngest, or the table's first seat), then the edition and the money options.
/** @param {GameView} game */
function renderInForce(game) {
  const first = game.players[game.first ?? 0];
  $("starts").textContent = first ? t("web.starts", { name: first.name }) : "";
  $("rules-summary").textContent = game.rules || texts.rules || "";
}

// ---------------------------------------------------------------------- the server's messages
/** @param {GameView} game */
const names = (game) => game.players.map((p) => p.name);

/** @template {{seat?: number | null}} E @param {E} entry @param {string | undefined} you the line in the second person
 * @returns {E} */
function toYou(entry, you) {
  return you && entry.seat !== null && entry.seat !== undefined && entry.seat === ownSeat(state) ? { ...entry, line: you } : entry;
}
/** @param {string[] | undefined} lines */
const notes = (lines) => (lines || []).map((line) => ({ kind: "note", seat: null, line }));

/** One handler per message type; each may wait (an update's die and pawns are told first).
 * @type {{[K in ServerMessage["type"]]: (msg: Extract<ServerMessage, {type: K}>) => Promise<void> | void}} */
const HANDLERS = {
  async snapshot(msg) {
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
    render();  // state.game, not msg.game: an update may have come in while the texts loaded
    state.shown = true;
  },
  async update(msg) {
    if (msg.game === state.game.id && msg.version <= state.game.version) return;  // had it already
    if (msg.game !== state.game.id || msg.version !== state.game.version + 1) { hello(); return; }  // resync
    state.game = msg.state;
    state.log.add(notes(msg.notes));  // seats.js
    const yours = msg.narration_you || [];
    const entries = entriesOf(msg.events, msg.narration, msg.told).map((entry, j) => toYou(entry, yours[j]));
    const before = { ...spots };
    // In order (issue 18): the die lands, the pawns arrive, then the words, purses and banner
    // change. At once under reduced motion, or when more messages wait (a page catching up).
    const told = !still() && !state.inbox.length && !document.hidden;
    if (told) await playMove(msg.events, before, msg.state);
    state.log.add(entries);
    render();
    animate(msg.events, before, told);
  },
  state(msg) {  // seats changed: who did what is in `narration`
    state.log?.add(notes(msg.narration));
    state.game = msg.state;
    if (state.shown) render();  // else the snapshot being drawn renders it
  },
  error(msg) {
    // seeds_fixed: this page's seed came after the first roll: the server's stands in (dice.js)
    if (msg.code === "seeds_fixed") return;
    state.busy = false;
    if (msg.code === "stale_version") hello();
    showError(errorText(msg));
    if (state.game) render();
  },
  ack() { showError(""); },
  pong() {},  // the answer to a ping (this page sends none): nothing to show
  reaction(msg) { showReaction(msg, state.game); },
};

/** @param {ServerMessage} msg */
async function receive(msg) {
  const handle = HANDLERS[msg.type];
  if (handle) await handle(/** @type {any} */ (msg));
}

// The die tumbles to each face rolled, then the pawns walk (drawn where they end, the walk
// playing over it); resolves when they have arrived.
/** @param {GameEvent[]} events @param {object} before @param {GameView} game */
async function playMove(events, before, game) {
  for (const e of events) {
    if (e.kind === "rolled") { play("die"); await showDie(e.face); }
  }
  followPawn(events);
  drawPawns($("board"), game.players, game.over ? null : game.to_move);
  await walkPawns($("board"), events, before);
  if (events.some((e) => e.kind === "moved")) play("land");
}

// What follows the words: the parrot, the tokens flying. Without `played` (no motion, or a
// page catching up) the die and the pawns are set at once.
/** @param {GameEvent[]} events @param {object} before @param {boolean} played */
function animate(events, before, played) {
  if (!played) followPawn(events);
  for (const e of events) {
    if (e.kind === "rolled" && !played) showDie(e.face, false);
    if (e.kind === "chorus") parrotMoment($("parrot"));  // square 17: every viewer gets the parrot
  }
  flyTokens(events);
  playEvents(events);
}

// ------------------------------------------------------------------------------- connection
/** The seats' secrets kept here and those in the address (taken out of it, kept).
 * @param {string} tableId */
function tableTokens(tableId) {
  const known = new Set(seatTokens(tableId));
  for (const tok of decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean)) known.add(tok);
  keepSeatTokens(tableId, [...known]);
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
/** @param {ServerMessage} msg */
function arrived(msg) {
  if (msg.type === "reaction") { HANDLERS.reaction(msg); return; }
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

/** @type {Send} */
export function send(msg) { if (state.ws && state.ws.readyState === 1) state.ws.send(JSON.stringify(msg)); }

// Which token holds which seat: ask the server once per token (one it refuses holds none).
async function mapTokens() {
  state.seatTokens = {};
  for (const token of state.tokens) {
    try {
      state.seatTokens[(await request(`/api/tables/${state.table}/whoami`, { body: { token } })).seat] = token;
    } catch (e) {
      if (e.code === NETWORK) throw e;
    }
  }
}

/** @param {string} tableId */
export async function openTable(tableId) {
  $("table").hidden = false;
  state.table = tableId;
  await takeFragment(tableId);  // offers an invite (#i:…), keeps the host's secret (#h:…)
  state.tokens = tableTokens(tableId);
  state.log = new TurnLog($("log"), []);
  foldLog();
  await mapTokens();
  // "Your tables" on the home page: which seats this browser holds here, and when it was here
  if (Object.keys(state.seatTokens).length || hostSecret(tableId)) {
    rememberTable(tableId, Object.keys(state.seatTokens));
  }
  drawParrot($("parrot-bird"));
  if (!texts.squares.length || $("board").childElementCount === 0) redrawBoard();
  $("verify").onclick = () => verifyDice(state.game.id);
  const sound = /** @type {HTMLInputElement} */ ($("sound")), push = /** @type {HTMLInputElement} */ ($("push"));
  sound.checked = soundOn();
  sound.onchange = () => keepSound(sound.checked);
  push.checked = pushOn(tableId);
  push.onchange = () => pushChanged(push.checked);
  // The board's column count follows the window (columnsFor): redraw it when a resize or a
  // turned phone crosses the breakpoint, pawns and all.
  window.matchMedia("(max-width: 639.98px)").addEventListener("change", () => {
    if (state.game) { redrawBoard(); render(); }
  });
  connect();
}

// Web Push for this browser's seats here (push.js, loaded only now): on, off, or on again in a
// new language. What went wrong is said under the box, and the box shows what is true.
/** @param {boolean} on */
async function pushChanged(on) {
  const box = /** @type {HTMLInputElement} */ ($("push"));
  $("push-note").textContent = "";
  const { setPush } = await import("./push.js");
  const problem = await setPush(on, state.table, state.seatTokens, texts.lang);
  if (problem && on) box.checked = false;
  $("push-note").textContent = problem ? t(problem) : "";
  keepPush(state.table, box.checked);
}

/** @param {string} lang */
export async function switchLanguage(lang) {
  await loadTexts(lang, state.game ? state.game.id : null);
  if (/** @type {HTMLInputElement} */ ($("push")).checked && state.table) pushChanged(true);
  if (!state.game) return;
  redrawBoard(); render(); showDie(Number($("die").dataset.face) || null, false);
  send({ type: "lang", lang: texts.lang });  // the server sends a fresh snapshot: the log in this language
}
