"""The chances of every seat over a whole game, turn by turn, and the turns that swung them most.

A point is the position at the start of a turn (before its first roll; x = the turn's number,
`version` = the actions played before it, so a page can jump there), plus the final position.
A swing is the change of the mover's own chance over his turn, named by his first roll and the
square he rolled from: "Anna's 6 on 42 cost her 23 points".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from robinson.analysis.odds import position_odds
from robinson.engine import GameRecord, Roll, State, TurnBegan

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
    state = record.initial_state()
    starts = [(0, state)]
    for version, (_, after, events) in enumerate(record.steps(), start=1):
        state = after
        if after.over or any(isinstance(e, TurnBegan) for e in events):
            starts.append((version, after))
    if starts[-1][0] != len(record.actions):
        starts.append((len(record.actions), state))
    return starts


def chances_over_game(
    record: GameRecord, policy: str = "eager", games: int = CHART_GAMES, seed: int = 0
) -> list[Point]:
    points = []
    for turn, (version, state) in enumerate(turn_starts(record)):
        action = record.actions[version] if version < len(record.actions) else None
        seat = state.to_move
        odds = position_odds(state, policy, games, seed)
        points.append(
            Point(
                turn=turn,
                version=version,
                seat=seat,
                square=None if seat is None else state.players[seat].position,
                roll=action.face if isinstance(action, Roll) else None,
                p_win=odds["p_win"],
                exact=odds["method"] == "exact",
            )
        )
    return points


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
