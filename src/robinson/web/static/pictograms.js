// @ts-check
// The 45 pictograms of the board, drawn for this project in one style: a 40×40 box, flat fills
// from one small palette, a dark ink outline of the same width everywhere, rounded joins.
// Each picture is a list of [fill, path] pairs ("none" fill: an ink line only; a third item
// overrides the line's colour or width). Paths only, so one tiny renderer draws them all.
const INK = "#2b2118";
const P = {
  sea: "#5aa9d6", sand: "#e9cf8f", wood: "#9a6a3a", dark: "#5b3a1e", leaf: "#4f9a45", pale: "#fdf6e3",
  red: "#d8452c", gold: "#f2b933", sky: "#bfe3f2", grey: "#9aa5ad", skin: "#e8b58a", white: "#ffffff",
  green: "#7cc26b", purple: "#8e5bb5", black: "#2b2118",
};
const circle = (cx, cy, r) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
const waves = (y) => ["none", `M2 ${y}q4 -3 8 0t8 0t8 0t8 0t8 0`, P.sea];
// Robinson (or anybody) as a small figure standing at x: head, body, legs.
const figure = (x, y = 12, body = P.wood) => [
  [P.skin, circle(x, y, 3.6)],
  [body, `M${x - 4.5} ${y + 5}h9l1 10h-11z`],
  ["none", `M${x - 2.5} ${y + 15}v8M${x + 2.5} ${y + 15}v8`],
];
const hull = (y, w = 28, x = 6) => [P.wood, `M${x} ${y}h${w}l-4 7h-${w - 8}z`];
const sail = (x, y, h) => [P.pale, `M${x} ${y}v${h}h-${h * 0.7}z`];
const coin = (cx, cy, r = 6) => [
  [P.gold, circle(cx, cy, r)],
  ["none", `M${cx} ${cy - r / 2}v${r}`],
];
const ship = (y) => [
  hull(y), ["none", `M20 ${y}V${y - 20}`], sail(19, y - 19, 16), [P.pale, `M21 ${y - 17}v14h9z`],
  [P.red, `M20 ${y - 20}l5 2l-5 2z`],
];
const canoe = (y) => [[P.wood, `M4 ${y}q16 8 32 0q-16 3 -32 0z`]];
const tree = (x, y) => [
  [P.wood, `M${x - 2} ${y + 8}h4v16h-4z`],
  [P.leaf, `M${x} ${y - 8}c10 0 12 10 6 14c4 6 -6 10 -6 6c0 4 -10 0 -6 -6c-6 -4 -4 -14 6 -14z`],
];

