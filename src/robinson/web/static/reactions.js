// @ts-check
// The table's social side (issue 18): a few canned reactions for the seated players, shown to
// everyone as a bubble by the player's pawn (and said to screen readers), and how many are
// watching. Reactions are never stored: a page that comes later does not see them.
import { t, tn } from "./texts.js";
import { el } from "./board.js";
import { make } from "./dom.js";

// Words, not emoji: a browser without an emoji font would draw boxes (test_browser.py).
const REACTIONS = ["hello", "good_luck", "well_played", "wow", "oops", "good_game"];
const SHOWN_MS = 3500;

// "2 watching" by the turn banner; nothing when nobody watches.
export function renderWatching(node, game) {
  const n = game.watching || 0;
  node.hidden = n === 0;
  node.textContent = n ? tn("web.watchers", n) : "";
}

// The reaction buttons, for a page holding a seat: it reacts as the seat to move if that is
// one of its own (hot-seat), else as its first seat. Drawn once per set of seats and language.
export function renderReactions(box, game, you, send) {
  const seated = you.filter((s) => game.players[s]?.kind === "human");
  box.hidden = seated.length === 0;
  const key = `${seated.join(",")}|${document.documentElement.lang}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.setAttribute("aria-label", t("web.reactions"));
  box.replaceChildren();
  for (const reaction of REACTIONS) {
    const b = make("button", t(`web.reaction.${reaction}`), { type: "button", class: "reaction", "data-reaction": reaction });
    b.onclick = () => {
      const mover = box.dataset.mover === "" ? NaN : Number(box.dataset.mover);
      const seat = seated.includes(mover) ? mover : seated[0];
      send({ type: "react", seat, reaction });
    };
    box.append(b);
  }
}

// A reaction arrived: a bubble above the pawn for a few seconds, and one polite announcement.
export function showReaction(msg, game) {
  const player = game?.players?.[msg.seat];
  if (!player || !REACTIONS.includes(msg.reaction)) return;
  const words = t(`web.reaction.${msg.reaction}`);
  const said = document.getElementById("reaction-said");
  if (said) said.textContent = t("web.reacted", { name: player.name, reaction: words });
  const pawn = document.querySelector(`#pawns [data-pawn="${msg.seat}"]`);
  if (!pawn) return;
  pawn.querySelector(".bubble")?.remove();
  const bubble = el("g", { class: "bubble", "aria-hidden": "true" }, pawn);
  const box = el("rect", { y: -50, height: 24, rx: 9 }, bubble);
  el("path", { d: "M -5 -27 L 0 -19 L 5 -27 Z" }, bubble);
  const text = el("text", { x: 0, y: -33, "text-anchor": "middle" }, bubble);
  text.textContent = words;
  const width = Math.ceil(text.getComputedTextLength?.() || words.length * 8) + 16;
  box.setAttribute("x", -width / 2);
  box.setAttribute("width", width);
  pawn.parentNode.appendChild(pawn);  // drawn above the other pawns
  setTimeout(() => bubble.remove(), SHOWN_MS);
}
