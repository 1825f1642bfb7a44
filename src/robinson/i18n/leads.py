"""What each option of a decision leads to, in words: "Move on → 10: The goat – pay 2 tokens to
your right-hand neighbour". Read off the engine's board and the ruleset in force, so the hint can
never disagree with what the engine then does.
"""

from __future__ import annotations

from dataclasses import dataclass

from robinson.engine import DECISION_OF, SQUARES, Effect, Fever, Phase, Ruleset, State, target_of
from robinson.i18n import Translator

# Square effects whose consequence depends on whether the edition's choices are optional.
_MAY_OR_MUST = (Effect.SHIPWRECK, Effect.TREE, Effect.BREAD, Effect.CANOE)


@dataclass(frozen=True)
class Lead:
    option: str
    label: str  # the option's button label
    square: int | None  # where the pawn goes (None: it does not move now)
    what: str  # what happens there, or what the option means; may be ""

    def line(self, t: Translator) -> str:
        """The option with where it leads, e.g. "Move on → 10: The goat – pay 2 tokens…" (the
        spaced en dash of the seeds and the catalogs)."""
        text = self.label
        if self.square is not None:
            text += f" → {self.square}: {t.gettext(f'square.{self.square}.title')}"
        return f"{text} – {self.what}" if self.what else text


def landing(t: Translator, square: int, state: State) -> str:
    """What landing on `square` does under the ruleset of `state` ("" for a story square)."""
    sq = SQUARES[square]
    ruleset: Ruleset = state.ruleset
    effect = sq.effect
    if effect is Effect.STORY:
        return ""
    if effect is Effect.FEVER:
        return t.gettext(
            "lead.fever.extra" if ruleset.fever is Fever.EXTRA_ROLL else "lead.fever.skip"
        )
    if effect in _MAY_OR_MUST:
        key = f"lead.{effect.value}" + ("" if ruleset.optional_choices else ".must")
        return t.gettext(key)
    if effect is Effect.FOOTPRINT:
        assert sq.target is not None
        return t.format("lead.footprint", amount=t.tokens(SQUARES[sq.target].amount))
    if effect is Effect.SHIP:
        if not any(p.alive and p.position == sq.target for p in state.players):
            return ""  # nobody on 41: nothing to swap
        return t.gettext("lead.ship")
    if effect in (Effect.CHORUS, Effect.GALLOWS, Effect.HOME):
        return t.gettext(f"lead.{effect.value}")
    return t.format(f"lead.{effect.value}", amount=t.tokens(sq.amount))


def leads(t: Translator, state: State) -> list[Lead]:
    """Each option of the decision pending in `state`, in the order `t.options` gives them."""
    seat = state.to_move
    assert seat is not None
    here = state.players[seat].position
    face = state.pending_roll
    decision = DECISION_OF[state.phase]  # option names come from the engine's table
    out = []
    for option, label in t.options(state):
        square: int | None = None
        what = ""
        onward = option == decision.forward
        if decision.roll_in_view and (onward or state.phase is Phase.SHIPWRECK):  # move, restart
            assert face is not None
            square = target_of(here if onward else 0, face)[0]
            what = landing(t, square, state)
        elif not onward and state.phase is not Phase.BREAD:  # stay (tree, canoe)
            what = t.format("lead.stay", square=here)
        elif onward and state.phase is Phase.BREAD:  # again
            footprint = next(s.number for s in SQUARES if s.effect is Effect.FOOTPRINT)
            what = t.format(
                "lead.again",
                face=footprint - here,
                square=footprint,
                title=t.gettext(f"square.{footprint}.title"),
            )
        elif state.phase is Phase.BREAD:  # stop
            what = t.format("lead.stop", square=here)
        else:  # jump
            target = SQUARES[here].target
            assert target is not None
            square = target  # a paddle triggers nothing on arrival (rule 5): just where
        out.append(Lead(option, label, square, what))
    return out
