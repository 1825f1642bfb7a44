// The dice check of a game record (docs/fair-dice.md), with WebCrypto and nothing else: no
// network, no module. Both schemes: hmac-sha256-bytes-v1 (the server's seed alone) and
// hmac-sha256-seeds-v2 (the server's seed and every seat's seed). A classic script, so that
// verify.html saved beside it works from disk; the table page imports it for its own button.
"use strict";
(() => {
  const V1 = "hmac-sha256-bytes-v1", V2 = "hmac-sha256-seeds-v2";
  const enc = new TextEncoder();
  const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const unhex = (s) => (typeof s === "string" && /^(?:[0-9a-fA-F]{2})+$/.test(s)
    ? new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16))) : null);
  const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hmacKey = (raw) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sign = async (key, text) => new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text)));

  // Roll k: the first byte below 252 of HMAC-SHA256(key, "k") (then "k/1", "k/2"...), mod 6, + 1.
  async function faces(raw, count) {
    const key = await hmacKey(raw);
    const out = [];
    for (let k = 0; k < count; k++) {
      for (let attempt = 0; ; attempt++) {
        const byte = (await sign(key, attempt ? `${k}/${attempt}` : String(k))).find((b) => b < 252);
        if (byte !== undefined) { out.push((byte % 6) + 1); break; }
      }
    }
    return out;
  }

  // The second scheme's key: SHA-256("robinson dice v2", 0, seed, then each seat's length and seed).
  async function seedsKey(seed, seats) {
    const parts = [enc.encode("robinson dice v2\0"), seed];
    for (const s of seats) parts.push(Uint8Array.of(s.length), s);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => { all.set(p, at); return at + p.length; }, 0);
    return sha256(all);
  }

  // {ok: true, count, scheme, digest} when every roll follows from the seeds, else {ok: false, reason}.
  async function checkRecord(record) {
    const fail = (reason) => ({ ok: false, reason });
    const dice = record && record.meta && record.meta.dice;
    if (!dice || typeof dice !== "object") return fail('the record has no "meta": {"dice": {...}} object to check');
    if (dice.scheme !== V1 && dice.scheme !== V2) return fail(`unknown dice scheme ${JSON.stringify(dice.scheme)}: expected ${V1} or ${V2}`);
    if (typeof dice.seed_sha256 !== "string") return fail("meta.dice.seed_sha256 is missing");
    if (typeof dice.seed !== "string") return fail("meta.dice.seed is missing: the seed is revealed when the game ends");
    const seed = unhex(dice.seed);
    if (!seed) return fail("the seed must be hex digits");
    const actual = hex(await sha256(seed));
    if (actual !== dice.seed_sha256.toLowerCase()) return fail(`SHA-256 of the seed is ${actual}, but the game published ${dice.seed_sha256}`);
    let key = seed;
    if (dice.scheme === V2) {
      const players = Array.isArray(record.players) ? record.players.length : 0;
      if (!Array.isArray(dice.seeds) || dice.seeds.length !== players) return fail(`meta.dice.seeds must list one seed for each of the ${players} seats`);
      const own = await hmacKey(seed);
      const seats = [];
      for (const [seat, item] of dice.seeds.entries()) {
        const raw = unhex(item && item.seed);
        if (!item || item.seat !== seat || !raw || raw.length < 16 || raw.length > 32) return fail(`meta.dice.seeds[${seat}] must be {seat: ${seat}, seed: 32 to 64 hex digits}`);
        if (item.by === "server" && hex(await sign(own, `robinson seat seed/${seat}`)) !== hex(raw)) {
          return fail(`the seed of seat ${seat} is marked as the server's but does not follow from the server's seed`);
        }
        seats.push(raw);
      }
      key = await seedsKey(seed, seats);
    }
    const rolls = (Array.isArray(record.actions) ? record.actions : []).filter((a) => a && typeof a === "object" && "roll" in a).map((a) => a.roll);
    const due = await faces(key, rolls.length);
    const bad = rolls.findIndex((r, i) => r !== due[i]);
    const from = dice.scheme === V2 ? "the server's seed and the seats' seeds give" : "the seed gives";
    if (bad >= 0) return fail(`roll ${bad} was ${rolls[bad]}, but ${from} ${due[bad]}`);
    return { ok: true, count: rolls.length, scheme: dice.scheme, digest: dice.seed_sha256 };
  }

  globalThis.RobinsonDice = { checkRecord, V1, V2 };

  // verify.html: a record file in, the verdict out.
  const input = typeof document === "undefined" ? null : document.getElementById("record-file");
  if (!input) return;
  const out = document.getElementById("result");
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    out.textContent = "…";
    let verdict;
    try {
      if (!globalThis.crypto || !crypto.subtle) throw new Error("this browser has no WebCrypto here");
      verdict = await checkRecord(JSON.parse(await file.text()));
    } catch (e) {
      verdict = { ok: false, reason: `not a record: ${e.message}` };
    }
    out.dataset.ok = String(verdict.ok);
    out.textContent = verdict.ok
      ? `${file.name}: OK: all ${verdict.count} rolls follow from the seed with SHA-256 ${verdict.digest} (${verdict.scheme}).`
      : `${file.name}: FAILED: ${verdict.reason}.`;
  });
})();
