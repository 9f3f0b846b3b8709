"""Compiled UCT iterations over the node pool of ``engine.search.tree``: selection by UCB1
(optionally mixed with RAVE), expansion after ``expand_after`` visits (with Go priors when
``prior`` is not empty), a light or heavy playout (``policy_playout_winner``), backup.
Its hooks into the shared iteration (``engine.search.tree_search``) are the functions
below taking ``UctParams`` first: the descent, expansion and backup around them are
LinUCT's too.

Selection at a node with children, N its visits, n/q a child's visits and mean:
* plain: the first unvisited child in block order (the block is shuffled, so a random
  one), else argmax q + C sqrt(ln N / n);
* RAVE (Gelly & Silver): q is replaced by beta * q_amaf + (1 - beta) * q with
  beta = sqrt(k / (3 n + k)) once the child has AMAF data; an unvisited child with AMAF
  data scores q_amaf + C sqrt(ln N) (as if n = 1), and only children with no data at all
  are taken first.
Solver (``solver`` on, ``engine.search.solver``): a proven win is taken at once, proven
losses are skipped, and a simulation that ends inside the tree proves its leaf.
Widening (``widen`` > 0, ``engine.search.widening``): the children are ranked by their
priors when made, and selection looks only at the first width(N) not proven lost.
Priors: a child's virtual games count in n and its virtual wins in q (n = visits +
PRIOR_N), for the mean, RAVE's beta and the exploration term alike; the parent's ln N
counts real visits.
Minimax (``minimax`` > 0, ``engine.search.minimax``): a visited child's q is its value
with its best reply's backed up instead of its mean; the backup recomputes those values
along the path.

AMAF backup: walking up from the leaf, each node's children whose point was first played
by the side to move at that node, in the rest of the simulation (tree moves below the node
and the playout), get that side's reward; with ``rave_distance`` a play early in the
simulation counts more than one near its end.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from numba.extending import overload

from ..core import go_replies
from ..core.amaf import first_color, first_ply
from ..core.layout import M_LAST, M_MOVES, PASS
from .fight_priors import fight_priors_at
from .go_priors import prime_children
from .shape_priors import shape_priors_at
from . import minimax as mm
from .widening import ALL, rank_children, width
from .tree import (AMAF_N, AMAF_W, FIRST, LOSS, MINIMAX, MOVE, NCHILD, PRIOR_N, PRIOR_W,
                   PROVEN, T_VLOSS, VISITS, WIN, WINS, expand, record)

# Each field is the UCT option of its name (``uct.UctOptions``, where it is described), but
# sa_stones: the self-atari size the priors penalise (the knowledge file's), and
# fight_prior: 0 unless the fight is read (``uct.UctSearcher._kernel_params``)
UctParams = namedtuple("UctParams", "c expand_after rave rave_k rave_distance sa_stones solver "
                                    "threat_nodes fight_prior minimax minimax_visits ko_draw "
                                    "widen widen_after widen_rate bias shape_prior")


def ko_draws(params):
    raise NotImplementedError   # compiled code only: the overload below


@overload(ko_draws)
def _ko_draws(params):
    """Whether the shared iteration (``tree_search.run``) scores a tsumego simulation
    through a ko capture as a draw: UCT's ``ko_draw`` option, never for LinUCT.  Why: a
    tsumego's answer wins without a ko when it can, and a wrong move that the opponent
    refutes with a ko keeps a Monte Carlo value near a win (the playouts settle the ko
    at random, and a frame leaves no ko threats to decide it); at half a win each, a
    clean win outranks a ko, which outranks a clean loss."""
    if params.instance_class is UctParams:
        return lambda params: params.ko_draw
    return lambda params: False

# Work arrays of one search: the simulated position (ss, smeta), amaf int32[P] (the
# simulation's first plays, ``engine.core.amaf``; empty without RAVE, and the playouts then
# keep no record), root_ply int64[1] (the game ply of the search's root), path int32[max
# depth + 1], cand int32[P + 1]; vcf_line, points: the leaf threat proof's
# (``solver.threat_scratch``); fight_work: the fight priors'
# (``fight_priors.apply_fight_priors``); replies: the thread's last-good-reply record
# (``go_replies.Replies``), None when the playouts learn no replies; shape_work: the Gobang
# shape priors' (``shape_priors.apply_shape_priors``)
UctScratch = namedtuple("UctScratch",
                        "ss smeta amaf root_ply path cand vcf_line points fight_work "
                        "replies shape_work")


def playout_policy(params, policy, scratch):
    raise NotImplementedError   # compiled code only: the overload below


@overload(playout_policy, inline="always")
def _playout_policy(params, policy, scratch):
    """The playout policy of the shared iteration: the knowledge's ``policy``, after
    the learnt replies for UCT with a record (``go_replies``); LinUCT's as it is."""
    if params.instance_class is UctParams:
        return lambda params, policy, scratch: go_replies.with_replies(policy,
                                                                       scratch.replies)
    return lambda params, policy, scratch: policy


