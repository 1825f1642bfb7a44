"""The report of one position (`robinson report --record FILE`) as one self-contained HTML page, in
one of the four languages, built from the opening report's parts (`page.py`: the page, its
sections and tables, the viewport for phones).

The chances table carries every figure as data too (`data-seat`, `data-p-win` on each seat's
row, `data-no-winner`, `data-option` at a decision), exactly as `robinson odds --json` gives
them, so a program (or a test) can read the page."""

from __future__ import annotations

import html
from typing import Any

from robinson.analysis.odds import EXACT_LIVING
from robinson.analysis.report import position_figures as figures
from robinson.analysis.report.figures import method
from robinson.analysis.report.page import document, img, num_ci, pct_ci, section, table
from robinson.analysis.report.position import PositionData
from robinson.analysis.report.words import ReportWords
from robinson.engine import DECISION_OF, State


def _status(w: ReportWords, state: State, seat: int) -> str:
    """What is special about a seat: to move, won, dead, turns to miss, the shipwreck mark."""
    p = state.players[seat]
    words = []
    if state.winner == seat:
        words.append(w.text("report.pos.won_mark"))
    if state.to_move == seat:
        words.append(w.text("report.pos.to_move_mark"))
    if not p.alive:
        words.append(w.text("report.pos.dead"))
    if p.skips:
        words.append(w.ntext("report.pos.skips", p.skips))
    if p.shipwrecked:
        words.append(w.text("report.pos.mark"))
    return html.escape(", ".join(words))


def _position_table(w: ReportWords, data: PositionData) -> str:
    head = [w.text(f"report.th.{k}") for k in ("player", "square", "state", "purse")]
    rows = [
        [html.escape(name), str(p.position), _status(w, data.state, seat), w.count(p.purse)]
        for seat, (name, p) in enumerate(zip(data.record.players, data.state.players, strict=True))
    ]
    return table(head, rows)


def _chances_table(w: ReportWords, data: PositionData) -> str:
    odds = data.odds
    head = [w.text("report.th.player"), w.text("report.th.chance")]
    simulated = "ci95" in odds
    if simulated:
        head.append(w.text("report.th.interval"))
    rows, marks = [], []
    for seat, name in enumerate(data.record.players):
        row = [html.escape(name), w.pct(odds["p_win"][seat])]
        if simulated:
            low, high = odds["ci95"][seat]
            row.append(w.text("report.interval", low=w.pct(low), high=w.pct(high)))
        rows.append(row)
        marks.append(f'data-seat={seat} data-p-win="{odds["p_win"][seat]!r}"')
    rows.append([w.text("report.th.p_no_winner"), w.pct(odds["p_no_winner"])]
                + [""] * simulated)  # fmt: skip
    marks.append(f'data-no-winner="{odds["p_no_winner"]!r}"')
    return table(head, rows, marks)


def _chances_note(w: ReportWords, data: PositionData) -> str:
    odds, state = data.odds, data.state
    if state.over:
        return ""  # the introduction has just said who won (or that nobody did): not again
    command = "<code>robinson odds</code>"
    if odds["method"] == "exact":
        living = len(state.living)
        return w.nhtml("report.chances.exact", living, policy=_policy(w, odds["policy"]),
                       command=command)  # fmt: skip
    note = w.html("report.chances.simulated", games=w.count(odds["games"]),
                  seed=odds["seed"], command=command)  # fmt: skip
    if odds["policy_played"] != odds["policy"]:
        note += " " + w.html("report.chances.played")
    return note


def _policy(w: ReportWords, policy: str) -> str:
    return html.escape(w.text(f"report.policy.{policy}"))


def _decision(w: ReportWords, data: PositionData) -> str:
    state, odds = data.state, data.odds
    seat = state.to_move
    assert seat is not None and data.taken is not None
    decision = DECISION_OF[state.phase]
    where = w.at(
        state.players[seat].position, state.pending_roll if decision.roll_in_view else None
    )
    head = [w.text("report.th.option"), w.text("report.th.chooser_chance")]
    rows = [[html.escape(w.option(o)), w.pct(p)] for o, p in odds["options"].items()]
    marks = [f'data-option={o} data-p-win="{p!r}"' for o, p in odds["options"].items()]
    note = w.html(
        "report.decision.note", name=html.escape(data.record.players[seat]),
        where=html.escape(where), policy=_policy(w, odds.get("policy_played", odds["policy"])),
        option=f"<b>{html.escape(w.option(data.taken))}</b>",
    )  # fmt: skip
    return section(w, "decision", table(head, rows, marks), note)


