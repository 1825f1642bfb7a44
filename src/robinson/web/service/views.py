"""What the viewers of a table are sent, in each one's language: the game's view, a snapshot for
a viewer who (re)connects, the update after a move, the new state after a seat change.

Every message the server sends is described by protocol/server.py. A message that is the same
for every viewer of a language is built and encoded once per language and the same text is
handed to each of those connections (`tell_update`, `tell_state`); only a snapshot, which says
which seats its viewer holds, is built per viewer. Each table keeps its narrated log per
language (`Narration`, in live.py) as the moves come, so a snapshot reads it instead of
replaying the game; a log that missed something (a catch-up from the database, a new game) is
narrated afresh from the record once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from robinson.engine import (
    Action,
    Event,
    GameRecord,
    Reason,
    Roll,
    Transfer,
    Won,
    legal_actions,
)
from robinson.web.protocol.messages import encode
from robinson.web.service import texts
from robinson.web.service.live import Listener, LiveGame, LiveTable, Narration
from robinson.web.store.rows import Note

PAYOUT_REASONS = (Reason.BANK, Reason.FRIDAY_SHARE, Reason.NEAREST_SHARE)
LOG_LINES = 300  # the narrated lines a snapshot carries (the newest)
RESUME = 32  # a viewer who missed at most this many updates is sent them, not a snapshot


def utc(ms: int | None) -> str | None:
    """Unix ms as an ISO 8601 UTC timestamp ("2026-12-01T10:00:05.250Z"), the protocol's form."""
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _fixed(game: LiveGame, lang: str) -> dict[str, Any]:
    """What a game's view says the same way at every move, in `lang`: made once a game."""
    fixed = game.fixed_views.get(lang)
    if fixed is None:
        row = game.row
        fixed = game.fixed_views[lang] = {
            "id": row.id,
            "number": row.number,
            "ruleset": game.ruleset.to_json(),
            "rules": texts.rules_summary(lang, game.ruleset),
            "first": row.first,
        }
    return fixed


def game_view(table: LiveTable, lang: str) -> dict[str, Any]:
    game, st = table.game, table.game.state
    over, to_move = st.over, st.to_move
    legal = [] if over else ["roll" if isinstance(a, Roll) else a.option for a in legal_actions(st)]
    if legal and legal[0] == "roll":
        legal = ["roll"]
    present = table.present_anywhere()
    now = table.clock.now_ms()
    clock = None
    if game.deadline is not None and not over and to_move is not None:
        clock = {"seat": to_move, "deadline": utc(game.deadline), "now": utc(now)}
    names, wins = table.names, table.wins
    vacation_ends, vacation_taken = table.vacations()
    vacation_days = table.vacation_days
    players = []
    for i, (seat, p) in enumerate(zip(table.seats, st.players, strict=True)):
        here = i in present
        away = vacation_ends.get(i, 0)
        players.append(
            {
                "seat": i,
                "kind": seat.kind,
                "bot": seat.bot,
                "present": here,
                "away_since": None if here else utc(table.away_since(i)),
                "absent": not here and table.absent(i, now, present),
                "timeouts": seat.timeouts,
                "claimed": seat.invite_sha256 is None,
                "vacation_until": utc(away) if away > now else None,
                "vacation_left": max(0, vacation_days - vacation_taken.get(i, 0)),
                "wins": wins[i],
                "name": seat.name,
                "position": p.position,
                "purse": p.purse,
                "alive": p.alive,
                "friday": p.friday,
                "skips": p.skips,
                "shipwrecked": p.shipwrecked,
            }
        )
    row = game.row
    return {
        **_fixed(game, lang),
        "version": game.version,
        "phase": st.phase.value,
        "to_move": to_move,
        "pending_roll": st.pending_roll,
        "last_roll": game.last_roll(),
        "bank": st.bank,
        "over": over,
        "winner": st.winner,
        "legal": legal,
        "leads": texts.leads(lang, st) if legal and legal != ["roll"] else [],
        "prompt": texts.prompt(lang, st, names),
        "prompt_you": texts.prompt(lang, st, names, second=True),
        "seed_sha256": row.seed_sha256,
        "seed": row.seed if over else None,
        "dice_scheme": row.scheme,
        "dice_seeds": game.dice_seeds(),
        "payout": payout_steps(lang, game.final_events, names) if game.final_events else [],
        "move_seconds": table.move_seconds,
        "vacation_days": vacation_days,
        "absent_after": table.absent_after,
        "clock": clock,
        "watching": table.watching(),
        "awaited": table.awaited(),
        "players": players,
    }


