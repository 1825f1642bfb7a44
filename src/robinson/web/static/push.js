// @ts-check
// "Tell me when it is my turn" (docs/notifications.md): this browser's Web Push subscription for
// the seats it holds at a table. Loaded only when a player turns it on or off (or changes the
// language while it is on): the table's page does not carry it otherwise.

import { request } from "./api.js";

function bytes(b64) {
  const text = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - b64.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function same(a, b) {
  if (!a || !b) return false;
  const x = new Uint8Array(a), y = new Uint8Array(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

// The service worker and its subscription to this server's key (made if need be). Returns
// null when the browser cannot do it; throws "blocked" when the player refused notifications.
async function subscription(make) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return null;
  const reg = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!make) return sub;
  if ((await Notification.requestPermission()) !== "granted") throw new Error("blocked");
  const key = bytes((await request("/api/push/key")).key);  // refused: "failed" (not "blocked")
  if (sub && !same(sub.options.applicationServerKey, key)) { await sub.unsubscribe(); sub = null; }
  return sub || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

// Turn this browser's notifications for `seats` (seat -> token) at `table` on or off. Returns ""
// or the catalog key of what went wrong (shown under the box).
export async function setPush(on, table, seats, lang) {
  let sub;
  try {
    sub = await subscription(on);
  } catch (e) {
    return e.message === "blocked" ? "web.notify.blocked" : "web.notify.failed";
  }
  if (sub === null && on) return "web.notify.unsupported";
  if (!sub) return "";
  for (const [seat, token] of Object.entries(seats)) {
    const body = on ? { token, subscription: sub.toJSON(), language: lang } : { token, endpoint: sub.endpoint };
    try { await request(`/api/tables/${table}/seats/${seat}/push`, { method: on ? "POST" : "DELETE", body }); } catch {
      return "web.notify.failed";
    }
  }
  return "";
}
