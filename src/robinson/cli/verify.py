"""`robinson verify RECORD...`: check that every roll of a game follows from its revealed seed
(docs/fair-dice.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from robinson.engine import GameRecord, RobinsonError
from robinson.i18n import LANGUAGES, Translator, default_language


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="check the dice of a downloaded game record")
    p.add_argument("files", nargs="+", type=Path, metavar="RECORD")
    p.add_argument(
        "--lang", choices=LANGUAGES, help="language of the messages (default: from the locale)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from robinson.fairdice import DiceMismatch, verify_record

    t = Translator(getattr(args, "lang", None) or default_language())
    status = 0
    for path in args.files:
        try:
            record = GameRecord.loads(path.read_text(encoding="utf-8"))
            record.replay()  # the actions must be a legal game too
            count = verify_record(record)
        except OSError as e:
            print(f"robinson verify: {path}: {t.read_error(e)}", file=sys.stderr)
            return 2
        except (RobinsonError, DiceMismatch) as e:
            failed = t.format("cli.verify.failed", error=t.error(e))
            print(f"robinson verify: {path}: {failed}", file=sys.stderr)
            status = 1
            continue
        dice = record.meta["dice"]
        print(t.nformat("cli.verify.ok", count, path=path, digest=dice["seed_sha256"]))
        if "seeds" in dice:  # the second scheme: whose seeds the rolls came from too
            given = sum(s.get("by") == "player" for s in dice["seeds"])
            server = len(dice["seeds"]) - given
            print(t.format("cli.verify.seats", path=path, given=given, server=server))
    return status
