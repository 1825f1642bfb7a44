"""The catalogs: complete in every language, consistent fields, correct plural rules."""

from __future__ import annotations

import string

import pytest

from robinson.engine import RobinsonError
from robinson.i18n import LANGUAGES, Translator, default_language, edition_for_language
from robinson.i18n.catalogs import load_catalog, message_keys


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_languages_are_the_four() -> None:
    assert LANGUAGES == ("lv", "cs", "ca", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang: str) -> None:
    assert message_keys(lang) == message_keys("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_not_fuzzy(lang: str) -> None:
    for message in load_catalog(lang):
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{lang}: {message.id} has an empty translation"


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_translations_use_the_same_fields_as_english(lang: str) -> None:
    english = {m.id: m.string for m in load_catalog("en") if m.id}
    for message in load_catalog(lang):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        ref = english[message.id]
        expected = fields(ref[0] if isinstance(ref, tuple) else ref)
        for form in forms:
            assert fields(form) == expected, f"{lang}: {message.id}: {form!r}"


@pytest.mark.parametrize(("lang", "nplurals"), [("lv", 3), ("cs", 3), ("ca", 2), ("en", 2)])
def test_plural_forms_header(lang: str, nplurals: int) -> None:
    catalog = load_catalog(lang)
    assert catalog.num_plurals == nplurals
    assert f"nplurals={nplurals};" in dict(catalog.mime_headers)["Plural-Forms"]


def test_latvian_token_plurals() -> None:
    t = Translator("lv")
    got = {n: t.tokens(n) for n in (1, 2, 0, 21, 11)}
    assert got == {
        1: "1 žetonu",
        2: "2 žetonus",
        0: "0 žetonu",
        21: "21 žetonu",
        11: "11 žetonus",
    }
    # The three forms really are three: 1 and 21 share one, 2 and 11 another, 0 the third.
    forms = {n: t.ngettext("n.tokens", "n.tokens.plural", n) for n in (1, 2, 0)}
    assert len(set(forms.values())) == 2  # forms 0 and 2 read alike in the accusative...
    turns = {n: t.nformat("event.skips_left", n) for n in (1, 2, 0)}
    assert len(set(turns.values())) == 3  # ...but not in the nominative


def test_czech_token_plurals() -> None:
    t = Translator("cs")
    assert [t.tokens(n) for n in (1, 2, 5)] == ["1 žeton", "2 žetony", "5 žetonů"]


def test_english_and_catalan_plurals() -> None:
    assert [Translator("en").tokens(n) for n in (1, 2, 0)] == ["1 token", "2 tokens", "0 tokens"]
    assert [Translator("ca").tokens(n) for n in (1, 2)] == ["1 fitxa", "2 fitxes"]


def test_unknown_language_names_the_four_codes() -> None:
    with pytest.raises(RobinsonError, match="lv, cs, ca, en"):
        Translator("de")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "lv_LV.UTF-8"}, "lv"),
        ({"LANG": "cs_CZ.UTF-8", "LC_ALL": "ca_ES.UTF-8"}, "ca"),
        ({"LANGUAGE": "de:cs", "LANG": "lv_LV.UTF-8"}, "cs"),
        ({"LC_MESSAGES": "ca_ES@valencia", "LANG": "C"}, "ca"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_default_language_from_the_locale(environ: dict[str, str], expected: str) -> None:
    assert default_language(environ) == expected


def test_edition_for_language() -> None:
    assert [edition_for_language(x) for x in (*LANGUAGES, "de")] == [
        "lv",
        "cs",
        "ca",
        "standard",
        "standard",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ui_strings_cover_labels_and_options(lang: str) -> None:
    strings = Translator(lang).ui_strings()
    for key in ("ui.bank", "ui.roll", "option.restart", "option.jump", "square.45.title"):
        assert strings[key] and strings[key] != key


def test_catalan_elides_de_before_a_vowel() -> None:
    t = Translator("ca")
    assert t.format("event.friday_released", friday="Bernat", master="Anna") == (
        "Bernat ja no és el Divendres d’Anna."
    )
    assert t.format("event.friday_released", friday="Anna", master="Bernat") == (
        "Anna ja no és el Divendres de Bernat."
    )


def test_names_with_braces_are_safe() -> None:
    assert Translator("en").format("event.rolled", name="{x}", face=3) == "{x} rolls 3."
