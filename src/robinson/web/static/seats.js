// @ts-check
// Seats that stay yours (docs/protocol.md "Seats"): claiming an invite, the host's Invite panel
// with links and QR codes, presence dots, the clock's countdown, handing a seat to a bot (with
// confirmation) and taking it back, and a seat's own link for another device.
// table.js calls takeFragment() before it reads its tokens, decorateSeats() after each render.
import { request } from "./api.js";
import { $, make, showError } from "./dom.js";
import { mailPanel } from "./mail.js";
import { dropInvitePanelAsk, hostSecret, invitePanelAsked, keepInvite, keepSeatTokens,
  pendingInvite, rememberHost, seatTokens, soundOn } from "./storage.js";
import { vacationNote, vacationPanel } from "./vacation.js";
import { awaiting } from "./waiting.js";
import { t, texts } from "./texts.js";

const seats = { table: null, host: null, claimed: null, skew: 0, clock: null, ticker: null,
  confirming: null, device: {} };

(function styles() {  // this module's own styles, so it hooks into the page with no markup
  if (!document.querySelector("link[href='/static/seats.css']")) {
    document.head.append(make("link", null, { rel: "stylesheet", href: "/static/seats.css" }));
  }
})();

// A refusal is thrown as an ApiError: its message in the viewer's words (api.js).
const post = (path, body) => request(path, { body });

// The address's fragment: `i:CODE` is an invite (kept for this tab until used), `h:SECRET` the
// host's; other items are seat secrets, left for table.js. Loading an invite claims nothing (a
// link checker takes no seat): the page shows the seat and a "Take this seat" button.
export async function takeFragment(table) {
  seats.table = table;
  const items = decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean);
  const rest = [];
  for (const item of items) {
    if (item.startsWith("h:")) rememberHost(table, item.slice(2));
    else if (item.startsWith("i:")) keepInvite(table, item.slice(2));
    else rest.push(item);
  }
  if (items.length !== rest.length) {
    history.replaceState(null, "", location.pathname + (rest.length ? `#${rest.join(",")}` : ""));
  }
  seats.host = hostSecret(table);
  const invite = pendingInvite(table);
  if (!invite) return null;
  try {
    offerSeat(table, invite, await post(`/api/tables/${table}/offer`, { invite }));
    return null;
  } catch (e) {
    keepInvite(table, null);
    return notice(e.code === "seat_taken" ? t("web.seat_taken") : e.message);
  }
}

function notice(problem) {  // stays in sight (the connection's messages clear #error)
  $("seat-notice")?.remove();
  $("table").prepend(make("p", problem, { id: "seat-notice", role: "alert" }));
  return problem;
}

// The invite's seat and the button that takes it: the seat's new secret is kept, the page
// loads again holding it.
function offerSeat(table, invite, offer) {
  const box = make("section", null, { id: "seat-offer", "data-seat": offer.seat });
  const take = make("button", t("web.take_seat"), { type: "button", "data-take-seat": offer.seat });
  box.append(make("p", t("web.invite_offer", { name: offer.name })), take);
  take.onclick = async () => {
    take.disabled = true;
    try {
      const got = await post(`/api/tables/${table}/claim`, { invite });
      keepSeatTokens(table, [...new Set([...seatTokens(table), got.token])]);
      keepInvite(table, null);
      location.reload();
    } catch (e) {
      keepInvite(table, null);
      box.remove();
      notice(e.code === "seat_taken" ? t("web.seat_taken") : e.message);
    }
  };
  $("table").prepend(box);
}

// ---------------------------------------------------------------------------- the host's panel
function copyButton(input) {
  const b = make("button", t("web.copy"), { type: "button", class: "copy" });
  b.onclick = async () => {
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
    b.textContent = t("web.copied");
    setTimeout(() => { b.textContent = t("web.copy"); }, 1500);
  };
  return b;
}

function svgNode(markup) {  // the server's QR code (segno): parsed as SVG, never as HTML
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.setAttribute("role", "img");
  return svg;
}

function linkRow(label, path, qr, attrs) {
  const row = make("div", null, { class: "invite", ...attrs });
  const input = make("input", null, { readonly: "", "aria-label": label });
  input.value = location.origin + path;
  row.append(make("label", label), input, copyButton(input));
  // On a phone (where the browser can share): the system's share sheet, to a chat or a mail.
  if (navigator.share) {
    const share = make("button", t("web.share"), { type: "button", class: "share" });
    share.onclick = async () => {
      try { await navigator.share({ title: t("ui.title"), text: label, url: input.value }); } catch { /* closed: nothing */ }
    };
    row.append(" ", share);
  }
  if (qr) {
    const box = make("details", null, { class: "qr" });
    const code = svgNode(qr);
    code.setAttribute("aria-label", t("web.qr_for", { name: label }));
    box.append(make("summary", t("web.qr")), code);
    row.append(box);
  }
  return row;
}

