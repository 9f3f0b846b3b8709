"""A slow, plain-Python statement of renju's forbidden points (the RIF rules), written from
the definitions and not from the kernel's shortcuts, as the oracle for
``engine.core.renju``.

The board is a list of rows of 0 (empty), 1 (black), 2 (white); points are (row, col).
Definitions, for a black stone just placed at p:

* five: an unbroken row of exactly five black stones through p; overline: six or more;
* four: a set of four black stones, p among them, that lie in a window of five consecutive
  cells of one line whose fifth cell is empty and would make exactly five.  Fours are
  counted as distinct sets of stones, so ``.XXXX.`` (two windows, one set) is one four and
  ``X.XXX.X`` (two sets) is two;
* straight four: four black stones in a row, p among them, both ends empty and each end
  making exactly five;
* three (along a line with no four): an empty cell of the line whose black stone makes a
  straight four there, and which is not itself forbidden (tested with p on the board).

p is forbidden when it makes no five and makes an overline, two or more fours, or threes
along two or more lines.  The recursion is cut at the kernel's ``MAX_DEPTH``, beyond which
a point counts as allowed.
"""

from engine.core.renju import MAX_DEPTH

LINES = ((0, 1), (1, 0), (1, 1), (1, -1))
BLACK = 1


def _cell(grid, r, c):
    n = len(grid)
    return grid[r][c] if 0 <= r < n and 0 <= c < n else None


def _run(grid, r, c, dr, dc):
    """Length of the black run through (r, c) along (dr, dc)."""
    k = 1
    for s in (1, -1):
        rr, cc = r + s * dr, c + s * dc
        while _cell(grid, rr, cc) == BLACK:
            k += 1
            rr, cc = rr + s * dr, cc + s * dc
    return k


def _makes_exact_five(grid, r, c, dr, dc):
    grid[r][c] = BLACK
    ok = _run(grid, r, c, dr, dc) == 5
    grid[r][c] = 0
    return ok


def fours(grid, r, c, dr, dc):
    """The fours through black (r, c) along the line, as distinct sets of stones."""
    found = set()
    for start in range(-4, 1):
        cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(5)]
        values = [_cell(grid, rr, cc) for rr, cc in cells]
        if values.count(BLACK) == 4 and values.count(0) == 1:
            rr, cc = cells[values.index(0)]
            if _makes_exact_five(grid, rr, cc, dr, dc):
                found.add(frozenset(p for p, v in zip(cells, values) if v == BLACK))
    return len(found)


def straight_four(grid, r, c, dr, dc):
    for start in range(-3, 1):
        cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(4)]
        if all(_cell(grid, rr, cc) == BLACK for rr, cc in cells):
            ends = [(r + (start - 1) * dr, c + (start - 1) * dc),
                    (r + (start + 4) * dr, c + (start + 4) * dc)]
            if all(_cell(grid, rr, cc) == 0 and _makes_exact_five(grid, rr, cc, dr, dc)
                   for rr, cc in ends):
                return True
    return False


def is_three(grid, r, c, dr, dc, depth):
    for k in range(-4, 5):
        rr, cc = r + k * dr, c + k * dc
        if k == 0 or _cell(grid, rr, cc) != 0:
            continue
        grid[rr][cc] = BLACK
        made = straight_four(grid, r, c, dr, dc)
        grid[rr][cc] = 0
        if made and not forbidden(grid, rr, cc, depth + 1):
            return True
    return False


def forbidden(grid, r, c, depth=0):
    """Whether a black stone on the empty point (r, c) is forbidden."""
    if depth > MAX_DEPTH:
        return False
    grid[r][c] = BLACK
    try:
        runs = [_run(grid, r, c, dr, dc) for dr, dc in LINES]
        if 5 in runs:
            return False
        if max(runs) > 5:
            return True
        line_fours = [fours(grid, r, c, dr, dc) for dr, dc in LINES]
        if sum(line_fours) >= 2:
            return True
        threes = sum(1 for (dr, dc), f in zip(LINES, line_fours)
                     if f == 0 and is_three(grid, r, c, dr, dc, depth))
        return threes >= 2
    finally:
        grid[r][c] = 0
