"""The game from code: PettingZoo, Gymnasium and OpenSpiel environments, and exact scoring.

    from robinson.rl import aec_env, SingleAgentEnv, score
    import robinson.rl.openspiel  # registers the OpenSpiel game "python_robinson"

The environments need the optional extra `rl` (pip install 'robinson[rl]'); `score` needs only
the project's own dependencies. Nothing is imported until it is used, so `import robinson.rl`
is cheap; it registers `gymnasium.make("robinson/SingleAgent-v0")` all the same
(`registration.py`). See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from robinson.rl.registration import register_when_gymnasium_loads

__all__ = [
    "ACTIONS",
    "PawnPosition",
    "Score",
    "SingleAgentEnv",
    "TokenScore",
    "aec_env",
    "encode",
    "feature_names",
    "score",
]

_WHERE = {
    "ACTIONS": "robinson.rl.match",
    "encode": "robinson.rl.match",
    "feature_names": "robinson.rl.match",
    "aec_env": "robinson.rl.aec",
    "SingleAgentEnv": "robinson.rl.single",
    "PawnPosition": "robinson.rl.positions",
    "Score": "robinson.rl.scoring",
    "score": "robinson.rl.scoring",
    "TokenScore": "robinson.rl.tokens",
}


register_when_gymnasium_loads()


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'robinson.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_WHERE[name]), name)
