"""The exact short reading that checks a Gobang problem's answers: victory by continuous
fours (VCF), freestyle rule, on a plain list-of-lists board.  ``gobang_answers`` is what
the collection's Gobang problems are checked against."""

from ..core.layout import EMPTY
from ..game.coords import point
from ..game.state import opponent

_LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def _run(board, r, c, dr, dc, colour) -> int:
    """Stones of ``colour`` in a row through (r, c) along (dr, dc), (r, c) counted."""
    n, count = len(board), 1
    for sign in (1, -1):
        rr, cc = r + sign * dr, c + sign * dc
        while 0 <= rr < n and 0 <= cc < n and board[rr][cc] == colour:
            count += 1
            rr, cc = rr + sign * dr, cc + sign * dc
    return count


def _fives(board, colour, around=None) -> set:
    """Empty points where ``colour`` makes five or more (freestyle); only those on the four
    lines through ``around`` (a point) when given."""
    n = len(board)
    if around is None:
        cells = [(r, c) for r in range(n) for c in range(n)]
    else:
        r0, c0 = around
        cells = {(r0 + k * dr, c0 + k * dc) for dr, dc in _LINES for k in range(-4, 5)}
    return {(r, c) for r, c in cells if 0 <= r < n and 0 <= c < n and board[r][c] == EMPTY
            and any(_run(board, r, c, dr, dc, colour) >= 5 for dr, dc in _LINES)}


def _vcf(board, mover, fours: int) -> bool:
    """Can ``mover`` (to move) make five with at most ``fours`` more fours, each forcing the
    opponent to block, whatever the opponent blocks with?  (A "victory by continuous
    fours"; a four with two five-points wins outright.)"""
    if _fives(board, mover):
        return True
    if fours == 0 or _fives(board, opponent(mover)):
        return False
    for r, c in [(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == EMPTY]:
        board[r][c] = mover
        try:
            if _four_wins(board, mover, (r, c), fours):
                return True
        finally:
            board[r][c] = EMPTY
    return False


def _four_wins(board, mover, move, fours: int) -> bool:
    """``mover`` has just played ``move`` with no five-point before it and none for the
    opponent: is it a four that wins within ``fours`` fours?"""
    threats = _fives(board, mover, around=move)
    if not threats:
        return False
    if len(threats) >= 2:
        return True
    (r, c), = threats
    board[r][c] = opponent(mover)     # the forced block
    try:
        return _vcf(board, mover, fours - 1)
    finally:
        board[r][c] = EMPTY


def gobang_answers(problem, fours: int) -> set:
    """``win``: the first moves that make five, or a four that wins by continuous fours
    (at most ``fours`` of them).  ``defend``: the first moves after which the opponent has
    no five and no such win."""
    n, mover = problem.size, problem.to_play
    board = [[problem.state.color_at(point(r, c, n)) for c in range(n)] for r in range(n)]
    mine, theirs = _fives(board, mover), _fives(board, opponent(mover))
    out = set()
    for r in range(n):
        for c in range(n):
            if board[r][c] != EMPTY:
                continue
            board[r][c] = mover
            if "win" in problem.tags:
                good = (r, c) in mine or (not theirs and not mine
                                          and _four_wins(board, mover, (r, c), fours))
            else:
                good = not _vcf(board, opponent(mover), fours)
            board[r][c] = EMPTY
            if good:
                out.add(point(r, c, n))
    return out
