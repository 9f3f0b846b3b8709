"""Gobang knowledge at the root, a step of every search before its back end's own
(``engine.search.front``): a win by continuous fours for the side to move
(``engine.core.gobang_vcf``, an immediate five included) is played at once, without a
playout; otherwise the back end searches as usual, its root moves limited to the
neighbourhood of the stones when ``near`` is set.

Its options (``ThreatOptions``, every back end accepts them; Go ignores them) are the
``vcf`` search and ``near``, the root limited to the empty points within N king moves of a
stone (the centre on an empty board), as Gomoku programs do: on 15x15 a search that weighs
all 225 points spreads its playouts so thin that it answers far from the fight.  Every
five, four and three is made or blocked within 2 of its stones, so ``near=2`` (the
``strong`` preset) drops no forcing move.  Only the root is limited: a kept tree is still
reused after the moves played.
The VCF's answer carries the line as its principal variation and ``proven = 1``.

``vcf_defence``: when the opponent, were it to move, has a VCF, the root offers only the
moves after which it has none (each tried with ``vcf_defence_nodes`` fours), when any is
left: a threat-space attack is what strong Gomoku programs win by, and a search of a few
thousand playouts sees it too late.  A move that defends by a four of its own counts, since
the opponent must answer it first and the VCF is judged after our move.

``vct``: with no VCF on either side, a *threat move* of the side to move (the first level of
a VCT, ``engine.core.gobang_vct``: a move after which it has a VCF whatever the opponent
answers -- two threes, a four-three) is played at once, like a VCF; else, when the opponent
has one, the root offers only the moves that can stop it: the threat point itself, the
empty points within four of it along its four lines (where its threes and fours lie), and
our own fours, which it must answer first.
"""

import time
from dataclasses import dataclass, fields

import numpy as np

from ..core.gobang_tactics import completions
from ..core.gobang_vcf import find_vcf
from ..core.gobang_vct import find_threat_move, new_line
from ..core.gobang_kernels import exact_five
from ..core.layout import BOARD, M_RULE, PASS
from ..game.coords import point
from .base import Candidate, SearchResult
from .front import RootStep
from .options import option


@dataclass
class ThreatOptions:
    vcf: bool = option(False, help="Gobang: look for a win by continuous fours before "
                       "searching, and play it at once")
    vcf_depth: int = option(12, 1, 100, help="Gobang: the most fours in a VCF line")
    vcf_nodes: int = option(20_000, 1, 100_000_000, help="Gobang: the most fours the VCF "
                            "tries in all (20,000: a few milliseconds on 15x15)")
    near: int = option(0, 0, 25, help="Gobang: the root offers only the empty points within "
                       "N king moves of a stone (0: every move)")
    vcf_defence: bool = option(False, help="Gobang: when the opponent has a VCF, the root "
                               "offers only the moves after which it has none")
    vcf_defence_nodes: int = option(2_000, 1, 100_000_000, help="Gobang: the most fours "
                                    "the opponent's VCF tries after each candidate move")
    vct: bool = option(False, help="Gobang: with no VCF on either side, play a threat move "
                       "(a VCF whatever the answer) at once, or keep the root to the moves "
                       "that can stop the opponent's")
    vct_nodes: int = option(5_000, 1, 100_000_000, help="Gobang: the threat-move search's "
                            "work in all (a VCF asked, or a four it tries, is one)")


OPTION_NAMES = frozenset(f.name for f in fields(ThreatOptions))


def vcf_line(state, depth: int, nodes: int, colour: int | None = None) -> list[int]:
    """The shortest VCF of ``colour`` (the side to move if None) in a Gobang ``state``
    (``gobang_vcf.find_vcf``'s line), or [] when none is proven within ``depth`` fours and
    ``nodes`` fours tried in all.  Iterative deepening: the shortest win is the surest to play and costs little
    more, each depth trying a small multiple of the fours of the one before."""
    line = np.zeros(2 * depth + 3, dtype=np.int32)
    left = nodes
    for d in range(1, depth + 1):
        move, length, tried = find_vcf(state.s, state.meta,
                                       state.to_play if colour is None else colour, d, left,
                                       line)
        if move >= 0:
            return [int(p) for p in line[:length]]
        left -= tried
        if left <= 0:
            break
    return []


