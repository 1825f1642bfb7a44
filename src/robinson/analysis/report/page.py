"""The report as one self-contained HTML page: plots embedded as base64 PNG, no external files."""

from __future__ import annotations

import base64
import html
from typing import Any

from robinson.analysis.report import figures
from robinson.analysis.report.data import ReportData
from robinson.analysis.report.exact import editions_without_choices

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
img { max-width: 100%; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.9em; }
"""


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _pct(e: dict[str, Any]) -> str:
    lo, hi = e["ci95"]
    return f"{100 * e['value']:.2f}% <span class=note>({100 * lo:.2f}–{100 * hi:.2f})</span>"


def _num(e: dict[str, Any], digits: int = 2) -> str:
    lo, hi = e["ci95"]
    return f"{e['value']:.{digits}f} <span class=note>({lo:.{digits}f}–{hi:.{digits}f})</span>"


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _editions_table(data: ReportData) -> str:
    head = ["edition", *(f"P(win) seat {s}" for s in range(4)), "P(no winner)", "P(death)",
            "winner's turns: mean", "median", "90%", "bank won", "Friday bound"]  # fmt: skip
    rows = []
    for name, s in data.editions.items():
        wt = s["winner_turns"]
        rows.append([
            name, *(_pct(p) for p in s["p_win"]), _pct(s["p_no_winner"]), _pct(s["p_death"]),
            _num(wt["mean"]), f"{wt['median']['value']:.0f}", str(wt["p90"]),
            _num(s["pot"]["mean"]), _pct(s["friday"]["p_bound"]),
        ])  # fmt: skip
    return _table(head, rows)


def _choices_table(data: ReportData) -> str:
    rows = [
        [figures.choice_label(c), f"{100 * c.gain.value:+.2f}",
         f"{100 * c.gain.low:+.2f} to {100 * c.gain.high:+.2f}", f"{100 * c.changed:.1f}%"]
        for c in data.choices
    ]  # fmt: skip
    head = ["decision (seat 0)", "Δ P(win), points", "95% interval", "games that changed"]
    return _table(head, rows)


def _exact_table(data: ReportData) -> str:
    """Per decision and game: the mover's P(win) after each option, as a plain mean over the
    squares the other pawn can stand on, and where the other option does better."""
    head = ["decision (2 players)"]
    for group in data.exact:
        name = " = ".join(group.editions)
        head += [f"{name}: P(win), eager option", "other option", "other option better at"]
    rows = []
    for k, first in enumerate(data.exact[0].rows if data.exact else ()):
        seen = f", rolled {first.face}" if first.face is not None else ""
        row = [f"on {first.square}{seen}: {first.eager_option} / {first.other_option}"]
        for group in data.exact:
            c = group.rows[k]
            better = int((c.gain > 1e-12).sum())
            row += [f"{100 * c.eager.mean():.2f}%", f"{100 * c.other.mean():.2f}%",
                    f"{better} of {len(c.gain)} squares"]  # fmt: skip
        rows.append(row)
    return _table(head, rows)


def render(data: ReportData) -> str:
    std = data.editions["standard"]
    friday = std["friday"]
    sections = [
        ("Game length by edition", _img(figures.lengths(data.editions), "game lengths"),
         "<p>A round is one turn of every living player; the winner's turns are the rounds the "
         "game lasted. Skipped turns count as turns, extra rolls belong to their turn. Under eager "
         "play standard and ca are the same game (both skip a turn on 12), and so are lv and "
         "cs (both roll again): their curves coincide.</p>"),
        ("Editions side by side", _img(figures.editions(data.editions), "editions")
         + _editions_table(data), ""),
        ("Seat advantage", _img(figures.seats(data.by_players, data.exact_two), "seat advantage"),
         "<p>Seat 0 moves first. A value above 1 means the seat wins more than its fair share. "
         "Simulated, with 95% intervals; the crosses are the exact values for 2 players "
         "(<code>robinson analyze --players 2</code>).</p>"),
        ("Where pawns land", _img(figures.heatmap(std["landings_per_game"],
         "Landings per 4-player game (standard, eager play)"), "landing heat map"),
         "<p>Every landing of a roll counts; the footprint on 25 also lands on 14. Canoe and "
         "ship moves trigger nothing and are not landings.</p>"),
        ("Expected purses", _img(figures.purses(data.by_players, 30), "purses"),
         f"<p>In standard 4-player games a Friday is bound in {_pct(friday['p_bound'])} of "
         f"games. Players who end as a master hold "
         f"{_num(friday['master_worth']['difference'])} tokens more than those who do not, and "
         f"players who end as someone's Friday hold "
         f"{_num(friday['friday_worth']['difference'])} more. These are comparisons, not "
         "causes: a master has been to square 29, which also says how far he got.</p>"),
        ("The value of each choice, exactly (2 players)",
         (_img(figures.exact_choices(data.exact), "exact choice values") + _exact_table(data))
         if data.exact else "",
         "<p><b>Exact</b> (the solve of <code>robinson analyze --players 2</code>, no "
         "sampling): for every decision and every square the other pawn can stand on, the "
         "mover's probability of winning after each option, both players eager afterwards. "
         "The table gives plain means over those squares (each square counted once, not "
         "weighted by how often it occurs). Editions with the same rules share one panel; "
         f"{', '.join(editions_without_choices()) or 'no edition'} has no choices (they are "
         "compulsory). <code>robinson analyze --policy optimal</code> gives the values under "
         "optimal play.</p>"),
        ("The value of each choice over whole games (simulated)",
         _img(figures.choices(data.choices), "simulated choice values")
         + _choices_table(data),
         f"<p><b>Simulated</b>: two players, standard edition, {data.choice_games:,} paired "
         "games per line: seat 0 takes the other option at that decision every time it "
         "arises, everything else eager, on the same dice as the all-eager games.</p>"),
    ]  # fmt: skip
    body = "".join(f"<h2>{t}</h2>{note}{content}" for t, content, note in sections)
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        "<title>Robinson: the game in numbers</title>"
        f"<style>{_STYLE}</style></head><body>"
        "<h1>Robinson: the game in numbers</h1>"
        "<p class=note>The value of each choice for two players is exact; every other figure "
        f"is simulated: {data.games:,} games per setting (seed {data.seed}), all "
        "players eager (never restart, never stay, always roll again, always jump) unless said "
        "otherwise; intervals are 95% confidence intervals. Made by <code>robinson report"
        "</code>.</p>"
        f"{body}</body></html>"
    )
