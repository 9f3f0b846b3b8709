"""Renju: black's forbidden points (``engine.core.renju``) on positions worked out by hand,
then against the plain-Python reference of ``tests/renju_reference.py`` on random
positions; and the rule in play: legality, wins, playouts and tree candidates.

Pictures: ``X`` black, ``O`` white, ``.`` empty, ``*`` the empty point tested for black.
Rows are numbered from 0 at the top, columns from 0 at the left.
"""

import numpy as np
import pytest

from engine.core import game
from engine.core import gobang_kernels as gbk
from engine.core.layout import (BLACK, BOARD, EMPTY, GOBANG_RENJU, M_TO_PLAY, M_WINNER, WHITE,
                                new_arrays, zobrist_table)
from engine.core.renju import is_forbidden
from engine.core.rng import make_rng
from engine.game.coords import point, row_col
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules
from engine.game.state import IllegalMove

from renju_reference import forbidden as reference_forbidden


def read(picture):
    """(grid, tested point) from a picture with one ``*``."""
    rows = [line.split() for line in picture.strip("\n").splitlines() if line.strip()]
    n = len(rows)
    assert all(len(r) == n for r in rows), "picture is not square"
    grid = [[{"X": BLACK, "O": WHITE}.get(ch, EMPTY) for ch in row] for row in rows]
    star = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == "*"]
    assert len(star) == 1
    return grid, star[0]


def padded(grid):
    """Kernel arrays (renju, black to play) holding ``grid``'s stones."""
    n = len(grid)
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, GOBANG_RENJU)
    zob = zobrist_table(n)
    for r in range(n):
        for c in range(n):
            if grid[r][c] != EMPTY:
                gbk.play(s, meta, zob, point(r, c, n), grid[r][c])
    meta[M_TO_PLAY] = BLACK
    return s, meta


def kernel_forbidden(grid, r, c):
    s, meta = padded(grid)
    n = len(grid)
    return bool(is_forbidden(s[BOARD], n + 2, point(r, c, n)))


def verdicts(picture):
    """(kernel, reference) verdicts on the picture's ``*``."""
    grid, (r, c) = read(picture)
    return kernel_forbidden(grid, r, c), reference_forbidden(grid, r, c)


# -- positions worked out by hand ------------------------------------------------------------
# Each entry: a name, the picture, whether * is forbidden for black, and why.

HAND = [
    ("double three", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . X X * . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # row 5: .XX*. becomes the straight four .XXXX. at (5,2) or (5,6); column 5: the same
     # at (2,5) or (6,5); two threes
     ),
    ("split double three", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . X . X * . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # row 6: X.X* -> (6,3) makes .XXXX. from (6,2) to (6,5); column 5: X.X* the same
     # with (4,5); split threes count as threes
     ),
    ("four-three is allowed", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . X X X * O . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5: XXX* against O is a four (completed at (5,1)), column 5 a three: one four,
     # one three
     ),
    ("double four across two lines", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . X X X * O . . . .
. . . . . O . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # row 5 completes at (5,1), column 5 at (1,5): two fours, neither open
     ),
    ("double four along one line", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. X . X * X . X . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # X.XXX.X: (5,2) makes five from (5,1), (5,6) makes five to (5,7); two different
     # sets of four stones, so two fours on one line
     ),
    ("double four along one line, XX.XX.XX", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
X X . X * . X X . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # (5,2) makes (5,0)-(5,4), (5,5) makes (5,3)-(5,7): two fours
     ),
    ("open four is one four", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . X X X * . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # .XXXX. completes at both ends but is one four (one set of stones)
     ),
    ("overline", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. X X X * X X . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # six in a row
     ),
    ("five beats a double four", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . X .
. X X X X * O . X . .
. . . . . O . X . . .
. . . . . . O . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5 makes exactly five (5,1)-(5,5); column 5 and the anti-diagonal are fours at
     # the same time: a five wins whatever else the stone makes
     ),
    ("five beats an overline", """
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. X X X X * . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5 is exactly five; column 5 is XXX.*XX, whose gap (4,5) would make seven:
     # no four there; the five is what counts
     ),
    ("five and a real overline", """
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. X X X X * . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5 exactly five, column 5 six from (1,5) to (6,5): the five wins
     ),
    ("false three: blocked by white", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . O X X * . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5: OXX*.. can only become OXXXX., a four that is not straight: no three;
     # column 5 is the only three
     ),
    ("false three: against the edge", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . X . . . . . . . .
. . X . . . . . . . .
X X * . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 6: XX* at the left edge becomes XXXX. at best, with no cell left of it for a
     # straight four: no three.  Column 2 is the only three
     ),
    ("false three: the straight four would be an overline", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
X . . X * X . O . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5: X..X*X.O.  (5,2) gives X.XXXX.: its left completion (5,1) would make six,
     # so it is a plain four, not straight; (5,6) gives ..XXXXO, closed by O.  No
     # straight four can come of it: no three.  Column 4 is a three: one three only
     ),
    ("real three: the same row opened", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
X . . X * X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # without the O, (5,6) gives .XXXX. from (5,3) to (5,6) with both completions exact
     # fives ((5,2)-(5,6) and (5,3)-(5,7)): a three, and column 4 another
     ),
    ("a four completed only by an overline is no four", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
X . X X X * O . . . .
. . . . . O . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", False,
     # row 5: X.XXX*O; the only completion (5,1) would make six from (5,0): not a four
     # (nor a three).  Column 5 is a four: one four in all
     ),
    ("the same with a real second four", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . X X X * O . . . .
. . . . . O . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", True,
     # without the stone at (5,0), (5,1) makes exactly five: two fours
     ),
]

