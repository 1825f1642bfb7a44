"""Players that choose. The die is never a bot's business: bots only answer decisions
(the engine's `DECISION_TABLE`), and only when `state.phase` is a decision phase.

Find a bot by name with `make_bot(name, seed)`; `BOT_NAMES` lists the known ones. Other parts of
the project (e.g. the analysis' optimal bot) add themselves with `register`.
"""

from __future__ import annotations

from robinson.bots.base import BOT_NAMES, Bot, make_bot, register
from robinson.bots.simple import EagerBot, HeuristicBot, RandomBot


def _optimal(seed: int | None) -> Bot:
    # Imported on first use: the exact solver pulls in numpy and numba, which plain play and the
    # terminal do not need. Importing the module registers the real factory in our place.
    from robinson.bots.optimal import OptimalBot

    return OptimalBot(seed)


register("optimal", _optimal)

__all__ = ["BOT_NAMES", "Bot", "EagerBot", "HeuristicBot", "RandomBot", "make_bot", "register"]
