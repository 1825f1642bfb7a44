"""What the solver found, in one place: where optimal play differs from eager, what it gains,
and how far the game is from n independent solitaires.

Method. The game of n players is solved twice, under `eager` (always the forward option) and
under `optimal` (each player maximises his own chance of winning, `exact/game.py`). For every
number m of living players (1..n), every decision (square 4 or 7 with each roll in view, 20,
23) and every placing of the other m - 1 pawns on codes a pawn can hold, the optimal solution
gives the mover's chance after each option; the other option "is better" where it beats the
forward one by more than the solver's `DECISION_MARGIN` (1e-12). Nothing here is a constant: the
counts, the gains and the sentence saying them come from the solved values.

The solitaires. Pawns meet only on the ship (a landing on 36 swaps with whoever stands on 41):
nothing else a pawn does depends on another one (money moves no pawn). Without the swap the game
would be n independent one-player races, and seat k (0 moving first) would win at his t-th turn
when he finishes on it, the seats before him have not finished in t turns and those after him
not in t - 1: P(k) = sum_t f(t) S(t)^k S(t-1)^(n-1-k), f the one-player distribution of the
finishing turn and S(t) the chance of not having finished after t turns (a dead pawn never
finishes). Its difference from the exact chances is the swap's effect.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from robinson.analysis.decisions import DECISION_KINDS, DECISION_SQUARES, OTHER_OPTION
from robinson.analysis.exact.game import GameSolution, solve_game
from robinson.analysis.exact.joint import Solution, option_values
from robinson.analysis.exact.kernel import DECISION_MARGIN
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.single import single_figures
from robinson.analysis.exact.turns import build_turn_trees
from robinson.analysis.odds import tables
from robinson.engine import Ruleset


def placings(game: GameSolution, m: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """ok[r]: the others-index r places the other m - 1 pawns on codes a pawn can hold."""
    ok = np.ones(1, dtype=bool)
    held = reachable_codes(game.trees)
    for _ in range(m - 1):
        ok = (ok[:, None] & held[None, :]).reshape(-1)
    return ok


def deviations(game: GameSolution, m: int) -> dict[str, Any]:
    """With m living players: each decision where the other option is better somewhere."""
    ok = placings(game, m)
    found = []
    for (kind, roll), values in sorted(game.options[m - 1].items()):
        gain = values[ok, 1, 0] - values[ok, 0, 0]
        better = gain > DECISION_MARGIN
        if better.any():
            phase = DECISION_KINDS[kind]
            found.append(
                {
                    "square": DECISION_SQUARES[phase],
                    "roll": roll or None,
                    "option": OTHER_OPTION[phase],
                    "placings": int(better.sum()),
                    "largest_gain": float(gain.max()),
                }
            )
    return {
        "living": m,
        "placings": int(ok.sum()),
        "decisions": len(game.options[m - 1]),
        "deviations": found,
    }


def solitaires(turns: np.ndarray[Any, np.dtype[np.float64]], players: int) -> list[float]:
    """Each seat's chance of winning n independent races (module docstring); `turns[t]` is
    P(one pawn finishes on exactly turn t)."""
    unfinished = 1.0 - np.cumsum(turns)  # S(t), t = 0, 1, ...
    before = np.concatenate(([1.0], unfinished[:-1]))  # S(t - 1)
    return [
        float((turns * unfinished**k * before ** (players - 1 - k)).sum()) for k in range(players)
    ]


def stored_game(ruleset: Ruleset, players: int, policy: str) -> GameSolution:
    """The game solved under `policy`, from the chains solved once per machine (the odds'
    tables, `robinson.analysis.odds.tables`), with each decision's option values computed from
    them: the same figures as `solve_game`, without solving again on every call."""
    rules = tables.rules_ruleset(ruleset)
    trees = build_turn_trees(rules)
    chains: list[Solution] = []
    options = []
    sub: Solution | None = None
    for m in range(1, players + 1):
        values = np.asarray(tables.values(rules, policy, m))
        chain = Solution(m, values, 0, 0.0, 0.0, 0.0)
        options.append(option_values(trees, chain, sub, policy == "optimal"))
        chains.append(chain)
        sub = chain
    return GameSolution(rules, players, policy, trees, tuple(chains), tuple(options))


def headline(ruleset: Ruleset, players: int) -> dict[str, Any]:
    """The figures of the module docstring for a table of `players` (1..4)."""
    eager, optimal = (stored_game(ruleset, players, p) for p in ("eager", "optimal"))
    by_living = [deviations(optimal, m) for m in range(1, players + 1)]
    alone = {
        policy: single_figures(solve_game(ruleset, 1, policy)) for policy in ("eager", "optimal")
    }
    exact = eager.p_win()
    product = solitaires(alone["eager"].turns, players)
    return {
        "differs": any(d["deviations"] for d in by_living),
        "differs_with_opponents": any(d["deviations"] for d in by_living[1:]),
        "by_living": by_living,
        "gain": [o - e for o, e in zip(optimal.p_win(), exact, strict=True)],
        "alone": {
            "p_finish": {p: f.p_finish for p, f in alone.items()},
            "mean_turns": {p: f.mean_turns for p, f in alone.items()},
        },
        "solitaires": {"p_win": product, "exact": exact},
    }


def sentence(h: dict[str, Any]) -> str:
    """The finding in words, built from the figures (never a fixed text)."""
    by_living = h["by_living"]
    players = len(by_living)
    parts = []
    decides = any(d["decisions"] for d in by_living)
    if not decides:
        parts.append("This edition has no decisions: optimal play is eager play.")
    with_others = by_living[1:]
    if decides and with_others and not h["differs_with_opponents"]:
        total = " / ".join(f"{d['placings']:,}" for d in with_others)
        sizes = " / ".join(str(d["living"]) for d in with_others)
        parts.append(
            f"While an opponent is alive the forward option is never worse: 0 of {total}"
            f" placings of the others for {sizes} living players, at every decision."
        )
    for d in by_living:
        if d["deviations"]:
            who = "A lone player" if d["living"] == 1 else f"With {d['living']} alive, optimal play"
            parts.append(f"{who} deviates from eager: {_spots(d)}.")
    if not h["differs"] and not parts:
        parts.append("Optimal play is eager play.")
    alone = h["alone"]
    finish = 100 * (alone["p_finish"]["optimal"] - alone["p_finish"]["eager"])
    longer = alone["mean_turns"]["optimal"] - alone["mean_turns"]["eager"]
    if h["differs"]:
        lone = (
            f"a lone player reaches 45 {finish:+.3f} points more often and, when he does,"
            f" takes {longer:+.2f} turns more on average."
        )
        if players > 1:
            gain = 100 * max(abs(g) for g in h["gain"])
            lone = (
                f"Optimal play changes the opening win chances by at most {gain:.2g} points; {lone}"
            )
        parts.append(lone[0].upper() + lone[1:])
    if players > 1:
        exact, product = h["solitaires"]["exact"], h["solitaires"]["p_win"]
        swap = [100 * (e - p) for e, p in zip(exact, product, strict=True)]
        parts.append(
            "Pawns meet only on the ship (36 swaps with 41): against n independent solitaires it"
            f" moves the first player's chance by {swap[0]:+.3f} points and no seat's by more"
            f" than {max(abs(x) for x in swap):.3f}."
        )
    return " ".join(parts)


def _spots(d: dict[str, Any]) -> str:
    """ "restart on 4 after a 1, 2 or 5; stay on 23": the deviations, one phrase per square."""
    by_square: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for x in d["deviations"]:
        by_square.setdefault((x["square"], x["option"]), []).append(x)
    phrases = []
    for (square, option), rows in by_square.items():
        rolls = [str(x["roll"]) for x in rows if x["roll"]]
        after = ""
        if rolls:
            after = " after a " + (
                rolls[0] if len(rolls) == 1 else f"{', '.join(rolls[:-1])} or {rolls[-1]}"
            )
        where = ""
        if d["living"] > 1:
            where = (
                f" ({sum(x['placings'] for x in rows):,} of {len(rows) * d['placings']:,} cases)"
            )
        phrases.append(f"{option} on {square}{after}{where}")
    return "; ".join(phrases)
