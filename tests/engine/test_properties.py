"""Properties over random legal games of every edition, option set and player count."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from robinson.engine import (
    EDITIONS,
    GameRecord,
    Phase,
    Ruleset,
    apply,
    chance_outcomes,
    from_text,
    legal_actions,
    new_game,
    to_text,
)

# Far above any real game (the longest of many thousands seen is a few hundred actions).
MAX_ACTIONS = 20_000


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    start = draw(st.integers(0, 40))
    return Ruleset(
        edition=draw(st.sampled_from(sorted(EDITIONS))),
        start_tokens=start,
        stake=draw(st.integers(0, start)),
        share=draw(st.sampled_from(["half", "third"])),
    )


@given(
    ruleset=rulesets(),
    players=st.integers(2, 8),
    data=st.data(),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=150, deadline=None)
def test_random_games_keep_every_invariant(
    ruleset: Ruleset, players: int, data: st.DataObject, seed: int
) -> None:
    first = data.draw(st.integers(0, players - 1))
    rng = random.Random(seed)
    state = new_game(players, ruleset, first)
    total = players * ruleset.start_tokens
    names = tuple(f"P{i}" for i in range(players))
    actions = []
    for _ in range(MAX_ACTIONS):
        legal = legal_actions(state)
        if state.over:
            assert legal == ()
            break
        assert legal, f"no legal action in {to_text(state)}"
        assert (state.phase is Phase.ROLL) == bool(chance_outcomes(state))
        action = rng.choice(legal)
        actions.append(action)
        state, _ = apply(state, action)
        # Tokens are conserved and nobody (nor the bank) goes below zero.
        assert state.total_tokens == total
        assert state.bank >= 0 and all(p.purse >= 0 for p in state.players)
        # Fridays are living, never the master himself; the dead carry nothing.
        for seat, p in enumerate(state.players):
            if p.friday is not None:
                assert p.alive and state.players[p.friday].alive and p.friday != seat
            if not p.alive:
                assert p.skips == 0 and not p.shipwrecked
            assert 0 <= p.position <= 45
        if not state.over:
            assert state.to_move is not None and state.players[state.to_move].alive
        # The one-line text form round-trips.
        assert from_text(to_text(state)) == state
    assert state.over, "game did not end"
    if state.winner is not None:
        assert state.players[state.winner].position == 45
        assert state.bank == 0
    else:
        assert not any(p.alive for p in state.players)
    record = GameRecord(ruleset, names, first, tuple(actions))
    assert record.replay() == state
    assert GameRecord.loads(record.dumps()).replay() == state
