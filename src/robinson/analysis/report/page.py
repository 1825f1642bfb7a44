"""The report as one self-contained HTML page: plots embedded as base64 PNG, no external files.

Written in one of the four languages (`render(data, lang)`), with a viewport meta and tables that
scroll sideways, so it reads on a phone."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

from robinson.analysis.report import figures
from robinson.analysis.report.data import ReportData
from robinson.analysis.report.exact import editions_without_choices
from robinson.analysis.report.questions import SECONDS_PER_TURN
from robinson.analysis.report.style import SCALE
from robinson.analysis.report.words import ReportWords

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
img { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.9em; }
.scroll { overflow-x: auto; }
@media (max-width: 600px) {
  body { margin: 1em auto; padding: 0 0.6em; } table { font-size: 0.8em; }
}
"""


def img(png: bytes, alt: str) -> str:
    """The plot at its CSS size: drawn at `style.SCALE` pixels per CSS pixel, sharp on dense
    screens (the PNG's width is bytes 16..20 of its header)."""
    data = base64.b64encode(png).decode("ascii")
    width = int.from_bytes(png[16:20], "big") // SCALE
    return f'<img alt="{html.escape(alt)}" width={width} src="data:image/png;base64,{data}">'


def pct_ci(w: ReportWords, e: dict[str, Any]) -> str:
    lo, hi = e["ci95"]
    interval = w.text("report.interval", low=w.pct(lo), high=w.pct(hi))
    return f"{w.pct(e['value'])} <span class=note>({interval})</span>"


def num_ci(w: ReportWords, e: dict[str, Any], digits: int = 2) -> str:
    lo, hi = e["ci95"]
    value, low, high = (w.num(x, digits) for x in (e["value"], lo, hi))
    # in words ("no −0,06 līdz 0,72"), as a dash between a negative bound and the next misreads
    return f"{value} <span class=note>({w.text('report.interval', low=low, high=high)})</span>"


def table(head: list[str], rows: list[list[str]], marks: Sequence[str] = ()) -> str:
    """A table that scrolls sideways on a narrow screen instead of widening the page; `marks`
    are attributes for the rows (e.g. `data-seat=0`), in order."""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    tr = [f"<tr {m}>" for m in marks] + ["<tr>"] * (len(rows) - len(marks))
    body = "".join(
        t + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for t, r in zip(tr, rows, strict=True)
    )
    return f"<div class=scroll><table><tr>{th}</tr>{body}</table></div>"


def _editions_table(w: ReportWords, data: ReportData) -> str:
    """Per edition, 4 players: the exact win chances, then the simulated figures."""
    x = w.text
    head = [x("report.th.edition"), *(x("report.th.p_win_seat", seat=s) for s in range(4)),
            x("report.th.p_no_winner"), x("report.th.p_death"), x("report.th.turns_mean"),
            x("report.th.median"), x("report.th.p90"), x("report.th.bank"),
            x("report.th.friday")]  # fmt: skip
    rows = []
    for name, s in data.editions.items():
        wt = s["winner_turns"]
        exact = data.exact_editions[name]
        rows.append([
            html.escape(w.edition(name)), *(w.pct(p, 3) for p in exact),
            pct_ci(w, s["p_no_winner"]),
            pct_ci(w, s["p_death"]), num_ci(w, wt["mean"]), w.num(wt["median"]["value"], 0),
            w.count(wt["p90"]), num_ci(w, s["pot"]["mean"]), pct_ci(w, s["friday"]["p_bound"]),
        ])  # fmt: skip
    return table(head, rows)


def _choices_table(w: ReportWords, data: ReportData) -> str:
    rows = [
        [html.escape(figures.choice_label(w, c)), w.num(100 * c.gain.value, signed=True),
         w.text("report.interval", low=w.num(100 * c.gain.low, signed=True),
                high=w.num(100 * c.gain.high, signed=True)),
         w.pct(c.changed, 1), num_ci(w, c.tokens.to_json(), 3)]
        for c in data.choices
    ]  # fmt: skip
    head = [w.text(f"report.th.{k}")
            for k in ("decision_seat0", "delta", "interval", "changed", "tokens")]  # fmt: skip
    return table(head, rows)


def _exact_table(w: ReportWords, data: ReportData) -> str:
    """Per decision and game: the mover's P(win) after each option, as a plain mean over the
    squares the other pawn can stand on, and where the other option does better."""
    head = [w.text("report.th.decision_two")]
    for group in data.exact:
        name = w.editions(group.editions)
        head += [w.text("report.th.eager_option", editions=name), w.text("report.th.other_option"),
                 w.text("report.th.better_at")]  # fmt: skip
    rows = []
    for k, first in enumerate(data.exact[0].rows if data.exact else ()):
        options = f"{w.option(first.eager_option)} / {w.option(first.other_option)}"
        row = [html.escape(f"{w.at(first.square, first.face)}: {options}")]
        for group in data.exact:
            c = group.rows[k]
            better = int((c.gain > 1e-12).sum())
            row += [w.pct(c.eager.mean()), w.pct(c.other.mean()),
                    w.ntext("report.better_at", len(c.gain), better=better)]  # fmt: skip
        rows.append(row)
    return table(head, rows)


