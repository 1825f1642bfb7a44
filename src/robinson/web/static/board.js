// @ts-check
// The SVG board: a drawn scene (the sea and the ship at the start, the island, the hills, home
// at the end), 45 squares along a winding path, each with its pictogram, pawns, Friday links,
// the die and the parrot. Pure DOM, no HTML strings, so names and texts can never be read as
// markup. No emoji either: a browser without an emoji font would show boxes, so every picture
// is drawn here (pictograms.js).
import { drawPictogram } from "./pictograms.js";
import { joinNumbers, ownLine } from "./texts.js";

const NS = "http://www.w3.org/2000/svg";
// A square is a card TW×TH; cards sit PX apart along a row and PY apart between rows.
const TW = 88, TH = 100, PX = 100, PY = 118, TOP = 58;
// The quay (square 0) holds eight pawns in a row, 28 apart, with room for the widest shape.
const QUAY = 244;
let cols = 9, margin = 24;

// Seat colours with the ink that reads on each (contrast at least 4.5:1, tested) and a shape
// per seat, so a pawn is never told by its colour alone.
export const COLOURS = ["#c62828", "#2e7d32", "#f9a825", "#1565c0", "#ef6c00", "#6a1b9a", "#00acc1", "#ad1457"];
export const INKS = ["#ffffff", "#ffffff", "#1b1b1b", "#ffffff", "#1b1b1b", "#ffffff", "#1b1b1b", "#ffffff"];
export const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "shield"];

// Effect kinds grouped for colour and the legend (the label keys are web.legend.*).
export const KIND_GROUP = {
  story: "story", travel: "pay", pay: "pay", receive: "receive", neighbour: "players", friday: "players",
  rescue: "players", shipwreck: "move", canoe: "move", footprint: "move", ship: "move", tree: "turn",
  fever: "turn", bread: "turn", gallows: "danger", chorus: "chorus", home: "home",
};
export const GROUPS = ["receive", "pay", "players", "move", "turn", "danger", "chorus", "story", "home"];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Nine columns on a wide screen; five on a phone, so a square stays big enough to read.
export function columnsFor(width) { return width < 640 ? 5 : 9; }

// The top-left corner of square n's card (1..45), the path winding row by row.
function corner(n) {
  const row = Math.floor((n - 1) / cols), i = (n - 1) % cols;
  const col = row % 2 === 0 ? i : cols - 1 - i;
  return { x: margin + col * PX, y: TOP + row * PY };
}

// Where a pawn stands on square n: the upper half of the card, so the title stays readable.
// Square 0 is the quay above the board where every pawn waits for its first roll.
export function centre(n) {
  if (n <= 0) return { x: margin + 14, y: 26 };
  const c = corner(n);
  return { x: c.x + TW / 2, y: c.y + 44 };
}

// The k-th of `count` pawns on square n, over the picture, never over the number or the
// title: up to four in a row; five to eight in two rows, a little smaller (scale s).
export function spot(n, k, count = 1) {
  const c = centre(n);
  if (n <= 0) return { x: c.x + k * 28, y: c.y, s: 1 };
  if (count <= 4) return { x: c.x - 30 + k * 20, y: c.y - 4, s: 1 };
  return { x: c.x - 30 + (k % 4) * 20, y: c.y - 11 + Math.floor(k / 4) * 21, s: 0.8 };
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
  return lines;
}

function rounded(x, y, w, h, r, attrs, parent) { return el("rect", { x, y, width: w, height: h, rx: r, ...attrs }, parent); }

