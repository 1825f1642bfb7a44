// @ts-check
// The log: what happened, grouped by turn (a turn starts at each `turn_began` event; the game's
// first turn at the first entry), each turn in its player's colour and shape, each line with a
// small icon of its event. The live table and the replay number turns the same way.
import { COLOURS, el, seatIcon } from "./board.js";
import { t } from "./texts.js";

// Small icons by event kind: one path each, drawn in a 12×12 box.
const ICONS = {
  rolled: "M2 2h8v8h-8zM4.5 4.5h.1M7.5 7.5h.1M6 6h.1",
  moved: "M1 6h8M6 3l3 3l-3 3",
  bounced: "M2 9V4h7M6 1l3 3l-3 3",
  transfer: "M6 1a5 5 0 1 0 .1 0zM6 3.5v5",
  shipwrecked: "M6 1v10M3 4h6M2 8q4 5 8 0",
  will_skip: "M4 2v8M8 2v8",
  skipped: "M4 2v8M8 2v8",
  extra_roll: "M2 6a4 4 0 1 0 4 -4M6 0l2 2l-2 2",
  chorus: "M3 10l2 -5q3 -4 5 -1l-2 2l-3 4z",
  became_friday: "M2 6a2 2 0 1 0 4 0a2 2 0 1 0 -4 0M6 6a2 2 0 1 0 4 0a2 2 0 1 0 -4 0",
  swapped: "M1 4h9M7 1l3 3l-3 3M11 8h-9M5 5l-3 3l3 3",
  died: "M3 5a3 3 0 1 1 6 0v3h-6zM5 10v1M7 10v1",
  friday_released: "M2 6h3M7 6h3",
  won: "M2 3h8l-1 4h-6zM6 7v3M3 11h6",
  game_over: "M3 11V1l7 3l-7 3",
  chose: "M2 7l3 3l6 -7",
};

export function eventIcon(kind) {
  const svg = el("svg", { class: "ev", viewBox: "0 0 12 12", "aria-hidden": "true" });
  el("path", { d: ICONS[kind] || "M6 6h.1", fill: "none", stroke: "currentColor", "stroke-width": 1.6,
    "stroke-linecap": "round", "stroke-linejoin": "round" }, svg);
  return svg;
}

// Who an event is about (for a transfer, the player of the two; the bank is no one).
export function actorOf(e) {
  if (e.seat !== undefined) return e.seat;
  if (e.kind === "transfer") return e.payer ?? e.payee;
  if (e.kind === "became_friday" || e.kind === "friday_released") return e.master;
  if (e.kind === "game_over") return e.winner;
  return null;
}

// A log bound to an <ol>: add(entries) appends [{kind, seat, line}] in order. The first turn
// shown has no `turn_began` of its own: its player is `firstSeat` when the caller knows it (the
// game's first mover, the replay's mover at that step), else the first event's actor; a seat
// note ("Bruno took their seat") never names a turn, whoever it is about.
export class TurnLog {
  constructor(list, names) { this.list = list; this.names = names; this.turn = 0; this.group = null; this.firstSeat = null; }

  reset(firstTurn = 1, names = this.names, firstSeat = null) {
    this.list.replaceChildren(); this.turn = firstTurn - 1; this.group = null; this.names = names;
    this.firstSeat = firstSeat; this.unnamed = null;
  }

  // The heading of turn `li` for `seat` (null: not known yet, the number alone).
  name(li, seat) {
    const head = li.firstChild;
    head.replaceChildren();
    if (seat === null || seat === undefined) {
      head.append(t("web.turn_n", { n: li.dataset.turn }));
      this.unnamed = li;
      return;
    }
    li.dataset.seat = seat; li.style.setProperty("--seat", COLOURS[seat % 8]);
    head.append(seatIcon(seat, 14), t("web.turn_of", { n: li.dataset.turn, name: this.names[seat] ?? "" }));
    if (this.unnamed === li) this.unnamed = null;
  }

  startTurn(seat) {
    this.turn += 1;
    const li = document.createElement("li");
    li.dataset.turn = String(this.turn);
    const head = document.createElement("div");
    head.className = "turn-head";
    li.append(head, document.createElement("ul"));
    this.unnamed = null;
    this.name(li, seat);
    this.list.append(li);
    this.group = li.lastChild;
  }

  add(entries) {
    for (const { kind, seat, line } of entries) {
      if (kind === "turn_began") { this.startTurn(seat); continue; }
      const actor = kind === "note" ? null : seat;
      if (!this.group) this.startTurn(this.firstSeat ?? actor);
      else if (this.unnamed && actor !== null && actor !== undefined) this.name(this.unnamed, actor);
      const li = document.createElement("li");
      li.dataset.kind = kind;
      const text = document.createElement("span");
      text.textContent = line;
      li.append(eventIcon(kind), text);
      /** @type {HTMLElement} */ (this.group).append(li);
    }
    this.list.scrollTop = this.list.scrollHeight;
  }
}

// Pair a step's narration lines with the events they tell: `told[j]` is the index of line j's
// event (some events have no line of their own: a bounce's move is told by the bounce).
export function entriesOf(events, lines, told) {
  return lines.map((line, j) => {
    const e = events[told ? told[j] : j] || {};
    return { kind: e.kind, seat: actorOf(e), line };
  });
}
