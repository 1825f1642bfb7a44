"""The server's options are written once (web/settings.py): `robinson serve` offers each with its
default and bound, and refuses a value out of bounds before starting anything."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from robinson.cli.serve import register
from robinson.web.settings import Rates, Settings, tunables


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="robinson")
    register(parser.add_subparsers())
    return parser


def test_every_option_of_the_settings_is_a_flag_with_the_same_default() -> None:
    args = _parser().parse_args(["serve"])
    defaults = Settings()
    assert tunables(), "no tunable options found"
    for f in tunables():
        assert getattr(args, f.name) == getattr(defaults, f.name), f.name
    for f in dataclasses.fields(Rates):
        assert getattr(args, f"rate_{f.name}") == getattr(defaults.rates, f.name), f.name


def test_a_flag_sets_its_setting() -> None:
    args = _parser().parse_args(["serve", "--bot-delay", "0", "--unload-after", "2.5"])
    assert (args.bot_delay, args.unload_after) == (0.0, 2.5)


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--bot-delay", "-1", "--bot-delay is 0 or more, got -1"),
        ("--absent-after", "soon", "a number, got 'soon'"),
        ("--expire-days", "-0.5", "--expire-days is 0 or more"),
        ("--rate-actions", "many", "a rate is N/second, N/minute or N/hour"),
    ],
)
def test_a_value_out_of_bounds_is_a_usage_error_that_names_the_flag(
    flag: str, value: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        _parser().parse_args(["serve", flag, value])
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err
