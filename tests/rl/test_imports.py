"""The RL libraries are optional: importing the game must not pull them in."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("pettingzoo", "gymnasium", "pyspiel", "open_spiel")


@pytest.mark.parametrize("module", ["robinson", "robinson.engine", "robinson.rl"])
def test_importing_does_not_import_the_rl_libraries(module: str) -> None:
    code = f"import sys, {module}\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_an_unknown_name_in_robinson_rl_is_an_attribute_error() -> None:
    import robinson.rl

    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        robinson.rl.nothing  # noqa: B018