def _odds_method(w: ReportWords, odds: dict[str, Any]) -> str:
    return method(w, None if odds["method"] == "exact" else int(odds["games"]))


def _history_method(w: ReportWords, data: PositionData) -> str:
    """Exact, simulated, or simulated until few enough live for the exact chain."""
    exact = [pt.exact for pt in data.points]
    if all(exact):
        return method(w)
    if not any(exact):
        return method(w, data.chart_games)
    return w.text("report.fig.mixed_method", games=w.count(data.chart_games), living=EXACT_LIVING)


def _history(w: ReportWords, data: PositionData) -> str:
    names = data.record.players
    chart = img(figures.history(w, names, data.points, _history_method(w, data)),
                w.text("report.history.title"))  # fmt: skip
    note = w.html("report.history.note")
    if len(names) > EXACT_LIVING:  # everybody lives at the start: those points are simulated
        note += " " + w.html("report.history.simulated", games=w.count(data.chart_games))
    swings = ""
    if data.swings:
        items = "".join(
            "<li>" + html.escape(w.ntext(
                "web.odds.swing_lost" if s.delta < 0 else "web.odds.swing_won",
                round(abs(100 * s.delta)), name=names[s.seat], roll=s.roll, square=s.square,
            )) + "</li>"
            for s in data.swings
        )  # fmt: skip
        swings = f"<p>{w.html('odds.swings')}</p><ul>{items}</ul>"
    return section(w, "history", chart + swings, note)


def _rest(w: ReportWords, data: PositionData, rest: dict[str, Any]) -> str:
    head = [w.text(f"report.th.{k}") for k in ("player", "dead_at_end", "final_purse")]
    rows = [
        [html.escape(name), pct_ci(w, dead), num_ci(w, purse)]
        for name, dead, purse in zip(
            data.record.players, rest["p_death_by_seat"], rest["mean_purse"], strict=True
        )
    ]
    note = w.html("report.rest.note", games=w.count(rest["games"]), seed=rest["seed"])
    if data.taken is not None:
        seat = data.state.to_move
        assert seat is not None
        note += " " + w.html("report.rest.taken", name=html.escape(data.record.players[seat]),
                             option=html.escape(w.option(data.taken)))  # fmt: skip
    length = rest["winner_turns"]
    content = table(head, rows)
    if length["mean"] is not None:
        note += " " + w.html(
            "report.rest.length", mean=num_ci(w, length["mean"]),
            median=w.count(int(length["median"]["value"])), p90=w.count(length["p90"]),
        )  # fmt: skip
        chart = figures.rest(w, rest, method(w, data.games))  # the fast simulator's games
        content = img(chart, w.text("report.rest.title")) + content
    if data.rest_turns is not None:
        note += " " + w.html("report.rest.exact", turns=w.num(data.rest_turns, 2))
    return section(w, "rest", content, note)


def _intro(w: ReportWords, data: PositionData, source: str) -> str:
    record, state = data.record, data.state
    intro = w.html(
        "report.pos.intro", record=f"<code>{html.escape(source)}</code>",
        actions=w.nhtml("report.pos.actions", len(record.actions)),
        edition=html.escape(w.text(f"summary.edition.{record.ruleset.edition}")),
        players=html.escape(w.ntext("report.fig.players", len(record.players))),
        command="<code>robinson report --record</code>",
    )  # fmt: skip
    if state.over:
        if state.winner is None:
            return intro + " " + w.html("report.chances.nobody")
        return (
            intro
            + " "
            + w.html("report.chances.over", name=html.escape(record.players[state.winner]))
        )
    assert state.to_move is not None
    return (
        intro + " " + w.html("report.pos.to_move", name=html.escape(record.players[state.to_move]))
    )


def render_position(data: PositionData, lang: str = "en", source: str = "record.json") -> str:
    """The page of the position in `lang` (lv, cs, ca, en); `source` names the record file."""
    w = ReportWords(lang)
    names = data.record.players
    body = section(w, "position", _position_table(w, data))
    body += section(
        w, "chances",
        img(figures.chances(w, names, data.odds, _odds_method(w, data.odds)),
            w.text("report.chances.title"))
        + _chances_table(w, data),
        _chances_note(w, data),
    )  # fmt: skip
    if data.taken is not None:
        body += _decision(w, data)
    body += _history(w, data)
    if data.rest is not None:
        body += _rest(w, data, data.rest)
    return document(w, w.html("report.pos.title"), _intro(w, data, source), body)
