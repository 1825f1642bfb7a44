"""Which effect line a square shows under a ruleset (RULES.md section 9; decisions in
docs/texts.md).

Each language's catalog holds the seed's own effect line (`square.N.effect`) and our lines for the
rules where an edition departs from that text (`effect.N.<variant>`). The line shown always states
the rule in force: the seed's where it agrees, ours where it does not.
"""

from __future__ import annotations

from robinson.engine import (
    DECISION_TABLE,
    FEVER_SQUARE,
    HOME,
    SHIP,
    SQUARES,
    Effect,
    Fever,
    Phase,
    Ruleset,
)

# What each language's own square-12 text says. English follows the recommended reading (skip).
_SEED_FEVER = {
    "lv": Fever.EXTRA_ROLL,
    "cs": Fever.EXTRA_ROLL,
    "ca": Fever.SKIP_TURN,
    "en": Fever.SKIP_TURN,
}
_FEVER_KEY = {Fever.EXTRA_ROLL: "effect.12.extra", Fever.SKIP_TURN: "effect.12.skip"}

# The decision squares, whose "may" becomes "must" when the edition's choices are compulsory
# (the tree's compulsory line says the turn is skipped).
_COMPULSORY_KEY = {
    d.square: f"effect.{d.square}.{'skip' if d.phase is Phase.TREE else 'must'}"
    for d in DECISION_TABLE
}

# Squares whose seed text carries an effect line (the same squares in every language): every
# square of the standard board that does something.
SQUARES_WITH_EFFECT = frozenset(sq.number for sq in SQUARES if sq.effect is not Effect.STORY)


def effect_key(number: int, ruleset: Ruleset, lang: str) -> str | None:
    """The message key of the effect line for square `number`, or None for a story square."""
    if number not in SQUARES_WITH_EFFECT:
        return None
    seed = f"square.{number}.effect"
    if number in _COMPULSORY_KEY and not ruleset.optional_choices:
        return _COMPULSORY_KEY[number]
    if number == FEVER_SQUARE and ruleset.fever is not _SEED_FEVER[lang]:
        return _FEVER_KEY[ruleset.fever]
    if number == SHIP and lang == "lv":
        # The Latvian text lets the player from 41 choose ("drīkst"); the rule moves him.
        return "effect.36.swap"
    if number == HOME and ruleset.share == "third":
        return "effect.45.third"
    return seed
