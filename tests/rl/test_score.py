"""`robinson.rl.score`: the exact win chance of a policy, checked against `analyze`, against the
optimal bot, and against games played in the Gymnasium environment."""

from __future__ import annotations

import math
import random

import pytest

from robinson.analysis.exact.summary import analyze
from robinson.analysis.policy import make_policy
from robinson.engine import DECISION_OF, DECISIONS, Phase, RobinsonError, Ruleset
from robinson.rl import PawnPosition, score


def eager(position: PawnPosition) -> str:
    return DECISION_OF[Phase(position.decision)].forward


def coin(position: PawnPosition) -> dict[str, float]:
    return dict.fromkeys(position.options, 0.5)


@pytest.mark.parametrize(
    ("players", "edition"), [(2, "standard"), (2, "lv"), (2, "classic"), (3, "standard")]
)
def test_score_of_the_eager_policy_equals_analyze(players: int, edition: str) -> None:
    result = score(eager, players, edition, opponents="eager", best=False)
    expected = analyze(Ruleset(edition), players, "eager")["p_win"]
    assert result.p_win == pytest.approx(expected, abs=1e-12)
    assert result.converged and result.best is None


def test_the_optimal_bot_scores_analyze_and_no_policy_beats_it_against_optimal_players() -> None:
    ruleset = Ruleset("standard")
    optimal = make_policy("optimal", ruleset, 2)

    def bot(position: PawnPosition) -> str:
        return optimal.decide(position.to_state(2, ruleset)).option

    result = score(bot, 2, "standard", opponents="optimal")
    expected = analyze(ruleset, 2, "optimal")["p_win"]
    assert result.p_win == pytest.approx(expected, abs=1e-12)
    # An equilibrium: the best response to optimal players gains nothing.
    assert result.best == pytest.approx(result.p_win, abs=1e-11)


def test_the_coin_flipper_loses_to_the_best_response_and_matches_played_games() -> None:
    pytest.importorskip("gymnasium", reason="the optional extra 'rl' is not installed")
    from robinson.rl import SingleAgentEnv

    result = score(coin, 2, "standard", opponents="eager")
    assert result.best is not None
    for p, top in zip(result.p_win, result.best, strict=True):
        assert p < top - 1e-3
    # Play the coin flipper from seat 1 in the Gymnasium environment, seeded.
    env = SingleAgentEnv(2, seat=1, opponents="eager")
    coins = random.Random(7)
    games, wins = 1000, 0
    for seed in range(games):
        env.reset(seed=seed)
        done = False
        while not done:
            _, reward, done, _, _ = env.step(coins.randrange(2))
        wins += int(reward)
    p = result.p_win[1]
    half_width = 3.3 * math.sqrt(p * (1 - p) / games)  # 99.9 %
    assert abs(wins / games - p) < half_width


def test_random_opponents_score_matches_played_games() -> None:
    pytest.importorskip("gymnasium", reason="the optional extra 'rl' is not installed")
    from robinson.rl import SingleAgentEnv

    result = score(eager, 2, "standard", opponents="random", best=False)
    env = SingleAgentEnv(2, seat=0, opponents="random")
    games, wins = 1000, 0
    for seed in range(games):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            options = info["options"]
            forward = (
                DECISION_OF[env.engine_state.phase].forward if options[0] != "roll" else "roll"
            )
            _, reward, done, _, info = env.step(options.index(forward))
        wins += int(reward)
    p = result.p_win[0]
    assert abs(wins / games - p) < 3.3 * math.sqrt(p * (1 - p) / games)  # 99.9 %


def test_pawn_position_of_a_state_and_back() -> None:
    ruleset = Ruleset("standard")
    position = PawnPosition("tree", 5, 7, ((12, 1), (4, 0)))
    state = position.to_state(4, ruleset)
    assert state.phase is Phase.TREE and state.pending_roll == 5 and state.to_move == 0
    assert [p.alive for p in state.players] == [True, True, True, False]
    assert state.players[2].shipwrecked and state.players[1].skips == 1
    assert PawnPosition.of(state) == position
    assert position.options == DECISIONS[Phase.TREE]


def test_bad_policies_and_arguments_are_clear_errors() -> None:
    with pytest.raises(RobinsonError, match=r"answered 'fly' at .*expected 'move' or 'restart'"):
        score(lambda p: "fly", 2)
    with pytest.raises(RobinsonError, match="probabilities of 'move' and 'restart' summing to 1"):
        score(lambda p: {"move": 0.7, "restart": 0.7}, 2)
    with pytest.raises(RobinsonError, match="score covers 2 to 4 players"):
        score(eager, 5)
    with pytest.raises(RobinsonError, match="opponents must be one of eager, optimal, random"):
        score(eager, 2, opponents="heuristic")
    with pytest.raises(RobinsonError, match="policy must be a function"):
        score("eager", 2)  # type: ignore[arg-type]
