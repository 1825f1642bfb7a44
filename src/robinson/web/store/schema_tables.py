"""The tables the store reads and writes, as SQLAlchemy metadata. The database itself is made and
changed only by the revisions in migrations/ (schema.py runs them); a test checks that this
matches the newest revision."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("language", String(8), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    Column("current_game", String(32), nullable=True),
    # The host (the table's creator): SHA-256 of the host's secret, which shows the invites.
    Column("host_sha256", String(64), nullable=True),
    Column("move_seconds", Integer, nullable=True),  # the clock: seconds per move, None = none
    Column("vacation_days", Integer, nullable=True),  # days a seat may pause its clock a game
    Column("closed", BigInteger, nullable=True),  # Unix seconds it was closed unfinished
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("bot", String(32), nullable=True),  # the bot's name when kind == "bot"
    Column("token_sha256", String(64), nullable=False),
    # SHA-256 of the seat's live one-time invite code; NULL once claimed (docs/protocol.md).
    Column("invite_sha256", String(64), nullable=True),
    Column("seen_at", BigInteger, nullable=True),  # Unix ms the seat was last connected
    Column("timeouts", Integer, nullable=False, server_default="0"),  # timed-out moves in a row
    PrimaryKeyConstraint("table_id", "seat"),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # 1 for the first game at a table, 2 for a rematch
    Column("ruleset", Text, nullable=False),  # JSON
    Column("players", Text, nullable=False),  # JSON list of names at the start
    Column("first", Integer, nullable=False),
    Column("seed", String(128), nullable=False),  # hex; secret until the game is over
    Column("seed_sha256", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    Column("version", Integer, nullable=False),  # number of actions in the log
    Column("over", Integer, nullable=False),
    Column("summary", Text, nullable=False),
    Column("deadline", BigInteger, nullable=True),  # Unix ms the seat to move runs out of time
    Column("to_move", Integer, nullable=True),  # null: over (or stored before revision 0003)
    Column("moved", BigInteger, nullable=True),  # Unix seconds of the last move (or creation)
    Column("dice_scheme", String(32), nullable=True),  # null: hmac-sha256-bytes-v1 (revision 0004)
    Column("dice_fixed", BigInteger, nullable=True),  # Unix ms the first roll fixed the seeds
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the engine's record form: {"roll": 3}
    Column("seat", Integer, nullable=True),  # who acted (the bot's seat too)
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    PrimaryKeyConstraint("game_id", "seq"),
)


# What happened to the seats, told in the log between moves: hand-overs, take-backs, timeouts.
# `version` is the number of actions before it; `data` JSON (seat, actor, away seconds...).
notes = Table(
    "notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("created", BigInteger, nullable=False),
)


# The seed each seat's browser added to a game's dice before its first roll (docs/fair-dice.md,
# hmac-sha256-seeds-v2): hex, one per seat; the server's own for the others is not stored.
dice_seeds = Table(
    "dice_seeds",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix ms
    PrimaryKeyConstraint("game_id", "seat"),
)


# A browser's Web Push subscription for a seat (docs/notifications.md): its endpoint (and the
# endpoint's SHA-256, the key), its keys, the language its player chose, and the seat's secret
# (hashed) when it subscribed: a seat with a new secret has none of its old subscriptions.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("endpoint_sha256", String(64), nullable=False),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("language", String(8), nullable=False),
    Column("token_sha256", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix ms
    PrimaryKeyConstraint("table_id", "seat", "endpoint_sha256"),
    Index("push_subscriptions_endpoint", "endpoint_sha256"),
)

# The key of every notice told (service/notices.py `Notice.key`): each is told once.
notices_sent = Table(
    "notices_sent",
    metadata,
    Column("key", String(160), primary_key=True),
    Column("created", BigInteger, nullable=False, index=True),  # Unix ms
)

# An e-mail address left for a seat (issue 19, docs/notifications.md "E-mail"): never shown to
# anyone. Codes are stored as SHA-256 only. Times are Unix ms.
email_addresses = Table(
    "email_addresses",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("address", String(254), nullable=False, index=True),  # lower case
    Column("language", String(8), nullable=False),
    Column("created", BigInteger, nullable=False),  # when its confirmation e-mail was asked for
    Column("confirm_sha256", String(64), nullable=True, unique=True),  # NULL once confirmed
    Column("confirmed", BigInteger, nullable=True),
    Column("unsubscribe_sha256", String(64), nullable=False, unique=True),
    Column("digest", Integer, nullable=False, server_default="1"),  # 1: wants the daily digest
    Column("digested", BigInteger, nullable=True),  # the address's last digest (or confirmation)
    Column("mailed_turn", BigInteger, nullable=True),  # the last "your turn" e-mail
    Column("reminded", BigInteger, nullable=True),  # the last reminder e-mail...
    Column("reminded_move", String(48), nullable=True),  # ...and its move ("game:version")
    PrimaryKeyConstraint("table_id", "seat"),
)
