"""Go rules over the layout of ``engine.core.layout``: clear, legality, play, eyes, score.

Chains are circular linked lists (NEXT) with a representative (REP) holding the chain's
pseudo-liberty count (LIBS) and size (SIZE).  Placing a stone merges the smaller chain
into the larger, so no move ever flood-fills; a chain is captured when its pseudo-liberty
count reaches zero.  Simple ko lives in meta (M_KO, M_KO_COLOR); positional superko needs
the history and is checked by ``engine.game.go_state`` with the Zobrist hash kept here.
"""

import numpy as np
from numba import njit

from .layout import (BLACK, BOARD, EMPTIES, EMPTY, EPOS, LIBS, M_CAPS_B, M_CAPS_W, M_HASH,
                     M_KO, M_KO_COLOR, M_LAST, M_LAST2, M_MOVES, M_N_EMPTY, M_PASSES, M_RULE,
                     M_SIZE, M_TO_PLAY, NEXT, OFFBOARD, PASS, REP, RULE_SUICIDE, SIZE, WHITE)



@njit(cache=True)
def clear_board(s, meta, n):
    """Empty n x n board, black to play.  M_GAME and M_RULE are left to the caller."""
    w = n + 2
    s[:, :] = 0
    k = 0
    for p in range(w * w):
        r = p // w
        c = p - r * w
        if r == 0 or c == 0 or r == w - 1 or c == w - 1:
            s[BOARD, p] = OFFBOARD
        else:
            s[EMPTIES, k] = p
            s[EPOS, p] = k
            k += 1
    meta[M_SIZE] = n
    meta[M_TO_PLAY] = BLACK
    meta[M_N_EMPTY] = k
    meta[M_KO] = -1
    meta[M_KO_COLOR] = 0
    meta[M_PASSES] = 0
    meta[M_HASH] = 0
    meta[M_MOVES] = 0
    meta[M_CAPS_B] = 0
    meta[M_CAPS_W] = 0
    meta[M_LAST] = PASS
    meta[M_LAST2] = PASS


@njit(cache=True, inline='always')
def remove_empty(s, meta, p):
    i = s[EPOS, p]
    last = meta[M_N_EMPTY] - 1
    q = s[EMPTIES, last]
    s[EMPTIES, i] = q
    s[EPOS, q] = i
    meta[M_N_EMPTY] = last


@njit(cache=True, inline='always')
def add_empty(s, meta, p):
    k = meta[M_N_EMPTY]
    s[EMPTIES, k] = p
    s[EPOS, p] = k
    meta[M_N_EMPTY] = k + 1


@njit(cache=True, inline='always')
def is_eye(s, w, p, color):
    """A single-point eye of ``color``: the four neighbours are its stones or the edge, and
    the opponent holds at most one diagonal (none when the point is on the edge).  This
    is the usual playout notion of a true eye (libego, Pachi, michi)."""
    for d in (-1, 1, -w, w):
        c = s[BOARD, p + d]
        if c != color and c != OFFBOARD:
            return False
    other = 3 - color
    bad = 0
    edge = 0
    for d in (-w - 1, -w + 1, w - 1, w + 1):
        c = s[BOARD, p + d]
        if c == other:
            bad += 1
        elif c == OFFBOARD:
            edge = 1
    return bad + edge < 2


@njit(cache=True, inline='always')
def is_legal(s, meta, p, color):
    """Legal under simple ko and the suicide rule in meta (superko is the caller's)."""
    if p == PASS:
        return True
    if s[BOARD, p] != EMPTY:
        return False
    if p == meta[M_KO] and color == meta[M_KO_COLOR]:
        return False
    w = meta[M_SIZE] + 2
    nbs = (p - 1, p + 1, p - w, p + w)
    for q in nbs:
        if s[BOARD, q] == EMPTY:
            return True
    # Take p away from every adjacent chain's pseudo-liberties, look, then give it back:
    # an own chain left with some other liberty, or an enemy chain left with none, makes
    # the move legal.
    for q in nbs:
        c = s[BOARD, q]
        if c == BLACK or c == WHITE:
            s[LIBS, s[REP, q]] -= 1
    legal = False
    own = False
    for q in nbs:
        c = s[BOARD, q]
        if c == color:
            own = True
            if s[LIBS, s[REP, q]] > 0:
                legal = True
        elif c == 3 - color:
            if s[LIBS, s[REP, q]] == 0:
                legal = True
    for q in nbs:
        c = s[BOARD, q]
        if c == BLACK or c == WHITE:
            s[LIBS, s[REP, q]] += 1
    if not legal and own and (meta[M_RULE] & RULE_SUICIDE) != 0:
        return True  # a multi-stone suicide; a lone stone's suicide stays illegal
    return legal


@njit(cache=True)
def _merge(s, a, b):
    """Merge chain b into chain a (both representatives); returns the new representative."""
    if s[SIZE, a] < s[SIZE, b]:
        a, b = b, a
    q = b
    while True:
        s[REP, q] = a
        q = s[NEXT, q]
        if q == b:
            break
    t = s[NEXT, a]
    s[NEXT, a] = s[NEXT, b]
    s[NEXT, b] = t
    s[SIZE, a] += s[SIZE, b]
    s[LIBS, a] += s[LIBS, b]
    return a