// The scene behind the squares: sea with waves, the island (squares 5..42) with its beach,
// the hills where the mutiny and the gallows are, the home shore of square 45, the ship.
function drawScene(svg, width, height) {
  const scene = el("g", { class: "scene", "aria-hidden": "true" }, svg);
  rounded(0, 0, width, height, 14, { class: "sea" }, scene);
  for (let y = 20; y < height; y += 46) {
    for (let x = (y / 46) % 2 ? 10 : 40; x < width; x += 90) {
      el("path", { class: "wave", d: `M${x} ${y}q6 -5 12 0t12 0` }, scene);
    }
  }
  const land = (from, to, grow, cls) => {
    for (let n = from; n <= to; n++) {
      const c = corner(n);
      rounded(c.x - grow, c.y - grow, TW + 2 * grow, TH + 2 * grow, 26 + grow, { class: cls }, scene);
    }
  };
  land(5, 42, 18, "beach");
  land(5, 42, 9, "island");
  land(27, 42, 6, "hills");
  land(45, 45, 16, "home-shore");
  // hill tops peeking between the rows of the late island
  for (let n = 28; n <= 42; n += 3) {
    const c = corner(n);
    el("path", { class: "hill", d: `M${c.x - 8} ${c.y + TH + 12}q${PX / 2} -44 ${PX + 4} 0z` }, scene);
  }
  // the path itself: a trail from the quay through every square
  const pts = [centre(0)];
  for (let n = 1; n <= 45; n++) { const c = corner(n); pts.push({ x: c.x + TW / 2, y: c.y + TH / 2 }); }
  const d = pts.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join("");
  el("path", { class: "trail", d }, scene);
  el("path", { class: "trail-dash", d }, scene);
  // the ship that brings Robinson (top right) and the quay where the pawns wait
  const ship = el("g", { class: "scene-ship", transform: `translate(${width - 92} 4) scale(1.2)` }, scene);
  el("path", { d: "M4 34h56l-8 10h-40z", class: "hull" }, ship);
  el("path", { d: "M30 34V4M46 34V12", class: "mast" }, ship);
  el("path", { d: "M29 6v24h-20zM45 13v18h-13z", class: "sail" }, ship);
  rounded(margin - 8, 10, QUAY, 32, 6, { class: "quay" }, scene);
}

