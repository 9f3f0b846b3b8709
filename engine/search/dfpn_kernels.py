"""Depth-first proof-number search (df-pn, Nagai 2002) of a tsumego fight: an exact
AND/OR search that proves or disproves "the side to move wins the fight", in the
compiled kernels' flat arrays.

The fight is ``engine.search.solver``'s: the attacker has won once no point of the
target holds a defender stone, the defender once a target stone is in an unconditionally
alive chain (Benson) or the game ends by two passes with a target stone standing (life or
seki).  Moves are the empty points of the region (``points``) and a pass; a pass at the
root is not tried, since a problem's answer is a move.  A move that brings back a
position of the current line is not played (superko, over the line), and a line that
reaches ``MAX_DEPTH`` moves is the defender's (the attacker must make progress).  Both
depend on the line, not on the position alone, and are never stored as the repeated or
the last position's value; the nodes above them store theirs as any other (df-pn's
graph-history caveat; with ko captures left to one side, below, a repetition needs a
cycle of larger captures and is rare).

Ko: only the side ``ko_side`` may make a ko capture (a capture of one stone that leaves
the capturing stone alone with one liberty, ``M_KO`` set); the other side may not.  A
proof for the side that may not is therefore a proof whatever ko threats either side
has; a proof for the side that may is a proof if it wins every ko.

Proof and disproof numbers are kept from the point of view of the side to move at each
node (``phi``: the proof number of "the side to move wins", ``delta`` its disproof
number): phi(n) = min over children of delta(c), delta(n) = sum of phi(c); a new node
starts from a guess (``_estimate``) and the search stays in a child a little past its
second best (the 1+epsilon trick), and the move that last won at a depth is tried first
there (a killer move). Nodes live in a transposition table (``Table``: key, phi and
delta; a power-of-two size, always-replace), keyed by the stones' Zobrist hash,
the side to move, the ko point and the passes. The search's cost is counted in
expansions (``nodes``): each time a node's children are generated, again when a node is
re-entered.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from ..core.go_kernels import is_eye, is_legal, play
from ..core.layout import (BOARD, EMPTY, LIBS, M_HASH, M_KO, M_PASSES, M_SIZE, M_TO_PLAY,
                           PASS, REP, WHITE)
from .solver import fight_result, fight_winner

INF = 1 << 40          # a proven value; sums of proof numbers are capped here
MAX_DEPTH = 120        # the longest line read (module docstring)
MAX_MOVES = 400        # children of one node: a region's points and a pass
NO_MOVE = -2           # no killer move yet (PASS, -1, is a move)

# What a reading is about: the Zobrist table, the region's points (int64 padded indices),
# the target's points (int64), the attacker and the side that may take kos.
Fight = namedtuple("Fight", "zob points target attacker ko_side")
# The transposition table: keys, phi and delta, int64 arrays of one power-of-two size.
Table = namedtuple("Table", "key phi delta")


@njit(cache=True, nogil=True)
def position_key(meta, zob):
    """The table key of a position: the stones' hash, the side to move, the ko point and
    the passes (zobrist row 0 is unused by stones: its first three entries, off the board,
    key the side, a pending pass and a game ended by two passes; a ko point's own entry
    keys the ko)."""
    h = meta[M_HASH]
    if meta[M_TO_PLAY] == WHITE:
        h ^= zob[0, 0]
    if meta[M_KO] >= 0:
        h ^= zob[0, meta[M_KO]]
    if meta[M_PASSES] > 0:   # one pass pending, or the game over: two keys
        h ^= zob[0, min(meta[M_PASSES], 2)]
    return h


@njit(cache=True, nogil=True)
def _lookup(table, key, phi, delta):
    """The table's (phi, delta) of ``key``, (phi, delta) as given when it holds none."""
    i = key & (table.key.shape[0] - 1)
    if table.key[i] == key:
        return table.phi[i], table.delta[i]
    return phi, delta


@njit(cache=True, nogil=True)
def _estimate(s, target, attacker, to_move):
    """(phi, delta) of a new node, before it is read: the fewest (pseudo-)liberties of a
    target chain still standing is about how many moves the attacker needs, so it is
    the attacker's proof number when the attacker moves and the defender's disproof
    number when the defender does; the other number starts at 1."""
    fewest = np.int64(1 << 20)
    for p in target:
        if s[BOARD, p] == 3 - attacker:
            fewest = min(fewest, np.int64(s[LIBS, s[REP, p]]))
    fewest = max(fewest, np.int64(1)) if fewest < (1 << 20) else np.int64(1)
    if to_move == attacker:
        return fewest, np.int64(1)
    return np.int64(1), fewest


