// @ts-check
// The end of a game: who won, the payout step by step (the engine's events), and the final
// standings (purses, where each player stands or died). Shared by the table and the replay.
import { seatIcon } from "./board.js";
import { still } from "./motion.js";
import { make } from "./dom.js";
import { t, tn } from "./texts.js";

const PAYOUT = ["bank", "friday_share", "nearest_share"];


// The payout steps of a game's last events with their narration (for the replay, which has the
// events; a live game's view carries them ready made).
export function payoutOf(events, lines, told) {
  const steps = [];
  lines.forEach((line, j) => {
    const e = events[told ? told[j] : j];
    if (e && (e.kind === "won" || (e.kind === "transfer" && PAYOUT.includes(e.reason)))) steps.push({ ...e, text: line });
  });
  return steps;
}

// The rules' ranking, as the terminal's (cli.standings_rule): the winner first, then by the
// tokens in the purse, then by how far along the board.
function ranked(game) {
  return [...game.players].sort((a, b) => Number(b.seat === game.winner) - Number(a.seat === game.winner)
    || b.purse - a.purse || b.position - a.position);
}

// "+12", "−8", "±0": a purse against the tokens each player had at the start.
function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10"; }

// A rematch's place in the table's series: "Game 2 · wins: Bruno 1, Anna 0" (each seat's wins
// so far, this game's once it is over); nothing for a table's first game.
export function seriesLine(game) {
  if (!game.number || game.number < 2 || !game.players.every((p) => Number.isInteger(p.wins))) return "";
  const wins = game.players.map((p) => `${p.name} ${p.wins}`).join(", ");
  return t("web.series", { number: game.number, wins });
}

export function renderSeries(node, game) {
  const line = seriesLine(game);
  node.hidden = !line;
  node.textContent = line;
}

// Fill `box` (the #end section) for `game`; `fresh`: it has just ended here, so the payout
// arrives step by step and the keyboard focus moves to the panel.
export function renderEnd(box, game, { fresh = false, links = false, start = null } = {}) {
  box.hidden = !game.over;
  if (!game.over) { box.replaceChildren(); return; }
  const winner = game.winner === null ? t("ui.no_winner") : t("web.winner", { name: game.players[game.winner].name });
  const heading = make("h2", winner, { id: "winner", tabindex: "-1" });
  // A later redraw (a presence dot, a clock) rebuilds the panel: the focus stays on it.
  const hadFocus = box.contains(document.activeElement);
  const payout = make("ol", null, { id: "payout", "aria-live": "polite" });
  box.replaceChildren(heading);
  const series = seriesLine(game);
  if (series) box.append(make("p", series, { class: "series" }));
  if (game.payout.length) box.append(make("h3", t("web.payout")), payout);
  game.payout.forEach((step, i) => {
    const li = make("li", step.text, { "data-kind": step.kind === "won" ? "won" : step.reason, class: "pay-step" });
    if (step.amount !== undefined) li.dataset.amount = step.amount;
    // arriving one by one; their room is kept meanwhile, so nothing on the page moves
    if (fresh && !still()) { li.classList.add("pending"); setTimeout(() => { li.classList.replace("pending", "arrive"); }, 700 * i); }
    payout.append(li);
  });
  box.append(make("h3", t("ui.standings")), make("p", t("cli.standings_rule"), { class: "hint" }));
  const table = make("table", null, { id: "standings" });
  const head = make("tr");
  const columns = ["web.place", "ui.players", "web.where", "ui.purse", ...(start === null ? [] : ["web.change_since_start"])];
  for (const key of columns) head.append(make("th", t(key), { scope: "col" }));
  table.append(make("thead"), make("tbody"));
  table.tHead.append(head);
  ranked(game).forEach((p, place) => {
    const row = make("tr", null, { "data-standing": p.seat });
    const who = make("th", null, { scope: "row" });
    who.append(seatIcon(p.seat, 14), " ", p.name);
    const where = p.seat === game.winner ? t("web.home_won") : p.alive ? `${t("ui.square")} ${p.position}`
      : t("web.died_on", { square: p.position });
    row.append(make("td", `${place + 1}.`), who, make("td", where), make("td", tn("web.tokens", p.purse)));
    if (start !== null) row.append(make("td", signed(p.purse - start), { class: "delta", "data-delta": p.purse - start }));
    table.tBodies[0].append(row);
  });
  box.append(table);
  if (links && game.id) {
    const p = make("p");
    p.append(make("a", t("web.download"), { href: `/api/games/${game.id}/record`, download: "" }), " · ",
      make("a", t("web.replay"), { href: `/replay/${game.id}` }));
    box.append(p);
  }
  if (fresh) {
    // in view (on a phone it sits above the board) and announced: the focus goes to its heading
    heading.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });  // only if it is not in view already
  } else if (hadFocus) {
    heading.focus({ preventScroll: true });
  }
}
