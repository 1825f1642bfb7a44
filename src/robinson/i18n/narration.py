"""One sentence per engine event, in the translator's language.

Every event kind of `robinson.engine.events` has a narrator here (a test checks them all against
real games in every language). Payments to and from the bank have their own messages per reason,
so that each language can put "the bank" in the right grammatical case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from robinson.engine import BREAD_SQUARE, HOME, Reason, RobinsonError
from robinson.engine import events as ev


class Translator(Protocol):
    """What narration asks of `robinson.i18n.translator.Translator` (which imports this module,
    so this one names only the methods it uses: no import loop)."""

    def gettext(self, key: str) -> str: ...
    def format(self, key: str, **fields: Any) -> str: ...
    def nformat(self, key: str, n: int, **fields: Any) -> str: ...
    def tokens(self, n: int) -> str: ...
    def join_names(self, names: Sequence[str]) -> str: ...
    def has(self, key: str) -> bool: ...
    def second_key(self, key: str) -> str | None: ...


Narrator = Callable[["Translator", Any, Sequence[str]], str]

# Transfers between two players: one message per reason.
_BETWEEN_PLAYERS = {
    Reason.NEIGHBOUR: "event.transfer.neighbour",
    Reason.FRIDAY: "event.transfer.friday",
    Reason.RESCUE: "event.transfer.rescue",
    Reason.FRIDAY_SHARE: "event.transfer.friday_share",
    Reason.NEAREST_SHARE: "event.transfer.nearest_share",
}


def name_of(names: Sequence[str], seat: int) -> str:
    if not 0 <= seat < len(names):
        raise RobinsonError(f"no name for seat {seat}: names must list every seat, got {names!r}")
    return names[seat]


class _SecondPerson:
    """A translator that words a line to the player it is about ("You roll 6."): each event
    message `KEY` has its second-person variant `KEY.you` where the language has one (notes
    inside a sentence, square titles and counts of tokens stay as they are). `used` says
    whether a variant was found: without one there is no second-person line."""

    def __init__(self, t: Translator) -> None:
        self.t = t
        self.used = False

    def _key(self, key: str) -> str:
        second = self.t.second_key(key)
        if second is not None:
            self.used = True
            return second
        return key

    def gettext(self, key: str) -> str:
        return self.t.gettext(key)

    def has(self, key: str) -> bool:
        return self.t.has(key)

    def second_key(self, key: str) -> str | None:
        return self.t.second_key(key)

    def format(self, key: str, **fields: Any) -> str:
        return self.t.format(self._key(key), **fields)

    def nformat(self, key: str, n: int, **fields: Any) -> str:
        return self.t.nformat(self._key(key), n, **fields)

    def tokens(self, n: int) -> str:
        return self.t.tokens(n)

    def join_names(self, names: Sequence[str]) -> str:
        return self.t.join_names(names)


def second_person(t: Translator, event: ev.Event, names: Sequence[str]) -> str:
    """`event` told to the player it is about (its seat, a payment's payer or else payee, a
    Friday's master: the seat the web log colours the line by), or "" when the language has no
    second-person line for it (then its third-person line, with the name, stands)."""
    you = _SecondPerson(t)
    line = narrate(you, event, names)
    return line if you.used else ""


def narrate_each(
    t: Translator, events: Sequence[ev.Event], names: Sequence[str], second: bool = False
) -> list[str]:
    """One line per event of a run (one action's events), each thing said once: a bounce and
    the move it causes are one sentence (the bounce says where the pawn ends, its move gets ""),
    choosing to bake again on 20 is told by the extra roll that follows (the choice gets ""),
    the move home is told by the win ("reaches home on square 45 and wins!"), and a swap on 36
    is told once, where its first move stands (the engine reports the moves
    first and the `Swapped` that explains them last; both the moves and `Swapped` then get "").

    `second`: each line told to the player it is about (`second_person`), "" where the
    language has none (a web page shows it to the viewer whose seat that is)."""
    return _narrate_runs(t, events, names, (second,))[0]


def narrate_both(
    t: Translator, events: Sequence[ev.Event], names: Sequence[str]
) -> tuple[list[str], list[str]]:
    """`narrate_each` in the third person and in the second, in one pass over the events (the
    web tells every move in both: its log shows a viewer's own lines in the second)."""
    third, you = _narrate_runs(t, events, names, (False, True))
    return third, you


def _narrate_runs(
    t: Translator, events: Sequence[ev.Event], names: Sequence[str], persons: tuple[bool, ...]
) -> list[list[str]]:
    """`narrate_each`'s lines for each of `persons` (True: the second person)."""
    says = [second_person if second else narrate for second in persons]
    out: list[list[str]] = [[] for _ in persons]

    def silent() -> None:
        for lines in out:
            lines.append("")

    def said(event: ev.Event) -> None:
        for lines, say in zip(out, says, strict=True):
            lines.append(say(t, event, names))

    for i, event in enumerate(events):
        before = events[i - 1] if i else None
        after = events[i + 1] if i + 1 < len(events) else None
        if isinstance(event, ev.Moved) and _bounced_into(before, event):
            silent()  # already said by the bounce
        elif isinstance(event, ev.Moved) and isinstance(after, ev.Won) and after.seat == event.seat:
            silent()  # "Anna reaches home on square 45 and wins!" says where she went
        elif isinstance(event, ev.Moved) and event.cause == "swap":
            swap = _swap_explaining(events, i)
            if swap is not None and not _is_swap_move(before):
                said(swap)
            else:
                silent()
        elif isinstance(event, ev.Swapped) and _is_swap_move(before):
            silent()  # told where its first move stands
        elif _is_nearest_share(event) and (_is_nearest_share(before) or _is_nearest_share(after)):
            # Two players equally near share the half: one sentence names both ("gives 7
            # tokens each to the nearest players, Bruno and Dāvis"), not "the nearest" twice.
            for lines, second in zip(out, persons, strict=True):
                first = not _is_nearest_share(before)
                lines.append(_nearest_tied(t, events, i, names, second) if first else "")
        elif (
            isinstance(event, ev.Chose)
            and event.square == BREAD_SQUARE
            and isinstance(after, ev.ExtraRoll)
            and after.square == BREAD_SQUARE
            and after.seat == event.seat
        ):
            silent()  # "Anna bakes bread and rolls again." says it
        else:
            said(event)
    return out


def _is_nearest_share(event: ev.Event | None) -> bool:
    return (
        isinstance(event, ev.Transfer) and event.reason is Reason.NEAREST_SHARE and event.amount > 0
    )


def _nearest_tied(
    t: Translator, events: Sequence[ev.Event], index: int, names: Sequence[str], second: bool
) -> str:
    """The half shared by the players equally near the winner, told once for all of them."""
    run = []
    for event in events[index:]:
        if not _is_nearest_share(event):
            break
        assert isinstance(event, ev.Transfer) and event.payee is not None
        run.append(event)
    first = run[0]
    assert first.payer is not None
    you = _SecondPerson(t) if second else t
    line = you.format(
        "event.transfer.nearest_share.tied",
        payer=name_of(names, first.payer),
        amount=t.tokens(first.amount),
        payees=t.join_names([name_of(names, e.payee) for e in run if e.payee is not None]),
    )
    return "" if isinstance(you, _SecondPerson) and not you.used else line


def _is_swap_move(event: ev.Event | None) -> bool:
    return isinstance(event, ev.Moved) and event.cause == "swap"


def _swap_explaining(events: Sequence[ev.Event], index: int) -> ev.Swapped | None:
    """The `Swapped` that closes the run of swap moves `events[index]` belongs to."""
    for event in events[index:]:
        if isinstance(event, ev.Swapped):
            return event
        if not _is_swap_move(event):
            return None
    return None


def narrate_all(t: Translator, events: Sequence[ev.Event], names: Sequence[str]) -> list[str]:
    """The lines of `narrate_each` without the empty ones."""
    return [line for line in narrate_each(t, events, names) if line]


def _bounced_into(before: ev.Event | None, moved: ev.Moved) -> bool:
    return (
        isinstance(before, ev.Bounced)
        and before.seat == moved.seat
        and moved.end == HOME - before.overshoot
    )


def narrate(t: Translator, event: ev.Event, names: Sequence[str]) -> str:
    try:
        narrator = _NARRATORS[type(event)]
    except KeyError:
        raise RobinsonError(f"no narration for event kind {event.kind!r}") from None
    return narrator(t, event, names)


def _turn_began(t: Translator, e: ev.TurnBegan, names: Sequence[str]) -> str:
    return t.format("event.turn_began", name=name_of(names, e.seat))


def _skipped(t: Translator, e: ev.Skipped, names: Sequence[str]) -> str:
    text = t.format("event.skipped", name=name_of(names, e.seat))
    if e.left:
        text = _before_full_stop(text, t.nformat("event.skips_left", e.left))
    return text


def _rolled(t: Translator, e: ev.Rolled, names: Sequence[str]) -> str:
    return t.format("event.rolled", name=name_of(names, e.seat), face=e.face)


def _chose(t: Translator, e: ev.Chose, names: Sequence[str]) -> str:
    return t.format(f"event.chose.{e.square}.{e.option}", name=name_of(names, e.seat))


def _bounced(t: Translator, e: ev.Bounced, names: Sequence[str]) -> str:
    # The pawn counts up to 45 and back by the overshoot, so this event alone says where it
    # ends; `narrate_all` leaves out the Moved that repeats it.
    end = HOME - e.overshoot
    return t.nformat(
        "event.bounced",
        e.overshoot,
        name=name_of(names, e.seat),
        end=end,
        title=t.gettext(f"square.{end}.title"),
    )


def _moved(t: Translator, e: ev.Moved, names: Sequence[str]) -> str:
    # There is no square 0 on the board: a first roll goes from the Start (the board's label).
    key = f"event.moved.{e.cause}" + (".start" if e.cause == "roll" and e.start == 0 else "")
    return t.format(
        key,
        name=name_of(names, e.seat),
        start=e.start,
        end=e.end,
        title=t.gettext(f"square.{e.end}.title"),
    )


def _transfer(t: Translator, e: ev.Transfer, names: Sequence[str]) -> str:
    if e.amount == 0 and e.owed > 0:
        return _nothing_paid(t, e, names)
    if e.amount == 0 and e.reason in (Reason.FRIDAY_SHARE, Reason.NEAREST_SHARE):
        return ""  # a third or a half of a bank too small to share: nothing changes hands
    amount = t.tokens(e.amount)
    if e.reason in _BETWEEN_PLAYERS:
        assert e.payer is not None and e.payee is not None
        text = t.format(
            _BETWEEN_PLAYERS[e.reason],
            payer=name_of(names, e.payer),
            payee=name_of(names, e.payee),
            amount=amount,
        )
    elif e.reason is Reason.BANK:
        assert e.payee is not None
        text = t.format("event.transfer.bank", payee=name_of(names, e.payee), amount=amount)
    elif e.reason is Reason.TRAVEL:
        assert e.payer is not None
        text = t.format("event.transfer.travel", payer=name_of(names, e.payer), amount=amount)
    else:  # SQUARE or DUTY: to or from the bank
        if e.payer is not None:
            key, who = f"event.transfer.{e.reason.value}.pay", {"payer": name_of(names, e.payer)}
        else:
            assert e.payee is not None
            key, who = (
                f"event.transfer.{e.reason.value}.receive",
                {"payee": name_of(names, e.payee)},
            )
        text = t.format(key, amount=amount, **who)
    if e.amount < e.owed:  # a purse or the bank ran short; the rest is forgiven (rule 6.1)
        text = _before_full_stop(text, _shortfall(t, e))
    return text


def _nothing_paid(t: Translator, e: ev.Transfer, names: Sequence[str]) -> str:
    """An empty purse or an empty bank: told as what it is, not as a payment of 0 tokens."""
    duty = ".duty" if e.reason is Reason.DUTY else ""
    if e.payer is None:  # the bank pays
        assert e.payee is not None
        text = t.format(f"event.transfer.empty_bank{duty}", payee=name_of(names, e.payee))
    elif e.payee is None:  # into the bank
        text = t.format(f"event.transfer.empty_purse{duty}", payer=name_of(names, e.payer))
    else:
        text = t.format(
            "event.transfer.empty_purse.player",
            payer=name_of(names, e.payer),
            payee=name_of(names, e.payee),
        )
    return _before_full_stop(text, _shortfall(t, e))


def _shortfall(t: Translator, e: ev.Transfer) -> str:
    # A receipt short of what was due reads differently from a payment in Catalan ("calien"
    # is what was needed to pay; what one was owed is "li'n tocaven").
    key = "event.transfer.short_receipt" if e.payer is None else "event.transfer.short"
    return t.nformat(key, e.owed)


def _before_full_stop(sentence: str, note: str) -> str:
    """`note` inside the sentence: "pays 1 token into the bank (3 tokens were due)."."""
    if sentence and sentence[-1] in ".!":
        return f"{sentence[:-1]} {note}{sentence[-1]}"
    return f"{sentence} {note}"


def _shipwrecked(t: Translator, e: ev.Shipwrecked, names: Sequence[str]) -> str:
    return t.format("event.shipwrecked", name=name_of(names, e.seat))


def _will_skip(t: Translator, e: ev.WillSkip, names: Sequence[str]) -> str:
    text = t.format(f"event.will_skip.{e.square}", name=name_of(names, e.seat))
    if e.skips > 1:
        text = _before_full_stop(text, t.nformat("event.skips_left", e.skips))
    return text


def _extra_roll(t: Translator, e: ev.ExtraRoll, names: Sequence[str]) -> str:
    return t.format(f"event.extra_roll.{e.square}", name=name_of(names, e.seat))


def _chorus(t: Translator, e: ev.Chorus, names: Sequence[str]) -> str:
    return t.gettext("event.chorus")


def _became_friday(t: Translator, e: ev.BecameFriday, names: Sequence[str]) -> str:
    fields = {"friday": name_of(names, e.friday), "master": name_of(names, e.master)}
    if e.replaced is None:
        return t.format("event.became_friday", **fields)
    return t.format("event.became_friday.replaced", replaced=name_of(names, e.replaced), **fields)


def _swapped(t: Translator, e: ev.Swapped, names: Sequence[str]) -> str:
    # Plural on the number of others, so that Latvian and Czech put the noun before the names
    # in the right number ("ar spēlētājiem Bruno un Cila").
    others = t.join_names([name_of(names, s) for s in e.others])
    return t.nformat("event.swapped", len(e.others), name=name_of(names, e.seat), others=others)


def _died(t: Translator, e: ev.Died, names: Sequence[str]) -> str:
    return t.format("event.died", name=name_of(names, e.seat), square=e.square)


def _friday_released(t: Translator, e: ev.FridayReleased, names: Sequence[str]) -> str:
    return t.format(
        "event.friday_released", friday=name_of(names, e.friday), master=name_of(names, e.master)
    )


def _won(t: Translator, e: ev.Won, names: Sequence[str]) -> str:
    return t.format("event.won", name=name_of(names, e.seat))


def _game_over(t: Translator, e: ev.GameOver, names: Sequence[str]) -> str:
    return t.gettext("event.game_over.none" if e.winner is None else "event.game_over.winner")


_NARRATORS: dict[type[ev.Event], Narrator] = {
    ev.TurnBegan: _turn_began,
    ev.Skipped: _skipped,
    ev.Rolled: _rolled,
    ev.Chose: _chose,
    ev.Bounced: _bounced,
    ev.Moved: _moved,
    ev.Transfer: _transfer,
    ev.Shipwrecked: _shipwrecked,
    ev.WillSkip: _will_skip,
    ev.ExtraRoll: _extra_roll,
    ev.Chorus: _chorus,
    ev.BecameFriday: _became_friday,
    ev.Swapped: _swapped,
    ev.Died: _died,
    ev.FridayReleased: _friday_released,
    ev.Won: _won,
    ev.GameOver: _game_over,
}
