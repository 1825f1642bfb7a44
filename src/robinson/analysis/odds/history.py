"""The chances of every seat over a whole game, turn by turn, and the turns that swung them most.

A point is the position at the start of a turn (before its first roll; x = the turn's number,
`version` = the actions played before it, so a page can jump there), plus the final position.
A swing is the change of the mover's own chance over his turn, named by his first roll and the
square he rolled from: "Anna's 6 on 42 cost her 23 points".
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from robinson.analysis.odds import position_odds
from robinson.engine import Action, GameRecord, Roll, State, TurnBegan, apply

CHART_GAMES = 20_000  # games per point when the chances are simulated (5 to 8 living players)


@dataclass(frozen=True)
class Point:
    turn: int
    version: int
    seat: int | None  # who moves in this turn (None: the game is over)
    square: int | None  # where he stands at its start
    roll: int | None  # his first roll in it (None: the record ends before it)
    p_win: list[float]
    exact: bool = True  # from the exact chain (else simulated: more than EXACT_LIVING alive)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "version": self.version,
            "seat": self.seat,
            "square": self.square,
            "roll": self.roll,
            "p_win": self.p_win,
        }


def turn_starts(record: GameRecord) -> list[tuple[int, State]]:
    """(version, position) at the start of every turn, and at the end of the record."""
    return [(v, st) for v, st, _ in _starts(record.actions, 0, record.initial_state())]


def _starts(actions: Sequence[Action], version: int, state: State) -> list[tuple[int, State, bool]]:
    """(version, position, is a turn's start) from the turn that starts at `version` with
    `state` to the end of `actions`: every turn's start, and the record's end (not a start
    unless the game is over or a turn begins there)."""
    starts = [(version, state, True)]
    for v in range(version, len(actions)):
        state, events = apply(state, actions[v])
        if state.over or any(isinstance(e, TurnBegan) for e in events):
            starts.append((v + 1, state, True))
    if starts[-1][0] != len(actions):
        starts.append((len(actions), state, False))
    return starts


def _point(
    turn: int,
    version: int,
    state: State,
    actions: Sequence[Action],
    policy: str,
    games: int,
    seed: int,
) -> Point:
    action = actions[version] if version < len(actions) else None
    seat = state.to_move
    odds = position_odds(state, policy, games, seed)
    return Point(
        turn=turn,
        version=version,
        seat=seat,
        square=None if seat is None else state.players[seat].position,
        roll=action.face if isinstance(action, Roll) else None,
        p_win=odds["p_win"],
        exact=odds["method"] == "exact",
    )


def chances_over_game(
    record: GameRecord, policy: str = "eager", games: int = CHART_GAMES, seed: int = 0
) -> list[Point]:
    return Chart.empty(record).grown(record, policy, games, seed).points()


@dataclass(frozen=True)
class Chart:
    """The chart of a game that is still being played, kept to be grown: the points of the
    turns before the last one that has started (settled: a turn's start never changes), and
    the position where that turn started. Growing it to a longer record of the same game
    replays only the actions since then, so a chart costs what the new turns cost, not the
    whole game again (`chances_over_game` is a chart grown once from the start)."""

    settled: tuple[Point, ...]
    turn: int  # the number of the last started turn
    version: int  # the actions before it
    state: State  # the position at its start
    tail: tuple[Point, ...] = ()  # its point, and the record's end when that is no start

    @classmethod
    def empty(cls, record: GameRecord) -> Chart:
        return cls((), 0, 0, record.initial_state())

    def points(self) -> list[Point]:
        return [*self.settled, *self.tail]

    def grown(
        self, record: GameRecord, policy: str = "eager", games: int = CHART_GAMES, seed: int = 0
    ) -> Chart:
        """The chart of `record`, which must be this chart's game with as many actions or
        more (the same policy, games and seed)."""
        if len(record.actions) < self.version:
            raise ValueError(
                f"a chart of {self.version} actions cannot shrink to {len(record.actions)}"
            )
        starts = _starts(record.actions, self.version, self.state)
        points = [
            _point(self.turn + i, v, st, record.actions, policy, games, seed)
            for i, (v, st, _) in enumerate(starts)
        ]
        last = max(i for i, (_, _, is_start) in enumerate(starts) if is_start)
        _, state, _ = starts[last]
        return Chart(
            (*self.settled, *points[:last]),
            self.turn + last,
            starts[last][0],
            state,
            tuple(points[last:]),
        )


@dataclass(frozen=True)
class Swing:
    turn: int
    version: int
    seat: int
    roll: int
    square: int
    delta: float  # the change of his own chance over the turn (-1..1)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "version": self.version,
            "seat": self.seat,
            "roll": self.roll,
            "square": self.square,
            "delta": self.delta,
        }


def biggest_swings(points: list[Point], count: int = 3) -> list[Swing]:
    """The `count` turns that changed their mover's own chance the most, largest first."""
    swings = []
    for here, after in itertools.pairwise(points):
        if here.seat is None or here.roll is None or here.square is None:
            continue
        delta = after.p_win[here.seat] - here.p_win[here.seat]
        swings.append(Swing(here.turn, here.version, here.seat, here.roll, here.square, delta))
    swings.sort(key=lambda s: (-abs(s.delta), s.turn))
    return swings[:count]
