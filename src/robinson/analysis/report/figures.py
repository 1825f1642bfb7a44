"""The report's plots (matplotlib, Agg backend), each returned as PNG bytes drawn at twice the
resolution they are shown at, every label and number in the report's language (`ReportWords`,
`style.py`), each title saying whether its figures are exact or simulated.

Deviations from a fair share are dot plots around 0 (a bar from zero would hide differences of
tenths of a point); editions that play the same game under eager play are one curve or row,
named "standard = ca", not two identical ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from robinson.analysis.report.data import ChoiceValue
from robinson.analysis.report.exact import ExactChoice, ExactChoices, placing_label
from robinson.analysis.report.style import localise, seat_colour, to_png, whole_ticks
from robinson.analysis.report.words import ReportWords
from robinson.engine import SQUARES, Effect

Summary = dict[str, Any]  # a `Summary.to_json()` object
COLUMNS = 9  # the board drawn as 5 rows of 9 squares, snaking upwards
# Colours of the table sizes 2..8 (not seats: those have the seat palette).
_SIZES = matplotlib.colormaps["viridis"]


def _size_colour(n: int) -> Any:
    return _SIZES((n - 2) / 6 * 0.9)


def method(w: ReportWords, games: int | None = None) -> str:
    """ "exact", or "simulated, 1,000,000 games": said on every figure."""
    if games is None:
        return w.text("report.fig.exact_method")
    return w.text("report.fig.sim_method", games=w.count(games))


def titled(w: ReportWords, key: str, how: str, **fields: Any) -> str:
    return f"{w.text(key, **fields)} — {how}"


def same_games(w: ReportWords, items: dict[str, Any], key: Any) -> list[tuple[str, Any]]:
    """Editions whose figures are identical (the same game, the same dice), merged in order and
    named in the language: [("Standard rules = Catalan text", figures), ...]."""
    merged: list[tuple[list[str], Any]] = []
    for name, value in items.items():
        for names, seen in merged:
            if key(seen) == key(value):
                names.append(name)
                break
        else:
            merged.append(([name], value))
    return [(w.editions(names), value) for names, value in merged]


def _value(e: dict[str, Any]) -> float:
    return float(e["value"])


def _err(es: Sequence[dict[str, Any]]) -> np.ndarray:
    """Asymmetric error bars from estimates with intervals."""
    v = np.array([_value(e) for e in es])
    lo = np.array([e["ci95"][0] for e in es])
    hi = np.array([e["ci95"][1] for e in es])
    return np.vstack([v - lo, hi - v])


def lengths(w: ReportWords, editions: dict[str, Summary], games: int) -> bytes:
    """Distribution of the winner's number of turns (a round each), 4 players, per edition."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    curves = same_games(w, editions, lambda s: s["winner_turns"]["histogram"])
    last = 0
    for k, (name, s) in enumerate(curves):
        counts = np.array(s["winner_turns"]["histogram"], dtype=float)
        share = counts / counts.sum()
        # Up to where all but 1/1000 of the games have ended: no empty tail of axis.
        last = max(last, int(np.searchsorted(np.cumsum(share), 0.999)))
        median = s["winner_turns"]["median"]["value"]
        label = w.text("report.fig.median", edition=name, median=w.num(median, 0))
        ax.step(np.arange(len(share)), 100 * share, where="mid", lw=2.2 - 0.5 * k, label=label)
    first = min(int(np.flatnonzero(np.array(s["winner_turns"]["histogram"]))[0]) for _, s in curves)
    ax.set_xlim(max(0, first - 1), last + 1)
    ax.set_ylim(bottom=0)
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.lengths.x"))
    ax.set_ylabel(w.text("report.fig.lengths.y"))
    ax.set_title(titled(w, "report.fig.lengths.title", method(w, games)))
    ax.legend()
    ax.grid(alpha=0.3)
    return to_png(fig)


def seats(
    w: ReportWords, by_players: dict[int, Summary], exact: dict[int, list[float]], games: int
) -> bytes:
    """Each seat's win chance minus a fair share (1/n), in points, for 2..8 players: exact where
    the chain exists (filled dots), simulated beyond it (hollow dots, 95% intervals)."""
    fig, ax = plt.subplots(figsize=(8, 4.4))
    for n in sorted(set(by_players) | set(exact)):
        colour = _size_colour(n)
        if n in exact:
            y = [100 * (p - 1 / n) for p in exact[n]]
            label = f"{w.ntext('report.fig.players', n)}, {method(w)}"
            ax.plot(np.arange(n), y, "-o", color=colour, ms=5, lw=1, label=label)
        else:
            p = by_players[n]["p_win"]
            y = [100 * (_value(e) - 1 / n) for e in p]
            ax.errorbar(
                np.arange(n), y, yerr=100 * _err(p), fmt="--o", mfc="white", color=colour,
                ms=5, lw=1, capsize=2, label=w.ntext("report.fig.players", n),
            )  # fmt: skip
    ax.axhline(0.0, color="grey", lw=1)
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.seats.x"))
    ax.set_ylabel(w.text("report.fig.seats.y"))
    how = f"{method(w)} 2–4, {method(w, games)} 5–8"
    ax.set_title(titled(w, "report.fig.seats.title", how))
    ax.legend(ncol=2, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig)


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
    localise(w, bar.ax, x=False)
    ax.set_title(title)
    return to_png(fig)


