"""Alpha-beta for Gobang: the search of classic Gomoku programs, over the five-cell windows
of ``gobang_shape``.

Every window (five cells in a row) keeps how many stones of each colour it holds, updated
as stones go on and come off: a window with four of one colour and none of the other is a
*four* (its empty cell wins), with three a *three*; each colour's live threes and fours are
also kept as lists, so the rules below read a handful of windows, not the board.  From
these counts, at each node:

- the side to move with a four wins at once;
- an opponent with two winning points has won; with one, the side to move must take it
  (a forced move, searched without spending depth);
- an opponent with a *threat point* (a point where its stone makes two winning points: an
  open four, a double four) leaves the side to move the points of the threes through it
  and its own fours (which the opponent must answer first) -- at every depth, the leaves
  too: a side so threatened may not stand pat;
- otherwise the empty points within two of a stone, the best ``width`` (the back end's
  ``moves``; ``root_width`` at the root, 0 for all) by their
  ``gobang_shape`` score; a node whose moves all lose searches the rest of its points
  before it counts as lost, so a win or a loss the search reports holds against every
  near point, not only the best ``width`` (without it, wins "proved" two moves wide were
  refuted by a search of every point, and the brain played them at once).

At depth 0 the search goes on with threats alone, standing pat on the static value -- the
window sums, ``EVAL`` by the stones in each live window, the side to move's times
``TEMPO``: for ``vct_depth`` plies the best ``vct_width`` of the side to move's fours and
open threes (a three with two live windows on its line), each answered by the defences
above, then its fours alone (and the forced blocks) until ``q_depth``.  So every leaf sees
a win by continuous fours, and by threes and fours when it is short.  Past its first
threat, a side's next threat there must lie on a line with its last one (a three within
four points of it; a four in a window that holds it), as in Allis's dependency-based
search: a threat independent of the last one could have been played first, where the
search has already tried it.  This drops some 30% of the nodes at a fixed depth and keeps
the moves (38 of 40 positions at depth 5).

The tree walk runs on an explicit stack (numba's cache does not keep recursive functions
reliably): principal variation search (every move after a node's first with a null
window, searched again when it beats alpha), late moves one or two plies shallower
(``lmr``: not a node's first ``lmr``, its fours or its defences), iterative deepening and
a transposition table (Zobrist keys, replace-always) to order the moves, then two killer
moves a ply (the last two that cut a node off at that ply), then the shape score: a third
fewer nodes at a fixed depth than the shape order alone.  A table entry
is its data in one int64 and key ^ data in another, so that threads may share the table
without a lock: a pair torn by two writers fails the key test.

Rules: exact five and renju check a winning point with ``gobang_kernels._makes_win``
(an overline does not win), and black's forbidden points are never its moves under renju;
a threat point is judged by the window counts alone, so an overline threat counts as one.
"""

import functools

import numpy as np
from numba import njit

from .gobang_kernels import _makes_win
from .gobang_shape import ATTACK, DEFEND
from .layout import BLACK, EMPTY, OFFBOARD
from .renju import is_forbidden

MAX_PLY = 128          # plies below the root: a game never holds more forced moves
MAX_MOVES = 400        # candidates of one node (the root may take every near point)
WIN = 1_000_000        # a win at ply k scores WIN - k: the quickest win is preferred
MATE = WIN - 10_000    # scores beyond this are wins or losses
INF = 2 * WIN
# static value of a live window by the stones in it (a five or a four never stands at a
# leaf: the side to move's four wins, the opponent's forces a block)
EVAL = np.array([0, 1, 8, 60, 400, 0], dtype=np.int64)
TEMPO_NUM, TEMPO_DEN = 3, 2   # the side to move's windows weigh 3/2: it moves first

EXACT, LOWER, UPPER = 1, 2, 3   # transposition-table bounds
# ``_score``'s term for a window through the point by the stones of the mover and of the
# other side in it (at most four each: the point is empty): ATTACK while the other side
# has none, DEFEND while the mover has none
POINT_SCORE = np.array([[(ATTACK[kc] if ko == 0 else 0.0) + (DEFEND[ko] if kc == 0 else 0.0)
                         for ko in range(5)] for kc in range(5)])