def near_mask(state, distance: int) -> np.ndarray:
    """uint8 mask over the padded board: the empty points within ``distance`` king moves
    of a stone, or the centre alone on an empty board."""
    n = state.size
    board = state.board()
    stones = board != 0
    mask = np.zeros(state.s.shape[1], dtype=np.uint8)
    if not stones.any():
        mask[point(n // 2, n // 2, n)] = 1
        return mask
    grown = stones.copy()
    for dr in range(-distance, distance + 1):
        for dc in range(-distance, distance + 1):
            grown[max(dr, 0):n + min(dr, 0), max(dc, 0):n + min(dc, 0)] |= \
                stones[max(-dr, 0):n + min(-dr, 0), max(-dc, 0):n + min(-dc, 0)]
    rows, cols = np.nonzero(grown & ~stones)
    mask[(rows + 1) * (n + 2) + cols + 1] = 1
    return mask


def vcf_defences(state, allowed: np.ndarray, depth: int, nodes: int) -> np.ndarray:
    """The moves of ``allowed`` after which the opponent of the side to move has no VCF
    within ``depth`` and ``nodes`` (a uint8 mask, all zero when every move leaves one)."""
    them = 3 - state.to_play
    kept = np.zeros_like(allowed)
    after = state.clone()
    for p in np.flatnonzero(allowed):
        if not after.is_legal(int(p)):
            continue
        after.play(int(p))
        if after.winner() == state.to_play or not vcf_line(after, depth, nodes, them):
            kept[p] = 1
        after.undo()
    return kept


def threat_move(state, colour: int, depth: int, nodes: int) -> int:
    """A threat move of ``colour`` (``gobang_vct``), or PASS."""
    return int(find_threat_move(state.s, state.meta, colour, depth, nodes, new_line(depth)))


def threat_defences(state, t: int) -> np.ndarray:
    """uint8 mask of the moves that can stop the opponent's threat move ``t``: ``t``, the
    empty points within four of it on its lines, and the side to move's own fours."""
    board = state.s[BOARD]
    w = state.size + 2
    mask = np.zeros(board.shape[0], dtype=np.uint8)
    for step in (1, w, w + 1, w - 1):
        for k in range(-4, 5):
            q = t + k * step
            if 0 <= q < board.shape[0] and board[q] == 0:
                mask[q] = 1
    me = state.to_play
    exact = exact_five(int(state.meta[M_RULE]), me)
    out = np.empty(8, dtype=np.int64)
    scratch = board.copy()
    for q in state.empty_points():
        scratch[q] = me
        if completions(scratch, w, int(q), me, exact, out) > 0:
            mask[q] = 1
        scratch[q] = 0
    return mask


class ThreatStep(RootStep):
    """The root VCF and ``near`` of the module docstring."""
    Options = ThreatOptions

    def before(self, state, allowed, target):
        opts = self.params
        if state.game != "gobang" or state.is_terminal():
            return None, allowed
        if opts.vcf:
            t0 = time.perf_counter()
            line = vcf_line(state, opts.vcf_depth, opts.vcf_nodes)
            if line and (allowed is None or allowed[line[0]]):
                return SearchResult(move=line[0], winrate=1.0, playouts=0,
                                    seconds=time.perf_counter() - t0,
                                    candidates=[Candidate(move=line[0], visits=0,
                                                          winrate=1.0, pv=line, proven=1)]), allowed
        if opts.near:
            near = near_mask(state, opts.near)
            if allowed is not None:
                near &= allowed
            if near.any():   # else (a region far from every stone) the region alone
                allowed = near
        them = 3 - state.to_play
        if (opts.vcf_defence or opts.vct) and vcf_line(state, opts.vcf_depth,
                                                       opts.vcf_nodes, them):
            if opts.vcf_defence:
                around = allowed if allowed is not None else near_mask(state, 2)
                kept = vcf_defences(state, around, opts.vcf_depth, opts.vcf_defence_nodes)
                if kept.any():   # else every move loses to it: leave the search its choice
                    allowed = kept
            return None, allowed
        if opts.vct:
            t0 = time.perf_counter()
            t = threat_move(state, state.to_play, opts.vcf_depth, opts.vct_nodes)
            if t != PASS and (allowed is None or allowed[t]):
                return SearchResult(move=t, winrate=1.0, playouts=0,
                                    seconds=time.perf_counter() - t0,
                                    candidates=[Candidate(move=t, visits=0, winrate=1.0,
                                                          pv=[t], proven=1)]), allowed
            t = threat_move(state, them, opts.vcf_depth, opts.vct_nodes)
            if t != PASS:
                kept = threat_defences(state, t)
                if allowed is not None:
                    kept &= allowed
                if kept.any():
                    allowed = kept
        return None, allowed
