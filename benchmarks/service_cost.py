"""What a move costs Robinson's own code: the game service alone, in process, no web stack.

`benchmarks/move_cost.py` measures the whole server (uvicorn, WebSockets, deflate, the service,
the store) and `benchmarks/floor.py` the same stack with no Robinson code in it; this measures
the part between them that is ours: `GameService.act` from the authenticated move to the texts
handed to the listeners, with the production clock and fair dice, the group writer on a SQLite
file (WAL, `synchronous=FULL`), and each table's viewers as listeners that take the encoded texts
as a socket's queue would (no socket, no deflate).

`--alone`: the moves one at a time, each waiting for its commit, as in a server at a move every
few milliseconds (the default makes a round's moves together, and the writer commits them as one
group: the service's cost with warm caches). `--evict` MB (0): also touch that much memory
before each move, so that it finds its code and data out of the CPU's caches; the touching's own
time is taken off. On the 2-core machine (a VM) a move of the engine alone costs ~15 µs warm and
~120 µs after 16 MB were touched, and the service's loop thread costs ~2.3x more a move `--alone`
than in rounds: what a move costs in the server (move_cost.py) at 200 tables is mostly such
cold starts, which is also why a move costs less at 1,000 tables than at 200.

`--tables` (200) tables of `--players` (3) human seats, each followed by one listener holding
every seat (as move_cost.py's load client) and `--spectators` (0) more in the languages of
`--langs` (en) in turn; the tables move in rounds, one move each a round (a finished game is
followed by a rematch), for `--rounds` (40) rounds after one warm-up round. Printed per move:
the process's CPU time (all threads), the event loop's thread's (`time.thread_time`), and the
rest (the writer's thread: SQLite and its commits). `--profile` adds cProfile's top functions
(their times inflated by the profiler; the shares are what to read). `--no-views`: the same
moves with `views.tell_update` replaced by nothing (no narration, no view, no encoding, nothing
handed to the listeners): the difference to a run without it is what telling the viewers costs,
and what is left is the service's way from the move to its stored, applied step.

    .venv/bin/python benchmarks/service_cost.py
    .venv/bin/python benchmarks/service_cost.py --spectators 3 --langs lv,cs,ca
    .venv/bin/python benchmarks/service_cost.py --profile
    .venv/bin/python benchmarks/service_cost.py --alone --rounds 10
    .venv/bin/python benchmarks/service_cost.py --evict 16 --rounds 10
    .venv/bin/python benchmarks/service_cost.py --alone --no-views
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
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from robinson.engine import Choose, legal_actions
from robinson.web.protocol.messages import encode
from robinson.web.service import GameService, SeatSpec, views
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


class Evictor:
    """Between two moves, touch `megabytes` of memory (numpy, in place) so that the next move
    finds its code and data out of the CPU's caches, as a server at a move every few ms does
    (its sockets, the other tables, the load client sharing the cores): `--evict`. The time
    spent touching is counted and taken off the figures."""

    def __init__(self, megabytes: int) -> None:
        import numpy as np

        self.buffer = np.zeros(megabytes << 20, dtype=np.uint8) if megabytes else None
        self.cpu = self.main = 0.0

    def __call__(self) -> None:
        if self.buffer is None:
            return
        cpu, main = time.process_time(), time.thread_time()
        self.buffer += 1
        self.cpu += time.process_time() - cpu
        self.main += time.thread_time() - main


async def one_move(
    service: GameService, table: LiveTable, tokens: list[str], rng: Any, evict: Evictor
) -> int:
    """Make the table's next move (a roll, or a legal option at random): 1; or a rematch: 0."""
    evict()
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
    # moves.py calls `views.tell_update` through the module: replaced while measuring
    quiet = lambda *_, **__: None  # noqa: E731
    with mock.patch.object(views, "tell_update", quiet) if args.no_views else nullcontext():
        return await _measure(args)


