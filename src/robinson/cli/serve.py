"""`robinson serve`: the web server (HTTP and WebSocket) for online, hot-seat and bot games."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="play in the browser: start the web server")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=int,
        default=None,
        help="port to listen on (default: $PORT, else 8000)",
    )
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL of the store (default: $ROBINSON_DATABASE_URL, else a SQLite file "
        "in the user's data directory); e.g. postgresql+psycopg://user@host/robinson",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="share tables with other `robinson serve` processes on the same database through "
        "this Redis (default: $ROBINSON_REDIS_URL, else none: this process alone); "
        "e.g. redis://localhost:6379/0 (docs/deploy.md)",
    )
    p.add_argument(
        "--seed-key",
        default=None,
        metavar="FILE",
        help="the key that encrypts the dice seeds in the database (made there on first start; "
        "default: robinson-seed.key beside the SQLite file, else in the user's data "
        "directory); every process of a cluster needs the same file",
    )
    p.add_argument(
        "--vapid-key",
        default=None,
        metavar="FILE",
        help="the key that signs Web Push notifications (made there on first start; default: "
        "robinson-vapid.pem beside the seed key); every process of a cluster needs the same file",
    )
    p.add_argument(
        "--vapid-subject",
        default="mailto:robinson@localhost",
        metavar="URI",
        help="the contact the push services are given with each notification, mailto: or "
        "https: (default %(default)s; set your own address in production)",
    )
    p.add_argument(
        "--push-service",
        action="append",
        default=None,
        metavar="HOST",
        help="a push service subscriptions may be at: a host name (https, subdomains too) or "
        "an origin such as http://127.0.0.1:8123; repeatable (default: the browsers' own "
        "services: FCM, Mozilla, Windows, Apple)",
    )
    _mail_options(p)
    from robinson.web.settings import Rates, tunables

    for f in tunables():  # every numeric option of the server, with its default and bound
        p.add_argument(
            "--" + f.name.replace("_", "-"),
            type=_at_least(f.metadata["min"], "--" + f.name.replace("_", "-")),
            default=f.default,
            metavar=f.metadata["unit"],
            help=f"{f.metadata['help']} (default %(default)g)",
        )
    for f in fields(Rates):
        p.add_argument(
            f"--rate-{f.name}",
            type=_rate,
            default=f.default,
            metavar="N/PERIOD",
            help=f"most {f.metadata['help']} per client address, e.g. 10/minute (default "
            f"%(default)s); over it: 429 rate_limited with Retry-After",
        )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from robinson.web.app import create_app
    from robinson.web.store import Store, StoreUnavailable, default_url

    port = args.port
    if port is None:
        env = os.environ.get("PORT", "8000")
        if not env.isdigit() or not 0 < int(env) < 65536:
            print(f"robinson serve: PORT must be a port number, got {env!r}")
            return 2
        port = int(env)
    url = args.database or os.environ.get("ROBINSON_DATABASE_URL") or default_url()
    try:
        # Open the store once before serving, so a bad URL or a database that does not answer
        # is one clear line and a non-zero exit, not a traceback from inside the server.
        store = Store(url)
    except StoreUnavailable as e:
        print(f"robinson serve: {e}", file=sys.stderr)
        return 2
    url = store.url  # normalized: postgres:// -> postgresql+psycopg://
    sqlite = store.engine.dialect.name == "sqlite"
    from robinson.web.notify import vapid
    from robinson.web.store import seeds

    database = store.engine.url.database if sqlite else None
    try:  # the seeds' and VAPID keys, made on first start: a problem is one clear line too
        seeds.load_key(seeds.key_path(database, args.seed_key))
        vapid.load_key(vapid.key_path(database, args.vapid_key))
    except (seeds.SeedKeyError, vapid.VapidKeyError) as e:
        print(f"robinson serve: {e}", file=sys.stderr)
        return 2
    finally:
        store.close()
    # The server's own notes (start-up, closed tables, solves) on stderr; uvicorn's stay quiet.
    notes = logging.getLogger("robinson")
    notes.setLevel(logging.INFO)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    notes.addHandler(handler)
    redis_url = args.redis or os.environ.get("ROBINSON_REDIS_URL") or None
    if redis_url is not None:
        problem = _check_redis(redis_url)
        if problem:
            print(f"robinson serve: {problem}", file=sys.stderr)
            return 2
        if sqlite:
            # Allowed (processes on one machine can share a file), but say what it means.
            print(
                "robinson serve: note: --redis with a SQLite file: every process must run on "
                "this machine; use PostgreSQL to spread them over several",
                file=sys.stderr,
            )
    from robinson.web.settings import Rates, Settings, tunables

    try:
        mail = _mail(args)
    except ValueError as e:
        print(f"robinson serve: {e}", file=sys.stderr)
        return 2
    settings = Settings(
        database_url=url,
        redis_url=redis_url,
        seed_key=args.seed_key,
        vapid_key=args.vapid_key,
        vapid_subject=args.vapid_subject,
        push_services=tuple(args.push_service) if args.push_service else None,
        mail=mail,
        rates=Rates(**{f.name: getattr(args, f"rate_{f.name}") for f in fields(Rates)}),
        **{f.name: getattr(args, f.name) for f in tunables()},
    )
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_ping_interval=settings.ping_interval,
    )
    sockets = None
    if port == 0:  # the system picks a free port: bind it here (as uvicorn does) to say which
        sockets = [config.bind_socket()]
        port = sockets[0].getsockname()[1]
    shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    shared = f", shared through {_safe_redis(redis_url)}" if redis_url else ""
    print(
        f"Robinson is at http://{shown}:{port}/  (games stored in {_safe(url)}{shared})",
        flush=True,
    )
    uvicorn.Server(config).run(sockets=sockets)
    return 0


def _mail_options(p: argparse.ArgumentParser) -> None:
    """E-mail (docs/notifications.md "E-mail"): nothing is sent unless --smtp-host is given."""
    g = p.add_argument_group("e-mail", "notices and a daily digest by e-mail, to the addresses "
                             "players leave and confirm; none without --smtp-host")  # fmt: skip
    g.add_argument("--smtp-host", default=None, metavar="HOST", help="the SMTP server to send by")
    g.add_argument(
        "--smtp-port",
        type=int,
        default=None,
        metavar="N",
        help="its port (default: 465 with --smtp-security tls, 587 with starttls, 25 with none)",
    )
    g.add_argument(
        "--smtp-security",
        choices=("starttls", "tls", "none"),
        default="starttls",
        help="STARTTLS after connecting (default), TLS from the start, or none (a relay on "
        "this machine only)",
    )
    g.add_argument("--smtp-user", default=None, metavar="NAME", help="log in with this name")
    g.add_argument(
        "--smtp-password-file",
        default=None,
        metavar="FILE",
        help="the password for --smtp-user, read from this file (default: "
        "$ROBINSON_SMTP_PASSWORD); never given on the command line itself",
    )
    g.add_argument(
        "--mail-from", default=None, metavar="ADDRESS", help="the e-mails' sender address"
    )
    g.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the server's address as players reach it (e.g. https://robinson.example), for "
        "the links in the e-mails",
    )


def _mail(args: argparse.Namespace) -> Any:
    """The e-mail settings of the options (None without --smtp-host); ValueError says what is
    missing or wrong."""
    from robinson.web.settings import Mail

    if args.smtp_host is None:
        return None
    from robinson.web.notify.letters import check_address, check_public_url

    if not args.mail_from or check_address(args.mail_from) is None:
        raise ValueError("--smtp-host needs --mail-from, an e-mail address to send from")
    public = check_public_url(args.public_url or "")
    if public is None:
        raise ValueError("--smtp-host needs --public-url, e.g. https://robinson.example")
    password = os.environ.get("ROBINSON_SMTP_PASSWORD") or None
    if args.smtp_password_file is not None:
        try:
            with open(args.smtp_password_file, encoding="utf-8") as f:
                password = f.read().strip()
        except OSError as e:
            raise ValueError(f"cannot read --smtp-password-file: {e.strerror}") from None
    return Mail(
        host=args.smtp_host,
        sender=args.mail_from,
        public_url=public,
        port=args.smtp_port,
        security=args.smtp_security,
        user=args.smtp_user,
        password=password,
    )


def _at_least(low: float | None, flag: str) -> Callable[[str], float]:
    """An argparse type: a number, at least `low`; else a usage error saying so."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number, got {text!r}") from None
        if low is not None and not value >= low:
            raise argparse.ArgumentTypeError(f"{flag} is {low:g} or more, got {text}")
        return value

    return number


def _rate(text: str) -> str:
    """An argparse type: a rate in the `limits` notation (checked when it is parsed)."""
    from robinson.web.api.ratelimit import check_rate

    try:
        check_rate(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _check_redis(url: str) -> str | None:
    """None when Redis answers at `url`, else one line saying why not."""
    import asyncio

    from robinson.web.cluster import RedisUnavailable, connect

    async def check() -> None:
        cluster = await connect(url)
        await cluster.close()

    try:
        asyncio.run(check())
    except RedisUnavailable as e:
        return str(e)
    return None


def _safe_redis(url: str) -> str:
    from robinson.web.cluster import _safe as safe

    return safe(url)


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
