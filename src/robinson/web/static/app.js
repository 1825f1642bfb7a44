// The Robinson page: create a table, play at it (online, hot-seat, with bots), replay a game.
// The server decides everything; this only shows its state and sends the player's clicks.
import { drawBoard, drawPawns, COLOURS } from "./board.js";

const $ = (id) => document.getElementById(id);
const state = { lang: localStorage.getItem("robinson.lang") || "", ui: {}, options: {}, squares: [],
  table: null, tokens: [], you: [], game: null, ws: null, busy: false, retry: 500 };

function t(key, fallback) { return state.ui[key] || fallback; }
function make(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;  // text, never markup
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
function showError(message) { $("error").textContent = message || ""; }

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error ? data.error.message : r.statusText);
  return data;
}

async function loadTexts(gameId) {
  const q = gameId ? `?game=${encodeURIComponent(gameId)}` : "";
  const data = await api(`/api/i18n/${state.lang}${q}`);
  state.ui = data.ui; state.options = data.options; state.squares = data.squares;
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll("[data-ui]")) {
    node.textContent = t(node.dataset.ui, node.dataset.fallback || (node.dataset.fallback = node.textContent));
  }
  drawBoard($("board"), state.squares, pickSquare);
}

function pickSquare(sq) {
  const box = $("square-info");
  box.replaceChildren(make("strong", `${sq.number}. ${sq.title || ""}`), make("p", sq.story),
    make("p", sq.effect || "", { class: "effect" }));
}

// ---------------------------------------------------------------------------------- home page
async function home() {
  $("home").hidden = false;
  const meta = await api("/api/meta");
  const edition = document.querySelector("[name=edition]");
  for (const e of meta.editions) edition.append(make("option", e.name, { value: e.name }));
  edition.value = { lv: "lv", cs: "cs", ca: "ca" }[state.lang] || "standard";
  const addSeat = (name, kind) => {
    const rows = $("seats").querySelectorAll(".seat").length;
    if (rows >= 8) return;
    const row = make("div", null, { class: "seat" });
    const input = make("input", null, { name: "name", maxlength: 40, required: "", "aria-label": `Seat ${rows + 1}` });
    input.value = name;
    const kindSel = make("select", null, { name: "kind", "aria-label": "kind" });
    kindSel.append(make("option", t("web.human", "person"), { value: "human" }));
    for (const b of meta.bots) kindSel.append(make("option", `${t("web.bot", "bot")}: ${b}`, { value: `bot:${b}` }));
    kindSel.value = kind;
    const remove = make("button", "✕", { type: "button", "aria-label": "remove" });
    remove.onclick = () => { if ($("seats").querySelectorAll(".seat").length > 2) row.remove(); };
    row.append(make("span", null, { class: "swatch", style: `background:${COLOURS[rows]}` }), input, kindSel, remove);
    $("seats").append(row);
  };
  addSeat("Anna", "human"); addSeat("Bruno", "human"); addSeat("Cila", "bot:heuristic");
  $("add-seat").onclick = () => addSeat("", "human");
  $("create").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData($("create"));
    const seats = [...$("seats").querySelectorAll(".seat")].map((row) => {
      const kind = row.querySelector("[name=kind]").value;
      return kind.startsWith("bot:") ? { name: row.querySelector("input").value, kind: "bot", bot: kind.slice(4) }
        : { name: row.querySelector("input").value, kind: "human" };
    });
    try {
      const made = await api("/api/tables", { seats, edition: f.get("edition"), share: f.get("share"),
        start_tokens: Number(f.get("start_tokens")), stake: Number(f.get("stake")), language: state.lang });
      const humans = made.seats.filter((s) => s.kind === "human");
      const mine = f.get("hotseat") ? humans : humans.slice(0, 1);
      showLinks(made, mine);
    } catch (e) { showError(e.message); }
  };
}

function showLinks(made, mine) {
  const box = $("links");
  box.hidden = false;
  box.replaceChildren(make("h3", t("web.invite_links", "Invite links (each is secret to its seat)")));
  for (const s of made.seats.filter((x) => x.kind === "human")) {
    const url = location.origin + s.link;
    const input = make("input", null, { readonly: "", "aria-label": s.name, "data-seat-link": s.seat });
    input.value = url;
    box.append(make("label", s.name), input, make("br"));
  }
  const spect = make("input", null, { readonly: "", "data-spectator": "" });
  spect.value = location.origin + made.spectator;
  box.append(make("label", t("web.spectator", "Watch")), spect, make("br"));
  const go = make("a", t("web.open_table", "Go to the table"), { id: "open-table",
    href: `/t/${made.table}#${mine.map((s) => s.token).join(",")}` });
  box.append(go);
}

