"""The Monte Carlo iteration that UCT and LinUCT share, compiled: descend the node pool
from the root by the tree policy, expanding a leaf once it has ``expand_after`` visits,
play the simulation out, back its result up; with ``solver`` on, a simulation that ends
inside the tree proves its leaf (``engine.search.solver``) and a proven root ends the
search.  A tsumego (``Position.target``) ends a simulation at the leaf once its fight is
decided (``solver.fight_winner``), and a leaf proven so is never grown; a game it plays
to the end is judged by the fight (``solver.fight_result``), not by the score.

The two back ends differ only in the tree policy, given by the type of ``params``:
``UctParams`` selects ``engine.search.uct_kernels``' hooks (UCB1, RAVE, priors, AMAF
backup), ``LinuctParams`` those of ``engine.search.linuct_kernels`` (a shared linear
model over feature rows carried down the path).  numba compiles ``run`` once per params
type, each with its own hooks chosen by type (``numba.extending.overload``), so neither
back end pays for the other's.  UCT's hooks are inlined (numba's ``inline='always'``);
LinUCT's per-node and per-simulation ones are calls compiled without reference counts
(``_inline_uct`` says why).  A hook is called with the bundles it needs
(``engine.search.bundles``):

  begin(params, model, pos, scratch)            once per call, before the iterations
  begin_descent(params, model, scratch)         at the root of each simulation
  grow(params, tree, node, scratch, pos, know, rng) -> children (<= 0: stays a leaf)
  choose(params, model, tree, node, depth, scratch) -> the child to descend into
  stepped(params, tree, node, depth, scratch)   after ``node``'s move, now at ``depth``
  observe(params, model, tree, depth, root_color, winner, scratch, rng)   the backup
"""

from numba import njit
from numba.extending import overload

from ..core import game
from ..core.atomics import atomic_add, atomic_cas, atomic_load
from ..core.layout import M_KO, M_MOVES, M_TO_PLAY
from . import linuct_kernels, uct_kernels
from .solver import (fight_result_at, fight_winner_at, has_fight, leaf_threat_proof,
                     prove_leaf)
from .tree import CLAIMED, MOVE, NCHILD, PROVEN, T_LEFT, T_SIM, T_VLOSS, VISITS, WIN
from .uct_kernels import ko_draws, playout_policy

_POLICIES = {uct_kernels.UctParams: uct_kernels, linuct_kernels.LinuctParams: linuct_kernels}


def _policy(params, name: str):
    """The hook ``name`` of the tree policy ``params`` (a numba type) belongs to."""
    return getattr(_POLICIES[params.instance_class], name)


def _inline_uct(expr, caller_info, callee_info) -> bool:
    """numba's inlining decision for the per-node and per-simulation hooks: UCT's are
    inlined into ``run``; LinUCT's are called, each compiled without reference counting
    (``_COUNT_FREE``).  Inlined, a hook rebinds the bundles it takes, and numba counts
    every array in them; the counts of a hook whose body branches around calls survive
    its pruning (LLVM merges the decrefs of the branches), some 70 atomic operations a
    node for LinUCT's ``choose``.  Called, a hook gets ``run``'s own bundles, which cost
    nothing to pass, and without counts its body is free of them too; it allocates
    nothing, so nothing needs them."""
    return callee_info.signature.args[0].instance_class is uct_kernels.UctParams


_COUNT_FREE = {"_nrt": False}


def begin(params, model, pos, scratch):
    raise NotImplementedError   # compiled code only: the overloads below


def begin_descent(params, model, scratch):
    raise NotImplementedError


def grow(params, tree, node, scratch, pos, know, rng):
    raise NotImplementedError


def choose(params, model, tree, node, depth, scratch):
    raise NotImplementedError


def stepped(params, tree, node, depth, scratch):
    raise NotImplementedError


def observe(params, model, tree, depth, root_color, winner, scratch, rng):
    raise NotImplementedError


@overload(begin, inline="always")
def _begin(params, model, pos, scratch):
    hook = _policy(params, "begin")
    return lambda params, model, pos, scratch: hook(params, model, pos, scratch)


@overload(begin_descent, inline=_inline_uct, jit_options=_COUNT_FREE)
def _begin_descent(params, model, scratch):
    hook = _policy(params, "begin_descent")
    return lambda params, model, scratch: hook(params, model, scratch)


@overload(grow, inline="always")
def _grow(params, tree, node, scratch, pos, know, rng):
    hook = _policy(params, "grow")
    return (lambda params, tree, node, scratch, pos, know, rng:
            hook(params, tree, node, scratch, pos, know, rng))


@overload(choose, inline=_inline_uct, jit_options=_COUNT_FREE)
def _choose(params, model, tree, node, depth, scratch):
    hook = _policy(params, "choose")
    return (lambda params, model, tree, node, depth, scratch:
            hook(params, model, tree, node, depth, scratch))


@overload(stepped, inline=_inline_uct, jit_options=_COUNT_FREE)
def _stepped(params, tree, node, depth, scratch):
    hook = _policy(params, "stepped")
    return lambda params, tree, node, depth, scratch: hook(params, tree, node, depth, scratch)


@overload(observe, inline=_inline_uct, jit_options=_COUNT_FREE)
def _observe(params, model, tree, depth, root_color, winner, scratch, rng):
    hook = _policy(params, "observe")
    return (lambda params, model, tree, depth, root_color, winner, scratch, rng:
            hook(params, model, tree, depth, root_color, winner, scratch, rng))


