"""Gobang boards that more than one test module plays out: full boards without five in a
row, in any direction, for either colour."""

from engine.game.board_text import parse

DRAWN_5 = """
    X X O O X
    O O X X O
    X X O O X
    O O X X O
    X X O O X
"""

DRAWN_6 = """
    X X O O X X
    O O X X O O
    X X O O X X
    O O X X O O
    X X O O X X
    O O X X O O
"""


def fill_order(picture: str) -> tuple[int, list[int]]:
    """The board size and the stones of ``picture`` in an order that alternates black and
    white, black first, so playing them in turn fills the board as drawn."""
    n, black, white = parse(picture)
    return n, [p for pair in zip(black, white + [None]) for p in pair if p is not None]