// The host's Invite panel: each unclaimed seat's link, Copy and QR; the spectator link; a new
// invite for a claimed seat that is absent or out of time. Shown on the table page and right
// after creating a table (also when coming Back to it: the links come from the server).
export async function renderInvites(box, table, host, game = null, skip = [], known = null) {
  let data = known;  // the answer of before, when the seats have not changed since
  try { data = data || await post(`/api/tables/${table}/invites`, { host, origin: location.origin }); } catch { box.hidden = true; return null; }
  box.hidden = false;
  box.replaceChildren(make("h2", t("web.invites")));
  // Not the seats this browser plays itself (the host's own, or all of them in hot-seat).
  for (const s of data.seats.filter((x) => (x.kind === "human" || x.link) && !skip.includes(x.seat))) {
    if (s.link) box.append(linkRow(t("web.invite_for", { name: s.name }), s.link, s.qr, { "data-invite": s.seat }));
    else {
      const row = make("div", t("web.seat_claimed", { name: s.name }), { class: "invite claimed", "data-claimed": s.seat });
      const player = game && game.players[s.seat];
      if (player && !player.present && (player.absent || player.timeouts > 0)) {
        const b = make("button", t("web.reinvite", { name: s.name }), { type: "button", "data-reinvite": s.seat });
        b.onclick = async () => {
          try { await post(`/api/tables/${table}/seats/${s.seat}/invite`, { host, origin: location.origin }); } catch (e) { showProblem(e.message); }
          seats.asked = null;  // a new link: the panel's next drawing asks the server again
          renderInvites(box, table, host, game, skip);
        };
        row.append(" ", b);
      }
      box.append(row);
    }
  }
  box.append(linkRow(t("web.spectator_link"), data.spectator, data.spectator_qr, { "data-spectator": "" }));
  return data;
}

// A refused request of a seat's menu or the host's panel, in the page's message line (kept).
function showProblem(message) { showError(message, true); }

function invitePanel(game, you) {
  if (!seats.host) return;
  let box = $("invites");
  if (!box) box = make("section", null, { id: "invites", class: "invites" });
  // While the table waits for the friends, the links sit right under the turn and the host's
  // "Start now" (in sight on a desk), later with the other panels.
  const dock = $("dock"), panels = $("side-panels") || $("side");
  if (awaiting(game) && dock) { if (box.previousElementSibling !== dock) dock.after(box); }
  else if (box.parentElement !== panels) panels.append(box);
  // Drawn again when what the panel shows can have changed; asked of the server (links, QR
  // codes) again only when the seats changed, not for presence.
  const asked = JSON.stringify([texts.lang, you, game.players.map((p) => [p.claimed, p.kind])]);
  const key = JSON.stringify([asked, game.players.map((p) => [p.present, p.absent, p.timeouts > 0])]);
  if (key === seats.claimed) return;
  seats.claimed = key;
  if (asked !== seats.asked) { seats.asked = asked; seats.invites = null; }
  renderInvites(box, seats.table, seats.host, game, you, seats.invites).then((data) => {
    if (seats.asked === asked) seats.invites = data;
    openInvites(box);
  });
}

// "Play with friends" lands here with the invite panel open: in sight, its first link's Share
// (or Copy) button focused, once.
function openInvites(box) {
  if (!invitePanelAsked(seats.table) || box.hidden) return;
  dropInvitePanelAsk(seats.table);
  box.classList.add("opened");
  // on a phone the fixed bar covers the window's bottom: the panel goes to the top
  const dock = $("dock");
  const fixed = dock && getComputedStyle(dock).position === "fixed";
  box.scrollIntoView({ block: fixed ? "start" : "nearest" });
  (box.querySelector(".invite .share") || box.querySelector(".invite .copy"))?.focus({ preventScroll: true });
}