def snapshot(table: LiveTable, listener: Listener) -> dict[str, Any]:
    """Everything a (re)connecting viewer needs, including the narration so far."""
    log = narration(table, listener.lang)
    lines, kinds, yours = log.lines[-LOG_LINES:], log.kinds[-LOG_LINES:], log.yours[-LOG_LINES:]
    shown_from = len(log.kinds) - len(kinds)
    turns_before = log.turns_dropped + sum(k == "turn_began" for k, _ in log.kinds[:shown_from])
    return {
        "type": "snapshot",
        "table": table.id,
        "language": table.language,
        "lang": listener.lang,
        "you": sorted(listener.seats),
        "game": game_view(table, listener.lang),
        "log": lines,
        "log_kinds": [list(k) for k in kinds],
        "log_you": yours,
        "log_turn": 1 + turns_before,
    }


def greet(
    table: LiveTable, listener: Listener, game: str | None = None, version: int | None = None
) -> None:
    """What a viewer who (re)connects is sent: when it says it shows `game` at `version` and
    the few updates it missed are at hand, those updates and the state now (presence may have
    changed); else a snapshot."""
    texts_missed = missed(table, listener.lang, game, version)
    if texts_missed is None:
        listener.send(snapshot(table, listener))
        return
    for text in texts_missed:
        listener.send(text)
    listener.send(encode({"type": "state", "state": game_view(table, listener.lang)}))


def missed(table: LiveTable, lang: str, game: str | None, version: int | None) -> list[str] | None:
    """The updates in `lang` after `version` of the current game, in order, if each is kept."""
    current = table.game
    if game != current.id or version is None or not 0 <= current.version - version <= RESUME:
        return None
    kept = [(v, text) for g, v, text in table.history.get(lang, ()) if g == game and v > version]
    if [v for v, _ in kept] != list(range(version + 1, current.version + 1)):
        return None  # one was not kept (nobody here spoke the language then): a snapshot
    return [text for _, text in kept]


def tell_snapshot(table: LiveTable) -> None:
    for listener in list(table.listeners):
        listener.send(snapshot(table, listener))


def tell_state(table: LiveTable, notes: Sequence[Note] = ()) -> None:
    """The seats changed (a bot took one, its human came back, presence): the new view and
    the narration of what happened, once per language."""
    game = table.game
    for lang, log in table.narration.items():
        if log.follows(game.id, game.version, len(game.notes) - len(notes)):
            for n in notes:
                _note(table, log, lang, n)
            log.now_at(game.version, len(game.notes))
    texts_of: dict[str, str] = {}
    for listener in list(table.listeners):
        lang = listener.lang
        if lang not in texts_of:
            texts_of[lang] = encode(
                {
                    "type": "state",
                    "state": game_view(table, lang),
                    "narration": [texts.note(lang, n, table.names) for n in notes],
                }
            )
        listener.send(texts_of[lang])


