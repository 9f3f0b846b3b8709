"""Compiled SHOT (Sequential Halving applied to Trees; ALGORITHMS.md section 3) over the
node pool of ``engine.search.tree``, following the pseudo-code there line by line.

SHOT(node, budget) returns (playouts used, reward summed for black) and adds them to the
node's statistics; ``SPENT`` is the node's ``budget_used_before``, so a node revisited with
a larger budget continues from its earlier counts.  The recursion runs on an explicit stack
of call frames (numba's cached recursive functions crash when loaded back from the cache),
one level per depth, each with its scratch position: a child's position is its parent's
plus the child's move, written to the next level before the call.

Interpretations the pseudo-code leaves open:
* a leaf (budget 1) and a node that cannot grow -- the pool is full, or the depth reaches
  the scratch stack -- run their whole budget as playouts from that node;
* a terminal node counts the whole budget as playouts of its known result;
* ties between equal means keep the block order (random, from the seed); a child not
  visited yet (only when the budget ran out) sorts last;
* the root's choice (``T_CHOICE``) is the first of S after the last halving.
Early stop: ``abort[0] != 0`` (set by another thread: stop event, deadline) or
``max_sim`` simulated moves end the search at the next playout; every node then keeps the
statistics of the playouts it did get.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..core import game
from ..core.layout import BLACK, M_MOVES, M_TO_PLAY
from .tree import FIRST, MOVE, NCHILD, SPENT, T_CHOICE, VISITS, WINS, expand

PLAYOUTS, SIM_MOVES = range(2)   # entries of the counters array
# a call frame: the node, its budget, playouts used so far, where it is in the
# pseudo-code (phase), a loop index, |S|, the running share b and ceil(log2 #children)
F_NODE, F_BUDGET, F_USED, F_PHASE, F_IDX, F_NS, F_B, F_LOG2K = range(8)
N_FRAME = 8
# phases: entered; waiting on its only child; giving unvisited children one playout;
# starting a halving round; inside a round
P_START, P_SINGLE, P_UNVISITED, P_ROUND_START, P_ROUND = range(5)

# Work arrays, one level per depth: the positions (stack_s, stack_meta), ``order``
# int32[levels, P + 1] for the sets S, ``frames`` int64[levels, N_FRAME] and ``fblack``
# float64[levels] for the call frames; cand int32[P + 1] for expansions
ShotScratch = namedtuple("ShotScratch", "stack_s stack_meta order frames fblack cand")


@njit(cache=True, nogil=True)
def _black_reward(winner):
    return 1.0 if winner == BLACK else 0.5 if winner == 0 else 0.0


@njit(cache=True, nogil=True)
def _stopped(abort, counters, max_sim):
    return abort[0] != 0 or counters[SIM_MOVES] >= max_sim


@njit(cache=True, nogil=True)
def _record(ti, tf, node, mover, used, black):
    ti[VISITS, node] += used
    tf[WINS, node] += black if mover == BLACK else used - black


@njit(cache=True, nogil=True)
def _leaf(tree, node, depth, budget, scratch, pos, know, rng, amaf, abort, counters,
          max_sim):
    """``budget`` playouts from the node's position (stack level ``depth``).  The last one
    plays out that level in place: the caller rewrites it before its next call."""
    stack_s, stack_meta = scratch.stack_s, scratch.stack_meta
    meta = stack_meta[depth]
    mover = 3 - meta[M_TO_PLAY]
    used = 0
    black = 0.0
    while used < budget and not _stopped(abort, counters, max_sim):
        if used == budget - 1:
            ps = stack_s[depth]
            pmeta = meta
        else:
            ps = stack_s[depth + 1]
            pmeta = stack_meta[depth + 1]
            game.copy_state(pos.game, stack_s[depth], meta, ps, pmeta)
        start = pmeta[M_MOVES]
        black += _black_reward(game.policy_playout_winner(pos.game, ps, pmeta, pos.zob, rng,
                                                          pos.komi, amaf, know.pat,
                                                          know.policy))
        counters[SIM_MOVES] += pmeta[M_MOVES] - start
        used += 1
    counters[PLAYOUTS] += used
    _record(tree.ti, tree.tf, node, mover, used, black)
    return used, black


@njit(cache=True, nogil=True)
def _enter(ti, child, depth, g, stack_s, stack_meta, zob, counters):
    """Write the child's position to stack level depth + 1."""
    game.copy_state(g, stack_s[depth], stack_meta[depth], stack_s[depth + 1],
                    stack_meta[depth + 1])
    meta = stack_meta[depth + 1]
    game.play(g, stack_s[depth + 1], meta, zob, ti[MOVE, child], meta[M_TO_PLAY])
    counters[SIM_MOVES] += 1


@njit(cache=True, nogil=True)
def _sort_by_mean(ti, tf, order, ns):
    """Sort order[:ns] by mean reward, best first, stably; unvisited children last."""
    keys = np.empty(ns)
    for j in range(ns):
        c = order[j]
        n = ti[VISITS, c]
        keys[j] = -tf[WINS, c] / n if n > 0 else 1.0
    idx = np.argsort(keys, kind="mergesort")
    sorted_nodes = order[:ns][idx]
    order[:ns] = sorted_nodes


