"""Every coordinate system of the engine, and the conversions between them.

The board is stored as a padded 1-D array: an ``n x n`` board sits inside an
``(n+2) x (n+2)`` frame whose border points are OFFBOARD, so a neighbour step never
needs a bounds test.  ``W = n + 2`` is the row stride.

=================  =========================  ==================================
system             example on 9x9             notes
=================  =========================  ==================================
(row, col)         (0, 0) .. (8, 8)           row 0 is the TOP row, col 0 the left
padded index p     p = (row+1)*W + (col+1)    what every kernel uses; W = n+2
GTP vertex         A9 (top left), J1          letters A-Z skipping I, row number
                                              counted from 1 at the BOTTOM; <= 25x25
SGF point          'aa' (top left)            column letter first, then row letter,
                                              both counted from 'a' at the top left;
                                              sgfmill turns them into its pairs
sgfmill (r, c)     (8, 0) (top left)          sgfmill counts rows from the BOTTOM
special moves      PASS = -1, RESIGN = -2      never valid board indices
=================  =========================  ==================================
"""

from ..core.layout import PASS, RESIGN  # noqa: F401 (re-exported)

MAX_SIZE = 25
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def padded_size(n: int) -> int:
    return (n + 2) * (n + 2)


def point(row: int, col: int, n: int) -> int:
    return (row + 1) * (n + 2) + col + 1


def row_col(p: int, n: int) -> tuple[int, int]:
    r, c = divmod(p, n + 2)
    return r - 1, c - 1


def all_points(n: int) -> list[int]:
    return [point(r, c, n) for r in range(n) for c in range(n)]


def to_gtp(p: int, n: int) -> str:
    if p == PASS:
        return "pass"
    if p == RESIGN:
        return "resign"
    r, c = row_col(p, n)
    return f"{GTP_LETTERS[c]}{n - r}"


def from_gtp(text: str, n: int) -> int:
    """Parse a GTP vertex (any case) or 'pass'; ValueError when it is not on this board."""
    t = text.strip().upper()
    if t == "PASS":
        return PASS
    if len(t) < 2 or t[0] not in GTP_LETTERS or not t[1:].isdigit():
        raise ValueError(f"not a vertex: {text!r}")
    c = GTP_LETTERS.index(t[0])
    number = int(t[1:])
    if c >= n or not 1 <= number <= n:
        raise ValueError(f"vertex off the {n}x{n} board: {text!r}")
    return point(n - number, c, n)


def from_sgfmill(move, n: int) -> int:
    """sgfmill's (row-from-bottom, col) pair, or None for a pass."""
    if move is None:
        return PASS
    r, c = move
    return point(n - 1 - r, c, n)


def to_sgfmill(p: int, n: int):
    if p == PASS:
        return None
    r, c = row_col(p, n)
    return (n - 1 - r, c)