@functools.lru_cache(maxsize=None)
def window_tables(n: int):
    """(cells, through, count): the padded cells of every window of an n x n board
    ([windows, 5]), the windows through each padded point ([P, 20], -1 for none) and how
    many there are.  Built once a size and shared: read, never written."""
    w = n + 2
    cells = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + 4 * dr < n and 0 <= c + 4 * dc < n:
                    cells.append([(r + k * dr + 1) * w + c + k * dc + 1 for k in range(5)])
    cells = np.array(cells, dtype=np.int32)
    through = np.full((w * w, 20), -1, dtype=np.int32)
    count = np.zeros(w * w, dtype=np.int32)
    for i, row in enumerate(cells):
        for p in row:
            through[p, count[p]] = i
            count[p] += 1
    return cells, through, count


@njit(cache=True, nogil=True, inline='always')
def _listed(c, j, wi, sign, n, live, at):
    """Add (sign 1) window ``wi`` to ``c``'s list ``j`` (0: threes, 1: fours) of length
    ``n[c]``, or take it away (-1; the last entry fills its place)."""
    if sign > 0:
        live[c, j, n[c]] = wi
        at[c, j, wi] = n[c]
        n[c] += 1
    else:
        n[c] -= 1
        last = live[c, j, n[c]]
        i = at[c, j, wi]
        live[c, j, i] = last
        at[c, j, last] = i


@njit(cache=True, nogil=True, inline='always')
def _count(c, k, sign, wi, val, n4, n3, live, at):
    """Add (sign 1) or take away (-1) window ``wi``, live with ``k`` ``c`` stones, in the
    sums and the lists of threes and fours."""
    val[c] += sign * EVAL[k]
    if k == 4:
        _listed(c, 1, wi, sign, n4, live, at)
    elif k == 3:
        _listed(c, 0, wi, sign, n3, live, at)


@njit(cache=True, nogil=True)
def tally(board, cells, cnt, val, n4, n3, live, at):
    """Fill the window counts, the sums and the lists (all zero) from ``board``."""
    for wi in range(cells.shape[0]):
        for k in range(5):
            b = board[cells[wi, k]]
            if b == 1 or b == 2:
                cnt[b, wi] += 1
    for wi in range(cells.shape[0]):
        for c in (1, 2):
            if cnt[3 - c, wi] == 0:
                _count(c, cnt[c, wi], 1, wi, val, n4, n3, live, at)


@njit(cache=True, nogil=True)
def new_sums(n_windows):
    """(cnt, val, n4, n3, live, at), zero, for ``tally`` and ``_touch``."""
    return (np.zeros((3, n_windows), dtype=np.int32), np.zeros(3, dtype=np.int64),
            np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.zeros((3, 2, n_windows), dtype=np.int32),
            np.zeros((3, 2, n_windows), dtype=np.int32))


@njit(cache=True, nogil=True)
def _touch(p, c, delta, cnt, through, n_through, val, n4, n3, live, at):
    """Add (delta 1) or take away (-1) a ``c`` stone at ``p`` in every window's counts, the
    static sums ``val`` and the lists of live threes and fours (``n3``, ``n4`` long): each
    window through ``p`` leaves the sums as it was and comes back as it is."""
    o = 3 - c
    for j in range(n_through[p]):
        wi = through[p, j]
        kc, ko = cnt[c, wi], cnt[o, wi]
        if ko == 0:
            _count(c, kc, -1, wi, val, n4, n3, live, at)
        elif kc == 0:
            _count(o, ko, -1, wi, val, n4, n3, live, at)
        kc += delta
        cnt[c, wi] = kc
        if ko == 0:
            _count(c, kc, 1, wi, val, n4, n3, live, at)
        elif kc == 0:
            _count(o, ko, 1, wi, val, n4, n3, live, at)


@njit(cache=True, nogil=True)
def _near(board, w, p, near, delta):
    n = board.shape[0]
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            q = p + dr * w + dc
            if 0 <= q < n:
                near[q] += delta


@njit(cache=True, nogil=True)
def _empty_cell(board, cells, wi):
    for k in range(5):
        q = cells[wi, k]
        if board[q] == EMPTY:
            return q
    return -1


@njit(cache=True, nogil=True)
def _wins_at(board, w, q, c, exact):
    return not exact or _makes_win(board, w, q, c, True)


@njit(cache=True, nogil=True)
def _five_points(board, w, cells, n4, live, c, exact):
    """The first winning point of ``c`` and how many distinct ones there are (at most 2)."""
    first, k = -1, 0
    for i in range(n4[c]):
        q = _empty_cell(board, cells, live[c, 1, i])
        if q < 0 or q == first or not _wins_at(board, w, q, c, exact):
            continue
        if first < 0:
            first, k = q, 1
        else:
            return first, 2
    return first, k