def _found(w: ReportWords, data: ReportData) -> str:
    """What the solver found, in words built from the figures (`analysis/headline.py`)."""
    h = data.found
    by_living = h["by_living"]
    parts = []
    if h["differs_with_opponents"]:
        for d in by_living[1:]:
            count = sum(x["placings"] for x in d["deviations"])
            if count:
                parts.append(w.html("report.found.differs", living=d["living"], count=count))
    else:
        placings = " / ".join(w.count(d["placings"]) for d in by_living[1:])
        sizes = " / ".join(str(d["living"]) for d in by_living[1:])
        parts.append(w.html("report.found.never_worse", placings=placings, sizes=sizes))
    alone = h["alone"]
    finish = alone["p_finish"]["optimal"] - alone["p_finish"]["eager"]
    turns = alone["mean_turns"]["optimal"] - alone["mean_turns"]["eager"]
    gain = max(abs(g) for g in h["gain"])
    parts.append(
        w.html(
            "report.found.lone",
            finish=w.num(100 * finish, 3),
            turns=w.num(turns, 1),
            players=len(by_living),
            gain=w.small(100 * gain),
        )
    )
    exact, product = h["solitaires"]["exact"], h["solitaires"]["p_win"]
    parts.append(
        w.html(
            "report.found.swap",
            players=len(by_living),
            solitaire=w.pct(product[0], 2),
            exact=w.pct(exact[0], 2),
            swap=w.num(100 * (exact[0] - product[0]), 2, signed=True),
        )
    )
    head = [w.text("report.th.players"), w.text("report.th.seat"), w.text("report.th.exact"),
            w.text("report.th.solitaires"), w.text("report.th.swap")]  # fmt: skip
    rows = []
    for n, chances in sorted(data.exact_seats.items()):
        apart = data.solitaires[n]
        for seat, (p, q) in enumerate(zip(chances, apart, strict=True)):
            rows.append([str(n) if seat == 0 else "", str(seat), w.pct(p, 3), w.pct(q, 3),
                         w.num(100 * (p - q), 3, signed=True)])  # fmt: skip
    return "<p>" + " ".join(parts) + "</p>" + table(head, rows)


def _questions(w: ReportWords, data: ReportData) -> str:
    """The table sizes' length, deaths and purses, then the first player's edge by edition."""
    head = [w.text("report.th.players"), w.text("report.th.rounds"),
            w.text("report.th.rounds_range"), w.text("report.th.turns_all"),
            w.text("report.th.minutes"),
            w.text("report.th.someone_dies"), w.text("report.th.profit"),
            w.text("report.th.purse_range")]  # fmt: skip
    rows = []
    for t in data.table_sizes:
        rows.append([
            str(t.players), w.num(t.rounds_mean, 1), " / ".join(str(x) for x in t.rounds),
            w.num(t.turns, 2) + (f" <span class=note>({w.text('report.fig.exact_method')})"
                                 "</span>" if t.turns_exact else ""),
            w.num(t.minutes, 0), pct_ci(w, t.someone_dies.to_json()),
            pct_ci(w, t.profit.to_json()), " / ".join(str(x) for x in t.purse),
        ])  # fmt: skip
    sizes = sorted({n for row in data.edges.values() for n in row})
    edge_head = [w.text("report.th.edition"), *(w.ntext("report.fig.players", n) for n in sizes)]
    edge_rows = []
    for name, row in data.edges.items():  # "standard = ca": the editions that play alike
        cells = [html.escape(w.editions(name.split(" = ")))]
        for n in sizes:
            e = row[n]
            cell = w.num(100 * e.value, 2, signed=True)
            if not e.exact:
                cell += " <span class=note>(" + w.text(
                    "report.interval", low=w.num(100 * e.low, 2, signed=True),
                    high=w.num(100 * e.high, 2, signed=True)) + ")</span>"  # fmt: skip
            cells.append(cell)
        edge_rows.append(cells)
    chart = img(figures.death_by_turn(w, data.deaths), w.text("report.fig.death.title"))
    square_head = [w.text(f"report.th.{k}") for k in ("removed", "d_rounds", "d_dies", "d_edge")]
    square_rows = [
        [html.escape(f"{x.square} ({w.t.gettext(f'square.{x.square}.title')})"),
         num_ci(w, x.rounds.to_json(), 3), num_ci(w, _points(x.someone_dies), 2),
         num_ci(w, _points(x.edge), 2)]
        for x in data.without
    ]  # fmt: skip
    return (
        table(head, rows)
        + f"<p>{w.html('report.questions.edge')}</p>"
        + table(edge_head, edge_rows)
        + chart
        + f"<p>{w.html('report.questions.squares', games=w.count(data.games))}</p>"
        + table(square_head, square_rows)
        + _comebacks(w, data)
    )


