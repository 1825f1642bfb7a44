"""How the store says no: its own exceptions, so nobody above it handles a driver's."""

from __future__ import annotations


class Conflict(Exception):
    """The step was already written: another writer got there first."""


class StorageDown(Exception):
    """The database did not answer or refused a write (it is away, full, or restarting). Nothing
    of that call was written; the message is the driver's reason, for the log."""


class StoreUnavailable(Exception):
    """The database cannot be used: a bad URL, a missing driver, or no answer. Says which."""
