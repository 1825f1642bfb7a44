// The SVG board: 45 squares along a winding path, pawns, Friday links. Pure DOM, no HTML strings,
// so names and texts can never be read as markup.
const NS = "http://www.w3.org/2000/svg";
const COLS = 9, W = 92, H = 92, GAP = 6;
export const COLOURS = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6"];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The centre of square n (1..45); square 0 is the start strip below the board.
export function centre(n) {
  if (n <= 0) return { x: 40, y: 540 };
  const row = Math.floor((n - 1) / COLS), i = (n - 1) % COLS;
  const col = row % 2 === 0 ? i : COLS - 1 - i;
  return { x: 10 + col * (W + GAP) + W / 2, y: 10 + row * (H + GAP + 4) + H / 2 };
}

export function drawBoard(svg, squares, onPick) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 900 570");
  const path = el("polyline", { fill: "none", stroke: "#8a7a5a", "stroke-width": 8, "stroke-linecap": "round",
    points: squares.map((s) => { const c = centre(s.number); return `${c.x},${c.y}`; }).join(" ") }, svg);
  path.setAttribute("aria-hidden", "true");
  for (const sq of squares) {
    const c = centre(sq.number);
    const g = el("g", { class: `sq k-${sq.kind}`, "data-square": sq.number, tabindex: 0, role: "button" }, svg);
    const label = [sq.number, sq.title, sq.effect].filter(Boolean).join(". ");
    g.setAttribute("aria-label", label);
    el("title", {}, g).textContent = [sq.title, sq.story, sq.effect].filter(Boolean).join("\n");
    el("rect", { x: c.x - W / 2, y: c.y - H / 2, width: W, height: H }, g);
    el("text", { class: "num", x: c.x - W / 2 + 6, y: c.y - H / 2 + 17 }, g).textContent = sq.number;
    const words = (sq.title || "").split(" ");
    const lines = [words.slice(0, 2).join(" "), words.slice(2).join(" ")].filter(Boolean);
    lines.forEach((line, i) => {
      el("text", { class: "title", x: c.x - W / 2 + 6, y: c.y + 22 + i * 11 }, g).textContent = line.slice(0, 18);
    });
    for (const type of ["focus", "mouseenter", "click"]) g.addEventListener(type, () => onPick(sq));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onPick(sq); });
  }
  el("text", { x: 10, y: 520, "font-size": 12 }, svg).textContent = "▶";
  el("g", { id: "links" }, svg);
  el("g", { id: "pawns" }, svg);
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
      el("text", { class: "mark", x: 10, y: -8 }, pawn);
      el("title", {}, pawn);
    }
    pawn.querySelector("title").textContent = p.name;
    const k = (count[p.position] = (count[p.position] || 0) + 1) - 1;
    const c = centre(p.position);
    const at = p.position === 0 ? { x: c.x + k * 30, y: c.y } : { x: c.x - 30 + (k % 4) * 20, y: c.y - 8 + Math.floor(k / 4) * 22 };
    spots[p.seat] = at;
    pawn.setAttribute("transform", `translate(${at.x} ${at.y})`);
    pawn.style.transform = `translate(${at.x}px, ${at.y}px)`;
    pawn.querySelector(".mark").textContent = (p.shipwrecked ? "⚓" : "") + (p.skips ? `z${p.skips}` : "");
  }
  links.replaceChildren();
  for (const p of players) {
    if (p.friday === null || p.friday === undefined || !spots[p.seat] || !spots[p.friday]) continue;
    const a = spots[p.seat], b = spots[p.friday];
    el("line", { class: "friday-link", x1: a.x, y1: a.y, x2: b.x, y2: b.y }, links);
  }
}
