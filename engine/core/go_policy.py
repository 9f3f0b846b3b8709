"""How a Go playout chooses its next move: the light policy (uniform among the legal moves
that do not fill the mover's own eye) and the heavy one, which first looks at the last
move's surroundings the way MoGo, Pachi and michi do.

Heavy policy, for the side to move, with the opponent's last move L:
0. with probability ``par[P_NAKADE]``: the vital point of a small eye space of the
   opponent next to L (``nakade_move``: three to six empty points that only the
   opponent's stones and the edge enclose, such as the space its capture just left), so
   that a dead shape is killed in the playout instead of being left to chance.
1. with probability ``par[P_ATARI]``: moves that capture the chain of L when it is in atari,
   and moves that save an own chain next to L from atari, by capturing an adjacent
   opponent chain that is itself in atari or by extending to two liberties or more --
   unless, with a ladder scratch and ``par[LADDER_NODES]`` > 0, the extension leaves two
   liberties that a ladder captures (``go_ladder``, reading at most that many positions);
   one of them at random.  The scratch is None (the reader is not even compiled) unless
   the knowledge file asks for ladders (``go_ladder.WithLadders``, ``go_playout``).
1a. else, or if there is none, with probability ``par[P_CAPTURE2]``: the capture of an
   opponent chain in atari next to the mover's own last move (``capture_move``): an
   atari the opponent left unanswered, which step 1 does not see (it looks around L)
   and the uniform step takes only by chance.  Pachi's global atari check finds it
   anywhere; a scan of the whole board slowed the playouts by some 40% (a rough
   measurement on a busy machine), and an atari older than the last two moves is rare.
1b. else, or if there is none, with probability ``par[P_TWO_LIBS]``: the two-liberty
   moves around L (``go_two_libs``): an atari on a chain of two liberties that cannot
   escape it, an extension of an own chain of two liberties to three; one of the
   playable ones that are no self-atari, at random.
2. else, or if there is none, with probability ``par[P_EYE_REPLY]``: when L was played
   inside an eye space of the side to move (``eye_reply_move``: at most
   ``EYE_SPACE_MAX`` points, empty or the opponent's, that only the mover's stones and
   the edge enclose), the point of it that splits what is left into two eyes or puts
   the intruder in atari, else its vital point.  Random play misses that answer: a
   rectangular six that has answered the attacker's placement still dies in a fifth of
   the playouts without this step (``docs/tsumego-results.md``, ninth round).
3. else, or if there is none, with probability ``par[P_PATTERN]``: the empty points around
   L (and with ``par[PATTERN2]`` > 0 around the mover's own last move too, as Pachi's
   ``pattern2``) whose 3x3 neighbourhood matches a pattern of the table (``patterns3``),
   drawn with probability proportional to the pattern's weight.
4. else a uniformly random move, where a self-atari that leaves a chain of at least
   ``par[SELFATARI_STONES]`` stones in atari is refused with probability
   ``par[P_SELFATARI]`` -- unless ``par[SELFATARI_NAKADE]`` > 0 and it is a throw-in
   that kills by nakade (``nakade_self_atari``) --, and a move that fills an own eye space without splitting it
   (``fills_own_space``) with probability ``par[P_OWN_SPACE]`` (and the draw goes on):
   random filling of its own space is how a living group dies in a playout.
Candidates of 1 to 3 must be legal and must not fill an own eye; those of 2 must not be
self-ataris, those of 3 not self-ataris of that size.  The probabilities and the pattern
weights come from the knowledge file (``engine.go_knowledge``); ``par`` None means the
light policy.

A uniform move is drawn by rejection without replacement: draw an index into the first k
entries of the empty-point list; if that point is refused, swap it behind the window and
shrink k.  So each candidate costs one random number and is tested at most once.
"""

import numpy as np
from numba import njit

from .go_kernels import PASS, is_eye, is_legal
from .go_ladder import escape_caught_if
from .go_tactics import (NONE, atari_liberty, first_touch, is_self_atari, libs_after,
                         makes_atari, push, size_after)
from .go_two_libs import two_lib_moves
from .layout import (BOARD, EMPTIES, EMPTY, EPOS, M_LAST, M_LAST2, M_N_EMPTY, M_SIZE, NEXT,
                     OFFBOARD, REP)
from .patterns3 import code
from .rng import rand_below, rand_unit

