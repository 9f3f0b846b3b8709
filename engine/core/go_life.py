"""Unconditional life (Benson 1976): the chains of one colour that no sequence of opponent
moves can capture, even if their owner always passes.  A proof of life for a tsumego
leaf, where a playout's verdict is only a sample.

Over the padded board of ``engine.core.layout`` (BOARD and REP rows).  For colour X:
* an *X-region* is a maximal connected set of on-board points that hold no X stone
  (empty points and opponent stones together);
* a region is *vital* to an X chain when every empty point of the region is a liberty of
  that chain;
* repeat until nothing changes: drop every chain with fewer than two vital regions
  among the regions still standing, then every region that touches a dropped chain.
The chains left are unconditionally alive, and the regions left that are vital to one of
them are X's for good.  The iteration is Benson's algorithm as usually
stated; ko or seki never make a chain pass-alive, so "alive" here is a proof, "not
alive" is no verdict.
"""

import numpy as np
from numba import njit

from .layout import BOARD, EMPTY, OFFBOARD, REP


@njit(cache=True)
def _label_regions(board, w, color, region, stack):
    """region[p] = the index of p's X-region (-1 on X stones and off the board); returns the
    number of regions."""
    region[:] = -1
    count = 0
    for start in range(board.shape[0]):
        b = board[start]
        if b == OFFBOARD or b == color or region[start] >= 0:
            continue
        region[start] = count
        top = 0
        stack[top] = start
        top += 1
        while top > 0:
            top -= 1
            p = stack[top]
            for q in (p - 1, p + 1, p - w, p + w):
                bq = board[q]
                if bq != OFFBOARD and bq != color and region[q] < 0:
                    region[q] = count
                    stack[top] = q
                    top += 1
        count += 1
    return count


@njit(cache=True)
def pass_alive(s, meta_size, color, out):
    """Mark in ``out`` (int8 over the padded board, overwritten) the stones of ``color``'s
    unconditionally alive chains with 1 and the points of the regions vital to them (their
    eyes, ``color``'s for good) with 2; returns the number of alive chains."""
    board = s[BOARD]
    n_points = board.shape[0]
    w = meta_size + 2
    out[:] = 0
    region = np.empty(n_points, dtype=np.int32)
    stack = np.empty(n_points, dtype=np.int32)
    n_regions = _label_regions(board, w, color, region, stack)
    # chains of ``color`` by representative, numbered 0..n_chains-1
    chain_of_rep = np.full(n_points, -1, dtype=np.int32)
    n_chains = 0
    for p in range(n_points):
        if board[p] == color:
            r = s[REP, p]
            if chain_of_rep[r] < 0:
                chain_of_rep[r] = n_chains
                n_chains += 1
    if n_chains == 0:
        return 0
    touches = np.zeros((n_regions, n_chains), dtype=np.bool_)
    libs_in = np.zeros((n_regions, n_chains), dtype=np.int32)   # region's empties next to it
    empties = np.zeros(n_regions, dtype=np.int32)
    seen = np.full(4, -1, dtype=np.int32)
    for p in range(n_points):
        g = region[p]
        if g < 0:
            continue
        is_empty = board[p] == EMPTY
        if is_empty:
            empties[g] += 1
        k = 0
        for q in (p - 1, p + 1, p - w, p + w):
            if board[q] != color:
                continue
            c = chain_of_rep[s[REP, q]]
            dup = False
            for j in range(k):
                if seen[j] == c:
                    dup = True
            if dup:
                continue
            seen[k] = c
            k += 1
            touches[g, c] = True
            if is_empty:
                libs_in[g, c] += 1
    chain_alive = np.ones(n_chains, dtype=np.bool_)
    region_alive = np.ones(n_regions, dtype=np.bool_)
    changed = True
    while changed:
        changed = False
        for c in range(n_chains):
            if not chain_alive[c]:
                continue
            vital = 0
            for g in range(n_regions):
                if region_alive[g] and touches[g, c] and libs_in[g, c] == empties[g]:
                    vital += 1
            if vital < 2:
                chain_alive[c] = False
                changed = True
        for g in range(n_regions):
            if not region_alive[g]:
                continue
            for c in range(n_chains):
                if touches[g, c] and not chain_alive[c]:
                    region_alive[g] = False
                    changed = True
                    break
    alive = 0
    for c in range(n_chains):
        if chain_alive[c]:
            alive += 1
    # territory: a standing region that is vital to a living chain (a big region merely
    # bordered by living chains may still hold a living opponent group)
    for g in range(n_regions):
        if region_alive[g]:
            vital = False
            for c in range(n_chains):
                if chain_alive[c] and touches[g, c] and libs_in[g, c] == empties[g]:
                    vital = True
            region_alive[g] = vital
    for p in range(n_points):
        if board[p] == color:
            if chain_alive[chain_of_rep[s[REP, p]]]:
                out[p] = 1
        elif region[p] >= 0 and region_alive[region[p]]:
            out[p] = 2
    return alive
