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


def test_every_number_of_the_observation_has_a_name_that_says_what_encode_wrote() -> None:
    from robinson.engine import Phase, Player, Ruleset, State
    from robinson.rl import encode, feature_names
    from robinson.rl.match import observation_size

    for n in (2, 5, 8):
        names = feature_names(n)
        assert len(names) == observation_size(n) == len(set(names))
    state = State(
        Ruleset("standard"),
        (Player(12, 12, skips=1, friday=2), Player(7, 3), Player(4, 20, shipwrecked=True)),
        25, 1, Phase.TREE, 5,
    )  # fmt: skip
    seen = dict(zip(feature_names(3), encode(state, 1).tolist(), strict=True))
    on = {name for name, x in seen.items() if x}
    # Seen from seat 1 (on the tree, the roll 5 in view): he is seat0, seat 2 is seat1, seat 0
    # is seat2 (waiting on 12; his Friday, seat 2, is the observer's seat1).
    assert on == {
        "seat0.square=7", "seat0.alive", "seat0.purse", "seat0.to_move",
        "seat1.square=4", "seat1.alive", "seat1.purse", "seat1.shipwreck_mark",
        "seat2.square=12", "seat2.alive", "seat2.purse", "seat2.skips", "seat2.friday=seat1",
        "bank", "phase=tree", "roll=5",
    }  # fmt: skip
    assert (seen["seat0.purse"], seen["seat2.purse"], seen["bank"]) == (3, 12, 25)
