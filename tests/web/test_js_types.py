"""TypeScript's checker over the page's modules (src/robinson/web/static/*.js, no build step):
those that start with `// @ts-check` are checked against the JSDoc types, the server's messages
among them (static/types.js mirrors web/protocol/). TypeScript is pinned in tests/web/js/
(package.json, package-lock.json); `npm ci` installs it there when it is missing (the npm
registry, once), then the check needs no network. Skipped, saying why, where Node or npm is
not installed or TypeScript cannot be."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).parent / "js"
STATIC = Path(__file__).parents[2] / "src" / "robinson" / "web" / "static"
TSC = JS / "node_modules" / "typescript" / "bin" / "tsc"
# Every module of the page is checked but the service worker (sw.js) and the offline
# verifier's classic script (verify.js, the one script of /static/verify.html): not yet.
UNCHECKED = {"sw.js", "verify.js"}


def _tsc() -> list[str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js and npm are not installed: the page's modules are not type-checked")
    if not TSC.exists():
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not TSC.exists():
            pytest.skip(f"TypeScript could not be installed by npm ci: {done.stderr[-500:]}")
    return [node, str(TSC)]


def _check(tsc: list[str], project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*tsc, "-p", str(project)], capture_output=True, text=True, timeout=300, check=False
    )


def test_the_pages_modules_pass_typescripts_checker(tmp_path: Path) -> None:
    tsc = _tsc()
    modules = {f.name for f in STATIC.glob("*.js")} - UNCHECKED
    unchecked = [
        m for m in sorted(modules) if not (STATIC / m).read_text().startswith("// @ts-check")
    ]
    assert unchecked == [], f"no // @ts-check at the top of {unchecked}"
    done = _check(tsc, JS / "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr
    # The same checker fails on a type error: a module calling dom.js's `make` with a number
    # for its attributes and a misspelt field of a server message.
    bad = tmp_path / "bad.js"
    bad.write_text(
        "// @ts-check\n"
        f'import {{ make }} from "{STATIC / "dom.js"}";\n'
        'make("div", null, 5);\n'
        '/** @type {import("' + str(STATIC / "types.js") + '").GameView} */\n'
        "let game;\n"
        "game.to_mvoe;\n"
    )
    config = (
        (JS / "tsconfig.json")
        .read_text()
        .replace('"include": ["../../../src/robinson/web/static/*.js"]', f'"include": ["{bad}"]')
    )
    (tmp_path / "tsconfig.json").write_text(config)
    failed = _check(tsc, tmp_path / "tsconfig.json")
    assert failed.returncode != 0
    assert "bad.js(3," in failed.stdout and "to_mvoe" in failed.stdout, failed.stdout
