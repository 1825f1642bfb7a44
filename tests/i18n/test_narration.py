"""Every event kind of the engine is narrated in every language, from real games."""

from __future__ import annotations

import inspect
import re

import pytest

from robinson.engine import EDITIONS, Reason, Ruleset, from_text, new_game
from robinson.engine import events as ev
from robinson.engine.events import Event
from robinson.i18n import LANGUAGES, Translator

from .games import NAMES, from_position, play

EVENT_KINDS = {
    cls.kind
    for _, cls in inspect.getmembers(ev, inspect.isclass)
    if issubclass(cls, Event) and cls is not Event
}
RAW_KEY = re.compile(r"\b(?:event|square|ui|n|effect|option|prompt)\.[a-z0-9_.]+")

# Positions (one-line text form) for events that random games reach only rarely.
RARE = [
    ("standard,30,10,half 0 0r 42/5 42/5/x", (6,)),  # death, game over without a winner
    ("standard,30,10,half 0 0r 42/5/f1 10/5 20/5", (6,)),  # death releases a Friday
    ("standard,30,10,half 0 0r 30/5 41/5 41/5", (6,)),  # the ship: swap with two on 41
    ("standard,30,10,half 0 2r 10/5 10/5 28/5/f0", (1,)),  # a new Friday replaces an old one
    ("standard,30,10,half 0 0r 5/0/f1 10/0", (3,)),  # paying with an empty purse, and duty
    ("standard,30,10,half 0 0r 2/0/f1 10/0", (1,)),  # an empty bank pays nothing, duty too
    ("standard,30,10,half 5 0r 16/3 10/3", (1,)),  # the parrot's chorus
    ("classic,30,10,half 5 0r 3/3 10/3", (4,)),  # the tree costs a turn when compulsory
]


def all_events() -> list[tuple[Event, int]]:
    """(event, number of seats) from random games in every edition and from RARE positions."""
    out: list[tuple[Event, int]] = []
    seed = 0
    for edition in EDITIONS:
        for players in (2, 3, 5):
            for bot in ("random", "heuristic"):
                seed += 1
                out.extend((e, players) for _, e in play(Ruleset(edition), players, seed, bot))
    for text, faces in RARE:
        out.extend((e, len(from_text(text).players)) for e in from_position(text, *faces))
    return out


EVENTS = all_events()


