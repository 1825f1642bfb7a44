"""`Translator`: everything the interfaces say, in one language.

Templates in the catalogs use `str.format` fields (`{name}`, `{amount}`); only the template is
parsed, so player names containing braces are safe. Counts always go through `ngettext` with the
catalog's plural rule (Latvian and Czech have three forms).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from robinson.engine import (
    DECISION_TABLE,
    DECISIONS,
    HOME,
    OPTIONS,
    Event,
    Phase,
    RobinsonError,
    Ruleset,
    State,
    target_of,
)
from robinson.i18n import errors, narration, numbers
from robinson.i18n.catalogs import check_language, load_catalog, translations
from robinson.i18n.squares import effect_key

# Message keys derived from the engine's decision table: `prompt.<phase>`, `option.<option>`.
_DECISION_PROMPT = {d.phase: f"prompt.{d.phase.value}" for d in DECISION_TABLE}
_OPTIONS = OPTIONS

# Catalan elides "de" before a vowel or a mute h: "el Divendres d'Anna", "de Bernat".
_CA_DE_FIELD = re.compile(r"\bde \{(\w+)\}")
_CA_ELIDES = re.compile(r"^(?:[aeiouàèéíïòóúü]|h[aeiouàèéíïòóúü])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SquareText:
    number: int
    title: str
    story: str
    effect: str | None  # the rule in force under the ruleset; None for a story square


class Translator:
    """Texts in one of LANGUAGES. Unknown codes raise `RobinsonError` naming the four."""

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        self._translations = translations(lang)
        # Message texts as looked up (the compiled catalogs never change in a process): one
        # dict read, where gettext's takes three calls and a fallback; a server narrates and
        # prompts with some ten messages a move.
        self._texts: dict[str, str] = {}
        self._second_keys: dict[str, str | None] = {}  # `second_key`'s answers

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    # -- raw catalog access --------------------------------------------------------------------

    def gettext(self, key: str) -> str:
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = str(self._translations.gettext(key))
        return text

    def has(self, key: str) -> bool:
        """Whether the catalog has the message `key` (for optional variants, such as the
        second-person lines of `narration.second_person`)."""
        return key in _ids(self.lang)

    def second_key(self, key: str) -> str | None:
        """The id of the message `key` told in the second person (`KEY.you`), if the catalog has
        one (`narration.second_person` asks for each line it words)."""
        if key not in self._second_keys:
            you = f"{key}.you"
            self._second_keys[key] = you if self.has(you) else None
        return self._second_keys[key]

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self._translations.ngettext(singular, plural, n))

    def format(self, key: str, **fields: Any) -> str:
        """The message `key` with its fields filled in."""
        return self._fill(self.gettext(key), fields)

    def nformat(self, key: str, n: int, **fields: Any) -> str:
        """The plural message `key` in the form for `n`, with `{n}` and the fields filled in."""
        return self._fill(self.ngettext(key, key + ".plural", n), {"n": n, **fields})

    def _fill(self, template: str, fields: dict[str, Any]) -> str:
        if self.lang == "ca":
            template = _CA_DE_FIELD.sub(lambda m: _elide(m, fields), template)
        return template.format(**fields)

    # -- small phrases -------------------------------------------------------------------------

    def tokens(self, n: int) -> str:
        """`n` tokens, as the object of a verb ("3 tokens", "3 žetonus", "5 žetonů")."""
        return self.nformat("n.tokens", n)

    def join_names(self, names: Sequence[str]) -> str:
        """Names joined the language's way: "A", "A and B", "A, B and C"."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.gettext('word.and')} {names[-1]}"

    def percent(self, fraction: float, digits: int = 1) -> str:
        """A percentage: "36,3 %" (lv, cs, ca), "36.3%" (en) (`robinson.i18n.numbers`)."""
        return numbers.percent(fraction, self.lang, digits)

    def number(self, value: float, digits: int = 2, signed: bool = False) -> str:
        """A number with the language's decimal sign and a real minus sign: "−0,06"."""
        return numbers.decimal(value, self.lang, digits, signed)

    def quoted(self, text: str) -> str:
        """`text` in the language's own quotation marks: “…” (lv, as its seed; en), „…“ (cs),
        «…» (ca). A quotation inside `text` in those marks (square 41's “the Governor”) takes
        the language's inner marks (‘…’, ‚…‘, “…”), not the outer ones twice."""
        opening, closing = self.gettext("typo.quoted").split("{text}")
        inner_opening, inner_closing = self.gettext("typo.quoted.inner").split("{text}")
        pattern = re.compile(f"{re.escape(opening)}([^{re.escape(closing)}]*){re.escape(closing)}")
        inside = pattern.sub(lambda m: f"{inner_opening}{m.group(1)}{inner_closing}", text)
        return self.format("typo.quoted", text=inside)

    def error(self, error: BaseException) -> str:
        """An engine or record error in this language (`robinson.i18n.errors`)."""
        return errors.error_text(self, error)

    def read_error(self, error: OSError) -> str:
        """Why a file could not be read, in this language: "cannot read: no such file"."""
        if isinstance(error, FileNotFoundError):
            reason = self.gettext("cli.error.read.missing")
        elif isinstance(error, IsADirectoryError):
            reason = self.gettext("cli.error.read.folder")
        elif isinstance(error, PermissionError):
            reason = self.gettext("cli.error.read.permission")
        else:
            reason = self.format("cli.error.read.other", error=error.strerror or error)
        return self.format("cli.error.read", reason=reason)

    def alternatives(self, words: Sequence[str]) -> str:
        """Alternatives joined the language's way: "1 vai 2", "1, nebo 2", "1 o 2", "1 or 2"."""
        if len(words) <= 1:
            return "".join(words)
        return self.format("word.or.last", rest=", ".join(words[:-1]), last=words[-1])

    def bank_name(self) -> str:
        return self.gettext("ui.bank")

    def language_name(self, lang: str) -> str:
        return self.gettext(f"lang.{check_language(lang)}")

    def edition_name(self, edition: str) -> str:
        return self.gettext(f"edition.{Ruleset(edition).edition}")

    # -- the API other parts use ---------------------------------------------------------------

    def square(self, number: int, ruleset: Ruleset) -> SquareText:
        """Title, story and the effect line in force under `ruleset` for square 1..45."""
        if type(number) is not int or not 1 <= number <= HOME:
            raise RobinsonError(f"a square is a whole number from 1 to {HOME}, got {number!r}")
        key = effect_key(number, ruleset, self.lang)
        return SquareText(
            number=number,
            title=self.gettext(f"square.{number}.title"),
            story=self.gettext(f"square.{number}.story"),
            effect=None if key is None else self.gettext(key),
        )

    def narrate(self, event: Event, names: Sequence[str]) -> str:
        """One engine event as one sentence ("" for an event not worth a line)."""
        return narration.narrate(self, event, names)

    def narrate_all(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """The lines of a run of events (one action's), each thing said once: use this rather
        than `narrate` per event (a bounce and its move make one sentence)."""
        return narration.narrate_all(self, events, names)

    def narrate_each(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """Like `narrate_all`, one entry per event ("" where another event's line says it)."""
        return narration.narrate_each(self, events, names)

    def narrate_each_you(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """`narrate_each`'s lines told to the player each is about ("You roll 6."; see
        `narration.second_person`), "" where the language has no such line."""
        return narration.narrate_each(self, events, names, second=True)

    def narrate_both(
        self, events: Sequence[Event], names: Sequence[str]
    ) -> tuple[list[str], list[str]]:
        """`narrate_each` and `narrate_each_you` in one pass over the events."""
        return narration.narrate_both(self, events, names)

    def prompt(self, state: State, names: Sequence[str], second: bool = False) -> str:
        """What the player to move is asked; decisions name the roll and where it leads.
        `second`: asked of that player in the second person ("Roll the die."), "" where the
        language has no such prompt."""
        if state.over or state.to_move is None:
            return "" if second else self.gettext("prompt.over")
        name = narration.name_of(names, state.to_move)

        def key(k: str) -> str:
            return f"{k}.you" if second else k

        if second and not self.has(key(_DECISION_PROMPT.get(state.phase, "prompt.roll"))):
            return ""
        if state.phase is Phase.ROLL:
            return self.format(key("prompt.roll"), name=name)
        here = state.players[state.to_move].position
        face = state.pending_roll
        fields: dict[str, Any] = {"name": name, "face": face}
        if face is not None:
            fields["restart"] = target_of(0, face)[0]
            fields["move"] = target_of(here, face)[0]
        return self.format(key(_DECISION_PROMPT[state.phase]), **fields)

    def option(self, option: str) -> str:
        """The button label of a decision option."""
        if option not in _OPTIONS:
            raise RobinsonError(f"unknown option {option!r}: expected one of {', '.join(_OPTIONS)}")
        return self.gettext(f"option.{option}")

    def options(self, state: State) -> tuple[tuple[str, str], ...]:
        """The decision pending in `state` as (option, label) pairs, in DECISIONS order."""
        return tuple((o, self.option(o)) for o in DECISIONS.get(state.phase, ()))

    def rules_summary(self, ruleset: Ruleset) -> str:
        """A short description of the edition and the money options."""
        fever = "extra" if ruleset.fever.value == "extra_roll" else "skip"
        choices = "optional" if ruleset.optional_choices else "compulsory"
        return " ".join(
            [
                # one sentence per edition: each language puts the name in its own case
                self.gettext(f"summary.edition.{ruleset.edition}"),
                self.gettext(f"summary.fever.{fever}"),
                self.gettext(f"summary.choices.{choices}"),
                self.format(
                    "summary.money",
                    start=self.tokens(ruleset.start_tokens),
                    stake=self.tokens(ruleset.stake),
                ),
                self.gettext(f"summary.share.{ruleset.share}"),
            ]
        )

    def ui_strings(self) -> dict[str, str]:
        """Every singular message of the catalog by key (UI labels, options, prompts, square
        titles and stories, templates with `{field}`s), for sending to a browser. Counts are
        formatted on the server (`tokens`, `nformat`), where the plural rules live."""
        strings = {}
        for message in load_catalog(self.lang):
            if message.id and isinstance(message.id, str):
                strings[message.id] = self.gettext(message.id)
        return strings


@functools.cache
def _ids(lang: str) -> frozenset[str]:
    """Every message id of the catalog of `lang` (singular ids of plural messages too)."""
    return frozenset(m.id if isinstance(m.id, str) else m.id[0] for m in load_catalog(lang) if m.id)


def _elide(match: re.Match[str], fields: dict[str, Any]) -> str:
    field = match.group(1)
    value = str(fields.get(field, ""))
    return f"d’{{{field}}}" if _CA_ELIDES.match(value) else match.group(0)
