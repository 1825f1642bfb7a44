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


@pytest.mark.parametrize(
    "imports",
    ["import robinson.rl\nimport gymnasium", "import gymnasium\nimport robinson.rl"],
    ids=["robinson-first", "gymnasium-first"],
)
def test_gymnasium_make_works_right_after_importing_robinson_rl(imports: str) -> None:
    """Issue 21: `gymnasium.make("robinson/SingleAgent-v0")` failed after `import robinson.rl`
    alone; the id is there whichever of the two imports comes first, in a fresh process."""
    code = (
        f"{imports}\n"
        "env = gymnasium.make('robinson/SingleAgent-v0', players=2)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, env.spec.max_episode_steps, info['options'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["SingleAgentEnv", "1000", "('roll',", "'roll')"]