# A three whose straight-four point is itself forbidden (recursion).  * = (7,7).
# Row 7: X.X* -> the only straight-four point is q = (7,5) (giving (7,4)-(7,7)).
# With * on the board, q makes that straight four plus two threes of its own: column 5
# (4,5) . (6,5) q, completed at (5,5), and the diagonal (5,3) (6,4) q: so q is a four and
# two threes, a double three, forbidden.  Row 7 is therefore no three for *, and * has
# only column 7 ((5,7) (6,7) *) as a three: allowed.
RECURSIVE = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . X . . . . . . . . .
. . . X . . . X . . . . . . .
. . . . X X . X . . . . . . .
. . . . X . X * . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


@pytest.mark.parametrize("name,picture,expected", [h[:3] for h in HAND],
                         ids=[h[0] for h in HAND])
def test_hand_positions(name, picture, expected):
    kernel, reference = verdicts(picture)
    assert kernel == expected
    assert reference == expected


def test_recursive_false_three_is_allowed():
    grid, (r, c) = read(RECURSIVE)
    assert not kernel_forbidden(grid, r, c)
    assert not reference_forbidden(grid, r, c)
    # q itself is forbidden once * stands: the reason row 7 is no three
    grid[r][c] = BLACK
    assert kernel_forbidden(grid, 7, 5) and reference_forbidden(grid, 7, 5)


def test_recursive_three_counts_when_its_point_is_allowed():
    """Without (5,3), q = (7,5) is a four and one three, allowed, so row 7 is a real three
    and * a double three."""
    grid, (r, c) = read(RECURSIVE)
    grid[5][3] = EMPTY
    assert kernel_forbidden(grid, r, c)
    assert reference_forbidden(grid, r, c)


# -- random positions against the reference ---------------------------------------------------

def random_grid(rng, n, black, white):
    """Stones near the centre, black heavier, so threes and fours are common."""
    grid = [[EMPTY] * n for _ in range(n)]
    lo, hi = n // 2 - 4, n // 2 + 5
    for color, count in ((BLACK, black), (WHITE, white)):
        placed = 0
        while placed < count:
            r, c = rng.integers(lo, hi, size=2)
            if grid[r][c] == EMPTY:
                grid[r][c] = color
                placed += 1
    return grid


def test_kernel_matches_reference_on_random_positions():
    rng = np.random.default_rng(13)
    n = 15
    forbidden = recursive = tested = 0
    from engine.core.renju import MAX_DEPTH
    for _ in range(120):
        grid = random_grid(rng, n, int(rng.integers(10, 26)), int(rng.integers(4, 14)))
        s, _ = padded(grid)
        board = s[BOARD]
        for r in range(n):
            for c in range(n):
                if grid[r][c] != EMPTY:
                    continue
                ref = reference_forbidden(grid, r, c)
                assert bool(is_forbidden(board, n + 2, point(r, c, n))) == ref, (r, c, grid)
                tested += 1
                forbidden += ref
                # threes judged without looking at whether their points are forbidden
                recursive += ref != reference_forbidden(grid, r, c, depth=MAX_DEPTH)
    # the sample must exercise the rule, recursion included, not only empty space
    assert forbidden >= 100, forbidden
    assert recursive >= 1, recursive
    assert tested > 10_000


