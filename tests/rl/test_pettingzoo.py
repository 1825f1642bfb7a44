"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and games that equal the
engine's records."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the optional extra 'rl' is not installed")

from pettingzoo.test import api_test, render_test, seed_test

from robinson.engine import EDITIONS, RobinsonError
from robinson.rl import ACTIONS, aec_env
from tests.rl.games import choices_of, dice_of, engine_game, golden_games, options_of

ROLL = ACTIONS.index("roll")


@pytest.mark.parametrize("edition", list(EDITIONS))
@pytest.mark.parametrize("players", [2, 4, 8])
def test_pettingzoo_api_and_seed_tests_pass(players: int, edition: str) -> None:
    with warnings.catch_warnings():
        # Dict observations with an action mask, as PettingZoo's own board games have them.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(aec_env(players, edition), num_cycles=300)
    seed_test(lambda: aec_env(players, edition), num_cycles=300)


def test_pettingzoo_api_test_passes_with_tokens_reward_and_money_options() -> None:
    env = aec_env(3, "lv", reward="tokens", start_tokens=12, stake=12, share="third", first=2)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=300)


def play_record(record, **options):  # type: ignore[no-untyped-def]
    """Drive the AEC env with the record's dice and choices; return the unwrapped env."""
    players = len(record.players)
    options = {**options_of(record), **options}
    env = aec_env(players, record.ruleset.edition, first=record.first, **options)
    env.reset(options={"dice": dice_of(record)})
    choices = iter(choices_of(record))
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        allowed = [ACTIONS[i] for i in np.flatnonzero(obs["action_mask"])]
        if allowed == ["roll"]:
            env.step(ROLL)
        else:
            choice = next(choices)
            assert choice in allowed
            env.step(ACTIONS.index(choice))
    assert next(choices, None) is None
    env.unwrapped.final_rewards = rewards
    return env.unwrapped


@pytest.mark.parametrize(
    "record",
    [engine_game(n, ed, seed) for n, ed, seed in [(2, "standard", 1), (3, "lv", 2),
     (4, "ca", 3), (5, "cs", 4), (8, "standard", 5), (4, "classic", 6)]] + golden_games(),
)  # fmt: skip
def test_a_game_through_pettingzoo_equals_the_engine_record(record) -> None:  # type: ignore[no-untyped-def]
    env = play_record(record)
    assert env.record == record
    assert env.engine_state == record.replay()
    final = record.replay()
    winner = final.winner
    assert env.final_rewards == {
        f"player_{s}": 1.0 if s == winner else 0.0 for s in range(len(record.players))
    }


def test_tokens_reward_is_each_final_purse_change() -> None:
    record = engine_game(4, "standard", 11)
    env = play_record(record, reward="tokens")
    final = record.replay()
    assert env.final_rewards == {
        f"player_{s}": float(p.purse - 30) for s, p in enumerate(final.players)
    }


def test_a_seeded_game_is_its_own_record_and_a_dead_agent_leaves_at_his_death() -> None:
    # Search seeds for a game in which somebody dies on 42 while others play on.
    for seed in range(200):
        env = aec_env(4, "standard")
        env.reset(seed=seed)
        dead_seen_while_running = False
        for agent in env.agent_iter():
            _, _, terminated, _, _ = env.last()
            if terminated and not env.unwrapped.engine_state.over:
                seat = env.possible_agents.index(agent)
                assert not env.unwrapped.engine_state.players[seat].alive
                dead_seen_while_running = True
            env.step(None if terminated else _first_legal(env))
        raw = env.unwrapped
        assert raw.record.replay() == raw.engine_state
        if dead_seen_while_running:
            return
    pytest.fail("no death in 200 seeded games")


def _first_legal(env) -> int:  # type: ignore[no-untyped-def]
    return int(np.flatnonzero(env.last()[0]["action_mask"])[0])


