// @ts-check
// The page's texts in the viewer's language, from GET /api/i18n/{lang} (the gettext catalogs).
// Counts use the catalog's plural forms: the server sends each counted label's forms and which
// form each count 0..199 takes (computed by the catalog's own rule).
/**
 * The words loaded (the page starts in English until they come).
 * @type {{lang: string, game: string | null | undefined, ui: Record<string, string>, plurals: Record<string, string[]>,
 *   pluralIndex: number[], options: Record<string, string>, squares: import("./types.js").SquareText[], rules: string}}
 */
export const texts = { lang: "en", game: undefined, ui: {}, plurals: {}, pluralIndex: [], options: {}, squares: [], rules: "" };
import { request } from "./api.js";
import { keepPickedLang, pickedLang } from "./storage.js";

export const LANGS = ["lv", "cs", "ca", "en"];

/** @param {string} template @param {Record<string, unknown>} fields */
function fill(template, fields) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// The label `key` with its {fields} filled in; `fallback` only until the texts have loaded.
/** @param {string} key @param {Record<string, unknown>} [fields] @param {string | null} [fallback] @returns {string} */
export function t(key, fields = {}, fallback = key) { return fill(texts.ui[key] ?? fallback, fields); }

// "Nr. 36" (lv) and "núm. 45" (ca) in the seeds' texts: a no-break space keeps the sign with its
// number at a line end (the catalogs' own strings have it already).
/** @param {string | null | undefined} text */
export function joinNumbers(text) { return (text || "").replace(/\b(Nr\.|núm\.) (?=\d)/g, "$1\u00a0"); }

// A seed's effect line shown as a line of its own: it continues the story after a dash in the
// printed rules ("… – katram dalībniekam jāsamaksā…"), so alone it gets its capital letter.
/** @param {string | null | undefined} text */
export function ownLine(text) {
  const joined = joinNumbers(text);
  return joined.charAt(0).toLocaleUpperCase(texts.lang) + joined.slice(1);
}

// A server error `{code, message}` in the viewer's language: the catalog's `web.error.<code>`,
// else (a code this page does not know yet) the server's own words.
/** @param {{code: string, message?: string | null}} error @returns {string} */
export function errorText(error) { return t(`web.error.${error.code}`, {}, error.message); }

// The counted label `key` in the form the language uses for `n`.
/** @param {string} key @param {number} n @param {Record<string, unknown>} [fields] */
export function tn(key, n, fields = {}) {
  const forms = texts.plurals[key];
  if (!forms) return `${n}`;
  const index = texts.pluralIndex[n < 200 ? n : 100 + (n % 100)] ?? forms.length - 1;
  return fill(forms[Math.min(index, forms.length - 1)], { n, ...fields });
}

// The language this browser picked before (remembered), else null.
export function pickedLanguage() {
  const lang = pickedLang();
  return LANGS.includes(lang) ? lang : null;
}

/** @param {string} lang */
export function rememberLanguage(lang) { keepPickedLang(lang); }

// The browser's own language if it is one of ours, else null.
export function ownLanguage() {
  return LANGS.find((l) => (navigator.languages || [navigator.language]).some((n) => n.startsWith(l))) || null;
}

// With no pick: the browser's own language if it is one of ours, else English.
export function browserLanguage() { return ownLanguage() || "en"; }

/** @param {string} lang @param {string | null} [gameId] */
export async function loadTexts(lang, gameId) {
  const q = gameId ? `?game=${encodeURIComponent(gameId)}` : "";
  /** @type {import("./types.js").Texts} */
  const data = await request(`/api/i18n/${lang}${q}`);
  Object.assign(texts, { lang, game: gameId || null, ui: data.ui, plurals: data.plurals,
    pluralIndex: data.plural_index, options: data.options, squares: data.squares, rules: data.rules });
  document.documentElement.lang = lang;
  document.documentElement.dataset.texts = lang;  // the fallbacks' English may show now (style.css)
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-ui]"))) node.textContent = t(node.dataset.ui);
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-ui-label]"))) node.setAttribute("aria-label", t(node.dataset.uiLabel));
  document.title = t("ui.title", {}, "Robinson");
}

// The texts for `lang` and the game `gameId`, fetched only if those are not the ones loaded.
/** @param {string} lang @param {string | null} [gameId] */
export async function ensureTexts(lang, gameId) {
  if (texts.lang === lang && texts.game === (gameId || null)) return;
  await loadTexts(lang, gameId);
}