@njit(cache=True, nogil=True)
def _finish(ti, tf, tmeta, frame, black, depth, order, mover):
    """End an expanded node's call: SPENT and the node's statistics; the root's choice."""
    node = frame[F_NODE]
    if depth == 0:
        tmeta[T_CHOICE] = ti[FIRST, node] if ti[NCHILD, node] == 1 else order[0, 0]
    ti[SPENT, node] += frame[F_USED]
    _record(ti, tf, node, mover, frame[F_USED], black)


@njit(cache=True, nogil=True)
def shot(tree, pos, scratch, know, rng, budget, abort, counters, max_sim):
    """SHOT(root, budget) with the root's position at stack level 0 of ``scratch``
    (``ShotScratch``; the root is node 0, already expanded); ``pos`` gives the Zobrist table
    and the komi, ``know`` the playout policy (``bundles.Knowledge``).  Returns (playouts
    used, reward summed for black)."""
    ti, tf, tmeta = tree.ti, tree.tf, tree.tmeta
    stack_s, stack_meta, order = scratch.stack_s, scratch.stack_meta, scratch.order
    frames, fblack, cand = scratch.frames, scratch.fblack, scratch.cand
    g, zob, komi = pos.game, pos.zob, pos.komi
    no_amaf = np.zeros(0, dtype=np.int8)
    no_filter = np.zeros(0, dtype=np.uint8)
    levels = stack_s.shape[0]
    depth = 0
    frames[0, F_NODE] = 0
    frames[0, F_BUDGET] = budget
    frames[0, F_USED] = 0
    frames[0, F_PHASE] = P_START
    fblack[0] = 0.0
    while True:
        f = frames[depth]
        node = f[F_NODE]
        bud = f[F_BUDGET]
        s = stack_s[depth]
        meta = stack_meta[depth]
        mover = 3 - meta[M_TO_PLAY]
        first = ti[FIRST, node]
        nch = ti[NCHILD, node]
        sset = order[depth]
        phase = f[F_PHASE]
        child = -1
        child_budget = 0
        done = False
        if phase == P_START:
            if game.is_terminal(g, s, meta):
                black = bud * _black_reward(game.terminal_winner(g, s, meta, komi))
                counters[PLAYOUTS] += bud
                _record(ti, tf, node, mover, bud, black)
                f[F_USED] = bud
                fblack[depth] = black
                done = True
            elif bud == 1 or depth + 2 >= levels or (
                    nch == 0 and expand(ti, tf, tmeta, node, g, s, meta, rng, cand,
                                        no_filter) <= 0):
                used, black = _leaf(tree, node, depth, bud, scratch, pos, know, rng,
                                    no_amaf, abort, counters, max_sim)
                f[F_USED] = used
                fblack[depth] = black
                done = True
            elif ti[NCHILD, node] == 1:
                f[F_PHASE] = P_SINGLE
                child = ti[FIRST, node]
                child_budget = bud
            else:
                f[F_PHASE] = P_UNVISITED
                f[F_IDX] = 0
        elif phase == P_SINGLE:
            _finish(ti, tf, tmeta, f, fblack[depth], depth, order, mover)
            done = True
        elif phase == P_UNVISITED:
            while f[F_IDX] < nch and f[F_USED] < bud and not _stopped(abort, counters,
                                                                        max_sim):
                c = first + f[F_IDX]
                f[F_IDX] += 1
                if ti[VISITS, c] == 0:
                    child = c
                    child_budget = 1
                    break
            if child < 0:
                for j in range(nch):
                    sset[j] = first + j
                _sort_by_mean(ti, tf, sset, nch)
                log2k = 0
                while (1 << log2k) < nch:
                    log2k += 1
                f[F_NS] = nch
                f[F_B] = 0
                f[F_LOG2K] = log2k
                f[F_PHASE] = P_ROUND_START
        elif phase == P_ROUND_START:
            ns = f[F_NS]
            if ns > 1 and f[F_USED] < bud and not _stopped(abort, counters, max_sim):
                f[F_B] += max(1, (ti[SPENT, node] + bud) // (ns * f[F_LOG2K]))
                f[F_IDX] = 0
                f[F_PHASE] = P_ROUND
            else:
                _finish(ti, tf, tmeta, f, fblack[depth], depth, order, mover)
                done = True
        else:  # P_ROUND: offer the next child of S that is short of b its share
            ns = f[F_NS]
            b = f[F_B]
            used = f[F_USED]
            if used < bud and not _stopped(abort, counters, max_sim):
                while f[F_IDX] < ns:
                    j = f[F_IDX]
                    f[F_IDX] += 1
                    c = sset[j]
                    if ti[VISITS, c] < b:
                        b1 = b - ti[VISITS, c]
                        if depth == 0 and ns == 2 and j == 0:
                            b1 = max(b1, bud - used - (b - ti[VISITS, sset[1]]))
                        child = c
                        child_budget = min(b1, bud - used)
                        break
            if child < 0:
                _sort_by_mean(ti, tf, sset, ns)
                f[F_NS] = (ns + 1) // 2
                f[F_PHASE] = P_ROUND_START
        if child >= 0:
            _enter(ti, child, depth, g, stack_s, stack_meta, zob, counters)
            depth += 1
            frames[depth, F_NODE] = child
            frames[depth, F_BUDGET] = child_budget
            frames[depth, F_USED] = 0
            frames[depth, F_PHASE] = P_START
            fblack[depth] = 0.0
        elif done:
            if depth == 0:
                return f[F_USED], fblack[0]
            depth -= 1
            frames[depth, F_USED] += f[F_USED]
            fblack[depth] += fblack[depth + 1]
