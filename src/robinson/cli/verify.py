"""`robinson verify RECORD...`: check that every roll of a game follows from its revealed seed
(docs/fair-dice.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from robinson.engine import GameRecord, RobinsonError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="check the dice of a downloaded game record")
    p.add_argument("files", nargs="+", type=Path, metavar="RECORD")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from robinson.fairdice import DiceMismatch, verify_record

    status = 0
    for path in args.files:
        try:
            record = GameRecord.loads(path.read_text(encoding="utf-8"))
            record.replay()  # the actions must be a legal game too
            count = verify_record(record)
        except OSError as e:
            print(f"robinson verify: {path}: cannot read: {e.strerror}", file=sys.stderr)
            return 2
        except (RobinsonError, DiceMismatch) as e:
            print(f"robinson verify: {path}: FAILED: {e}", file=sys.stderr)
            status = 1
            continue
        digest = record.meta["dice"]["seed_sha256"]
        print(f"{path}: OK: {count} rolls follow from the seed with SHA-256 {digest}")
    return status
