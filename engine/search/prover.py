"""An exact proof at the root of a tsumego fight, a step of every search before its back
end's own (``engine.search.front``): the proof-number search of
``engine.search.dfpn_kernels`` reads the problem's region first;
a move it proves is played at once, the moves it refutes are taken out of the back end's
root, and the back end searches the rest as usual.

Only a Go search given a fight (``target``: the back ends that read fights, under the
tsumego harness) is proved; anything else goes straight to the back end.

Two readings, because a ko can decide a fight (``dfpn_kernels``: one side may make ko
captures, the other may not):
1. the side to move may take kos, its opponent may not.  A move whose child is proven
   won by the opponent is *refuted* whatever the kos; a root proven lost means every
   move is.  A root proven won goes on to
2. the opponent may take kos, the side to move may not.  A win proven here is a win
   whatever the kos: the answer, ``proven`` 1.  A root proven lost here means no move
   wins without a ko: the first reading's winning move is the answer, not proven (it
   wins if the side to move wins its kos; the harness reports such an answer as ``ko``
   when its line holds a ko capture).  Neither: the back end answers, without the
   first reading's refuted moves (a move that wins whatever the kos may be among the
   rest, unread, and a ko answer would be wrong then).
"""

import time
from dataclasses import dataclass, field, fields

import numpy as np

from ..core.layout import BOARD, OFFBOARD
from .base import Candidate, SearchResult
from .dfpn_kernels import (MAX_MOVES, Fight, Table, child_values, dfpn, position_key,
                           principal_line)
from .front import RootStep
from .options import option

LINE = 40      # the longest principal line reported


@dataclass
class ProofOptions:
    prove_nodes: int = option(0, 0, 100_000_000, help="Go, a tsumego fight given: read its "
                              "region by df-pn first, at most N expansions a reading; 0: off")
    prove_table: int = option(20, 10, 28, help="log2 of the proof search's transposition "
                              "table entries (20: 24 MB)")


OPTION_NAMES = frozenset(f.name for f in fields(ProofOptions))


@dataclass
class Proof:
    """What the readings established about the root (module docstring): ``move`` the
    answer when one wins (``proved``: whatever the kos), ``line`` its principal line,
    ``refuted`` the root moves that lose whatever the kos, ``lost`` when every move does;
    ``nodes`` the expansions spent."""
    move: int | None = None
    proved: bool = False
    line: list[int] = field(default_factory=list)
    refuted: list[int] = field(default_factory=list)
    lost: bool = False
    nodes: int = 0


class _Reading:
    """One df-pn reading of a position, its table kept for the answers."""

    def __init__(self, state, points, target, ko_side, nodes, table_bits):
        self.args = (state.s, state.meta,
                     Fight(state.zob, points, np.asarray(target.points, dtype=np.int64),
                           np.int64(target.attacker), np.int64(ko_side)))
        size = 1 << table_bits
        self.table = Table(np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                           np.zeros(size, dtype=np.int64))
        self.phi, self.delta, self.nodes = dfpn(*self.args, nodes, self.table)

    def line(self) -> list[int]:
        out = np.zeros(LINE, dtype=np.int64)
        return [int(p) for p in out[:principal_line(*self.args, self.table, out)]]

    def lost_children(self) -> list[int]:
        """The root moves whose child the table holds as won by the opponent."""
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        phis = np.zeros(MAX_MOVES, dtype=np.int64)
        deltas = np.zeros(MAX_MOVES, dtype=np.int64)
        k = child_values(*self.args, self.table, moves, phis, deltas)
        return [int(m) for m, p in zip(moves[:k], phis[:k]) if p == 0]


def prove(state, points: np.ndarray, target, nodes: int, table_bits: int = 20) -> Proof:
    """The two readings of the module docstring over the region ``points`` (int64 padded
    indices, the occupied ones too: the moves are those of them that are empty when a
    node is read), each of at most ``nodes`` expansions."""
    mover = state.to_play
    first = _Reading(state, points, target, mover, nodes, table_bits)
    proof = Proof(refuted=first.lost_children(), lost=first.delta == 0, nodes=first.nodes)
    if first.phi != 0:
        return proof
    second = _Reading(state, points, target, 3 - mover, nodes, table_bits)
    proof.nodes += second.nodes
    if second.phi == 0:
        proof.line = second.line()
    elif second.delta == 0:     # no win without a ko: the first reading's is the best
        proof.line = first.line()
    else:                       # a win without a ko may be there, unread: the back end's
        return proof
    proof.move = proof.line[0] if proof.line else None
    proof.proved = second.phi == 0 and proof.move is not None
    return proof


class ProofStep(RootStep):
    """The root proof of the module docstring.  The last proof is kept, so a search run in
    steps on one position (the tsumego harness's checkpoints) reads it once."""
    Options = ProofOptions
    _last = None

    def reset(self):
        self._last = None

    def _proof(self, state, allowed, target) -> Proof:
        if allowed is None:
            # every point, stones' too: a point a capture empties must stay playable
            # (over the empty points alone a throw-in, taken, could not be played again,
            # and the throw-in problems read as lost)
            points = np.flatnonzero(state.s[BOARD] != OFFBOARD).astype(np.int64)
        else:
            points = np.flatnonzero(allowed).astype(np.int64)
        key = (position_key(state.meta, state.zob), points.tobytes(), target)
        if self._last is None or self._last[0] != key:
            opts = self.params
            self._last = (key, prove(state, points, target, opts.prove_nodes,
                                     opts.prove_table))
        return self._last[1]

    def before(self, state, allowed, target):
        if (self.params.prove_nodes == 0 or state.game != "go" or target is None
                or not target.points or state.is_terminal()):
            return None, allowed
        t0 = time.perf_counter()
        proof = self._proof(state, allowed, target)
        if proof.move is not None:
            return SearchResult(move=proof.move, winrate=1.0, playouts=0,
                                seconds=time.perf_counter() - t0,
                                candidates=[Candidate(move=proof.move, visits=0,
                                                      winrate=1.0, pv=proof.line,
                                                      proven=int(proof.proved))]), allowed
        if proof.refuted and not proof.lost:
            allowed = (np.ones(state.s.shape[1], dtype=np.uint8) if allowed is None
                       else allowed.copy())
            allowed[proof.refuted] = 0
        return None, allowed
