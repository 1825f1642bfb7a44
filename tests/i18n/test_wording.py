"""Issue 12's wording, in every language, from positions the engine really plays: a swap of three
on the ship (36), a shortfall, the bounce off 45, the bread (20) choice told once, and death on the
gallows (42) told without a gender."""

from __future__ import annotations

import pytest

from robinson.engine import Choose, Reason, Roll, apply, from_text
from robinson.engine import events as ev
from robinson.engine.events import Event
from robinson.i18n import LANGUAGES, Translator

from .games import NAMES


def events_of(text: str, *actions: Roll | Choose) -> list[Event]:
    """The events of `actions` played from a position in the one-line text form."""
    state, out = from_text(text), []
    for action in actions:
        state, events = apply(state, action)
        out.extend(events)
    return out


# Square 36: Anna (seat 0) rolls 6 from 30 while Bruno and Ēriks both stand on 41.
SWAP_OF_THREE = events_of("standard,30,10,half 0 0r 30/5 41/5 41/5", Roll(6))
SWAP_LINES = {
    "lv": "Anna ierauga kuģi un mainās vietām ar spēlētājiem Bruno un Ēriks.",
    "cs": "Anna vidí loď a mění si místo s hráči Bruno a Ēriks.",
    "ca": "Anna veu el vaixell i intercanvia el lloc amb Bruno i Ēriks.",
    "en": "Anna sees the ship and changes places with Bruno and Ēriks.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_36_swap_of_three_says_and_once(lang: str) -> None:
    t = Translator(lang)
    swapped = next(e for e in SWAP_OF_THREE if isinstance(e, ev.Swapped))
    assert swapped.others == (1, 2)
    line = t.narrate(swapped, NAMES[:3])
    assert line == SWAP_LINES[lang]
    word_and = t.gettext("word.and")
    assert f"Bruno {word_and} Ēriks" in line  # the list has its "and" once, before the last
    assert f"{word_and} Bruno" not in line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_36_swap_of_two_names_the_other_in_the_singular(lang: str) -> None:
    [swapped] = [
        e
        for e in events_of("standard,30,10,half 0 0r 30/5 41/5", Roll(6))
        if isinstance(e, ev.Swapped)
    ]
    assert Translator(lang).narrate(swapped, NAMES[:2]) == SWAP_ONE_LINES[lang]


SWAP_ONE_LINES = {
    "lv": "Anna ierauga kuģi un mainās vietām ar spēlētāju Bruno.",
    "cs": "Anna vidí loď a mění si místo s hráčem Bruno.",
    "ca": "Anna veu el vaixell i intercanvia el lloc amb Bruno.",
    "en": "Anna sees the ship and changes places with Bruno.",
}


SHORT_LINES = {
    "lv": "Anna iemaksā bankā 1 žetonu (pienācās 3 žetoni).",
    "cs": "Anna platí do banku 1 žeton (měly to být 3 žetony).",
    "ca": "Anna paga 1 fitxa al pot (calien 3 fitxes).",
    "en": "Anna pays 1 token into the bank (3 tokens were due).",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shortfall_note_sits_inside_the_sentence(lang: str) -> None:
    # Square 8 costs 3; Anna has 1 token (rule 6.1: she pays what she has).
    events = events_of("standard,30,10,half 30 0r 5/1 10/5", Roll(3))
    [paid] = [e for e in events if isinstance(e, ev.Transfer)]
    assert (paid.amount, paid.owed, paid.reason) == (1, 3, Reason.SQUARE)
    line = Translator(lang).narrate(paid, NAMES[:2])
    assert line == SHORT_LINES[lang]
    assert ". (" not in line and line.endswith(").")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_skips_left_note_sits_inside_the_sentence(lang: str) -> None:
    line = Translator(lang).narrate(ev.Skipped(0, 1), NAMES)
    assert ". (" not in line and line.endswith(").")


BOUNCE_LINES = {
    "lv": "Metiens pārsniedz 45 par 2 lauciņiem, tāpēc Anna atlec atpakaļ uz Nr.\u00a043: "
    "Atvadas no salas.",
    "cs": "Hod přesahuje 45 o 2 pole, a tak se Anna vrací zpět na pole 43: Odjezd z ostrova.",
    "ca": "La tirada es passa 2 caselles del 45 i Anna retrocedeix fins al núm.\u00a043: "
    "Adeu a l’illa.",
    "en": "The roll goes 2 squares past 45, so Anna bounces back to square 43: "
    "Farewell to the island.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bounce_off_45_says_it_bounced_and_where(lang: str) -> None:
    # Anna on 44 rolls 3: 45, then back 2 to 43.
    events = events_of("standard,30,10,half 30 0r 44/5 10/5", Roll(3))
    t = Translator(lang)
    lines = t.narrate_all(events, NAMES[:2])
    assert BOUNCE_LINES[lang] in lines
    # The move is not told a second time ("moves from 44 to square 43").
    moved = next(e for e in events if isinstance(e, ev.Moved))
    assert t.narrate(moved, NAMES[:2]) not in lines
    assert len(lines) == 3  # the roll, the bounce, whose turn it is


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bounce_back_to_the_same_square(lang: str) -> None:
    # Anna on 44 rolls 2: 45, then back 1 to 44 (the case the issue quotes).
    events = events_of("standard,30,10,half 30 0r 44/5 10/5", Roll(2))
    lines = Translator(lang).narrate_all(events, NAMES[:2])
    assert [line for line in lines if "44" in line] == [lines[1]]
    assert "45" in lines[1]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", ["standard", "classic"])
def test_square_20_bread_choice_told_once(lang: str, edition: str) -> None:
    # Anna lands on 20 from 17; in standard she chooses to bake again, in classic she must.
    actions: list[Roll | Choose] = [Roll(3)] + ([Choose("again")] if edition == "standard" else [])
    t = Translator(lang)
    events = events_of(f"{edition},30,10,half 30 0r 17/5 10/5", *actions)
    lines = t.narrate_all(events, NAMES[:2])
    again = t.format("event.extra_roll.20", name="Anna")
    assert lines.count(again) == 1
    assert t.format("event.chose.20.again", name="Anna") not in lines
    # The lines per event agree with the joined form.
    assert [x for x in t.narrate_each(events, NAMES[:2]) if x] == lines


def test_square_20_stopping_is_still_told() -> None:
    t = Translator("en")
    events = events_of("standard,30,10,half 30 0r 17/5 10/5", Roll(3), Choose("stop"))
    assert "Anna does not roll again." in t.narrate_all(events, NAMES[:2])


DEATH_LINES = {
    "lv": "Anna uz Nr.\u00a042 mirst un ir ārā no spēles.",
    "cs": "Anna na poli 42 umírá a vypadává ze hry.",
    "ca": "Anna mor al núm.\u00a042 i queda fora del joc.",
    "en": "Anna dies on square 42: out of the game.",
}
DEAD_LABELS = {
    "lv": "Ārā no spēles",
    "cs": "Mimo hru",
    "ca": "Fora del joc",
    "en": "Out of the game",
}
# Words that would give the dead player a gender (masculine or feminine forms).
GENDERED = {
    "lv": ("miris", "mirusi", "Miris"),
    "cs": ("mrtev", "mrtvá", "Mrtev", "mrtvý"),
    "ca": ("és mort", "és morta", "Mort", "Morta"),
    "en": (" his ", " her "),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_42_death_is_gender_neutral(lang: str) -> None:
    events = events_of("standard,30,10,half 0 0r 42/5 10/5", Roll(6))
    [died] = [e for e in events if isinstance(e, ev.Died)]
    t = Translator(lang)
    line = t.narrate(died, NAMES[:2])
    assert line == DEATH_LINES[lang]
    assert t.gettext("ui.dead") == DEAD_LABELS[lang]
    for word in GENDERED[lang]:
        assert word not in f" {line} " and word != t.gettext("ui.dead")


@pytest.mark.parametrize(
    ("lang", "key", "expected"),
    [
        ("lv", "square.28.title", "Piektdieņa glābšana"),
        ("lv", "square.29.title", "Piektdieņa zvērests"),
        ("lv", "square.30.title", "Piektdieņa mācības"),
        ("lv", "square.33.title", "Piektdieņa tēvs"),
        ("lv", "summary.fever.skip", "Drudža dēļ (12) jāizlaiž viens gājiens."),
        ("lv", "summary.edition.standard", "Izdevums: standarta noteikumi."),
        ("cs", "ui.skips", "Kola k vynechání"),
        ("cs", "event.chose.4.restart", "{name} se rozhodne začít znovu od začátku."),
        ("cs", "event.transfer.friday", "{payer} platí {amount} hráči {payee} a slibuje věrnost."),
        ("ca", "prompt.over", "La partida s’ha acabat."),
        ("en", "square.32.effect",
         "You and your Friday each receive 1 token from every other player."),
        ("en", "square.42.story",
         "The instigator of the mutiny is hanged from the branch of a tree."),
    ],
)  # fmt: skip
def test_issue_12_wording(lang: str, key: str, expected: str) -> None:
    assert Translator(lang).gettext(key) == expected


def test_catalan_wording() -> None:
    t = Translator("ca")
    assert "permeten que el jugador triï" in t.gettext("summary.choices.optional")
    assert t.nformat("event.transfer.short", 3) == "(calien 3 fitxes)"
    # One game is "la partida" everywhere in Catalan, never "el joc" (the game in general).
    for key in ("prompt.over", "event.game_over.winner", "event.game_over.none", "ui.game_over"):
        assert "partida" in t.gettext(key) and "joc" not in t.gettext(key), key


def test_english_says_his_friday_everywhere() -> None:
    t = Translator("en")
    texts = [t.gettext(k) for k in t.ui_strings()]
    assert not any("their Friday" in x for x in texts)
    line = t.narrate(ev.Transfer(0, 1, 4, 4, Reason.FRIDAY_SHARE), NAMES)
    assert line == "Anna gives a third, 4 tokens, to his Friday, Bruno."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_templates_that_take_a_note_end_with_their_full_stop(lang: str) -> None:
    t = Translator(lang)
    keys = [k for k in t.ui_strings() if k.startswith(("event.transfer.", "event.will_skip."))]
    for key in [*keys, "event.skipped"]:
        assert t.gettext(key)[-1] in ".!", (lang, key)
