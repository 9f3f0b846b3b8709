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
* a terminal node counts the whole budget as playouts of its known result (and in
  ``counters[KNOWN]``: no playout ran, so it took no time);
* ties between equal means keep the block order (random, from the seed); a child not
  visited yet (only when the budget ran out) sorts last;
* the root's choice (``T_CHOICE``) is the first of S after the last halving.
Early stop: ``abort[0] != 0`` (set by another thread: stop event, deadline) or
``max_sim`` simulated moves end the search at the next playout; every node then keeps the
statistics of the playouts it did get.

Threads (``ShotSearcher``, option ``threads``): the calls SHOT makes from the root in one
phase -- one playout for each unvisited child, then a halving round's calls -- work on
disjoint subtrees, and their budgets are known before any of them runs, so they run at
once.  With ``batch`` on (``Batch``), the root's frame stops at such a phase, writes the
calls as tasks and returns; the threads run them (``run_tasks``: each task is SHOT(child,
budget) on a scratch of its own, the child's position at its level 0) and ``shot`` is
called again to take their results and go on.  A batch takes the round's calls up to the
first whose budget would depend on what the earlier ones used (the root's remaining
budget caps it), so every call gets the budget the sequential search would give it: the
same search, its playouts drawn from other random streams.  The node pool's fill is
reserved by compare-and-swap (``tree.expand``) and the counters are atomic adds; nothing
else is shared.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..core import game
from ..core.atomics import atomic_add
from ..core.layout import BLACK, M_MOVES, M_TO_PLAY
from .tree import FIRST, MOVE, NCHILD, SPENT, T_CHOICE, VISITS, WINS, expand

# entries of the counters array: budget used (playouts, as SHOT counts them), moves
# simulated, and the part of the budget that terminal nodes counted without a playout
PLAYOUTS, SIM_MOVES, KNOWN = range(3)
N_COUNTERS = 3
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

# The root's calls run by threads: ``tasks`` int64[P + 1, 2] (child, budget), their results
# ``used`` int64[P + 1] and ``black`` float64[P + 1], and ``meta`` int64[3]: batching on,
# the tasks waiting (> 0: ``shot`` returned for them to run), the next task to hand out
B_ON, B_COUNT, B_NEXT = range(3)
Batch = namedtuple("Batch", "tasks used black meta")


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
        atomic_add(counters, SIM_MOVES, pmeta[M_MOVES] - start)
        used += 1
    atomic_add(counters, PLAYOUTS, used)
    _record(tree.ti, tree.tf, node, mover, used, black)
    return used, black


@njit(cache=True, nogil=True)
def _enter(ti, child, depth, g, stack_s, stack_meta, zob, counters):
    """Write the child's position to stack level depth + 1."""
    game.copy_state(g, stack_s[depth], stack_meta[depth], stack_s[depth + 1],
                    stack_meta[depth + 1])
    meta = stack_meta[depth + 1]
    game.play(g, stack_s[depth + 1], meta, zob, ti[MOVE, child], meta[M_TO_PLAY])
    atomic_add(counters, SIM_MOVES, 1)


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
def _finish(ti, tf, tmeta, frame, black, order, mover):
    """End an expanded node's call: SPENT and the node's statistics; the root's choice."""
    node = frame[F_NODE]
    if node == 0:   # the root (a thread's task starts at depth 0 on a child)
        tmeta[T_CHOICE] = ti[FIRST, node] if ti[NCHILD, node] == 1 else order[0, 0]
    ti[SPENT, node] += frame[F_USED]
    _record(ti, tf, node, mover, frame[F_USED], black)


@njit(cache=True, nogil=True)
def _batch_unvisited(ti, f, first, nch, bud, tasks):
    """The root's calls of one playout to each unvisited child, as tasks; their count."""
    n = 0
    while f[F_IDX] < nch and f[F_USED] + n < bud:
        c = first + f[F_IDX]
        f[F_IDX] += 1
        if ti[VISITS, c] == 0:
            tasks[n, 0] = c
            tasks[n, 1] = 1
            n += 1
    return n


@njit(cache=True, nogil=True)
def _batch_round(ti, f, sset, bud, tasks):
    """The root's next calls of a halving round, as tasks, up to the first whose budget
    the root's remaining budget would cap (it waits for the batch's actual use); their
    count."""
    ns = f[F_NS]
    b = f[F_B]
    used = f[F_USED]   # as if each call of the batch used all its budget
    n = 0
    while f[F_IDX] < ns and used < bud:
        j = f[F_IDX]
        c = sset[j]
        if ti[VISITS, c] < b:
            b1 = b - ti[VISITS, c]
            if ns == 2 and j == 0:
                b1 = max(b1, bud - used - (b - ti[VISITS, sset[1]]))
            if n > 0 and b1 > bud - used:
                break
            tasks[n, 0] = c
            tasks[n, 1] = min(b1, bud - used)
            used += tasks[n, 1]
            n += 1
        f[F_IDX] += 1
    return n


@njit(cache=True, nogil=True)
def shot(tree, pos, scratch, know, rng, node, budget, abort, counters, max_sim, batch):
    """SHOT(node, budget) with the node's position at stack level 0 of ``scratch``
    (``ShotScratch``; the node already expanded when it is the root, node 0); ``pos`` gives
    the Zobrist table and the komi, ``know`` the playout policy (``bundles.Knowledge``).
    Returns (playouts used, reward summed for black).  With ``batch.meta[B_ON]`` the
    root's calls are left to threads (module docstring): a return with
    ``batch.meta[B_COUNT] > 0`` asks for them, and the next call goes on from there."""
    ti, tf, tmeta = tree.ti, tree.tf, tree.tmeta
    stack_s, stack_meta, order = scratch.stack_s, scratch.stack_meta, scratch.order
    frames, fblack, cand = scratch.frames, scratch.fblack, scratch.cand
    g, zob, komi = pos.game, pos.zob, pos.komi
    no_amaf = np.zeros(0, dtype=np.int32)
    no_filter = np.zeros(0, dtype=np.uint8)
    levels = stack_s.shape[0]
    batching = batch.meta[B_ON] != 0
    # typed int64 from the start: the literal 0 would compile _leaf and _enter twice
    depth = np.int64(0)
    if batch.meta[B_COUNT] > 0:   # the threads ran the tasks: their results to the root
        for i in range(batch.meta[B_COUNT]):
            frames[0, F_USED] += batch.used[i]
            fblack[0] += batch.black[i]
        batch.meta[B_COUNT] = 0
    else:
        frames[0, F_NODE] = node
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
                atomic_add(counters, PLAYOUTS, bud)
                atomic_add(counters, KNOWN, bud)
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
            _finish(ti, tf, tmeta, f, fblack[depth], order, mover)
            done = True
        elif phase == P_UNVISITED:
            if depth == 0 and batching and not _stopped(abort, counters, max_sim):
                batch.meta[B_COUNT] = _batch_unvisited(ti, f, first, nch, bud, batch.tasks)
                if batch.meta[B_COUNT] > 0:
                    batch.meta[B_NEXT] = 0
                    return -1, 0.0
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
                _sort_by_mean(ti, tf, sset, np.int64(nch))   # int64 as ns below: one compile
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
                _finish(ti, tf, tmeta, f, fblack[depth], order, mover)
                done = True
        else:  # P_ROUND: offer the next child of S that is short of b its share
            ns = f[F_NS]
            b = f[F_B]
            used = f[F_USED]
            open_round = used < bud and not _stopped(abort, counters, max_sim)
            if open_round and depth == 0 and batching:
                batch.meta[B_COUNT] = _batch_round(ti, f, sset, bud, batch.tasks)
                if batch.meta[B_COUNT] > 0:
                    batch.meta[B_NEXT] = 0
                    return -1, 0.0
            elif open_round:
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


def new_batch(n_points: int) -> Batch:
    """A ``Batch`` with batching on, room for every child of a root on ``n_points``."""
    meta = np.zeros(3, dtype=np.int64)
    meta[B_ON] = 1
    return Batch(np.zeros((n_points + 1, 2), dtype=np.int64),
                 np.zeros(n_points + 1, dtype=np.int64), np.zeros(n_points + 1), meta)


@njit(cache=True, nogil=True)
def no_batch():
    """A ``Batch`` with batching off (a task's own SHOT, one thread's search)."""
    return Batch(np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0),
                 np.zeros(3, dtype=np.int64))


@njit(cache=True, nogil=True)
def run_tasks(tree, pos, scratch, know, rng, batch, abort, counters, max_sim):
    """One thread's share of the root's tasks in ``batch``, handed out one at a time: each
    is SHOT(child, budget) from the child's position, at level 0 of this thread's
    ``scratch``."""
    ti = tree.ti
    s0 = scratch.stack_s[0]
    m0 = scratch.stack_meta[0]
    off = no_batch()
    while True:
        i = atomic_add(batch.meta, B_NEXT, 1)
        if i >= batch.meta[B_COUNT]:
            return
        child = batch.tasks[i, 0]
        game.copy_state(pos.game, pos.s, pos.meta, s0, m0)
        game.play(pos.game, s0, m0, pos.zob, ti[MOVE, child], m0[M_TO_PLAY])
        atomic_add(counters, SIM_MOVES, 1)
        used, black = shot(tree, pos, scratch, know, rng, child, batch.tasks[i, 1], abort,
                           counters, max_sim, off)
        batch.used[i] = used
        batch.black[i] = black
