"""What the three interfaces (PettingZoo, Gymnasium, OpenSpiel) share: the action numbering, the
observation vector, and `Match`, one game driven by the environment's die.

No RL library is imported here: only the engine's public API and numpy.

Actions
-------
`ACTIONS[i]` is action i: the six decision options of the engine (`restart`, `move`, `stay`,
`again`, `stop`, `jump`) and then `roll`. A decision offers two of the options (the action mask
marks them); `roll` is offered only where an environment asks a player to throw (the opening
throw, see `Match`). OpenSpiel has explicit chance nodes and uses only the six options.

Observation (`encode(state, seat)`)
-----------------------------------
A float32 vector seen from `seat`: the seats are listed starting with `seat` itself, then the
others clockwise (relative seat k is absolute seat (seat + k) mod n), so one policy can play any
seat. Per relative seat, `SEAT_FEATURES(n)` numbers:

    position one-hot (46: squares 0..45) | alive | purse | skips | shipwreck mark |
    Friday one-hot (n: relative seat of his Friday, all zero for none) | to move

then the game: `bank | phase one-hot (roll, shipwreck, tree, bread, canoe, over) |
pending roll one-hot (6: the roll in view at the shipwreck and the tree) | winner one-hot (n)`.
Purses and the bank are raw token counts (at most players x start_tokens). `feature_names(n)`
names every number (`seat0.square=7`, `seat1.purse`, `phase=tree`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from robinson.engine import (
    DECISIONS,
    FACES,
    HOME,
    OPTIONS,
    Action,
    Choose,
    GameRecord,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
)

ROLL = "roll"
ACTIONS: tuple[str, ...] = (*OPTIONS, ROLL)
ROLL_ACTION = ACTIONS.index(ROLL)
PHASES: tuple[Phase, ...] = tuple(Phase)
SQUARES_SEEN = HOME + 1  # squares 0..45
REWARDS = ("win", "tokens")


def seat_features(players: int) -> int:
    return SQUARES_SEEN + 4 + players + 1


def feature_names(players: int) -> tuple[str, ...]:
    """The name of every number of the observation, in order (relative seats: `seat0` is the
    observer): `seat0.square=7`, `seat1.purse`, `bank`, `phase=tree`, `roll=3`, `winner=seat0`,
    ... The layout `encode` writes, spelled out (a test holds the two together)."""
    names: list[str] = []
    for k in range(players):
        me = f"seat{k}"
        names += [f"{me}.square={q}" for q in range(SQUARES_SEEN)]
        names += [f"{me}.alive", f"{me}.purse", f"{me}.skips", f"{me}.shipwreck_mark"]
        names += [f"{me}.friday=seat{j}" for j in range(players)]
        names.append(f"{me}.to_move")
    names.append("bank")
    names += [f"phase={phase.value}" for phase in PHASES]
    names += [f"roll={face}" for face in FACES]
    names += [f"winner=seat{j}" for j in range(players)]
    return tuple(names)


def observation_size(players: int) -> int:
    return players * seat_features(players) + 1 + len(PHASES) + len(FACES) + players


def observation_bounds(
    players: int, ruleset: Ruleset
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The observation's lowest and highest values: 0, and 1 except for purses, the bank
    (every token of the game) and skips (at most one pending at a time)."""
    tokens = float(max(1, players * ruleset.start_tokens))
    high = np.ones(observation_size(players), dtype=np.float32)
    per = seat_features(players)
    for k in range(players):
        high[k * per + SQUARES_SEEN + 1] = tokens  # purse
    high[players * per] = tokens  # bank
    return np.zeros_like(high), high