async def _measure(args: argparse.Namespace) -> dict[str, float]:
    folder = tempfile.mkdtemp(prefix="robinson-service-cost-")
    store = Store(f"sqlite:///{folder}/bench.sqlite3")
    service = GameService(store, Settings(bot_delay=0))
    await service.start()
    rng = random.Random(args.seed)
    langs = args.langs.split(",")
    tables: list[tuple[LiveTable, list[str]]] = []
    listeners: list[Listener] = []
    evict = Evictor(0)
    try:
        for t in range(args.tables):
            seats = [SeatSpec(f"P{i}") for i in range(args.players)]
            made = await service.create_table(seats, {"edition": "standard"})
            table = await service.table(made["table"])
            everyone = set(range(args.players))
            player = Listener(langs[0], everyone)
            service.subscribe(table, player)
            service.hold(table, player, everyone)
            listeners.append(player)
            for k in range(args.spectators):
                listeners.append(Listener(langs[(t + k) % len(langs)], set()))
                service.subscribe(table, listeners[-1])
            tables.append((table, [s["token"] for s in made["seats"]]))

        async def round_() -> int:
            if args.alone or args.evict:  # one move at a time, each alone
                return sum([await one_move(service, t, k, rng, evict) for t, k in tables])
            made = await asyncio.gather(*(one_move(service, t, k, rng, evict) for t, k in tables))
            return sum(made)

        await round_()  # warm-up: every table's first move, caches filled
        evict = Evictor(args.evict)
        profiler = cProfile.Profile() if args.profile else None
        moves, told = 0, -sum(listener.received for listener in listeners)
        wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        if profiler:
            profiler.enable()
        for _ in range(args.rounds):
            moves += await round_()
        if profiler:
            profiler.disable()
        wall = time.perf_counter() - wall
        cpu, main = time.process_time() - cpu, time.thread_time() - main
        cpu, main = cpu - evict.cpu, main - evict.main
        told += sum(listener.received for listener in listeners)
    finally:
        await service.stop()
        store.close()
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile_lines)
    return {"moves": moves, "wall": wall, "cpu": cpu, "main": main, "told": told}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--spectators", type=int, default=0, help="more listeners per table")
    ap.add_argument("--langs", default="en", help="the listeners' languages, in turn")
    ap.add_argument("--rounds", type=int, default=40, help="moves per table measured")
    ap.add_argument("--seed", type=int, default=1, help="the options chosen (not the dice)")
    ap.add_argument("--alone", action="store_true", help="one move at a time")
    ap.add_argument(
        "--evict", type=int, default=0, metavar="MB", help="memory touched before each move"
    )
    ap.add_argument("--profile", action="store_true", help="cProfile's top functions too")
    ap.add_argument(
        "--no-views", action="store_true", help="tell the viewers nothing (views' cost: the rest)"
    )
    ap.add_argument("--profile-lines", type=int, default=30)
    args = ap.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.rounds <= 1000:
        ap.error("--tables is 1 to 5000 and --rounds 1 to 1000")
    if not 0 <= args.evict <= 256:
        ap.error("--evict is 0 to 256 (MB)")
    out = asyncio.run(measure(args))
    n = out["moves"]
    load = os.getloadavg()[0]
    print(
        f"{args.tables} tables of {args.players} seats, {args.spectators} spectators each "
        f"({args.langs}); {n} moves in {out['wall']:.2f} s, "
        f"{'one at a time' if args.alone or args.evict else 'in rounds'}"
        f"{', viewers told nothing (--no-views)' if args.no_views else ''}"
        f"{f', {args.evict} MB touched before each' if args.evict else ''}; "
        f"load average {load:.2f}"
    )
    print(
        f"service CPU per move: {1000 * out['cpu'] / n:.3f} ms (event loop's thread "
        f"{1000 * out['main'] / n:.3f}, others {1000 * (out['cpu'] - out['main']) / n:.3f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