def _comebacks(w: ReportWords, data: ReportData) -> str:
    c = data.comebacks
    if c is None:
        return ""
    note = w.html("report.questions.comebacks", games=w.count(c.games),
                  changes=w.num(c.lead_changes, 2))  # fmt: skip
    head = [w.text("report.th.after_rounds"), w.text("report.th.leader_wins")]
    rows = [[str(k), pct_ci(w, e.to_json())] for k, e in c.leader_wins.items()]
    return f"<p>{note}</p>" + table(head, rows)


def _points(e: Any) -> dict[str, Any]:
    """An estimate of a share as percentage points, for `num_ci`."""
    return {"value": 100 * e.value, "ci95": [100 * e.low, 100 * e.high]}


def _arising_table(w: ReportWords, data: ReportData) -> str:
    """Per decision and table size: how often it arises, and the other option's weighted
    value (`analysis/arising.py`)."""
    if not data.arising:
        return ""
    sizes = sorted(data.arising)
    head = [w.text("report.th.decision")]
    for n in sizes:
        head += [w.text("report.th.arises", n=n), w.text("report.th.weighted", n=n)]
    rows = []
    for k, first in enumerate(data.arising[sizes[0]]):
        row = [html.escape(f"{w.at(first.square, first.roll)}: {w.option(first.option)}")]
        for n in sizes:
            a = data.arising[n][k]
            row += [w.num(a.per_game, 3), w.num(100 * a.gain, 2, signed=True)]
        rows.append(row)
    note = w.html("report.exact.weighted")
    return f"<p>{note}</p>" + table(head, rows)


def render(data: ReportData, lang: str = "en") -> str:
    """The page in `lang` (lv, cs, ca, en): headings, notes, tables and plots."""
    w = ReportWords(lang)
    std = data.editions["standard"]
    friday = std["friday"]
    command = "<code>robinson report</code>"
    analyze = "<code>robinson analyze --players 2</code>"
    analyze_n = "<code>robinson analyze --players N</code>"
    without = ", ".join(map(w.edition_in_text, editions_without_choices()))
    without = without or w.text("report.no_edition")
    games = data.games
    sections = [
        # The finding first, then how it was found.
        ("found", _found(w, data) + "<p class=note>" + w.html(
            "report.found.method", command="<code>robinson analyze --players 4</code>") + "</p>",
         ""),
        ("lengths", img(figures.lengths(w, data.editions, games), w.text("report.lengths.title")),
         w.html("report.lengths.note")),
        ("editions", img(figures.editions(w, data.editions, data.exact_editions, games),
                         w.text("report.editions.title"))
         + _editions_table(w, data), w.html("report.editions.terms")),
        ("seats", img(figures.seats(w, data.by_players, data.exact_seats, games),
                       w.text("report.seats.title")),
         w.html("report.seats.note", command=analyze_n)),
        ("heatmap", img(figures.heatmap(w, std["landings_per_game"],
                                         figures.titled(w, "report.heatmap.caption",
                                                        figures.method(w, games))),
                         w.text("report.heatmap.title")),
         w.html("report.heatmap.note")),
        ("purses", img(figures.purses(w, data.by_players, 30, games),
                       w.text("report.purses.title")),
         w.html("report.purses.note", bound=pct_ci(w, friday["p_bound"]),
                master=num_ci(w, friday["master_worth"]["difference"]),
                friday=num_ci(w, friday["friday_worth"]["difference"]))),
        ("questions", _questions(w, data),
         w.html("report.questions.note", games=w.count(data.games), seconds=SECONDS_PER_TURN,
                start=30)),
        ("exact",
         (img(figures.exact_choices(w, data.exact), w.text("report.exact.title"))
          + _exact_table(w, data) + _arising_table(w, data)) if data.exact else "",
         w.html("report.exact.note", label=f"<b>{w.html('report.exact.label')}</b>",
                command=analyze, without=html.escape(without),
                optimal="<code>robinson analyze --policy optimal</code>")),
        ("sim",
         img(figures.choices(w, data.choices, data.choice_games), w.text("report.sim.title"))
         + _choices_table(w, data),
         w.html("report.sim.note", label=f"<b>{w.html('report.sim.label')}</b>",
                games=w.count(data.choice_games))),
    ]  # fmt: skip
    body = "".join(section(w, key, content, note) for key, content, note in sections)
    intro = w.html("report.intro", games=w.count(data.games), seed=data.seed, command=command)
    return document(w, w.html("report.title"), intro, body)


def section(w: ReportWords, key: str, content: str, note: str = "") -> str:
    """A heading (`report.{key}.title`), its note as a paragraph when there is one, the content."""
    paragraph = f"<p>{note}</p>" if note else ""
    return f"<h2>{w.html(f'report.{key}.title')}</h2>{paragraph}{content}"


def document(w: ReportWords, title: str, intro: str, body: str) -> str:
    """The whole page in `w`'s language, with a viewport for phones (`title`, `intro`: HTML)."""
    return (
        f"<!DOCTYPE html><html lang={w.lang}><head><meta charset=utf-8>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        f"<style>{_STYLE}</style></head><body>"
        f"<h1>{title}</h1>"
        f"<p class=note>{intro}</p>"
        f"{body}</body></html>"
    )
