"""Errors in the player's language: an engine error's key and fields (`RobinsonError.key`,
`.fields`) through the catalog's `error.<key>` message, a wrapped cause said inside its wrapper
("action 3: a roll is a whole number from 1 to 6, not 7"). An error without a key, or one the
catalog does not know, keeps its own (English) text, so nothing is ever lost."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from robinson.engine import Choose, Roll


class Translator(Protocol):
    """What this module asks of `robinson.i18n.Translator`."""

    def gettext(self, key: str) -> str: ...
    def format(self, key: str, **fields: Any) -> str: ...
    def option(self, option: str) -> str: ...
    def quoted(self, text: str) -> str: ...
    def alternatives(self, words: Sequence[str]) -> str: ...


def error_text(t: Translator, error: BaseException) -> str:
    """`error` as one clause in `t`'s language (lower case, no full stop: it follows a
    "robinson replay: FILE: " prefix)."""
    key = getattr(error, "key", None)
    fields = getattr(error, "fields", None)
    if not isinstance(key, str) or not isinstance(fields, dict):
        return str(error)
    message = f"error.{key}"
    if t.gettext(message) == message:  # not in the catalog
        return str(error)
    return t.format(message, **{name: _field(t, name, v) for name, v in fields.items()})


def _field(t: Translator, name: str, value: object) -> object:
    if isinstance(value, BaseException):
        return error_text(t, value)
    if isinstance(value, (Roll, Choose)):
        return action_text(t, value)
    if name == "legal" and isinstance(value, Sequence):
        return legal_text(t, value)
    if isinstance(value, str):  # what the file said goes in the language's quotation marks
        return t.quoted(value) if name == "got" else value
    if isinstance(value, (bool, int, float)) or value is None:
        return json.dumps(value)
    try:
        return json.dumps(value, ensure_ascii=False)  # a piece of the record, as JSON
    except (TypeError, ValueError):
        return repr(value)


def action_text(t: Translator, action: Roll | Choose) -> str:
    """An action in words: "a roll of 4", "the choice “Move on”"."""
    if isinstance(action, Roll):
        return t.format("error.word.roll", face=action.face)
    return t.format("error.word.choose", option=t.option(action.option))


def legal_text(t: Translator, actions: Sequence[object]) -> str:
    """What was allowed instead: any roll, or the choices joined with the language's "or"."""
    if actions and all(isinstance(a, Roll) for a in actions):
        return t.gettext("error.word.any_roll")
    return t.alternatives(
        [action_text(t, a) if isinstance(a, (Roll, Choose)) else str(a) for a in actions]
    )
