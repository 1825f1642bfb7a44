"""Per-game results of a run of games, as arrays: what both simulators produce."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.engine import HOME, Phase, Ruleset, State, new_game

SQUARE_COUNT = HOME + 1  # squares 0..45


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares: the rules, the table and the dice seed, and where the
    games start: the opening with `first` to move, or `position` (an engine state at a roll,
    e.g. the middle of a game: the games continue it)."""

    ruleset: Ruleset
    players: int
    first: int = 0
    seed: int = 0
    position: State | None = None

    def start(self) -> State:
        """The position every game starts from."""
        if self.position is None:
            return new_game(self.players, self.ruleset, self.first)
        p = self.position
        if p.ruleset != self.ruleset or len(p.players) != self.players:
            raise ValueError(
                f"the position is a game of {len(p.players)} under {p.ruleset.edition!r};"
                f" the setup says {self.players} under {self.ruleset.edition!r}"
            )
        if p.phase is not Phase.ROLL or p.to_move is None:
            raise ValueError(
                f"games start from a position at a roll, got phase {p.phase.value!r}"
                " (play the pending decision first)"
            )
        return p


@dataclass
class Batch:
    """Results of games offset .. offset+len-1. Row i is one game; seat columns are 0..n-1.

    winner is a seat, -1 when everybody died and -2 when the run was cut at its roll limit;
    bank is the bank after the game (0 when somebody won), pot the bank the winner took (or the
    unclaimed bank); turns count every seat's turns, skipped ones included; landings counts, over
    the batch, how often each square was landed on by a roll (square 25's footprint also lands on
    14)."""

    offset: int
    winner: npt.NDArray[np.int8]
    rolls: npt.NDArray[np.int32]
    turns: npt.NDArray[np.int32]
    winner_turns: npt.NDArray[np.int32]
    bank: npt.NDArray[np.int32]
    pot: npt.NDArray[np.int32]
    bindings: npt.NDArray[np.int32]
    position: npt.NDArray[np.int8]
    purse: npt.NDArray[np.int32]
    alive: npt.NDArray[np.bool_]
    friday: npt.NDArray[np.int8]
    landings: npt.NDArray[np.int64]

    @classmethod
    def empty(cls, offset: int, games: int, players: int) -> Batch:
        return cls(
            offset=offset,
            winner=np.zeros(games, np.int8),
            rolls=np.zeros(games, np.int32),
            turns=np.zeros(games, np.int32),
            winner_turns=np.zeros(games, np.int32),
            bank=np.zeros(games, np.int32),
            pot=np.zeros(games, np.int32),
            bindings=np.zeros(games, np.int32),
            position=np.zeros((games, players), np.int8),
            purse=np.zeros((games, players), np.int32),
            alive=np.zeros((games, players), np.bool_),
            friday=np.zeros((games, players), np.int8),
            landings=np.zeros(SQUARE_COUNT, np.int64),
        )

    def __len__(self) -> int:
        return len(self.winner)

    def head(self, offset: int, games: int) -> Batch:
        """The first `games` rows, as views (to be overwritten), for games from `offset`."""
        if games > len(self):
            raise ValueError(f"a batch of {len(self)} games cannot hold {games}")
        return Batch(
            offset=offset,
            winner=self.winner[:games],
            rolls=self.rolls[:games],
            turns=self.turns[:games],
            winner_turns=self.winner_turns[:games],
            bank=self.bank[:games],
            pot=self.pot[:games],
            bindings=self.bindings[:games],
            position=self.position[:games],
            purse=self.purse[:games],
            alive=self.alive[:games],
            friday=self.friday[:games],
            landings=np.zeros(SQUARE_COUNT, np.int64),
        )
