"""Every Python snippet of the docs and the README runs on its own, in a fresh process, and
prints exactly what its `# -> ...` comments say (docs/rl.md's, which need the optional `rl`
extra, are run by tests/rl/test_docs.py). Listings that are not scripts are fenced as `text`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import robinson

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SNIPPETS = [
    (page.relative_to(ROOT).as_posix(), code)
    for page in PAGES
    if page.name != "rl.md"
    for code in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
]


def expected_output(code: str) -> list[str]:
    return [line.split("# -> ", 1)[1].rstrip() for line in code.splitlines() if "# -> " in line]


def test_there_are_snippets_and_each_states_its_output() -> None:
    assert SNIPPETS
    for page, code in SNIPPETS:
        assert expected_output(code), (page, code)


@pytest.mark.parametrize(("page", "code"), SNIPPETS, ids=[p for p, _ in SNIPPETS])
def test_a_snippet_runs_alone_and_prints_what_it_says(page: str, code: str, tmp_path: Path) -> None:
    tree = str(Path(robinson.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tree, os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, (page, run.stderr)
    assert run.stdout.splitlines() == expected_output(code), page
