"""Exact odds of any position (`robinson.analysis.odds`): the opening agrees with `analyze`,
random mid-game positions agree with games the engine plays from them, and each option's chance
is the chance of the position the option leads to."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from odds_positions import constructed, eager, inside, played, wins_from
from tests.shared import analyzed_p_win, tables_of_analyze
from tests.tiers import SLOW

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.turns import TurnTrees, build_turn_trees
from robinson.analysis.odds import position_odds, tables
from robinson.analysis.odds.exact import chain_index, turn_order
from robinson.analysis.odds.simulated import winners
from robinson.analysis.policy import DECISION_KINDS, EAGER_OPTION, OTHER_OPTION, make_policy
from robinson.analysis.sim.kernel import TRUNCATED
from robinson.engine import (
    DECISIONS,
    EDITIONS,
    Choose,
    Phase,
    Player,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
)


# `ca` plays `standard`'s chain and `cs` `lv`'s: the other chains' 4-player solves (≈12 s each)
# are no other fast test's, so those editions run in `make test` only (tests/tiers.py).
@pytest.mark.parametrize(
    "edition",
    [e if e in ("standard", "ca") else pytest.param(e, marks=SLOW) for e in EDITIONS],
)
def test_the_opening_equals_analyze_for_2_3_and_4_players(edition: str) -> None:
    ruleset = Ruleset(edition)
    plays_like = tables.rules_ruleset(ruleset).edition  # ca: standard, cs: lv
    for policy, most in (("eager", 4), ("optimal", 4 if edition == "standard" else 3)):
        for players in range(2, most + 1):
            # `analyze` solves afresh; its chains become the odds' tables unless the run has
            # them already (tests/shared.py: solved once per run, not once per worker)
            solved = edition
            if players == 4 and plays_like != edition:
                # A solve reads nothing of the rules but the turn trees (exact/game.py): with
                # the same trees, `analyze` of this edition is that of the one it plays like,
                # solved in that edition's test (5 s of CPU saved; 2 and 3 players are solved).
                assert _same_turns(build_turn_trees(ruleset), build_turn_trees(Ruleset(plays_like)))
                solved = plays_like
            expected = analyzed_p_win(solved, players, policy)
            odds = position_odds(new_game(players, ruleset), policy)
            assert odds["method"] == "exact" and odds["policy"] == policy
            assert odds["p_win"] == pytest.approx(expected, abs=1e-15), (policy, players)
            assert odds["p_no_winner"] == pytest.approx(max(0.0, 1 - sum(expected)), abs=1e-12)
            # Another first seat: the same chances, turned round the table.
            first = players - 1
            turned = position_odds(new_game(players, ruleset, first), policy)["p_win"]
            assert turned == pytest.approx(expected[-first:] + expected[:-first], abs=1e-15)
        solve_game.cache_clear()  # 4-player solutions are large: do not keep five of them


def _same_turns(a: TurnTrees, b: TurnTrees) -> bool:
    """Every array of the two editions' turn trees is the same (all a solve reads of them)."""
    return all(
        np.array_equal(getattr(a, f.name), getattr(b, f.name))
        for f in dataclasses.fields(a)
        if f.name != "ruleset"
    )


def _positions(edition: str, seed: int) -> list[State]:
    rng = random.Random(seed)
    rs = Ruleset(edition)
    return [
        played(rng, rs, 2),
        played(rng, rs, 3),
        played(rng, rs, 4),
        constructed(rng, rs, 3, 0),
        constructed(rng, rs, 4, 0),
        constructed(rng, rs, 4, 1),
        constructed(rng, rs, 5, 2),
        constructed(rng, rs, 8, 5),
    ]


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_mid_game_chances_lie_inside_the_interval_of_engine_games(edition: str) -> None:
    positions = _positions(edition, 10 + list(EDITIONS).index(edition))
    tables_of_analyze(edition)  # 4 living: the chain the report and the headline check solve
    games = 300
    checks = sum(len(s.players) + 1 for s in positions)  # 99.9% for all of them at once
    for index, state in enumerate(positions):
        odds = position_odds(state, "eager")
        assert odds["method"] == "exact"
        wins = wins_from(state, games, seed=index, decide=eager)
        for seat, p in enumerate(odds["p_win"]):
            if not state.players[seat].alive:
                assert p == 0.0 and wins[seat] == 0
            assert inside(p, wins[seat], games, checks), (index, seat, odds, wins, state)
        assert inside(odds["p_no_winner"], wins[-1], games, checks), (index, odds, wins, state)


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_mid_game_chances_agree_with_200000_simulated_games(edition: str) -> None:
    """The same positions against 200,000 games of the fast simulator from each (it plays the
    engine's games game by game: test_sim_from_position.py): an interval of about a point where
    the engine's own 300 games allow ten."""
    positions = _positions(edition, 10 + list(EDITIONS).index(edition))
    tables_of_analyze(edition)
    checks = sum(len(s.players) for s in positions)
    for index, state in enumerate(positions):
        odds = position_odds(state, "eager")
        start = state  # a pending decision: the eager option first, as the chances assume
        while start.phase is not Phase.ROLL:
            start, _ = apply(start, eager(start))
        assert not start.over
        won = winners(start, 200_000, seed=index)
        counted = int((won != TRUNCATED).sum())
        for seat, p in enumerate(odds["p_win"]):
            k = int((won == seat).sum())
            assert inside(p, k, counted, checks), (index, seat, p, k / counted, state)