// ------------------------------------------------------------------------- the seats, per player
// ctx: {you: [seats held], seatTokens: {seat: token}, send(msg)}
export function decorateSeats(game, ctx) {
  seats.clock = game.clock;
  // the clock is this browser's to watch: the seat to move is held here by a person
  seats.mine = !!game.clock && ctx.you.includes(game.clock.seat) && game.players[game.clock.seat].kind === "human";
  if (game.clock) seats.skew = Date.parse(game.clock.now) - Date.now();
  const mine = ctx.you.filter((s) => ctx.seatTokens[s]);
  const held = mine.find((s) => game.players[s].kind === "human") ?? mine[0];
  for (const p of game.players) {
    const li = document.querySelector(`#players [data-player="${p.seat}"]`);
    if (!li) continue;
    // Presence is a person's: a bot has no dot (unless the seat's owner is here to take it back).
    if (p.kind !== "bot" || p.present) {
      const dot = make("span", null, { class: "presence", role: "img", "data-present": p.present,
        title: t(p.present ? "web.present" : "web.away"), "aria-label": t(p.present ? "web.present" : "web.away") });
      const name = li.querySelector(".name");  // the dot goes right before the name
      if (name) name.before(dot, " "); else li.prepend(dot);
    }
    if (p.kind === "human" && !p.present && p.away_since && !game.over) {  // since when
      (li.querySelector(".name") || li.firstChild).after(" ", make("span", "", { class: "away", "data-away-since": p.away_since }));
    }
    const away = vacationNote(p);  // "on vacation until …", for everyone to see
    if (away) li.append(" ", away);
    if (game.clock && game.clock.seat === p.seat) li.append(" ", make("span", "", { class: "countdown", "data-clock": p.seat }));
    if (game.over) continue;
    if (ctx.you.includes(p.seat) && ctx.seatTokens[p.seat]) ownButtons(li, p, ctx);
    else if (p.kind === "human" && held !== undefined && (p.absent || (p.timeouts > 0 && !p.present))) {
      handButton(li, p, () => ctx.send({ type: "bot", seat: p.seat, bot: "heuristic", token: ctx.seatTokens[held] }));
    }
  }
  invitePanel(game, ctx.you);
  tick();
  if (!seats.ticker) seats.ticker = setInterval(tick, 250);
}

function handButton(li, p, go) {
  const label = t("web.hand_seat", { name: p.name });
  if (seats.confirming === p.seat) {  // asked once: confirm or cancel, naming the seat again
    const box = make("span", null, { class: "confirm", role: "group" });
    const yes = make("button", t("web.hand_seat_confirm", { name: p.name }), { type: "button", "data-confirm-bot": p.seat });
    const no = make("button", t("web.cancel"), { type: "button" });
    yes.onclick = () => { seats.confirming = null; go(); };
    no.onclick = () => { seats.confirming = null; box.replaceWith(handButton(li, p, go)); };
    box.append(yes, " ", no);
    li.append(box);
    yes.focus();
    return box;
  }
  const b = make("button", label, { type: "button", "data-hand-bot": p.seat });
  b.onclick = () => { seats.confirming = p.seat; b.replaceWith(handButton(li, p, go)); };
  li.append(b);
  return b;
}

// The seat's own admin (issue 18: the side column was crowded): one menu per seat, open or
// shut as the player left it across redraws. Taking a seat back from the bot stays in sight.
const menuOpen = new Set();

function ownButtons(li, p, ctx) {
  const token = ctx.seatTokens[p.seat];
  if (p.kind === "bot") {
    const b = make("button", t("web.take_back"), { type: "button", "data-take-back": p.seat });
    b.onclick = () => ctx.send({ type: "take_back", seat: p.seat, token });
    li.append(b);
  }
  const menu = make("details", null, { class: "seat-menu", "data-seat-menu": p.seat });
  menu.open = menuOpen.has(p.seat);
  menu.ontoggle = () => { if (menu.open) menuOpen.add(p.seat); else menuOpen.delete(p.seat); };
  menu.append(make("summary", ctx.you.length > 1 ? t("web.seat_menu_of", { name: p.name }) : t("web.seat_menu")));
  li.append(menu);
  li = menu;  // what follows goes in the menu
  if (p.kind !== "bot") {
    // Hot-seat (several seats here): the button names the seat; else "for me".
    const label = ctx.you.length > 1 ? t("web.hand_seat", { name: p.name }) : t("web.hand_mine");
    const b = make("button", label, { type: "button", "data-hand-mine": p.seat });
    b.onclick = () => ctx.send({ type: "bot", seat: p.seat, bot: "heuristic", token });
    li.append(b);
  }
  const other = make("details", null, { class: "device" });
  const summary = make("summary", t("web.other_device"));
  other.append(summary);
  other.ontoggle = async () => {
    if (!other.open || other.querySelector(".invite")) return;
    try {
      const got = await post(`/api/tables/${seats.table}/seats/${p.seat}/device`, { token, origin: location.origin });
      other.append(make("p", t("web.other_device_note"), { class: "note" }),
        linkRow(t("web.own_link", { name: p.name }), got.link, got.qr, { "data-device": p.seat }), revokeButton(p, token));
    } catch (e) { showProblem(e.message); }
  };
  li.append(other);
  if (p.kind === "human") li.append(mailPanel(seats.table, p.seat, token));  // mail.js
  const pause = p.kind === "human" ? vacationPanel(seats.table, p, token) : null;  // vacation.js
  if (pause) li.append(pause);
}

