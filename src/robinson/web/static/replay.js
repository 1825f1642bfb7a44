// The replay view: step through a finished game forwards and backwards, with the board, the die,
// purses, the bank, Friday links and skips as they were after each step.
import { drawParrot } from "./board.js";
import { showChart, showOdds } from "./odds.js";
import { $, make, redrawBoard, renderPlayers, showDie } from "./table.js";
import { t } from "./texts.js";

export async function openReplay(gameId, lang) {
  $("table").hidden = false; $("replay").hidden = false; $("actions").hidden = true;
  $("table").before($("replay"));
  drawParrot($("parrot-bird"));
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay?lang=${lang}`);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error ? data.error.message : r.statusText);
  redrawBoard();
  const names = data.record.players;
  const seats = data.seats || names.map(() => ({ kind: "human", bot: null }));
  let i = Math.min(Number((location.hash.match(/step=(\d+)/) || [])[1] || 0), data.steps.length);
  const show = () => {
    const s = i === 0 ? data.initial : data.steps[i - 1].state;
    const players = names.map((name, seat) => ({ seat, name, ...seats[seat], ...s.players[seat] }));
    renderPlayers(players, { toMove: s.winner === null || s.winner === undefined ? s.to_move : null, bank: s.bank });
    showOdds(gameId, i, s.to_move ?? null);
    const lastRoll = data.steps.slice(0, i).map((st) => st.action.roll).filter(Boolean).pop();
    showDie(lastRoll || null, i > 0 && data.steps[i - 1].action.roll !== undefined);
    $("step").textContent = t("web.step", { step: i, total: data.steps.length });
    $("step").dataset.step = i;
    $("log").replaceChildren(...data.steps.slice(0, i).flatMap((st) => st.narration).slice(-30).map((l) => make("li", l)));
    $("log").scrollTop = $("log").scrollHeight;
    $("back").disabled = i === 0; $("forward").disabled = i === data.steps.length;
  };
  const go = (delta) => {
    const next = Math.max(0, Math.min(data.steps.length, i + delta));
    if (next === i) return;
    i = next; show();
    // the button just disabled at either end would drop the keyboard focus: give it to the other
    const other = $(delta < 0 ? "forward" : "back");
    if (document.activeElement === document.body && !other.disabled) other.focus();
  };
  $("back").onclick = () => go(-1);
  $("forward").onclick = () => go(1);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("select, input, [data-square]")) return;
    if (e.key === "ArrowLeft") go(-1);
    if (e.key === "ArrowRight") go(1);
    if (e.key === "Home") go(-data.steps.length);
    if (e.key === "End") go(data.steps.length);
  });
  show();
  showChart(gameId, $("replay"), names, (v) => { i = v; show(); });
  $("forward").focus();
}
