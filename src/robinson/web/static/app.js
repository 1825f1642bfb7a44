// The Robinson page: the home page (create a table), a table (table.js), or a replay (replay.js).
import { COLOURS } from "./board.js";
import { openReplay } from "./replay.js";
import { $, make, openTable, showError, switchLanguage } from "./table.js";
import { browserLanguage, errorText, loadTexts, pickedLanguage, rememberLanguage, t, texts } from "./texts.js";

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw Object.assign(new Error(data.error ? errorText(data.error) : r.statusText),
    { code: data.error && data.error.code });
  return data;
}

// ---------------------------------------------------------------------------------- home page
let meta = null;

function seatRow(name, kind) {
  const n = $("seats").querySelectorAll(".seat").length + 1;
  const row = make("div", null, { class: "seat" });
  const input = make("input", null, { name: "name", maxlength: meta.limits.name, required: "" });
  input.value = name;
  const kindSel = make("select", null, { name: "kind" });
  kindSel.append(make("option", t("ui.human"), { value: "human" }));
  for (const b of meta.bots) kindSel.append(make("option", t("web.bot_named", { bot: b }), { value: `bot:${b}` }));
  kindSel.value = kind;
  const remove = make("button", "×", { type: "button", class: "remove" });
  remove.onclick = () => { if ($("seats").querySelectorAll(".seat").length > meta.limits.min_seats) { row.remove(); labelSeats(); } };
  row.append(make("span", null, { class: "swatch" }), input, kindSel, remove);
  return row;
}

// Seat numbers, colours and labels follow the rows (after a removal too, and in a new language).
function labelSeats() {
  $("seats").querySelectorAll(".seat").forEach((row, i) => {
    row.querySelector(".swatch").style.background = COLOURS[i];
    row.querySelector("input").setAttribute("aria-label", t("web.seat_name", { n: i + 1 }));
    const kind = row.querySelector("select");
    kind.setAttribute("aria-label", t("web.seat_kind", { n: i + 1 }));
    kind.options[0].textContent = t("ui.human");
    for (const o of [...kind.options].slice(1)) o.textContent = t("web.bot_named", { bot: o.value.slice(4) });
    row.querySelector(".remove").setAttribute("aria-label", t("web.remove_seat", { n: i + 1 }));
  });
}

async function home() {
  $("home").hidden = false;
  meta = await api("/api/meta");
  const edition = document.querySelector("[name=edition]");
  for (const e of meta.editions) edition.append(make("option", e.name, { value: e.name }));
  edition.value = { lv: "lv", cs: "cs", ca: "ca" }[texts.lang] || "standard";
  labelEditions();
  const add = (name, kind) => {
    if ($("seats").querySelectorAll(".seat").length >= meta.limits.max_seats) return;
    $("seats").append(seatRow(name, kind)); labelSeats();
  };
  add("Anna", "human"); add("Bruno", "human"); add("Cila", "bot:heuristic");
  $("add-seat").onclick = () => { add("", "human"); $("seats").querySelector(".seat:last-of-type input").focus(); };
  $("create").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData($("create"));
    const seats = [...$("seats").querySelectorAll(".seat")].map((row) => {
      const kind = row.querySelector("[name=kind]").value, name = row.querySelector("input").value;
      return kind.startsWith("bot:") ? { name, kind: "bot", bot: kind.slice(4) } : { name, kind: "human" };
    });
    try {
      const made = await api("/api/tables", { seats, edition: f.get("edition"), share: f.get("share"),
        start_tokens: Number(f.get("start_tokens")), stake: Number(f.get("stake")), language: texts.lang });
      const humans = made.seats.filter((s) => s.kind === "human");
      showLinks(made, f.get("hotseat") ? humans : humans.slice(0, 1));
    } catch (e) { showError(e.message); }
  };
}

function labelEditions() {
  for (const o of document.querySelectorAll("[name=edition] option")) {
    o.textContent = t(`edition.${o.value}`, {}, o.value);
  }
}

function showLinks(made, mine) {
  const box = $("links");
  box.hidden = false;
  box.replaceChildren(make("h3", t("web.invite_links")));
  for (const s of made.seats.filter((x) => x.kind === "human")) {
    const input = make("input", null, { readonly: "", "aria-label": s.name, "data-seat-link": s.seat });
    input.value = location.origin + s.link;
    box.append(make("label", s.name), input, make("br"));
  }
  const spect = make("input", null, { readonly: "", "data-spectator": "", "aria-label": t("web.spectator_link") });
  spect.value = location.origin + made.spectator;
  box.append(make("label", t("web.spectator_link")), spect, make("br"));
  const go = make("a", t("web.open_table"), { id: "open-table", href: `/t/${made.table}#${mine.map((s) => s.token).join(",")}` });
  box.append(go);
  go.focus();
}

// ---------------------------------------------------------------------------------- start
// The language: the browser's remembered pick, else the table's language (chosen when it was
// created), else the browser's own language.
async function tableLanguage(path) {
  try {
    if (path[0] === "t" && path[1]) return (await api(`/api/tables/${encodeURIComponent(path[1])}`)).language;
    if (path[0] === "replay" && path[1]) {
      const record = await api(`/api/games/${encodeURIComponent(path[1])}/record`);
      return (await api(`/api/tables/${encodeURIComponent(record.meta.table)}`)).language;
    }
  } catch { /* an unknown table says so below, in the page's language */ }
  return null;
}

// An unknown table gets a page that says so, with the way home, not an empty board.
async function openTableOrSayMissing(tableId) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    if (e.code !== "unknown_game") throw e;
    $("missing").hidden = false;
    return;
  }
  await openTable(tableId);
}

async function start() {
  const path = location.pathname.split("/").filter(Boolean);
  const lang = pickedLanguage() || (await tableLanguage(path)) || browserLanguage();
  $("lang").value = lang;
  $("lang").onchange = async () => {
    rememberLanguage($("lang").value);
    if (path[0] === "replay") { location.reload(); return; }
    if (path[0] === "t") await switchLanguage($("lang").value);
    else { await loadTexts($("lang").value, null); labelSeats(); labelEditions(); }
  };
  try {
    await loadTexts(lang, null);
    if (path[0] === "t" && path[1]) await openTableOrSayMissing(path[1]);
    else if (path[0] === "replay" && path[1]) await openReplay(path[1], lang);
    else await home();
  } catch (e) { showError(e.message); }
}
start();