// "Sign out my other devices": a new secret for this browser, the old one ends everywhere.
function revokeButton(p, token) {
  const b = make("button", t("web.revoke_devices"), { type: "button", "data-revoke": p.seat });
  b.onclick = async () => {
    try {
      const got = await post(`/api/tables/${seats.table}/seats/${p.seat}/revoke`, { token });
      const known = new Set(seatTokens(seats.table));
      known.delete(token); known.add(got.token);
      keepSeatTokens(seats.table, [...known]);
      location.reload();
    } catch (e) { showProblem(e.message); }
  };
  return b;
}

// "0:14", "1:02:03", "2:03:04:05": seconds as the clocks show them.
function clockText(seconds) {
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds / 3600) % 24, m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  return d ? `${d}:${two(h)}:${two(m)}:${two(s)}` : h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// The countdown of the seat to move (in its row, and large beside the turn banner, which is in
// the phone's bar too): the server's deadline, corrected by the server's clock; red from 10 s.
// And how long each absent player has been away ("away 0:14").
function tick() {
  const now = Date.now() + seats.skew;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-away-since]"))) {
    node.textContent = t("web.away_for", { time: clockText(Math.max(0, Math.floor((now - Date.parse(node.dataset.awaySince)) / 1000))) });
  }
  const big = $("turn-clock");
  if (big) big.hidden = !seats.clock;
  if (!seats.clock) return;
  const left = Math.max(0, Math.ceil((Date.parse(seats.clock.deadline) - now) / 1000));
  const text = clockText(left);
  warn(left, text);
  for (const node of [/** @type {HTMLElement | null} */ (document.querySelector("[data-clock]")), big]) {
    if (!node) continue;
    node.textContent = text;
    node.dataset.left = String(left);
    node.dataset.low = String(left <= 10);
    node.setAttribute("aria-label", t("web.time_left", { time: text }));
  }
}

// At 10 s left on this browser's own move: said once to a screen reader (an alert), and a tick
// if the player turned the sound on.
function warn(left, text) {
  const box = $("clock-warning");
  if (!box) return;
  const due = seats.mine && left <= 10 && left > 0;
  if (!due) { if (!seats.mine) box.textContent = ""; return; }
  if (seats.warned === seats.clock.deadline) return;
  seats.warned = seats.clock.deadline;
  box.textContent = t("web.clock_warning", { time: text });
  if (soundOn()) {
    try {
      const ctx = (seats.audio = seats.audio || new AudioContext()), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 1200; g.gain.value = 0.06;
      o.connect(g).connect(ctx.destination);
      o.start(); o.stop(ctx.currentTime + 0.05);
    } catch { /* no audio here: the clock is red and the warning said */ }
  }
}

// ---------------------------------------------------------------------------- the home page
// The clock of a new table: a choice in the creation form (labels follow the language through
// data-ui, like the rest of the page), read by clockSeconds() when the table is made.
const CLOCKS = [["", "web.clock_none"], ["30", "web.clock_30s"], ["120", "web.clock_2m"],
  ["3600", "web.clock_1h"], ["86400", "web.clock_1d"], ["604800", "web.clock_1w"]];

export function clockChoice() {
  const label = make("label", null, { class: "clock-choice" });
  const select = make("select", null, { name: "move_seconds" });
  for (const [value, key] of CLOCKS) select.append(make("option", t(key), { value, "data-ui": key }));
  label.append(make("span", t("web.clock"), { "data-ui": "web.clock" }), " ", select);
  return label;
}

export function clockSeconds() {
  const value = /** @type {HTMLSelectElement | null} */ (document.querySelector("[name=move_seconds]"))?.value;
  return value ? Number(value) : null;
}
