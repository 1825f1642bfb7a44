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

  // The page's words and the reasons of a failed check, in the four languages (this file must
  // work alone, offline: no catalog to fetch). say() fills {name} fields; English is the fallback.
  const WORDS = {
    en: {
      title: "Robinson: check the dice of a game",
      heading: "Check the dice of a Robinson game",
      intro: "Choose a game record (the JSON file of a finished game: its seed is revealed at the end). This page checks, in this browser and without any network, that the seed matches the SHA-256 the game published before its first roll, that every seed marked as the server's follows from that seed, and that every roll follows from the seeds. Saved to disk with verify.js beside it, it works offline too.",
      label: "Game record:",
      ok: "{file}: OK: all {count} rolls follow from the seed with SHA-256 {digest} ({scheme}).",
      failed: "{file}: FAILED: {reason}.",
      no_dice: 'the record has no "meta": {"dice": {...}} object to check',
      scheme: "unknown dice scheme {scheme}: expected {v1} or {v2}",
      no_digest: "meta.dice.seed_sha256 is missing",
      no_seed: "meta.dice.seed is missing: the seed is revealed when the game ends",
      seed_hex: "the seed must be hex digits",
      digest: "SHA-256 of the seed is {actual}, but the game published {published}",
      seeds_count: "meta.dice.seeds must list one seed for each of the {players} seats",
      seat_seed: "meta.dice.seeds[{seat}] must be {seat: {seat}, seed: 32 to 64 hex digits}",
      server_seed: "the seed of seat {seat} is marked as the server's but does not follow from the server's seed",
      roll_v1: "roll {index} was {rolled}, but the seed gives {due}",
      roll_v2: "roll {index} was {rolled}, but the server's seed and the seats' seeds give {due}",
      not_record: "not a record: {error}",
      no_crypto: "this browser has no WebCrypto here",
    },
    lv: {
      title: "Robinsons: pārbaudi spēles kauliņu",
      heading: "Pārbaudi Robinsona spēles kauliņu",
      intro: "Izvēlies spēles ierakstu (pabeigtas spēles JSON failu: tā sēkla tiek atklāta beigās). Šī lapa šajā pārlūkā un bez tīkla pārbauda, vai sēkla atbilst SHA-256, ko spēle publicēja pirms pirmā metiena, vai katra servera sēkla izriet no tās un vai katrs metiens izriet no sēklām. Saglabāta diskā kopā ar verify.js, tā darbojas arī bezsaistē.",
      label: "Spēles ieraksts:",
      ok: "{file}: pareizi: visi {count} metieni izriet no sēklas ar SHA-256 {digest} ({scheme}).",
      failed: "{file}: NEIZDEVĀS: {reason}.",
      no_dice: 'ierakstā nav pārbaudāmā objekta "meta": {"dice": {...}}',
      scheme: "nezināma kauliņa shēma {scheme}: gaidīta {v1} vai {v2}",
      no_digest: "trūkst meta.dice.seed_sha256",
      no_seed: "trūkst meta.dice.seed: sēklu atklāj, kad spēle beidzas",
      seed_hex: "sēklai jābūt heksadecimāliem cipariem",
      digest: "sēklas SHA-256 ir {actual}, bet spēle publicēja {published}",
      seeds_count: "meta.dice.seeds jābūt pa vienai sēklai katrai no {players} vietām",
      seat_seed: "meta.dice.seeds[{seat}] jābūt {seat: {seat}, seed: 32 līdz 64 heksadecimāli cipari}",
      server_seed: "{seat}. vietas sēkla ir atzīmēta kā servera, bet neizriet no servera sēklas",
      roll_v1: "{index}. metiens bija {rolled}, bet sēkla dod {due}",
      roll_v2: "{index}. metiens bija {rolled}, bet servera sēkla un vietu sēklas dod {due}",
      not_record: "tas nav ieraksts: {error}",
      no_crypto: "šim pārlūkam te nav WebCrypto",
    },
    cs: {
      title: "Robinson: ověř kostku hry",
      heading: "Ověř kostku hry Robinson",
      intro: "Vyber záznam hry (soubor JSON dohrané hry: její semínko se odhalí na konci). Tato stránka v tomto prohlížeči a bez sítě ověří, že semínko odpovídá SHA-256, které hra zveřejnila před prvním hodem, že každé semínko označené jako serverové z něj plyne a že každý hod plyne ze semínek. Uložená na disk spolu s verify.js funguje i bez připojení.",
      label: "Záznam hry:",
      ok: "{file}: v pořádku: všech {count} hodů plyne ze semínka s SHA-256 {digest} ({scheme}).",
      failed: "{file}: CHYBA: {reason}.",
      no_dice: 'záznam nemá k ověření objekt "meta": {"dice": {...}}',
      scheme: "neznámé schéma kostky {scheme}: očekává se {v1} nebo {v2}",
      no_digest: "chybí meta.dice.seed_sha256",
      no_seed: "chybí meta.dice.seed: semínko se odhalí, když hra skončí",
      seed_hex: "semínko musí být šestnáctkové číslice",
      digest: "SHA-256 semínka je {actual}, ale hra zveřejnila {published}",
      seeds_count: "meta.dice.seeds musí mít po jednom semínku pro každé z {players} míst",
      seat_seed: "meta.dice.seeds[{seat}] musí být {seat: {seat}, seed: 32 až 64 šestnáctkových číslic}",
      server_seed: "semínko místa {seat} je označené jako serverové, ale neplyne ze semínka serveru",
      roll_v1: "hod {index} byl {rolled}, ale semínko dává {due}",
      roll_v2: "hod {index} byl {rolled}, ale semínko serveru a semínka míst dávají {due}",
      not_record: "to není záznam: {error}",
      no_crypto: "tento prohlížeč tu nemá WebCrypto",
    },
    ca: {
      title: "Robinson: comprova el dau d’una partida",
      heading: "Comprova el dau d’una partida de Robinson",
      intro: "Tria el registre d’una partida (el fitxer JSON d’una partida acabada: la llavor es revela al final). Aquesta pàgina comprova, en aquest navegador i sense xarxa, que la llavor correspon al SHA-256 que la partida va publicar abans de la primera tirada, que cada llavor marcada com del servidor se’n deriva i que cada tirada es deriva de les llavors. Desada al disc amb verify.js al costat, també funciona sense connexió.",
      label: "Registre de la partida:",
      ok: "{file}: correcte: les {count} tirades es deriven de la llavor amb SHA-256 {digest} ({scheme}).",
      failed: "{file}: ERROR: {reason}.",
      no_dice: 'el registre no té cap objecte "meta": {"dice": {...}} per comprovar',
      scheme: "esquema de dau desconegut {scheme}: s’esperava {v1} o {v2}",
      no_digest: "falta meta.dice.seed_sha256",
      no_seed: "falta meta.dice.seed: la llavor es revela quan acaba la partida",
      seed_hex: "la llavor han de ser xifres hexadecimals",
      digest: "el SHA-256 de la llavor és {actual}, però la partida va publicar {published}",
      seeds_count: "meta.dice.seeds ha de tenir una llavor per a cadascun dels {players} llocs",
      seat_seed: "meta.dice.seeds[{seat}] ha de ser {seat: {seat}, seed: de 32 a 64 xifres hexadecimals}",
      server_seed: "la llavor del lloc {seat} està marcada com del servidor però no es deriva de la llavor del servidor",
      roll_v1: "la tirada {index} va ser {rolled}, però la llavor dona {due}",
      roll_v2: "la tirada {index} va ser {rolled}, però la llavor del servidor i les dels llocs donen {due}",
      not_record: "no és un registre: {error}",
      no_crypto: "aquest navegador no té WebCrypto aquí",
    },
  };
  function say(lang, key, args = {}) {
    const text = (WORDS[lang] && WORDS[lang][key]) || WORDS.en[key] || key;
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in args ? String(args[name]) : all));
  }

  // {ok: true, count, scheme, digest} when every roll follows from the seeds, else {ok: false, reason}.
  async function checkRecord(record) {
    const fail = (code, args = {}) => ({ ok: false, code, args, reason: say("en", code, args) });
    const dice = record && record.meta && record.meta.dice;
    if (!dice || typeof dice !== "object") return fail("no_dice");
    if (dice.scheme !== V1 && dice.scheme !== V2) return fail("scheme", { scheme: JSON.stringify(dice.scheme), v1: V1, v2: V2 });
    if (typeof dice.seed_sha256 !== "string") return fail("no_digest");
    if (typeof dice.seed !== "string") return fail("no_seed");
    const seed = unhex(dice.seed);
    if (!seed) return fail("seed_hex");
    const actual = hex(await sha256(seed));
    if (actual !== dice.seed_sha256.toLowerCase()) return fail("digest", { actual, published: dice.seed_sha256 });
    let key = seed;
    if (dice.scheme === V2) {
      const players = Array.isArray(record.players) ? record.players.length : 0;
      if (!Array.isArray(dice.seeds) || dice.seeds.length !== players) return fail("seeds_count", { players });
      const own = await hmacKey(seed);
      const seats = [];
      for (const [seat, item] of dice.seeds.entries()) {
        const raw = unhex(item && item.seed);
        if (!item || item.seat !== seat || !raw || raw.length < 16 || raw.length > 32) return fail("seat_seed", { seat });
        if (item.by === "server" && hex(await sign(own, `robinson seat seed/${seat}`)) !== hex(raw)) {
          return fail("server_seed", { seat });
        }
        seats.push(raw);
      }
      key = await seedsKey(seed, seats);
    }
    const rolls = (Array.isArray(record.actions) ? record.actions : []).filter((a) => a && typeof a === "object" && "roll" in a).map((a) => a.roll);
    const due = await faces(key, rolls.length);
    const bad = rolls.findIndex((r, i) => r !== due[i]);
    const code = dice.scheme === V2 ? "roll_v2" : "roll_v1";
    if (bad >= 0) return fail(code, { index: bad, rolled: rolls[bad], due: due[bad] });
    return { ok: true, count: rolls.length, scheme: dice.scheme, digest: dice.seed_sha256 };
  }

  globalThis.RobinsonDice = { checkRecord, say, V1, V2 };

  // verify.html: a record file in, the verdict out, in the language of ?lang= or the browser's.
  const input = typeof document === "undefined" ? null : document.getElementById("record-file");
  if (!input) return;
  const out = document.getElementById("result");
  const asked = new URLSearchParams(location.search).get("lang");
  const lang = [asked, ...(navigator.languages || [])].map((l) => (l || "").slice(0, 2)).find((l) => l in WORDS) || "en";
  document.documentElement.lang = lang;
  document.title = say(lang, "title");
  for (const node of document.querySelectorAll("[data-say]")) node.textContent = say(lang, node.dataset.say);
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    out.textContent = "…";
    let verdict;
    if (!globalThis.crypto || !crypto.subtle) verdict = { ok: false, code: "no_crypto", args: {} };
    else {
      try {
        verdict = await checkRecord(JSON.parse(await file.text()));
      } catch (e) {
        verdict = { ok: false, code: "not_record", args: { error: e.message } };
      }
    }
    out.dataset.ok = String(verdict.ok);
    out.textContent = verdict.ok
      ? say(lang, "ok", { file: file.name, count: verdict.count, digest: verdict.digest, scheme: verdict.scheme })
      : say(lang, "failed", { file: file.name, reason: say(lang, verdict.code, verdict.args) });
  });
})();
