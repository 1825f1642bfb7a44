"""The report's plots (matplotlib, Agg backend), each returned as PNG bytes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from robinson.analysis.report.data import ChoiceValue
from robinson.analysis.report.exact import ExactChoice, ExactChoices, placing_label
from robinson.engine import FOOTPRINT_TARGET, SQUARES, Effect

Summary = dict[str, Any]  # a `Summary.to_json()` object
COLUMNS = 9  # the board drawn as 5 rows of 9 squares, snaking upwards


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _value(e: dict[str, Any]) -> float:
    return float(e["value"])


def _err(es: Sequence[dict[str, Any]]) -> np.ndarray:
    """Asymmetric error bars from estimates with intervals."""
    v = np.array([_value(e) for e in es])
    lo = np.array([e["ci95"][0] for e in es])
    hi = np.array([e["ci95"][1] for e in es])
    return np.vstack([v - lo, hi - v])


def lengths(editions: dict[str, Summary]) -> bytes:
    """Distribution of the winner's number of turns (a round each), 4 players, per edition."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    # editions with the same rules draw the same curve (same seed): thinner dashes on top
    styles = [("-", 3.0), ("--", 1.5), (":", 2.0), ("-.", 1.2), ("-", 1.0)]
    for (name, s), (ls, lw) in zip(editions.items(), styles, strict=False):
        counts = np.array(s["winner_turns"]["histogram"], dtype=float)
        share = counts / counts.sum()
        median = s["winner_turns"]["median"]["value"]
        ax.step(np.arange(len(share)), share, where="mid", ls=ls, lw=lw,
                label=f"{name} (median {median:.0f})")  # fmt: skip
    ax.set_xlim(0, 40)
    ax.set_xlabel("turns of the winner (rounds), skipped turns included")
    ax.set_ylabel("share of games")
    ax.set_title("How long a 4-player game lasts, by edition (eager play)")
    ax.legend()
    ax.grid(alpha=0.3)
    return _png(fig)


def seats(by_players: dict[int, Summary], exact_two: Sequence[float] = ()) -> bytes:
    """P(win) by seat relative to a fair share, for each number of players (simulated), with the
    exact values for 2 players when given."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for n, s in sorted(by_players.items()):
        p = s["p_win"]
        ax.errorbar(
            np.arange(n), [n * _value(e) for e in p], yerr=n * _err(p),
            marker="o", ms=4, capsize=2, label=f"{n} players",
        )  # fmt: skip
    if exact_two:
        ax.plot(np.arange(len(exact_two)), [2 * p for p in exact_two], "kx", ms=9,
                label="2 players, exact")  # fmt: skip
    ax.axhline(1.0, color="grey", lw=1, ls="--")
    ax.set_xlabel("seat in turn order (seat 0 starts)")
    ax.set_ylabel("P(win) × players  (1 = a fair share)")
    ax.set_title("Seat advantage by number of players (standard, eager play, simulated)")
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return _png(fig)


def _cell(square: int) -> tuple[int, int]:
    """Column and row of a square on the snaking board; square 0 sits left of square 1."""
    if square == 0:
        return -1, 0
    row, k = divmod(square - 1, COLUMNS)
    return (k if row % 2 == 0 else COLUMNS - 1 - k), row


_MARK = {
    Effect.SHIPWRECK: "wreck", Effect.TREE: "tree", Effect.FEVER: "fever", Effect.BREAD: "bread",
    Effect.CANOE: "canoe", Effect.FOOTPRINT: f"→{FOOTPRINT_TARGET}", Effect.FRIDAY: "Friday",
    Effect.RESCUE: "rescue", Effect.SHIP: "ship", Effect.GALLOWS: "6 dies", Effect.HOME: "home",
    Effect.TRAVEL: "all pay",
}  # fmt: skip


def heatmap(landings_per_game: Sequence[float], title: str) -> bytes:
    """How often each square is landed on per game, drawn on the board."""
    rates = np.array(landings_per_game[1:], dtype=float)
    norm = matplotlib.colors.Normalize(vmin=0, vmax=float(rates.max()) or 1.0)
    cmap = matplotlib.colormaps["YlOrRd"]
    fig, ax = plt.subplots(figsize=(9, 5.4))
    for square in range(1, len(landings_per_game)):
        x, y = _cell(square)
        rate = float(landings_per_game[square])
        ax.add_patch(Rectangle((x, y), 0.95, 0.95, color=cmap(norm(rate))))
        dark = norm(rate) > 0.6
        ink = "white" if dark else "black"
        ax.text(x + 0.06, y + 0.86, str(square), fontsize=9, weight="bold", color=ink, va="top")
        ax.text(x + 0.9, y + 0.45, f"{rate:.2f}", fontsize=8, ha="right", color=ink)
        sq = SQUARES[square]
        mark = _MARK.get(sq.effect) or (
            f"+{sq.amount}" if sq.effect is Effect.RECEIVE else
            f"-{sq.amount}" if sq.effect in (Effect.PAY, Effect.NEIGHBOUR) else ""
        )  # fmt: skip
        ax.text(x + 0.06, y + 0.1, mark, fontsize=6.5, color=ink)
    ax.text(-0.5, 0.45, "start", ha="center", va="center", fontsize=9)
    ax.set_xlim(-1, COLUMNS)
    ax.set_ylim(-0.1, 5.05)
    ax.set_aspect("equal")
    ax.axis("off")
    bar = fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.7)
    bar.set_label("landings per game (all players)")
    ax.set_title(title)
    return _png(fig)


def purses(by_players: dict[int, Summary], start_tokens: int) -> bytes:
    """Expected final purse by seat, for each number of players."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for n, s in sorted(by_players.items()):
        m = s["mean_purse"]
        ax.errorbar(
            np.arange(n), [_value(e) for e in m], yerr=_err(m),
            marker="o", ms=4, capsize=2, label=f"{n} players",
        )  # fmt: skip
    ax.axhline(start_tokens, color="grey", lw=1, ls="--", label="tokens at the start")
    ax.set_xlabel("seat in turn order (seat 0 starts)")
    ax.set_ylabel("mean purse at the end (tokens)")
    ax.set_title("Expected final purse by seat (standard, eager play)")
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return _png(fig)


