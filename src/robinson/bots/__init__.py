"""Players that choose. The die is never a bot's business: bots only answer decisions
(squares 4, 7, 20, 23), and only when `state.phase` is a decision phase.

Find a bot by name with `make_bot(name, seed)`; `BOT_NAMES` lists the known ones. Other parts of
the project (e.g. the analysis' optimal bot) add themselves with `register`.
"""

from __future__ import annotations

from robinson.bots.base import BOT_NAMES, Bot, make_bot, register
from robinson.bots.simple import EagerBot, HeuristicBot, RandomBot

__all__ = ["BOT_NAMES", "Bot", "EagerBot", "HeuristicBot", "RandomBot", "make_bot", "register"]
