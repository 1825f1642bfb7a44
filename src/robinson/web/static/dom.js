// @ts-check
// The small DOM helpers every module of the page uses: an element by id, an element made with
// its text (never markup) and attributes, an SVG element, and the page's two message lines.

const SVG = "http://www.w3.org/2000/svg";

/** The element with id `id` (the page's own ids: assumed there). @type {(id: string) => HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A new `tag` element holding `text` (as text, never markup) with `attrs` set.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string | number | null} [text]
 * @param {Record<string, string | number | boolean>} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function make(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);  // text, never markup
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * A new SVG `tag` element with `attrs` set.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function svgNode(tag, attrs = {}) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// A refused move or request, in a toast in the viewport (an alert: read out at once); it goes
// by itself after a while, or when the next move is accepted.
/** @type {ReturnType<typeof setTimeout> | undefined} */
let errorTimer;
/** @param {string | null | undefined} message @param {boolean} [stay] kept until the next one */
export function showError(message, stay = false) {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = message || "";
  clearTimeout(errorTimer);
  if (message && !stay) errorTimer = setTimeout(() => { box.textContent = ""; }, 8000);
}

/** The connection's state ("Connection lost; reconnecting…"), in view until it is back. @param {string} message */
export function showConnection(message) { $("connection").textContent = message || ""; }
