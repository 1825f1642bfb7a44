"""Plain-text rendering for the terminal: the compact board, square cards and standings."""

from robinson.tui.board import board_lines, square_card, standings_lines

__all__ = ["board_lines", "square_card", "standings_lines"]