export const PICTOGRAMS = {
  1: [[P.red, "M8 20l10 -9l10 9v14h-20z"], [P.dark, "M15 26h6v8h-6z"], ["none", "M6 21l12 -11l12 11"],
    ...coin(32, 30, 5)],
  2: [...ship(30), waves(37)],
  3: [[P.grey, "M8 18c-6 0 -6 -8 0 -8c1 -6 11 -7 13 -2c5 -3 11 1 9 6c5 1 4 6 -1 6h-21z"],
    [P.gold, "M20 20l-4 8h4l-3 8l9 -11h-5l3 -5z"], waves(37)],
  4: [[P.wood, "M4 28l24 -6l4 5l-22 7z"], ["none", "M18 24l-3 -14M15 10l7 -4"], [P.pale, "M16 12l9 -2l-6 9z"],
    ["none", "M2 36q5 -5 9 -1t9 -2t9 1t9 -3", P.sea], ["none", "M30 18l4 -3M31 22l5 0", P.sea]],
  5: [[P.sand, "M0 28q20 -6 40 0v12h-40z"], waves(24), [P.skin, circle(12, 30, 3)],
    [P.wood, "M15 28h14v4h-14z"]],
  6: [[P.sand, "M0 32q20 -4 40 0v8h-40z"], [P.gold, circle(32, 8, 4)],
    ["none", "M12 18l-5 -7M24 18l5 -7"], ...figure(18, 10)],
  7: [...tree(20, 14), [P.pale, "M30 4a5 5 0 1 0 4 8a4 4 0 1 1 -4 -8z"], [P.wood, "M18 12h6v3h-6z"]],
  8: [[P.wood, "M3 30h34l-2 5h-30z"], ["none", "M8 30v5M14 30v5M20 30v5M26 30v5M32 30v5"],
    [P.red, "M7 20h12v10h-12z"], [P.dark, "M22 16h12v14h-12z"], ["none", "M7 24h12M22 22h12"], waves(38)],
  9: [[P.grey, "M2 36c0 -18 8 -28 18 -28s18 10 18 28z"], [P.black, "M12 36c0 -12 4 -18 8 -18s8 6 8 18z"],
    [P.gold, "M18 30h4v6h-4z"]],
  10: [[P.pale, "M8 18c0 -4 4 -6 10 -6h10c4 0 6 4 6 8v4h-26z"], [P.pale, "M28 12l4 -6l4 4z"],
    ["none", "M31 7q-4 -4 -2 -6M33 7q2 -5 5 -4M12 24v10M17 24v10M25 24v10M30 24v10"],
    [P.black, circle(33, 10, 0.8)]],
  11: [[P.green, "M6 26c0 -10 8 -14 14 -14s14 4 14 14z"], ["none", "M12 26l4 -8l8 0l4 8M16 18l4 -5l4 5"],
    [P.green, circle(36, 22, 3.5)], [P.green, "M8 26l-3 5h5zM30 26l3 5h-5z"]],
  12: [[P.white, "M17 6a3 3 0 0 1 6 0v20a6 6 0 1 1 -6 0z"], [P.red, "M18 14h4v14h-4z"],
    [P.red, circle(20, 31, 4)], ["none", "M26 10h4M26 16h4M26 22h4"]],
  13: [[P.wood, "M4 18l3 -4l3 4v18h-6zM12 18l3 -4l3 4v18h-6zM20 18l3 -4l3 4v18h-6zM28 18l3 -4l3 4v18h-6z"],
    ["none", "M4 24h32"], [P.gold, circle(33, 7, 3.5)]],
  14: [[P.purple, circle(12, 14, 3.5)], [P.purple, circle(18, 14, 3.5)], [P.purple, circle(15, 19, 3.5)],
    [P.purple, circle(9, 19, 3.5)], [P.purple, circle(12, 24, 3.5)], ["none", "M15 10q1 -4 4 -5"],
    [P.green, "M20 30a9 7 0 1 1 18 0a9 7 0 1 1 -18 0z"], ["none", "M23 27q6 -3 12 0M23 32q6 2 12 0"]],
  15: [[P.dark, "M2 34q18 -4 36 0v6h-36z"], ["none", "M10 30v-12M20 30v-16M30 30v-12", P.leaf],
    [P.gold, "M8 18q2 -4 2 -8q2 4 0 8zM18 14q2 -4 2 -8q2 4 0 8zM28 18q2 -4 2 -8q2 4 0 8z"]],
  16: [[P.sand, "M6 18h28l-4 18h-20z"], ["none", "M8 24h24M9 30h22M14 18l2 18M20 18v18M26 18l-2 18"],
    ["none", "M10 18c0 -12 20 -12 20 0", P.wood]],
  17: [[P.leaf, "M20 4c8 0 10 8 8 14l-4 16l-8 2l-2 -14c-4 -6 -2 -18 6 -18z"], [P.red, "M24 24l8 14l-9 -2z"],
    [P.sea, "M16 16c-2 8 0 14 6 16l-2 -12z"], [P.gold, "M27 8c6 0 7 6 2 8l-3 -3z"],
    [P.white, circle(22, 9, 2)], [P.black, circle(22.5, 9, 0.8)]],
  18: [[P.gold, "M20 36v-22M14 36l6 -16M26 36l-6 -16"], [P.gold, "M17 12q3 -8 6 0q-3 4 -6 0z"],
    [P.grey, "M6 30l24 -24l3 3l-24 24z"], [P.dark, "M5 31l4 4l-3 3l-4 -4z"]],
  19: [[P.red, "M10 14h10l-1 4q5 6 -1 14h-6q-6 -8 -1 -14z"], [P.red, "M24 20h8q4 6 0 12h-8q-4 -6 0 -12z"],
    [P.gold, "M6 38q4 -8 8 -2q2 -8 6 0q4 -8 6 0q4 -6 8 2z"]],
  20: [[P.sand, "M4 26c0 -10 8 -14 16 -14s16 4 16 14v4h-32z"], ["none", "M12 16l3 6M19 14l2 6M27 16l-2 6"],
    [P.wood, "M2 30h36v4h-36z"]],
  21: [[P.wood, "M12 6h16l8 10l-5 4l-3 -4v20h-16v-20l-3 4l-5 -4z"], ["none", "M16 14l2 2M24 22l2 2M18 28l2 2"],
    ["none", "M16 6q4 5 8 0"]],
  22: [[P.wood, "M4 24h26c4 0 6 4 6 8h-32z"], [P.dark, "M6 26h22v3h-22z"], [P.grey, "M24 4l8 4l-4 6l-6 -4z"],
    ["none", "M27 10l-9 12", P.wood, 3]],
  23: [[P.sand, "M10 22c0 -8 6 -12 12 -11s10 6 8 12s-10 8 -14 6s-6 -3 -6 -7z"], [P.leaf, circle(21, 19, 4)],
    ["none", "M4 20c0 -14 28 -18 32 -2", P.sea], [P.sea, "M36 18l-4 -1l3 -3z"], ...canoe(33)],
  24: [[P.wood, "M2 26h36v4h-36z"], ["none", "M6 30v8M34 30v8"], [P.white, "M6 16h8l-1 10h-6z"],
    [P.gold, "M24 22c0 -4 8 -6 10 0z"], [P.red, circle(19, 22, 3.5)]],
  25: [[P.dark, "M14 36c-6 0 -6 -10 -3 -16c3 -6 11 -5 10 2c-1 6 0 14 -7 14z"],
    [P.dark, circle(14, 12, 2.2)], [P.dark, circle(19, 12, 2)], [P.dark, circle(23, 14, 1.8)],
    [P.dark, circle(26, 17, 1.6)], [P.dark, circle(10, 14, 1.8)]],
  26: [[P.white, "M10 16c0 -10 20 -10 20 0c0 5 -3 6 -3 9h-14c0 -3 -3 -4 -3 -9z"], [P.black, circle(15.5, 16, 2.5)],
    [P.black, circle(24.5, 16, 2.5)], ["none", "M16 25v3M20 25v3M24 25v3"],
    [P.white, "M4 32l32 6l-1 2l-32 -6zM4 38l32 -6l1 2l-32 6z"]],
  27: [[P.grey, "M4 16l18 -6l2 6l-18 6z"], [P.dark, "M22 10l8 -2l2 6l-8 2z"], ["none", "M14 19l-4 17M14 19l6 17"],
    [P.red, "M26 36q2 -8 5 -10q-1 5 3 4q1 4 -1 6z"]],
  28: [...figure(12, 10), ...figure(27, 12, P.dark), ["none", "M17 18l6 -2M32 18l5 -4"]],
  29: [...figure(11, 12), [P.skin, circle(29, 18, 3.6)], [P.dark, "M24 24h10l1 9h-12z"], ["none", "M16 20l8 4"]],
  30: [[P.pale, "M4 12l16 4l16 -4v22l-16 4l-16 -4z"], ["none", "M20 16v22M8 18l8 2M8 23l8 2M24 20l8 -2M24 25l8 -2"]],
  31: [...canoe(28), ["none", "M28 6l-14 30", P.wood, 3], [P.wood, "M12 33l4 -6l3 2l-4 6z"], waves(37)],
  32: [["none", "M4 20h8M28 20h8", P.grey, 4], [P.grey, "M10 14a6 6 0 0 1 0 12a6 6 0 0 1 0 -12zM30 14a6 6 0 0 1 0 12a6 6 0 0 1 0 -12z"],
    [P.pale, "M11 18a2 2 0 0 1 0 4zM29 18a2 2 0 0 0 0 4z"], ["none", "M18 12l2 5M22 28l-2 -5M20 8v4M20 28v4", P.red]],
  33: [...figure(22, 10, P.sand), [P.white, "M19 14q3 6 6 0z"], ["none", "M12 14v22", P.wood, 2.5], ["none", "M10 14q2 -3 4 0"]],
  34: [[P.white, "M6 14h10l-1 16h-8z"], [P.red, "M7 18h8l-1 10h-6z"], [P.sand, "M20 26c0 -8 16 -8 16 0v4h-16z"],
    [P.wood, "M2 30h36v4h-36z"]],
  35: [[P.wood, "M10 28h20l-3 5h-14z"], ["none", "M20 28v-18"], [P.pale, "M21 11v15h9z"], waves(36),
    [P.gold, circle(8, 10, 4)]],
  36: [...ship(28), waves(37), [P.grey, "M33 6v10M30 9h6M30 14q3 4 6 0"]],
  37: [[P.grey, "M6 6l26 26l-2 2l-26 -26zM34 6l-26 26l2 2l26 -26z"], [P.gold, "M4 30l6 6l-2 2l-6 -6zM36 30l-6 6l2 2l6 -6z"]],
  38: [["none", "M12 38v-34", P.wood, 3], [P.white, "M13 5c6 -2 10 4 20 0v14c-10 4 -14 -2 -20 0z"]],
  39: [[P.dark, "M4 16h24v6h-24z"], [P.wood, "M20 20l6 0l2 14l-7 0z"], [P.grey, "M28 17h8v3h-8z"],
    ["none", "M16 22q2 4 4 0"]],
  40: [...ship(30), [P.red, "M24 4h12v10h-12z"], ["none", "M30 4v10M24 9h12", P.gold, 2], waves(38)],
  41: [[P.black, "M4 24q16 -20 32 0q-16 -6 -32 0z"], [P.gold, "M8 24q12 -4 24 0l-2 3q-10 -3 -20 0z"],
    [P.red, circle(20, 14, 2.5)], [P.wood, "M12 30h16v8h-16z"]],
  42: [["none", "M8 38v-32h22M8 12l6 -6M26 6v6", P.wood, 3.5], ["none", "M26 12v4", INK, 1.5],
    [P.pale, circle(26, 19, 3)], [P.dark, "M6 36h8v3h-8z"]],
  43: [[P.sand, "M2 30q10 -8 18 0z"], ["none", "M10 26v-10", P.wood, 2], [P.leaf, "M10 16l-6 2l6 -4l6 2z"],
    hull(24, 14, 22), ["none", "M29 24v-12"], sail(28, 12, 10), ["none", "M34 6q2 2 4 0", P.grey], waves(36)],
  44: [[P.gold, "M4 26a16 16 0 0 1 32 0z"], ["none", "M20 6v4M8 12l3 3M32 12l-3 3"], hull(26, 20, 10),
    ["none", "M20 26v-10"], sail(19, 16, 9), waves(36)],
  45: [[P.red, "M6 18l14 -12l14 12z"], [P.pale, "M9 18h22v18h-22z"], [P.dark, "M17 26h6v10h-6z"],
    [P.sky, "M11 21h5v4h-5zM24 21h5v4h-5z"], [P.red, "M30 2c-2 -2 -5 0 -3 3l3 3l3 -3c2 -3 -1 -5 -3 -3z"]],
};

const NS = "http://www.w3.org/2000/svg";

// Draw square n's pictogram into `parent` (an SVG element), scaled to `size` at (x, y).
export function drawPictogram(parent, n, x, y, size) {
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "pictogram");
  g.setAttribute("data-pictogram", n);
  g.setAttribute("aria-hidden", "true");
  g.setAttribute("transform", `translate(${x} ${y}) scale(${size / 40})`);
  for (const [fill, d, stroke, width] of PICTOGRAMS[n] || []) {
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", fill);
    path.setAttribute("stroke", stroke || INK);
    path.setAttribute("stroke-width", width || (fill === "none" ? 2 : 1.4));
    path.setAttribute("stroke-linejoin", "round");
    path.setAttribute("stroke-linecap", "round");
    g.appendChild(path);
  }
  parent.appendChild(g);
  return g;
}
