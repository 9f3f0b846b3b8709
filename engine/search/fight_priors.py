"""Priors for the moves of a tsumego fight (``Position.target``): virtual games, on top of
the Go priors (``go_priors``), for the two kinds of move a life-and-death reader looks at
first.

* ``vital`` -- the vital point of a small eye space of the group at stake: a connected
  set of at most ``EYE_MAX`` points holding no defender stone (empty points, and
  attacker stones thrown in), enclosed by the defender and touching a target stone; its
  vital points are the empty ones with the most neighbours inside the set.  That is the
  middle of a straight three, the corner of a bent three, the centre of a pyramid four,
  a bulky five or a rabbity six, the point that splits an eye space in two: where the
  attacker plays to leave one eye (nakade) and the defender to make two, so both sides
  get it.
* ``liberty`` -- a liberty of the standing target chain with the fewest liberties: the
  attacker takes one (a liberty race is won by filling them), the defender adds to
  them by playing there.

UCT gives them to every node it grows when ``fight_prior`` > 0, the root included when
the Go priors are on (``prior=1``: the root's priors are set anew at each search).
Each feature of a move adds ``(games, games)``: ``games`` virtual games all won, for the
side making the move (``tree.PRIOR_N`` and ``PRIOR_W``); ``liberty`` adds half of that.
"""

import numpy as np
from numba import njit

from ..core.layout import BOARD, EMPTY, M_SIZE, NEXT, OFFBOARD, PASS, REP
from .solver import fight_only
from .tree import FIRST, MOVE, NCHILD, PRIOR_N, PRIOR_W

EYE_MAX = 7     # the largest eye space read for a vital point (a rabbity six and one more)
LIBS_MAX = 8    # liberties counted at most: past a few, a chain is not in a race


def fight_work(n_points: int) -> tuple:
    """The work arrays of ``apply_fight_priors`` for a board of ``n_points`` points."""
    return (np.zeros(n_points, dtype=np.int8), np.zeros(n_points, dtype=np.int32),
            np.zeros(n_points, dtype=np.int32))


@njit(cache=True, nogil=True)
def mark_vital(s, w, target, attacker, vital, region, stack):
    """Set ``vital[p] = 1`` on the vital points of the target's small eye spaces (module
    docstring).  ``region`` (int32) and ``stack`` (int32) are work arrays of the board's
    length; ``vital`` (int8) is cleared first."""
    board = s[BOARD]
    defender = 3 - attacker
    vital[:] = 0
    region[:] = 0
    label = 0
    for t in target:
        if board[t] != defender:
            continue
        for start in (t - 1, t + 1, t - w, t + w):
            b = board[start]
            if b == OFFBOARD or b == defender or region[start] != 0:
                continue
            label += 1
            region[start] = label
            stack[0] = start
            top, size = 1, 1
            while top > 0 and size <= EYE_MAX:
                top -= 1
                p = stack[top]
                for q in (p - 1, p + 1, p - w, p + w):
                    bq = board[q]
                    if bq != OFFBOARD and bq != defender and region[q] != label:
                        region[q] = label
                        stack[top] = q
                        top += 1
                        size += 1
            if size > EYE_MAX:
                continue   # open space, not an eye (its points stay labelled: read once)
            _mark_most_central(board, w, region, label, start, vital, stack)


@njit(cache=True, nogil=True, inline='always')
def _degree(region, label, p, w):
    """How many of ``p``'s neighbours lie in the eye space ``label``."""
    d = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if region[q] == label:
            d += 1
    return d


@njit(cache=True, nogil=True)
def _mark_most_central(board, w, region, label, start, vital, stack):
    """Mark the empty points of eye space ``label`` (found from ``start``) that have the
    most neighbours in it, when that is more than one (a space of one or two points has
    no vital point to take)."""
    stack[0] = start
    n, top = 1, 0
    seen_to = 1
    while top < seen_to:   # collect the space's points into stack[0:n]
        p = stack[top]
        top += 1
        for q in (p - 1, p + 1, p - w, p + w):
            if region[q] == label:
                dup = False
                for k in range(n):
                    if stack[k] == q:
                        dup = True
                if not dup:
                    stack[n] = q
                    n += 1
                    seen_to = n
    best = 1
    for k in range(n):
        if board[stack[k]] == EMPTY:
            best = max(best, _degree(region, label, stack[k], w))
    if best < 2:
        return
    for k in range(n):
        if board[stack[k]] == EMPTY and _degree(region, label, stack[k], w) == best:
            vital[stack[k]] = 1


@njit(cache=True, nogil=True)
def liberties(s, w, r, found):
    """The liberties of chain ``r`` (a representative), counted up to ``LIBS_MAX``;
    ``found`` (int32, at least LIBS_MAX long) is a work array."""
    n = 0
    q = r
    while True:
        for d in (q - 1, q + 1, q - w, q + w):
            if s[BOARD, d] == EMPTY:
                new = True
                for k in range(n):
                    if found[k] == d:
                        new = False
                if new:
                    found[n] = d
                    n += 1
                    if n == LIBS_MAX:
                        return n
        q = s[NEXT, q]
        if q == r:
            return n


@njit(cache=True, nogil=True)
def weakest_chain(s, w, target, attacker, found):
    """The representative of the standing target chain with the fewest liberties, -1 when
    the target is gone; ``found``: ``liberties``' work array."""
    board = s[BOARD]
    best, best_libs = -1, 1 << 30
    for t in target:
        if board[t] != 3 - attacker:
            continue
        libs = liberties(s, w, s[REP, t], found)
        if libs < best_libs:
            best, best_libs = s[REP, t], libs
    return best


@njit(cache=True, nogil=True)
def apply_fight_priors(ti, tf, node, s, meta, target, attacker, games, work):
    """Add the fight's virtual games to ``node``'s children; (s, meta) is the node's
    position; ``work`` = (vital int8, region int32, stack int32), each the board's
    length."""
    if games <= 0 or target.shape[0] == 0:
        return
    w = meta[M_SIZE] + 2
    vital, region, stack = work
    mark_vital(s, w, target, attacker, vital, region, stack)
    weak = weakest_chain(s, w, target, attacker, stack)
    first = ti[FIRST, node]
    for i in range(first, first + ti[NCHILD, node]):
        p = ti[MOVE, i]
        if p == PASS:
            continue
        add = 0.0
        if vital[p] == 1:
            add += games
        if weak >= 0:
            for q in (p - 1, p + 1, p - w, p + w):
                if s[BOARD, q] == 3 - attacker and s[REP, q] == weak:
                    add += 0.5 * games
                    break
        if add > 0:
            ti[PRIOR_N, i] += int(add)
            tf[PRIOR_W, i] += float(int(add))


# ``fight_priors_at``: ``apply_fight_priors``' arguments; a whole game's search (``target``
# None) compiles no fight priors
fight_priors_at = fight_only(apply_fight_priors, None)
