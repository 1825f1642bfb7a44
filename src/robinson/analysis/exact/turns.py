"""One player's turn, read off the engine: for every pawn code, the tree of what a turn can do.

A turn is a small tree: a chance node (the roll), decision nodes (4, 7, 20, 23, with the roll in
view where there is one), further chance nodes for extra rolls (bread `again`, fever in `lv`/`cs`)
and leaves (where the pawn ends the turn, or win, or death). The tree depends only on the mover's
own pawn: the other pawns matter to movement only through the ship swap on 36, which the joint
chain applies to a leaf on 36 (see `joint.py`). So the trees are built by driving the real engine
(`apply` on every legal action) from a two-player position whose other pawn stands on 0, and a
test checks the joint transitions built from them against the engine on whole positions.

Flattened for numba: node i has `ntype[i]` (LEAF, CHANCE, DECIDE), for a chance node six children
`child[i, 0..5]` (faces 1..6), for a decision `child[i, 0]` the eager option and `child[i, 1]` the
other one, `kind[i]`/`roll[i]` (the decision's index in `DECISION_KINDS` and the roll in view, 0
if none), and for a leaf `leaf[i]`: a pawn code, `WIN` or `DEAD`. Children always have larger
indices than their parent, so evaluating a tree from its last node to its root sees children
first. Nodes of code c are `start[c] .. start[c + 1] - 1`, root first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, EAGER_OPTION, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.engine import (
    FACES,
    SHIPWRECK_SQUARE,
    Choose,
    Event,
    Moved,
    Phase,
    Player,
    RobinsonError,
    Roll,
    Ruleset,
    State,
    TurnBegan,
    apply,
)

LEAF, CHANCE, DECIDE = 0, 1, 2
WIN, DEAD = -1, -2
# Moves that resolve the square they end on: these are "landings" (canoe and swap moves are not).
_LANDING_CAUSES = ("roll", "restart", "footprint")


@dataclass(frozen=True)
class TurnTrees:
    ruleset: Ruleset
    ntype: npt.NDArray[np.int8]
    kind: npt.NDArray[np.int8]
    roll: npt.NDArray[np.int8]
    child: npt.NDArray[np.int32]  # (nodes, 6)
    leaf: npt.NDArray[np.int32]
    # landings[i, s]: times square s is landed on between node i's parent and node i.
    landings: npt.NDArray[np.int8]  # (nodes, 46)
    start: npt.NDArray[np.int32]  # (K + 1,)

    @property
    def nodes(self) -> int:
        return len(self.ntype)


class _Builder:
    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.ntype: list[int] = []
        self.kind: list[int] = []
        self.roll: list[int] = []
        self.child: list[list[int]] = []
        self.leaf: list[int] = []
        self.landings: list[list[int]] = []

    def node(self, ntype: int, landed: list[int]) -> int:
        self.ntype.append(ntype)
        self.kind.append(-1)
        self.roll.append(0)
        self.child.append([-1] * 6)
        self.leaf.append(0)
        counts = [0] * (codes.HOME + 1)
        for square in landed:
            counts[square] += 1
        self.landings.append(counts)
        return len(self.ntype) - 1

    def turn(self, position: int) -> None:
        """The tree of a turn of a pawn standing on `position` with no pending skip."""
        mover = Player(position=position, shipwrecked=position == SHIPWRECK_SQUARE)
        state = State(self.ruleset, (mover, Player()), 0, 0, Phase.ROLL)
        self.chance(state, [])

    def chance(self, state: State, landed: list[int]) -> int:
        i = self.node(CHANCE, landed)
        for f, face in enumerate(FACES):
            after, events = apply(state, Roll(face))
            self.child[i][f] = self.follow(after, events)
        return i

    def follow(self, state: State, events: tuple[Event, ...]) -> int:
        landed = [e.end for e in events if isinstance(e, Moved) and e.cause in _LANDING_CAUSES]
        turn_over = state.over or any(isinstance(e, TurnBegan) for e in events)
        if turn_over:
            i = self.node(LEAF, landed)
            self.leaf[i] = self.outcome(state)
            return i
        if state.phase is Phase.ROLL:  # an extra roll within the same turn
            return self.chance(state, landed)
        i = self.node(DECIDE, landed)
        self.kind[i] = DECISION_KINDS.index(state.phase)
        self.roll[i] = state.pending_roll or 0
        for slot, option in enumerate((EAGER_OPTION[state.phase], OTHER_OPTION[state.phase])):
            after, more = apply(state, Choose(option))
            self.child[i][slot] = self.follow(after, more)
        return i

    def outcome(self, state: State) -> int:
        mover = state.players[0]
        if state.winner == 0:
            return WIN
        if not mover.alive:
            return DEAD
        if mover.shipwrecked != (mover.position == SHIPWRECK_SQUARE):
            raise RobinsonError(f"engine broke the mark-iff-on-4 invariant: {mover}")
        return codes.code(mover.position, mover.skips)


def build_turn_trees(ruleset: Ruleset) -> TurnTrees:
    """Drive the engine through every turn of every pawn code."""
    b = _Builder(ruleset)
    start = []
    for c in range(codes.K):
        start.append(len(b.ntype))
        if codes.has_skip(c):  # a skipped turn: no roll, the skip is used up
            i = b.node(LEAF, [])
            b.leaf[i] = codes.without_skip(c)
        else:
            b.turn(c)
    start.append(len(b.ntype))
    return TurnTrees(
        ruleset=ruleset,
        ntype=np.array(b.ntype, dtype=np.int8),
        kind=np.array(b.kind, dtype=np.int8),
        roll=np.array(b.roll, dtype=np.int8),
        child=np.array(b.child, dtype=np.int32),
        leaf=np.array(b.leaf, dtype=np.int32),
        landings=np.array(b.landings, dtype=np.int8),
        start=np.array(start, dtype=np.int32),
    )
