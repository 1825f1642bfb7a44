"""Worker processes that end with the server that started them.

The chances' solves and the optimal bot's run in spawned processes (odds.py, solver.py). When
the server dies without shutting them down (kill -9, a crash, a stop that timed out), an idle
pool worker would wait for work for ever — a process and its memory per death, and the
server's stdout held open by it (a test reading the server's output to its end hung on one).
Each worker watches its parent and leaves when it is gone.
"""

from __future__ import annotations

import os
import threading
import time

WATCH_EVERY = 1.0  # seconds between looks at the parent


def exit_with_parent(parent: int) -> None:
    """In a worker process (a pool's initializer, or first thing in its target): end this
    process once `parent` is no longer its parent (it died; the worker was adopted)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)  # nothing of the worker's is worth finishing: its server is gone

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