# -- the rule in play ----------------------------------------------------------------------------

def renju_state(picture):
    grid, star = read(picture)
    n = len(grid)
    state = GobangState(GobangRules(size=n, variant="renju"))
    black = [point(r, c, n) for r in range(n) for c in range(n) if grid[r][c] == BLACK]
    white = [point(r, c, n) for r in range(n) for c in range(n) if grid[r][c] == WHITE]
    s, meta = padded(grid)
    state.s[:] = s
    state.meta[:] = meta
    return state, point(*star, n), black, white


def test_black_may_not_play_a_forbidden_point_white_may():
    state, p, _, _ = renju_state(HAND[0][1])
    with pytest.raises(IllegalMove, match="forbidden"):
        state.play(p, BLACK)
    assert p not in state.legal_moves(BLACK)
    assert state.is_legal(p, WHITE)
    state.play(p, WHITE)
    assert state.winner() == 0


def test_black_wins_with_exactly_five_white_with_an_overline():
    five, p, _, _ = renju_state(HAND[8][1])
    five.play(p, BLACK)
    assert five.winner() == BLACK
    over = GobangState(GobangRules(size=11, variant="renju"))
    n = 11
    for c in (1, 2, 3, 5, 6):
        over.play(point(0, c, n), BLACK)
        over.play(point(5, c, n), WHITE)
    assert over.why_illegal(point(0, 4, n), BLACK).startswith("forbidden")
    over.to_play = WHITE
    over.play(point(5, 4, n), WHITE)
    assert over.winner() == WHITE


def test_tree_candidates_leave_out_forbidden_points():
    state, p, _, _ = renju_state(HAND[0][1])
    out = np.empty(state.s.shape[1] + 1, dtype=np.int32)
    k = game.candidate_moves(game.GOBANG, state.s, state.meta, out)
    offered = set(out[:k].tolist())
    assert p not in offered
    assert offered == set(state.legal_moves(BLACK).tolist())


@pytest.mark.parametrize("heavy", [False, True])
def test_playouts_never_play_a_forbidden_point(heavy):
    """Random and threat playouts under renju, move by move, checked by the reference."""
    n = 11
    rng = make_rng(5)
    zob = zobrist_table(n)
    moves = 0
    for _ in range(30):
        s, meta = new_arrays(n)
        gbk.clear_board(s, meta, n, GOBANG_RENJU)
        if heavy:
            from engine.core import gobang_threats as gbt
            pts, cnt = gbt.new_threat_lists(s.shape[1])
            gbt.find_threats(s, meta, pts, cnt)
        while meta[M_WINNER] == 0:
            color = int(meta[M_TO_PLAY])
            grid = [[int(s[BOARD, point(r, c, n)]) for c in range(n)] for r in range(n)]
            if heavy:
                p = int(gbt.threat_move(s, meta, rng, pts, cnt))
            else:
                p = int(gbk.random_move(s, meta, rng, color))
            if p < 0:
                break
            if color == BLACK:
                assert not reference_forbidden(grid, *row_col(p, n))
            gbk.play(s, meta, zob, p, color)
            if heavy and meta[M_WINNER] == 0:
                gbt.note_stone(s, meta, pts, cnt, p, color)
            moves += 1
    assert moves > 500


def test_sgf_records_the_rule():
    from engine.game.sgf import load_game, save_game
    state = GobangState(GobangRules(size=11, variant="renju"))
    state.play(point(5, 5, 11))
    data = save_game(state)
    assert b"RU[renju]" in data
    assert load_game(data).state.rules.variant == "renju"
    # a record's RU beats the caller's template; an unknown one leaves the template's
    standard = data.replace(b"RU[renju]", b"RU[Standard]")
    assert load_game(standard, rules=GobangRules(variant="renju")).state.rules.variant == "exact5"
    odd = data.replace(b"RU[renju]", b"RU[caro]")
    assert load_game(odd, rules=GobangRules(variant="renju")).state.rules.variant == "renju"
