// @ts-check
// The waiting room (issue 18): a table made by "Play with friends" makes no move until the
// friends have taken their seats (game.awaited lists those still to come). Everyone sees who is
// awaited ("invite sent – not here yet" by the name, and in the banner); the host may start
// without them. The game starts by itself when the last one comes.
import { request } from "./api.js";
import { make } from "./dom.js";
import { hostSecret } from "./storage.js";
import { t } from "./texts.js";

export function awaiting(game) { return !game.over && (game.awaited || []).length > 0; }

// After the players' list and the banner are drawn: mark the awaited seats, say whom the
// table waits for, and give the host his "Start now".
export function renderWaiting(box, game, tableId) {
  const waiting = awaiting(game);
  box.hidden = !waiting;
  if (!waiting) { box.replaceChildren(); return; }
  const names = game.awaited.map((s) => game.players[s].name).join(", ");
  for (const seat of game.awaited) {
    const row = document.querySelector(`#players [data-player="${seat}"]`);
    if (row && !row.querySelector(".awaited")) row.append(" ", make("span", t("web.awaited"), { class: "awaited" }));
  }
  const banner = document.getElementById("turn");
  banner.dataset.state = "waiting";
  banner.textContent = t("web.waiting_room", { names });
  box.replaceChildren();
  const host = hostSecret(tableId);
  if (!host) return;
  const start = make("button", t("web.start_now"), { type: "button", id: "start-now", class: "primary" });
  const problem = make("p", null, { class: "problem", role: "alert" });
  start.onclick = async () => {
    start.disabled = true;
    try {
      await request(`/api/tables/${tableId}/start`, { body: { host } });
    } catch (e) { problem.textContent = e.message; start.disabled = false; }
  };
  box.append(start, problem);
}