@njit(cache=True)
def _remove_chain(s, meta, zob, r, w):
    """Take chain r off the board, crediting its liberties to the neighbours; returns the
    number of stones removed."""
    color = s[BOARD, r]
    h = meta[M_HASH]
    count = 0
    q = r
    while True:
        s[BOARD, q] = EMPTY
        add_empty(s, meta, q)
        h ^= zob[color, q]
        count += 1
        for d in (q - 1, q + 1, q - w, q + w):
            c = s[BOARD, d]
            if c == BLACK or c == WHITE:
                s[LIBS, s[REP, d]] += 1
        q = s[NEXT, q]
        if q == r:
            break
    meta[M_HASH] = h
    return count


@njit(cache=True)
def play(s, meta, zob, p, color):
    """Play ``color`` at ``p`` (or PASS), assuming ``is_legal``; the other side moves next.
    Returns the number of stones captured."""
    meta[M_TO_PLAY] = 3 - color
    meta[M_MOVES] += 1
    meta[M_LAST2] = meta[M_LAST]
    meta[M_LAST] = p
    meta[M_KO] = -1
    if p == PASS:
        meta[M_PASSES] += 1
        return 0
    meta[M_PASSES] = 0
    w = meta[M_SIZE] + 2
    s[BOARD, p] = color
    remove_empty(s, meta, p)
    meta[M_HASH] ^= zob[color, p]
    s[REP, p] = p
    s[NEXT, p] = p
    s[SIZE, p] = 1
    own_libs = 0
    nbs = (p - 1, p + 1, p - w, p + w)
    for q in nbs:
        c = s[BOARD, q]
        if c == EMPTY:
            own_libs += 1
        elif c != OFFBOARD:
            s[LIBS, s[REP, q]] -= 1
    s[LIBS, p] = own_libs
    r = p
    other = 3 - color
    captured = 0
    ko_stone = -1
    for q in nbs:
        c = s[BOARD, q]
        if c == color:
            rq = s[REP, q]
            if rq != r:
                r = _merge(s, r, rq)
        elif c == other:
            rq = s[REP, q]
            if s[LIBS, rq] == 0:
                ko_stone = rq
                captured += _remove_chain(s, meta, zob, rq, w)
    if captured == 1 and s[SIZE, r] == 1 and s[LIBS, r] == 1:
        meta[M_KO] = ko_stone
        meta[M_KO_COLOR] = other
    if s[LIBS, r] == 0:  # suicide, only reached when the rules allow it
        # r as int32, the type of the captures' call above: _remove_chain compiles once
        lost = _remove_chain(s, meta, zob, np.int32(r), w)
        if color == BLACK:
            meta[M_CAPS_W] += lost
        else:
            meta[M_CAPS_B] += lost
    if color == BLACK:
        meta[M_CAPS_B] += captured
    else:
        meta[M_CAPS_W] += captured
    return captured


@njit(cache=True)
def area(s, meta, out):
    """Tromp-Taylor area: out[0] = black's stones and empty regions reaching only black,
    out[1] the same for white.  Seki liberties and neutral points count for nobody."""
    n = meta[M_SIZE]
    w = n + 2
    board = s[BOARD]
    seen = np.zeros(w * w, dtype=np.uint8)
    stack = np.empty(w * w, dtype=np.int32)
    b = 0
    wh = 0
    for p in range(w * w):
        c = board[p]
        if c == BLACK:
            b += 1
        elif c == WHITE:
            wh += 1
        elif c == EMPTY and seen[p] == 0:
            reach = 0
            region = 0
            top = 0
            stack[0] = p
            top = 1
            seen[p] = 1
            while top > 0:
                top -= 1
                q = stack[top]
                region += 1
                for d in (q - 1, q + 1, q - w, q + w):
                    cd = board[d]
                    if cd == EMPTY:
                        if seen[d] == 0:
                            seen[d] = 1
                            stack[top] = d
                            top += 1
                    elif cd != OFFBOARD:
                        reach |= cd
            if reach == BLACK:
                b += region
            elif reach == WHITE:
                wh += region
    out[0] = b
    out[1] = wh


@njit(cache=True)
def score(s, meta, komi):
    """Black's area minus white's, minus komi (Tromp-Taylor / Chinese area scoring)."""
    out = np.zeros(2, dtype=np.int64)
    area(s, meta, out)
    return np.float64(out[0] - out[1]) - komi


@njit(cache=True)
def rebuild(s, meta, zob):
    """Recompute chains, liberties, the empty list and the hash from the BOARD row alone
    (after setup stones were written into it).  Returns the number of chains left without
    a liberty, which a valid position never has."""
    n = meta[M_SIZE]
    w = n + 2
    board = s[BOARD]
    rep = s[REP]
    nxt = s[NEXT]
    libs = s[LIBS]
    size = s[SIZE]
    meta[M_N_EMPTY] = 0
    h = 0
    for p in range(w * w):
        rep[p] = -1
        c = board[p]
        if c == EMPTY:
            add_empty(s, meta, p)
        elif c == BLACK or c == WHITE:
            h ^= zob[c, p]
    meta[M_HASH] = h
    dead = 0
    stack = np.empty(w * w, dtype=np.int32)
    for p in range(w * w):
        c = board[p]
        if (c == BLACK or c == WHITE) and rep[p] == -1:
            rep[p] = p
            nxt[p] = p
            size[p] = 1
            top = 1
            stack[0] = p
            pl = 0
            while top > 0:
                top -= 1
                q = stack[top]
                for d in (q - 1, q + 1, q - w, q + w):
                    cd = board[d]
                    if cd == EMPTY:
                        pl += 1
                    elif cd == c and rep[d] == -1:
                        rep[d] = p
                        nxt[d] = nxt[p]
                        nxt[p] = d
                        size[p] += 1
                        stack[top] = d
                        top += 1
            libs[p] = pl
            if pl == 0:
                dead += 1
    return dead
