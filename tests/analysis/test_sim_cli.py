"""`robinson simulate` and `robinson report`: twice as the real command (a new process), the
rest through `robinson.cli.main` in this process (a new process costs a second or two of imports
and loading the compiled simulator)."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.shared import report_chains, report_page

from robinson.cli import main
from robinson.i18n import Translator

ROBINSON = [sys.executable, "-c", "import sys; from robinson.cli import main; sys.exit(main())"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ROBINSON, *args], capture_output=True, text=True, timeout=300)


def run_here(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`robinson ARGS` in this process: exit code, stdout, stderr."""
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse refusing the arguments
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_json_has_the_promised_fields() -> None:
    out = run("simulate", "--games", "5000", "--players", "3", "--seed", "4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 5000 and data["players"] == 3 and data["engine"] == "fast"
    assert data["games_per_second"] > 0
    assert len(data["p_win"]) == 3 and len(data["mean_purse"]) == 3
    for key in ("p_no_winner", "p_death"):
        low, high = data[key]["ci95"]
        assert low <= data[key]["value"] <= high
    assert {"p_bound", "master_worth", "friday_worth"} <= set(data["friday"])
    assert {"mean", "median", "p90", "histogram"} <= set(data["pot"])


def test_simulate_same_seed_same_numbers_on_both_engines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("simulate", "--games", "200", "--edition", "cs", "--seed", "11", "--json")
    fast = json.loads(run_here(capsys, *args)[1])
    slow = json.loads(run_here(capsys, *args, "--engine", "python")[1])
    for key in ("p_win", "p_no_winner", "turns", "mean_purse", "friday", "pot"):
        assert fast[key] == slow[key], key


def test_simulate_text_output_names_the_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_here(capsys, "simulate", "--games", "1000", "--players", "2")
    assert code == 0
    assert "P(win)" in out and "P(no winner)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "at least 1"),
        (("--games", "10", "--players", "9"), "from 2 to 8"),
        (("--games", "10", "--edition", "xx"), "invalid choice"),
        (("--games", "10", "--stake", "40"), "stake must be between"),
        (("--games", "10", "--players", "3", "--first", "5"), "first must be a seat"),
        (("--games", "10", "--policy", "nope", "--engine", "python"), "unknown policy"),
        (("--games", "10", "--policy", "random"), "use --engine python"),
        (("--games", "10", "--players", "5", "--policy", "optimal"), "1 to 4 players"),
    ],
)
def test_simulate_bad_input_gets_a_clear_error(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_here(capsys, "simulate", *args)
    assert code == 2
    assert message in err


def test_report_is_one_self_contained_page_of_readable_plots() -> None:
    # The page `build_report` writes (render(collect(games, seed), "en")), rendered once per run
    # for the report tests (tests/shared.py); that it is the only file written is checked on the
    # real command below (which calls `build_report`).
    html = report_page("en")
    assert not re.search(r'src="(?!data:)', html)  # no external images or scripts
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(images) == 8
    for data in images:
        png = base64.b64decode(data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(png[16:20], "big")
        assert width >= 600  # big enough to read
    for heading in ("Game length", "Seat advantage", "Where pawns land", "Expected purses",
                    "The value of each choice, exactly (2 players)",
                    "The value of each choice over whole games (simulated)",
                    "Editions side by side"):  # fmt: skip
        assert heading in html
    # the exact table, the editions with the same games merged, each by its name
    en = Translator("en")
    merged = f"{en.gettext('edition.standard')} = {en.gettext('edition.ca')}"
    assert f"{merged}: P(win), eager option" in html
    for edition in ("standard", "lv", "cs", "ca", "classic"):
        assert en.gettext(f"edition.{edition}") in html


def test_report_command_writes_the_page(tmp_path: Path) -> None:
    # Few games: the command's own work is the same at any size (the statistics are not checked).
    report_chains()  # the 4-player chains it reads: solved in this run once, not in the command
    out = run("report", "--out", str(tmp_path / "out"), "--games", "200")
    assert out.returncode == 0, out.stderr
    page = tmp_path / "out" / "index.html"
    assert list((tmp_path / "out").iterdir()) == [page]  # nothing else to carry along
    assert page.stat().st_size > 50_000
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html><html lang=en>")
    bad = run("report", "--out", str(tmp_path), "--games", "1")
    assert bad.returncode == 2 and "at least 2" in bad.stderr