@njit(cache=True, nogil=True)
def _find_threat_points(board, cells, n3, live, c, other, touched):
    """Mark ``c``'s threat points (an empty point whose stone makes two distinct winning
    points) with ``other[t] = -2``, from its live threes alone: such a point is an empty cell
    of two threes whose other empty cells differ.  ``other`` (-1 everywhere before) keeps
    each cell's first other empty cell; returns how many cells of ``touched`` it wrote, for
    ``_clear``.  One pass over the threes, where a test of each of their cells would read
    the twenty windows through it."""
    n = 0
    for i in range(n3[c]):
        wi = live[c, 0, i]
        e1, e2 = -1, -1
        for k in range(5):
            q = cells[wi, k]
            if board[q] == EMPTY:
                if e1 < 0:
                    e1 = q
                else:
                    e2 = q
        for t, q in ((e1, e2), (e2, e1)):
            if other[t] == -1:
                other[t] = q
                touched[n] = t
                n += 1
            elif other[t] >= 0 and other[t] != q:
                other[t] = -2
    return n


@njit(cache=True, nogil=True, inline='always')
def _clear(other, touched, n):
    for i in range(n):
        other[touched[i]] = -1


@njit(cache=True, nogil=True)
def _threat_point(board, cells, n3, live, c, other, touched):
    """A threat point of ``c`` (its stone there makes two winning points), or -1: the first
    in the order of its threes' list."""
    n = _find_threat_points(board, cells, n3, live, c, other, touched)
    found = -1
    for i in range(n3[c]):
        wi = live[c, 0, i]
        for k in range(5):
            t = cells[wi, k]
            if board[t] == EMPTY and other[t] == -2:
                found = t
                break
        if found >= 0:
            break
    _clear(other, touched, n)
    return found


@njit(cache=True, nogil=True)
def _defences(board, cells, through, n_through, cnt, n3, live, c, mark, other, touched):
    """Mark (``mark[q] = 1``) the points of the opponent's threes through its threat
    points and ``c``'s own fours; returns whether the opponent has a threat point."""
    o = 3 - c
    n = _find_threat_points(board, cells, n3, live, o, other, touched)
    found = False
    for i in range(n):
        t = touched[i]
        if other[t] != -2:
            continue
        mark[t] = 2     # a threat point, its threes marked below
        found = True
        for j in range(n_through[t]):
            wj = through[t, j]
            if cnt[o, wj] == 3 and cnt[c, wj] == 0:
                for m in range(5):
                    q = cells[wj, m]
                    if board[q] == EMPTY and mark[q] == 0:
                        mark[q] = 1
    _clear(other, touched, n)
    if found:
        for i in range(n3[c]):
            wi = live[c, 0, i]
            for k in range(5):
                q = cells[wi, k]
                if board[q] == EMPTY and mark[q] == 0:
                    mark[q] = 1
    return found


@njit(cache=True, nogil=True)
def _score(through, n_through, cnt, p, c):
    """``gobang_shape.point_score`` from the window counts."""
    o = 3 - c
    total = 0.0
    for j in range(n_through[p]):
        wi = through[p, j]
        total += POINT_SCORE[cnt[c, wi], cnt[o, wi]]
    return total


@njit(cache=True, nogil=True)
def _makes_four(through, n_through, cnt, p, c):
    o = 3 - c
    for j in range(n_through[p]):
        wi = through[p, j]
        if cnt[c, wi] == 3 and cnt[o, wi] == 0:
            return True
    return False


@njit(cache=True, nogil=True)
def _makes_three(w, cells, through, n_through, cnt, p, c):
    """Whether a ``c`` stone on ``p`` makes a four, or a three with two live windows along
    one line (an open three, solid or broken: a closed three has a single live window)."""
    o = 3 - c
    row, col, down, up = 0, 0, 0, 0   # live windows of two ``c`` stones by line
    for j in range(n_through[p]):
        wi = through[p, j]
        if cnt[o, wi] != 0:
            continue
        k = cnt[c, wi]
        if k == 3:
            return True
        if k == 2:
            step = cells[wi, 1] - cells[wi, 0]
            if step == 1:
                row += 1
            elif step == w:
                col += 1
            elif step == w + 1:
                down += 1
            else:
                up += 1
    return row >= 2 or col >= 2 or down >= 2 or up >= 2