def purses(w: ReportWords, by_players: dict[int, Summary], start_tokens: int, games: int) -> bytes:
    """Expected final purse by seat, for each number of players (simulated: money is not in the
    chain)."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for n, s in sorted(by_players.items()):
        m = s["mean_purse"]
        ax.errorbar(
            np.arange(n), [_value(e) for e in m], yerr=_err(m), color=_size_colour(n),
            marker="o", ms=4, capsize=2, label=w.ntext("report.fig.players", n),
        )  # fmt: skip
    ax.axhline(start_tokens, color="grey", lw=1, ls="--", label=w.text("report.fig.start_tokens"))
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.seats.x"))
    ax.set_ylabel(w.text("report.fig.purses.y"))
    ax.set_title(titled(w, "report.fig.purses.title", method(w, games)))
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig)


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
    # One colour scale for every panel, centred on "no difference"; when the other option never
    # gains (the exact result for 2 players) only the losing half, so no half of it is empty.
    most = max(float(np.abs(g).max()) for g in gains) or 1.0
    norm: matplotlib.colors.Normalize = matplotlib.colors.CenteredNorm(0.0, most)
    cmap = "RdBu"
    if max(float(g.max()) for g in gains) <= 0:
        norm, cmap = matplotlib.colors.Normalize(-most, 0.0), "Reds_r"
    for ax, group, gain in zip(axes[:, 0], groups, gains, strict=True):
        image = ax.imshow(gain, cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
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
        localise(w, bar.ax, x=False)
    fig.suptitle(w.text("report.fig.exact.title"), fontsize=11)
    return to_png(fig)


def choices(w: ReportWords, values: Sequence[ChoiceValue], games: int) -> bytes:
    """Change in seat 0's P(win) from taking the non-eager option at each decision (simulated on
    paired games): a dot and its 95% interval per decision, around 0."""
    fig, ax = plt.subplots(figsize=(8, 0.36 * len(values) + 1.4))
    y = np.arange(len(values))[::-1]
    gains = np.array([100 * c.gain.value for c in values])
    err = np.array([[100 * (c.gain.value - c.gain.low), 100 * (c.gain.high - c.gain.value)]
                    for c in values]).T  # fmt: skip
    ax.errorbar(gains, y, xerr=err, fmt="o", color="black", ms=4, capsize=2)
    ax.set_yticks(y, [choice_label(w, c) for c in values], fontsize=8)
    ax.axvline(0, color="grey", lw=1)
    localise(w, ax, y=False)
    ax.set_xlabel(w.text("report.fig.choices.x"))
    ax.set_title(titled(w, "report.fig.choices.title", method(w, games)))
    ax.grid(axis="x", alpha=0.3)
    return to_png(fig)


def editions(
    w: ReportWords, by_edition: dict[str, Summary], exact: dict[str, list[float]], games: int
) -> bytes:
    """Editions side by side, 4 players: each seat's win chance minus a fair share (exact), and
    the winner's mean number of turns (simulated), as dots."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), width_ratios=[3, 2])
    rows = same_games(w, exact, lambda p: [round(x, 12) for x in p])
    y = np.arange(len(rows))[::-1]
    for seat in range(len(rows[0][1])):
        left.plot(
            [100 * (p[seat] - 1 / len(p)) for _, p in rows], y, "o", ms=7,
            color=seat_colour(seat), label=w.text("report.fig.seat", seat=seat),
        )  # fmt: skip
    left.axvline(0, color="grey", lw=1)
    left.set_yticks(y, [name for name, _ in rows])
    left.set_xlabel(w.text("report.fig.seats.y"))
    left.set_title(titled(w, "report.fig.win_by_seat", method(w)), fontsize=10)
    left.legend(fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    lengths = same_games(w, by_edition, lambda s: s["winner_turns"]["mean"]["value"])
    mean = [s["winner_turns"]["mean"] for _, s in lengths]
    ly = np.arange(len(lengths))[::-1]
    right.errorbar([_value(e) for e in mean], ly, xerr=_err(mean), fmt="o", color="black",
                   ms=6, capsize=3)  # fmt: skip
    names = [name for name, _ in lengths]
    # The same rows as on the left (the same games merge the same way): labelled once.
    right.set_yticks(ly, names if names != [name for name, _ in rows] else [])
    right.set_xlabel(w.text("report.fig.mean_turns"))
    right.set_title(titled(w, "report.fig.game_length", method(w, games)), fontsize=10)
    for ax in (left, right):
        localise(w, ax, y=False)
        ax.grid(axis="x", alpha=0.3)
        ax.margins(y=0.2)
    return to_png(fig)


def death_by_turn(w: ReportWords, curves: dict[str, tuple[list[float], list[float]]]) -> bytes:
    """One pawn alone, exact: the chance of being dead (solid) and home (dashed) by each turn,
    per game the editions play."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for k, (name, (died, home)) in enumerate(curves.items()):
        turns = np.arange(1, len(died) + 1)
        colour = f"C{k}"
        ax.plot(turns, 100 * np.array(died), "-", color=colour, lw=2,
                label=w.text("report.fig.died", edition=w.editions(name.split(" = "))))  # fmt: skip
        ax.plot(turns, 100 * np.array(home), "--", color=colour, lw=1.2,
                label=w.text("report.fig.home", edition=w.editions(name.split(" = "))))  # fmt: skip
    ax.set_xlim(1, len(next(iter(curves.values()))[0]))
    ax.set_ylim(0, 100)
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.death.x"))
    ax.set_ylabel(w.text("report.fig.lengths.y"))
    ax.set_title(titled(w, "report.fig.death.title", method(w)))
    ax.legend(ncol=2, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig)