@njit(cache=True, nogil=True)
def _store(table, key, phi, delta):
    i = key & (table.key.shape[0] - 1)
    table.key[i] = key
    table.phi[i] = phi
    table.delta[i] = delta


@njit(cache=True, nogil=True)
def _verdict(s, meta, target, attacker):
    """The fight's winner in this position, 0 while it is open."""
    if meta[M_PASSES] >= 2:
        return fight_result(s, target, attacker)
    return fight_winner(s, meta, target, attacker)


@njit(cache=True, nogil=True)
def _expand(s, meta, fight, at_root, moves, keys, guesses, cs, cmeta, table):
    """Write the node's children (moves, keys, and ``_estimate``'s guesses, row 0 phi and
    row 1 delta) and store the decided ones' values in the table; returns the number of
    children.  A move into the mover's own true eye (``is_eye``) is not tried: as in the
    MCTS-Solver, proofs are over the moves that remain."""
    points, zob = fight.points, fight.zob
    color = meta[M_TO_PLAY]
    w = meta[M_SIZE] + 2
    k = 0
    for i in range(points.shape[0] + 1):
        p = points[i] if i < points.shape[0] else PASS
        if p == PASS:
            if at_root:
                continue
        elif (s[BOARD, p] != EMPTY or is_eye(s, w, p, color)
              or not is_legal(s, meta, p, color)):
            continue
        cs[:] = s
        cmeta[:] = meta
        play(cs, cmeta, zob, p, color)
        if p != PASS and cmeta[M_KO] >= 0 and color != fight.ko_side:
            continue
        key = position_key(cmeta, zob)
        moves[k] = p
        keys[k] = key
        guesses[0, k], guesses[1, k] = _estimate(cs, fight.target, fight.attacker, 3 - color)
        k += 1
        winner = _verdict(cs, cmeta, fight.target, fight.attacker)
        if winner != 0:   # from the child's side to move, the mover's opponent
            if winner == color:
                _store(table, key, INF, np.int64(0))
            else:
                _store(table, key, np.int64(0), INF)
    return k


@njit(cache=True, nogil=True)
def _on_line(key, path, d):
    """Whether ``key`` is the position of one of the line's nodes 0..d."""
    for j in range(d + 1):
        if path[j] == key:
            return True
    return False


@njit(cache=True, nogil=True)
def _killer_first(killer, k, moves, keys, guesses):
    """Put the killer move, when it is among the ``k`` children, first: the search takes
    the first of equally promising children, so it tries the move that last won at this
    depth first (the reply that refuted one of the opponent's moves often refutes its
    sibling too)."""
    for j in range(k):
        if moves[j] == killer:
            moves[0], moves[j] = moves[j], moves[0]
            keys[0], keys[j] = keys[j], keys[0]
            for row in range(2):
                guesses[row, 0], guesses[row, j] = guesses[row, j], guesses[row, 0]
            return


