"""The parts of the terminal game, in process: what each option leads to, the track with many
pawns on one square, Friday shown both ways, how the standings are ranked, and bots paced only
on a terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from robinson.engine import EDITIONS, Choose, Roll, Ruleset, apply, from_text, new_game
from robinson.i18n import LANGUAGES, Translator
from robinson.i18n.leads import leads
from robinson.tui.board import markers, standings_lines, status_lines, track_lines
from robinson.tui.game import Seat, TerminalGame

NAMES = ("Anna", "Bruno", "Cila", "Dora", "Emil", "Fanny", "Gustav", "Hugo")


def test_square_4_options_say_where_they_lead() -> None:
    # Anna is marked on the wreck (4) and rolls 6: restart -> 6, move on -> 10 (the goat).
    state = from_text("standard,30,10,half 30 0w6 4/20/m 3/20")
    t = Translator("en")
    assert [lead.line(t) for lead in leads(t, state)] == [
        "Start again → 6: Saved",
        "Move on → 10: The goat – pay 2 tokens to your right-hand neighbour",
    ]
    lv = Translator("lv")
    assert leads(lv, state)[1].line(lv) == (
        "Iet tālāk → 10: Āzis – samaksā 2 žetonus labās rokas kaimiņam"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lead_back_to_the_wreck_names_it_once(lang: str) -> None:
    # Anna, marked on the wreck, rolls 4: starting again lands on the wreck (4) again.
    # The line is the square's title and what it does there, not the title twice (issue 20).
    state = from_text("standard,30,10,half 30 0w4 4/20/m 3/20")
    t = Translator(lang)
    restart = leads(t, state)[0]
    assert restart.square == 4
    line = restart.line(t).lower()
    assert line.count(t.gettext("square.4.title").lower().split()[-1]) == 1, line
    assert " — " not in line and " – " in line


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "position",
    [
        "standard,30,10,half 30 0w1 4/20/m 3/20",  # 4: restart -> 1 (travel money)
        "standard,30,10,half 30 1t5 4/20 7/20",  # 7: move -> 12 (the fever)
        "standard,30,10,half 30 0b 20/20 3/20",  # 20: again / stop
        "standard,30,10,half 30 1c 20/20 23/20",  # 23: jump / stay
        "lv,30,10,half 30 1t5 4/20 7/20",  # the fever gives a roll in lv
    ],
)
def test_every_decision_option_has_a_lead_matching_the_engine(lang: str, position: str) -> None:
    state = from_text(position)
    t = Translator(lang)
    for lead in leads(t, state):
        after, _ = apply(state, Choose(lead.option))
        line = lead.line(t)
        assert line.startswith(lead.label) and "{" not in line
        if lead.square is not None:
            # where the hint says the pawn goes is where the engine puts it
            assert after.players[state.to_move].position == lead.square  # type: ignore[index]
            assert f"→ {lead.square}: " in line
        else:
            assert lead.what  # options that do not move say what they mean


def test_the_fever_lead_follows_the_edition() -> None:
    t = Translator("en")
    skip = leads(t, from_text("standard,30,10,half 30 1t5 4/20 7/20"))[1]
    extra = leads(t, from_text("lv,30,10,half 30 1t5 4/20 7/20"))[1]
    assert skip.what == "miss your next turn" and extra.what == "one more roll"


def test_track_holds_eight_pawns_on_one_square_and_fits_80_columns() -> None:
    state = new_game(8, Ruleset("standard"))
    for _ in range(8):  # everybody rolls 3: all on square 3
        state, _ = apply(state, Roll(3))
    for lang in LANGUAGES:
        lines = [x.plain for x in track_lines(Translator(lang), state, NAMES)]
        assert max(len(x) for x in lines) <= 80
        letters = "".join(ch for x in lines[1:] for ch in x if ch.isalpha())
        assert sorted(letters) == sorted(markers(NAMES))  # every pawn, once
        assert lines[2].startswith("            ABCD") and lines[3].startswith("            EFGH")


def test_markers_are_initials_unless_they_clash() -> None:
    assert markers(["anna", "Bruno"]) == ["A", "B"]
    assert markers(["Anna", "Andris", "Cila"]) == ["A", "B", "C"]
    assert markers(["1", "Bruno"]) == ["A", "B"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_friday_shown_both_ways(lang: str) -> None:
    # Cila (seat 2) is Anna's Friday (Anna stands on 29 with /f2).
    state = from_text("standard,30,10,half 30 1r 29/20/f2 3/20 5/20")
    t = Translator(lang)
    lines = [x.plain for x in status_lines(t, state, NAMES[:3])]
    text = "\n".join(lines)
    # a seat's line, with its continuation under the name when 80 columns are not enough
    anna = text[text.index(" Anna ") : text.index(" Bruno ")]
    cila = text[text.index(" Cila ") :]
    assert t.format("cli.has_friday", friday="Cila") in anna
    assert t.format("cli.friday_of", master="Anna") in cila
    assert max(len(x) for x in lines) <= 80


@pytest.mark.parametrize("lang", LANGUAGES)
def test_standings_say_how_they_are_ranked(lang: str) -> None:
    state = from_text("standard,0,0,half 0 #1 20/3 45/0 30/9")
    t = Translator(lang)
    lines = standings_lines(t, state, NAMES[:3])
    assert lines[1].strip() == t.gettext("cli.standings_rule")
    ranked = [re.sub(r"^\s*\d+\. (\w+):.*", r"\1", x) for x in lines[2:5]]
    assert ranked == ["Bruno", "Cila", "Anna"]  # the winner, then the larger purse


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("out", "paced"), [(io.StringIO(), False), (_Tty(), True)])
def test_bots_paced_only_on_a_terminal(out: io.StringIO, paced: bool, tmp_path: Path) -> None:
    seats = [Seat("Anna", "heuristic"), Seat("Bruno", "random")]
    game = TerminalGame(Translator("en"), Ruleset("standard"), seats, 5, None, out, pace=0.6)
    pauses: list[float] = []
    game.sleep = pauses.append
    assert game.play(lambda question: "", interactive=False) == 0
    actions = len(game.record.actions)
    assert pauses == ([0.6] * actions if paced else [])
    if not paced:
        assert "\x1b[" not in out.getvalue()  # plain text when not a terminal


def test_every_edition_summary_is_one_sentence_per_language() -> None:
    for lang in LANGUAGES:
        t = Translator(lang)
        sentences = {t.rules_summary(Ruleset(e)).split(".")[0] for e in EDITIONS}
        assert len(sentences) == len(EDITIONS)


def _shown(lang: str, position: str, face: int) -> list[str]:
    """What the terminal prints for rolling `face` in `position` (plain text, one line each)."""
    out = io.StringIO()
    seats = [Seat(name, "random") for name in NAMES[:3]]
    game = TerminalGame(Translator(lang), Ruleset("standard"), seats, 5, None, out)
    state, events = apply(from_text(position), Roll(face))
    game.show(events, state)
    return [line.strip() for line in out.getvalue().splitlines()]


def _first(lines: list[str], start: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(start))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_swap_on_36_shows_each_square_once_after_its_line(lang: str) -> None:
    """Issue 20, found by reading a whole game: the swap printed the ship's card (36) twice,
    once for the lander and again for the pawn sent back from 41."""
    t = Translator(lang)
    lines = _shown(lang, "standard,30,10,half 30 0r 34/20 41/20 5/20", 2)
    ship = t.quoted(t.gettext("square.36.story"))[:12]
    governor = t.quoted(t.gettext("square.41.story"))[:12]
    assert [line[:12] for line in lines].count(ship) == 1, lines
    assert [line[:12] for line in lines].count(governor) == 1, lines
    swap = next(i for i, line in enumerate(lines) if line.startswith("Anna") and "Bruno" in line)
    assert 1 < _first(lines, ship) < swap < _first(lines, governor), lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_card_of_45_follows_the_line_that_tells_the_move_home(lang: str) -> None:
    """Issue 20, found by reading: the move home is told by the win, and 45's story came before
    that line, as if it belonged to the roll."""
    t = Translator(lang)
    lines = _shown(lang, "standard,30,10,half 30 0r 43/20 5/20 6/20", 2)
    win = next(i for i, line in enumerate(lines) if line.startswith("Anna") and "45" in line)
    assert 0 < win < _first(lines, t.quoted(t.gettext("square.45.story"))[:12]), lines
