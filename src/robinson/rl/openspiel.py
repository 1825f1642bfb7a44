"""The game for OpenSpiel: importing this module registers `python_robinson`.

    import pyspiel
    import robinson.rl.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_robinson", {"players": 3, "edition": "lv"})

Parameters: `players` (2..8, default 2), `edition` (default standard), `start_tokens`, `stake`,
`share` (the ruleset's options), `first` (the seat that starts), `reward` (`win`: 1 to the
winner; `tokens`: each player's final purse change) and `max_game_length` (default 10000).

Chance nodes are explicit: at every roll the die is a chance node with outcomes 0..5 (faces 1..6)
at 1/6 each. Player actions are 0..5, the decision options in the engine's order (`restart`,
`move`, `stay`, `again`, `stop`, `jump`); a decision offers two of them. Skipped turns take no
action (the engine passes them), so the player to move is always the one deciding.

The game is unbounded (a player can stay on the tree for ever), but OpenSpiel needs a maximum
length: a game still running after `max_game_length` actions (chance included) stops there with
no winner (returns as at that moment). Eager players need a few hundred actions even with 8 seats.

Observation tensor (`robinson.rl.match.encode`): positions, purses, bank, Friday links, skips,
marks, whose turn, the phase, the roll in view and the winner, seen from the observing player.
The information state tensor is the same vector: the position is fully observed and Markov
(nothing in the history changes what can happen next), so it is a sufficient statistic; the
information state string is the action history (perfect recall), the observation string the
one-line position of the engine (`to_text`) with the observer's seat.

Scoring an OpenSpiel bot: `game.new_state_from(engine_state)` is a state at any position, and
`bot_policy(bot, game)` makes a bot a policy for `robinson.rl.score`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from robinson.engine import (
    FACES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    Choose,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
    to_text,
)
from robinson.rl.match import check_reward, encode, final_reward, legal, observation_size

NAME = "python_robinson"
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "edition": "standard",
    "start_tokens": 30,
    "stake": 10,
    "share": "half",
    "first": 0,
    "reward": "win",
    "max_game_length": 10_000,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Robinson (the Robinson Crusoe dice race)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


class RobinsonGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.ruleset = Ruleset(p["edition"], p["start_tokens"], p["stake"], p["share"])
        self.players = int(p["players"])
        self.first = int(p["first"])
        self.reward = check_reward(p["reward"])
        new_game(self.players, self.ruleset, self.first)  # checks players and first
        tokens = self.players * self.ruleset.start_tokens
        low, high = (
            (0.0, 1.0)
            if self.reward == "win"
            else (-self.ruleset.start_tokens, tokens - self.ruleset.start_tokens)
        )
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=len(OPTIONS),
                max_chance_outcomes=len(FACES),
                num_players=self.players,
                min_utility=float(low),
                max_utility=float(high),
                utility_sum=None,
                max_game_length=int(p["max_game_length"]),
            ),
            p,
        )

    def new_initial_state(self) -> RobinsonState:
        return RobinsonState(self)

    def new_state_from(self, position: State) -> RobinsonState:
        """A state of this game standing at `position`, an engine state of the same ruleset and
        table (say `PawnPosition.to_state(players, ruleset)`): the way to put an OpenSpiel bot
        at any position, e.g. to score it (`bot_policy`). Its action history is empty, so it
        cannot be serialised or replayed from the start; everything else works as usual."""
        if position.ruleset != self.ruleset or len(position.players) != self.players:
            raise ValueError(
                f"the position is a game of {len(position.players)} under"
                f" {position.ruleset.edition!r}; this game has {self.players} under"
                f" {self.ruleset.edition!r} (and its money options)"
            )
        state = RobinsonState(self)
        state.engine = position
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RobinsonObserver:
        if params:
            raise ValueError(f"python_robinson's observer takes no parameters, got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RobinsonObserver(self.players, recall)


class RobinsonState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RobinsonGame) -> None:
        super().__init__(game)
        self.engine: State = new_game(game.players, game.ruleset, game.first)
        self._reward = game.reward
        self._length = 0
        self._cut = False  # stopped at max_game_length

    @property
    def over(self) -> bool:
        return self.engine.over or self._cut

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.engine.is_chance_node:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine.to_move is not None
        return self.engine.to_move

    def _legal_actions(self, player: int) -> list[int]:
        del player
        return sorted(OPTIONS.index(o) for o in legal(self.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face - 1, 1.0 / len(FACES)) for face in FACES]

    def _apply_action(self, action: int) -> None:
        if self.engine.is_chance_node:
            self.engine, _ = apply(self.engine, Roll(int(action) + 1))
        else:
            self.engine, _ = apply(self.engine, Choose(OPTIONS[int(action)]))
        self._length += 1
        if self._length >= self.get_game().max_game_length() and not self.engine.over:
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {int(action) + 1}"
        return OPTIONS[int(action)]

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * len(self.engine.players)
        return [final_reward(self.engine, s, self._reward) for s in range(len(self.engine.players))]

    def __str__(self) -> str:
        return to_text(self.engine)


def bot_policy(bot: Any, game: RobinsonGame) -> Callable[[Any], str]:
    """An OpenSpiel bot (`bot.step(state) -> action`, e.g. `pyspiel.make_uniform_random_bot` or
    open_spiel's `MCTSBot`) as a policy of pawn positions for `robinson.rl.score`: each decision
    is put to the bot as a state of `game` at that position, the mover in seat 0."""

    def policy(position: Any) -> str:
        state = game.new_state_from(position.to_state(game.players, game.ruleset))
        return OPTIONS[int(bot.step(state))]

    return policy


class RobinsonObserver:
    """OpenSpiel's PyObserver: `tensor` and `string_from` (see the module doc)."""

    def __init__(self, players: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: RobinsonState, player: int) -> None:
        self.tensor[:] = encode(state.engine, player)

    def string_from(self, state: RobinsonState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player} {state.history_str()}"
        return f"p{player} {to_text(state.engine)}"


pyspiel.register_game(_GAME_TYPE, RobinsonGame)
