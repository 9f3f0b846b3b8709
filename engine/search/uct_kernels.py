"""Compiled UCT iterations over the node pool of ``engine.search.tree``: selection by UCB1
(optionally mixed with RAVE), expansion after ``expand_after`` visits (with Go priors when
``prior`` is not empty), a light or heavy playout (``policy_playout_winner``), backup.
Parameters arrive as a float64 array indexed by the constants below.

Selection at a node with children, N its visits, n/q a child's visits and mean:
* plain: the first unvisited child in block order (the block is shuffled, so a random
  one), else argmax q + C sqrt(ln N / n);
* RAVE (Gelly & Silver): q is replaced by beta * q_amaf + (1 - beta) * q with
  beta = sqrt(k / (3 n + k)) once the child has AMAF data; an unvisited child with AMAF
  data scores q_amaf + C sqrt(ln N) (as if n = 1), and only children with no data at all
  are taken first.
Solver (``solver`` on, ``engine.search.solver``): a proven win is taken at once, proven
losses are skipped, and a simulation that ends inside the tree proves its leaf.
Priors: a child's virtual games count in n and its virtual wins in q (n = visits +
PRIOR_N), for the mean, RAVE's beta and the exploration term alike; the parent's ln N
counts real visits.

AMAF backup: walking up from the leaf, each node's children whose point was first played
by the side to move at that node, in the rest of the simulation (tree moves below the node
and the playout), get that side's reward.
"""

import numpy as np
from numba import njit

from ..core import game
from ..core.layout import GAME_GO, M_GAME, M_MOVES, M_TO_PLAY, PASS
from .go_priors import apply_priors
from .solver import prove_leaf
from .tree import (AMAF_N, AMAF_W, FIRST, LOSS, MOVE, NCHILD, PRIOR_N, PRIOR_W, PROVEN, VISITS,
                   WIN, WINS, expand)

C, EXPAND_AFTER, RAVE, RAVE_K, SA_STONES, SOLVER = range(6)
N_PARAMS = 6


@njit(cache=True, nogil=True)
def select_child(ti, tf, node, c, rave, rave_k, solver):
    first = ti[FIRST, node]
    explore = c * np.sqrt(np.log(max(ti[VISITS, node], 1)))
    best = first
    best_v = -np.inf
    for i in range(first, first + ti[NCHILD, node]):
        if solver:
            if ti[PROVEN, i] == WIN:
                return i
            if ti[PROVEN, i] == LOSS:
                continue
        n = ti[VISITS, i] + ti[PRIOR_N, i]
        wins = tf[WINS, i] + tf[PRIOR_W, i]
        if rave and ti[AMAF_N, i] > 0:
            qa = tf[AMAF_W, i] / ti[AMAF_N, i]
            if n == 0:
                v = qa + explore
            else:
                beta = np.sqrt(rave_k / (3.0 * n + rave_k))
                v = beta * qa + (1.0 - beta) * (wins / n) + explore / np.sqrt(n)
        elif n == 0:
            return i
        else:
            v = wins / n + explore / np.sqrt(n)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, nogil=True)
def backup(ti, tf, path, depth, root_color, winner, rave, amaf):
    for d in range(depth, -1, -1):
        node = path[d]
        mover = root_color if d % 2 == 1 else 3 - root_color
        r = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        ti[VISITS, node] += 1
        tf[WINS, node] += r
        if rave:
            to_move = 3 - mover
            first = ti[FIRST, node]
            for i in range(first, first + ti[NCHILD, node]):
                p = ti[MOVE, i]
                if p != PASS and amaf[p] == to_move:
                    ti[AMAF_N, i] += 1
                    tf[AMAF_W, i] += 1.0 - r
            p = ti[MOVE, node]
            if d > 0 and p != PASS:
                amaf[p] = mover


@njit(cache=True, nogil=True)
def run(ti, tf, tmeta, root_s, root_meta, zob, rng, komi, params, count, max_sim,
        ss, smeta, amaf, path, cand, pat, policy, prior):
    """Up to ``count`` iterations from the root position (root_s, root_meta), stopping
    early once ``max_sim`` moves have been simulated.  The root must be expanded (and
    given its priors).  Scratch: ss/smeta like the position, amaf int8[P], path
    int32[max depth + 1], cand int32[P + 1].  Knowledge (``engine.go_knowledge``): the
    pattern table, the playout policy's parameters (empty: light playouts) and the prior
    weights (empty: no priors).  Returns (iterations done, moves simulated in tree and
    playouts)."""
    c = params[C]
    expand_after = params[EXPAND_AFTER]
    rave = params[RAVE] != 0.0
    rave_k = params[RAVE_K]
    sa_stones = params[SA_STONES]
    solver = params[SOLVER] != 0.0
    priors = prior.shape[0] > 0 and root_meta[M_GAME] == GAME_GO
    no_amaf = amaf[:0]
    no_filter = np.zeros(0, dtype=np.uint8)
    root_color = root_meta[M_TO_PLAY]
    max_depth = path.shape[0] - 1
    done = 0
    sim = 0
    while done < count and sim < max_sim and ti[PROVEN, 0] == 0:   # 0 unless the solver settled it
        game.copy_state(root_s, root_meta, ss, smeta)
        if rave:
            amaf[:] = 0
        node = 0
        depth = 0
        path[0] = 0
        while depth < max_depth and not game.is_terminal(ss, smeta):
            if ti[NCHILD, node] == 0:
                if ti[VISITS, node] < expand_after:
                    break
                if expand(ti, tf, tmeta, node, ss, smeta, rng, cand, no_filter) <= 0:
                    break
                if priors:
                    apply_priors(ti, tf, node, ss, smeta, pat, prior, sa_stones)
            node = select_child(ti, tf, node, c, rave, rave_k, solver)
            game.play(ss, smeta, zob, ti[MOVE, node], smeta[M_TO_PLAY])
            depth += 1
            path[depth] = node
        sim += depth
        if game.is_terminal(ss, smeta):
            winner = game.terminal_winner(ss, smeta, komi)
            if solver and depth > 0:
                prove_leaf(ti, path, depth, root_color if depth % 2 == 1 else 3 - root_color,
                           winner)
        else:
            start = smeta[M_MOVES]
            winner = game.policy_playout_winner(ss, smeta, zob, rng, komi,
                                                amaf if rave else no_amaf, pat, policy)
            sim += smeta[M_MOVES] - start
        backup(ti, tf, path, depth, root_color, winner, rave, amaf)
        done += 1
    return done, sim