@njit(cache=True, nogil=True)
def _legal(board, w, p, c, renju):
    return board[p] == EMPTY and not (renju and c == BLACK and is_forbidden(board, w, p))


@njit(cache=True, nogil=True, inline='always')
def _playable(board, w, p, c, allowed, renju):
    """Whether the empty point ``p`` may be a candidate: inside ``allowed`` (when it is not
    empty) and not forbidden to ``c``."""
    if allowed.shape[0] > 0 and allowed[p] == 0:
        return False
    return not (renju and c == BLACK and is_forbidden(board, w, p))


@njit(cache=True, nogil=True, inline='always')
def _offer(through, n_through, cnt, p, c, limit, tt_move, killer, moves, scores, k):
    """Insert candidate ``p`` by its shape score among the ``k`` kept best (``limit`` at
    most); returns how many are kept."""
    s = _score(through, n_through, cnt, p, c)
    if p == tt_move:
        s = 1e300
    elif p == killer[0]:
        s = 1e299
    elif p == killer[1]:
        s = 1e298
    if k < limit:
        i = k
        k += 1
    elif s > scores[k - 1]:
        i = k - 1
    else:
        return k
    while i > 0 and scores[i - 1] < s:
        moves[i] = moves[i - 1]
        scores[i] = scores[i - 1]
        i -= 1
    moves[i] = p
    scores[i] = s
    return k


@njit(cache=True, nogil=True, inline='always')
def _holds(cells, wi, p):
    for k in range(5):
        if cells[wi, k] == p:
            return True
    return False


@njit(cache=True, nogil=True, inline='always')
def _aligned(w, p, q):
    """Whether ``p`` and ``q`` lie in one window: on a line, at most four apart."""
    dr = p // w - q // w
    dc = p % w - q % w
    if abs(dr) > 4 or abs(dc) > 4:
        return False
    return dr == 0 or dc == 0 or dr == dc or dr == -dc


@njit(cache=True, nogil=True, inline='always')
def _anchor(ply, dep, forced, defending, moves, idx):
    """The side to move's own last stone when it was a threat of the quiescence (a four or
    a three played at ``dep`` <= 0), else -1."""
    if ply >= 2 and dep[ply - 2] <= 0 and not forced[ply - 2] and \
            not defending[ply - 2]:
        return moves[ply - 2, idx[ply - 2] - 1]
    return -1


@njit(cache=True, nogil=True)
def _generate(board, w, cells, through, n_through, cnt, n3, live, near, c, kind, mark,
              allowed, renju, limit, tt_move, killer, anchor, moves, scores):
    """Fill ``moves`` with the node's candidates best first, ``limit`` at most (the TT move
    first when it is one of them); ``kind`` 0: every near point, 1: the marked points
    (defences), 2: ``c``'s fours only, 3: its fours and open threes; with ``anchor`` >= 0,
    kinds 2 and 3 keep only the threats on a line with it (``_anchor``).  ``killer``: the
    ply's two killer moves, ordered after the TT move.  Returns how many, and whether
    candidates were left out for ``limit``."""
    k = 0
    offered = 0
    if kind == 2:   # the empty cells of its live threes, each once (``mark`` as scratch)
        for i in range(n3[c]):
            wi = live[c, 0, i]
            if anchor >= 0 and not _holds(cells, wi, anchor):
                continue
            for j in range(5):
                p = cells[wi, j]
                if board[p] == EMPTY and mark[p] != 3:
                    mark[p] = 3
                    if _playable(board, w, p, c, allowed, renju):
                        offered += 1
                        k = _offer(through, n_through, cnt, p, c, limit, tt_move, killer,
                                   moves, scores, k)
        for i in range(n3[c]):
            for j in range(5):
                mark[cells[live[c, 0, i], j]] = 0
        return k, offered > k
    for p in range(board.shape[0]):
        if board[p] != EMPTY or near[p] == 0:
            continue
        if kind == 1 and mark[p] == 0:
            continue
        if kind == 3 and (anchor >= 0 and not _aligned(w, p, anchor) or
                          not _makes_three(w, cells, through, n_through, cnt, p, c)):
            continue
        if _playable(board, w, p, c, allowed, renju):
            offered += 1
            k = _offer(through, n_through, cnt, p, c, limit, tt_move, killer, moves, scores,
                       k)
    return k, offered > k


