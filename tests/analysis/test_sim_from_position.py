"""The compiled simulator started from any position (`Setup.position`) reproduces the engine
started there, game by game on the same dice; and the simulated odds of 5 to 8 living players
agree with games the engine plays from the position."""

from __future__ import annotations

import random

import numpy as np
import pytest
from odds_positions import constructed, eager, inside, played, wins_from

from robinson.analysis.odds import position_odds
from robinson.analysis.sim import fast, reference
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.policies import fast_tables, table_decider
from robinson.engine import EDITIONS, Choose, Phase, Player, Roll, Ruleset, State, apply, new_game

FIELDS = ("winner", "rolls", "turns", "winner_turns", "bank", "pot", "bindings", "position")
FIELDS += ("purse", "alive", "friday", "landings")


def _with_money(rng: random.Random, state: State) -> State:
    """Random purses, bank and Friday links (rule 6, 5.29): the simulator must carry them on."""
    living = list(state.living)
    players = []
    for seat, p in enumerate(state.players):
        friday = None
        if p.alive and len(living) > 1 and rng.random() < 0.3:
            friday = rng.choice([s for s in living if s != seat])
        players.append(
            Player(p.position, rng.randint(0, 30), p.alive, friday, p.skips, p.shipwrecked)
        )
    return State(state.ruleset, tuple(players), rng.randint(0, 40), state.to_move, state.phase)


def _at_roll(state: State) -> State:
    while state.phase not in (Phase.ROLL, Phase.OVER):
        state, _ = apply(state, eager(state))
    return state


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_fast_simulator_continues_any_position_as_the_engine_does(edition: str) -> None:
    rng = random.Random(sum(map(ord, edition)))
    rs = Ruleset(edition, share=rng.choice(["half", "third"]))
    positions = [played(rng, rs, n) for n in (2, 3, 5, 8)]
    positions += [constructed(rng, rs, n, dead) for n, dead in ((4, 1), (6, 0), (7, 3), (8, 2))]
    positions = [_with_money(rng, _at_roll(p)) for p in positions if not _at_roll(p).over]
    assert any(p.friday is not None for s in positions for p in s.players)
    for index, state in enumerate(positions):
        n = len(state.players)
        setup = Setup(rs, n, seed=rng.randrange(2**63), position=state)
        tables = fast_tables("eager", rs, n)
        fast_batch = fast.run_batch(setup, tables, 0, 120)
        engine_batch = reference.run_batch(setup, table_decider(tables), 0, 120)
        for field in FIELDS:
            a, b = getattr(fast_batch, field), getattr(engine_batch, field)
            assert np.array_equal(a, b), (edition, index, field, state)


def test_a_position_must_be_at_a_roll_and_match_the_setup() -> None:
    rs = Ruleset("standard")
    tree, _ = apply(State(rs, (Player(7), Player(0)), 20, 0, Phase.ROLL), Roll(3))
    assert tree.phase is Phase.TREE
    with pytest.raises(ValueError, match="at a roll"):
        fast.run_batch(Setup(rs, 2, position=tree), fast_tables("eager", rs, 2), 0, 10)
    with pytest.raises(ValueError, match="the setup says 3"):
        fast.run_batch(Setup(rs, 3, position=new_game(2, rs)), fast_tables("eager", rs, 3), 0, 1)


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_simulated_odds_of_5_to_8_living_agree_with_engine_games(edition: str) -> None:
    rng = random.Random(100 + list(EDITIONS).index(edition))
    rs = Ruleset(edition)
    positions = [played(rng, rs, 5), constructed(rng, rs, 8, 2), constructed(rng, rs, 7, 0)]
    games = 300
    checks = sum(len(s.players) + 1 for s in positions)
    for index, state in enumerate(positions):
        odds = position_odds(state, "eager", games=20_000, seed=index)
        assert odds["method"] == "simulation" and odds["games"] == 20_000
        wins = wins_from(state, games, seed=index, decide=eager)
        for seat, p in enumerate(odds["p_win"]):
            lo, hi = odds["ci95"][seat]
            assert lo <= p <= hi
            if not state.players[seat].alive:
                assert p == 0.0 and wins[seat] == 0
            assert inside(p, wins[seat], games, checks), (index, seat, odds, wins)
        assert inside(odds["p_no_winner"], wins[-1], games, checks)


def test_simulated_options_are_the_odds_after_each_option() -> None:
    rs = Ruleset("standard")
    pawns = (Player(7), Player(30), Player(12), Player(3), Player(20), Player(41))
    state, _ = apply(State(rs, pawns, 20, 0, Phase.ROLL), Roll(5))
    assert state.phase is Phase.TREE
    odds = position_odds(state, "optimal", games=20_000, seed=3)
    assert odds["policy"] == "optimal" and odds["policy_played"] == "eager"
    for option, p in odds["options"].items():
        after, _ = apply(state, Choose(option))
        assert p == position_odds(after, "eager", games=20_000, seed=3)["p_win"][0]
    assert odds["p_win"][0] == odds["options"]["move"]
