"""Every option of the web server, once: its default, its help text and its bounds.

`robinson serve` builds its command-line options from these fields (cli/serve.py), the app and
the service take one `Settings` value, and nothing else writes a default down. This module
imports nothing heavy, so `robinson --help` stays quick.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


def option(default: Any, help: str, *, low: float | None = None, unit: str = "") -> Any:
    """A field with its command-line help, its lower bound and the unit shown as METAVAR."""
    return field(default=default, metadata={"help": help, "min": low, "unit": unit})


@dataclass(frozen=True)
class Rates:
    """Each as "N/second", "N/minute" or "N/hour" (the `limits` notation), per client address."""

    tables: str = option("30/minute", "tables created")
    actions: str = option("600/minute", "moves (and seat hand-overs, rematches, seat requests)")
    sockets: str = option("120/minute", "connections opened")
    reads: str = option(
        "600/minute",
        "reads built per table: its view, records, replays, chances, a socket's hello",
    )


@dataclass(frozen=True)
class Mail:
    """How the server sends e-mail (docs/notifications.md "E-mail"); without it, it sends none.
    `robinson serve --smtp-host ...` makes one (cli/serve.py)."""

    host: str
    sender: str  # the From address
    public_url: str  # the server's address as players reach it, for the links in the e-mails
    port: int | None = None  # None: 465 with "tls", else 587 with "starttls", else 25
    security: str = "starttls"  # "starttls", "tls" (implicit, port 465) or "none"
    user: str | None = None
    password: str | None = field(default=None, repr=False)  # from a file or $ROBINSON_SMTP_PASSWORD

    def smtp_port(self) -> int:
        return self.port or {"tls": 465, "starttls": 587}.get(self.security, 25)


@dataclass(frozen=True)
class Settings:
    # None: $ROBINSON_DATABASE_URL, else a SQLite file in the user's data directory.
    database_url: str | None = None
    # None: this process alone; else the Redis it shares its tables through.
    redis_url: str | None = None
    # The file of the key that encrypts the dice seeds at rest (store/seeds.py); None: beside
    # the SQLite file, or in the user data directory. A cluster's processes share one file.
    seed_key: str | None = None
    # Web Push (docs/notifications.md): the file of the VAPID key (None: robinson-vapid.pem
    # beside the seed key's default place), the contact it names to the push services, and
    # the services a subscription may be at (None: the browsers' own, over https).
    vapid_key: str | None = None
    vapid_subject: str = "mailto:robinson@localhost"
    push_services: tuple[str, ...] | None = None
    bot_delay: float = option(
        0.8, "pause before each bot move, so people can follow", low=0, unit="SECONDS"
    )
    absent_after: float = option(
        60.0,
        "seconds without a connection after which other players may hand a seat to a bot",
        low=0,
        unit="SECONDS",
    )
    restart_grace: float = option(
        60.0,
        "after a start, a move whose time ran out while the server was down (or runs out "
        "sooner than this) gets this long from the start, so its player can reconnect",
        low=0,
        unit="SECONDS",
    )
    expire_days: float = option(
        30.0,
        "close unfinished tables with no move for this long, keeping their records (0: never)",
        low=0,
        unit="DAYS",
    )
    unload_after: float = option(
        600.0,
        "drop a table nobody watches or plays from memory after this long; it loads again "
        "from the database when asked for (0: keep every table loaded)",
        low=0,
        unit="SECONDS",
    )
    ping_interval: float = option(
        30.0,
        "seconds between the server's keepalive pings on each table socket; a connection that "
        "died without a word is noticed within this plus 20 s (then its seat shows away)",
        low=1,
        unit="SECONDS",
    )
    sockets_per_address: float = option(
        64,
        "table sockets one client address may hold open at once; the next is told so and "
        "closed (code 4429)",
        low=1,
        unit="N",
    )
    rates: Rates = field(default_factory=Rates)
    mail: Mail | None = None  # None: no e-mail is sent (and leaving an address is `mail_off`)


def tunables() -> list[Any]:
    """The numeric options of `Settings`, in order: what `robinson serve` offers as flags."""
    return [f for f in fields(Settings) if "help" in f.metadata]
