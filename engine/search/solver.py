"""MCTS-Solver (Winands, Bjornsson and Saito 2008): game-theoretic values proven in the tree
and backed up beside the Monte Carlo statistics, so a proven win is played at once and a
proven loss is never sampled again.

``PROVEN`` (a row of the node pool, ``engine.search.tree``) holds a node's value from the
point of view of the player who made its move, like ``WINS``: ``WIN`` when that player
wins whatever follows, ``LOSS`` when they lose, 0 while unknown.  A leaf is proven when
its position is over and not drawn (a Gobang five, a Go game ended by two passes:
area score under the tree's simple-ko rules).  Upwards: a node whose children include a
``WIN`` (for the side to move there) is a ``LOSS`` for its own mover; a node all of whose
children are ``LOSS`` is a ``WIN``.  Draws are never proven.

A tsumego fight (``Position.target`` not empty) also ends at leaves inside the tree
(``fight_winner``): the attacker has won once no point of the target holds a defender
stone, the defender once a target stone is in an unconditionally alive chain (Benson,
``engine.core.go_life``); the simulation's result is then that verdict, no playout is
run, and with the solver on the leaf is proven.  A fight still open at the leaf is
judged at the end of its playout (or of a game ended in the tree) by ``fight_result``:
whether a target stone still stands, not the score, so stones outside the fight (the
defender's outside stones a problem leaves out of its target) decide nothing.  Ko: a fight whose
line from the root holds a ko capture (a move that left a ko point) is decided for the simulation
but never proven, nor is a game end reached through one, so every proof holds whatever ko threats
either side has; a result that needs a ko stays a Monte Carlo one (the harness reports
it as "ko").  The candidate moves of a Go node never fill the mover's own true eye, so
proofs are over the moves that remain.  ``fight_playouts`` counts the attacker's wins in
plain playouts judged the same way, for the tools that score the playouts alone
(``engine.tsumego.playout_reading``).

Selection with the solver on: a ``WIN`` child is taken at once; ``LOSS`` children are
skipped unless nothing else is left.  (``settle``, the upward rule, lives with the node
pool, which re-settles the root when a reused tree loses children.)

Gobang threats prove leaves before the game ends (``prove_by_threats``, for a simulation
that stops at a leaf of the tree): the side to move there wins when it has a five to play
or a win by continuous fours (``engine.core.gobang_vcf``); the player who moved wins when
it holds two winning points, or one that the side to move may not block (renju), and the
side to move has no five of its own.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..core.go_life import pass_alive
from ..core.go_playout import policy_playout
from ..core.gobang_kernels import forbids
from ..core.gobang_tactics import winning_points
from ..core.gobang_vcf import find_vcf
from ..core.game import GobangGame, GoGame, only_for
from ..core.layout import BOARD, M_N_EMPTY, M_SIZE
from .tree import LOSS, PROVEN, WIN, settle

# The most fours of a VCF line read at a leaf of the tree: its node limit (``threat_nodes``)
# is what bounds the cost, and a line longer than this is rarely found within it
TREE_VCF_DEPTH = 10


def threat_scratch(n_points: int) -> tuple[np.ndarray, np.ndarray]:
    """The work arrays of ``prove_by_threats`` for a board of ``n_points`` points: the VCF
    line (``TREE_VCF_DEPTH`` fours) and room for the empty points."""
    return (np.zeros(2 * TREE_VCF_DEPTH + 3, dtype=np.int32),
            np.empty(n_points, dtype=np.int32))


@njit(cache=True, nogil=True)
def fight_winner(s, meta, target, attacker):
    """The winner of the tsumego fight in position (s, meta): ``attacker`` when no point of
    ``target`` holds a defender stone, the defender when one of them is in an
    unconditionally alive chain, 0 while the fight is open."""
    defender = 3 - attacker
    left = 0
    for p in target:
        if s[BOARD, p] == defender:
            left += 1
    if left == 0:
        return attacker
    alive = np.empty(s.shape[1], dtype=np.int8)
    if pass_alive(s, meta[M_SIZE], defender, alive) > 0:
        for p in target:
            if alive[p] == 1:
                return defender
    return 0


@njit(cache=True, nogil=True)
def fight_result(s, target, attacker):
    """The verdict on a tsumego fight at the end of a game (a playout's, or two passes in
    the tree): the attacker wins when no point of ``target`` holds a defender stone, the
    defender when one still does -- a target stone standing at the end lived, on its own
    or in seki, whatever the rest of the board scores."""
    defender = 3 - attacker
    for p in target:
        if s[BOARD, p] == defender:
            return defender
    return attacker


@njit(cache=True)
def fight_playouts(s, meta, zob, rng, target, attacker, count, pat, par):
    """``count`` playouts of the heavy policy (``pat``, ``par``) from (s, meta); returns
    how many the attacker won."""
    won = 0
    none = np.zeros(0, dtype=np.int32)
    for _ in range(count):
        ss = s.copy()
        mm = meta.copy()
        policy_playout(ss, mm, zob, rng, none, pat, par)
        if fight_result(ss, target, attacker) == attacker:
            won += 1
    return won


@njit(cache=True, nogil=True)
def _prove(ti, path, depth, value):
    """Give ``path[depth]`` its value and settle its ancestors while they change."""
    ti[PROVEN, path[depth]] = value
    for d in range(depth - 1, -1, -1):
        if settle(ti, np.int64(path[d])) == 0:   # int64 as NodePool's call: one compile
            return


@njit(cache=True, nogil=True)
def prove_leaf(ti, path, depth, mover, winner):
    """The simulation ended in the tree, at ``path[depth]`` (whose move ``mover`` made),
    with ``winner`` (0: a draw); prove the leaf and settle its ancestors while they
    change."""
    if winner == 0:
        return
    _prove(ti, path, depth, WIN if winner == mover else LOSS)


@njit(cache=True, nogil=True)
def prove_by_threats(ti, path, depth, mover, s, meta, max_nodes, line, scratch):
    """The simulation stopped at the undecided leaf ``path[depth]`` (position s, meta;
    its move made by ``mover``): prove it when the threats of the module docstring decide
    it, within ``max_nodes`` fours tried and ``(len(line) - 3) // 2`` fours a line, and
    settle its ancestors.  ``scratch``: int32 room for the empty points.  Returns the value
    given (WIN or LOSS for ``mover``), 0 when it proves nothing.  Gobang only (see
    ``leaf_threat_proof``)."""
    if meta[M_N_EMPTY] == 0:
        return 0
    to_move = 3 - mover
    move, _, _ = find_vcf(s, meta, to_move, (line.shape[0] - 3) // 2, max_nodes, line)
    value = 0
    if move >= 0:
        value = LOSS
    else:
        k = winning_points(s, meta, mover, scratch)
        blockable = 0
        for i in range(k):
            if not forbids(s, meta, scratch[i], to_move):
                blockable += 1
        if k >= 2 or (k == 1 and blockable == 0):
            value = WIN
    if value != 0:
        # one call with a variable: each constant would compile _prove once more
        _prove(ti, path, depth, value)
    return value


# ``leaf_threat_proof(g)(...)``: ``prove_by_threats`` on Gobang;
# Go leaves are left alone (0), and a Go search never compiles the threat reading
leaf_threat_proof = only_for(GobangGame, prove_by_threats, 0)


def fight_only(kernel, otherwise):
    """For compiled code: ``f(*args)`` is ``kernel(*args)``, or the constant ``otherwise``
    where an argument is None -- ``Position.target`` of a whole game, whose search then
    never compiles ``kernel``."""
    def stub(*args):
        raise NotImplementedError   # compiled code only

    @overload(stub)
    def pick(*args):
        if any(isinstance(a, types.NoneType) for a in args):
            return lambda *args: otherwise
        return lambda *args: kernel(*args)

    return stub


def has_fight(target):
    raise NotImplementedError   # compiled code only: the overloads below


def fight_winner_at(g, s, meta, target, attacker):
    raise NotImplementedError


@overload(has_fight)
def _has_fight(target):
    """Whether a search reads a fight: ``target`` None (a whole game) compiles no fight."""
    if isinstance(target, types.NoneType):
        return lambda target: False
    return lambda target: target.shape[0] > 0


@overload(fight_winner_at)
def _fight_winner_at(g, s, meta, target, attacker):
    """``fight_winner`` after the game's marker: the fights are Go's, and a search of a
    whole game (``target`` None) or of Gobang never compiles the reading."""
    if g.instance_class is GoGame and not isinstance(target, types.NoneType):
        return (lambda g, s, meta, target, attacker:
                fight_winner(s, meta, target, attacker))
    # int64, not the literal 0: the search's prove_leaf(winner) then compiles once
    return lambda g, s, meta, target, attacker: np.int64(0)

# ``fight_result_at(s, target, attacker)``: ``fight_result``, nothing compiled for a whole game
fight_result_at = fight_only(fight_result, 0)
