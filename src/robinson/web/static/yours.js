// @ts-check
// What this browser remembers of its player: the name asked once on the home page, and the
// tables it holds seats at ("Your tables" on the home page, docs/web-page.md).
//
// The seats' secrets are kept by table.js and seats.js (`robinson.tokens.{table}`,
// `robinson.host.{table}`, through storage.js like every key); this module keeps beside them
// which seats those secrets hold and when the table was last opened (`robinson.tables`), so the
// home page can say "your move" with one read of each table and no secret sent anywhere.
import { request } from "./api.js";
import { make } from "./dom.js";
import { forgetSecrets, keepName, keepTableIndex, savedName, tableIndex, tablesHeld } from "./storage.js";
import { t, texts } from "./texts.js";

export const SHOWN = 20;  // tables read at most (one GET each: the home page stays light)

// ------------------------------------------------------------------------------------- name
// A name, never a pronoun: every line of the narration is built on it ("You rolls 6").
const PRONOUNS = new Set(["you", "tu", "ty", "jūs", "vy", "vosaltres", "vós", "es", "já"]);  // you, and "I"
export function isPronoun(name) { return PRONOUNS.has(name.trim().toLocaleLowerCase()); }
export function myName() { return savedName(); }
export function rememberName(name) { keepName(name); }

// ----------------------------------------------------------------------------------- tables
// The table page, once it knows which seats this browser's secrets hold.
export function rememberTable(table, seats) {
  const all = tableIndex();
  all[table] = { seats: seats.map(Number).sort((a, b) => a - b), seen: Date.now() };
  keepTableIndex(all);
}

export function forgetTable(table) {
  const all = tableIndex();
  delete all[table];
  keepTableIndex(all);
  forgetSecrets(table);
}

// Every table this browser holds a seat's or the host's secret for, the latest opened first
// (a table made here and never opened has no record yet: it counts as new).
export function knownTables() {
  const all = tableIndex();
  return tablesHeld().map((id) => ({ id, seats: all[id]?.seats ?? [], seen: all[id]?.seen ?? Date.now() }))
    .sort((a, b) => b.seen - a.seen);
}

// A table as the home page lists it, from GET /api/tables/{id}: whose turn, and whether it is
// a move of this browser's.
function describe(known, game) {
  const mover = game.over ? null : game.players[game.to_move];
  const awaited = game.over ? [] : game.awaited || [];  // a waiting room: nobody moves yet
  const yours = !!mover && mover.kind === "human" && known.seats.includes(game.to_move) && !awaited.length;
  let turn;
  if (game.over) turn = game.winner === null ? t("ui.no_winner") : t("web.winner", { name: game.players[game.winner].name });
  else if (awaited.length) turn = t("web.waiting_room", { names: awaited.map((s) => game.players[s].name).join(", ") });
  else if (yours) turn = t("web.your_move");
  else if (mover.kind === "bot") turn = t("web.bot_thinking", { name: mover.name });
  else turn = t("ui.waiting", { name: mover.name });
  return { yours, over: game.over, turn };
}

function row(known, game, redraw) {
  const li = make("li", null, { "data-table": known.id });
  const names = game ? game.players.map((p) => p.name + (known.seats.includes(p.seat) ? ` ${t("web.you")}` : "")) : [];
  const link = make("a", game ? names.join(", ") : known.id, { href: `/t/${known.id}` });
  li.append(link);
  if (game) {
    const d = describe(known, game);
    if (d.yours) li.dataset.yourMove = "";
    li.append(" ", make("span", d.turn, { class: d.yours ? "turn yours" : "turn" }));
  } else {
    li.append(" ", make("span", t("web.no_table"), { class: "turn" }));
  }
  const forget = make("button", t("web.forget"), { type: "button", class: "forget", "data-forget": known.id,
    "aria-label": t("web.forget_table", { names: game ? names.join(", ") : known.id }) });
  forget.onclick = () => {  // asked once: the seats' secrets leave this browser for good
    const yes = make("button", t("web.forget_confirm"), { type: "button", "data-forget-yes": known.id });
    const no = make("button", t("web.cancel"), { type: "button" });
    const box = make("span", null, { class: "confirm", role: "group" });
    yes.onclick = () => { forgetTable(known.id); redraw(); };
    no.onclick = () => { box.replaceWith(forget); forget.focus(); };
    box.append(yes, " ", no);
    forget.replaceWith(box);
    yes.focus();
  };
  li.append(" ", forget);
  return li;
}

// "Your tables": each table's players and whose turn, the ones where it is this browser's move
// first, the finished ones folded away, each with a way to forget it. At most SHOWN tables are
// read (one GET each, in parallel).
let drawing = 0;
export async function renderYourTables(box) {
  const asked = ++drawing;
  const known = knownTables().slice(0, SHOWN);
  if (!known.length) { box.hidden = true; box.replaceChildren(); return; }
  const games = await Promise.all(known.map(async (k) => {
    try {
      return (await request(`/api/tables/${encodeURIComponent(k.id)}?lang=${texts.lang}`)).game;
    } catch (e) {
      return e.status === 404 ? null : undefined;  // gone, or not known right now
    }
  }));
  if (asked !== drawing) return;
  const redraw = () => renderYourTables(box);
  const playing = [], finished = [];
  known.forEach((k, i) => {
    if (games[i] === undefined) return;  // not readable now (a restart): shown next time
    const li = row(k, games[i], redraw);
    (games[i] && games[i].over ? finished : playing).push(li);
  });
  playing.sort((a, b) => Number("yourMove" in b.dataset) - Number("yourMove" in a.dataset));  // stable
  box.hidden = !playing.length && !finished.length;
  const list = make("ul", null, { id: "your-tables-list" });
  list.append(...playing);
  box.replaceChildren(make("h2", t("web.your_tables"), { id: "your-tables-heading" }), list);
  if (finished.length) {
    const folded = make("details", null, { id: "finished-tables" });
    const list = make("ul", null);
    folded.append(make("summary", t("web.finished_tables", { n: finished.length })), list);
    list.append(...finished);
    box.append(folded);
  }
}
