"""`score(..., objective="tokens")`: the final purse change of a policy, on paired engine games
(money is not in the exact chain)."""

from __future__ import annotations

import pytest

from robinson.analysis.sim import Setup, simulate
from robinson.engine import DECISION_OF, Phase, RobinsonError, Ruleset
from robinson.rl import TokenScore, score
from robinson.rl.scoring import PawnPosition


def eager(position: PawnPosition) -> str:
    return DECISION_OF[Phase(position.decision)].forward


def stays_on_the_tree_after_a_1(position: PawnPosition) -> str:
    if position.decision == "tree" and position.roll == 1:
        return "stay"
    return eager(position)


def coin(position: PawnPosition) -> dict[str, float]:
    return dict.fromkeys(position.options, 0.5)


def test_eager_gains_nothing_over_itself_and_its_tokens_are_the_simulators() -> None:
    s = score(eager, 3, objective="tokens", games=600, seed=1)
    assert isinstance(s, TokenScore) and s.games == 600 and s.cut == 0
    assert s.gain == (0.0, 0.0, 0.0)  # the same games twice: paired to the token
    # The same expectation as the compiled simulator's, on other dice.
    sim = simulate(Setup(Ruleset("standard"), 3, seed=5), 200_000, progress=False).summary
    for seat, (low, high) in enumerate(s.tokens_ci95):
        purse = sim.to_json()["mean_purse"][seat]["value"] - 30
        assert low - 0.05 <= purse <= high + 0.05, (seat, purse, low, high)


def test_the_gain_is_the_difference_game_by_game_from_the_same_dice() -> None:
    mine = score(stays_on_the_tree_after_a_1, 2, objective="tokens", games=400, seed=3)
    base = score(eager, 2, objective="tokens", games=400, seed=3)
    for seat in range(2):
        assert mine.gain[seat] == pytest.approx(mine.tokens[seat] - base.tokens[seat], abs=1e-12)
        low, high = mine.gain_ci95[seat]
        # Paired: far narrower than the interval of either mean.
        assert high - low < (mine.tokens_ci95[seat][1] - mine.tokens_ci95[seat][0]) / 2


def test_a_mixed_policy_is_drawn_from_its_own_seeded_coin() -> None:
    a = score(coin, 2, objective="tokens", games=200, seed=7, opponents="random")
    b = score(coin, 2, objective="tokens", games=200, seed=7, opponents="random")
    assert a.tokens == b.tokens and a.gain == b.gain
    assert a.gain != (0.0, 0.0)


def test_bad_objectives_and_games_are_clear_errors() -> None:
    with pytest.raises(RobinsonError, match="objective must be 'win' or 'tokens'"):
        score(eager, 2, objective="money")  # type: ignore[call-overload]
    with pytest.raises(RobinsonError, match="games must be a whole number of at least 2"):
        score(eager, 2, objective="tokens", games=1)


def test_a_batched_policy_gets_every_position_at_once_and_scores_the_same() -> None:
    calls: list[int] = []

    def batch(positions: list[PawnPosition]) -> list[str]:
        calls.append(len(positions))
        return [stays_on_the_tree_after_a_1(p) for p in positions]

    batched = score(batch, 3, best=False, batched=True)
    plain = score(stays_on_the_tree_after_a_1, 3, best=False)
    assert batched.p_win == plain.p_win
    assert len(calls) == 3 and calls[0] < calls[1] < calls[2]  # one call per living count
    with pytest.raises(RobinsonError, match=r"answers each of the \d+ positions it is given"):
        score(lambda positions: ["move"], 2, best=False, batched=True)
