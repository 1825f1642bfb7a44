// @ts-check
// Fair dice at the table (docs/fair-dice.md): the server's commitment, the seats' seeds as they
// arrive, this browser's own seed for each seat it holds (given before the game's first roll),
// and "Check every roll" on the record once the seed is revealed (verify.js, both schemes).
import "./verify.js";
import { request } from "./api.js";
import { $ } from "./dom.js";
import { diceSeed, keepDiceSeed } from "./storage.js";
import { t, texts, tn } from "./texts.js";

const given = new Set();  // "game/seat" this page has sent a seed for

// This browser's seed for a seat of a game, kept for the tab's life so it can recognise it.
function ownSeed(game, seat) {
  let seed = diceSeed(game, seat);
  if (!seed) {
    seed = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
    keepDiceSeed(game, seat, seed);
  }
  return seed;
}

// Each held seat gives its seed once, before the first roll, unless it gave one already.
function contribute(game, { you, seatTokens, send }) {
  if (game.dice_scheme !== globalThis.RobinsonDice.V2 || game.version !== 0 || game.over) return;
  for (const seat of you) {
    const key = `${game.id}/${seat}`;
    if (given.has(key) || !seatTokens[seat] || game.dice_seeds.some((s) => s.seat === seat)) continue;
    given.add(key);
    send({ type: "seed", game: game.id, seat, seed: ownSeed(game.id, seat), token: seatTokens[seat] });
  }
}

export function renderDice(game, view) {
  $("seed-hash").textContent = game.seed_sha256;
  $("seed").textContent = game.seed || t("web.seed_hidden");
  $("verify").hidden = !game.seed;
  const offline = /** @type {HTMLAnchorElement | null} */ (document.querySelector('a[href^="/static/verify.html"]'));  // in the viewer's language
  if (offline) offline.href = `/static/verify.html?lang=${texts.lang}`;
  const list = $("dice-seeds");
  list.replaceChildren();
  for (const s of game.dice_seeds || []) {
    const li = document.createElement("li");
    li.dataset.seat = s.seat;
    li.dataset.by = s.by;
    const name = game.players[s.seat]?.name ?? `#${s.seat}`;
    const mine = diceSeed(game.id, s.seat) === s.seed;
    const who = s.by === "server" ? t("web.seed_server") : mine ? t("web.seed_yours") : "";
    const code = document.createElement("code");
    code.textContent = s.seed;
    li.append(`${name}${who ? ` (${who})` : ""}: `, code);
    list.append(li);
  }
  $("dice-seeds-head").hidden = !(game.dice_seeds || []).length;
  contribute(game, view);
}

export async function verifyDice(gameId) {
  const out = $("verify-result");
  if (!globalThis.crypto?.subtle) { out.textContent = t("web.insecure"); return; }
  let record;
  try { record = await request(`/api/games/${gameId}/record`); } catch (e) { out.textContent = e.message; return; }
  const verdict = await globalThis.RobinsonDice.checkRecord(record);
  const why = verdict.ok ? "" : globalThis.RobinsonDice.say(texts.lang, verdict.code, verdict.args);
  out.textContent = verdict.ok ? tn("web.rolls_ok", verdict.count) : `${t("web.rolls_bad")} ${why}`;
  out.dataset.ok = verdict.ok;
}
