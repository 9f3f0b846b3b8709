"""Minorization-maximization (Coulom 2007) for the Elo ratings of move features.

The model (generalized Bradley-Terry): a candidate move is a team of features, one per
group (its pattern, and a level of each tactical group it has); its strength is the
product of its features' gammas, and the move played in a position is drawn with
probability strength / (sum of the strengths of all candidates there).  MM raises the
likelihood one group at a time: for feature i of that group,

    gamma_i <- (W_i + 1) / (sum_j C_ij / E_j + 2 / (gamma_i + 1))

with W_i the positions where the played move had i, E_j the total strength in position j
and C_ij the strength, gamma_i left out, of the candidates of j that have i.  The ``+ 1``
and ``2 / (gamma_i + 1)`` are the prior: one virtual win and one virtual loss against a
feature of gamma 1, which keeps rare features near 1 and never lets a gamma reach 0.
A group level that a move lacks counts as gamma 1.
"""

from dataclasses import dataclass

import numpy as np

from ..core.move_features import LEVELS, N_GROUPS
from .dataset import Examples

_OFFSETS = np.concatenate([[0], np.cumsum(LEVELS)[:-1]]).astype(np.int64)


@dataclass
class Model:
    """Gammas of the patterns (``codes``: canonical mover codes, sorted) and of each
    group level (``groups[g][level - 1]``)."""
    codes: np.ndarray        # int32[K]
    pattern_gamma: np.ndarray
    groups: list

    def group_vector(self) -> np.ndarray:
        return np.concatenate(self.groups)


def _columns(ex: Examples, codes: np.ndarray) -> np.ndarray:
    """Feature indices [R, 1 + N_GROUPS] into one gamma vector: patterns first, then the
    group levels; the last index (gamma fixed at 1) stands for a feature absent."""
    k = len(codes)
    absent = k + int(sum(LEVELS))
    cols = np.empty((len(ex.pos), 1 + N_GROUPS), dtype=np.int64)
    at = np.searchsorted(codes, ex.code)
    known = (at < k) & (codes[np.minimum(at, k - 1)] == ex.code)
    cols[:, 0] = np.where(known, at, absent)
    for g in range(N_GROUPS):
        lv = ex.levels[:, g].astype(np.int64)
        cols[:, 1 + g] = np.where(lv > 0, k + _OFFSETS[g] + lv - 1, absent)
    return cols


def fit(ex: Examples, iterations: int = 30, min_count: int = 2, log=None) -> Model:
    """Fit the gammas to the examples; patterns seen fewer than ``min_count`` times
    among the candidates keep gamma 1 (they are not in the model)."""
    uniq, counts = np.unique(ex.code, return_counts=True)
    codes = uniq[counts >= min_count].astype(np.int32)
    cols = _columns(ex, codes)
    n_feat = len(codes) + int(sum(LEVELS))
    gamma = np.ones(n_feat + 1)
    pos = ex.pos.astype(np.int64)
    n_pos = ex.n_positions
    win_rows = cols[ex.chosen]
    groups = [(0, len(codes))] + [(len(codes) + int(_OFFSETS[g]),
                                   len(codes) + int(_OFFSETS[g]) + LEVELS[g])
                                  for g in range(N_GROUPS)]
    for it in range(iterations):
        for c, (lo, hi) in enumerate(groups):
            team = np.prod(gamma[cols], axis=1)
            e = np.bincount(pos, weights=team, minlength=n_pos)
            other = team / gamma[cols[:, c]]
            denom = np.bincount(cols[:, c], weights=other / e[pos], minlength=n_feat + 1)
            wins = np.bincount(win_rows[:, c], minlength=n_feat + 1)
            g = gamma[lo:hi]
            gamma[lo:hi] = (wins[lo:hi] + 1.0) / (denom[lo:hi] + 2.0 / (g + 1.0))
        if log is not None:
            log(f"MM iteration {it + 1}: log-likelihood {log_likelihood(ex, cols, gamma):.1f}")
    k = len(codes)
    return Model(codes, gamma[:k].copy(),
                 [gamma[k + _OFFSETS[g]:k + _OFFSETS[g] + LEVELS[g]].copy()
                  for g in range(N_GROUPS)])


def log_likelihood(ex: Examples, cols: np.ndarray, gamma: np.ndarray) -> float:
    team = np.prod(gamma[cols], axis=1)
    e = np.bincount(ex.pos.astype(np.int64), weights=team)
    return float(np.sum(np.log(team[ex.chosen])) - np.sum(np.log(e)))


def strengths(model: Model, ex: Examples) -> np.ndarray:
    """Each candidate's strength under the model."""
    gamma = np.concatenate([model.pattern_gamma, model.group_vector(), [1.0]])
    return np.prod(gamma[_columns(ex, model.codes)], axis=1)