// The board: scene, squares (each a button with its full text), the pawn and link layers.
// `interactive` false draws a picture only (the home page).
export function drawBoard(svg, squares, onPick, width = window.innerWidth, interactive = true) {
  cols = columnsFor(width);
  const narrow = cols < 9;
  margin = narrow ? 8 : 24;
  svg.replaceChildren();
  svg.classList.toggle("narrow", narrow);
  const rows = Math.ceil(45 / cols);
  const w = 2 * margin + (cols - 1) * PX + TW, h = TOP + (rows - 1) * PY + TH + 24;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  drawScene(svg, w, h);
  const nodes = [];
  for (const sq of squares) {
    const c = corner(sq.number);
    const attrs = { class: `sq k-${sq.kind} g-${KIND_GROUP[sq.kind] || "story"}`, "data-square": sq.number };
    if (interactive) Object.assign(attrs, { tabindex: sq.number === 1 ? 0 : -1, role: "button" });
    const g = el("g", attrs, svg);
    const effect = sq.effect ? ownLine(sq.effect) : "";  // on its own: from its capital letter
    if (interactive) g.setAttribute("aria-label", [sq.number, sq.title, effect].filter(Boolean).join(". "));
    el("title", {}, g).textContent = [sq.title, joinNumbers(sq.story), effect].filter(Boolean).join("\n");
    rounded(c.x, c.y, TW, TH, 9, { class: "card" }, g);
    el("path", { class: "band", d: `M${c.x} ${c.y + 22}v-13a9 9 0 0 1 9 -9h${TW - 18}a9 9 0 0 1 9 9v13z` }, g);
    el("text", { class: "num", x: c.x + 6, y: c.y + 17 }, g).textContent = sq.number;
    drawPictogram(g, sq.number, c.x + TW / 2 - (narrow ? 17 : 19), c.y + 24, narrow ? 34 : 38);
    const lines = narrow ? wrap(sq.title, 10, 2) : wrap(sq.title, 14, 2);
    const size = narrow ? 14 : 12;
    lines.forEach((line, i) => {
      const y = c.y + TH - 8 - (lines.length - 1 - i) * (size + 1);
      el("text", { class: "title", x: c.x + TW / 2, y, "text-anchor": "middle" }, g).textContent = line;
    });
    nodes.push(g);
  }
  // A word longer than a square is narrowed to fit (measured once the board is in the page).
  for (const text of svg.querySelectorAll(".title")) {
    if (text.getComputedTextLength() > TW - 6) {
      text.setAttribute("textLength", TW - 6); text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
  if (!interactive) return;  // a picture: no layers for pawns (and no ids twice in the page)
  el("g", { id: "links" }, svg);
  el("g", { id: "pawns" }, svg);
  nodes.forEach((g, i) => {
    for (const type of ["focus", "mouseenter", "click"]) g.addEventListener(type, () => onPick(squares[i]));
  });
  svg.onkeydown = (e) => {
    const at = nodes.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -99, End: 99 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const next = nodes[Math.max(0, Math.min(nodes.length - 1, at + step))];
    nodes[at].setAttribute("tabindex", -1); next.setAttribute("tabindex", 0); next.focus();
  };
}

// The outline of a seat's pawn shape, radius r, centred on 0,0.
export function shapePath(seat, r = 12) {
  const poly = (k, turn = -Math.PI / 2, radii = [r]) => {
    const pts = [];
    for (let i = 0; i < k * radii.length; i++) {
      const a = turn + (i * 2 * Math.PI) / (k * radii.length), rr = radii[i % radii.length];
      pts.push(`${(rr * Math.cos(a)).toFixed(1)} ${(rr * Math.sin(a)).toFixed(1)}`);
    }
    return `M${pts.join("L")}Z`;
  };
  switch (SHAPES[seat % 8]) {
    case "circle": return `M${-r} 0a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
    case "square": return `M${-r * 0.9} ${-r * 0.9}h${r * 1.8}v${r * 1.8}h${-r * 1.8}Z`;
    case "triangle": return poly(3, -Math.PI / 2, [r * 1.25]);
    case "diamond": return poly(4, -Math.PI / 2, [r * 1.15]);
    case "pentagon": return poly(5, -Math.PI / 2, [r * 1.05]);
    case "hexagon": return poly(6, 0, [r * 1.05]);
    case "star": return poly(5, -Math.PI / 2, [r * 1.3, r * 0.75]);
    default: return `M${-r} ${-r}h${2 * r}v${r}q0 ${r} ${-r} ${r * 1.2}q${-r} ${-r * 0.2} ${-r} ${-r * 1.2}Z`;
  }
}

// A seat's shape as a small inline SVG (lists, the log, the standings).
export function seatIcon(seat, size = 16) {
  const svg = el("svg", { class: "seat-icon", viewBox: "-15 -15 30 30", width: size, height: size, "aria-hidden": "true" });
  el("path", { d: shapePath(seat, 12), fill: COLOURS[seat % 8], stroke: "#1b1b1b", "stroke-width": 2 }, svg);
  return svg;
}

// A small anchor: the shipwreck mark (rule of square 6) carried on the pawn.
function anchor(parent) {
  const g = el("g", { class: "anchor", transform: "translate(7 -24)" }, parent);
  el("circle", { cx: 5, cy: 2, r: 2, fill: "none", stroke: "#000", "stroke-width": 1.5 }, g);
  el("path", { d: "M5 4 V13 M1 9 Q1 13 5 13 Q9 13 9 9 M2 7 H8", fill: "none", stroke: "#000", "stroke-width": 1.5 }, g);
  return g;
}

export const spots = {};  // seat -> where its pawn stands now (for the motion module)

// Place pawns for `players` [{seat, name, position, alive, skips, shipwrecked, friday}];
// `toMove` gets the highlight ring.
// The winner's crown on his pawn at 45 (gone again when a replay steps back).
function crown(pawn, on) {
  const had = pawn.querySelector(".crown");
  if (on && !had) el("path", { class: "crown", d: "M -11 -15 L -11 -26 L -5.5 -20 L 0 -28 L 5.5 -20 L 11 -26 L 11 -15 Z" }, pawn);
  if (!on && had) had.remove();
}

export function drawPawns(svg, players, toMove = null) {
  const layer = svg.querySelector("#pawns"), links = svg.querySelector("#links");
  if (!layer) return;
  const count = {}, total = {};
  for (const k of Object.keys(spots)) delete spots[k];
  // The dead keep their place on 42, lying down and faded: the mark of the gallows (issue 18).
  for (const p of players) total[p.position] = (total[p.position] || 0) + 1;
  for (const p of players) {
    let pawn = layer.querySelector(`[data-pawn="${p.seat}"]`);
    if (!pawn) {
      pawn = el("g", { class: "pawn", "data-seat": p.seat, "data-pawn": p.seat }, layer);
      el("path", { class: "ring", d: shapePath(p.seat, 17) }, pawn);
      el("path", { class: "body", d: shapePath(p.seat, 12), fill: COLOURS[p.seat % 8] }, pawn);
      el("text", { class: "label", y: p.seat % 8 === 2 ? 6 : 4.5, "text-anchor": "middle", fill: INKS[p.seat % 8] }, pawn).textContent = p.seat + 1;
      el("text", { class: "skips", x: -14, y: -14 }, pawn);
      el("title", {}, pawn);
    }
    pawn.querySelector("title").textContent = p.name;
    pawn.classList.toggle("to-move", p.seat === toMove);
    const k = (count[p.position] = (count[p.position] || 0) + 1) - 1;
    const at = spot(p.position, k, total[p.position]);
    spots[p.seat] = at;
    const standing = `translate(${at.x}px, ${at.y}px) scale(${at.s})`;
    const fell = !p.alive && !pawn.classList.contains("dead");
    pawn.classList.toggle("dead", !p.alive);
    pawn.style.transform = p.alive ? standing : `${standing} rotate(80deg)`;
    if (fell && pawn.dataset.drawn && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
      pawn.animate([{ transform: standing, opacity: 1 }, { transform: `${standing} rotate(-20deg)`, opacity: 1, offset: 0.3 },
        { transform: pawn.style.transform, opacity: 0.45 }], { duration: 900, easing: "ease-in" });
    }
    pawn.dataset.drawn = "1";
    crown(pawn, p.alive && p.position === 45);
    const mark = pawn.querySelector(".anchor");
    if (p.shipwrecked && !mark) anchor(pawn);
    if (!p.shipwrecked && mark) mark.remove();
    pawn.querySelector(".skips").textContent = p.skips ? `‖${p.skips}` : "";
  }
  if (toMove !== null) { const p = layer.querySelector(`[data-pawn="${toMove}"]`); if (p) layer.appendChild(p); }
  // Friday links: a curve from the master to his Friday, bowed away from the squares'
  // centres so that it passes round the pawns in between, with an arrow at the Friday.
  links.replaceChildren();
  for (const p of players) {
    if (p.friday === null || p.friday === undefined || !spots[p.seat] || !spots[p.friday]) continue;
    const a = spots[p.seat], b = spots[p.friday];
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const bow = Math.min(70, 24 + len / 4);
    // bowed upwards, over the pawn rows, never down through the titles
    const flip = b.x - a.x < 0 ? -1 : 1;
    const cx = mx + flip * ((b.y - a.y) / len) * bow, cy = my - flip * ((b.x - a.x) / len) * bow - (len < 5 ? 40 : 0);
    el("path", { class: "friday-link", "data-friday": `${p.seat}-${p.friday}`, d: `M${a.x} ${a.y}Q${cx} ${cy} ${b.x} ${b.y}`,
      stroke: COLOURS[p.seat % 8] }, links);
  }
}

// The square an option leads to, lit (`square` null: none), with a ghost of `seat`'s pawn
// there when the option moves it.
export function markTarget(svg, square, seat = null) {
  for (const node of svg.querySelectorAll(".sq.target")) node.classList.remove("target");
  svg.querySelector("#ghost")?.remove();
  if (square === null || square === undefined) return;
  svg.querySelector(`[data-square="${square}"]`)?.classList.add("target");
  const layer = svg.querySelector("#pawns");
  if (seat === null || !layer) return;
  const at = spot(square, 0, 1);
  const ghost = el("g", { id: "ghost", class: "pawn ghost", "aria-hidden": "true",
    transform: `translate(${at.x} ${at.y})` }, layer);
  el("path", { class: "body", d: shapePath(seat, 12), fill: COLOURS[seat % 8] }, ghost);
  el("text", { class: "label", y: seat % 8 === 2 ? 6 : 4.5, "text-anchor": "middle", fill: INKS[seat % 8] }, ghost).textContent = seat + 1;
}

const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

// The die (an <svg> element) showing `face` pips. Before the first roll it rests tilted, its
// five pips faint: a die waiting to be thrown, never an empty square that reads as a checkbox.
export function drawDie(svg, face) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 40 40");
  const idle = !PIPS[face];
  svg.classList.toggle("idle", idle);
  const g = el("g", idle ? { transform: "rotate(-14 20 20)" } : {}, svg);
  el("rect", { x: 3, y: 3, width: 34, height: 34, rx: 7, fill: "#fff", stroke: "#1d2b36", "stroke-width": 2 }, g);
  for (const [i, j] of PIPS[face] || PIPS[5]) {
    el("circle", { cx: 10 + i * 10, cy: 10 + j * 10, r: 3.6, fill: idle ? "#aab4bc" : "#1d2b36", class: "pip" }, g);
  }
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

// The legend of the colours: which kind of effect each band colour means.
export function drawLegend(box, t) {
  box.replaceChildren();
  for (const g of GROUPS) {
    const item = document.createElement("li");
    const sw = el("svg", { class: "legend-swatch", viewBox: "0 0 16 16", "aria-hidden": "true" });
    el("rect", { x: 1, y: 1, width: 14, height: 14, rx: 3, class: `legend-${g}` }, sw);
    item.append(sw, " ", t(`web.legend.${g}`));
    box.append(item);
  }
}
