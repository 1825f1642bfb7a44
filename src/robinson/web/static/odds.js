// @ts-check
// The chances: a bar per seat at the table (hideable), each option's chance at a decision, and
// after the game the chart of every seat's chances over the turns with the biggest swings.
// Everything comes from GET /api/games/{game}/odds and /odds/history (docs/protocol.md); a 202
// answer means the server is still solving this edition's chances: say so and ask again.
import { request } from "./api.js";
import { COLOURS } from "./board.js";
import { make as node, svgNode } from "./dom.js";
import { keepOddsHidden, oddsHidden } from "./storage.js";
import { t, texts, tn } from "./texts.js";

const wanted = { key: null };  // the position whose chances the page wants now (newest wins)
// "game/version" -> the answer for it, asked once (a past position's chances never change; a
// `state`, presence, re-renders from it, and a redrawn list keeps its bars with no empty blink)
const known = new Map();

// This module's own styles, so the page needs no more than the calls into it.
if (!document.querySelector('link[href="/static/odds.css"]')) {
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/odds.css" }));
}

// "36,3 %" in lv, cs and ca (a no-break space, which the browser's Latvian format lacks), "36.3%"
// in English: the same as the terminal and the report (robinson.i18n.numbers).
export function percent(p) {
  const text = new Intl.NumberFormat(texts.lang, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p);
  return text.replace(/[\s\u00a0\u202f]*%/, texts.lang === "en" ? "%" : "\u00a0%").replace(/^-/, "\u2212");
}

const hidden = oddsHidden;

// A 202 (the chances being solved) is asked again until the answer comes; a 429 or 503 (too
// many long computations at once, from this address or in all) a few times, after Retry-After.
// A refusal is thrown in the viewer's words (api.js).
const fetchJson = (url) => request(url, { retries: 5, onPending: markComputing, pendingMs: 1500 });

// The turn of the position in view, marked on the chart when there is one.
const lastVersion = new Map();
function markChart(gameId, version) {
  if (version === undefined) return;
  lastVersion.set(gameId, version);
  const data = charts.get(gameId);
  for (const box of document.querySelectorAll(`.odds-chart[data-game="${CSS.escape(gameId)}"]`)) {
    const now = box.querySelector(".odds-now");
    if (!now || !data) continue;
    const at = data.points.filter((p) => p.version <= version).length - 1;
    const hit = box.querySelectorAll(".odds-hit")[Math.max(at, 0)];
    const x = Number(hit.getAttribute("x")) + Number(hit.getAttribute("width")) / 2;
    now.setAttribute("x1", String(x)); now.setAttribute("x2", String(x)); now.setAttribute("visibility", "visible");
  }
}

function markComputing() {
  for (const bar of document.querySelectorAll("[data-odds-seat]")) bar.classList.add("computing");
  const note = document.getElementById("odds-note");
  if (note) note.textContent = t("web.odds.computing");
}

// The toggle: one button above the players' list, remembered in this browser.
function toggle(list, refresh) {
  let button = document.getElementById("odds-toggle");
  if (!button) {
    button = node("button", null, { type: "button", id: "odds-toggle" });
    button.onclick = () => { keepOddsHidden(!hidden()); refresh(); };
    list.before(button);
  }
  button.textContent = hidden() ? t("web.odds.show") : t("web.odds.hide");
  button.setAttribute("aria-pressed", String(!hidden()));
}