@njit(cache=True, nogil=True)
def _static(val, c):
    return (val[c] * TEMPO_NUM) // TEMPO_DEN - val[3 - c]


@njit(cache=True, nogil=True, inline='always')
def _pack(score, move, depth, flag):
    """A table entry's data in one int64 (score, move + 1, depth + 128, bound), stored
    beside key ^ data: threads write both without a lock, and a pair torn by two writers
    fails the key test (``_probe``) instead of lending one position another's value."""
    return ((np.int64(score) + (1 << 31)) | (np.int64(move + 1) << 32) |
            (np.int64(depth + 128) << 48) | (np.int64(flag) << 56))


@njit(cache=True, nogil=True, inline='always')
def _probe(tt_keyx, tt_data, slot, key):
    """(whether the slot holds ``key``, score, move, depth, bound)."""
    d = tt_data[slot]
    if tt_keyx[slot] ^ d != key:
        return False, 0, -1, 0, 0
    return (True, (d & 0xFFFFFFFF) - (1 << 31), ((d >> 32) & 0xFFFF) - 1,
            ((d >> 48) & 0xFF) - 128, (d >> 56) & 0xFF)


@njit(cache=True, nogil=True)
def _to_tt(v, ply):
    if v > MATE:
        return v + ply
    if v < -MATE:
        return v - ply
    return v


@njit(cache=True, nogil=True)
def _from_tt(v, ply):
    if v > MATE:
        return v - ply
    if v < -MATE:
        return v + ply
    return v



@njit(cache=True, nogil=True)
def _enter(board, w, exact_b, exact_w, renju, color, ply, dep, alpha, beta, alpha0, best,
           best_move, forced, defending, research, narrow, moves, n_moves, idx, scores,
           mark, allowed, no_mask, cells, through, n_through, cnt, near, val, n4, n3, live,
           at, stones, width, root_width, q_depth, vct_depth, vct_width, key, keys, tt_mask,
           tt_keyx, tt_data, killers, other, touched):
    """Open the node at ``ply`` (the module docstring's rules): returns (True, its value)
    when it is decided without a move searched, else (False, 0) with its moves ready."""
    c = color if ply % 2 == 0 else 3 - color
    o = 3 - c
    keys[ply] = key
    alpha0[ply] = alpha[ply]
    best[ply] = -INF
    best_move[ply] = -1
    forced[ply] = False
    defending[ply] = False
    research[ply] = False
    narrow[ply] = False
    idx[ply] = 0
    n_moves[ply] = 0
    if n4[c] > 0:
        f, nf = _five_points(board, w, cells, n4, live, c, exact_b if c == 1 else exact_w)
        if nf > 0:
            best_move[ply] = f
            return True, WIN - ply
    if n4[o] > 0:
        f, nf = _five_points(board, w, cells, n4, live, o, exact_b if o == 1 else exact_w)
        if nf >= 2 or (nf == 1 and not _legal(board, w, f, c, renju)):
            return True, -(WIN - ply - 1)
        if nf == 1:
            forced[ply] = True
            moves[ply, 0] = f
            n_moves[ply] = 1
    if ply >= MAX_PLY:
        return True, _static(val, c)
    # no winning point of the opponent's to block: a point that gives two of ours wins
    # in three plies (window counts cannot tell an overline, so under exact five this is
    # left to the search)
    if not forced[ply] and n3[c] > 0 and not (exact_b if c == 1 else exact_w):
        t = _threat_point(board, cells, n3, live, c, other, touched)
        if t >= 0:
            best_move[ply] = t
            return True, WIN - ply - 2
    hit, v, tt_m, tt_dep, fl = _probe(tt_keyx, tt_data, key & tt_mask, key)
    if hit:
        if ply > 0 and tt_dep >= dep[ply]:
            v = _from_tt(v, ply)
            if fl == EXACT or (fl == LOWER and v >= beta[ply]) or \
                    (fl == UPPER and v <= alpha[ply]):
                return True, v
    if forced[ply]:
        return False, 0
    mask = allowed if ply == 0 else no_mask
    kind = 0
    if n3[o] > 0 and dep[ply] > -q_depth:
        mark[:] = 0
        if _defences(board, cells, through, n_through, cnt, n3, live, c, mark, other,
                     touched):
            kind = 1
            defending[ply] = True
    if dep[ply] <= 0 and kind == 0:   # the quiescence: threats only, or stand pat
        stand = _static(val, c)
        best[ply] = stand
        if stand >= beta[ply] or dep[ply] <= -q_depth:
            return True, stand
        if stand > alpha[ply]:
            alpha[ply] = stand
        kind = 3 if dep[ply] > -vct_depth else 2
        if kind == 2 and n3[c] == 0:
            return True, stand
        anchor = _anchor(ply, dep, forced, defending, moves, idx)
        n_moves[ply], narrow[ply] = _generate(
            board, w, cells, through, n_through, cnt, n3, live, near, c, kind, mark, mask,
            renju, vct_width if kind == 3 else MAX_MOVES, tt_m, killers[ply], anchor,
            moves[ply], scores)
        if n_moves[ply] == 0:
            return True, stand
        return False, 0
    lim = width
    if ply == 0:
        lim = MAX_MOVES if root_width == 0 else root_width
    if kind == 1:
        lim = MAX_MOVES
    n_moves[ply], narrow[ply] = _generate(board, w, cells, through, n_through, cnt, n3,
                                          live, near, c, kind, mark, mask, renju, lim, tt_m,
                                          killers[ply], -1, moves[ply], scores)
    if n_moves[ply] == 0:   # a full board is a draw; black with forbidden points only
        return True, 0 if stones + ply >= (w - 2) * (w - 2) else -(WIN - ply - 1)
    return False, 0


