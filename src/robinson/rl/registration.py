"""`gymnasium.make("robinson/SingleAgent-v0")` right after `import robinson.rl`, without making
that import load Gymnasium (it stays cheap, and Gymnasium optional).

Gymnasium 1.x has no plugin entry points, so the id must be registered in the running process.
If Gymnasium is loaded already, it is registered at once. Otherwise a one-shot finder waits on
`sys.meta_path` for the first `import gymnasium` and registers as soon as that module has run:
the registry then has the id whichever of the two imports comes first. The entry point is a
string, so registering imports nothing of the environment either.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

GYM_ID = "robinson/SingleAgent-v0"
# A game has no length limit (a learner alone on the tree may stay for ever), so `make`
# truncates an episode after 1000 of the learner's steps; a real game gives him a few dozen.
MAX_EPISODE_STEPS = 1000


def register_gymnasium() -> None:
    """Register `GYM_ID` with Gymnasium (once)."""
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(
            GYM_ID,
            entry_point="robinson.rl.single:SingleAgentEnv",
            max_episode_steps=MAX_EPISODE_STEPS,
        )


def register_when_gymnasium_loads() -> None:
    """Register now if Gymnasium is loaded, else right after it is (module docstring)."""
    if "gymnasium" in sys.modules:
        register_gymnasium()
    elif not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


class _AfterGymnasium(importlib.abc.MetaPathFinder):
    """Finds `gymnasium` as the other finders would, with a loader that registers after it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)  # one shot, and the real finders answer below
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec  # not installed: the import fails as it would have
        spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister(importlib.abc.Loader):
    def __init__(self, inner: importlib.abc.Loader) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        # Gymnasium's own loader from here on (resource readers and the like live there).
        module.__loader__ = self.inner
        if module.__spec__ is not None:
            module.__spec__.loader = self.inner
        register_gymnasium()