@njit(cache=True, nogil=True)
def dfpn(s0, meta0, fight, max_nodes, table):
    """Search the position (s0, meta0) (not modified) until its value is proven or
    ``max_nodes`` expansions are spent; returns (phi, delta, expansions) of the root:
    phi 0 is a proven win for the side to move, delta 0 a proven loss.  The table keeps
    what was learnt (``principal_line``, ``child_values`` read it)."""
    n_points = s0.shape[1]
    S = np.empty((MAX_DEPTH + 1, s0.shape[0], n_points), dtype=s0.dtype)
    M = np.empty((MAX_DEPTH + 1, meta0.shape[0]), dtype=meta0.dtype)
    moves = np.empty((MAX_DEPTH + 1, MAX_MOVES), dtype=np.int64)
    keys = np.empty((MAX_DEPTH + 1, MAX_MOVES), dtype=np.int64)
    guesses = np.empty((MAX_DEPTH + 1, 2, MAX_MOVES), dtype=np.int64)
    n_children = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    th_phi = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    th_delta = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    killer = np.full(MAX_DEPTH + 1, NO_MOVE, dtype=np.int64)
    cs = np.empty_like(s0)
    cmeta = np.empty_like(meta0)
    S[0] = s0
    M[0] = meta0
    path[0] = position_key(meta0, fight.zob)
    th_phi[0] = INF
    th_delta[0] = INF
    expansions = 0
    d = 0
    entering = True
    root_phi, root_delta = np.int64(1), np.int64(1)
    while True:
        if entering:
            entering = False
            # a child decided when it was generated is never entered, unless the table
            # lost its entry since
            winner = _verdict(S[d], M[d], fight.target, fight.attacker) if d > 0 else 0
            if winner != 0:
                to_move = M[d, M_TO_PLAY]
                if winner == to_move:
                    _store(table, path[d], np.int64(0), INF)
                else:
                    _store(table, path[d], INF, np.int64(0))
                d -= 1
                continue
            n_children[d] = _expand(S[d], M[d], fight, d == 0, moves[d], keys[d],
                                    guesses[d], cs, cmeta, table)
            _killer_first(killer[d], n_children[d], moves[d], keys[d], guesses[d])
            expansions += 1
        # the node's numbers from its children's
        phi = INF
        delta = np.int64(0)
        best = -1
        second = INF
        best_phi = np.int64(0)
        legal = 0
        for i in range(n_children[d]):
            if _on_line(keys[d, i], path, d):
                continue
            legal += 1
            cp, cd = _lookup(table, keys[d, i], guesses[d, 0, i],
                             guesses[d, 1, i])
            if d + 1 >= MAX_DEPTH and cp != 0 and cd != 0:
                if M[d, M_TO_PLAY] == fight.attacker:   # the child's side to move defends
                    cp, cd = np.int64(0), INF
                else:
                    cp, cd = INF, np.int64(0)
            delta = min(delta + cp, INF)
            if cd < phi:
                second = phi
                phi = cd
                best = i
                best_phi = cp
            elif cd < second:
                second = cd
        if legal == 0:   # no move at all: the side to move has lost
            phi, delta = INF, np.int64(0)
        if (phi >= th_phi[d] or delta >= th_delta[d] or expansions >= max_nodes
                or best < 0):
            _store(table, path[d], phi, delta)
            if phi == 0:
                killer[d] = moves[d, best]
            if d == 0:
                root_phi, root_delta = phi, delta
                break
            d -= 1
            continue
        # into the most proving child
        th_phi[d + 1] = min(th_delta[d] - delta + best_phi, INF)
        # the 1+epsilon trick (Pawlewicz and Lew 2007): stay in the child until its
        # number passes the second best by a quarter, not by one, so that two close
        # children do not take turns at every expansion
        th_delta[d + 1] = min(th_phi[d], second + 1 + second // 4)
        S[d + 1] = S[d]
        M[d + 1] = M[d]
        play(S[d + 1], M[d + 1], fight.zob, moves[d, best], M[d, M_TO_PLAY])
        path[d + 1] = keys[d, best]
        d += 1
        entering = True
    return root_phi, root_delta, expansions


@njit(cache=True, nogil=True)
def child_values(s, meta, fight, table, moves, phis, deltas):
    """The root's children (moves, and their phi and delta from the table, from the
    child's side to move) into the arrays given; returns how many."""
    cs = np.empty_like(s)
    cmeta = np.empty_like(meta)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    guesses = np.empty((2, MAX_MOVES), dtype=np.int64)
    k = _expand(s, meta, fight, True, moves, keys, guesses, cs, cmeta, table)
    for i in range(k):
        phis[i], deltas[i] = _lookup(table, keys[i], guesses[0, i],
                                     guesses[1, i])
    return k


@njit(cache=True, nogil=True)
def principal_line(s0, meta0, fight, table, line):
    """The proven line from (s0, meta0) as the table holds it, into ``line``: the winner
    plays a proven winning move, the loser its first non-pass move still proven lost
    (a pass only when nothing else is left); returns its length.  Ends where the fight
    is decided or the table no longer holds the proof."""
    s = s0.copy()
    meta = meta0.copy()
    cs = np.empty_like(s0)
    cmeta = np.empty_like(meta0)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    guesses = np.empty((2, MAX_MOVES), dtype=np.int64)
    unknown = np.int64(1)
    length = 0
    while length < line.shape[0] and _verdict(s, meta, fight.target, fight.attacker) == 0:
        phi, delta = _lookup(table, position_key(meta, fight.zob), unknown,
                             unknown)
        k = _expand(s, meta, fight, length == 0, moves, keys, guesses, cs, cmeta, table)
        chosen = -1
        for i in range(k):
            cp, cd = _lookup(table, keys[i], unknown, unknown)
            if phi == 0 and cd == 0:
                chosen = i
                break
            if delta == 0 and cp == 0 and (chosen < 0 or moves[chosen] == PASS):
                chosen = i
        if chosen < 0:
            break
        line[length] = moves[chosen]
        length += 1
        play(s, meta, fight.zob, moves[chosen], meta[M_TO_PLAY])
    return length