@njit(cache=True, nogil=True)
def search(board0, w, exact_b, exact_w, renju, color, depth, width, root_width, q_depth,
           vct_depth, vct_width, lmr, allowed, cells, through, n_through, zob, tt_keyx,
           tt_data, stop, node_limit, pv):
    """One alpha-beta search of ``depth`` plies from the position ``board0`` (the padded
    BOARD row; ``w`` its width) with ``color`` to move, the root's moves inside
    ``allowed`` (a uint8 mask, or empty for all), ``tt_keyx``/``tt_data`` the table
    (``_pack``).  ``stop[0]`` set from another thread, or
    ``node_limit`` nodes spent, ends it early.  Returns (best root move or -1, its score,
    nodes, whether the search completed, the length of the principal variation written to
    ``pv``)."""
    board = board0.copy()
    n_pts = board.shape[0]
    cnt, val, n4, n3, live, at = new_sums(cells.shape[0])
    tally(board, cells, cnt, val, n4, n3, live, at)
    near = np.zeros(n_pts, dtype=np.int32)
    key = np.int64(0)
    stones = 0
    for p in range(n_pts):
        if board[p] == 1 or board[p] == 2:
            _near(board, w, p, near, 1)
            key ^= zob[board[p], p]
            stones += 1
    if stones == 0:
        near[(w // 2) * w + w // 2] = 1
    tt_mask = tt_keyx.shape[0] - 1
    no_mask = np.zeros(0, dtype=np.uint8)
    mark = np.zeros(n_pts, dtype=np.int8)
    other = np.full(n_pts, -1, dtype=np.int32)     # ``_find_threat_points``' scratch
    touched = np.zeros(n_pts, dtype=np.int32)

    moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
    scores = np.zeros(MAX_MOVES, dtype=np.float64)
    n_moves = np.zeros(MAX_PLY + 1, dtype=np.int64)
    idx = np.zeros(MAX_PLY + 1, dtype=np.int64)
    alpha = np.zeros(MAX_PLY + 1, dtype=np.int64)
    beta = np.zeros(MAX_PLY + 1, dtype=np.int64)
    alpha0 = np.zeros(MAX_PLY + 1, dtype=np.int64)
    best = np.zeros(MAX_PLY + 1, dtype=np.int64)
    best_move = np.full(MAX_PLY + 1, -1, dtype=np.int64)
    dep = np.zeros(MAX_PLY + 1, dtype=np.int64)
    forced = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    keys = np.zeros(MAX_PLY + 1, dtype=np.int64)
    defending = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    probe = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    research = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    narrow = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    cut = np.zeros(MAX_PLY + 1, dtype=np.int64)
    killers = np.full((MAX_PLY + 1, 2), -1, dtype=np.int64)

    nodes = 0
    aborted = False
    ply = 0
    dep[0] = depth
    alpha[0], beta[0] = -INF, INF
    entering = True
    value = 0
    while True:
        returning = False
        if entering:
            entering = False
            if nodes >= node_limit or ((nodes & 1023) == 1023 and stop[0] != 0):
                aborted = True
                break
            nodes += 1
            returning, value = _enter(board, w, exact_b, exact_w, renju, color, ply, dep,
                                      alpha, beta, alpha0, best, best_move, forced,
                                      defending, research, narrow, moves, n_moves, idx,
                                      scores, mark, allowed, no_mask, cells,
                                      through, n_through, cnt, near, val, n4, n3, live,
                                      at, stones,
                                      width, root_width, q_depth, vct_depth, vct_width,
                                      key, keys,
                                      tt_mask, tt_keyx, tt_data, killers, other,
                                      touched)
        if not returning:
            c = color if ply % 2 == 0 else 3 - color
            full = dep[ply] if forced[ply] else dep[ply] - 1
            if research[ply]:   # the last move again, at full depth and window
                research[ply] = False
                m = moves[ply, idx[ply] - 1]
                probe[ply], cut[ply] = False, 0
            elif idx[ply] < n_moves[ply]:   # the node's next move
                i = idx[ply]
                m = moves[ply, i]
                idx[ply] += 1
                # the first move with the node's window, the others with a null window
                # (a re-search when one beats alpha); late quiet moves one ply less
                probe[ply] = i > 0 and not forced[ply]
                cut[ply] = 0
                if probe[ply] and lmr > 0 and i >= lmr and ply > 0 and full >= 2 and \
                        not defending[ply] and \
                        not _makes_four(through, n_through, cnt, m, c):
                    cut[ply] = 1 if i < 3 * lmr else 2
            elif narrow[ply] and best[ply] < -MATE:
                # every move searched loses, but the node had more: a loss is proven only
                # once they all lose, so search the rest (the first ones again, from the
                # table)
                narrow[ply] = False
                n_moves[ply], _ = _generate(board, w, cells, through, n_through, cnt, n3,
                                            live, near, c, 0, mark,
                                            allowed if ply == 0 else no_mask, renju,
                                            MAX_MOVES, -1, killers[ply], -1, moves[ply],
                                            scores)
                idx[ply] = 0
                continue
            else:
                m = -1
            if m >= 0:
                board[m] = c
                _touch(m, c, 1, cnt, through, n_through, val, n4, n3, live, at)
                _near(board, w, m, near, 1)
                key ^= zob[c, m]
                dep[ply + 1] = full - cut[ply]
                alpha[ply + 1] = -(alpha[ply] + 1) if probe[ply] else -beta[ply]
                beta[ply + 1] = -alpha[ply]
                ply += 1
                entering = True
                continue
            value = best[ply]   # every move searched (or a cut-off): the node's value
            slot = keys[ply] & tt_mask
            bound = UPPER if value <= alpha0[ply] else (LOWER if value >= beta[ply]
                                                        else EXACT)
            d = _pack(_to_tt(value, ply), best_move[ply], dep[ply], bound)
            tt_data[slot] = d
            tt_keyx[slot] = keys[ply] ^ d
        if ply == 0:
            best[0] = value
            break
        ply -= 1   # back to the parent: take its move back and weigh the child's value
        m = moves[ply, idx[ply] - 1]
        c = color if ply % 2 == 0 else 3 - color
        board[m] = EMPTY
        _touch(m, c, -1, cnt, through, n_through, val, n4, n3, live, at)
        _near(board, w, m, near, -1)
        key ^= zob[c, m]
        value = -value
        if probe[ply] and value > alpha[ply] and (cut[ply] > 0 or value < beta[ply]):
            research[ply] = True
            continue
        if value > best[ply]:
            best[ply] = value
            best_move[ply] = m
            if value > alpha[ply]:
                alpha[ply] = value
                if value >= beta[ply]:
                    idx[ply] = n_moves[ply]
                    if not forced[ply] and m != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = m
    root_move = best_move[0]
    n_pv = 0
    if root_move >= 0:
        pv[0] = root_move
        n_pv = 1
        b = board0.copy()
        k = keys[0]
        c = color
        b[root_move] = c
        k ^= zob[c, root_move]
        while n_pv < pv.shape[0]:
            c = 3 - c
            hit, _, m, _, _ = _probe(tt_keyx, tt_data, k & tt_mask, k)
            if not hit or m < 0 or b[m] != EMPTY:
                break
            pv[n_pv] = m
            n_pv += 1
            b[m] = c
            k ^= zob[c, m]
    return root_move, best[0], nodes, not aborted, n_pv
