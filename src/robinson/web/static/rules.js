// @ts-check
// The rules page (/rules) in the viewer's language: the printed rules' own words (lv, cs, ca:
// the seeds, verbatim; en: ours), the 45 squares with their pictures and printed effect lines,
// what each edition changes, and what each bot does.
import { el } from "./board.js";
import { drawPictogram } from "./pictograms.js";
import { request } from "./api.js";
import { make } from "./dom.js";
import { joinNumbers, ownLine, t, texts } from "./texts.js";

let meta = null;


// `playNow`: the home page's one click to a table against bots, offered here too.
export async function openRules(playNow = null) {
  if (!meta) meta = await request("/api/meta");
  const page = document.getElementById("rules-page");
  page.hidden = false;
  document.title = `${t("web.rules_heading")} · ${t("ui.title")}`;
  const printed = make("section", null, { class: "rules-text", "aria-labelledby": "rules-printed" });
  printed.append(make("h3", t("rules.title"), { id: "rules-printed" }),
    ...t("rules.text").split("\n").map((para) => make("p", joinNumbers(para))),
    make("p", t("web.rules.token_words"), { id: "token-words" }));
  const squares = make("ol", null, { id: "rules-squares" });
  for (const sq of texts.squares) {
    const li = make("li", null, { "data-rule-square": sq.number });
    const pic = el("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" });
    drawPictogram(pic, sq.number, 0, 0, 40);
    const words = make("div");
    words.append(make("strong", `${sq.number}. ${sq.title}`), make("p", joinNumbers(sq.story)));
    const printedEffect = texts.ui[`square.${sq.number}.effect`];
    if (printedEffect) words.append(make("p", ownLine(printedEffect), { class: "effect" }));
    li.append(pic, words);
    squares.append(li);
  }
  const editions = make("table", null, { id: "editions" });
  const head = make("tr");
  for (const key of ["ui.edition", "web.rules.fever", "web.rules.choices"]) head.append(make("th", t(key), { scope: "col" }));
  editions.append(make("thead"), make("tbody"));
  editions.tHead.append(head);
  for (const e of meta.editions) {
    const row = make("tr", null, { "data-edition": e.name });
    row.append(make("th", t(`edition.${e.name}`, {}, e.name), { scope: "row" }),
      make("td", t(e.fever === "extra_roll" ? "summary.fever.extra" : "summary.fever.skip")),
      make("td", t(`summary.choices.${e.choices}`)));
    editions.tBodies[0].append(row);
  }
  const bots = make("dl", null, { id: "rules-bots" });
  for (const b of meta.bots) bots.append(make("dt", t(`web.bot.${b}`, {}, b)), make("dd", t(`web.bot.${b}.about`, {}, "")));
  const back = make("p");
  back.append(make("a", t("web.back_home"), { href: "/" }));
  const play = make("p");
  if (playNow) {
    const b = make("button", t("web.play_now"), { type: "button", class: "primary", id: "rules-play-now" });
    b.onclick = () => playNow();
    play.append(b);
  }
  // Five lines to start playing, before the printed text (issue 18 "Rules and help").
  const quick = make("section", null, { id: "quick-start", "aria-labelledby": "quick-heading" });
  const steps = make("ol");
  for (let i = 1; i <= 5; i++) steps.append(make("li", t(`web.quick.${i}`)));
  quick.append(make("h3", t("web.quick.heading"), { id: "quick-heading" }), steps);
  page.replaceChildren(make("h2", t("web.rules_heading")), make("p", t("web.home.about")), quick, play, printed,
    make("h3", t("web.rules.squares")), make("p", t("web.rules.squares_about")), squares,
    make("h3", t("web.rules.editions")), make("p", t("web.rules.editions_about")), editions,
    make("h3", t("web.bots_heading")), bots, back);
}
