"""Every Python snippet of docs/rl.md runs on its own, in a fresh process, and prints exactly
what its `# -> ...` comments say, in order."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import robinson

pytest.importorskip("pyspiel", reason="the optional extra 'rl' is not installed")

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def expected_output(code: str) -> list[str]:
    return [line.split("# -> ", 1)[1].rstrip() for line in code.splitlines() if "# -> " in line]


def test_the_page_has_snippets_and_each_states_its_output() -> None:
    assert len(SNIPPETS) >= 3
    for code in SNIPPETS:
        assert expected_output(code), code


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_a_snippet_runs_alone_and_prints_what_it_says(index: int, tmp_path: Path) -> None:
    code = SNIPPETS[index]
    # The snippet runs elsewhere (a clean directory) but on this tree's `robinson`.
    tree = str(Path(robinson.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tree, os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == expected_output(code)