// Bars in each player's row of #players ([data-player=N]) for the position after `version`
// actions of `gameId`; at a decision, each option's chance for the chooser under the prompt.
export async function showOdds(gameId, version, toMove = null) {
  markChart(gameId, version);
  const list = document.getElementById("players");
  if (!list) return;
  const refresh = () => showOdds(gameId, version, toMove);
  toggle(list, refresh);
  let note = document.getElementById("odds-note");
  if (!note) { note = node("p", null, { id: "odds-note", "aria-live": "polite" }); list.after(note); }
  const rows = [.../** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll("[data-player]"))];
  for (const row of rows) {
    /** @type {HTMLElement | null} */
    let bar = row.querySelector("[data-odds-seat]");
    if (!bar) {
      bar = node("div", null, { class: "odds", "data-odds-seat": row.dataset.player });
      bar.append(node("span", null, { class: "odds-fill" }), node("span", null, { class: "odds-text" }));
      row.append(bar);
    }
    bar.hidden = hidden();
  }
  note.hidden = hidden();
  const chances = () => /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#actions [data-move] .chance"));
  for (const span of chances()) span.hidden = hidden();
  if (hidden()) return;
  const key = `${gameId}/${version}`;
  wanted.key = key;
  let data = known.get(key);  // its answer (drawn at once: no empty blink), or the asking
  if (!data || data instanceof Promise) {
    if (!data) {
      data = fetchJson(`/api/games/${encodeURIComponent(gameId)}/odds?version=${version}`);
      known.set(key, data);
      if (known.size > 64) known.delete(known.keys().next().value);
    }
    try {
      data = await data;
    } catch (e) {
      known.delete(key);  // asked again next time
      if (wanted.key === key) note.textContent = e.message;
      return;
    }
    known.set(key, data);
  }
  if (wanted.key !== key) return;  // a newer move came in meanwhile
  note.textContent = data.method === "simulation" ? t("web.odds.simulated", { games: data.games.toLocaleString(texts.lang) }) : "";
  for (const row of list.querySelectorAll("[data-player]")) {
    const bar = /** @type {HTMLElement | null} */ (row.querySelector("[data-odds-seat]"));
    if (!bar) continue;
    const p = data.p_win[Number(bar.dataset.oddsSeat)];
    bar.classList.remove("computing");
    bar.dataset.oddsValue = String(p);
    /** @type {HTMLElement} */ (bar.querySelector(".odds-fill")).style.width = `${(100 * p).toFixed(1)}%`;
    bar.querySelector(".odds-text").textContent = `${t("web.odds.title")}: ${percent(p)}`;
    bar.title = percent(p);
    bar.dataset.percent = (100 * p).toFixed(1);
  }
  // at a decision, each option's chance on its button: "Move on → 9 The cave · 35.2%"
  for (const span of chances()) {
    const p = data.options && toMove !== null ? data.options[/** @type {HTMLElement} */ (span.parentNode).dataset.move] : undefined;
    span.textContent = p === undefined ? "" : ` · ${percent(p)}`;
  }
}

// The chart of every seat's chances over the game, one line per seat (x = turn), in `where`;
// clicking a turn calls jump(version); below it, the biggest swings in words.
const charts = new Map();  // game -> its history, once fetched (a finished game's never changes)