def tell_update(
    table: LiveTable, action: Action, seat: int, events: Sequence[Event], notes: Sequence[Note]
) -> None:
    """A move was stored and taken into the copy: its narration and the new view, once per
    language; the table's narrated logs grow by the notes and lines of it."""
    game, names = table.game, table.names
    events_json = [e.to_json() for e in events]
    narrated: dict[str, tuple[list[str], list[str]]] = {}
    for lang, log in table.narration.items():
        if log.follows(game.id, game.version - 1, len(game.notes) - len(notes)):
            narrated[lang] = both = texts.narrate_both(lang, events, names)
            for n in notes:
                _note(table, log, lang, n)
            _lines(log, events, *both)
            log.now_at(game.version, len(game.notes))
    texts_of: dict[str, str] = {}
    for listener in list(table.listeners):
        lang = listener.lang
        if lang not in texts_of:
            each, yours = narrated.get(lang) or texts.narrate_both(lang, events, names)
            texts_of[lang] = encode(
                {
                    "type": "update",
                    "game": game.id,
                    "version": game.version,
                    "seat": seat,
                    "action": action.to_json(),
                    "events": events_json,
                    "narration": [line for line in each if line],
                    "narration_you": [you for line, you in zip(each, yours, strict=True) if line],
                    "told": texts.told(each),
                    "notes": [texts.note(lang, n, names) for n in notes],
                    "state": game_view(table, lang),
                }
            )
            kept = table.history.setdefault(lang, deque(maxlen=RESUME))
            kept.append((game.id, game.version, texts_of[lang]))
        listener.send(texts_of[lang])


def narration(table: LiveTable, lang: str) -> Narration:
    """The table's narrated log in `lang`, up to date: kept as the moves come, narrated afresh
    from the record when it missed something (or was never asked for)."""
    game = table.game
    log = table.narration.get(lang)
    if log is not None and log.follows(game.id, game.version, len(game.notes)):
        return log
    log = _afresh(table, lang, game.id, game.record(), list(game.notes))
    table.narration[lang] = log
    return log


async def narrated(table: LiveTable, lang: str) -> None:
    """Make sure the table's log in `lang` is up to date, narrating it afresh on a thread when
    it is not (its cost grows with the game): a snapshot then finds it ready. Kept only if no
    move came meanwhile (else a snapshot narrates the little that is missing as it would)."""
    game = table.game
    log = table.narration.get(lang)
    if log is not None and log.follows(game.id, game.version, len(game.notes)):
        return
    record, notes = game.record(), list(game.notes)
    log = await asyncio.to_thread(_afresh, table, lang, game.id, record, notes)
    if log.follows(table.game.id, table.game.version, len(table.game.notes)):
        table.narration[lang] = log


def _afresh(
    table: LiveTable, lang: str, game_id: str, record: GameRecord, notes: list[Note]
) -> Narration:
    """The log of game `game_id` (`record` with `notes`), narrated from the start (reads
    nothing else that a move changes: safe on a thread)."""
    log = Narration(game_id)
    notes = sorted(notes, key=lambda n: n.version)  # stable: same version in order
    at = 0
    for version, (_, _, events) in enumerate(record.steps()):
        while at < len(notes) and notes[at].version <= version:
            _note(table, log, lang, notes[at])
            at += 1
        _lines(log, events, *texts.narrate_both(lang, events, table.names))
    for item in notes[at:]:
        _note(table, log, lang, item)
    log.now_at(len(record.actions), len(notes))
    return log


def _note(table: LiveTable, log: Narration, lang: str, note: Note) -> None:
    log.add(texts.note(lang, note, table.names), ("note", note.data.get("seat")))


def _lines(
    log: Narration, events: Sequence[Event], each: Sequence[str], yours: Sequence[str]
) -> None:
    for e, line, you in zip(events, each, yours, strict=True):
        if line:
            log.add(line, (e.kind, _actor(e)), you)


def payout_steps(lang: str, events: Sequence[Event], names: Sequence[str]) -> list[dict[str, Any]]:
    """The end of a game as separate steps for the page to show one by one: the winner reaches
    home, takes the bank, then pays Friday's or the nearest players' shares (in event order).
    Each step is a line of the narration (`narrate_each`): the shares of two players equally
    near are one step that names both, as the log and the replay tell them."""
    steps: list[dict[str, Any]] = []
    for e, line in zip(events, texts.narrate_each(lang, events, names), strict=True):
        payout = isinstance(e, Won) or (isinstance(e, Transfer) and e.reason in PAYOUT_REASONS)
        if payout and line:
            steps.append({**e.to_json(), "text": line})
    return steps


def _actor(e: Event) -> int | None:
    """Who an event is about (the page colours its log line): the seat, a transfer's player."""
    for key in ("seat", "payer", "payee", "master", "winner"):
        who = getattr(e, key, None)
        if who is not None:
            return int(who)
    return None
