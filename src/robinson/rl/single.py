"""The game as a Gymnasium environment: one seat (the learner) against the project's bots.

    env = SingleAgentEnv(players=3, seat=0, opponents="eager")   # or ["random", "optimal"]
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)

The learner acts at his opening throw (`roll`: every episode starts with a live step, and no game
can end before the learner's first turn) and then only where the rules give him a choice. The
environment rolls the die for everybody and the bots (`robinson.bots`: random, eager, heuristic,
optimal) answer their own decisions. Observation: the float32 vector of
`robinson.rl.match.encode` seen from the learner's seat. Action: 0 or 1, the first or the second
option of the decision pending, in the engine's order (`DECISIONS`: restart/move, stay/move,
again/stop, jump/stay); at the opening throw either one rolls. So every action is legal
everywhere, as Gymnasium's own checker and unmasked learners expect; `info["options"]` names
the two. The episode ends when the game ends or the learner dies; the reward comes
then: 1 if he won (`reward="win"`), or his purse change (`"tokens"`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from robinson.bots import BOT_NAMES, Bot, make_bot
from robinson.engine import Phase, RobinsonError, Ruleset
from robinson.rl.match import (
    ROLL,
    Match,
    MatchViews,
    check_reward,
    dice_from,
    encode,
    final_reward,
    legal,
    no_die,
    observation_bounds,
)
from robinson.rl.registration import register_gymnasium
from robinson.rl.render import render_ansi


class SingleAgentEnv(MatchViews, gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        players: int = 4,
        edition: str = "standard",
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "eager",
        reward: str = "win",
        render_mode: str | None = None,
        first: int = 0,
        **ruleset: Any,
    ) -> None:
        """`opponents`: one bot name for every other seat, or a list of names, one per other
        seat in seat order. `ruleset`: `start_tokens`, `stake`, `share`."""
        self.ruleset = Ruleset(edition, **ruleset)
        self.players = players
        self.names = tuple(f"player_{i}" for i in range(players))
        Match(players, self.ruleset, first, self.names, no_die)  # checks players and first
        if type(seat) is not int or not 0 <= seat < players:
            raise RobinsonError(f"seat must be a seat from 0 to {players - 1}, got {seat!r}")
        self.seat, self.first = seat, first
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise RobinsonError(
                f"opponents needs one bot name per other seat ({players - 1}), got {len(kinds)}"
            )
        for kind in kinds:
            if kind not in BOT_NAMES:
                raise RobinsonError(f"unknown bot {kind!r}: expected one of {', '.join(BOT_NAMES)}")
        self.opponent_kinds = kinds
        self.reward_kind = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RobinsonError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        low, high = observation_bounds(players, self.ruleset)
        self.observation_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(2)
        self._match = Match(players, self.ruleset, first, self.names, no_die)
        self._bots: dict[int, Bot] = {}
        self._thrown = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game, up to the learner's first throw. `seed` seeds the die and the bots;
        `options={"dice": [faces]}` plays those faces in order instead of the seeded die."""
        super().reset(seed=seed)
        dice = (options or {}).get("dice")
        die = dice_from(dice) if dice is not None else self._roll
        self._match = Match(self.players, self.ruleset, self.first, self.names, die)
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            s: make_bot(kind, int(self.np_random.integers(2**31)))
            for s, kind in zip(others, self.opponent_kinds, strict=True)
        }
        self._thrown = False
        self._advance()
        return self._observe(), self._info()

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._done():
            raise RobinsonError("the episode is over: reset() the environment")
        name = self._options()[to_choice(action)]
        if name == ROLL:
            self._match.throw()
            self._thrown = True
        else:
            self._match.choose(name)
        self._advance()
        done = self._done()
        reward = final_reward(self._match.state, self.seat, self.reward_kind) if done else 0.0
        return self._observe(), reward, done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return render_ansi(self._match.state, self.names)

    # -- inside ---------------------------------------------------------------------------------

    def _roll(self) -> int:
        return int(self.np_random.integers(1, 7))

    def _done(self) -> bool:
        state = self._match.state
        return state.over or not state.players[self.seat].alive

    def _options(self) -> tuple[str, str]:
        """What actions 0 and 1 do now."""
        if not self._thrown:
            return (ROLL, ROLL)
        a, b = legal(self._match.state)
        return (a, b)

    def _advance(self) -> None:
        """Roll and let the bots decide until the learner must act or his game is over."""
        while not self._done():
            state = self._match.state
            if state.phase is Phase.ROLL:
                if state.to_move == self.seat and not self._thrown:
                    return
                self._match.throw()
            elif state.to_move == self.seat:
                return
            else:
                assert state.to_move is not None
                self._match.apply(self._bots[state.to_move].choose(state))

    def _observe(self) -> npt.NDArray[np.float32]:
        return encode(self._match.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {} if self._done() else {"options": self._options()}


def to_choice(action: object) -> int:
    """Action 0 or 1 (an int or a numpy integer)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer) or action not in (0, 1):
        raise RobinsonError(f"an action is 0 or 1 (the first or second option), got {action!r}")
    return int(action)


# `gymnasium.make("robinson/SingleAgent-v0", players=3, opponents="optimal")` works too: the id is
# registered by `import robinson.rl` (registration.py); here in case this module came first.
register_gymnasium()
