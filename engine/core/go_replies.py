"""Last-good-reply playouts with forgetting (LGRF-1 and LGRF-2, Baier & Drake, "The Power
of Forgetting", IEEE TCIAIG 2010): a search learns, from its own simulations, which move
answers which, and its playouts play the learned answer first.

Why: a playout policy knows shapes, not the fight at hand; in a tsumego the refutation
of a wrong move (the one vital point after it) is found by the tree but reaches the
playouts below other nodes only by chance, so their verdicts stay biased however long the
search runs.  A reply that won is tried again in every playout where its move comes up.

The record (``Replies``): ``table`` int32[3, P], the reply of each colour to each last
move (-1: none); ``table2`` int32[3, P, P], LGRF-2's reply to each two last moves (empty
for LGRF-1); ``line`` int32[cap], the moves of the current simulation from the root's
last move on (tree moves, then playout moves; a pass is PASS); ``n`` int64[1], its length.
After the simulation (``learn``), for each two successive moves (a, b) of the line, b by
colour c: the winner's b becomes c's reply to a; a loser's b that was c's reply to a is
forgotten.  LGRF-2 does the same for each three successive moves (x, a, b) in ``table2``.
A draw teaches nothing.

In a playout, the reply to the opponent's last two moves (LGRF-2), else to its last move,
is played when it is legal and fills no own eye (``reply_for``); else the wrapped policy
chooses.  ``WithReplies`` wraps a playout policy's parameters (``go_playout``: its type
picks the policy) with a record; the hooks below take None for "no replies" and then
compile to nothing.
"""

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .go_policy import playable
from .go_tactics import NONE
from .layout import BOARD, EMPTY, M_LAST, M_SIZE

Replies = namedtuple("Replies", "table table2 line n")
WithReplies = namedtuple("WithReplies", "inner replies")


def new_replies(n_points: int, max_line: int, level: int = 1) -> Replies:
    """An empty record of LGRF-``level`` (1 or 2) for a board of ``n_points`` points and
    simulations of at most ``max_line`` moves (longer ones are learnt from their first
    ``max_line``)."""
    return Replies(table=np.full((3, n_points), NONE, dtype=np.int32),
                   table2=np.full((3, n_points, n_points) if level == 2 else (0, 0, 0), NONE,
                                  dtype=np.int32),
                   line=np.empty(max_line + 1, dtype=np.int32),
                   n=np.zeros(1, dtype=np.int64))


@njit(cache=True, nogil=True, inline='always')
def note(rep, p):
    """Append the move ``p`` (a point or PASS) to the current line."""
    k = rep.n[0]
    if k < rep.line.shape[0]:
        rep.line[k] = p
        rep.n[0] = k + 1


@njit(cache=True, nogil=True, inline='always')
def _usable(s, meta, p, color):
    return p >= 0 and s[BOARD, p] == EMPTY and playable(s, meta, meta[M_SIZE] + 2, p, color)


@njit(cache=True, nogil=True)
def reply_for(rep, s, meta, color):
    """``color``'s learned reply to the last two moves (LGRF-2, when the line holds
    them), else to the last move, if it is legal and fills no own eye; else NONE."""
    last = meta[M_LAST]
    if last < 0:
        return NONE
    k = rep.n[0]
    if rep.table2.shape[0] > 0 and 2 <= k < rep.line.shape[0] and rep.line[k - 1] == last:
        before = rep.line[k - 2]
        if before >= 0 and _usable(s, meta, rep.table2[color, before, last], color):
            return rep.table2[color, before, last]
    p = rep.table[color, last]
    return p if _usable(s, meta, p, color) else NONE


@njit(cache=True, nogil=True)
def learn_line(rep, first_color, winner):
    """Update the table from the current line, whose second move ``first_color`` played
    (the first is the root's last move), now that ``winner`` won (0: a draw)."""
    if winner == 0:
        return
    table, table2, line = rep.table, rep.table2, rep.line
    two = table2.shape[0] > 0
    color = first_color
    for k in range(1, rep.n[0]):
        a, b = line[k - 1], line[k]
        if a >= 0 and b >= 0:
            if color == winner:
                table[color, a] = b
            elif table[color, a] == b:
                table[color, a] = NONE
            x = line[k - 2] if k >= 2 else -1
            if two and x >= 0:
                if color == winner:
                    table2[color, x, a] = b
                elif table2[color, x, a] == b:
                    table2[color, x, a] = NONE
        color = 3 - color


def begin_line(rep, last):
    """For compiled code: start a simulation's line at the root's last move ``last``."""
    raise NotImplementedError("compiled code only")


def note_move(rep, p):
    """For compiled code: ``note`` when ``rep`` is a record, nothing when it is None."""
    raise NotImplementedError("compiled code only")


def learn(rep, first_color, winner):
    """For compiled code: ``learn_line`` when ``rep`` is a record, nothing when None."""
    raise NotImplementedError("compiled code only")


def with_replies(policy, rep):
    """For compiled code: the playout policy ``policy`` wrapped with the record ``rep``
    (``WithReplies``), or ``policy`` itself when ``rep`` is None."""
    raise NotImplementedError("compiled code only")


def _off(rep) -> bool:
    return isinstance(rep, types.NoneType)


@overload(begin_line, inline="always")
def _begin_line(rep, last):
    if _off(rep):
        return lambda rep, last: None

    def begin(rep, last):
        rep.n[0] = 0
        note(rep, last)
    return begin


@overload(note_move, inline="always")
def _note_move(rep, p):
    if _off(rep):
        return lambda rep, p: None
    return lambda rep, p: note(rep, p)


@overload(learn, inline="always")
def _learn(rep, first_color, winner):
    if _off(rep):
        return lambda rep, first_color, winner: None
    return lambda rep, first_color, winner: learn_line(rep, first_color, winner)


@overload(with_replies, inline="always")
def _with_replies(policy, rep):
    if _off(rep):
        return lambda policy, rep: policy
    return lambda policy, rep: WithReplies(policy, rep)
