"""The Gymnasium single-seat environment: Gymnasium's own checker, and games that equal the
engine's records."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium", reason="the optional extra 'rl' is not installed")

import gymnasium
from gymnasium.utils.env_checker import check_env

from robinson.engine import (
    DECISION_OF,
    DECISIONS,
    Action,
    Choose,
    GameRecord,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    apply,
    new_game,
)
from robinson.rl import SingleAgentEnv
from tests.rl.games import dice_of


@pytest.mark.parametrize(
    ("players", "edition", "opponents"),
    [(2, "standard", "eager"), (3, "lv", ["random", "heuristic"]), (4, "classic", "random")],
)
def test_gymnasium_check_env_passes(players: int, edition: str, opponents: object) -> None:
    env = gymnasium.make(
        "robinson/SingleAgent-v0",
        players=players,
        edition=edition,
        seat=1,
        opponents=opponents,
        render_mode="ansi",
    )
    check_env(env.unwrapped, skip_render_check=False)


def test_gymnasium_make_finds_the_registered_environment() -> None:
    env = gymnasium.make("robinson/SingleAgent-v0", players=3, opponents="eager")
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert info == {"options": ("roll", "roll")}


def eager_opponents_game(players: int, seat: int, seed: int) -> GameRecord:
    """An engine game: the seat decides at random, everybody else eagerly."""
    rng = random.Random(seed)
    state = new_game(players, Ruleset("standard"))
    actions: list[Action] = []
    while not state.over:
        if state.phase is Phase.ROLL:
            action: Action = Roll(rng.randint(1, 6))
        elif state.to_move == seat:
            action = Choose(rng.choice(DECISIONS[state.phase]))
        else:
            action = Choose(DECISION_OF[state.phase].forward)
        state, _ = apply(state, action)
        actions.append(action)
    return GameRecord(Ruleset("standard"), tuple(f"player_{i}" for i in range(players)), 0,
                      tuple(actions))  # fmt: skip


@pytest.mark.parametrize(("players", "seat", "seed"), [(2, 0, 1), (3, 2, 2), (4, 1, 3)])
def test_a_game_through_gymnasium_equals_the_engine_record(
    players: int, seat: int, seed: int
) -> None:
    record = eager_opponents_game(players, seat, seed)
    env = SingleAgentEnv(players, seat=seat, opponents="eager")
    _, info = env.reset(options={"dice": dice_of(record)})
    # The learner's choices are those of the record made at his seat, in order.
    mine = iter(
        a.option
        for a, before in zip(record.actions, _states_before(record), strict=True)
        if isinstance(a, Choose) and before.to_move == seat
    )
    assert info["options"] == ("roll", "roll")
    terminated = False
    reward = 0.0
    while not terminated:
        options = info["options"]
        action = 0 if options == ("roll", "roll") else options.index(next(mine))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
    final = record.replay()
    if final.players[seat].alive:  # the learner's episode ran to the end of the game
        assert env.record == record
        assert env.engine_state == final
    else:  # it ended at his death: the env's record is the start of the engine's
        assert record.actions[: len(env.record.actions)] == env.record.actions
        assert not env.engine_state.players[seat].alive
    assert reward == (1.0 if final.winner == seat else 0.0)
    assert next(mine, None) is None


def _states_before(record: GameRecord) -> list:  # type: ignore[type-arg]
    states = [record.initial_state()]
    for _, after, _ in record.steps():
        states.append(after)
    return states[:-1]


def test_every_action_is_legal_and_bad_arguments_are_clear_errors() -> None:
    env = SingleAgentEnv(2, opponents="eager")
    env.reset(seed=0)
    with pytest.raises(RobinsonError, match="an action is 0 or 1"):
        env.step(2)
    with pytest.raises(RobinsonError, match="unknown bot 'genius'"):
        SingleAgentEnv(3, opponents=["eager", "genius"])
    with pytest.raises(RobinsonError, match="one bot name per other seat \\(2\\), got 1"):
        SingleAgentEnv(3, opponents=["eager"])
    with pytest.raises(RobinsonError, match="seat must be a seat from 0 to 2"):
        SingleAgentEnv(3, seat=3)


def test_choices_pending_use_the_offered_options() -> None:
    for seed in range(50):
        env = SingleAgentEnv(2, opponents="eager")
        _, info = env.reset(seed=seed)
        _, _, terminated, _, info = env.step(0)
        if not terminated:
            phase = env.engine_state.phase
            assert env.engine_state.to_move == 0
            assert info["options"] == DECISIONS[phase]
            return
    pytest.fail("no decision after the opening throw in 50 seeds")


def test_the_learners_death_ends_his_episode_with_his_purse_change_as_reward() -> None:
    for seed in range(300):
        env = SingleAgentEnv(2, opponents="eager", reward="tokens")
        env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            _, reward, done, _, info = env.step(1)
        learner = env.engine_state.players[0]
        assert reward == learner.purse - 30
        assert info == {}
        if not learner.alive:
            assert not env.engine_state.over  # the other player plays on, without him
            with pytest.raises(RobinsonError, match="the episode is over"):
                env.step(0)
            return
    pytest.fail("the learner never died in 300 seeded games")
