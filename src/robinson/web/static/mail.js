// @ts-check
// "E-mail me when it is my turn" (docs/notifications.md "E-mail"): a seat's owner leaves an
// address; the server sends a confirmation e-mail and nothing else until its link is opened.
// seats.js puts the panel in the seat's row after each render: the same element each time, so
// what is typed survives the moves that arrive meanwhile.
import { request } from "./api.js";
import { make } from "./dom.js";
import { t, texts } from "./texts.js";

const panels = new Map();  // "table:seat" -> the panel (a <details>)
let enabled = null;  // whether this server sends e-mail (GET /api/meta `mail`), once asked

async function sendsMail() {
  if (enabled === null) {
    try { enabled = !!(await request("/api/meta")).mail; } catch { return false; }
  }
  return enabled;
}

export function mailPanel(table, seat, token) {
  const key = `${table}:${seat}:${token}`;  // a new secret (devices signed out): a new panel
  let panel = panels.get(key);
  if (panel && panel.dataset.lang === texts.lang) return panel;
  panel = make("details", null, { class: "email", "data-email": seat, "data-lang": texts.lang });
  panel.append(make("summary", t("web.mail.form.summary")));
  panel.ontoggle = async () => {
    if (!panel.open || panel.querySelector("form, .note")) return;
    if (!(await sendsMail())) { panel.append(make("p", t("web.error.mail_off"), { class: "note" })); return; }
    panel.append(form(table, seat, token));
  };
  panels.set(key, panel);
  return panel;
}

function form(table, seat, token) {
  const box = make("form", null, { class: "email-form", novalidate: "" });
  const id = `email-${seat}`;
  const input = make("input", null, { id, type: "email", name: "address", autocomplete: "email", required: "", maxlength: "254" });
  const digestId = `email-digest-${seat}`;
  const digest = make("input", null, { id: digestId, type: "checkbox", name: "digest", checked: "" });
  const status = make("p", "", { role: "status", class: "email-status" });
  box.append(
    make("label", t("web.mail.form.address"), { for: id }), input,
    make("span", null, { class: "email-digest" }),
    make("button", t("web.mail.form.send"), { type: "submit" }),
    make("p", t("web.mail.form.note"), { class: "note" }), status);
  box.querySelector(".email-digest").append(digest, " ", make("label", t("web.mail.form.digest"), { for: digestId }));
  box.onsubmit = async (event) => {
    event.preventDefault();
    status.textContent = "";
    let ok = true;
    try {
      await request(`/api/tables/${table}/seats/${seat}/email`,
        { body: { token, address: input.value, language: texts.lang, digest: digest.checked } });
    } catch (e) { ok = false; status.textContent = e.message; }
    if (ok) status.textContent = t("web.mail.form.sent");
    status.dataset.ok = String(ok);
  };
  return box;
}
