// @ts-check
// Every request the page makes to the server's REST API goes through `request`: JSON in and
// out, and a refusal thrown as an ApiError whose message is the catalog's words for its code
// in the viewer's language (`web.error.<code>`), the server's own words only for a code the
// catalog does not know. A request that never reached the server is the code `network`.
import { errorText } from "./texts.js";

/** The code of a request that got no answer (offline, the server gone). */
export const NETWORK = "network";

export class ApiError extends Error {
  /**
   * @param {string} code the protocol's stable code (docs/protocol.md "Errors"), or NETWORK
   * @param {string} detail the server's own words (English), or the browser's for NETWORK
   * @param {number} status the HTTP status; 0 for NETWORK
   * @param {number | null} retryAfter seconds the server asked to wait (429, 503), else null
   */
  constructor(code, detail, status, retryAfter = null) {
    super(errorText({ code, message: detail }));
    this.name = "ApiError";
    this.code = code;
    this.detail = detail;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

const wait = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/**
 * @typedef {object} RequestOptions
 * @property {string} [method] GET without a body, POST with one, unless given
 * @property {unknown} [body] sent as JSON
 * @property {number} [retries] times a 429 or 503 (rate_limited, busy) is asked again, after
 *   its Retry-After (1 s when it gives none)
 * @property {number} [maxWait] the longest Retry-After waited, in seconds
 * @property {() => void} [onPending] given: a 202 (the answer being computed) is asked again
 *   every `pendingMs`, calling this each time; not given: a 202's body is the answer
 * @property {number} [pendingMs]
 */

/**
 * The parsed JSON answer of `path`, or a thrown ApiError.
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function request(path, { method, body, retries = 0, maxWait = Infinity, onPending, pendingMs = 1500 } = {}) {
  /** @type {RequestInit} */
  const init = body === undefined ? { method: method || "GET" }
    : { method: method || "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  for (let refused = 0; ; ) {
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      throw new ApiError(NETWORK, e instanceof Error ? e.message : String(e), 0);
    }
    const after = Number(r.headers.get("retry-after")) || null;
    if ((r.status === 429 || r.status === 503) && refused < retries) {
      refused += 1;
      await wait(1000 * Math.min(maxWait, after || 1));
      continue;
    }
    if (r.status === 202 && onPending) {
      onPending();
      await wait(pendingMs);
      continue;
    }
    let data = null;
    try { data = await r.json(); } catch { /* no JSON (a proxy's page): said by the status */ }
    if (r.ok) return data;
    const error = data && data.error;
    throw new ApiError(error?.code || "internal", error?.message || r.statusText || `HTTP ${r.status}`, r.status, after);
  }
}
