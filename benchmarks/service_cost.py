"""What a move costs Robinson's own code: the game service alone, in process, no web stack.

`benchmarks/move_cost.py` measures the whole server (uvicorn, WebSockets, deflate, the service,
the store) and `benchmarks/floor.py` the same stack with no Robinson code in it; this measures
the part between them that is ours: `GameService.act` from the authenticated move to the texts
handed to the listeners, with the production clock and fair dice, the group writer on a SQLite
file (WAL, `synchronous=FULL`), and each table's viewers as listeners that take the encoded texts
as a socket's queue would (no socket, no deflate).

`--tables` (200) tables of `--players` (3) human seats, each followed by one listener holding
every seat (as move_cost.py's load client) and `--spectators` (0) more in the languages of
`--langs` (en) in turn; the tables move in rounds, one move each a round (a finished game is
followed by a rematch), for `--rounds` (40) rounds after one warm-up round. Printed per move:
the process's CPU time (all threads), the event loop's thread's (`time.thread_time`), and the
rest (the writer's thread: SQLite and its commits). `--profile` adds cProfile's top functions
(their times inflated by the profiler; the shares are what to read).

    .venv/bin/python benchmarks/service_cost.py
    .venv/bin/python benchmarks/service_cost.py --spectators 3 --langs lv,cs,ca
    .venv/bin/python benchmarks/service_cost.py --profile
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from robinson.engine import Choose, legal_actions
from robinson.web.protocol.messages import encode
from robinson.web.service import GameService, SeatSpec
from robinson.web.service.live import LiveTable
from robinson.web.settings import Settings
from robinson.web.store import Store


class Listener:
    """What the service sees of a socket: its language, its seats, and `send`. A dict (an
    answer for this viewer alone) is encoded here, as the socket's pump would."""

    def __init__(self, lang: str, seats: set[int]) -> None:
        self.lang = lang
        self.seats = seats
        self.received = 0

    def send(self, message: dict[str, Any] | str) -> None:
        if not isinstance(message, str):
            encode(message)
        self.received += 1


async def one_move(service: GameService, table: LiveTable, tokens: list[str], rng: Any) -> int:
    """Make the table's next move (a roll, or a legal option at random): 1; or a rematch: 0."""
    game = table.game
    state = game.state
    if state.over:
        await service.rematch(table.id, tokens[0])
        return 0
    assert state.to_move is not None
    if state.phase.value == "roll":
        move = "roll"
    else:
        move = rng.choice([a.option for a in legal_actions(state) if isinstance(a, Choose)])
    await service.act(game.id, tokens[state.to_move], game.version, move)
    return 1


async def measure(args: argparse.Namespace) -> dict[str, float]:
    folder = tempfile.mkdtemp(prefix="robinson-service-cost-")
    store = Store(f"sqlite:///{folder}/bench.sqlite3")
    service = GameService(store, Settings(bot_delay=0))
    await service.start()
    rng = random.Random(args.seed)
    langs = args.langs.split(",")
    tables: list[tuple[LiveTable, list[str]]] = []
    try:
        for t in range(args.tables):
            seats = [SeatSpec(f"P{i}") for i in range(args.players)]
            made = await service.create_table(seats, {"edition": "standard"})
            table = await service.table(made["table"])
            everyone = set(range(args.players))
            player = Listener(langs[0], everyone)
            service.subscribe(table, player)
            service.hold(table, player, everyone)
            for k in range(args.spectators):
                service.subscribe(table, Listener(langs[(t + k) % len(langs)], set()))
            tables.append((table, [s["token"] for s in made["seats"]]))

        async def round_() -> int:
            made = await asyncio.gather(*(one_move(service, t, k, rng) for t, k in tables))
            return sum(made)

        await round_()  # warm-up: every table's first move, caches filled
        profiler = cProfile.Profile() if args.profile else None
        moves = 0
        wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        if profiler:
            profiler.enable()
        for _ in range(args.rounds):
            moves += await round_()
        if profiler:
            profiler.disable()
        wall = time.perf_counter() - wall
        cpu, main = time.process_time() - cpu, time.thread_time() - main
    finally:
        await service.stop()
        store.close()
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile_lines)
    return {"moves": moves, "wall": wall, "cpu": cpu, "main": main}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--spectators", type=int, default=0, help="more listeners per table")
    ap.add_argument("--langs", default="en", help="the listeners' languages, in turn")
    ap.add_argument("--rounds", type=int, default=40, help="moves per table measured")
    ap.add_argument("--seed", type=int, default=1, help="the options chosen (not the dice)")
    ap.add_argument("--profile", action="store_true", help="cProfile's top functions too")
    ap.add_argument("--profile-lines", type=int, default=30)
    args = ap.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.rounds <= 1000:
        ap.error("--tables is 1 to 5000 and --rounds 1 to 1000")
    out = asyncio.run(measure(args))
    n = out["moves"]
    load = os.getloadavg()[0]
    print(
        f"{args.tables} tables of {args.players} seats, {args.spectators} spectators each "
        f"({args.langs}); {n} moves in {out['wall']:.2f} s; load average {load:.2f}"
    )
    print(
        f"service CPU per move: {1000 * out['cpu'] / n:.3f} ms (event loop's thread "
        f"{1000 * out['main'] / n:.3f}, others {1000 * (out['cpu'] - out['main']) / n:.3f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
