"""The terminal game: the board drawn with Rich (plain text when piped), square cards,
standings, what each option of a decision leads to, and the game loop (`robinson.tui.game`)."""

from robinson.tui.board import board_lines, square_card, standings_lines, track_lines

__all__ = ["board_lines", "square_card", "standings_lines", "track_lines"]
