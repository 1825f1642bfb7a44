// A table: play (online, hot-seat, with bots) or watch. The server decides everything; this only
// shows its state and sends the player's clicks.
import { COLOURS, drawBoard, drawDie, drawParrot, drawPawns, robotIcon } from "./board.js";
import { showChart, showOdds } from "./odds.js";
import { errorText, loadTexts, t, texts, tn } from "./texts.js";

export const $ = (id) => document.getElementById(id);
export function make(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;  // text, never markup
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
export function showError(message) { $("error").textContent = message || ""; }

const state = { table: null, tokens: [], seatTokens: {}, you: [], game: null, ws: null, busy: false,
  retry: 500, payoutShown: null };

export function pickSquare(sq) {
  $("square-info").replaceChildren(make("strong", `${sq.number}. ${sq.title || ""}`), make("p", sq.story),
    make("p", sq.effect || "", { class: "effect" }));
}

export function redrawBoard() { drawBoard($("board"), texts.squares, pickSquare); }

// The purses, the bank, Friday links and skips of `players` (a game view's or a replay step's).
export function renderPlayers(players, { toMove = null, you = [], bank = null } = {}) {
  drawPawns($("board"), players);
  $("bank").replaceChildren(make("span", t("ui.bank"), { class: "label" }), ": ",
    make("span", bank === null ? "" : tn("web.tokens", bank), { id: "bank-amount" }));
  const list = $("players");
  list.replaceChildren();
  for (const p of players) {
    const li = make("li", null, { "data-player": p.seat });
    if (p.seat === toMove) li.classList.add("to-move");
    const swatch = make("span", null, { class: "swatch" });
    swatch.style.background = COLOURS[p.seat % 8];  // CSSOM: the CSP forbids style attributes
    li.append(swatch, " ", make("span", p.name, { class: "name" }));
    if (p.kind === "bot") li.append(" ", robotIcon(), make("span", t("web.bot_named", { bot: p.bot }), { class: "bot" }));
    if (you.includes(p.seat)) li.append(" ", make("span", t("web.you"), { class: "you" }));
    const facts = [`${t("ui.square")} ${p.position}`, `${t("ui.purse")}: ${tn("web.tokens", p.purse)}`];
    if (!p.alive) facts.push(t("ui.dead"));
    if (p.friday !== null && p.friday !== undefined) facts.push(t("web.friday_of", { name: players[p.friday].name }));
    if (p.skips) facts.push(tn("web.skips", p.skips));
    if (p.shipwrecked) facts.push(t("ui.mark"));
    li.append(make("div", facts.join(" · "), { class: "facts" }));
    list.append(li);
  }
}

export function showDie(face, roll = true) {
  const die = $("die");
  drawDie(die, face);
  die.dataset.face = face || "";
  die.setAttribute("aria-label", face ? t("web.die_face", { face }) : t("web.die"));
  if (roll) { die.classList.remove("rolling"); void die.getBoundingClientRect(); die.classList.add("rolling"); }
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

function hello() { send({ type: "hello", lang: texts.lang, tokens: state.tokens }); }

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${state.table}`);
  state.ws = ws;
  ws.onopen = () => { state.retry = 500; showError(""); hello(); };
  ws.onmessage = (m) => receive(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (ev.code === 4404) return;
    showError(t("web.connection_lost"));
    setTimeout(connect, state.retry);  // lost connection: come back and resync
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

function send(msg) { if (state.ws && state.ws.readyState === 1) state.ws.send(JSON.stringify(msg)); }

async function receive(msg) {
  if (msg.type === "snapshot") {
    const newGame = !state.game || state.game.id !== msg.game.id;
    state.you = msg.you; state.game = msg.game;
    $("log").replaceChildren(...msg.log.map((line) => make("li", line)));
    if (newGame) { await loadTexts(texts.lang, msg.game.id); redrawBoard(); showDie(msg.game.last_roll, false); }
    render(state.game);  // not msg.game: an update may have come in while the texts loaded
  } else if (msg.type === "update") {
    if (msg.game !== state.game.id || msg.version !== state.game.version + 1) { hello(); return; }  // resync
    state.game = msg.state;
    for (const line of msg.narration) $("log").append(make("li", line));
    $("log").scrollTop = $("log").scrollHeight;
    animate(msg.events);
    render(msg.state);
  } else if (msg.type === "state") {
    state.game = msg.state; render(msg.state);
  } else if (msg.type === "error") {
    state.busy = false;
    if (msg.code === "stale_version") hello();
    showError(errorText(msg));
    if (state.game) render(state.game);
  } else if (msg.type === "ack") {
    showError("");
  }
}

function animate(events) {
  for (const e of events) {
    if (e.kind === "rolled") showDie(e.face);
    if (e.kind === "chorus") {  // square 17: every viewer of the table gets the parrot
      const parrot = $("parrot");
      parrot.dataset.count = Number(parrot.dataset.count) + 1;
      parrot.hidden = false;
      clearTimeout(state.parrotTimer);
      state.parrotTimer = setTimeout(() => { parrot.hidden = true; }, 2500);
    }
  }
}

function render(game) {
  state.busy = false;
  renderPlayers(game.players, { toMove: game.over ? null : game.to_move, you: state.you, bank: game.bank });
  addSeatButtons(game);
  showOdds(game.id, game.version, game.over ? null : game.to_move);
  $("seed-hash").textContent = game.seed_sha256;
  $("seed").textContent = game.seed || t("web.seed_hidden");
  $("verify").hidden = !game.seed;
  $("prompt").textContent = game.prompt;
  const actions = $("actions");
  const hadFocus = actions.contains(document.activeElement);
  actions.replaceChildren();
  actions.dataset.version = game.version;
  const mover = game.players[game.to_move];
  if (!game.over && state.you.includes(game.to_move) && mover.kind === "human") {
    for (const move of game.legal) {
      const label = move === "roll" ? t("ui.roll") : texts.options[move] || move;
      const b = make("button", label, { type: "button", "data-move": move });
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
  renderEnd(game);
}

function addSeatButtons(game) {
  const held = state.you.find((s) => game.players[s].kind === "human") ?? state.you[0];
  if (game.over || held === undefined) return;
  for (const p of game.players) {
    const li = $("players").querySelector(`[data-player="${p.seat}"]`);
    if (p.kind === "human" && !state.you.includes(p.seat)) {
      const b = make("button", t("web.hand_to_bot"), { type: "button" });
      b.onclick = () => send({ type: "bot", seat: p.seat, bot: "heuristic", token: state.seatTokens[held] });
      li.append(b);
    } else if (p.kind === "bot" && state.you.includes(p.seat)) {
      const b = make("button", t("web.take_back"), { type: "button" });
      b.onclick = () => send({ type: "take_back", seat: p.seat, token: state.seatTokens[p.seat] });
      li.append(b);
    }
  }
}

// The end: the winner takes the bank, then each share, as separate steps (the engine's events).
function renderEnd(game) {
  const end = $("end");
  end.hidden = !game.over;
  if (!game.over) return;
  const winner = game.winner === null ? t("ui.no_winner") : t("web.winner", { name: game.players[game.winner].name });
  const payout = make("ol", null, { id: "payout", "aria-live": "polite" });
  end.replaceChildren(make("h2", winner, { id: "winner" }), make("h3", t("web.payout")), payout);
  const fresh = state.payoutShown !== game.id;
  state.payoutShown = game.id;
  game.payout.forEach((step, i) => {
    const li = make("li", step.text, { "data-kind": step.kind === "won" ? "won" : step.reason, class: "pay-step" });
    if (step.amount !== undefined) li.dataset.amount = step.amount;
    if (fresh) { li.hidden = true; setTimeout(() => { li.hidden = false; li.classList.add("arrive"); }, 900 * i); }
    payout.append(li);
  });
  const links = make("p");
  links.append(make("a", t("web.download"), { href: `/api/games/${game.id}/record`, download: "" }), " ",
    make("a", t("web.replay"), { href: `/replay/${game.id}` }));
  end.append(links);
  showChart(game.id, end, game.players.map((p) => p.name), (v) => { location.href = `/replay/${game.id}#step=${v}`; });
  if (state.you.length) {
    const b = make("button", t("web.rematch"), { type: "button", id: "rematch" });
    b.onclick = () => send({ type: "rematch", token: state.seatTokens[state.you[0]] });
    end.append(b);
  }
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
  state.tokens = tableTokens(tableId);
  await mapTokens();
  drawParrot($("parrot-bird"));
  $("verify").onclick = verifyDice;
  // The board's column count follows the window (columnsFor): redraw it when a resize or a
  // turned phone crosses the breakpoint, pawns and all.
  window.matchMedia("(max-width: 639.98px)").addEventListener("change", () => {
    if (state.game) { redrawBoard(); render(state.game); }
  });
  connect();
}

export async function switchLanguage(lang) {
  await loadTexts(lang, state.game ? state.game.id : null);
  if (!state.game) return;
  redrawBoard(); render(state.game); showDie(Number($("die").dataset.face) || null, false);
  send({ type: "lang", lang: texts.lang });
}

// ------------------------------------------------------------------------------- fair dice
async function hmacFaces(seedHex, count) {
  const seed = new Uint8Array(seedHex.match(/../g).map((h) => parseInt(h, 16)));
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const faces = [];
  for (let k = 0; k < count; k++) {
    for (let attempt = 0; ; attempt++) {
      const msg = new TextEncoder().encode(attempt ? `${k}/${attempt}` : String(k));
      const byte = [...new Uint8Array(await crypto.subtle.sign("HMAC", key, msg))].find((b) => b < 252);
      if (byte !== undefined) { faces.push((byte % 6) + 1); break; }
    }
  }
  return { faces, seed };
}

async function verifyDice() {
  const out = $("verify-result");
  if (!crypto.subtle) { out.textContent = t("web.insecure"); return; }
  const record = await (await fetch(`/api/games/${state.game.id}/record`)).json();
  const rolls = record.actions.filter((a) => "roll" in a).map((a) => a.roll);
  const { faces, seed } = await hmacFaces(record.meta.dice.seed, rolls.length);
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", seed))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const ok = digest === record.meta.dice.seed_sha256 && faces.every((f, i) => f === rolls[i]);
  out.textContent = ok ? tn("web.rolls_ok", rolls.length) : t("web.rolls_bad");
  out.dataset.ok = ok;
}
