// @ts-check
// Vacation for long clocks (issue 19, docs/protocol.md "Clocks"): a seat of a table that gives
// vacation days may pause its own clock for whole days; everyone sees "on vacation until …" by
// the name. seats.js puts the owner's control in the seat's row after each render.
import { request } from "./api.js";
import { make } from "./dom.js";
import { t, tn, texts } from "./texts.js";

// "on vacation until 5 Dec, 14:00" in the viewer's language, for a seat on vacation.
export function vacationNote(p) {
  if (!p.vacation_until) return null;
  const date = new Date(p.vacation_until).toLocaleString(texts.lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return make("span", t("web.vacation.until", { date }), { class: "vacation", "data-vacation": p.seat });
}

const panels = new Map();  // the same panel across redraws while nothing it shows changed

// The owner's "Pause my clock": how many days (those left this game), and the button.
export function vacationPanel(table, p, token) {
  if (!p.vacation_left) return null;
  const key = `${table}:${p.seat}:${token}:${p.vacation_left}:${texts.lang}`;
  if (panels.has(key)) return panels.get(key);
  const box = make("details", null, { class: "vacation-take", "data-vacation-take": p.seat });
  panels.set(key, box);
  box.append(make("summary", t("web.vacation.take")));
  const days = make("select", null, { "aria-label": t("web.vacation.days") });
  for (let n = 1; n <= p.vacation_left; n++) days.append(make("option", tn("web.days", n), { value: String(n) }));
  const go = make("button", t("web.vacation.take"), { type: "button" });
  const problem = make("p", null, { class: "problem", role: "alert" });
  go.onclick = async () => {
    go.disabled = true;
    try {
      await request(`/api/tables/${table}/seats/${p.seat}/vacation`, { body: { token, days: Number(days.value) } });
    } catch (e) { problem.textContent = e.message; go.disabled = false; }
  };
  box.append(make("p", t("web.vacation.left", { n: p.vacation_left }), { class: "hint" }), days, " ", go, problem);
  return box;
}
