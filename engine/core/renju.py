"""Renju's forbidden points for black (the RIF rules), over the padded BOARD row of
``engine.core.layout``.

Black may not play a point whose stone makes, without making exactly five anywhere:

* an *overline*: six or more black stones in an unbroken row;
* a *double four*: two or more fours.  A four is a row in which one more black stone makes
  exactly five; an *open* (straight) four ``.XXXX.`` can be completed at both ends but is
  one four, while ``X.XXX.X`` or ``XX.XX.XX`` along one line are two fours (two different
  sets of four stones);
* a *double three*: two or more threes.  A three is a row that one more black stone turns
  into a straight four, where that stone's point is itself not forbidden (so the test
  recurses: a "false three" whose only completion is a double three, a double four or an
  overline does not count).

A stone that makes exactly five wins even if it makes a double four, a double three or an
overline at the same time.  White has no forbidden points (and wins with five or more;
``gobang_kernels`` handles the winning test).

Every pattern here runs through the new stone ``p``: a five that p helps to make contains
p and the one completing stone q with all cells between them black, so q is the first
empty cell past one end of the black run through p.  That leaves at most two completion
points a line for a four, and at most two candidate points a line for a three, so the test
reads a few cells along four lines.  ``_cannot_be_forbidden`` skips the test when too few
black stones stand near p for any forbidden shape.

The recursion (run on an explicit stack in ``is_forbidden``) stops at ``MAX_DEPTH`` nested
three-tests, beyond which a point counts as not forbidden: every level adds a stone, and
positions that need more levels are not met in play.
"""

import numpy as np
from numba import njit

from .layout import BLACK, EMPTY

MAX_DEPTH = 6


@njit(cache=True, inline='always')
def _run(board, x, step):
    """Black stones in a row from ``x`` on, walking by ``step`` (the OFFBOARD frame, or any
    non-black cell, ends the walk)."""
    k = 0
    while board[x] == BLACK:
        x += step
        k += 1
    return k


@njit(cache=True, inline='always')
def _end_past_run(board, p, step):
    """The first cell past the black run through ``p`` walking by ``step``, if it is empty;
    -1 otherwise."""
    x = p + step
    while board[x] == BLACK:
        x += step
    return x if board[x] == EMPTY else -1


@njit(cache=True)
def _completions(board, p, d):
    """How many points make exactly five through black ``p`` along ``d`` with one more
    black stone (0, 1 or 2), and the length of the run through ``p``."""
    run = 1 + _run(board, p + d, d) + _run(board, p - d, -d)
    k = 0
    for step in (d, -d):
        q = _end_past_run(board, p, step)
        if q >= 0 and run + 1 + _run(board, q + step, step) == 5:
            k += 1
    return k, run


@njit(cache=True)
def _fours(board, p, d):
    """The fours through black ``p`` along ``d``: a straight four is one four, two
    completion points around a broken run are two."""
    k, run = _completions(board, p, d)
    if k == 2 and run == 4:
        return 1
    return k


@njit(cache=True)
def _is_straight_four(board, p, d):
    k, run = _completions(board, p, d)
    return k == 2 and run == 4


@njit(cache=True)
def _cannot_be_forbidden(board, w, p):
    """Cheap necessary test: an overline or a same-line double four needs four other black
    stones within four cells along one line; a double four or three needs two lines with
    two or more."""
    busy = 0
    for d in (1, w, w + 1, w - 1):
        k = 0
        for step in (d, -d):
            x = p + step
            for _ in range(4):
                c = board[x]
                if c == BLACK:
                    k += 1
                elif c != EMPTY:
                    break
                x += step
        if k >= 4:
            return False
        if k >= 2:
            busy += 1
    return busy < 2


@njit(cache=True)
def _settled(board, p, w):
    """With black on ``p``: 0 when a five makes it allowed, 1 when an overline or a double
    four makes it forbidden, 2 when only the threes can tell."""
    fours = 0
    over = False
    for d in (1, w, w + 1, w - 1):
        run = 1 + _run(board, p + d, d) + _run(board, p - d, -d)
        if run == 5:
            return 0
        if run > 5:
            over = True
        fours += _fours(board, p, d)
    return 1 if over or fours >= 2 else 2


@njit(cache=True)
def is_forbidden(board, w, p):
    """Whether a black stone on the empty point ``p`` is forbidden (``w``: the padded
    width, n + 2).  ``board`` is used as scratch and left as it was.

    The three-test recursion runs on an explicit stack (numba's cache does not keep
    recursive functions reliably): level k tests point ``at[k]``, scanning line ``line[k]``
    from side ``side[k]`` with ``threes[k]`` threes found; a candidate straight-four point
    pushes a level, and its verdict comes back in ``result``."""
    dirs = np.array((1, w, w + 1, w - 1))
    at = np.empty(MAX_DEPTH + 2, dtype=np.int64)
    line = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    side = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    threes = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    level = 0
    at[0] = p
    q = -1
    entering = True
    while True:
        x = at[level]
        if entering:
            entering = False
            verdict = 0
            if level <= MAX_DEPTH and not _cannot_be_forbidden(board, w, x):
                board[x] = BLACK
                verdict = _settled(board, x, w)
                if verdict != 2:
                    board[x] = EMPTY
            if verdict != 2:
                if level == 0:
                    return verdict == 1
                level = _pop(level, verdict == 1, line, side, threes)
                continue
            line[level] = 0
            side[level] = 0
            threes[level] = 0
        # scan level ``level`` for its next straight-four point
        while line[level] < 4 and threes[level] < 2 and not entering:
            d = dirs[line[level]]
            if side[level] == 0 and _fours(board, x, d) > 0:
                line[level] += 1   # a line that is a four is not also a three
                continue
            if side[level] == 2:
                line[level] += 1
                side[level] = 0
                continue
            step = d if side[level] == 0 else -d
            side[level] += 1
            q = _end_past_run(board, x, step)
            if q < 0:
                continue
            board[q] = BLACK
            straight = _is_straight_four(board, x, d)
            board[q] = EMPTY
            if straight:
                entering = True
        if entering:
            level += 1
            at[level] = q
            continue
        board[x] = EMPTY
        if level == 0:
            return threes[0] >= 2
        level = _pop(level, threes[level] >= 2, line, side, threes)


@njit(cache=True, inline='always')
def _pop(level, forbidden, line, side, threes):
    """Back to the parent level with the verdict on its straight-four point: an allowed
    point makes the line a three, and the scan moves to the next line."""
    level -= 1
    if not forbidden:
        threes[level] += 1
        line[level] += 1
        side[level] = 0
    return level
