// The SVG board: 45 squares along a winding path, pawns, Friday links, the die and the parrot.
// Pure DOM, no HTML strings, so names and texts can never be read as markup. No emoji either:
// a browser without an emoji font would show boxes, so every picture is drawn here.
const NS = "http://www.w3.org/2000/svg";
const W = 92, H = 92, GAP = 6, ROW = H + GAP + 4;
export const COLOURS = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6"];
let cols = 9;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Nine columns on a wide screen; five on a phone, so a square stays big enough to read.
export function columnsFor(width) { return width < 640 ? 5 : 9; }

// The centre of square n (1..45); square 0 is the start strip below the board.
export function centre(n) {
  const rows = Math.ceil(45 / cols);
  if (n <= 0) return { x: 40, y: 10 + rows * ROW + 20 };
  const row = Math.floor((n - 1) / cols), i = (n - 1) % cols;
  const col = row % 2 === 0 ? i : cols - 1 - i;
  return { x: 10 + col * (W + GAP) + W / 2, y: 10 + row * ROW + H / 2 };
}

// Split a title into at most `max` lines of about `width` characters.
function wrap(text, width, max) {
  const lines = [];
  for (const word of (text || "").split(/\s+/).filter(Boolean)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && (last + " " + word).length <= width) lines[lines.length - 1] = last + " " + word;
    else lines.push(word);
  }
  if (lines.length > max) { lines.length = max; lines[max - 1] = lines[max - 1].replace(/.?$/, "…"); }
  return lines.map((l) => (l.length > width + 2 ? l.slice(0, width + 1) + "…" : l));
}