// ---------------------------------------------------------------------------------- the table
function tableTokens(tableId) {
  const key = `robinson.tokens.${tableId}`;
  const known = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
  const fromLink = decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean);
  for (const tok of fromLink) known.add(tok);
  localStorage.setItem(key, JSON.stringify([...known]));
  if (location.hash) history.replaceState(null, "", location.pathname);  // keep the secret out of sight
  return [...known];
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${state.table}`);
  state.ws = ws;
  ws.onopen = () => { state.retry = 500; ws.send(JSON.stringify({ type: "hello", lang: state.lang, tokens: state.tokens })); };
  ws.onmessage = (m) => receive(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (ev.code === 4404) return;
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
    if (newGame) await loadTexts(msg.game.id);
    render(state.game);  // not msg.game: an update may have come in while the texts loaded
  } else if (msg.type === "update") {
    if (msg.game !== state.game.id || msg.version !== state.game.version + 1) {
      send({ type: "hello", lang: state.lang, tokens: state.tokens });  // missed something: resync
      return;
    }
    state.game = msg.state;
    for (const line of msg.narration) $("log").append(make("li", line));
    $("log").scrollTop = $("log").scrollHeight;
    animate(msg.events);
    render(msg.state);
  } else if (msg.type === "state") {
    state.game = msg.state; render(msg.state);
  } else if (msg.type === "error") {
    state.busy = false;
    if (msg.code === "stale_version") send({ type: "hello", lang: state.lang, tokens: state.tokens });
    showError(msg.message);
    if (state.game) render(state.game);
  } else if (msg.type === "ack") {
    showError("");
  }
}

function animate(events) {
  for (const e of events) {
    if (e.kind === "rolled") {
      const die = $("die");
      die.textContent = "⚀⚁⚂⚃⚄⚅"[e.face - 1];
      die.setAttribute("aria-label", String(e.face));
      die.dataset.face = e.face;
      die.classList.remove("rolling"); void die.offsetWidth; die.classList.add("rolling");
    }
    if (e.kind === "chorus") {
      $("parrot-text").textContent = t("web.poor_robinson", "Poor Robinson!");
      $("parrot").hidden = false;
      setTimeout(() => { $("parrot").hidden = true; }, 2500);
    }
  }
}

function render(game) {
  state.busy = false;
  drawPawns($("board"), game.players);
  $("bank").textContent = `${t("web.bank", "Bank")}: ${game.bank}`;
  $("seed-hash").textContent = game.seed_sha256;
  $("seed").textContent = game.seed || "—";
  $("verify").hidden = !game.seed;
  const list = $("players");
  list.replaceChildren();
  for (const p of game.players) {
    const li = make("li", null, { "data-player": p.seat });
    if (p.seat === game.to_move) li.classList.add("to-move");
    const extra = [p.kind === "bot" ? `🤖 ${p.bot}` : "", state.you.includes(p.seat) ? t("web.you", "(you)") : "",
      p.alive ? "" : "✝", p.friday !== null ? `${t("web.friday", "Friday")}: ${game.players[p.friday].name}` : "",
      p.skips ? `${t("web.skips", "skips")} ${p.skips}` : "", p.shipwrecked ? "⚓" : ""].filter(Boolean).join(" ");
    li.append(make("span", null, { class: "swatch", style: `background:${COLOURS[p.seat % 8]}` }), " ",
      make("span", p.name, { class: "name" }), ` — ${t("web.square", "square")} ${p.position}, ${t("web.purse", "purse")} ${p.purse} ${extra}`);
    const held = state.you.find((s) => game.players[s].kind === "human") ?? state.you[0];
    if (!game.over && held !== undefined) {
      if (p.kind === "human" && !state.you.includes(p.seat)) {
        const b = make("button", t("web.hand_to_bot", "Let a bot play"), { type: "button" });
        b.onclick = () => send({ type: "bot", seat: p.seat, bot: "heuristic", token: tokenFor(held) });
        li.append(" ", b);
      } else if (p.kind === "bot" && state.you.includes(p.seat)) {
        const b = make("button", t("web.take_back", "Take my seat back"), { type: "button" });
        b.onclick = () => send({ type: "take_back", seat: p.seat, token: tokenFor(p.seat) });
        li.append(" ", b);
      }
    }
    list.append(li);
  }
  $("prompt").textContent = game.prompt;
  const actions = $("actions");
  actions.replaceChildren();
  const mover = game.players[game.to_move];
  if (!game.over && state.you.includes(game.to_move) && mover.kind === "human") {
    for (const move of game.legal) {
      const label = move === "roll" ? t("web.roll", "Roll the die") : state.options[move] || move;
      const b = make("button", label, { type: "button", "data-move": move });
      b.onclick = () => {
        if (state.busy) return;
        state.busy = true;
        for (const x of actions.querySelectorAll("button")) x.disabled = true;
        send({ type: "act", game: game.id, version: game.version, move, token: tokenFor(game.to_move) });
      };
      actions.append(b);
    }
    if (document.activeElement === document.body || !document.activeElement) actions.firstChild?.focus();
  }
  renderEnd(game);
}

function tokenFor(seat) { return state.seatTokens[seat]; }

function renderEnd(game) {
  const end = $("end");
  end.hidden = !game.over;
  if (!game.over) return;
  const winner = game.winner === null ? t("web.no_winner", "Nobody reached home.") :
    `${t("web.winner", "Winner")}: ${game.players[game.winner].name}`;
  end.replaceChildren(make("h2", winner, { id: "winner" }));
  const payout = make("ol", null, { id: "payout" });
  end.append(payout);
  const lines = [...$("log").children].map((li) => li.textContent).slice(-6);
  lines.forEach((line, i) => setTimeout(() => payout.append(make("li", line)), 500 * i));  // step by step
  end.append(make("a", t("web.download", "Download the record"), { href: `/api/games/${game.id}/record`, download: "" }), " ",
    make("a", t("web.replay", "Replay"), { href: `/replay/${game.id}` }));
  if (state.you.length) {
    const b = make("button", t("web.rematch", "Rematch"), { type: "button", id: "rematch" });
    b.onclick = () => send({ type: "rematch", token: tokenFor(state.you[0]) });
    end.append(" ", b);
  }
}

// Which token holds which seat: ask the server once per token (it answers `you` for a hello).
async function mapTokens() {
  state.seatTokens = {};
  for (const tok of state.tokens) {
    const r = await fetch(`/api/tables/${state.table}/whoami`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tok }) });
    if (r.ok) state.seatTokens[(await r.json()).seat] = tok;
  }
}

async function table(tableId) {
  $("table").hidden = false;
  state.table = tableId;
  state.tokens = tableTokens(tableId);
  await mapTokens();
  $("verify").onclick = verifyDice;
  connect();
}

// ---------------------------------------------------------------------------------- fair dice
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
  if (!crypto.subtle) { out.textContent = "This page is not on a secure origin: use `robinson verify RECORD`."; return; }
  const record = await api(`/api/games/${state.game.id}/record`);
  const rolls = record.actions.filter((a) => "roll" in a).map((a) => a.roll);
  const { faces, seed } = await hmacFaces(record.meta.dice.seed, rolls.length);
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", seed))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const ok = digest === record.meta.dice.seed_sha256 && faces.every((f, i) => f === rolls[i]);
  out.textContent = ok ? `✔ ${rolls.length} ${t("web.rolls_ok", "rolls follow from the seed")}` : `✘ ${t("web.rolls_bad", "the rolls do not match the seed")}`;
  out.dataset.ok = ok;
}

// ---------------------------------------------------------------------------------- replay
async function replay(gameId) {
  $("table").hidden = false; $("replay").hidden = false; $("actions").hidden = true;
  $("table").before($("replay"));
  await loadTexts(gameId);
  const data = await api(`/api/games/${gameId}/replay?lang=${state.lang}`);
  const names = data.record.players;
  let i = 0;
  const show = () => {
    const s = i === 0 ? null : data.steps[i - 1].state;
    const players = names.map((name, seat) => ({ seat, name, kind: "human", bot: null,
      ...(s ? s.players[seat] : { position: 0, purse: 0, alive: true, friday: null, skips: 0, shipwrecked: false }) }));
    drawPawns($("board"), players);
    $("step").textContent = `${i} / ${data.steps.length}`;
    $("log").replaceChildren(...data.steps.slice(0, i).flatMap((st) => st.narration).slice(-30).map((l) => make("li", l)));
    $("bank").textContent = s ? `${t("web.bank", "Bank")}: ${s.bank}` : "";
    $("back").disabled = i === 0; $("forward").disabled = i === data.steps.length;
  };
  $("back").onclick = () => { if (i > 0) { i--; show(); } };
  $("forward").onclick = () => { if (i < data.steps.length) { i++; show(); } };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") $("back").click();
    if (e.key === "ArrowRight") $("forward").click();
  });
  show();
}

// ---------------------------------------------------------------------------------- start
async function start() {
  const path = location.pathname.split("/").filter(Boolean);
  if (!state.lang) state.lang = ["lv", "cs", "ca"].find((l) => navigator.language.startsWith(l)) || "en";
  $("lang").value = state.lang;
  $("lang").onchange = async () => {
    state.lang = $("lang").value;
    localStorage.setItem("robinson.lang", state.lang);
    if (path[0] === "replay") { location.reload(); return; }
    await loadTexts(state.game ? state.game.id : null);
    if (state.game) { render(state.game); send({ type: "lang", lang: state.lang }); }
  };
  try {
    if (path[0] === "t" && path[1]) await table(path[1]);
    else if (path[0] === "replay" && path[1]) await replay(path[1]);
    else { await loadTexts(null); await home(); }
  } catch (e) { showError(e.message); }
}
start();
