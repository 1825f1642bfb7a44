"""The report's plots (matplotlib, Agg backend), each returned as PNG bytes, every label in the
report's language (`ReportWords`)."""

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
from matplotlib.ticker import ScalarFormatter

from robinson.analysis.report.data import ChoiceValue
from robinson.analysis.report.exact import ExactChoice, ExactChoices, placing_label
from robinson.analysis.report.words import ReportWords
from robinson.engine import SQUARES, Effect

Summary = dict[str, Any]  # a `Summary.to_json()` object
COLUMNS = 9  # the board drawn as 5 rows of 9 squares, snaking upwards


class _DecimalSignFormatter(ScalarFormatter):
    """Matplotlib's own tick numbers (and its U+2212 minus) with the language's decimal sign:
    "0,25" on a Latvian, Czech or Catalan axis, like the numbers in the page beside it."""

    def __init__(self, sign: str) -> None:
        super().__init__()
        self.sign = sign

    def __call__(self, x: float, pos: int | None = None) -> str:
        return super().__call__(x, pos).replace(".", self.sign)


def to_png(fig: Figure, w: ReportWords) -> bytes:
    """The figure as PNG, its numeric ticks (colour bars included) written the language's way;
    ticks that are labels (squares, editions, choices) are left as they are."""
    sign = w.num(0.5, 1)[1]
    if sign != ".":
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                if type(axis.get_major_formatter()) is ScalarFormatter:
                    axis.set_major_formatter(_DecimalSignFormatter(sign))
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


def lengths(w: ReportWords, editions: dict[str, Summary]) -> bytes:
    """Distribution of the winner's number of turns (a round each), 4 players, per edition."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    # editions with the same rules draw the same curve (same seed): thinner dashes on top
    styles = [("-", 3.0), ("--", 1.5), (":", 2.0), ("-.", 1.2), ("-", 1.0)]
    for (name, s), (ls, lw) in zip(editions.items(), styles, strict=False):
        counts = np.array(s["winner_turns"]["histogram"], dtype=float)
        share = counts / counts.sum()
        median = s["winner_turns"]["median"]["value"]
        label = w.text("report.fig.median", edition=w.edition(name), median=w.num(median, 0))
        ax.step(np.arange(len(share)), share, where="mid", ls=ls, lw=lw, label=label)
    ax.set_xlim(0, 40)
    ax.set_xlabel(w.text("report.fig.lengths.x"))
    ax.set_ylabel(w.text("report.fig.lengths.y"))
    ax.set_title(w.text("report.fig.lengths.title"))
    ax.legend()
    ax.grid(alpha=0.3)
    return to_png(fig, w)


def seats(w: ReportWords, by_players: dict[int, Summary], exact_two: Sequence[float] = ()) -> bytes:
    """P(win) by seat relative to a fair share, for each number of players (simulated), with the
    exact values for 2 players when given."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for n, s in sorted(by_players.items()):
        p = s["p_win"]
        ax.errorbar(
            np.arange(n), [n * _value(e) for e in p], yerr=n * _err(p),
            marker="o", ms=4, capsize=2, label=w.ntext("report.fig.players", n),
        )  # fmt: skip
    if exact_two:
        ax.plot(np.arange(len(exact_two)), [2 * p for p in exact_two], "kx", ms=9,
                label=w.text("report.fig.exact_two"))  # fmt: skip
    ax.axhline(1.0, color="grey", lw=1, ls="--")
    ax.set_xlabel(w.text("report.fig.seats.x"))
    ax.set_ylabel(w.text("report.fig.seats.y"))
    ax.set_title(w.text("report.fig.seats.title"))
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig, w)


def _cell(square: int) -> tuple[int, int]:
    """Column and row of a square on the snaking board; square 0 sits left of square 1."""
    if square == 0:
        return -1, 0
    row, k = divmod(square - 1, COLUMNS)
    return (k if row % 2 == 0 else COLUMNS - 1 - k), row


# The square's effect in a word or two under its number (`report.mark.<effect>`); 25 shows →14.
_MARKED = (
    Effect.SHIPWRECK, Effect.TREE, Effect.FEVER, Effect.BREAD, Effect.CANOE, Effect.FRIDAY,
    Effect.RESCUE, Effect.SHIP, Effect.GALLOWS, Effect.HOME, Effect.TRAVEL,
)  # fmt: skip


def _mark(w: ReportWords, square: int) -> str:
    sq = SQUARES[square]
    if sq.effect in _MARKED:
        return w.text(f"report.mark.{sq.effect.value}")
    if sq.effect is Effect.FOOTPRINT:
        return f"→{sq.target}"
    if sq.effect is Effect.RECEIVE:
        return f"+{sq.amount}"
    if sq.effect in (Effect.PAY, Effect.NEIGHBOUR):
        return f"\u2212{sq.amount}"  # a minus sign, not a hyphen
    return ""


