"""benchmarks/floor.py (the web stack's floor, issue 17) runs end to end and prints its row: a
smoke test. Tests never assert on timings: only that some CPU per move was measured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tiers import require

pytestmark = pytest.mark.system  # it starts a server process

ROOT = Path(__file__).resolve().parents[2]


def test_the_floor_prints_a_row_with_its_cpu_per_move() -> None:
    require("system", "benchmarks/floor.py's server")
    src = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    cmd = [sys.executable, str(ROOT / "benchmarks" / "floor.py")]
    cmd += ["--tables", "5", "--seconds", "2", "--warmup", "0.5"]
    env = {**os.environ, "PYTHONPATH": src}
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("floor ")]
    assert len(rows) == 1, run.stdout
    # mode spect tables moves/s | server ms/move main other | ...
    moves_per_second = float(rows[0].split("|")[0].split()[-1])
    cpu_per_move = float(rows[0].split("|")[1].split()[0])
    assert moves_per_second > 0 and cpu_per_move > 0, rows[0]
    assert "stopped on an error" not in run.stdout, run.stdout
