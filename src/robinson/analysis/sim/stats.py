"""Estimates with 95% confidence intervals, accumulated batch by batch (so a run of any length
needs memory for one batch only).

Proportions use the Wilson score interval; means the normal interval mean ± 1.96 s/√n; the
median the distribution-free order-statistic interval (ranks n/2 ± 1.96 √n / 2). Games cut at
the roll limit are counted (`truncated`) and left out of every estimate.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.precision import estimate_text
from robinson.analysis.sim.batch import SQUARE_COUNT, Batch, Setup
from robinson.analysis.sim.compiled import unmanaged

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": [self.low, self.high]}

    def __str__(self) -> str:
        return estimate_text(self.value, self.low, self.high)


def proportion(k: float, n: float) -> Estimate:
    """Wilson score interval for k successes in n trials."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    p = k / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    low = 0.0 if k <= 0 else max(0.0, centre - half)  # exact at the ends, despite rounding
    high = 1.0 if k >= n else min(1.0, centre + half)
    return Estimate(p, low, high)


@dataclass
class Moments:
    """Count, sum and sum of squares of a quantity: enough for a mean and its interval."""

    n: float = 0.0
    total: float = 0.0
    squares: float = 0.0

    def add(self, values: npt.NDArray[Any]) -> None:
        v = values.astype(np.float64)
        self.n += v.size
        self.total += float(v.sum())
        self.squares += float((v * v).sum())

    def add_sums(self, sums: npt.NDArray[np.float64]) -> None:
        """Add (count, sum, sum of squares) computed elsewhere."""
        self.n += float(sums[0])
        self.total += float(sums[1])
        self.squares += float(sums[2])

    @property
    def variance(self) -> float:
        if self.n < 2:
            return math.nan
        mean = self.total / self.n
        return max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))

    def mean(self) -> Estimate:
        if self.n == 0:
            return Estimate(math.nan, math.nan, math.nan)
        m = self.total / self.n
        half = Z95 * math.sqrt(self.variance / self.n) if self.n > 1 else math.nan
        return Estimate(m, m - half, m + half)

    def minus(self, other: Moments) -> Estimate:
        """Difference of two means with Welch's standard error."""
        a, b = self.mean(), other.mean()
        se = math.sqrt(self.variance / self.n + other.variance / other.n)
        d = a.value - b.value
        return Estimate(d, d - Z95 * se, d + Z95 * se)


class Histogram:
    """Counts of a non-negative integer quantity, growing as needed."""

    def __init__(self) -> None:
        self.counts = np.zeros(1, np.int64)

    def add(self, values: npt.NDArray[Any]) -> None:
        self.add_counts(np.bincount(values.astype(np.int64), minlength=len(self.counts)))

    def add_counts(self, c: npt.NDArray[np.int64]) -> None:
        """Add counts made elsewhere (c[v]: how often v occurred)."""
        if len(c) > len(self.counts):
            self.counts = np.pad(self.counts, (0, len(c) - len(self.counts)))
        self.counts[: len(c)] += c

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def at_rank(self, rank: float) -> int:
        """The value of the order statistic of (0-based, clipped) rank `rank`."""
        cum = np.cumsum(self.counts)
        r = min(max(int(rank), 0), self.n - 1)
        return int(np.searchsorted(cum, r, side="right"))

    def moments(self) -> Moments:
        v = np.arange(len(self.counts), dtype=np.float64)
        c = self.counts.astype(np.float64)
        return Moments(float(c.sum()), float((v * c).sum()), float((v * v * c).sum()))

    def quantile(self, q: float) -> int:
        return self.at_rank(math.ceil(q * self.n) - 1)

    def median(self) -> Estimate:
        n = self.n
        half = Z95 * math.sqrt(n) / 2
        return Estimate(
            float(self.quantile(0.5)),
            float(self.at_rank(math.floor(n / 2 - half) - 1)),
            float(self.at_rank(math.ceil(n / 2 + half) - 1)),
        )


