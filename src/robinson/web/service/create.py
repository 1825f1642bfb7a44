"""New tables and new games: the rows they start with, checked, and the answer for the host.

Pure but for the clock and the dice it is handed: nothing here is stored or shown; the service
writes the rows (service/__init__.py) and a rematch starts its game with `new_game_row`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from robinson import fairdice
from robinson.bots import BOT_NAMES
from robinson.engine import RobinsonError, Ruleset
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.limits import MAX_SEATS, MIN_SEATS, MOVE_SECONDS
from robinson.web.service import invites, names, texts
from robinson.web.service.clock import Clock, Dice
from robinson.web.service.live import token_hash
from robinson.web.service.vacation import allowance
from robinson.web.store.rows import GameRow, SeatRow, TableRow


@dataclass
class SeatSpec:
    name: str
    kind: str = "human"
    bot: str | None = None


def new_id() -> str:
    return secrets.token_urlsafe(9)


def new_game_row(
    clock: Clock,
    dice: Dice,
    table_id: str,
    number: int,
    rules: Ruleset,
    players: list[str],
    first: int,
    move_seconds: int | None,
    first_is_human: bool,
) -> GameRow:
    """Game `number` of a table, with a fresh seed committed by its hash, and the first
    move's deadline when the table has a clock and a human starts."""
    seed = dice.new_seed()
    now = clock.now_ms()
    return GameRow(
        id=new_id(),
        table_id=table_id,
        number=number,
        ruleset=rules.to_json(),
        players=players,
        first=first,
        seed=seed.hex(),
        seed_sha256=fairdice.commitment(seed),
        created=now // 1000,
        actions=[],
        scheme=fairdice.SCHEME_V2,  # every new game: a seed from every seat (docs/fair-dice.md)
        deadline=now + move_seconds * 1000 if move_seconds is not None and first_is_human else None,
    )


@dataclass(frozen=True)
class NewTable:
    table: TableRow
    game: GameRow
    rules: Ruleset
    answer: dict[str, Any]  # what the host is told: every seat's secret and link


def new_table(
    clock: Clock,
    dice: Dice,
    seats: list[SeatSpec],
    ruleset: dict[str, Any],
    first: int = 0,
    language: str = "en",
    move_seconds: int | None = None,
    vacation_days: int | None = None,
) -> NewTable:
    """The rows of a new table, or `bad_request` saying what was expected."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ServiceError(
            "bad_request", f"a table has {MIN_SEATS} to {MAX_SEATS} seats, got {len(seats)}"
        )
    try:
        rules = Ruleset.from_json(ruleset)
    except RobinsonError as e:
        raise ServiceError("bad_request", str(e)) from None
    if not 0 <= first < len(seats):
        raise ServiceError("bad_request", f"first must be a seat from 0 to {len(seats) - 1}")
    try:
        texts.check_language(language)
    except RobinsonError as e:
        raise ServiceError("bad_request", str(e)) from None
    low, high = MOVE_SECONDS
    if move_seconds is not None and (
        type(move_seconds) is not int or not low <= move_seconds <= high
    ):
        raise ServiceError(
            "bad_request", f"move_seconds is null (no clock) or {low} to {high} seconds"
        )
    vacation = allowance(move_seconds, vacation_days)
    table_id = new_id()
    host = secrets.token_urlsafe(24)
    rows, tokens, codes = [], [], []
    for i, spec in enumerate(seats):
        name = names.clean(i, spec.name)
        if spec.kind not in ("human", "bot"):
            raise ServiceError("bad_request", f"seat {i}: kind is 'human' or 'bot'")
        bot = spec.bot if spec.kind == "bot" else None
        if spec.kind == "bot" and bot not in BOT_NAMES:
            raise ServiceError(
                "bad_request", f"seat {i}: bot must be one of {', '.join(BOT_NAMES)}"
            )
        token = secrets.token_urlsafe(24)
        tokens.append(token)
        row = SeatRow(i, name, spec.kind, bot, token_hash(token))
        code = None
        if spec.kind == "human":  # a bot's seat is taken over with its token, as before
            code = invites.invite_code(host, table_id, i, row.token_sha256)
            row = replace(row, invite_sha256=token_hash(code))
        codes.append(code)
        rows.append(row)
    names.check_distinct([r.name for r in rows])
    table = TableRow(
        table_id, language, clock.now_ms() // 1000, None, rows, token_hash(host), move_seconds
    )
    table = replace(table, vacation_days=vacation)
    game = new_game_row(
        clock,
        dice,
        table_id,
        1,
        rules,
        [s.name for s in rows],
        first,
        move_seconds,
        rows[first].kind == "human",
    )
    answer = {
        "table": table_id,
        "game": game.id,
        "spectator": f"/t/{table_id}",
        "host": host,
        "host_link": f"/t/{table_id}#{invites.HOST_PREFIX}{host}",
        "move_seconds": move_seconds,
        "vacation_days": vacation,
        "seats": [
            {
                "seat": r.seat,
                "name": r.name,
                "kind": r.kind,
                "bot": r.bot,
                "token": tok,
                "link": f"/t/{table_id}#{tok}",
                "invite": None if code is None else invites.invite_link(table_id, code),
            }
            for r, tok, code in zip(rows, tokens, codes, strict=True)
        ],
    }
    return NewTable(table, game, rules, answer)
