// @ts-check
// The Robinson page: the home page (what the game is, play now, create a table), a table
// (table.js), a replay (replay.js) or the rules (rules.js).
import { COLOURS, drawBoard } from "./board.js";
import { openReplay } from "./replay.js";
import { openRules } from "./rules.js";
import { request } from "./api.js";
import { $, make, showError } from "./dom.js";
import { clockChoice, clockSeconds, renderInvites } from "./seats.js";
import { askInvitePanel, hostSecret, rememberHost } from "./storage.js";
import { openTable, switchLanguage } from "./table.js";
import { browserLanguage, loadTexts, ownLanguage, pickedLanguage, rememberLanguage, t, texts } from "./texts.js";
import { isPronoun, myName, rememberName, renderYourTables } from "./yours.js";

/** A field of the form (an input or a select: what the code reads is `value`).
 * @param {string} selector @param {ParentNode} [root] @returns {HTMLInputElement} */
const formField = (selector, root = document) => /** @type {HTMLInputElement} */ (root.querySelector(selector));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));
const form = () => /** @type {HTMLFormElement} */ ($("create"));

// GET `path`, or POST `body` to it; a refusal is thrown as an ApiError (api.js).
const api = (path, body) => request(path, { body });

// ---------------------------------------------------------------------------------- home page
let meta = null;
let editionPicked = false;  // until the viewer picks an edition, it follows the language

export const EDITION_OF = { lv: "lv", cs: "cs", ca: "ca" };

function seatRow(name, kind) {
  const row = make("div", null, { class: "seat" });
  const input = make("input", null, { name: "name", maxlength: meta.limits.name, required: "" });
  input.value = name;
  // The printed rules let the youngest start and keep the bank: an age is asked, not required.
  const age = make("input", null, { name: "age", type: "number", min: "0", max: "150", class: "age", inputmode: "numeric" });
  const kindSel = make("select", null, { name: "kind" });
  kindSel.append(make("option", t("ui.human"), { value: "human" }));
  for (const b of meta.bots) kindSel.append(make("option", t("web.bot_named", { bot: b }), { value: `bot:${b}` }));
  kindSel.value = kind;
  const remove = make("button", "×", { type: "button", class: "remove" });
  remove.onclick = () => { if ($("seats").querySelectorAll(".seat").length > meta.limits.min_seats) { row.remove(); labelSeats(); } };
  row.append(make("span", null, { class: "swatch" }), input, age, kindSel, remove);
  return row;
}

// Seat numbers, colours and labels follow the rows (after a removal too, and in a new language).
function labelSeats() {
  $("seats").querySelectorAll(".seat").forEach((row, i) => {
    /** @type {HTMLElement} */ (row.querySelector(".swatch")).style.background = COLOURS[i];
    formField("input", row).setAttribute("aria-label", t("web.seat_name", { n: i + 1 }));
    const age = formField("[name=age]", row);
    age.setAttribute("aria-label", t("web.seat_age", { n: i + 1 }));
    age.setAttribute("placeholder", t("ui.age"));
    const kind = /** @type {HTMLSelectElement} */ (row.querySelector("select"));
    kind.setAttribute("aria-label", t("web.seat_kind", { n: i + 1 }));
    kind.options[0].textContent = t("ui.human");
    for (const o of [...kind.options].slice(1)) o.textContent = t("web.bot_named", { bot: t(`web.bot.${o.value.slice(4)}`, {}, o.value.slice(4)) });
    formField(".remove", row).setAttribute("aria-label", t("web.remove_seat", { n: i + 1 }));
  });
}

// What each kind of bot does, in the viewer's language.
function labelBots() {
  $("bot-kinds").replaceChildren(...meta.bots.flatMap((b) => [make("dt", t(`web.bot.${b}`, {}, b)),
    make("dd", t(`web.bot.${b}.about`, {}, ""))]));
}

function labelHome() {
  labelSeats(); labelEditions(); labelBots();
  $("starts-hint").textContent = t("web.starts_hint");
  input("my-name").placeholder = t("web.your_name_hint");
  renderYourTables($("your-tables"));
  if (!editionPicked) formField("[name=edition]").value = EDITION_OF[texts.lang] || "standard";
  drawHomeBoard();
}