class Summary:
    """Everything `robinson simulate` reports, accumulated over batches."""

    def __init__(self, setup: Setup) -> None:
        n = setup.players
        self.setup = setup
        self.games = 0
        self.truncated = 0
        self.wins = np.zeros(n, np.int64)
        self.no_winner = 0
        self.deaths = np.zeros(n, np.int64)
        self.turns = Histogram()
        self.winner_turns = Histogram()
        self.rolls = Moments()
        self.purse = [Moments() for _ in range(n)]
        self.pot = Histogram()
        self.bound_games = 0
        self.bindings = Moments()
        self.master, self.not_master = Moments(), Moments()
        self.friday, self.not_friday = Moments(), Moments()
        self.landings = np.zeros(SQUARE_COUNT, np.int64)

    def add(self, b: Batch) -> None:
        n = self.setup.players
        counts, sums, turns, winner_turns, pot = _batch_stats(b, n)
        self.games += len(b)
        self.truncated += int(counts[0])
        self.no_winner += int(counts[1])
        self.bound_games += int(counts[2])
        self.wins += counts[3 : 3 + n]
        self.deaths += counts[3 + n : 3 + 2 * n]
        self.rolls.add_sums(sums[0])
        self.bindings.add_sums(sums[1])
        # Relations standing at the end, the ones that paid out (or would have).
        self.master.add_sums(sums[2])
        self.not_master.add_sums(sums[3])
        self.friday.add_sums(sums[4])
        self.not_friday.add_sums(sums[5])
        for s in range(n):
            self.purse[s].add_sums(sums[6 + s])
        self.turns.add_counts(turns)
        self.winner_turns.add_counts(winner_turns)
        self.pot.add_counts(pot)
        self.landings += b.landings

    @property
    def finished(self) -> int:
        return self.games - self.truncated

    def to_json(self) -> dict[str, Any]:
        m = self.finished
        n = self.setup.players
        players_seen = m * n
        return {
            "edition": self.setup.ruleset.edition,
            "ruleset": self.setup.ruleset.to_json(),
            "players": n,
            "first": self.setup.first,
            "seed": self.setup.seed,
            "games": self.games,
            "truncated": self.truncated,
            "p_win": [proportion(int(k), m).to_json() for k in self.wins],
            "p_no_winner": proportion(self.no_winner, m).to_json(),
            "p_death": proportion(int(self.deaths.sum()), players_seen).to_json(),
            "p_death_by_seat": [proportion(int(k), m).to_json() for k in self.deaths],
            "turns": self._length(self.turns),
            "winner_turns": self._length(self.winner_turns),
            "mean_rolls": self.rolls.mean().to_json(),
            "mean_purse": [p.mean().to_json() for p in self.purse],
            "friday": {
                "p_bound": proportion(self.bound_games, m).to_json(),
                "mean_bindings": self.bindings.mean().to_json(),
                "master_worth": self._worth(self.master, self.not_master),
                "friday_worth": self._worth(self.friday, self.not_friday),
            },
            "pot": {
                "mean": self._pot_mean(),
                "median": self.pot.quantile(0.5) if m else None,
                "p10": self.pot.quantile(0.1) if m else None,
                "p90": self.pot.quantile(0.9) if m else None,
                "histogram": self.pot.counts.tolist(),
            },
            "landings_per_game": (self.landings / max(m, 1)).tolist(),
        }

    @staticmethod
    def _length(h: Histogram) -> dict[str, Any]:
        if h.n == 0:
            return {"mean": None, "median": None, "p90": None}
        return {
            "mean": h.moments().mean().to_json(),
            "median": h.median().to_json(),
            "p90": h.quantile(0.9),
            "histogram": h.counts.tolist(),
        }

    def _pot_mean(self) -> dict[str, Any] | None:
        return self.pot.moments().mean().to_json() if self.pot.n else None

    @staticmethod
    def _worth(yes: Moments, no: Moments) -> dict[str, Any]:
        """Mean final purse of players in a role against players not in it (observational: the
        role also says where the player went, e.g. a master has been on 29)."""
        out: dict[str, Any] = {"players_in_role": int(yes.n)}
        if yes.n >= 2 and no.n >= 2:
            out["mean_purse_in_role"] = yes.mean().to_json()
            out["mean_purse_otherwise"] = no.mean().to_json()
            out["difference"] = yes.minus(no).to_json()
        return out


