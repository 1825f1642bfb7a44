"""Issue 20: the rows of the wording review (../shared/reviews/wording-review.md) that were fixed
by rewording one message, held here by the words that fixed them. The rows a class of tests holds
(terms, register, narration said once, typography, errors, the web table) are in those tests
(docs/texts.md, "The wording review, row by row")."""

from __future__ import annotations

import pytest

from robinson.i18n import Translator

# (row, language, message key, words the fixed text holds, words it must no longer hold)
ROWS = [
    ("L3", "lv", "effect.12.skip", "nākamo gājienu", "vienu metienu"),
    ("L6", "lv", "report.purses.note", "{bound} spēļu kāds kļūst par Piektdieni", "piesaistīts"),
    ("L7", "lv", "cli.error.start_tokens", "nevar būt negatīvs", "nevis"),
    ("L8", "lv", "summary.choices.optional", "Uz lauciņiem 4 (kuģa avārija)", "pie maizes"),
    ("L9", "lv", "cli.starts", "neviens nav jaunāks", "mazākais vecums"),
    ("L12", "lv", "web.home.heading", "Sacīkstes ar kauliņu", "Metamā kauliņa"),
    ("L13", "lv", "web.bot.heuristic.about", "principiem", "īkšķa"),
    ("L14", "lv", "web.bot.random.about", "viegls pretinieks", "maigs"),
    ("L15", "lv", "web.hotseat", "šajā ierīcē", "uz šīs ierīces"),
    ("L16", "lv", "web.sound", "mans gājiens", "Skaņa, kad mans gājiens"),
    ("L18", "lv", "report.heatmap.caption", "Cik reižu figūras nonāk", "Nonākšanas reizes"),
    ("L19", "lv", "web.rolls_ok", "Visi metieni ({n})", "{n} metiens atbilst"),
    ("C3", "cs", "effect.12.skip", "Příští kolo vynecháš.", "Jeden hod"),
    ("C4", "cs", "effect.7.skip", "příští kolo vynecháš", "vynecháváš"),
    ("C5", "cs", "report.rest.length", "ještě {mean} kola", "{mean} kol "),
    ("C10", "cs", "ui.waiting", "Na tahu je {name}", "Čeká se na:"),
    ("C11", "cs", "web.go_home", "Zpět na úvodní stránku – založit nový stůl", "a založit"),
    ("A5", "ca", "cli.error.kind", "les opcions vàlides són {known}", "val {known}"),
    ("A5", "ca", "cli.error.choice", "cal respondre {choices}", "val {choices}"),
    ("A10", "ca", "report.decision.note", "suposen que tria", "trien"),
    ("A11", "ca", "web.error.not_over", "estarà disponible quan s’acabi", "Això arriba"),
    ("A12", "ca", "web.bot.random.about", "un rival fàcil", "amable"),
    ("A13", "ca", "web.take_back", "Recupera el teu lloc", "el meu"),
    ("A14", "ca", "ui.waiting", "Ara juga {name}", "Esperant"),
    ("A16", "ca", "web.home.about", "segueix els passos de Robinson", "segueix Robinson"),
    ("A17", "ca", "report.lengths.note", "són el mateix joc", "la mateixa partida"),
    ("A18", "ca", "report.rest.length", "percentil 90: {p90}", "percentil 90 {p90}"),
    ("A18", "lv", "report.rest.length", "90. procentile: {p90}", "procentile {p90}"),
    ("A18", "cs", "report.rest.length", "90. percentil: {p90}", "percentil {p90}"),
    ("6", "lv", "web.rules.token_words", "“zīmes”", "\0"),
    ("6", "ca", "web.rules.token_words", "«marques»", "\0"),
    ("6", "cs", "lead.rescue", "od každého z ostatních hráčů", "od každého dalšího"),
    ("7", "en", "square.17.effect", "the parrot say together", "say together with"),
    ("7", "en", "square.29.effect", "your Friday pays the cashier 1 token too", "always"),
]  # fmt: skip


@pytest.mark.parametrize(("row", "lang", "key", "holds", "gone"), ROWS)
def test_review_row_is_fixed(row: str, lang: str, key: str, holds: str, gone: str) -> None:
    text = Translator(lang).gettext(key)
    assert holds in text, (row, text)
    assert gone not in text, (row, text)