// The home board states the effect lines of the edition the form offers (the Czech fever gives
// a roll, the standard one costs a turn). It asks for that edition's squares; a server that
// does not know `?edition=` answers with the standard ones, which is what it showed before.
let homeBoardAsked = 0;  // only the latest question draws (language and edition both change it)
async function drawHomeBoard() {
  const asked = ++homeBoardAsked;
  const edition = formField("[name=edition]").value || "standard";
  let squares = texts.squares;
  try {
    squares = (await request(`/api/i18n/${texts.lang}?edition=${encodeURIComponent(edition)}`)).squares;
  } catch { /* offline for a moment: the squares already loaded */ }
  if (asked === homeBoardAsked) drawBoard($("home-board"), squares, null, 1000, false);
}

async function home() {
  $("home").hidden = false;
  meta = await api("/api/meta");
  const edition = formField("[name=edition]");
  for (const e of meta.editions) edition.append(make("option", e.name, { value: e.name }));
  edition.onchange = () => { editionPicked = true; drawHomeBoard(); };
  const add = (name, kind) => {
    if ($("seats").querySelectorAll(".seat").length >= meta.limits.max_seats) return;
    $("seats").append(seatRow(name, kind)); labelSeats();
  };
  // a name typed while the page was still loading counts: the kept one does not wipe it
  const early = input("my-name").value.trim();
  if (early && !isPronoun(early)) rememberName(early);
  add(myName() || "Anna", "human"); add("Bruno", "human"); add("Cila", "bot:heuristic");
  askName();
  labelHome();
  $("add-seat").onclick = () => { add("", "human"); formField(".seat:last-of-type input", $("seats")).focus(); };
  $("play-now").onclick = () => playNow();
  $("play-friends").onclick = () => playWithFriends();
  // Back from a table (the browser may show this page as it was): the tables as they are now
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) renderYourTables($("your-tables")); });
  $("create-go").before(clockChoice(), " ");
  $("create").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(form());
    const rows = [...$("seats").querySelectorAll(".seat")];
    if (!checkForm(rows)) return;
    const seats = rows.map((row) => {
      const kind = formField("[name=kind]", row).value, name = formField("input", row).value;
      return kind.startsWith("bot:") ? { name, kind: "bot", bot: kind.slice(4) } : { name, kind: "human" };
    });
    try {
      const made = await api("/api/tables", { seats, first: youngest(rows), edition: f.get("edition"), share: f.get("share"),
        start_tokens: Number(f.get("start_tokens")), stake: Number(f.get("stake")), language: texts.lang,
        move_seconds: clockSeconds() });
      const humans = made.seats.filter((s) => s.kind === "human");
      const mine = f.get("hotseat") ? humans : humans.slice(0, 1);
      rememberHost(made.table, made.host);
      // Back from the table comes here again: the links are shown again (from the server).
      const created = { table: made.table, tokens: mine.map((s) => s.token), seats: mine.map((s) => s.seat) };
      history.replaceState({ created }, "");
      showLinks(created);
    } catch (e) { markServerRefusal(e, rows); }
  };
  if (history.state && history.state.created) showLinks(history.state.created);
}

// ---------------------------------------------------------------------------------- form errors
// A field the form refuses: marked (aria-invalid), its message right under it and tied to it
// (aria-describedby), read out (an alert); the first such field takes the focus.
function clearMarks() {
  for (const node of $("home").querySelectorAll("[aria-invalid]")) {
    node.removeAttribute("aria-invalid"); node.removeAttribute("aria-describedby");
  }
  for (const node of $("home").querySelectorAll(".field-error")) node.remove();
}

function mark(field, text, after = field) {
  const id = `error-${field.name}-${$("create").querySelectorAll(".field-error").length}`;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", id);
  after.after(make("p", text, { class: "field-error", id, role: "alert" }));
}

// The names and the stake, checked as the server checks them (it still has the last word): the
// first seat of two with one name is named in the message of the second.
const same = (name) => name.normalize("NFKC").trim().replace(/\s+/g, " ").toLocaleLowerCase();
function checkForm(rows) {
  clearMarks();
  const seen = new Map();
  rows.forEach((row, i) => {
    const input = formField("[name=name]", row);
    const key = same(input.value);
    if (!key) mark(input, t("web.form.name_missing", { n: i + 1 }), row);
    else if (isPronoun(input.value)) mark(input, t("web.form.name_pronoun"), row);
    else if (seen.has(key)) mark(input, t("web.form.name_taken", { n: i + 1, other: seen.get(key) + 1 }), row);
    else seen.set(key, i);
  });
  const stake = formField("[name=stake]"), start = formField("[name=start_tokens]");
  if (Number(stake.value) > Number(start.value)) {
    mark(stake, t("web.form.stake", { start: start.value }), stake.closest("label"));
  }
  const first = formField("[aria-invalid]", $("create"));
  first?.focus();
  return !first;
}

