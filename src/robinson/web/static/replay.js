// @ts-check
// The replay view: a finished game step by step (by action or by turn), with a scrubber,
// autoplay, the position in the address (?step=N, so it can be shared and survives a language
// switch), the board, the die, purses, the bank, Friday links, skips, the log numbered by turn
// as at the live table, and the winner's panel at the end.
import { drawParrot, spots } from "./board.js";
import { payoutOf, renderEnd } from "./end.js";
import { entriesOf, TurnLog } from "./log.js";
import { flyTokens, still, walkPawns } from "./motion.js";
import { showChart, showOdds } from "./odds.js";
import { request } from "./api.js";
import { $ } from "./dom.js";
import { foldLog, redrawBoard, renderPlayers, showDie } from "./scene.js";
import { t } from "./texts.js";

const button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ ($(id));

// Returns "missing" for a game the server does not know (the caller says so), else shows it.
// The replay is heavy work (the server's heavy lane, a few jobs per address): a page that
// reloads while its last requests still run may be told `busy` or `rate_limited` (503, 429)
// with Retry-After: it waits that long (5 s at most) and asks again, a few times. Another
// refusal is thrown (an ApiError: in the viewer's words).
export async function openReplay(gameId, lang) {
  let data;
  try {
    data = await request(`/api/games/${encodeURIComponent(gameId)}/replay?lang=${lang}`, { retries: 4, maxWait: 5 });
  } catch (e) {
    if (e.code === "unknown_game") return "missing";
    throw e;
  }
  $("table").hidden = false; $("replay").hidden = false; $("actions").hidden = true;
  $("sound-box").hidden = true; $("turn").hidden = true; $("replay-chart").hidden = false;
  // The controls go in the dock: beside the die and purses on a desk, and in the bar at the
  // bottom of a phone's screen, so they stay in reach while the board scrolls (issue 18).
  $("dock").prepend(document.querySelector(".replay-controls"));
  drawParrot($("parrot-bird"));
  foldLog();
  redrawBoard();
  const names = data.record.players, total = data.steps.length;
  const seats = data.seats || names.map(() => ({ kind: "human", bot: null }));
  // turnAt[i]: the turn the position after i steps is in; starts: the positions where turns begin
  // moverAt[i]: whose that turn is (after the last move too, when no one is to move)
  const turnAt = [1], starts = [0], moverAt = [data.initial.to_move ?? null];
  data.steps.forEach((st, k) => {
    const began = st.events.find((e) => e.kind === "turn_began");
    turnAt.push(turnAt[k] + (began ? 1 : 0));
    moverAt.push(began ? began.seat : moverAt[k]);
    if (began) starts.push(k + 1);
  });
  const log = new TurnLog($("log"), names);
  const scrub = /** @type {HTMLInputElement} */ ($("scrub"));
  scrub.max = String(total);
  // ?step=N (or #step=N, as the odds chart links) is the position to open at
  const asked = new URLSearchParams(location.search).get("step") ?? (location.hash.match(/step=(\d+)/) || [])[1];
  let i = Math.max(0, Math.min(total, Number(asked) || 0));
  let timer = null;

  // who plays each seat after k steps: as at the start, then each hand-over or take-back (told
  // with the move after it, so in force from the position after that move)
  const seatsAt = (k) => {
    const now = seats.map((x) => ({ ...x }));
    for (const c of data.seat_changes || []) {
      if (c.version < k) now[c.seat] = c.kind === "bot" ? { kind: "bot", bot: seats[c.seat].bot || "heuristic" } : { kind: "human", bot: null };
    }
    return now;
  };
  const playersAt = (k) => {
    const s = k === 0 ? data.initial : data.steps[k - 1].state, who = seatsAt(k);
    return { s, players: names.map((name, seat) => ({ seat, name, ...who[seat], ...s.players[seat] })) };
  };
  const stepEntries = (st) => [...(st.notes || []).map((line) => ({ kind: "note", seat: null, line })),
    ...entriesOf(st.events, st.narration, st.told)];
  const show = (animate = false) => {
    const { s, players } = playersAt(i);
    const before = { ...spots };
    const over = s.winner !== null && s.winner !== undefined || i === total;
    renderPlayers(players, { toMove: over ? null : s.to_move, bank: s.bank, over });
    showOdds(gameId, i, s.to_move ?? null);
    const lastRoll = data.steps.slice(0, i).map((st) => st.action.roll).filter(Boolean).pop();
    showDie(lastRoll || null, animate && data.steps[i - 1].action.roll !== undefined);
    if (animate && !still()) { walkPawns($("board"), data.steps[i - 1].events, before); flyTokens(data.steps[i - 1].events); }
    $("step").textContent = `${t("web.step", { step: i, total })} · ${t("web.turn_of", { n: turnAt[i], name: names[moverAt[i]] ?? "" })}`;
    $("step").dataset.step = String(i);
    $("step").dataset.turn = String(turnAt[i]);
    scrub.value = String(i);
    scrub.setAttribute("aria-valuetext", $("step").textContent);
    // the log of the last 30 turns, numbered as at the live table
    const from = starts[Math.max(0, starts.filter((p) => p <= i).length - 31)];
    log.reset(turnAt[from], names, moverAt[from]);
    for (let k = from; k < i; k++) log.add(stepEntries(data.steps[k]));
    const last = data.steps[total - 1];
    renderEnd($("end"), { over: i === total, winner: s.winner ?? null, players, id: gameId,
      payout: last ? payoutOf(last.events, last.narration, last.told) : [] },
      { start: data.record.ruleset?.start_tokens ?? null });
    for (const id of ["back", "first", "back-turn"]) button(id).disabled = i === 0;
    for (const id of ["forward", "last", "forward-turn"]) button(id).disabled = i === total;
    history.replaceState(null, "", `${location.pathname}?step=${i}`);
  };
  const go = (next, animate = false) => {
    next = Math.max(0, Math.min(total, next));
    if (next === i) return;
    const delta = next - i;
    i = next; show(animate && delta === 1);
    // a button just disabled at either end would drop the keyboard focus: give it to another
    if (document.activeElement === document.body || /** @type {HTMLButtonElement} */ (document.activeElement)?.disabled) $(delta < 0 ? "forward" : "back").focus();
  };
  const turnStep = (dir) => (dir > 0 ? starts.find((p) => p > i) ?? total : [...starts].reverse().find((p) => p < i) ?? 0);
  const stop = () => { clearInterval(timer); timer = null; $("play").setAttribute("aria-pressed", "false"); $("play").textContent = t("web.autoplay"); };
  $("back").onclick = () => go(i - 1);
  $("forward").onclick = () => go(i + 1, true);
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(total);
  $("back-turn").onclick = () => go(turnStep(-1));
  $("forward-turn").onclick = () => go(turnStep(1));
  $("play").onclick = () => {
    if (timer) { stop(); return; }
    if (i === total) go(0);
    $("play").setAttribute("aria-pressed", "true"); $("play").textContent = t("web.pause");
    timer = setInterval(() => { if (i >= total) stop(); else go(i + 1, true); }, 900);
  };
  scrub.oninput = () => go(Number(scrub.value));
  document.addEventListener("keydown", (e) => {
    const target = /** @type {Element} */ (e.target);
    if (target.closest && target.closest("select, input, [data-square]")) return;
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: total, PageUp: turnStep(-1), PageDown: turnStep(1) }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to, e.key === "ArrowRight");
  });
  // the board follows the window across the phone breakpoint, as at the live table
  window.matchMedia("(max-width: 639.98px)").addEventListener("change", () => { redrawBoard(); show(); });
  show();
  showChart(gameId, $("replay-chart"), names, (v) => go(v));  // below the board
  $("forward").focus();
}