def choice_label(c: ChoiceValue) -> str:
    seen = f", rolled {c.face}" if c.face is not None else ""
    return f"on {c.square}{seen}: {c.option} instead of {c.eager_option}"


def exact_label(c: ExactChoice) -> str:
    seen = f", rolled {c.face}" if c.face is not None else ""
    return f"on {c.square}{seen}: {c.other_option}"


def exact_choices(groups: Sequence[ExactChoices]) -> bytes:
    """Exact change in the mover's P(win) from the non-eager option, for every decision and
    every square of the other pawn (2 players): one panel per distinct game."""
    fig, axes = plt.subplots(
        len(groups), 1, figsize=(10, 4.5 * len(groups) + 0.6), squeeze=False,
        gridspec_kw={"hspace": 0.35},
    )  # fmt: skip
    gains = [100 * np.array([c.gain for c in g.rows]) for g in groups]
    # one colour scale for every panel, centred on "no difference"
    norm = matplotlib.colors.CenteredNorm(0.0, max(float(np.abs(g).max()) for g in gains) or 1.0)
    for ax, group, gain in zip(axes[:, 0], groups, gains, strict=True):
        image = ax.imshow(gain, cmap="RdBu", norm=norm, aspect="auto", interpolation="nearest")
        ax.set_yticks(np.arange(len(group.rows)), [exact_label(c) for c in group.rows], fontsize=8)
        ticks = [i for i, code in enumerate(group.placings) if code % 5 == 0 or code > 44]
        ax.set_xticks(ticks, [placing_label(group.placings[i]) for i in ticks], fontsize=8)
        ax.set_xlabel("square of the other pawn when the decision arises")
        ax.set_title(f"{' = '.join(group.editions)}: exact, 2 players, eager afterwards",
                     fontsize=10)  # fmt: skip
        bar = fig.colorbar(image, ax=ax, shrink=0.9)
        bar.set_label("Δ P(win), points", fontsize=8)
    fig.suptitle(
        "The value of each choice, exactly: the other option instead of the eager one\n"
        "(red: the other option loses win chance, blue: it gains)",
        fontsize=11,
    )
    return _png(fig)


def choices(values: Sequence[ChoiceValue]) -> bytes:
    """Change in seat 0's P(win) from taking the non-eager option at each decision (simulated)."""
    fig, ax = plt.subplots(figsize=(8, 0.36 * len(values) + 1.4))
    y = np.arange(len(values))[::-1]
    gains = np.array([100 * c.gain.value for c in values])
    err = np.array([[100 * (c.gain.value - c.gain.low), 100 * (c.gain.high - c.gain.value)]
                    for c in values]).T  # fmt: skip
    colors = ["tab:green" if g > 0 else "tab:red" for g in gains]
    ax.barh(y, gains, xerr=err, color=colors, capsize=2)
    ax.set_yticks(y, [choice_label(c) for c in values], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("change in P(win), percentage points (95% interval, paired games)")
    ax.set_title("Simulated: seat 0 of 2 always takes the other option, all else eager (standard)")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def editions(by_edition: dict[str, Summary]) -> bytes:
    """Editions side by side: P(win) per seat and game length, 4 players."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), width_ratios=[3, 2])
    names = list(by_edition)
    width = 0.8 / 4
    for seat in range(4):
        p = [by_edition[e]["p_win"][seat] for e in names]
        x = np.arange(len(names)) + (seat - 1.5) * width
        left.bar(x, [_value(e) for e in p], width, yerr=_err(p), capsize=2, label=f"seat {seat}")
    left.axhline(0.25, color="grey", lw=1, ls="--")
    left.set_xticks(np.arange(len(names)), names)
    left.set_ylabel("P(win)")
    left.set_title("Win chance by seat, 4 players")
    left.legend(fontsize=8)
    mean = [by_edition[e]["winner_turns"]["mean"] for e in names]
    right.bar(names, [_value(e) for e in mean], yerr=_err(mean), capsize=2, color="tab:purple")
    right.set_ylabel("mean turns of the winner")
    right.set_title("Game length")
    for ax in (left, right):
        ax.grid(axis="y", alpha=0.3)
    return _png(fig)
