// The page's service worker (docs/notifications.md), served at /sw.js so that its scope holds
// every table (/t/...). It shows what the server pushes (your turn, a reminder, the end...) and,
// clicked, focuses a tab of that table or opens one. It caches nothing.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  // one notification per table (its tag): a newer notice of the table replaces the older one
  event.waitUntil(self.registration.showNotification(data.title || "Robinson", {
    body: data.body || "", tag: data.tag || "robinson", renotify: true, lang: data.lang || "",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = tabs.find((tab) => new URL(tab.url).pathname === url.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(url.href);  // the browser keeps the seat's secret for it
  })());
});