def encode(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation vector of `state` seen from `seat` (layout in the module doc)."""
    n = len(state.players)
    per = seat_features(n)
    out = np.zeros(observation_size(n), dtype=np.float32)
    for k in range(n):
        p = state.players[(seat + k) % n]
        base = k * per
        out[base + p.position] = 1.0
        out[base + SQUARES_SEEN] = float(p.alive)
        out[base + SQUARES_SEEN + 1] = p.purse
        out[base + SQUARES_SEEN + 2] = p.skips
        out[base + SQUARES_SEEN + 3] = float(p.shipwrecked)
        if p.friday is not None:
            out[base + SQUARES_SEEN + 4 + (p.friday - seat) % n] = 1.0
        if state.to_move == (seat + k) % n and not state.over:
            out[base + per - 1] = 1.0
    at = n * per
    out[at] = state.bank
    out[at + 1 + PHASES.index(state.phase)] = 1.0
    at += 1 + len(PHASES)
    if state.pending_roll is not None:
        out[at + state.pending_roll - 1] = 1.0
    at += len(FACES)
    if state.winner is not None:
        out[at + (state.winner - seat) % n] = 1.0
    return out


def legal(state: State) -> tuple[str, ...]:
    """The action names the player to move may take now (never the die at a chance node)."""
    return DECISIONS.get(state.phase, ())


def to_action(index: object, allowed: Sequence[str]) -> str:
    """The action name of `index` (an int or numpy integer), checked against `allowed`."""
    if isinstance(index, np.ndarray) and index.shape == ():
        index = index.item()
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise RobinsonError(f"an action is a whole number 0..{len(ACTIONS) - 1}, got {index!r}")
    i = int(index)
    if not 0 <= i < len(ACTIONS) or ACTIONS[i] not in allowed:
        offered = ", ".join(f"{ACTIONS.index(a)} ({a})" for a in allowed)
        raise RobinsonError(f"action {index!r} is not allowed now: expected one of {offered}")
    return ACTIONS[i]


def mask(allowed: Iterable[str]) -> npt.NDArray[np.int8]:
    out = np.zeros(len(ACTIONS), dtype=np.int8)
    for a in allowed:
        out[ACTIONS.index(a)] = 1
    return out


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise RobinsonError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return reward


def final_reward(state: State, seat: int, reward: str) -> float:
    """What `seat` earns for the whole game: 1 for the winner (`win`), or his purse change,
    stake included (`tokens`: final purse minus start_tokens). Fixed once the game is over or
    the seat is dead (a dead player's purse takes no further part, RULES.md 7)."""
    if reward == "win":
        return 1.0 if state.winner == seat else 0.0
    return float(state.players[seat].purse - state.ruleset.start_tokens)


Die = Callable[[], int]


def dice_from(faces: Iterable[object]) -> Die:
    """A die that gives `faces` in order, then refuses to roll (for replaying a record)."""
    checked = []
    for i, f in enumerate(faces):
        if isinstance(f, bool) or not isinstance(f, int | np.integer) or not 1 <= int(f) <= 6:
            raise RobinsonError(f"dice[{i}] must be a whole number from 1 to 6, got {f!r}")
        checked.append(int(f))
    it: Iterator[int] = iter(checked)

    def roll() -> int:
        try:
            return next(it)
        except StopIteration:
            raise RobinsonError(
                f"the given dice ran out after {len(checked)} rolls: the game needs more"
            ) from None

    return roll


@dataclass
class Match:
    """One game: the engine state, its record, and a die the environment owns.

    The environment throws for everybody: `play_dice()` rolls until a decision is pending or
    the game is over (skipped turns take no action, the engine passes them). `opening` is true
    until the first throw of the game has been made; environments let the first player make it
    (`throw()`), so that a game never ends inside `reset` (PettingZoo and Gymnasium need a live
    first step; in the `classic` edition no decision ever comes)."""

    players: int
    ruleset: Ruleset
    first: int
    names: tuple[str, ...]
    die: Die
    state: State = field(init=False)
    actions: list[Action] = field(init=False)

    def __post_init__(self) -> None:
        if len(self.names) != self.players:
            raise RobinsonError(f"{self.players} players need {self.players} names")
        self.state = new_game(self.players, self.ruleset, self.first)
        self.actions = []

    @property
    def opening(self) -> bool:
        return not self.actions

    @property
    def record(self) -> GameRecord:
        return GameRecord(self.ruleset, self.names, self.first, tuple(self.actions))

    def apply(self, action: Action) -> None:
        self.state, _ = apply(self.state, action)
        self.actions.append(action)

    def throw(self) -> None:
        """One roll of the die for the player to move."""
        if self.state.phase is not Phase.ROLL:
            raise RobinsonError(f"no roll is due: the game is in phase {self.state.phase.value}")
        self.apply(Roll(self.die()))

    def choose(self, option: str) -> None:
        self.apply(Choose(option))

    def play_dice(self) -> None:
        while self.state.phase is Phase.ROLL:
            self.throw()


def no_die() -> int:
    """The die of an environment that was never reset."""
    raise RobinsonError("reset() the environment before playing")


class MatchViews:
    """What the PettingZoo and Gymnasium environments show of their `Match`, for tests and
    tools."""

    _match: Match

    @property
    def engine_state(self) -> State:
        """The engine `State` of the game (not `state`: PettingZoo's `state()` is the global
        observation of environments that have one)."""
        return self._match.state

    @property
    def record(self) -> GameRecord:
        """The game so far as a `GameRecord` (the players named after the agents)."""
        return self._match.record
