// @ts-check
// Everything the page keeps in the browser, each key named once here (docs/web-page.md "The
// page's modules"). localStorage outlives the tab: the seats' and the host's secrets, what
// "Your tables" lists, the player's name and switches, the language picked. sessionStorage
// lives with the tab: an invite not yet taken, "open the invite panel", this tab's dice seeds.
//
// A browser may refuse storage (a private window, storage switched off, a full quota): every
// read then gives "nothing kept" and every write is dropped, so the page still plays, only
// forgetting what it would have kept.

const KEY = {
  tokens: (/** @type {string} */ table) => `robinson.tokens.${table}`,  // the seats' secrets, a JSON list
  host: (/** @type {string} */ table) => `robinson.host.${table}`,  // the host's secret
  push: (/** @type {string} */ table) => `robinson.push.${table}`,  // "on" / "off"
  sound: "robinson.sound",  // "on" / "off"
  name: "robinson.name",
  tables: "robinson.tables",  // {table: {seats, seen}}: "Your tables" (yours.js)
  quickStart: "robinson.quick-start-seen",  // "1" once "Got it" was clicked
  oddsHidden: "robinson.odds.hidden",  // "1" / "0"
  lang: "robinson.lang",
  // sessionStorage
  invite: (/** @type {string} */ table) => `robinson.invite.${table}`,
  showInvites: (/** @type {string} */ table) => `robinson.show-invites.${table}`,
  dice: (/** @type {string} */ game, /** @type {number} */ seat) => `robinson.dice.${game}.${seat}`,
};
const TOKENS = "robinson.tokens.", HOST = "robinson.host.";

/** @typedef {"local" | "session"} Area */

/** @param {Area} area @returns {Storage | null} */
function area(area) {
  try { return area === "local" ? window.localStorage : window.sessionStorage; } catch { return null; }
}

/** @param {Area} where @param {string} key @returns {string | null} */
function read(where, key) {
  try { return area(where)?.getItem(key) ?? null; } catch { return null; }
}

/** @param {Area} where @param {string} key @param {string | null} value null: removed */
function write(where, key, value) {
  try {
    const s = area(where);
    if (value === null) s?.removeItem(key); else s?.setItem(key, value);
  } catch { /* refused (private window, quota): not kept */ }
}

/** @template T @param {string | null} text @param {T} fallback @returns {T} */
function parsed(text, fallback) {
  try { return text === null ? fallback : JSON.parse(text) ?? fallback; } catch { return fallback; }
}

// ------------------------------------------------------------------------ a table's secrets
/** The seats' secrets this browser holds at `table`. @param {string} table @returns {string[]} */
export function seatTokens(table) {
  const list = parsed(read("local", KEY.tokens(table)), []);
  return Array.isArray(list) ? list.filter((x) => typeof x === "string") : [];
}

/** @param {string} table @param {string[]} tokens */
export function keepSeatTokens(table, tokens) { write("local", KEY.tokens(table), JSON.stringify(tokens)); }

/** @param {string} table @returns {string | null} */
export function hostSecret(table) { return read("local", KEY.host(table)); }

/** @param {string} table @param {string} host */
export function rememberHost(table, host) { write("local", KEY.host(table), host); }

/** Every secret of `table` leaves this browser. @param {string} table */
export function forgetSecrets(table) {
  write("local", KEY.tokens(table), null);
  write("local", KEY.host(table), null);
}

/** Tables this browser holds a seat's secret (a non-empty list) or the host's secret for.
 * @returns {string[]} */
export function tablesHeld() {
  const s = area("local"), ids = new Set();
  try {
    for (let i = 0; s && i < s.length; i++) {
      const key = s.key(i) || "";
      // (a spectator's page keeps an empty list of secrets: watching is not a seat)
      if (key.startsWith(TOKENS) && seatTokens(key.slice(TOKENS.length)).length) ids.add(key.slice(TOKENS.length));
      else if (key.startsWith(HOST)) ids.add(key.slice(HOST.length));
    }
  } catch { /* storage refused: none known */ }
  return [...ids];
}

/** @typedef {{seats: number[], seen: number}} KnownTable */
/** "Your tables": which seats each table's secrets hold, and when it was last opened.
 * @returns {Record<string, KnownTable>} */
export function tableIndex() {
  /** @type {unknown} */
  const all = parsed(read("local", KEY.tables), {});
  return all && typeof all === "object" && !Array.isArray(all) ? /** @type {Record<string, KnownTable>} */ (all) : {};
}

/** @param {Record<string, KnownTable>} all */
export function keepTableIndex(all) { write("local", KEY.tables, JSON.stringify(all)); }

// -------------------------------------------------------------------- the player's switches
export function soundOn() { return read("local", KEY.sound) === "on"; }
/** @param {boolean} on */
export function keepSound(on) { write("local", KEY.sound, on ? "on" : "off"); }

/** @param {string} table */
export function pushOn(table) { return read("local", KEY.push(table)) === "on"; }
/** @param {string} table @param {boolean} on */
export function keepPush(table, on) { write("local", KEY.push(table), on ? "on" : "off"); }

/** The name asked once on the home page ("" when none). */
export function savedName() { return (read("local", KEY.name) || "").trim(); }
/** @param {string} name "": forgotten */
export function keepName(name) { write("local", KEY.name, name.trim() || null); }

export function quickStartSeen() { return read("local", KEY.quickStart) === "1"; }
export function keepQuickStartSeen() { write("local", KEY.quickStart, "1"); }

export function oddsHidden() { return read("local", KEY.oddsHidden) === "1"; }
/** @param {boolean} hidden */
export function keepOddsHidden(hidden) { write("local", KEY.oddsHidden, hidden ? "1" : "0"); }

/** The language picked on this browser before, as kept (checked by the caller). */
export function pickedLang() { return read("local", KEY.lang); }
/** @param {string} lang */
export function keepPickedLang(lang) { write("local", KEY.lang, lang); }

// ------------------------------------------------------------------------- this tab only
/** An invite code of `table` opened in this tab and not taken yet. @param {string} table */
export function pendingInvite(table) { return read("session", KEY.invite(table)); }
/** @param {string} table @param {string | null} code null: dropped */
export function keepInvite(table, code) { write("session", KEY.invite(table), code); }

/** "Play with friends" asks the table page to open its invite panel, once. @param {string} table */
export function askInvitePanel(table) { write("session", KEY.showInvites(table), "1"); }
/** Whether it was asked (the ask is used up). @param {string} table */
export function invitePanelAsked(table) { return read("session", KEY.showInvites(table)) !== null; }
/** @param {string} table */
export function dropInvitePanelAsk(table) { write("session", KEY.showInvites(table), null); }

/** This tab's dice seed for a seat of a game (docs/fair-dice.md). @param {string} game @param {number} seat */
export function diceSeed(game, seat) { return read("session", KEY.dice(game, seat)); }
/** @param {string} game @param {number} seat @param {string} seed */
export function keepDiceSeed(game, seat, seed) { write("session", KEY.dice(game, seat), seed); }
