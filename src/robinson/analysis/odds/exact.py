"""Exact chances of any position with at most four living players, read off the solved chain.

A position maps to a state of the chain of its m living players (docs/analysis.md): at the roll
of the player to move (the start of a turn, or an extra roll inside one: both roll from the
pawn's square, so they are the same state where a turn can begin), the codes of the living pawns
in turn order from the mover, as the index `sum(c[k] * K**(m - 1 - k))`. `V[index, k]` is the
chance of the k-th living seat from the mover. Money, Fridays and the bank play no part (no rule
reads them to move a pawn).

At a pending decision the chances are those of the position after the option the policy takes
(the eager one; for `optimal`, the other one when it is better for the chooser by more than the
solver's `DECISION_MARGIN`, the rule the solver itself applies), and each option's chance for the
chooser is given in `options`: every option is played by the engine and the position it leads to
is looked up. Nothing is solved per position.

An extra roll from a square where no turn ever begins (in `classic`, bread's compulsory roll on
20: every landing there rolls on) has no state of its own in the chain, which solves only the
codes a pawn can hold at the start of a turn and leaves the others 0. That roll is the chance
node it is: the mean over the six faces of the positions they lead to.
"""

from __future__ import annotations

import functools

from robinson.analysis.exact import codes
from robinson.analysis.exact.kernel import DECISION_MARGIN
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.turns import build_turn_trees
from robinson.analysis.odds import tables
from robinson.analysis.policy import EAGER_OPTION, OTHER_OPTION
from robinson.engine import (
    DECISIONS,
    FACES,
    Choose,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    State,
    apply,
)


def turn_order(state: State) -> list[int]:
    """The living seats in turn order, the player to move first."""
    mover = state.to_move
    if mover is None:
        raise RobinsonError("the game is over: nobody is to move")
    n = len(state.players)
    return [s for s in ((mover + k) % n for k in range(n)) if state.players[s].alive]


def chain_index(state: State, order: list[int]) -> int:
    """The chain state of a position at a roll: the codes of the living pawns in `order`."""
    index = 0
    for seat in order:
        p = state.players[seat]
        index = index * codes.K + codes.code(p.position, p.skips)
    return index


def finished(state: State) -> list[float]:
    """A game that is over: 1 for the winner, 0 for everybody else (all 0 if all died)."""
    return [1.0 if seat == state.winner else 0.0 for seat in range(len(state.players))]


def p_win(state: State, policy: str) -> list[float]:
    """Every seat's chance of winning from `state` under `policy` (at most 4 living players)."""
    if state.over:
        return finished(state)
    if state.phase is not Phase.ROLL:
        return p_win(after_decision(state, policy), policy)
    if not begins_turns(state):
        return _rolled(state, policy)
    order = turn_order(state)
    row = tables.row(state.ruleset, policy, len(order), chain_index(state, order))
    chances = [0.0] * len(state.players)
    for k, seat in enumerate(order):
        chances[seat] = row[k]
    return chances


@functools.lru_cache(maxsize=16)
def _held_codes(ruleset: Ruleset) -> tuple[bool, ...]:
    """held[c]: a turn can begin with the mover on code c (the chain has its states)."""
    return tuple(bool(x) for x in reachable_codes(build_turn_trees(tables.rules_ruleset(ruleset))))


def begins_turns(state: State) -> bool:
    """Whether the chain holds the mover's pawn as it stands (others always begin turns there:
    they ended one)."""
    mover = state.players[state.to_move or 0]
    return _held_codes(state.ruleset)[codes.code(mover.position, mover.skips)]


def _rolled(state: State, policy: str) -> list[float]:
    """The chances at a roll, as the mean over its faces."""
    chances = [0.0] * len(state.players)
    for face in FACES:
        for seat, p in enumerate(p_win(apply(state, Roll(face))[0], policy)):
            chances[seat] += p / len(FACES)
    return chances


def option_chances(state: State, policy: str) -> dict[str, float]:
    """At a pending decision: the chooser's chance after each option, in DECISIONS order."""
    seat = state.to_move
    assert seat is not None
    return {
        option: p_win(apply(state, Choose(option))[0], policy)[seat]
        for option in DECISIONS[state.phase]
    }


def choice(state: State, policy: str, options: dict[str, float]) -> str:
    """The option `policy` takes at the decision pending in `state`."""
    eager, other = EAGER_OPTION[state.phase], OTHER_OPTION[state.phase]
    if policy == "optimal" and options[other] > options[eager] + DECISION_MARGIN:
        return other
    return eager


def after_decision(state: State, policy: str) -> State:
    option = choice(state, policy, option_chances(state, policy))
    return apply(state, Choose(option))[0]
