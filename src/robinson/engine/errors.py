"""The engine's errors: one small hierarchy, each naming what was expected.

- `MalformedInput`: the input is not of the right shape at all (a roll of "x", an unknown key).
- `IllegalAction`: a well-formed action that the rules do not allow where the game stands.
- `BadRuleset`: a ruleset, option or player count outside what the rules allow.
- `BadPosition`: a position text that cannot be read.

All derive from `RobinsonError`, which derives from `ValueError` so that callers who only know
"bad value" still catch them.

Like events, an error can carry a message key and its fields besides its English text (`key`,
`fields`; a field may itself be an error, the cause an outer error wraps), so that an interface
can say it in the player's language (`robinson.i18n.errors`). The engine never holds the words.
"""

from __future__ import annotations

from collections.abc import Mapping

Fields = Mapping[str, object]  # an error's message fields: text, numbers, or the error it wraps


class RobinsonError(ValueError):
    """Base of every error the engine raises on purpose."""

    def __init__(
        self, message: str = "", *, key: str | None = None, fields: Fields | None = None
    ) -> None:
        super().__init__(message)
        self.key = key  # e.g. "record.action": the catalog's `error.record.action`
        self.fields = dict(fields or {})


class MalformedInput(RobinsonError):
    """Input that is not of the expected form."""


class IllegalAction(RobinsonError):
    """An action the rules do not allow in the current state."""

    def __init__(
        self,
        message: str,
        *,
        expected: tuple[str, ...] = (),
        key: str | None = None,
        fields: Fields | None = None,
    ) -> None:
        super().__init__(message, key=key, fields=fields)
        self.expected = expected


class BadRuleset(RobinsonError):
    """An unknown edition, an option out of range, or a wrong number of players."""


class BadPosition(RobinsonError):
    """A position text (see `robinson.engine.notation`) that cannot be parsed."""
