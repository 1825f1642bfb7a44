"""Issue 20: narration that says each thing once and says it right, in every language, from
positions the engine really plays: a three-way swap on the ship (36), a death on the gallows (42),
paying from an empty purse, receiving from an empty bank, and the first move from the Start."""

from __future__ import annotations

import re

import pytest

from robinson.engine import Roll, apply, from_text
from robinson.engine import events as ev
from robinson.engine.events import Event
from robinson.i18n import LANGUAGES, Translator

NAMES = ("Anna", "Bruno", "Ēriks")


def lines_of(lang: str, text: str, face: int) -> tuple[list[str], tuple[Event, ...]]:
    """The narrated lines of one roll from a position in the one-line text form."""
    _, events = apply(from_text(text), Roll(face))
    return Translator(lang).narrate_all(events, NAMES), events


# Anna (seat 0) rolls 6 from 30 onto the ship while Bruno and Ēriks both stand on 41.
SWAP_OF_THREE = {
    "lv": [
        "Anna uzmet 6.",
        "Anna iet no Nr.\u00a030 uz Nr.\u00a036: Kuģis.",
        "Anna ierauga kuģi un mainās vietām ar spēlētājiem Bruno un Ēriks.",
        "Gājiens: Bruno.",
    ],
    "cs": [
        "Anna hodí 6.",
        "Anna jde z pole 30 na pole 36: Loď.",
        "Anna vidí loď a mění si místo s hráči Bruno a Ēriks.",
        "Na tahu: Bruno.",
    ],
    "ca": [
        "Anna treu un 6.",
        "Anna va del 30 al núm.\u00a036: El vaixell.",
        "Anna veu el vaixell i intercanvia el lloc amb Bruno i Ēriks.",
        "Torn: Bruno.",
    ],
    "en": [
        "Anna rolls 6.",
        "Anna moves from 30 to square 36: The ship.",
        "Anna sees the ship and changes places with Bruno and Ēriks.",
        "Bruno's turn.",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_36_swap_of_three_is_told_once_where_it_happens(lang: str) -> None:
    lines, events = lines_of(lang, "standard,30,10,half 0 0r 30/5 41/5 41/5", 6)
    swap_moves = [e for e in events if isinstance(e, ev.Moved) and e.cause == "swap"]
    assert len(swap_moves) == 3  # the engine moves all three pawns...
    assert lines == SWAP_OF_THREE[lang]  # ...and the swap is one line, before whose turn it is
    t = Translator(lang)
    for move in swap_moves:
        assert t.narrate(move, NAMES) not in lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_36_lines_per_event_keep_one_entry_per_event(lang: str) -> None:
    _, events = apply(from_text("standard,30,10,half 0 0r 30/5 41/5 41/5"), Roll(6))
    t = Translator(lang)
    each = t.narrate_each(events, NAMES)
    assert len(each) == len(events)
    [swapped_at] = [i for i, e in enumerate(events) if isinstance(e, ev.Swapped)]
    first_swap_move = next(
        i for i, e in enumerate(events) if isinstance(e, ev.Moved) and e.cause == "swap"
    )
    assert each[first_swap_move] == SWAP_OF_THREE[lang][2] and each[swapped_at] == ""


DEATH = {
    "lv": ["Anna uzmet 6.", "Anna uz Nr.\u00a042 mirst un ir ārā no spēles.", "Gājiens: Bruno."],
    "cs": ["Anna hodí 6.", "Anna na poli 42 umírá a vypadává ze hry.", "Na tahu: Bruno."],
    "ca": ["Anna treu un 6.", "Anna mor al núm.\u00a042 i queda fora del joc.", "Torn: Bruno."],
    "en": ["Anna rolls 6.", "Anna dies on square 42: out of the game.", "Bruno's turn."],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_42_death_does_not_repeat_the_roll(lang: str) -> None:
    lines, _ = lines_of(lang, "standard,30,10,half 0 0r 42/5 10/5", 6)
    assert lines == DEATH[lang]
    assert "6" not in lines[1]  # the roll is told once, by its own line


EMPTY_PURSE = {
    "lv": "Anna nevar samaksāt: maks ir tukšs (pienācās 3 žetoni).",
    "cs": "Anna nemá čím zaplatit (měly to být 3 žetony).",
    "ca": "Anna no té fitxes per pagar (calien 3 fitxes).",
    "en": "Anna cannot pay: the purse is empty (3 tokens were due).",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_8_from_an_empty_purse_is_not_a_payment_of_0(lang: str) -> None:
    lines, events = lines_of(lang, "standard,30,10,half 30 0r 5/0 10/5", 3)
    [paid] = [e for e in events if isinstance(e, ev.Transfer)]
    assert (paid.amount, paid.owed) == (0, 3)
    assert lines[2] == EMPTY_PURSE[lang]
    assert Translator(lang).tokens(0) not in " ".join(lines)


EMPTY_PURSE_TO_A_PLAYER = {
    "lv": "Anna nevar samaksāt spēlētājam Bruno: maks ir tukšs (pienācās 2 žetoni).",
    "cs": "Anna nemá čím zaplatit hráči Bruno (měly to být 2 žetony).",
    "ca": "Anna no té fitxes per pagar a Bruno (calien 2 fitxes).",
    "en": "Anna cannot pay Bruno: the purse is empty (2 tokens were due).",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_10_goat_from_an_empty_purse_names_who_goes_without(lang: str) -> None:
    lines, _ = lines_of(lang, "standard,30,10,half 30 0r 6/0 10/5", 4)
    assert EMPTY_PURSE_TO_A_PLAYER[lang] in lines


EMPTY_BANK = {
    "lv": "Anna nesaņem neko: banka ir tukša (pienācās 1 žetons).",
    "cs": "Anna nedostává nic: bank je prázdný (mělo to být 1 žeton).",
    "ca": "Anna no rep res: el pot és buit (li’n tocava 1).",
    "en": "Anna gets nothing: the bank is empty (1 token was due).",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_3_from_an_empty_bank_is_not_a_receipt_of_0(lang: str) -> None:
    lines, _ = lines_of(lang, "standard,30,10,half 0 0r 0/5 10/5", 3)
    assert lines[2] == EMPTY_BANK[lang]


def test_catalan_receipt_short_of_its_due_is_not_what_was_needed() -> None:
    # The bank holds 1; square 18 owes 4. "calien" (were needed) is a payment's word.
    lines, _ = lines_of("ca", "standard,30,1,half 1 0r 15/5 10/5", 3)
    assert "Anna rep 1 fitxa del pot (li’n tocaven 4)." in lines


FROM_THE_START = {
    "lv": "Anna iet no starta uz Nr.\u00a02: Ceļā.",
    "cs": "Anna jde ze startu na pole 2: Na moři.",
    "ca": "Anna va de la sortida al núm.\u00a02: A la mar.",
    "en": "Anna moves from the start to square 2: Setting sail.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_first_move_leaves_the_start_not_square_0(lang: str) -> None:
    lines, _ = lines_of(lang, "standard,30,10,half 30 0r 0/5 10/5", 2)
    assert lines[1] == FROM_THE_START[lang]
    assert " 0 " not in f" {lines[1]} "


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_names_a_square_0(lang: str) -> None:
    """The board has a Start, not a square 0 (the classic wreck line said "(square 0)")."""
    square_0 = re.compile(r"(Nr\.|núm\.|pole|square)[\s\u00a0]0\b", re.I)
    for key, text in Translator(lang).ui_strings().items():
        assert not square_0.search(text), (key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_move_home_is_told_by_the_win(lang: str) -> None:
    # Anna on 43 rolls 2: home. "moves from 43 to square 45" and "reaches home on square 45"
    # said the same thing twice (read in a replay).
    lines, events = lines_of(lang, "standard,30,10,half 30 0r 43/5 10/5", 2)
    t = Translator(lang)
    [moved] = [e for e in events if isinstance(e, ev.Moved)]
    assert t.narrate(moved, NAMES) not in lines
    assert lines[1] == t.format("event.won", name="Anna")
    assert sum("45" in line for line in lines) == 1


# Anna (seat 0) rolls 2 from 43 home while Bruno and Ēriks both stand on 40: the half of the
# bank (30) is shared between the two nearest, 7 tokens each.
NEAREST_TIED = {
    "lv": "Anna atdod 7 žetonus katram no vistuvākajiem dalībniekiem: Bruno un Ēriks.",
    "cs": "Anna dává 7 žetonů každému z nejbližších hráčů (Bruno a Ēriks).",
    "ca": "Anna dona 7 fitxes per cap a qui té més a prop: Bruno i Ēriks.",
    "en": "Anna gives 7 tokens each to the nearest players, Bruno and Ēriks.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_square_45_half_shared_by_two_equally_near_is_told_once(lang: str) -> None:
    """Issue 20, found by reading a web game: "gives 7 tokens to Dāvis, the nearest player"
    then "gives 7 tokens to Bruno, the nearest player" named two players "the nearest"."""
    lines, events = lines_of(lang, "standard,30,10,half 30 0r 43/20 40/20 40/20", 2)
    shares = [e for e in events if isinstance(e, ev.Transfer) and e.reason.value == "nearest_share"]
    assert [e.amount for e in shares] == [7, 7]
    assert NEAREST_TIED[lang] in lines
    nearest = Translator(lang).gettext("event.transfer.nearest_share").split("{payee}")[0][-8:]
    assert not [line for line in lines if nearest in line], lines
    each = Translator(lang).narrate_each(events, NAMES)
    assert len(each) == len(events) and each.count("") >= 2  # one entry per event still
    you = Translator(lang).narrate_each_you(events, NAMES)  # told to Anna, who shares
    assert len([line for line in you if "Bruno" in line and "Ēriks" in line]) == 1, you