def test_observation_is_seen_from_the_agent_and_masks_only_the_offered_options() -> None:
    env = aec_env(3, "standard", render_mode="ansi")
    env.reset(seed=0)
    # The opening throw: only `roll`, for the first player; the others see an empty mask.
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"].tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert env.observe("player_1")["action_mask"].sum() == 0
    env.step(ROLL)
    raw = env.unwrapped
    seat = env.possible_agents.index(env.agent_selection)
    assert raw.engine_state.to_move == seat and raw.engine_state.phase.value != "roll"
    obs = env.observe(env.agent_selection)
    offered = [ACTIONS[i] for i in np.flatnonzero(obs["action_mask"])]
    from robinson.engine import DECISIONS

    assert sorted(offered) == sorted(DECISIONS[raw.engine_state.phase])
    # Relative seat 0 is the observer: his square's one-hot is set at his own position.
    assert obs["observation"][raw.engine_state.players[seat].position] == 1.0
    assert "Bank" in env.render()


def test_bad_actions_and_options_are_clear_errors() -> None:
    env = aec_env(2, "standard")
    env.reset(seed=0)
    with pytest.raises(RobinsonError, match="not allowed now: expected one of 6 \\(roll\\)"):
        env.step(ACTIONS.index("move"))
    with pytest.raises(RobinsonError, match="whole number"):
        env.step("roll")
    with pytest.raises(RobinsonError, match="dice\\[1\\] must be a whole number from 1 to 6"):
        env.reset(options={"dice": [3, 7]})
    env.reset(options={"dice": [3]})
    with pytest.raises(RobinsonError, match="dice ran out after 1 rolls"):
        env.step(ROLL)
    with pytest.raises(RobinsonError, match="reward must be one of win, tokens"):
        aec_env(2, reward="money")
    with pytest.raises(RobinsonError, match="unknown edition"):
        aec_env(2, "xx")
    with pytest.raises(RobinsonError, match="2 to 8 players"):
        aec_env(9)


@pytest.mark.parametrize("edition", ["standard", "classic"])
def test_pettingzoo_render_test_passes_and_human_mode_prints_the_board(
    edition: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: aec_env(3, edition, render_mode=render_mode))
    env = aec_env(3, edition, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "Bank" in capsys.readouterr().out


def test_max_cycles_truncates_the_agents_still_playing() -> None:
    # One step, the opening throw: no game ends before everybody's first turn, so all three are
    # still playing and are truncated, unrewarded, and leave one by one.
    env = aec_env(3, "standard", max_cycles=1)
    env.reset(seed=4)
    env.step(ROLL)
    raw = env.unwrapped
    assert not raw.engine_state.over
    assert all(raw.truncations.values()) and not any(raw.terminations.values())
    left = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert truncated and not terminated and reward == 0.0
        assert obs["action_mask"].sum() == 0
        left.append(agent)
        env.step(None)
    assert sorted(left) == env.possible_agents and env.agents == []


def _stayer(env) -> int:  # type: ignore[no-untyped-def]
    """Stays on the tree whenever he may (a game can then last long), else the first option."""
    offered = np.flatnonzero(env.last()[0]["action_mask"])
    stay = ACTIONS.index("stay")
    return stay if stay in offered else int(offered[0])


@pytest.mark.parametrize("seed", range(4))
def test_a_game_ends_or_is_truncated_at_max_cycles(seed: int) -> None:
    env = aec_env(2, "standard", max_cycles=25)
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(_stayer(env))
            steps += 1
    raw = env.unwrapped
    assert steps <= 25
    assert raw.engine_state.over or (steps == 25 and all(raw.truncations.values()))


def test_max_cycles_must_be_a_positive_whole_number_or_none() -> None:
    with pytest.raises(RobinsonError, match="max_cycles must be None or at least 1"):
        aec_env(2, max_cycles=0)
    assert aec_env(2, max_cycles=None).unwrapped.max_cycles is None
