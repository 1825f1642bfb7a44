"""The level order of the joint solve (`levels.py`): its premises read off the engine's turn
trees, and its result equal to plain Gauss-Seidel sweeps over the whole chain."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from robinson.analysis.exact import codes, kernel
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.joint import Solution, chain_model, flatten, solve_joint
from robinson.analysis.exact.levels import code_graph, code_levels, reachable_codes, solve_order
from robinson.analysis.exact.turns import build_turn_trees
from robinson.engine import Ruleset

EDITIONS = ["standard", "lv", "cs", "ca", "classic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_turn_lowers_a_pawns_level(edition: str) -> None:
    trees = build_turn_trees(Ruleset(edition))
    lv = code_levels(trees)
    held = reachable_codes(trees)
    edge = code_graph(trees)
    for a, b in zip(*np.nonzero(edge & held[:, None]), strict=True):
        assert lv.level[b] >= lv.level[a] >= 0, (edition, a, b)
        if lv.level[b] == lv.level[a]:
            assert lv.cyclic[a], (edition, a, b)  # a transition inside a level is a cycle
    assert lv.level[36] == lv.level[41]  # the ship swap moves pawns inside one level


def test_the_standard_levels_are_the_known_loops() -> None:
    lv = code_levels(build_turn_trees(Ruleset("standard")))
    cyclic = {c for c in range(codes.K) if lv.cyclic[c]}
    # restart (4 -> 1..3), the tree's stay, the footprint (25 -> 14), bounces and the ship.
    assert cyclic == {1, 2, 3, 4, 7} | set(range(14, 25)) | set(range(36, 45))
    assert len({lv.level[c] for c in range(14, 25)}) == 1
    assert len({lv.level[c] for c in range(36, 45)}) == 1


@pytest.mark.parametrize("m", [2, 3])
def test_the_order_covers_every_held_state_once(m: int) -> None:
    trees = build_turn_trees(Ruleset("standard"))
    order = solve_order(trees, m)
    held = np.flatnonzero(reachable_codes(trees))
    expected = sorted(
        sum(c * codes.K ** (m - 1 - k) for k, c in enumerate(cs))
        for cs in itertools.product(held.tolist(), repeat=m)
    )
    assert sorted(order.states.tolist()) == expected
    assert order.gptr[0] == 0 and order.gptr[-1] == len(expected)
    assert order.stages[0] == 0 and order.stages[-1] == len(order.cyclic)


def _plain_sweeps(edition: str, m: int, policy: str) -> np.ndarray:
    """The chain solved the old way: Gauss-Seidel over every state in index order, to 1e-14."""
    game = solve_game(Ruleset(edition), m, policy)
    trees, flat = game.trees, flatten(game.trees)
    states = np.sort(solve_order(trees, m).states)
    v = np.zeros((codes.K**m, m))
    vsub = game.chains[m - 2].values
    sweeps = np.zeros(1, dtype=np.int64)
    model = chain_model(flat, v, vsub, kernel.policy_rules(policy == "optimal"))
    gptr = np.array([0, len(states)], dtype=np.int64)
    kernel.solve_groups(
        states, gptr, np.array([True]), np.zeros(1, dtype=np.int64), *model, 1e-14, 10_000, sweeps
    )
    assert sweeps[0] < 10_000
    return v


@pytest.mark.parametrize(
    ("edition", "m", "policy"),
    [(e, 2, p) for e in EDITIONS for p in ("eager", "optimal")]
    + [("standard", 3, "eager"), ("standard", 3, "optimal")],
)
def test_level_order_equals_plain_sweeps(edition: str, m: int, policy: str) -> None:
    game = solve_game(Ruleset(edition), m, policy)
    solved = game.chains[m - 1]
    assert solved.residual <= 1e-13
    assert np.abs(solved.values - _plain_sweeps(edition, m, policy)).max() < 1e-11


def test_threads_do_not_change_the_result() -> None:
    trees = build_turn_trees(Ruleset("standard"))
    sub: Solution | None = None
    for m in (1, 2):
        sub = solve_joint(trees, m, sub, optimal=True)
    one = solve_joint(trees, 3, sub, optimal=True, threads=1)
    two = solve_joint(trees, 3, sub, optimal=True, threads=2)
    assert np.array_equal(one.values, two.values)
