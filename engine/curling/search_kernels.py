"""The curling searches, compiled: the thesis's state-abstraction tree for curling
(Algorithm 8, and Algorithm 6's per-action threshold), its candidate root shots
(Algorithm 9), and flat Monte Carlo, all in one resumable decision kernel (``search``,
then ``chosen``), so that a decision stops at a number of playouts or at a time limit
checked between calls.

One decision, from the true position at shot ``t0`` of an end:

1. Candidates (Algorithm 9): every open root action is delivered *without noise*, then
   played out below (``c_limit`` rounds in a shuffled order); the ``n_cand`` best by
   mean become the root's arms.
2. The rest of the budget (playouts or time): UCB1 (C) over the candidates, each
   delivered *with* the rules' noise, then played out below; the most visited candidate
   is the decision.  A time limit may cut the candidate round: the candidates are then
   the best of the actions tried.

Below the root, ``mode`` chooses the shots of a simulation down to the end's last stone:
``RANDOM`` (flat Monte Carlo: uniform over the open actions), ``TREE`` (Algorithm 8) or
``TREE_NSA`` (Algorithm 6's threshold).  A simulation's value is the game-winning chance
of the end's score (``end_value``, from ``winprob``), seen by the shooter at each shot.

The tree (one per shot number, as ``engine.mdp``'s tree has one per time step): a box
covers a product of intervals over the coordinates of the stones already thrown (an
absent stone sits at the lower corner, so absence is a place like any other); a box at
depth d passes simulations to its sub-boxes once visited th(d) = 1.3^d times, and a
sub-box halves every coordinate at once, so the child of a state is found by one bit
per coordinate, in a hash keyed by (box, bits).  A state's statistics mix its path's
boxes with w(d) = (d+1)^4; the mixed total maps through f(n) = n^0.4 (eqs. 5.1-5.3).
An action a box has not tried counts ``n_new`` virtual visits (Algorithm 8's N_new), and
trying it there starts it at those visits.  As the thesis prints it (``at_mean`` 0),
the untried action adds the box's mean R_s / N_s once to its reward sum, whatever the
weight of the box, and its first try there starts it at N_new visits worth 0 and adds
N_new to the box's count: new actions look worse the deeper the box, so the choice keeps
to actions that have paid.  ``at_mean`` 1 is the reading this project played first: the
virtual visits are worth the box's mean at every depth, and the first try starts from
them.  ``n_policy`` virtual visits per action add to the exploration total.  In ``TREE_NSA`` an action's
statistics stop mixing at the first box on the path where it has fewer than th(d)
visits (N_{s,a} as the threshold, Algorithm 6), and it records only where it mixed.

``cfg`` = (C at the root, max depth, n_new, n_policy, c_limit, n_cand, mode, at_mean,
C below the root, the power of w(d), 1 for the short list of actions below the root,
1 for a tree of its own below each candidate: root boxes 16 (j + 1) onwards for
candidate j, the noise-free round's at 0).
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_below
from ..mdp.kernels import ucb_choice
from .shots import action_delivery, deliver, end_score, legal_actions, short_actions
from .sheet import SHEET_WIDTH, STONES

RANDOM, TREE, TREE_NSA = 0, 1, 2
LO = np.array([-SHEET_WIDTH / 2, 32.0])
SPAN = np.array([SHEET_WIDTH, 8.5])


@njit(cache=True)
def weight(depth, power=4.0):
    return (depth + 1.0) ** power


@njit(cache=True)
def threshold(depth):
    return 1.3 ** depth


@njit(cache=True)
def count_transform(n):
    return n ** 0.4


def new_tree(capacity: int, k: int, roots: int = STONES):
    """(box_n, box_r, lo, stats, keys, vals, used): room for ``capacity`` boxes, the
    first ``roots`` the root boxes (16 per tree: shots 0..15; lo = the sheet's corner)."""
    capacity = max(capacity, roots)
    size = 1 << max(10, int(2 * capacity).bit_length())
    lo = np.zeros((capacity, 2 * STONES))
    lo[:, 0::2], lo[:, 1::2] = LO[0], LO[1]
    used = np.array([roots], np.int64)
    return (np.zeros(capacity), np.zeros(capacity), lo, np.zeros((capacity, 2, k)),
            np.full(size, -1, np.int64), np.zeros(size, np.int64), used)


@njit(cache=True)
def _slot(key, mask):
    return (key * np.int64(-7046029254386353131)) >> np.int64(20) & mask


def grown(tree, capacity: int):
    """``tree`` with room for ``capacity`` boxes (never less than it holds), its boxes
    and their hash carried over."""
    box_n, box_r, lo, stats, keys, vals, used = tree
    if capacity <= box_n.shape[0]:
        return tree
    new = new_tree(capacity, stats.shape[2])
    n = int(used[0])
    for old, fresh in zip(tree[:4], new[:4]):
        fresh[:n] = old[:n]
    new[6][0] = n
    _rehash(keys, vals, new[4], new[5])
    return new


@njit(cache=True)
def _rehash(keys, vals, new_keys, new_vals):
    mask = new_keys.shape[0] - 1
    for i in range(keys.shape[0]):
        if keys[i] == -1:
            continue
        h = _slot(keys[i], mask)
        while new_keys[h] != -1:
            h = (h + 1) & mask
        new_keys[h], new_vals[h] = keys[i], vals[i]


@njit(cache=True)
def _child(tree, box, depth, t, pos, alive):
    box_n, box_r, lo, stats, keys, vals, used = tree
    code = np.int64(0)
    for k in range(t):
        for c in range(2):
            v = pos[k, c] if alive[k] else LO[c]
            if v >= lo[box, 2 * k + c] + SPAN[c] / 2.0 ** (depth + 1):
                code |= np.int64(1) << np.int64(2 * k + c)
    key = box * (np.int64(1) << np.int64(33)) + code
    mask = keys.shape[0] - 1
    h = _slot(key, mask)
    while keys[h] != -1:
        if keys[h] == key:
            return vals[h]
        h = (h + 1) & mask
    child = used[0]
    if child >= box_n.shape[0]:
        return -1
    used[0] += 1
    keys[h], vals[h] = key, child
    box_n[child], box_r[child] = 0.0, 0.0
    stats[child] = 0.0
    for k in range(t):
        for c in range(2):
            half = SPAN[c] / 2.0 ** (depth + 1)
            lo[child, 2 * k + c] = lo[box, 2 * k + c] + (half if code >> (2 * k + c) & 1 else 0.0)
    return child


@njit(cache=True)
def open_below(targets, alive, acts, short):
    """The actions a simulation may take below the root: every open one, or the short
    list (``shots.short_actions``)."""
    return short_actions(targets, alive, acts) if short else legal_actions(
        targets.shape[0], alive, acts)


@njit(cache=True)
def _random_rollout(table, targets, extras, pos, alive, t, acts, rng, trace, short):
    while t < STONES:
        m = open_below(targets, alive, acts, short)
        a = acts[rand_below(rng, m)]
        vx, vy, spin = action_delivery(table, targets, extras, pos, a)
        deliver(table, pos, alive, t, vx, vy, spin, True, rng, trace)
        t += 1


@njit(cache=True)
def below(cfg, table, targets, extras, end_value, pos, alive, t, tree, rng, root=0):
    """Play the end out from shot ``t`` (``pos``/``alive`` change); the hammer team's
    value of the result.  Tree modes record the simulation in the tree whose root boxes
    start at ``root``."""
    mode = int(cfg[6])
    k_all = tree[3].shape[2]
    acts = np.empty(k_all, np.int64)
    trace = np.zeros((0, 3))
    short = cfg[10] > 0
    if mode == RANDOM or t >= STONES:
        _random_rollout(table, targets, extras, pos, alive, t, acts, rng, trace, short)
        return end_value[end_score(pos, alive) + 8]
    box_n, box_r, lo, stats, keys, vals, used = tree
    c, max_depth, n_new, n_policy = cfg[8], int(cfg[1]), cfg[2], cfg[3]
    at_mean = cfg[7] > 0
    w_power = cfg[9]
    steps = STONES - t
    path = np.empty((steps, max_depth + 1), np.int64)
    depth_of = np.empty(steps, np.int64)
    mix_of = np.empty(steps, np.int64)
    chosen = np.empty(steps, np.int64)
    n = np.empty(k_all)
    r = np.empty(k_all)
    scores = np.empty(k_all)
    open_ = np.empty(k_all, np.bool_)
    t0 = t
    while t < STONES:
        s = t - t0
        m = open_below(targets, alive, acts, short)
        n[:m] = 0.0
        r[:m] = 0.0
        open_[:m] = True
        box, depth = root + t, 0
        while True:
            path[s, depth] = box
            w = weight(depth, w_power)
            mean = box_r[box] / box_n[box] if box_n[box] > 0 else 0.5
            any_open = False
            for j in range(m):
                if not open_[j]:
                    continue
                a = acts[j]
                if stats[box, 0, a] > 0:
                    n[j] += w * stats[box, 0, a]
                    r[j] += w * stats[box, 1, a]
                elif box_n[box] > 0:
                    n[j] += w * n_new
                    r[j] += w * n_new * mean if at_mean else mean
                if mode == TREE_NSA and stats[box, 0, a] < threshold(depth):
                    open_[j] = False
                any_open |= open_[j]
            split = any_open if mode == TREE_NSA else box_n[box] >= threshold(depth)
            if not split or depth >= max_depth:
                break
            nxt = _child(tree, box, depth, t, pos, alive)
            if nxt < 0:
                break
            box = nxt
            depth += 1
        depth_of[s] = depth + 1
        n_sum = 0.0
        for j in range(m):
            n_sum += n[j]
        scale = count_transform(n_sum) / n_sum if n_sum > 0 else 1.0
        log_n = math.log(max(n_sum * scale + n_policy * m, 1.0))
        j = ucb_choice(n[:m], r[:m], c, log_n, scale, scores[:m], rng)
        a = acts[j]
        chosen[s] = a
        mix_of[s] = depth + 1
        if mode == TREE_NSA:
            # the boxes where a mixed: up to the first where it was closed (inclusive)
            mix_of[s] = 1
            for d in range(depth):
                if stats[path[s, d], 0, a] < threshold(d):
                    break
                mix_of[s] = d + 2
        vx, vy, spin = action_delivery(table, targets, extras, pos, a)
        deliver(table, pos, alive, t, vx, vy, spin, True, rng, trace)
        t += 1
    value = end_value[end_score(pos, alive) + 8]
    for s in range(steps):
        mine = value if (t0 + s) % 2 == 1 else 1.0 - value
        a = chosen[s]
        for d in range(depth_of[s]):
            b = path[s, d]
            if d < mix_of[s]:
                if stats[b, 0, a] == 0.0:
                    mean = box_r[b] / box_n[b] if box_n[b] > 0 else 0.5
                    stats[b, 0, a] = n_new
                    stats[b, 1, a] = n_new * mean if at_mean else 0.0
                    if not at_mean:
                        box_n[b] += n_new
                stats[b, 0, a] += 1.0
                stats[b, 1, a] += mine
            box_n[b] += 1.0
            box_r[b] += mine
    return value


@njit(cache=True)
def _sample(cfg, shot_set, end_value, pos, alive, t0, tree, rng, action, noisy, mine, root=0):
    """Root shot ``action`` (with the execution noise or without), then the rest of the
    shots below it (``below``, in the tree rooted at ``root``): the value for the root's
    player (``mine``)."""
    table, targets, extras = shot_set
    p, al = pos.copy(), alive.copy()
    vx, vy, spin = action_delivery(table, targets, extras, p, action)
    deliver(table, p, al, t0, vx, vy, spin, noisy, rng, np.zeros((0, 3)))
    v = below(cfg, table, targets, extras, end_value, p, al, t0 + 1, tree, rng, root)
    return v if mine else 1.0 - v


@njit(cache=True)
def search(cfg, shot_set, end_value, pos, alive, t0, stop, tree, rng, out):
    """Advance one decision at shot ``t0`` until ``stop`` playouts in all (the candidate
    round included); ``shot_set`` = (table, draw targets, hit extras).  Resumable:
    ``out`` = (cand, cand_n, cand_r, pre_n, pre_r, order, progress) carries the search
    between calls, ``progress`` = (playouts, open actions, candidates kept) starting at
    zeros; a first call with ``stop`` = 0 only lists the open actions.  Fills the
    candidates with their root visits and value sums and every root action's noise-free
    evaluation (by action); returns the playouts so far."""
    table, targets, extras = shot_set
    cand, cand_n, cand_r, pre_n, pre_r, order, progress = out
    c, c_limit = cfg[0], int(cfg[4])
    if progress[1] == 0:
        progress[1] = legal_actions(targets.shape[0], alive, order)
        pre_n[:] = 0.0
        pre_r[:] = 0.0
    used, m = progress[0], progress[1]
    mine = 1 if t0 % 2 == 1 else 0
    while used < c_limit * m and used < stop:
        if used % m == 0:                       # each round in a fresh shuffled order
            for j in range(m - 1, 0, -1):
                i = rand_below(rng, j + 1)
                order[i], order[j] = order[j], order[i]
        a = order[used % m]
        pre_n[a] += 1.0
        pre_r[a] += _sample(cfg, shot_set, end_value, pos, alive, t0, tree, rng, a, False,
                            mine)
        used += 1
    progress[0] = used
    if used < c_limit * m or used >= stop:
        return used
    k = keep_candidates(cfg, out)
    per_candidate = cfg[11] > 0
    scores = np.empty(k)
    while used < stop:
        total = cand_n[:k].sum()
        j = ucb_choice(cand_n[:k], cand_r[:k], c, math.log(max(total, 1.0)), 1.0, scores, rng)
        cand_n[j] += 1.0
        cand_r[j] += _sample(cfg, shot_set, end_value, pos, alive, t0, tree, rng, cand[j],
                             True, mine, STONES * (j + 1) if per_candidate else 0)
        used += 1
    progress[0] = used
    return used


@njit(cache=True)
def keep_candidates(cfg, out):
    """Algorithm 9's candidates, once: the ``n_cand`` tried actions of best noise-free
    mean (fewer when a time limit cut the round); returns how many."""
    cand, cand_n, cand_r, pre_n, pre_r, order, progress = out
    if progress[2] > 0:
        return progress[2]
    means = np.full(pre_n.shape[0], -1.0)
    tried = 0
    for a in range(pre_n.shape[0]):
        if pre_n[a] > 0:
            means[a] = pre_r[a] / pre_n[a]
            tried += 1
    k = min(int(cfg[5]), tried)
    ranked = np.argsort(-means)
    for j in range(k):
        cand[j] = ranked[j]
    cand_n[:k] = 0.0
    cand_r[:k] = 0.0
    progress[2] = k
    return k


@njit(cache=True)
def chosen(cfg, out):
    """The decision: the most visited candidate (ties to the better mean; with no noisy
    playouts, the best noise-free action)."""
    cand, cand_n, cand_r = out[0], out[1], out[2]
    k = keep_candidates(cfg, out)
    best = 0
    for j in range(1, k):
        if (cand_n[j] > cand_n[best] or cand_n[j] == cand_n[best]
                and cand_r[j] / max(cand_n[j], 1.0) > cand_r[best] / max(cand_n[best], 1.0)):
            best = j
    return cand[best]