(P_ATARI, P_PATTERN, P_SELFATARI, SELFATARI_STONES, LADDER_NODES, P_NAKADE,
 P_EYE_REPLY, P_OWN_SPACE, P_TWO_LIBS, SELFATARI_NAKADE, PATTERN2, P_CAPTURE2) = range(12)
N_PARAMS = 12
NAKADE_MIN, NAKADE_MAX = 3, 6     # the eye spaces whose vital point decides life
# the most points (empty or the opponent's) of an own eye space the eye reply reads: a
# larger space lives without help, and an enclosure this size is no longer an eye space
EYE_SPACE_MAX = 8


# playable, _uniform_move and push run at every playout move: inlined, as a call there
# costs numba's reference counts of its arrays (UCT 9x9: some 13% of a playout's time)
@njit(cache=True, inline='always')
def playable(s, meta, w, p, color):
    """Legal for ``color`` and not filling its own eye.  An empty neighbour settles both at
    once (a ko point never has one), which is the common case."""
    all_own = True
    for q in (p - 1, p + 1, p - w, p + w):
        c = s[BOARD, q]
        if c == EMPTY:
            return True
        if c != color and c != OFFBOARD:
            all_own = False
    if all_own and is_eye(s, w, p, color):
        return False
    return is_legal(s, meta, p, color)


@njit(cache=True)
def _playable_called(s, meta, w, p, color):
    """``playable`` as a call, for ``atari_moves``, which asks it only of the few
    candidates it finds: inlined at its three call sites it cost a cold start some 3 s of
    compiling, and a call there costs a playout nothing measurable.  Its callers pass the
    point as int64, so that it compiles for one signature."""
    return playable(s, meta, w, p, color)


@njit(cache=True, inline='always')
def _uniform_move(s, meta, rng, color, sa_prob, sa_stones, sa_nakade, space_prob, buf, reads):
    w = meta[M_SIZE] + 2
    k = meta[M_N_EMPTY]
    while k > 0:
        i = rand_below(rng, k)
        p = s[EMPTIES, i]
        # the point as int64, the type pattern_move and the priors pass: one compile
        if playable(s, meta, w, p, color) and not (
                sa_prob > 0.0 and is_self_atari(s, w, np.int64(p), color, sa_stones)
                and not (sa_nakade and nakade_self_atari(s, w, np.int64(p), color, buf))
                and rand_unit(rng) < sa_prob) and (
                reads is None or not (
                    space_prob > 0.0 and fills_own_space(s, w, p, color, buf)
                    and rand_unit(rng) < space_prob)):
            return p
        k -= 1
        q = s[EMPTIES, k]
        s[EMPTIES, k] = p
        s[EMPTIES, i] = q
        s[EPOS, p] = k
        s[EPOS, q] = i
    return PASS


@njit(cache=True)
def random_move(s, meta, rng, color):
    """The light policy: a uniformly random legal non-eye-filling move, or PASS."""
    # floats and an int32 scratch, the heavy call's types: an empty view of the board,
    # never written at probability 0, where a new array would cost an allocation a move
    return _uniform_move(s, meta, rng, color, 0.0, 0.0, False, 0.0, s[BOARD, :0], None)


@njit(cache=True)
def atari_moves(s, meta, w, last, color, buf, lad, ladder_nodes):
    """Step 1's candidates around ``last`` written to ``buf``; returns their count (a move
    may appear more than once).  ``lad``: a ladder scratch, read when ``ladder_nodes`` > 0,
    or None."""
    n = 0
    other = 3 - color
    if s[BOARD, last] == other:
        lib = atari_liberty(s, w, s[REP, last])
        if lib != NONE and _playable_called(s, meta, w, np.int64(lib), color):
            n = push(buf, n, lib)
    nbs = (last - 1, last + 1, last - w, last + w)
    for k in range(4):
        if s[BOARD, nbs[k]] != color or not first_touch(s, nbs, k):
            continue
        r = s[REP, nbs[k]]
        lib = atari_liberty(s, w, r)
        if lib == NONE:
            continue
        x = r
        while True:   # counter-captures: opponent chains touching r that are in atari
            for d in (x - 1, x + 1, x - w, x + w):
                if s[BOARD, d] == other:
                    cl = atari_liberty(s, w, s[REP, d])
                    if cl != NONE and _playable_called(s, meta, w, np.int64(cl), color):
                        n = push(buf, n, cl)
            x = s[NEXT, x]
            if x == r:
                break
        if libs_after(s, w, lib, color) >= 2 and _playable_called(
                s, meta, w, np.int64(lib), color) and not escape_caught_if(
                lad, s, meta, lib, color, ladder_nodes):
            n = push(buf, n, lib)
    return n