def heatmap(w: ReportWords, landings_per_game: Sequence[float], title: str) -> bytes:
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
        ax.text(x + 0.9, y + 0.45, w.num(rate), fontsize=8, ha="right", color=ink)
        ax.text(x + 0.06, y + 0.1, _mark(w, square), fontsize=6.5, color=ink)
    ax.text(-0.5, 0.45, w.text("report.fig.start"), ha="center", va="center", fontsize=9)
    ax.set_xlim(-1, COLUMNS)
    ax.set_ylim(-0.1, 5.05)
    ax.set_aspect("equal")
    ax.axis("off")
    bar = fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.7)
    bar.set_label(w.text("report.fig.landings"))
    ax.set_title(title)
    return to_png(fig, w)


def purses(w: ReportWords, by_players: dict[int, Summary], start_tokens: int) -> bytes:
    """Expected final purse by seat, for each number of players."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for n, s in sorted(by_players.items()):
        m = s["mean_purse"]
        ax.errorbar(
            np.arange(n), [_value(e) for e in m], yerr=_err(m),
            marker="o", ms=4, capsize=2, label=w.ntext("report.fig.players", n),
        )  # fmt: skip
    ax.axhline(start_tokens, color="grey", lw=1, ls="--", label=w.text("report.fig.start_tokens"))
    ax.set_xlabel(w.text("report.fig.seats.x"))
    ax.set_ylabel(w.text("report.fig.purses.y"))
    ax.set_title(w.text("report.fig.purses.title"))
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig, w)


def choice_label(w: ReportWords, c: ChoiceValue) -> str:
    """ "on 4, rolled 3: Start again from 0 instead of Move on"."""
    instead = w.text("report.instead", option=w.option(c.option), eager=w.option(c.eager_option))
    return f"{w.at(c.square, c.face)}: {instead}"


def exact_label(w: ReportWords, c: ExactChoice) -> str:
    return f"{w.at(c.square, c.face)}: {w.option(c.other_option)}"


def _placing(w: ReportWords, code: int) -> str:
    """A placing of the other pawn: its square, or "12 (skip)" for a turn still to miss."""
    label = placing_label(code)
    square, _, skip = label.partition(" ")
    return w.text("report.skip", square=square) if skip else label


def exact_choices(w: ReportWords, groups: Sequence[ExactChoices]) -> bytes:
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
        ax.set_yticks(
            np.arange(len(group.rows)), [exact_label(w, c) for c in group.rows], fontsize=8
        )
        ticks = [i for i, code in enumerate(group.placings) if code % 5 == 0 or code > 44]
        ax.set_xticks(ticks, [_placing(w, group.placings[i]) for i in ticks], fontsize=8)
        ax.set_xlabel(w.text("report.fig.exact.x"))
        ax.set_title(w.text("report.fig.exact.panel", editions=w.editions(group.editions)),
                     fontsize=10)  # fmt: skip
        bar = fig.colorbar(image, ax=ax, shrink=0.9)
        bar.set_label(w.text("report.th.delta"), fontsize=8)
    fig.suptitle(w.text("report.fig.exact.title"), fontsize=11)
    return to_png(fig, w)


def choices(w: ReportWords, values: Sequence[ChoiceValue]) -> bytes:
    """Change in seat 0's P(win) from taking the non-eager option at each decision (simulated)."""
    fig, ax = plt.subplots(figsize=(8, 0.36 * len(values) + 1.4))
    y = np.arange(len(values))[::-1]
    gains = np.array([100 * c.gain.value for c in values])
    err = np.array([[100 * (c.gain.value - c.gain.low), 100 * (c.gain.high - c.gain.value)]
                    for c in values]).T  # fmt: skip
    colors = ["tab:green" if g > 0 else "tab:red" for g in gains]
    ax.barh(y, gains, xerr=err, color=colors, capsize=2)
    ax.set_yticks(y, [choice_label(w, c) for c in values], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(w.text("report.fig.choices.x"))
    ax.set_title(w.text("report.fig.choices.title"))
    ax.grid(axis="x", alpha=0.3)
    return to_png(fig, w)


def editions(w: ReportWords, by_edition: dict[str, Summary]) -> bytes:
    """Editions side by side: P(win) per seat and game length, 4 players."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), width_ratios=[3, 2])
    names = list(by_edition)
    width = 0.8 / 4
    for seat in range(4):
        p = [by_edition[e]["p_win"][seat] for e in names]
        x = np.arange(len(names)) + (seat - 1.5) * width
        left.bar(x, [_value(e) for e in p], width, yerr=_err(p), capsize=2,
                 label=w.text("report.fig.seat", seat=seat))  # fmt: skip
    left.axhline(0.25, color="grey", lw=1, ls="--")
    labels = [w.edition(e) for e in names]  # names, not codes: the page is read
    left.set_xticks(np.arange(len(names)), labels, rotation=20, ha="right", fontsize=8)
    left.set_ylabel(w.text("report.fig.p_win"))
    left.set_title(w.text("report.fig.win_by_seat"))
    left.legend(fontsize=8)
    mean = [by_edition[e]["winner_turns"]["mean"] for e in names]
    right.bar(labels, [_value(e) for e in mean], yerr=_err(mean), capsize=2, color="tab:purple")
    right.set_xticks(np.arange(len(names)), labels, rotation=20, ha="right", fontsize=8)
    right.set_ylabel(w.text("report.fig.mean_turns"))
    right.set_title(w.text("report.fig.game_length"))
    for ax in (left, right):
        ax.grid(axis="y", alpha=0.3)
    return to_png(fig, w)
