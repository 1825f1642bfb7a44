"""Robinson: a faithful digital edition of the Robinson Crusoe dice race game."""

__version__ = "0.1.0"
