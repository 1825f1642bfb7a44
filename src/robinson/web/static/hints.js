// @ts-check
// How to play, shown once (issue 18 "Rules and help"): a player's first game here gets the
// rules page's five-line quick start beside the board, until "Got it" (kept in localStorage,
// for every table after). Spectators and finished games do not get it.
import { make } from "./dom.js";
import { keepQuickStartSeen, quickStartSeen } from "./storage.js";
import { t } from "./texts.js";

export function renderHints(box, game, you) {
  const show = you.length > 0 && !game.over && !quickStartSeen();
  box.hidden = !show;
  if (!show) { box.replaceChildren(); return; }
  if (box.dataset.lang === document.documentElement.lang && box.childElementCount) return;
  box.dataset.lang = document.documentElement.lang;
  const steps = make("ol");
  for (let i = 1; i <= 5; i++) steps.append(make("li", t(`web.quick.${i}`)));
  const done = make("button", t("web.quick.done"), { type: "button", id: "quick-done" });
  done.onclick = () => { keepQuickStartSeen(); box.hidden = true; box.replaceChildren(); };
  box.replaceChildren(make("h2", t("web.quick.heading"), { id: "hints-heading" }), steps, done);
}