def test_the_sample_has_dead_players_skips_marks_and_decisions() -> None:
    states = [s for e in EDITIONS for s in _positions(e, 10 + list(EDITIONS).index(e))]
    assert any(not p.alive for s in states for p in s.players)
    assert any(p.alive and p.skips for s in states for p in s.players)
    assert any(p.alive and p.shipwrecked for s in states for p in s.players)
    assert {s.phase for s in states} >= {Phase.ROLL, Phase.TREE, Phase.SHIPWRECK}


@pytest.mark.parametrize("edition", ["standard", "lv"])
def test_optimal_mid_game_chances_agree_with_engine_games(edition: str) -> None:
    rng = random.Random(5)
    rs = Ruleset(edition)
    for index, state in enumerate([played(rng, rs, 2), constructed(rng, rs, 3, 0)]):
        decide = make_policy("optimal", rs, len(state.players)).decide
        odds = position_odds(state, "optimal")
        wins = wins_from(state, 300, seed=index, decide=decide)
        for seat, p in enumerate(odds["p_win"]):
            assert inside(p, wins[seat], 300, checks=5), (index, seat, odds, wins)


def _decision_states(edition: str) -> list[State]:
    """Every decision of the edition, with the roll in view, from positions of 3 players."""
    rs = Ruleset(edition)
    found = []
    for square, face in [(4, f) for f in range(1, 7)] + [(7, f) for f in range(1, 7)]:
        pawns = (Player(square, 5, shipwrecked=square == 4), Player(41, 5), Player(14, 5))
        state, _ = apply(State(rs, pawns, 20, 0, Phase.ROLL), Roll(face))
        found.append(state)
    for square, face in ((14, 6), (17, 6), (18, 5), (22, 1)):  # land on 20 or 23
        state, _ = apply(State(rs, (Player(square), Player(36), Player(3)), 20, 0, Phase.ROLL),
                         Roll(face))  # fmt: skip
        found.append(state)
    return [s for s in found if s.phase in DECISIONS]


@pytest.mark.parametrize("policy", ["eager", "optimal"])
@pytest.mark.parametrize("edition", ["standard", "lv"])
def test_options_are_the_chances_after_playing_each_option(edition: str, policy: str) -> None:
    states = _decision_states(edition)
    assert {s.phase for s in states} == set(DECISIONS)
    game = solve_game(Ruleset(edition), 3, policy)
    for state in states:
        odds = position_odds(state, policy)
        seat = state.to_move
        assert seat is not None
        assert list(odds["options"]) == list(DECISIONS[state.phase])
        for option, p in odds["options"].items():
            after, _ = apply(state, Choose(option))
            assert p == position_odds(after, policy)["p_win"][seat]
        # The solver's own option values for this decision and placing of the others.
        order = turn_order(state)
        others = chain_index(state, order) % codes.K ** (len(order) - 1)
        kind = DECISION_KINDS.index(state.phase)
        solved = game.options[len(order) - 1][(kind, state.pending_roll or 0)][others]
        eager_p, other_p = (
            odds["options"][EAGER_OPTION[state.phase]],
            odds["options"][OTHER_OPTION[state.phase]],
        )
        assert [eager_p, other_p] == pytest.approx(list(solved[:, 0]), abs=1e-12)
        taken = eager_p if policy == "eager" else max(eager_p, other_p)
        assert odds["p_win"][seat] == pytest.approx(taken, abs=1e-12)


def test_dead_seats_have_nothing_and_a_finished_game_is_certain() -> None:
    rs = Ruleset("standard")
    dead = State(rs, (Player(42, alive=False), Player(30), Player(2)), 20, 1, Phase.ROLL)
    odds = position_odds(dead, "eager")
    assert odds["p_win"][0] == 0.0 and odds["p_win"][1] > odds["p_win"][2] > 0
    won, _ = apply(State(rs, (Player(40), Player(44)), 20, 1, Phase.ROLL), Roll(1))
    assert won.winner == 1
    assert position_odds(won)["p_win"] == [0.0, 1.0]
    assert position_odds(won)["p_no_winner"] == 0.0


def test_money_never_changes_the_chances() -> None:
    rich = Ruleset("standard", start_tokens=90, stake=30, share="third")
    a = State(rich, (Player(12, 3, friday=1), Player(29, 80), Player(33)), 5, 2, Phase.ROLL)
    b = State(Ruleset("ca"), (Player(12), Player(29), Player(33)), 60, 2, Phase.ROLL)
    assert position_odds(a)["p_win"] == position_odds(b)["p_win"]


def test_the_tables_are_memory_mapped_files() -> None:
    position_odds(new_game(2, Ruleset("standard")))
    values = tables.values(Ruleset("standard"), "eager", 2)
    assert isinstance(values, np.memmap) and not values.flags.writeable
    assert tables.table_path(Ruleset("standard"), "eager", 2).is_file()
