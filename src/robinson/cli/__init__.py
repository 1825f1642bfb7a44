"""The `robinson` command. Each subcommand lives in its own module with `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import sys

# Subcommand modules, in the order `robinson --help` lists them.
SUBCOMMANDS = ["replay", "play", "serve", "verify", "analyze", "odds", "simulate", "report"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="robinson", description="Robinson, the Robinson Crusoe dice race game."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"robinson.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (`robinson analyze --json | head`): not an error of ours.
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
