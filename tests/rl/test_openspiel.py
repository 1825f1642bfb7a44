"""The OpenSpiel game `python_robinson`: OpenSpiel's random simulation test with serialisation,
and games that equal the engine's records."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the optional extra 'rl' is not installed")

import robinson.rl.openspiel  # noqa: E402, F401  (registers the game)
from robinson.engine import OPTIONS, Roll  # noqa: E402
from tests.rl.games import engine_game, golden_games, options_of  # noqa: E402


@pytest.mark.parametrize("edition", ["standard", "lv", "classic"])
@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_random_sim_test_passes_with_serialisation(players: int, edition: str) -> None:
    game = pyspiel.load_game("python_robinson", {"players": players, "edition": edition})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_serialised_state_comes_back_equal() -> None:
    game = pyspiel.load_game("python_robinson", {"players": 3, "reward": "tokens"})
    state = game.new_initial_state()
    for action in [2, 3, 5]:  # rolls 3, 4, 6
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.engine == state.engine
    assert state2.observation_tensor(1) == state.observation_tensor(1)


@pytest.mark.parametrize(
    "record",
    [engine_game(2, "standard", 21), engine_game(4, "lv", 22), *golden_games()],
)
def test_a_game_through_openspiel_equals_the_engine_record(record) -> None:  # type: ignore[no-untyped-def]
    params = {"players": len(record.players), "edition": record.ruleset.edition,
              "first": record.first, **options_of(record)}  # fmt: skip
    game = pyspiel.load_game("python_robinson", params)
    state = game.new_initial_state()
    for action in record.actions:
        if isinstance(action, Roll):
            assert state.is_chance_node()
            assert state.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
            state.apply_action(action.face - 1)
        else:
            assert state.current_player() == state.engine.to_move
            state.apply_action(OPTIONS.index(action.option))
    final = record.replay()
    assert state.is_terminal()
    assert state.engine == final
    assert state.returns() == [
        1.0 if s == final.winner else 0.0 for s in range(len(record.players))
    ]
    assert len(state.information_state_tensor(0)) == len(state.observation_tensor(0))


def test_the_game_stops_at_max_game_length_with_no_winner() -> None:
    game = pyspiel.load_game("python_robinson", {"players": 2, "max_game_length": 5})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.engine.winner is None
    assert state.returns() == [0.0, 0.0]


def test_bad_parameters_are_clear_errors() -> None:
    from robinson.engine import RobinsonError

    with pytest.raises(RobinsonError, match="unknown edition"):
        pyspiel.load_game("python_robinson", {"edition": "xx"})
    with pytest.raises(RobinsonError, match="2 to 8 players"):
        pyspiel.load_game("python_robinson", {"players": 9})


class ForwardBot(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that always takes the forward option (eager), reading only the state."""

    def __init__(self) -> None:
        pyspiel.Bot.__init__(self)

    def step(self, state: pyspiel.State) -> int:
        from robinson.engine import DECISION_OF, OPTIONS

        return OPTIONS.index(DECISION_OF[state.engine.phase].forward)

    def restart_at(self, state: pyspiel.State) -> None:
        pass


def test_an_openspiel_bot_is_scored_through_a_state_at_each_position() -> None:
    from robinson.rl import score
    from robinson.rl.openspiel import bot_policy
    from robinson.rl.scoring import PawnPosition

    game = pyspiel.load_game("python_robinson", {"players": 2})
    scored = score(bot_policy(ForwardBot(), game), 2, opponents="optimal", best=False)

    def eager(position: PawnPosition) -> str:
        from robinson.engine import DECISION_OF, Phase

        return DECISION_OF[Phase(position.decision)].forward

    assert scored.p_win == score(eager, 2, opponents="optimal", best=False).p_win
    # A uniformly random OpenSpiel bot: a legal option at every position, another score.
    rand = score(bot_policy(pyspiel.make_uniform_random_bot(0, 7), game), 2, best=False)
    assert rand.p_win != scored.p_win and all(0 < p < 1 for p in rand.p_win)


def test_a_state_from_a_position_plays_on_from_there() -> None:
    from robinson.engine import Phase, Player, Ruleset, State

    game = pyspiel.load_game("python_robinson", {"players": 2})
    position = State(Ruleset("standard"), (Player(44), Player(3)), 20, 0, Phase.ROLL)
    state = game.new_state_from(position)
    assert state.is_chance_node() and not state.is_terminal()
    state.apply_action(0)  # a 1 from 44: home
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    with pytest.raises(ValueError, match="a game of 2 under 'lv'"):
        game.new_state_from(State(Ruleset("lv"), position.players, 20, 0, Phase.ROLL))
