// @ts-check
// The table's sounds (issue 18 "Drama"), made in the page with WebAudio: no file to download
// (the page's weight budget), off unless the player turns the one switch on (#sound, kept in
// localStorage). The turn chime, the die, a pawn landing, tokens paid, a death and the win.
let context = null;

function on() { return /** @type {HTMLInputElement | null} */ (document.getElementById("sound"))?.checked === true; }

// One note: `freq` Hz (gliding to `to`), starting `at` seconds from now, `dur` long.
function note(ctx, freq, at, dur, { type = "sine", gain = 0.07, to = null } = {}) {
  const o = ctx.createOscillator(), g = ctx.createGain(), t0 = ctx.currentTime + at;
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);  // fades out: no click at the end
  o.connect(g).connect(ctx.destination);
  o.start(t0); o.stop(t0 + dur + 0.02);
}

const SOUNDS = {
  turn: (ctx) => { note(ctx, 660, 0, 0.12, { gain: 0.08 }); note(ctx, 880, 0.15, 0.12, { gain: 0.08 }); },
  die: (ctx) => { for (let i = 0; i < 5; i++) note(ctx, 900 + ((i * 577) % 700), i * 0.09, 0.03, { type: "square", gain: 0.025 }); },
  land: (ctx) => note(ctx, 190, 0, 0.14, { to: 110, gain: 0.12 }),
  pay: (ctx) => { note(ctx, 1320, 0, 0.07, { type: "triangle" }); note(ctx, 1760, 0.07, 0.1, { type: "triangle" }); },
  death: (ctx) => note(ctx, 320, 0, 0.8, { type: "sawtooth", to: 70, gain: 0.05 }),
  win: (ctx) => [523, 659, 784, 1047].forEach((f, i) => note(ctx, f, i * 0.13, i === 3 ? 0.45 : 0.14, { type: "triangle", gain: 0.08 })),
};

export function play(name) {
  if (!on() || !SOUNDS[name]) return;
  try {
    context = context || new AudioContext();
    SOUNDS[name](context);
  } catch { /* no audio here: the page says everything in words */ }
}

// The sounds of a move's events, after its words: tokens paid, a death, the win.
export function playEvents(events) {
  if (events.some((e) => e.kind === "won")) play("win");
  else if (events.some((e) => e.kind === "died")) play("death");
  else if (events.some((e) => e.kind === "transfer" && e.amount)) play("pay");
}
