"""The simulator reads the board of the ruleset it plays: on an edition whose special squares
stand elsewhere, the compiled simulator still reproduces the engine game for game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from robinson.analysis.sim import fast, reference
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.policies import fast_tables, table_decider
from robinson.bots import make_bot
from robinson.engine import (
    EDITIONS,
    SQUARES,
    Board,
    Choices,
    Edition,
    Effect,
    Fever,
    Ruleset,
    Square,
)

FIELDS = (
    "winner", "rolls", "turns", "bank", "pot", "bindings", "position", "purse", "alive", "landings",
)  # fmt: skip


def _rearranged() -> Board:
    """Tree on 9, fever on 13, gallows on 43, the canoe to 30, the footprint back to 11 (receive
    1), the ship swapping with 39, and 8 costing 5."""
    sq = list(SQUARES)
    for n in (7, 12, 42):
        sq[n] = Square(n, Effect.STORY)
    sq[9] = Square(9, Effect.TREE)
    sq[13] = Square(13, Effect.FEVER)
    sq[43] = Square(43, Effect.GALLOWS)
    sq[23] = replace(sq[23], target=30)
    sq[25] = replace(sq[25], target=11)
    sq[36] = replace(sq[36], target=39)
    sq[8] = replace(sq[8], amount=5)
    return Board(tuple(sq))


@pytest.mark.parametrize(
    ("fever", "choices", "bot"),
    [
        (Fever.SKIP_TURN, Choices.OPTIONAL, "heuristic"),
        (Fever.EXTRA_ROLL, Choices.OPTIONAL, "eager"),
        (Fever.SKIP_TURN, Choices.COMPULSORY, "eager"),
    ],
)
def test_fast_simulator_reproduces_the_engine_on_a_rearranged_board(
    fever: Fever, choices: Choices, bot: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        EDITIONS, "rearranged", Edition("rearranged", fever, choices, "test", _rearranged())
    )
    setup = Setup(Ruleset("rearranged"), 3, first=1, seed=7)
    tables = fast_tables(make_bot(bot).choose, setup.ruleset, 3)
    fast_batch = fast.run_batch(setup, tables, 0, 600)
    engine_batch = reference.run_batch(setup, table_decider(tables), 0, 600)
    for field in FIELDS:
        assert np.array_equal(getattr(fast_batch, field), getattr(engine_batch, field)), field
    # the board really was another one: the same dice on the standard board play differently
    monkeypatch.setitem(EDITIONS, "plain", Edition("plain", fever, choices, "test"))
    plain = fast.run_batch(Setup(Ruleset("plain"), 3, first=1, seed=7), tables, 0, 600)
    assert not np.array_equal(plain.rolls, fast_batch.rolls)
    assert fast_batch.landings[43] > 0 and fast_batch.landings[42] > 0  # 42 a story square now
