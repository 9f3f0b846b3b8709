"""Fixed handicap placement (GTP v2, section 4.1.1): which points, in which order.

The spec's 19x19 table, extended to every size the way GNU Go (the reference
implementation) does it:

====  ==========================================
2     D4 Q16                (lower left, upper right)
3     + D16                 (upper left)
4     + Q4                  (lower right)
5     the four corners + K10 (centre)
6     the four corners + D10 Q10 (left and right sides)
7     the six of 6 + K10
8     the six of 6 + K4 K16 (lower and upper sides)
9     the eight of 8 + K10
====  ==========================================

Corner stones sit on the 4th line on boards of 12x12 and up and on the 3rd line below that.
Only odd sizes from 9x9 up have a centre and side points, so even sizes and 7x7 allow at
most 4 stones; boards under 7x7 take no fixed handicap at all.
"""

from .coords import point
from ..core.layout import WHITE

MIN_SIZE = 7


def max_fixed_handicap(size: int) -> int:
    """The largest fixed handicap of a size x size board (0 when it takes none)."""
    if size < MIN_SIZE:
        return 0
    return 9 if size % 2 == 1 and size >= 9 else 4


def fixed_handicap_points(size: int, count: int) -> list[int]:
    """The padded points of ``count`` fixed handicap stones on a ``size`` board, in the
    spec's order; ValueError("invalid number of stones") when the board has no such
    handicap."""
    if not 2 <= count <= max_fixed_handicap(size):
        raise ValueError("invalid number of stones")
    edge = 3 if size >= 12 else 2
    low, mid, high = edge, size // 2, size - 1 - edge  # rows/columns from the top left

    def at(row_from_top, col):
        return point(row_from_top, col, size)

    corners = [at(high, low), at(low, high), at(low, low), at(high, high)]
    sides = [at(mid, low), at(mid, high)]
    top_bottom = [at(high, mid), at(low, mid)]
    centre = [at(mid, mid)]
    # the centre joins an odd handicap; the even ones build outwards from the corners
    layout = {
        2: corners[:2], 3: corners[:3], 4: corners,
        5: corners + centre,
        6: corners + sides, 7: corners + sides + centre,
        8: corners + sides + top_bottom, 9: corners + sides + top_bottom + centre,
    }
    return layout[count]


def place_handicap(state, points: list[int]):
    """Black's handicap stones on ``state`` (a setup step), white to move; IllegalMove as
    ``GoState.setup`` raises it."""
    state.setup(black=points)
    state.to_play = WHITE


def with_fixed_handicap(state, count: int):
    """``state`` with ``count`` fixed handicap stones placed (none for 0)."""
    if count:
        place_handicap(state, fixed_handicap_points(state.size, count))
    return state