def _batch_stats(
    b: Batch, n: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], Any, Any, Any]:
    """`_batch_sums` over a batch, in chunks on all cores: counts, sums (as documented there) and
    the histograms of turns, of the winner's turns and of the pot."""
    games = len(b)
    chunks = max(1, min(numba.get_num_threads(), games // 65536))
    edges = [games * c // chunks for c in range(chunks + 1)]
    counts = np.zeros((chunks, 3 + 2 * n), np.int64)
    sums = np.zeros((chunks, 6 + n, 3), np.float64)
    top_turns = int(b.turns.max(initial=0)) + 1
    turns = np.zeros((chunks, top_turns), np.int64)
    winner_turns = np.zeros((chunks, top_turns), np.int64)
    pot = np.zeros((chunks, int(b.pot.max(initial=0)) + 1), np.int64)
    seat_sums = np.zeros((chunks, n, 3), np.int64)

    def run(c: int) -> None:
        lo, hi = edges[c], edges[c + 1]
        _batch_sums(
            b.winner[lo:hi], b.rolls[lo:hi], b.bindings[lo:hi], b.purse[lo:hi], b.alive[lo:hi],
            b.friday[lo:hi], b.turns[lo:hi], b.winner_turns[lo:hi], b.pot[lo:hi], n,
            counts[c], sums[c], turns[c], winner_turns[c], pot[c], seat_sums[c],
        )  # fmt: skip

    if chunks == 1:
        run(0)
    else:
        with ThreadPoolExecutor(chunks) as pool:
            list(pool.map(run, range(chunks)))

    def merged(hist: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.trim_zeros(hist.sum(axis=0), "b")  # as long as the values seen need

    return counts.sum(axis=0), sums.sum(axis=0), merged(turns), merged(winner_turns), merged(pot)


# Without reference counting (`compiled.py`), and free of the GIL: chunks run on threads.
@unmanaged(nogil=True)
def _batch_sums(
    winner: npt.NDArray[np.int8],
    rolls: npt.NDArray[np.int32],
    bindings: npt.NDArray[np.int32],
    purse: npt.NDArray[np.int32],
    alive: npt.NDArray[np.bool_],
    friday: npt.NDArray[np.int8],
    turns: npt.NDArray[np.int32],
    winner_turns: npt.NDArray[np.int32],
    pot: npt.NDArray[np.int32],
    n: int,
    counts: npt.NDArray[np.int64],
    sums: npt.NDArray[np.float64],
    turns_hist: npt.NDArray[np.int64],
    winner_turns_hist: npt.NDArray[np.int64],
    pot_hist: npt.NDArray[np.int64],
    seat_sums: npt.NDArray[np.int64],
) -> None:
    """One pass over (part of) a batch, written to `counts`, `sums` and the histograms (zeroed;
    numpy's masks and casts would cost more than the games themselves).
    counts: truncated, no winner, games with a Friday bound, wins per seat, deaths per seat.
    sums: (count, sum, sum of squares) of rolls, bindings, the purse of masters, non-masters,
    Fridays, non-Fridays, and of each seat's purse. Histograms: the turns and the pot of every
    finished game, the winner's turns of every won game. Truncated games are left out.
    Sums are exact integers, kept in registers where the row is known in advance."""
    roll_n = roll_s = roll_q = 0
    bind_s = bind_q = 0
    all_s = all_q = 0  # every purse; non-masters and non-Fridays are all less the others
    master_n = master_s = master_q = 0
    friday_n = friday_s = friday_q = 0
    for g in range(len(winner)):
        w = winner[g]
        if w == -2:
            counts[0] += 1
            continue
        turns_hist[turns[g]] += 1
        pot_hist[pot[g]] += 1
        if w == -1:
            counts[1] += 1
        else:
            counts[3 + w] += 1
            winner_turns_hist[winner_turns[g]] += 1
        if bindings[g] > 0:
            counts[2] += 1
        r = int(rolls[g])
        roll_n += 1
        roll_s += r
        roll_q += r * r
        b = int(bindings[g])
        bind_s += b
        bind_q += b * b
        fridays = 0  # bit s: seat s is someone's Friday
        for s in range(n):
            if friday[g, s] >= 0:
                fridays |= 1 << int(friday[g, s])
        for s in range(n):
            p = int(purse[g, s])
            if not alive[g, s]:
                counts[3 + n + s] += 1
            all_s += p
            all_q += p * p
            if friday[g, s] >= 0:
                master_n += 1
                master_s += p
                master_q += p * p
            if (fridays >> s) & 1:
                friday_n += 1
                friday_s += p
                friday_q += p * p
            seat_sums[s, 0] += 1
            seat_sums[s, 1] += p
            seat_sums[s, 2] += p * p
    sums[0, 0], sums[0, 1], sums[0, 2] = roll_n, roll_s, roll_q
    sums[1, 0], sums[1, 1], sums[1, 2] = roll_n, bind_s, bind_q
    sums[2, 0], sums[2, 1], sums[2, 2] = master_n, master_s, master_q
    sums[3, 0], sums[3, 1], sums[3, 2] = n * roll_n - master_n, all_s - master_s, all_q - master_q
    sums[4, 0], sums[4, 1], sums[4, 2] = friday_n, friday_s, friday_q
    sums[5, 0], sums[5, 1], sums[5, 2] = n * roll_n - friday_n, all_s - friday_s, all_q - friday_q
    for s in range(n):
        for k in range(3):
            sums[6 + s, k] = seat_sums[s, k]