// The server's refusal: on the seat it names ("seat 2: …"), else beside the Create button.
function markServerRefusal(e, rows) {
  clearMarks();
  const seat = /^seat (\d+):/.exec(e.detail || "");
  const row = seat && rows[Number(seat[1])];
  if (row) {
    const input = formField("[name=name]", row);
    mark(input, t("web.form.name_refused", { n: Number(seat[1]) + 1 }), row);
    input.focus();
  } else {
    mark($("create-go"), e.message);
  }
}

// The seat that starts and keeps the bank: the youngest of those with an age, as the printed
// rules say (the first such seat on a tie); with no ages, the first seat.
function youngest(rows) {
  let first = 0, best = Infinity;
  rows.forEach((row, i) => {
    const text = formField("[name=age]", row).value.trim();
    if (text !== "" && Number(text) < best) { best = Number(text); first = i; }
  });
  return first;
}

// One click: the viewer against two bots, in the edition of the form (the language's). The
// viewer plays under the first seat's name of the form (a name, never a pronoun: every line of
// the narration is built on it) and starts; the bots take other names.
async function playNow() {
  // (from /rules too, where the form is not filled: the language's edition, the name kept)
  const edition = formField("[name=edition]").value || EDITION_OF[texts.lang] || "standard";
  const typed = formField(".seat input", $("seats"))?.value.trim();
  if (!nameIsFine()) return;
  const me = typed || myName() || "Anna";
  const others = ["Bruno", "Cila", "Dora"].filter((n) => n.toLowerCase() !== me.toLowerCase()).slice(0, 2);
  try {
    const made = await api("/api/tables", { edition, language: texts.lang, first: 0, seats: [
      { name: me, kind: "human" },
      ...others.map((name) => ({ name, kind: "bot", bot: "heuristic" }))] });
    location.href = `/t/${made.table}#${made.seats[0].token}`;
  } catch (e) { showError(e.message); }
}

// "Play with friends": the form's seats as an online table (only the first seat, the viewer's,
// plays on this device; a form with no other person gets one in its second seat), then the
// table with its invite panel open (seats.js: Share on a phone, Copy and QR codes).
async function playWithFriends() {
  if (!nameIsFine()) return;
  const rows = [...$("seats").querySelectorAll(".seat")];
  const kinds = rows.map((row) => formField("[name=kind]", row));
  if (!kinds.slice(1).some((k) => k.value === "human")) kinds[1].value = "human";
  if (!checkForm(rows)) return;
  const f = new FormData(form());
  const seats = rows.map((row) => {
    const kind = formField("[name=kind]", row).value, name = formField("input", row).value;
    return kind.startsWith("bot:") ? { name, kind: "bot", bot: kind.slice(4) } : { name, kind: "human" };
  });
  // a waiting room: no move until the friends have taken their seats (or the host starts)
  const friends = seats.map((s, i) => (i > 0 && s.kind === "human" ? i : null)).filter((i) => i !== null);
  try {
    const made = await api("/api/tables", { seats, first: youngest(rows), edition: f.get("edition"), share: f.get("share"),
      start_tokens: Number(f.get("start_tokens")), stake: Number(f.get("stake")), language: texts.lang,
      move_seconds: clockSeconds(), wait_for: friends });
    rememberHost(made.table, made.host);
    askInvitePanel(made.table);
    const mine = made.seats[0].token ? `#${made.seats[0].token}` : "";
    location.href = `/t/${made.table}${mine}`;
  } catch (e) { markServerRefusal(e, rows); }
}

// The viewer's name, asked once and remembered: it fills the form's first seat (while that
// still holds the name of before) and names the viewer's seat at every table made here.
function askName() {
  const field = input("my-name");
  field.maxLength = meta.limits.name;
  field.value = myName();
  let before = field.value || "Anna";
  field.oninput = () => {
    const first = formField(".seat input", $("seats"));
    if (first && (first.value === before || !first.value)) first.value = field.value.trim() || "Anna";
    before = field.value.trim() || "Anna";
    if (!isPronoun(field.value)) rememberName(field.value);
    clearMarks();
  };
}