export async function showChart(gameId, where, names, jump) {
  let box = where.querySelector(".odds-chart");
  if (!box) { box = node("figure", null, { class: "odds-chart" }); where.append(box); }
  let data = charts.get(gameId);
  if (!data) {
    box.replaceChildren(node("figcaption", t("web.odds.chart")), node("p", t("web.odds.computing")));
    try {
      data = await fetchJson(`/api/games/${encodeURIComponent(gameId)}/odds/history`);
    } catch (e) {  // said where the chart would be; asked again at the next drawing
      box.replaceChildren(node("figcaption", t("web.odds.chart")), node("p", e.message, { class: "odds-problem", role: "alert" }));
      return null;
    }
    charts.set(gameId, data);
  }
  const points = data.points;
  // Labels at 12 px on the screen whatever the chart's width (the SVG scales with its box).
  // (a narrow box gets a taller drawing, so the plot keeps its room)
  const W = 600, scale = W / Math.max(box.clientWidth || W, 200), px = 12 * scale;
  const pad = Math.max(24, 3.2 * px), bottom = pad + 1.4 * px, H = pad + 140 + bottom;
  const x = (i) => pad + (W - 2 * pad) * (points.length > 1 ? i / (points.length - 1) : 0);
  const y = (p) => H - bottom - (H - pad - bottom) * p;
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("web.odds.chart"), class: "odds-svg" });
  for (const p of [0, 0.5, 1]) {
    svg.append(svgNode("line", { x1: pad, x2: W - pad, y1: y(p), y2: y(p), class: "odds-grid" }));
    const label = svgNode("text", { x: 2, y: y(p) + px / 3, class: "odds-axis", "font-size": px });
    label.textContent = percent(p).replace(/[.,]0(?=\D*$)/, "");
    svg.append(label);
  }
  // the turn axis: a tick and its number every few turns (at most eight)
  const last = points[points.length - 1]?.turn ?? 1, every = Math.max(1, Math.ceil(last / 8 / 5) * 5);
  points.forEach((pt, i) => {
    if (pt.turn % every !== 0 || points[i - 1]?.turn === pt.turn) return;
    svg.append(svgNode("line", { x1: x(i), x2: x(i), y1: H - bottom, y2: H - bottom + px / 3, class: "odds-grid" }));
    const tick = svgNode("text", { x: x(i), y: H - bottom + 1.3 * px, class: "odds-axis odds-turn", "font-size": px, "text-anchor": "middle" });
    tick.textContent = pt.turn;
    svg.append(tick);
  });
  names.forEach((name, seat) => {
    const line = svgNode("polyline", {
      points: points.map((pt, i) => `${x(i).toFixed(1)},${y(pt.p_win[seat]).toFixed(1)}`).join(" "),
      fill: "none", stroke: COLOURS[seat % 8], "stroke-width": 2.5, "data-odds-line": seat,
    });
    const title = svgNode("title"); title.textContent = `${name}`; line.append(title);
    svg.append(line);
  });
  // One invisible column per turn takes the click (and the keyboard) to that turn.
  points.forEach((pt, i) => {
    const w = (W - 2 * pad) / Math.max(points.length - 1, 1);
    const hit = svgNode("rect", { x: x(i) - w / 2, y: 0, width: w, height: H, class: "odds-hit", tabindex: -1, "data-version": pt.version });
    const title = svgNode("title");
    title.textContent = `${t("web.odds.turn", { n: pt.turn })}: ` + names.map((n, s) => `${n} ${percent(pt.p_win[s])}`).join(", ");
    hit.append(title);
    hit.addEventListener("click", () => jump && jump(pt.version));
    svg.append(hit);
  });
  const swings = node("ul", null, { class: "odds-swings" });
  for (const s of data.swings) {
    const points100 = Math.round(Math.abs(100 * s.delta));
    const key = s.delta < 0 ? "web.odds.swing_lost" : "web.odds.swing_won";
    // the turn named: two swings of one player, roll and square still read apart
    const swing = tn(key, points100, { name: names[s.seat], roll: s.roll, square: s.square });
    const li = node("li", t("web.odds.swing_at", { n: s.turn, swing }), { "data-version": s.version, "data-turn": s.turn });
    if (jump) { li.classList.add("jump"); li.tabIndex = 0; li.onclick = () => jump(s.version); li.onkeydown = (e) => { if (e.key === "Enter") jump(s.version); }; }
    swings.append(li);
  }
  const now = svgNode("line", { y1: pad / 2, y2: H - pad / 2, class: "odds-now", visibility: "hidden" });
  svg.append(now);
  // the legend: each line's player, in the line's colour
  const legend = node("ul", null, { class: "odds-legend" });
  names.forEach((name, seat) => {
    const item = node("li", null, { "data-legend-seat": seat });
    const swatch = node("span", null, { class: "odds-swatch", "aria-hidden": "true" });
    swatch.style.background = COLOURS[seat % 8];
    item.append(swatch, name);
    legend.append(item);
  });
  box.replaceChildren(node("figcaption", t("web.odds.chart")), svg, legend, swings);
  box.dataset.game = gameId;
  markChart(gameId, lastVersion.get(gameId));
  return data;
}
