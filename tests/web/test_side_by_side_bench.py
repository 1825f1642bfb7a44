"""benchmarks/side_by_side.py (two versions of the server under one load at once) runs end to end
and prints its rows and ratios: a smoke test. Tests never assert on timings: only that both
servers moved and a ratio was printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tiers import require

pytestmark = pytest.mark.system  # it starts two server processes

ROOT = Path(__file__).resolve().parents[2]


def test_two_versions_side_by_side_print_their_rows_and_ratios() -> None:
    require("system", "benchmarks/side_by_side.py's two servers")
    cmd = [sys.executable, str(ROOT / "benchmarks" / "side_by_side.py"), "--other", str(ROOT)]
    cmd += ["--tables", "3", "--seconds", "2", "--warmup", "0.5", "--rounds", "2"]
    run = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True,
                         timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    for side in ("this", "other"):
        rows = [line for line in run.stdout.splitlines() if line.startswith(f"{side:8} ")]
        assert len(rows) == 2, run.stdout  # one a round
        assert all(float(row.split("|")[0].split()[-1]) > 0 for row in rows), rows  # moves/s
    assert run.stdout.count("round ") == 2, run.stdout
    assert "both orders weighed alike" in run.stdout, run.stdout
