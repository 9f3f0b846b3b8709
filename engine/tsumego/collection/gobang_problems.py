"""The Gobang problems of ``problems/gobang`` (freestyle, 15x15): the drawings and the
definitions, each with the number of fours the checking reading may use."""

from .spec import gobang


GOBANG_FIVE = """
. . . . . . . .
. . . . . . . .
. O . . . O . .
. . O X X X X *
. . . . . . . .
. . . . O . . .
"""

GOBANG_BLOCK_FOUR = """
. . . . . . . .
. . X . . . . .
. . . . . . X .
. X O O O O * .
. . . . . . . .
. . . . . . . .
"""

GOBANG_DOUBLE_FOUR = """
. . . . O . . .
. . . . X . . .
. . . . X . . .
O X X X * . . .
. . . . X . . .
. . . . . . O .
"""

GOBANG_FOURS = """
. . . . . . . . .
. . . . . X . . .
. . . . . X . . .
. . . . . . . . .
. O X X X * ? . .
. . . . . . . . .
. . . . . . . O .
"""

GOBANG_DOUBLE_THREAT = """
. . . . O . . .
. . . . X . . .
. . . . X . . .
O X X X * * . .
. . . . X . . .
. . . O * . . .
"""

GOBANG = [
    gobang("gobang-five", "B", 1, "win", GOBANG_FIVE, fours=1,
           why="five in a row", note="Black has a four."),
    gobang("gobang-block-four", "B", 1, "defend", GOBANG_BLOCK_FOUR, fours=2,
           why="the only point that stops white's five"),
    gobang("gobang-double-four", "B", 2, "win double-four", GOBANG_DOUBLE_FOUR, fours=1,
           why="two fours at once: white can block only one"),
    gobang("gobang-fours", "B", 3, "win fours", GOBANG_FOURS, fours=2,
           why="a four that forces the block, then a four with two ends open",
           wrong="a four in the wrong place"),
    gobang("gobang-double-threat", "W", 2, "defend double-four", GOBANG_DOUBLE_THREAT,
           fours=2, why="takes black's double-four point, or spoils one of its lines"),
]
