"""The Go problems' drawings, as seen in the top-left corner (``spec`` has the symbols),
and two helpers that draw a family of shapes.  Several problems share one drawing, placed
in another corner or with the other side to play."""


STRAIGHT_THREE = """
. * . O X
O O O O X
X X X X X
"""

BENT_THREE = """
* . O X
. O O X
O O X X
X X X .
"""

BULKY_FIVE = """
. * . O X
? . O O X
O O O X X
X X X X .
"""

BULKY_FIVE_WALL = """
O * ? O X
O * * O X
O ? O O X
O O O X X
X X X X .
"""

RABBITY_SIX = """
O O . O O X
O . * . O X
O O . ? O X
O O O O O X
X X X X X X
"""

RABBITY_SIX_LIVE = """
O O ? O O X
O ? * * O X
O O * . O X
O O O O O X
X X X X X X
"""

CROSSED_FIVE = """
O O . O O X
O ? * . O X
O O . O O X
O O O O O X
X X X X X X
"""

PYRAMID_FOUR = """
O ? * . O X
O O . O O X
O O O O O X
X X X X X X
"""

SECOND_LINE_FIVE = """
. * . . * . X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_FIVE_BLOCKED = """
. * ? . * X .
O O O O O X .
X X X X X X .
"""

SECOND_LINE_HANE_KILL = """
. * ? O X . X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_HANE_LIVE = """
. * ? O X ? X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_SEVEN = """
X . * . . ? . . * . X
X X O O O O O O O X X
. X X X X X X X X X .
"""

CORNER_SIX_KILL = """
. ? . O X .
? * . O X .
O O O O X .
X X X X X .
"""


CORNER_SIX_LIVE = """
. * . O X .
. * . O X .
O O O O X .
X X X X X .
"""

L_SHAPE = """
* . ? . X
. O O O X
. O X X X
. O X . .
X X X . .
"""

J_SHAPE = """
? . . . X
* O O O X
. O X X X
O O X . .
X X X . .
"""

CORNER_KO = """
. * . . O X
? . O O O X
O O O X X X
X X X X . .
"""

CORNER_FIVE = """
. * . O X .
? . O O X .
O O O X X .
X X X X . .
"""

def invaders(*white):
    """Black's eight-point corner with white stones inside at ``white`` ((row, col))."""
    rows = [list(". . . . X O".split()), list(". . . . X O".split()),
            list("X X X X X O".split()), list("O O O O O O".split())]
    for r, c in white:
        rows[r][c] = "O"
    return rows


def draw(rows, right=(), wrong=()):
    rows = [list(r) for r in rows]
    for r, c in right:
        rows[r][c] = "*"
    for r, c in wrong:
        rows[r][c] = "?"
    return "\n" + "\n".join(" ".join(r) for r in rows) + "\n"


RACE = """
. O O O * X . O O
O O X X X X O O .
X X X O O O O O O
. O O O O O O O .
O O O O O . . . .
"""

RACE_KILL = """
. O O O ? X * O O
O O X X X X O O .
X X X O O O O O O
* O O O O O O O .
O O O O O . . . .
"""

SACRIFICE = """
X * . O X
O O O O X
X X X X X
"""

THROW_IN_SMALL = """
. * X O X
O O O O X
X X X X X
"""

THROW_IN_WIDE = """
. * X O O X
O O O O O X
X X X X X X
"""

HOLE_A = """
. . . . . O X
* O O O O O X
X X X X X X X
"""

HOLE_B = """
. . . . O X
O * O O O X
X X X X X X
"""

HOLE_C = """
. . . . O X
O O * O O X
X X X X X X
"""

HOLE_D = """
. . . . . . O X
O O O * O O O X
X X X X X X X X
"""

INSIDE_STONE = """
. . O O X
. * . O X
O O O O X
X X X X X
"""

CORNER_STONE = """
O . * . O X
O O O O O X
X X X X X X
"""

FIRST_LINE_STONES = """
. . . X X * X X
O O O O O O O X
X X X X X X X X
"""

FIRST_LINE_TWO = """
. * X X . * X
O O O O O O X
X X X X X X X
"""

CUT_IN_WALL = """
X . . . O X
O O O * O X
X X X X X X
"""

NAKADE_CUT = """
. O . * X
O O O O X
X X X X X
"""

BROKEN_WALL = """
. O X . O X
O * O O O X
X X X X X X
"""

SNAPBACK = """
. O . X O O X .
O O O O * . X .
X X X O O X X .
. . X X X X . .
"""

# Black's group has one eye, at the 1-4 point; capturing the two white stones that cut
# into it makes the second.  They run out to White's wall unless caught at once.
NET = """
O O X . X X X X O
O X X X X O X X O
O O O O X O . . O
. . . O X ? * . O
. . . O O . * . O
. . . . O . . . O
. . . . O O O O O
"""

NET_TIGHT = """
O O X . X X X X O
O X X X X O X X O
O O O O X O . . O
. . . O X ? * . O
. . . O O . ? O O
. . . . O . . . O
. . . . O O O O O
"""

LADDER = """
O O X . X X X X X O
O X X X X O X X X O
O O O O X O . . X O
. . . O . * ? . O O
. . . O O . . . O .
. . . . O . . . O .
. . . . O O O O O .
"""

WEAK_CARPENTERS_SQUARE = """
. . . . O X
. * . O O X
. . . O X X
O O O . X .
X X X X X .
"""