@njit(cache=True)
def capture_move(s, meta, rng, w, own_last, color, buf):
    """Step 1a: the last liberty of an opponent chain in atari next to ``own_last``, drawn
    at random among the playable ones, or NONE."""
    other = 3 - color
    n = 0
    for d in (own_last - 1, own_last + 1, own_last - w, own_last + w):
        if s[BOARD, d] == other:
            lib = atari_liberty(s, w, s[REP, d])
            if lib != NONE and _playable_called(s, meta, w, np.int64(lib), color):
                buf[n] = lib
                n += 1
    if n == 0:
        return NONE
    return buf[rand_below(rng, n)]


@njit(cache=True)
def _two_lib_move(s, meta, rng, w, last, color, buf):
    """Step 1b: one of ``go_two_libs``'s candidates that is playable and no self-atari,
    drawn at random, or NONE."""
    n = two_lib_moves(s, w, last, color, buf)
    k = 0
    for i in range(n):
        p = np.int64(buf[i])
        if _playable_called(s, meta, w, p, color) and not is_self_atari(s, w, p, color, 1.0):
            buf[k] = p
            k += 1
    return buf[rand_below(rng, k)] if k > 0 else NONE


@njit(cache=True)
def pattern_move(s, meta, rng, w, last, last2, color, pat, sa_stones, buf):
    """Step 3: a point around ``last``, or around ``last2`` too when it is a point (the
    neighbourhoods' common points once), drawn by pattern weight, or NONE.  ``buf`` holds
    the candidates (entries 0..15) and their weights (from entry h = min(16, its size /
    2): a board has fewer empty points than P - h)."""
    h = min(16, buf.shape[0] // 2)
    total = 0
    k = 0
    for centre in (last, last2):
        if centre < 0:
            continue
        for p in (centre - w - 1, centre - w, centre - w + 1, centre - 1, centre + 1,
                  centre + w - 1, centre + w, centre + w + 1):
            if s[BOARD, p] != EMPTY:
                continue
            seen = False
            for i in range(k):
                seen = seen or buf[i] == p
            if seen:
                continue
            weight = pat[code(s, w, p)]
            if weight == 0 or not playable(s, meta, w, p, color) or is_self_atari(
                    s, w, p, color, sa_stones):
                continue
            buf[k] = p
            buf[h + k] = weight
            total += weight
            k += 1
    if total == 0:
        return NONE
    x = rand_below(rng, total)
    for i in range(k):
        if x < buf[h + i]:
            return buf[i]
        x -= buf[h + i]
    return buf[k - 1]


@njit(cache=True)
def enclosed_space(s, w, start, through, wall, limit, buf):
    """The points connected to ``start`` through empty points and stones of colour
    ``through`` (EMPTY: empty points alone), written to ``buf``: how many, or -1 when
    one of them touches a stone of neither that colour nor ``wall``'s (the space is
    open) or there are more than ``limit``.  Callers pass every integer as int64 (no
    literal constants), so that it compiles for one signature."""
    n = 1
    buf[0] = start
    i = 0
    while i < n:
        p = buf[i]
        i += 1
        for q in (p - 1, p + 1, p - w, p + w):
            c = s[BOARD, q]
            if c == EMPTY or c == through:
                seen = False
                for j in range(n):
                    if buf[j] == q:
                        seen = True
                if not seen:
                    if n == limit:
                        return -1
                    buf[n] = q
                    n += 1
            elif c != wall and c != OFFBOARD:
                return -1
    return n


@njit(cache=True)
def nakade_self_atari(s, w, p, color, buf):
    """``color`` at ``p`` (a self-atari) is a throw-in that kills by nakade: its chain of
    two to four stones and the chain's last liberty are all the points of a space that
    only the opponent's stones and the edge enclose, and the stones make a dead shape
    once captured (any two or three; a square or a T of four, not a line, an L or a Z,
    which leave two eyes).  ``buf``: int32 scratch of at least 5 entries."""
    k = size_after(s, w, p, color)
    if k < 2 or k > 4:
        return False
    n = enclosed_space(s, w, p, np.int64(color), 3 - color, np.int64(k + 1), buf)
    if n != k + 1:       # more empty points: the liberty opens onto the board
        return False
    if k < 4:
        return True
    most, least = 0, 4
    for j in range(n):
        q = buf[j]
        if q != p and s[BOARD, q] == EMPTY:   # the liberty, no stone of the shape
            continue
        inside = 0
        for d in (q - 1, q + 1, q - w, q + w):
            for i in range(n):
                if buf[i] == d and (d == p or s[BOARD, d] != EMPTY):
                    inside += 1
        most, least = max(most, inside), min(least, inside)
    return most == 3 or least == 2


@njit(cache=True)
def nakade_move(s, meta, w, last, color, buf):
    """The vital point of an eye space of the opponent next to its last move ``last``:
    a connected set of ``NAKADE_MIN``..``NAKADE_MAX`` empty points whose other neighbours
    are all the opponent's stones or the edge.  The vital point is the point with the
    most neighbours inside the space, when one point alone has the most (the middle of a
    straight or a bent three, the centre of a pyramid four or of a bulky five); spaces
    without one (a square four, dead anyway; a straight four, alive anyway) give none.
    ``buf`` holds the space (int32 scratch, at least ``NAKADE_MAX`` entries).  NONE if
    there is no such space or its vital point is not playable."""
    other = 3 - color
    for start in (last - 1, last + 1, last - w, last + w):
        if s[BOARD, start] != EMPTY:
            continue
        n = enclosed_space(s, w, np.int64(start), np.int64(EMPTY), other, np.int64(NAKADE_MAX), buf)
        if n < NAKADE_MIN:
            continue
        best = NONE
        most = 0
        ties = 0
        for j in range(n):
            p = buf[j]
            inside = 0
            for q in (p - 1, p + 1, p - w, p + w):
                for k in range(n):
                    if buf[k] == q:
                        inside += 1
            if inside > most:
                best, most, ties = p, inside, 1
            elif inside == most:
                ties += 1
        if ties == 1 and _playable_called(s, meta, w, np.int64(best), color):
            return best
    return NONE


@njit(cache=True, inline='always')
def _touch(a, b, w):
    d = a - b
    return d == 1 or d == -1 or d == w or d == -w


@njit(cache=True)
def _parts(buf, n, w, mask):
    """The connected parts of the points ``buf[i]`` whose bit ``i`` is set in ``mask``."""
    parts = 0
    left = mask
    while left:
        grown = left & -left
        frontier = grown
        while frontier:
            reached = 0
            for a in range(n):
                if frontier >> a & 1:
                    for b in range(n):
                        if left >> b & 1 and not grown >> b & 1 and _touch(buf[a], buf[b], w):
                            reached |= 1 << b
            grown |= reached
            frontier = reached
        left &= ~grown
        parts += 1
    return parts


@njit(cache=True)
def fills_own_space(s, w, p, color, buf):
    """Whether ``color`` at ``p`` fills an eye space of its own without splitting it: ``p``
    is one of two to ``EYE_SPACE_MAX`` connected empty points that only ``color``'s
    stones and the edge enclose, and the others stay in one part.  ``buf`` holds the
    space (int32 scratch, at least ``EYE_SPACE_MAX`` entries)."""
    n = enclosed_space(s, w, np.int64(p), np.int64(EMPTY), color, np.int64(EYE_SPACE_MAX), buf)
    return n >= 2 and _parts(buf, n, w, (1 << n) - 2) == 1


@njit(cache=True)
def eye_reply_move(s, meta, rng, w, last, color, buf):
    """The answer to an opponent's move ``last`` played inside an eye space of ``color``:
    the connected points, empty or the opponent's, around ``last`` that only ``color``'s
    stones and the edge enclose, ``EYE_SPACE_MAX`` at most.  Each empty point of it
    scores 8 for each part the other empty points fall into (the opponent's stones
    dividing them: two parts are two eyes) and 8 more if it puts an opponent chain in
    atari (the intruder is then captured, not left to connect the parts), 4 if it
    touches ``last`` (the answer blocks where the opponent pushed in), and 1 a
    neighbour among the other empty points.  The best playable point that is no
    self-atari is the answer (ties drawn at random) when it scores 16 or more, or when it
    alone scores 10 or more: the vital point of a shape that does not split.  NONE when
    the space is too big or open, holds fewer than two empty points, or has no such
    point.  ``buf`` holds the space (int32 scratch, at least ``EYE_SPACE_MAX`` entries)."""
    other = 3 - color
    if s[BOARD, last] != other:
        return NONE
    n = enclosed_space(s, w, np.int64(last), np.int64(other), color, np.int64(EYE_SPACE_MAX), buf)
    if n < 0:
        return NONE
    empty = 0
    for j in range(n):
        if s[BOARD, buf[j]] == EMPTY:
            empty |= 1 << j
    if empty & (empty - 1) == 0:    # fewer than two empty points
        return NONE
    best = NONE
    top = -1
    ties = 0
    for j in range(n):
        if not empty >> j & 1:
            continue
        p = buf[j]
        rest = empty & ~(1 << j)
        links = 0
        for k in range(n):
            if rest >> k & 1 and _touch(p, buf[k], w):
                links += 1
        score = (8 * (_parts(buf, n, w, rest) + makes_atari(s, w, p, color))
                 + 4 * _touch(p, last, w) + links)
        if score < top or not _playable_called(s, meta, w, np.int64(p), color) or is_self_atari(
                s, w, np.int64(p), color, 1.0):
            continue
        if score > top:
            best, top, ties = p, score, 1
        else:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = p
    if top >= 16 or (top >= 10 and ties == 1):
        return best
    return NONE


@njit(cache=True)
def heavy_move(s, meta, rng, color, pat, par, buf, lad, reads):
    """The heavy policy (module docstring); ``buf`` is int32 scratch of P (at least 16)
    entries, ``lad`` a ladder scratch (``go_ladder.new_ladder``) or None.  ``reads`` None
    leaves the eye-space steps (nakade, eye reply, own space) out of the compiled policy,
    whatever ``par`` says: a file that turns none of them on (``reads_eye_spaces``) plays
    the same moves without compiling them (10 s of the 52 s a cold 9x9 search spent
    compiling); any other value lets ``par`` decide."""
    w = meta[M_SIZE] + 2
    last = meta[M_LAST]
    sa_stones = par[SELFATARI_STONES]
    if last >= 0:
        # the test on the probability first: at 0 no random number is drawn, so the
        # playouts of a file without the step are the ones they were before it
        if reads is not None:
            if par[P_NAKADE] > 0.0 and rand_unit(rng) < par[P_NAKADE]:
                p = nakade_move(s, meta, w, last, color, buf)
                if p != NONE:
                    return p
        if rand_unit(rng) < par[P_ATARI]:
            n = atari_moves(s, meta, w, last, color, buf, lad, int(par[LADDER_NODES]))
            if n > 0:
                return buf[rand_below(rng, n)]
        own_last = meta[M_LAST2]
        if own_last >= 0 and par[P_CAPTURE2] > 0.0 and rand_unit(rng) < par[P_CAPTURE2]:
            p = capture_move(s, meta, rng, w, own_last, color, buf)
            if p != NONE:
                return p
        if par[P_TWO_LIBS] > 0.0 and rand_unit(rng) < par[P_TWO_LIBS]:
            p = _two_lib_move(s, meta, rng, w, last, color, buf)
            if p != NONE:
                return p
        if reads is not None:
            if par[P_EYE_REPLY] > 0.0 and rand_unit(rng) < par[P_EYE_REPLY]:
                p = eye_reply_move(s, meta, rng, w, last, color, buf)
                if p != NONE:
                    return p
        if rand_unit(rng) < par[P_PATTERN]:
            last2 = meta[M_LAST2] if par[PATTERN2] > 0.0 else NONE
            p = pattern_move(s, meta, rng, w, last, last2, color, pat, sa_stones, buf)
            if p != NONE:
                return p
    return _uniform_move(s, meta, rng, color, par[P_SELFATARI], sa_stones,
                         par[SELFATARI_NAKADE] > 0.0, par[P_OWN_SPACE], buf, reads)


def reads_eye_spaces(par: np.ndarray) -> bool:
    """Whether the heavy policy's parameters turn on an eye-space step."""
    return bool(par[P_NAKADE] > 0.0 or par[P_EYE_REPLY] > 0.0 or par[P_OWN_SPACE] > 0.0)
