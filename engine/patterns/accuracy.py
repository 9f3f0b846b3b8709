"""Move prediction on held-out games: how often a model's strongest candidate is the move
played (top-1), or among its five strongest (top-5).  Ties are shared out as a random
tie-break would: a played move tied with t others for places g+1..g+t+1 counts
min(t+1, K-g)/(t+1) toward top-K.

Predictors: the learned model (all features, and its patterns alone), the hand-made heavy
playout policy of ``core.go_policy`` (its move probabilities worked out from the
knowledge file's parameters; the uniform step taken as proportional, self-ataris
discounted by the refusal probability) and uniform.
"""

import numpy as np

from ..core.game import GO, candidate_moves
from ..core.go_ladder import ladder_scratch
from ..core.go_policy import (LADDER_NODES, P_ATARI, P_PATTERN, P_SELFATARI, SELFATARI_STONES,
                              atari_moves, playable)
from ..core.go_tactics import is_self_atari
from ..core.layout import M_LAST, M_SIZE, PASS
from ..core.patterns3 import code
from .dataset import Examples


def topk(ex: Examples, strength: np.ndarray, k: int) -> float:
    """Mean top-``k`` hit of the played move over the positions of ``ex``."""
    pos = ex.pos.astype(np.int64)
    chosen_s = np.zeros(ex.n_positions)
    chosen_s[pos[ex.chosen]] = strength[ex.chosen]
    above = np.bincount(pos, weights=strength > chosen_s[pos] * (1 + 1e-9),
                        minlength=ex.n_positions)
    tied = np.bincount(pos, weights=np.abs(strength - chosen_s[pos]) <= chosen_s[pos] * 1e-9,
                       minlength=ex.n_positions)   # the played move included
    hit = np.clip(k - above, 0, None)
    return float(np.mean(np.minimum(tied, hit) / tied))


def _heavy(state, cand, n, pat, par, buf) -> np.ndarray:
    s, meta = state.s, state.meta
    w = meta[M_SIZE] + 2
    color = state.to_play
    last = meta[M_LAST]
    sa = int(par[SELFATARI_STONES])
    index = {int(p): i for i, p in enumerate(cand[:n])}
    step1 = np.zeros(n)
    step2 = np.zeros(n)
    if last >= 0 and last != PASS:
        lad = ladder_scratch(int(meta[M_SIZE]))
        for p in buf[:atari_moves(s, meta, w, last, color, buf, lad, int(par[LADDER_NODES]))]:
            step1[index[int(p)]] += 1
        for p in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1,
                  last + w, last + w + 1):
            if int(p) in index and pat[code(s, w, p)] > 0 and playable(s, meta, w, p, color) \
                    and not is_self_atari(s, w, p, color, sa):
                step2[index[int(p)]] = pat[code(s, w, p)]
    uniform = np.array([1 - par[P_SELFATARI] if is_self_atari(s, w, p, color, sa) else 1.0
                        for p in cand[:n]])
    a = par[P_ATARI] if step1.sum() > 0 else 0.0
    b = par[P_PATTERN] if step2.sum() > 0 else 0.0
    out = (1 - a) * (1 - b) * uniform / uniform.sum()
    if a:
        out += a * step1 / step1.sum()
    if b:
        out += (1 - a) * b * step2 / step2.sum()
    return out


def heavy_strengths(chosen_moves, pat, par) -> np.ndarray:
    """The heavy policy's probability of each candidate, in the rows ``dataset.examples_at``
    makes of the same (state, chosen move) pairs."""
    out = []
    cand = buf = None
    for state, move in chosen_moves:
        n_points = state.s.shape[1]
        if cand is None or len(cand) != n_points + 1:
            cand = np.empty(n_points + 1, dtype=np.int32)
            buf = np.empty(n_points, dtype=np.int32)
        k = candidate_moves(GO, state.s, state.meta, cand) - 1
        if move in cand[:k]:
            out.append(_heavy(state, cand, k, pat, par, buf))
    return np.concatenate(out) if out else np.zeros(0)