export function drawBoard(svg, squares, onPick, width = window.innerWidth) {
  cols = columnsFor(width);
  const narrow = cols < 9;
  svg.replaceChildren();
  svg.classList.toggle("narrow", narrow);
  const rows = Math.ceil(45 / cols);
  svg.setAttribute("viewBox", `0 0 ${20 + cols * (W + GAP)} ${rows * ROW + 50}`);
  const path = el("polyline", { fill: "none", stroke: "#8a7a5a", "stroke-width": 8, "stroke-linecap": "round",
    points: squares.map((s) => { const c = centre(s.number); return `${c.x},${c.y}`; }).join(" ") }, svg);
  path.setAttribute("aria-hidden", "true");
  const nodes = [];
  for (const sq of squares) {
    const c = centre(sq.number);
    // One tab stop for the whole board (roving tabindex): arrows move between squares.
    const g = el("g", { class: `sq k-${sq.kind}`, "data-square": sq.number, tabindex: sq.number === 1 ? 0 : -1,
      role: "button" }, svg);
    g.setAttribute("aria-label", [sq.number, sq.title, sq.effect].filter(Boolean).join(". "));
    el("title", {}, g).textContent = [sq.title, sq.story, sq.effect].filter(Boolean).join("\n");
    el("rect", { x: c.x - W / 2, y: c.y - H / 2, width: W, height: H }, g);
    el("text", { class: "num", x: c.x - W / 2 + 6, y: c.y - H / 2 + (narrow ? 22 : 17) }, g).textContent = sq.number;
    const lines = narrow ? wrap(sq.title, 11, 3) : wrap(sq.title, 17, 3);
    lines.forEach((line, i) => {
      const y = narrow ? c.y + 2 + i * 15 : c.y + 8 + i * 11;
      el("text", { class: "title", x: c.x - W / 2 + 5, y }, g).textContent = line;
    });
    nodes.push(g);
  }
  // A word longer than a square is narrowed to fit (measured once the board is in the page).
  for (const text of svg.querySelectorAll(".title")) {
    if (text.getComputedTextLength() > W - 8) {
      text.setAttribute("textLength", W - 8); text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
  for (const g of nodes) {
    const sq = squares[nodes.indexOf(g)];
    for (const type of ["focus", "mouseenter", "click"]) g.addEventListener(type, () => onPick(sq));
  }
  svg.onkeydown = (e) => {
    const at = nodes.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -99, End: 99 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const next = nodes[Math.max(0, Math.min(nodes.length - 1, at + step))];
    nodes[at].setAttribute("tabindex", -1); next.setAttribute("tabindex", 0); next.focus();
  };
  const start = centre(0);
  el("polygon", { points: `${start.x - 30},${start.y - 8} ${start.x - 30},${start.y + 8} ${start.x - 20},${start.y}`,
    fill: "#8a7a5a", "aria-hidden": "true" }, svg);
  el("g", { id: "links" }, svg);
  el("g", { id: "pawns" }, svg);
}

// A small anchor: the shipwreck mark (rule of square 6) carried on the pawn.
function anchor(parent) {
  const g = el("g", { class: "anchor", transform: "translate(9 -22)" }, parent);
  el("circle", { cx: 5, cy: 2, r: 2, fill: "none", stroke: "#000", "stroke-width": 1.5 }, g);
  el("path", { d: "M5 4 V13 M1 9 Q1 13 5 13 Q9 13 9 9 M2 7 H8", fill: "none", stroke: "#000", "stroke-width": 1.5 }, g);
  return g;
}

// Place pawns for `players` [{seat, name, position, alive, skips, shipwrecked, friday}].
export function drawPawns(svg, players) {
  const layer = svg.querySelector("#pawns"), links = svg.querySelector("#links");
  const count = {};
  const spots = {};
  for (const p of players) {
    let pawn = layer.querySelector(`[data-seat="${p.seat}"]`);
    if (!p.alive) { if (pawn) pawn.remove(); continue; }
    if (!pawn) {
      pawn = el("g", { class: "pawn", "data-seat": p.seat }, layer);
      el("circle", { r: 12, fill: COLOURS[p.seat % 8] }, pawn);
      el("text", { x: -4, y: 4 }, pawn).textContent = p.seat + 1;
      el("text", { class: "skips", x: -22, y: -12 }, pawn);
      el("title", {}, pawn);
    }
    pawn.querySelector("title").textContent = p.name;
    const k = (count[p.position] = (count[p.position] || 0) + 1) - 1;
    const c = centre(p.position);
    const at = p.position === 0 ? { x: c.x + k * 30, y: c.y } : { x: c.x - 30 + (k % 4) * 20, y: c.y - 12 + Math.floor(k / 4) * 22 };
    spots[p.seat] = at;
    pawn.style.transform = `translate(${at.x}px, ${at.y}px)`;
    const mark = pawn.querySelector(".anchor");
    if (p.shipwrecked && !mark) anchor(pawn);
    if (!p.shipwrecked && mark) mark.remove();
    pawn.querySelector(".skips").textContent = p.skips ? `‖${p.skips}` : "";
  }
  links.replaceChildren();
  for (const p of players) {
    if (p.friday === null || p.friday === undefined || !spots[p.seat] || !spots[p.friday]) continue;
    const a = spots[p.seat], b = spots[p.friday];
    el("line", { class: "friday-link", "data-friday": `${p.seat}-${p.friday}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y }, links);
  }
}

const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

// The die (an <svg> element) showing `face` pips, or a blank face before the first roll.
export function drawDie(svg, face) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 40 40");
  el("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: "#fff", stroke: "#1d2b36", "stroke-width": 2 }, svg);
  for (const [i, j] of PIPS[face] || []) el("circle", { cx: 10 + i * 10, cy: 10 + j * 10, r: 3.6, fill: "#1d2b36" }, svg);
}

// The parrot of square 17, drawn in a few shapes.
export function drawParrot(svg) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 60 70");
  el("path", { d: "M30 8 C45 8 50 22 46 34 L40 60 L26 66 L22 40 C14 30 18 8 30 8 Z", fill: "#2e9e44" }, svg);
  el("path", { d: "M40 40 L52 66 L38 62 Z", fill: "#d8342c" }, svg);
  el("path", { d: "M24 30 C22 42 26 52 34 56 L30 36 Z", fill: "#1f6fd1" }, svg);
  el("circle", { cx: 34, cy: 18, r: 3.5, fill: "#fff" }, svg);
  el("circle", { cx: 35, cy: 18, r: 1.8, fill: "#000" }, svg);
  el("path", { d: "M44 16 C54 16 56 26 48 30 L44 24 Z", fill: "#f2c230", stroke: "#6b4e00", "stroke-width": 1 }, svg);
}

// A robot head: marks a seat played by a bot, beside the bot's name in words.
export function robotIcon() {
  const svg = el("svg", { class: "icon", viewBox: "0 0 20 20", "aria-hidden": "true" });
  el("rect", { x: 3, y: 5, width: 14, height: 11, rx: 3, fill: "#5b6b78" }, svg);
  el("circle", { cx: 7.5, cy: 10, r: 1.8, fill: "#fff" }, svg);
  el("circle", { cx: 12.5, cy: 10, r: 1.8, fill: "#fff" }, svg);
  el("path", { d: "M10 5 V2", stroke: "#5b6b78", "stroke-width": 1.6 }, svg);
  el("circle", { cx: 10, cy: 2, r: 1.4, fill: "#b5542c" }, svg);
  return svg;
}