@njit(cache=True, nogil=True, inline='always')
def _arrive(ti, node, vloss):
    """``node``'s visits before this descent; on several threads the descent adds its
    virtual loss to them at once (``record`` at the backup takes it off again)."""
    if vloss != 0:
        return atomic_add(ti, (VISITS, node), vloss)
    return ti[VISITS, node]


@njit(cache=True, nogil=True)
def run(tree, pos, scratch, model, know, params, rng, count, max_sim):
    """Up to ``count`` iterations from the root position ``pos``, stopping early once
    ``max_sim`` moves have been simulated or the solver has proven the root.  The root
    must be expanded (with its priors, its deltas).  ``scratch``, ``model`` and
    ``params`` are the back end's bundles; ``know`` (``bundles.Knowledge``) gives the
    playout policy.  Returns (iterations done, moves simulated in tree and playouts).

    Several threads may run it at once on one tree (``engine.search.parallel`` says how
    and why it is safe), each with its own scratch and rng: the pool's ``T_VLOSS`` is then
    the virtual loss, the iterations are handed out from ``T_LEFT`` and the moves counted
    in ``T_SIM``, and a leaf is grown by the one thread that claims it."""
    ti = tree.ti
    tmeta = tree.tmeta
    vloss = tmeta[T_VLOSS]
    shared = vloss != 0
    ss = scratch.ss
    smeta = scratch.smeta
    path = scratch.path
    zob = pos.zob
    g = pos.game
    root_color = pos.meta[M_TO_PLAY]
    max_depth = path.shape[0] - 1
    amaf = scratch.amaf     # the playouts' AMAF record (empty: none)
    begin(params, model, pos, scratch)
    done = 0
    sim = 0
    fight = has_fight(pos.target)
    threats = params.solver and params.threat_nodes > 0
    while done < count and sim < max_sim and ti[PROVEN, 0] == 0:   # 0 unless the solver settled it
        if shared and (atomic_add(tmeta, T_LEFT, -1) <= 0
                       or atomic_load(tmeta, T_SIM) >= max_sim):
            break
        sim0 = sim
        game.copy_state(g, pos.s, pos.meta, ss, smeta)
        begin_descent(params, model, scratch)
        node = 0
        depth = 0
        path[0] = 0
        arrived = _arrive(ti, 0, vloss)
        ko_line = False     # a ko capture on the way: the leaf is not proven
        while depth < max_depth and not game.is_terminal(g, ss, smeta):
            nch = atomic_load(ti, (NCHILD, node))   # before its children's fields
            if nch <= 0:
                if nch < 0:
                    break   # another thread is growing it: a playout from here
                if ti[PROVEN, node] != 0:
                    break   # a fight settled at this leaf: nothing below to learn
                if arrived < params.expand_after:
                    break
                if shared and atomic_cas(ti, (NCHILD, node), 0, CLAIMED) != 0:
                    break   # claimed by another thread first
                k = grow(params, tree, node, scratch, pos, know, rng)
                if shared:   # publish the children, finished, or give the claim up
                    atomic_cas(ti, (NCHILD, node), -1 - k if k > 0 else CLAIMED,
                               k if k > 0 else 0)
                if k <= 0:
                    break
            node = choose(params, model, tree, node, depth, scratch)
            arrived = _arrive(ti, node, vloss)
            game.play(g, ss, smeta, zob, ti[MOVE, node], smeta[M_TO_PLAY])
            depth += 1
            path[depth] = node
            ko_line = ko_line or (fight and smeta[M_KO] >= 0)
            stepped(params, tree, node, depth, scratch)
        sim += depth
        mover = root_color if depth % 2 == 1 else 3 - root_color
        proof = params.solver and depth > 0 and not ko_line
        if depth > 0 and ti[PROVEN, node] != 0 and ti[NCHILD, node] == 0:
            winner = mover if ti[PROVEN, node] == WIN else 3 - mover
        elif game.is_terminal(g, ss, smeta):
            if fight:
                winner = fight_result_at(ss, pos.target, pos.attacker)
            else:
                winner = game.terminal_winner(g, ss, smeta, pos.komi)
            if proof:
                prove_leaf(ti, path, depth, mover, winner)
        else:
            winner = fight_winner_at(g, ss, smeta, pos.target, pos.attacker) if fight else 0
            if winner != 0:
                if proof:
                    prove_leaf(ti, path, depth, mover, winner)
            elif proof and threats and arrived == 0:
                # a leaf's threats are read once, at its first visit: the reading is the
                # same at every visit, and a leaf it leaves open gets its playouts
                value = leaf_threat_proof(g)(ti, path, depth, mover, ss, smeta,
                                             params.threat_nodes, scratch.vcf_line,
                                             scratch.points)
                if value != 0:
                    winner = mover if value == WIN else 3 - mover
            if winner == 0:
                start = smeta[M_MOVES]
                winner = game.policy_playout_winner(g, ss, smeta, zob, rng, pos.komi, amaf,
                                                    know.pat,
                                                    playout_policy(params, know.policy,
                                                                   scratch))
                sim += smeta[M_MOVES] - start
                if fight:
                    winner = fight_result_at(ss, pos.target, pos.attacker)
        if ko_line and ko_draws(params):
            winner = 0
        observe(params, model, tree, depth, root_color, winner, scratch, rng)
        if shared:
            atomic_add(tmeta, T_SIM, sim - sim0)
        done += 1
    return done, sim