@njit(cache=True, nogil=True)
def select_child(ti, tf, node, c, rave, rave_k, solver, minimax=False, width=ALL):
    """The child to descend into among the first ``width`` (``widening``) that are not
    proven losses."""
    first = ti[FIRST, node]
    explore = c * np.sqrt(np.log(max(ti[VISITS, node], 1)))
    best = first
    best_v = -np.inf
    opened = 0
    for i in range(first, first + ti[NCHILD, node]):
        if solver:
            if ti[PROVEN, i] == WIN:
                return i
            if ti[PROVEN, i] == LOSS:
                continue
        if opened == width:
            break
        opened += 1
        n = ti[VISITS, i] + ti[PRIOR_N, i]
        q = 0.0
        if n > 0:
            if minimax and ti[VISITS, i] > 0:
                q = tf[MINIMAX, i]
            else:
                q = (tf[WINS, i] + tf[PRIOR_W, i]) / n
        if rave and ti[AMAF_N, i] > 0:
            qa = tf[AMAF_W, i] / ti[AMAF_N, i]
            if n == 0:
                v = qa + explore
            else:
                beta = np.sqrt(rave_k / (3.0 * n + rave_k))
                v = beta * qa + (1.0 - beta) * q + explore / np.sqrt(n)
        elif n == 0:
            return i
        else:
            v = q + explore / np.sqrt(n)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, nogil=True)
def backup(ti, tf, path, depth, root_color, winner, rave, amaf, visit=1, distance=0,
           root_ply=0, end_ply=0):
    """``tree.record`` (``visit``: its visit count), then with ``rave`` the AMAF statistics
    (plain adds: threads sharing the tree may lose one now and then, a sample less).
    ``amaf``: the simulation's record (``engine.core.amaf``), which began at game ply
    ``root_ply`` and ended at ``end_ply``.  With ``distance`` > 0 a first play counts
    ``1 + distance * (end_ply - its ply) // (plies from the node's move to the end + 1)``
    samples, so a move played early, near the node, weighs up to ``distance`` times as much
    (Pachi's ``distance_rave``)."""
    record(ti, tf, path, depth, root_color, winner, visit)
    if not rave:
        return
    for d in range(depth, -1, -1):
        node = path[d]
        mover = root_color if d % 2 == 1 else 3 - root_color
        r = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        to_move = 3 - mover
        span = end_ply - (root_ply + d) + 1     # the node's children are played at root_ply + d
        first = ti[FIRST, node]
        for i in range(first, first + ti[NCHILD, node]):
            p = ti[MOVE, i]
            if p != PASS and first_color(amaf[p]) == to_move:
                weight = 1
                if distance > 0:
                    weight += distance * (end_ply - first_ply(amaf[p])) // span
                ti[AMAF_N, i] += weight
                tf[AMAF_W, i] += weight * (1.0 - r)
        p = ti[MOVE, node]
        if d > 0 and p != PASS:
            amaf[p] = mover + 4 * (root_ply + d - 1)


# ---- hooks of the shared iteration (``tree_search``) ----------------------------------


@njit(cache=True, nogil=True, inline='always')
def begin(params, model, pos, scratch):
    scratch.root_ply[0] = pos.meta[M_MOVES]


@njit(cache=True, nogil=True, inline='always')
def begin_descent(params, model, scratch):
    if params.rave:
        scratch.amaf[:] = 0
    go_replies.begin_line(scratch.replies, scratch.smeta[M_LAST])


@njit(cache=True, nogil=True, inline='always')
def grow(params, tree, node, scratch, pos, know, rng):
    """Expand the leaf ``node`` (position in scratch) into the moves ``pos.allow`` keeps,
    giving Go children their priors (a tsumego's fight priors too), Gobang children their
    shape priors."""
    k = expand(tree.ti, tree.tf, tree.tmeta, node, pos.game, scratch.ss, scratch.smeta, rng,
               scratch.cand, pos.allow)
    if k > 0:
        prime_children(tree, node, scratch, pos, know, params.sa_stones)
        fight_priors_at(tree.ti, tree.tf, node, scratch.ss, scratch.smeta, pos.target,
                        pos.attacker, params.fight_prior, scratch.fight_work)
        shape_priors_at(pos.game)(tree.ti, tree.tf, node, scratch.ss, scratch.smeta,
                                  params.shape_prior, scratch.shape_work)
        if params.widen > 0:
            rank_children(tree.ti, tree.tf, node, params.bias)
    return k


@njit(cache=True, nogil=True, inline='always')
def choose(params, model, tree, node, depth, scratch):
    return select_child(tree.ti, tree.tf, node, params.c, params.rave, params.rave_k,
                        params.solver, params.minimax > 0.0,
                        width(params.widen, params.widen_after, params.widen_rate,
                              tree.ti[VISITS, node]))


@njit(cache=True, nogil=True, inline='always')
def stepped(params, tree, node, depth, scratch):
    go_replies.note_move(scratch.replies, tree.ti[MOVE, node])


@njit(cache=True, nogil=True, inline='always')
def observe(params, model, tree, depth, root_color, winner, scratch, rng):
    backup(tree.ti, tree.tf, scratch.path, depth, root_color, winner, params.rave,
           scratch.amaf, 1 - tree.tmeta[T_VLOSS], params.rave_distance,
           scratch.root_ply[0], scratch.smeta[M_MOVES])
    if params.minimax > 0.0:
        mm.backup(tree.ti, tree.tf, scratch.path, depth, params.minimax,
                  params.minimax_visits)
    go_replies.learn(scratch.replies, root_color, winner)
