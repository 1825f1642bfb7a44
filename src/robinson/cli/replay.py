"""`robinson replay FILE... [--json]`: the state after a record's last action (RULES.md 10)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from robinson.engine import GameRecord, RobinsonError, state_to_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay game records")
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for path in args.files:
        try:
            record = GameRecord.loads(path.read_text(encoding="utf-8"))
            state = record.replay()
        except OSError as e:
            print(f"robinson replay: {path}: cannot read: {e.strerror}", file=sys.stderr)
            return 2
        except RobinsonError as e:
            print(f"robinson replay: {path}: {e}", file=sys.stderr)
            return 1
        print(json.dumps(state_to_json(state, record.players), ensure_ascii=False))
    return 0