def test_games_cover_every_event_kind_and_reason() -> None:
    assert {e.kind for e, _ in EVENTS} == EVENT_KINDS
    reasons = {e.reason for e, _ in EVENTS if isinstance(e, ev.Transfer)}
    assert reasons == set(Reason)
    assert any(isinstance(e, ev.Transfer) and e.amount < e.owed for e, _ in EVENTS)
    assert any(isinstance(e, ev.BecameFriday) and e.replaced is not None for e, _ in EVENTS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_reads_as_a_sentence(lang: str) -> None:
    t = Translator(lang)
    for event, players in EVENTS:
        text = t.narrate(event, NAMES[:players])
        assert text.strip(), event
        assert "{" not in text and "}" not in text, text
        assert not RAW_KEY.search(text), (event, text)


def test_chorus_in_each_language() -> None:
    chorus = ev.Chorus(0)
    assert [Translator(x).narrate(chorus, NAMES) for x in LANGUAGES] == [
        "Visi: “Nabaga Robinsons!”",
        "Všichni: „Ubohý Robinson!“",
        "Tots: «Pobre Robinson!»",
        "Everyone: “Poor Robinson!”",
    ]


def test_transfers_name_payer_payee_and_amount() -> None:
    en = Translator("en")
    t = ev.Transfer
    cases = {
        t(0, None, 1, 1, Reason.TRAVEL): "Anna pays 1 token into the bank as travel money.",
        t(None, 1, 2, 2, Reason.SQUARE): "Bruno receives 2 tokens from the bank.",
        t(1, None, 1, 1, Reason.DUTY): "Bruno, as Friday, pays 1 token into the bank.",
        t(0, 2, 2, 2, Reason.NEIGHBOUR): (
            "Anna pays 2 tokens to the right-hand neighbour, Ēriks, for the goat."
        ),
        t(2, 0, 1, 1, Reason.RESCUE): "Ēriks pays 1 token to Anna for the rescue.",
    }
    for event, expected in cases.items():
        assert en.narrate(event, NAMES) == expected
    short = en.narrate(t(0, None, 1, 3, Reason.SQUARE), NAMES)
    assert short == "Anna pays 1 token into the bank (3 tokens were due)."
    lv = Translator("lv").narrate(t(None, 0, 0, 2, Reason.SQUARE), NAMES)
    assert lv == "Anna nesaņem neko: banka ir tukša (pienācās 2 žetoni)."
    cs = Translator("cs").narrate(t(2, 0, 5, 5, Reason.NEAREST_SHARE), NAMES)
    assert cs == "Ēriks dává 5 žetonů nejbližšímu hráči (Anna)."


def test_prompts_name_the_roll() -> None:
    state = from_text("standard,30,10,half 30 0w5 4/20/m 3/20")
    assert Translator("en").prompt(state, NAMES) == (
        "Anna rolled 5 after the shipwreck: start again from the beginning (to square 5) "
        "or move on from square 4 (to square 9)?"
    )
    tree = from_text("standard,30,10,half 30 1t3 4/20 7/20")
    assert "3" in Translator("lv").prompt(tree, NAMES) and "10" in Translator("lv").prompt(
        tree, NAMES
    )
    assert Translator("ca").prompt(new_game(2), NAMES) == "Anna, tira el dau."


def test_option_labels() -> None:
    t = Translator("cs")
    assert [t.option(o) for o in ("restart", "move", "stay", "again", "stop", "jump")] == [
        "Začít od začátku",
        "Jít dál",
        "Zůstat",
        "Hodit znovu",
        "Stačí",
        "Plout na 27",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phase_has_a_prompt(lang: str) -> None:
    t = Translator(lang)
    positions = [
        "standard,30,10,half 30 0r 0/20 0/20",
        "standard,30,10,half 30 0w2 4/20/m 3/20",
        "standard,30,10,half 30 1t6 4/20 7/20",
        "standard,30,10,half 30 0b 20/20 3/20",
        "standard,30,10,half 30 1c 20/20 23/20",
        "standard,0,0,half 0 #1 20/0 45/0",
    ]
    prompts = [t.prompt(from_text(p), NAMES[:2]) for p in positions]
    assert len(set(prompts)) == len(prompts)
    for text in prompts:
        assert text and "{" not in text and not RAW_KEY.search(text)
    assert "13" in prompts[2]  # the tree: 7 + 6 is where moving leads
    assert [label for _, label in t.options(from_text(positions[3]))] == [
        t.option("again"),
        t.option("stop"),
    ]


def action_runs() -> list[tuple[tuple[Event, ...], int]]:
    """Each action's events (a run, as narrated) from seeded games of every edition and from
    the RARE positions, with the number of seats."""
    runs: list[tuple[tuple[Event, ...], int]] = []
    for seed, edition in enumerate(EDITIONS):
        for players in (2, 4):
            run: list[Event] = []
            last = None
            for before, e in play(Ruleset(edition), players, 100 + seed, "heuristic"):
                if before is not last and run:
                    runs.append((tuple(run), players))
                    run = []
                last = before
                run.append(e)
            runs.append((tuple(run), players))
    for text, faces in RARE:
        runs.append((tuple(from_position(text, *faces)), len(from_text(text).players)))
    runs.append((tuple(from_position("standard,30,10,half 30 0r 43/20 40/20 40/20", 2)), 3))
    return runs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_both_persons_in_one_pass_say_what_each_pass_says(lang: str) -> None:
    """The web narrates every move in the third and the second person at once
    (`narrate_both`): line for line what `narrate_each` and `narrate_each_you` say."""
    t = Translator(lang)
    runs = action_runs()
    assert any(isinstance(e, ev.Swapped) for run, _ in runs for e in run)
    assert sum(len(run) for run, _ in runs) > 300
    for run, players in runs:
        names = NAMES[:players]
        assert t.narrate_both(run, names) == (
            t.narrate_each(run, names),
            t.narrate_each_you(run, names),
        ), run