// A name, never a pronoun ("You rolls 6"): the field says so and keeps the focus.
function nameIsFine() {
  const field = input("my-name"), first = formField(".seat input", $("seats"));
  clearMarks();
  for (const input of [field, first]) {
    if (input && isPronoun(input.value)) {
      markName(input, t("web.form.name_pronoun"));
      input.focus();
      return false;
    }
  }
  return true;
}

function markName(input, text) {
  const id = `error-${input.id || "seat-0"}`;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
  input.closest("p, .seat").after(make("p", text, { class: "field-error", id, role: "alert" }));
}

function labelEditions() {
  for (const o of /** @type {NodeListOf<HTMLOptionElement>} */ (document.querySelectorAll("[name=edition] option"))) {
    o.textContent = t(`edition.${o.value}`, {}, o.value);
  }
}

// After creating a table: the host's invite links (one-time, with Copy and QR) and the way in.
async function showLinks(created) {
  const box = $("links");
  box.hidden = false;
  const invites = make("div", null, { class: "invites" });
  const go = make("a", t("web.open_table"), { id: "open-table", href: `/t/${created.table}#${created.tokens.join(",")}` });
  box.replaceChildren(invites, go);
  go.focus();
  await renderInvites(invites, created.table, hostSecret(created.table), null, created.seats);
}

// ---------------------------------------------------------------------------------- start
// The language: the browser's remembered pick, else the browser's own language when it is one
// of the four (a Czech visitor of an English table reads Czech), else the table's language
// (chosen when it was created), else English. The table is asked once; its game id lets the
// texts be fetched once, with the effect lines of that game's ruleset.
async function where(path) {
  try {
    if (path[0] === "t" && path[1]) {
      const table = await api(`/api/tables/${encodeURIComponent(path[1])}`);
      return { language: table.language, game: table.game.id };
    }
    if (path[0] === "replay" && path[1]) {
      const record = await api(`/api/games/${encodeURIComponent(path[1])}/record`);
      return { language: (await api(`/api/tables/${encodeURIComponent(record.meta.table)}`)).language, game: path[1] };
    }
  } catch { /* an unknown table says so below, in the page's language */ }
  return { language: null, game: null };
}

// An unknown table, game or address gets a page that says so in the viewer's language, with
// the way home, not an empty board (the server answers such an address with status 404).
function sayMissing(key) {
  $("missing-what").dataset.ui = key;
  $("missing-what").textContent = t(key);
  $("missing").hidden = false;
  document.title = `${t(key)} · ${t("ui.title")}`;
}

async function openTableOrSayMissing(tableId) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    if (e.code !== "unknown_game") throw e;
    sayMissing("web.no_table");
    return;
  }
  await openTable(tableId);
}

async function openReplayOrSayMissing(gameId, lang) {
  if (await openReplay(gameId, lang) === "missing") sayMissing("web.no_game");
}

// The addresses the page knows: "/", "/rules", "/t/{table}", "/replay/{game}".
function known(path) {
  return path.length === 0 || (path.length === 1 && path[0] === "rules")
    || (path.length === 2 && (path[0] === "t" || path[0] === "replay"));
}

async function start() {
  const path = location.pathname.split("/").filter(Boolean);
  const found = await where(path);
  const lang = pickedLanguage() || ownLanguage() || found.language || browserLanguage();
  input("lang").value = lang;
  input("lang").onchange = async () => {
    rememberLanguage(input("lang").value);
    if (path[0] === "replay") { location.reload(); return; }  // the position is in the address
    if (path[0] === "t") await switchLanguage(input("lang").value);
    else if (path[0] === "rules") { await loadTexts(input("lang").value, null); await openRules(playNow); }
    else { await loadTexts(input("lang").value, null); labelHome(); }
  };
  try {
    await loadTexts(lang, found.game);
    if (!known(path)) sayMissing("web.no_page");
    else if (path[0] === "t") await openTableOrSayMissing(path[1]);
    else if (path[0] === "replay") await openReplayOrSayMissing(path[1], lang);
    else if (path[0] === "rules") await openRules(playNow);
    else await home();
  } catch (e) { showError(e.message, true); }
}
start();
