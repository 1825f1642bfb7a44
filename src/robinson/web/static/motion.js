// @ts-check
// Motion that tells the story of a move: the die tumbles, a pawn walks square by square (and back
// when it bounces), restart / canoe / footprint / swap each drawn as what they are, tokens fly
// between purses and the bank, the parrot says its line briefly. With prefers-reduced-motion:
// reduce nothing moves at all: the page shows the end state at once.
import { centre, drawDie, el, spot, spots } from "./board.js";

const STEP_MS = 170;
export const stillness = window.matchMedia("(prefers-reduced-motion: reduce)");
export function still() { return stillness.matches; }

// The die: a few random faces while it tumbles, then the result.
export function tumbleDie(die, face, done) {
  if (still()) { done(); return; }
  let k = 0;
  clearInterval(die.tumbler);
  die.classList.remove("tumbling"); void die.getBoundingClientRect(); die.classList.add("tumbling");
  die.tumbler = setInterval(() => {
    if (++k >= 6) { clearInterval(die.tumbler); die.classList.remove("tumbling"); done(); return; }
    drawDie(die, 1 + ((face + k * 5) % 6));
  }, 90);
}

const xy = (p) => `translate(${p.x}px, ${p.y}px) scale(${p.s ?? 1})`;
const lift = (a, b, h) => ({ x: (a.x + b.x) / 2, y: Math.min(a.y, b.y) - h });

// The points a pawn passes through for one `moved` event (with `bounced` before it).
function route(e, bounced) {
  const pts = [];
  if (e.cause === "roll") {
    if (bounced) {
      for (let n = e.start + 1; n <= 45; n++) pts.push(centre(n));
      for (let n = 44; n >= e.end; n--) pts.push(centre(n));
    } else {
      for (let n = e.start + 1; n <= e.end; n++) pts.push(centre(n));
    }
  } else if (e.cause === "restart") {  // back to the quay in one hop, then count from 0
    pts.push(lift(centre(e.start), centre(0), 60), centre(0));
    for (let n = 1; n <= e.end; n++) pts.push(centre(n));
  } else if (e.cause === "canoe") {  // the pirogue carries it round the island: one long arc
    pts.push(lift(centre(e.start), centre(e.end), 90), centre(e.end));
  } else if (e.cause === "swap") {  // the two pawns cross on opposite arcs
    const a = centre(e.start), b = centre(e.end), up = e.end > e.start ? 50 : -50;
    pts.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - up }, b);
  } else {  // footprint: a scared run straight back
    pts.push(centre(e.end));
  }
  return pts;
}

// Footprints left along the run back from 25 to 14 (faded out by the animation).
function footprints(svg, from, to) {
  const layer = svg.querySelector("#links");
  const a = centre(from), b = centre(to);
  for (let i = 1; i < 6; i++) {
    const x = a.x + ((b.x - a.x) * i) / 6, y = a.y + ((b.y - a.y) * i) / 6 + (i % 2 ? 6 : -6);
    const f = el("ellipse", { class: "footstep", cx: x, cy: y, rx: 3, ry: 5 }, layer);
    f.animate([{ opacity: 0.8 }, { opacity: 0 }], { duration: 1400, delay: i * 60 }).finished.then(() => f.remove(), () => f.remove());
  }
}

// Walk each moved pawn along its route: one animation per pawn, from where it stood to where
// drawPawns put it (its final transform is already set; the animation plays over it).
// Resolves when every pawn has arrived.
export function walkPawns(svg, events, before) {
  if (still()) return Promise.resolve();
  const walks = [];
  const routes = {};
  let bounced = {};
  for (const e of events) {
    if (e.kind === "bounced") bounced[e.seat] = true;
    if (e.kind !== "moved") continue;
    (routes[e.seat] = routes[e.seat] || []).push(...route(e, bounced[e.seat]));
    if (e.cause === "footprint") footprints(svg, e.start, e.end);
    bounced = {};
  }
  for (const [seat, pts] of Object.entries(routes)) {
    const pawn = svg.querySelector(`#pawns [data-pawn="${seat}"]`);
    const from = before[seat], to = spots[seat];
    if (!pawn || !from || !to) continue;
    const frames = [from, ...pts.slice(0, -1).map((p) => spot0(p)), to].map((p) => ({ transform: xy(p) }));
    walks.push(pawn.animate(frames, { duration: Math.min(4000, STEP_MS * frames.length), easing: "ease-in-out" }).finished);
  }
  return Promise.all(walks).catch(() => {});  // a cancelled walk (the pawn redrawn) has arrived too
}
const spot0 = (p) => ({ x: p.x, y: p.y - 4 });  // the middle of a square's pawn row

// Tokens fly from the payer's purse to the payee's (the bank is `null`), one token per
// transfer: where a purse is shown (the list on a desk, the purse strip on a phone).
export function flyTokens(events) {
  if (still()) return;
  const where = (seat) => {
    const sel = seat === null ? ["#bank-amount"] : [`#purses [data-purse="${seat}"]`, `#players [data-player="${seat}"] .facts`];
    for (const s of sel) {
      const node = /** @type {HTMLElement | null} */ (document.querySelector(s));
      if (node && node.offsetParent !== null) { const r = node.getBoundingClientRect(); return { x: r.left + 8, y: r.top + r.height / 2 - 7 }; }
    }
    return null;
  };
  let delay = 0;
  for (const e of events) {
    if (e.kind !== "transfer" || !e.amount) continue;
    const a = where(e.payer), b = where(e.payee);
    if (!a || !b) continue;
    const token = document.createElement("div");
    token.className = "token-fly";
    document.body.append(token);
    const mid = { x: (a.x + b.x) / 2, y: Math.min(a.y, b.y) - 40 };
    token.animate([{ transform: xy(a) }, { transform: xy(mid) }, { transform: xy(b) }],
      { duration: 600, delay, easing: "ease-in-out", fill: "both" }).finished.then(() => token.remove(), () => token.remove());
    delay += 120;
  }
}

// Square 17: the parrot says its line for a moment, in a corner of the board.
export function parrotMoment(parrot) {
  parrot.dataset.count = Number(parrot.dataset.count) + 1;
  parrot.hidden = false;
  clearTimeout(parrot.timer);
  parrot.timer = setTimeout(() => { parrot.hidden = true; }, 1400);
  if (!still()) parrot.animate([{ transform: "scale(.6)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 250 });
}
