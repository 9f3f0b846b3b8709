"""Minorization-maximization (Coulom 2007) for the Elo ratings of move features.

The model (generalized Bradley-Terry): a candidate move is a team of features, one per
group (its 3x3 pattern, its largest known diamond, and a level of each tactical group it
has); its strength is the
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

from dataclasses import dataclass, field

import numpy as np

from ..core.move_features import LEVELS, N_GROUPS
from .dataset import Examples

_OFFSETS = np.concatenate([[0], np.cumsum(LEVELS)[:-1]]).astype(np.int64)


@dataclass
class Model:
    """Gammas of the patterns (``codes``: canonical mover codes, sorted), of each group
    level (``groups[g][level - 1]``) and of the large spatial patterns (``spatial_keys``:
    diamond hashes of ``core.spatial``, sorted; a move has the largest of its diamonds the
    model knows, or none)."""
    codes: np.ndarray        # int32[K]
    pattern_gamma: np.ndarray
    groups: list
    spatial_keys: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    spatial_gamma: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def group_vector(self) -> np.ndarray:
        return np.concatenate(self.groups)

    def gamma_vector(self) -> np.ndarray:
        """The gammas in ``_columns``' order, the absent feature's 1 last."""
        return np.concatenate([self.pattern_gamma, self.spatial_gamma, self.group_vector(),
                               [1.0]])


def _find(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each of ``values`` in the sorted ``keys``, -1 where it is not there."""
    if len(keys) == 0:
        return np.full(values.shape, -1, dtype=np.int64)
    at = np.searchsorted(keys, values)
    at = np.minimum(at, len(keys) - 1)
    return np.where(keys[at] == values, at, -1)


def largest_known(keys: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    """Per row of ``hashes`` (int64[R, N_RADII], smallest diamond first): the index in
    ``keys`` of its largest known diamond, -1 for none."""
    out = np.full(len(hashes), -1, dtype=np.int64)
    for r in range(hashes.shape[1]):
        at = _find(keys, hashes[:, r])
        out = np.where(at >= 0, at, out)
    return out


def spatial_dictionary(ex: Examples, min_count: int) -> np.ndarray:
    """The diamond hashes of moves played at least ``min_count`` times (sorted)."""
    if min_count <= 0 or len(ex.hashes) == 0:
        return np.zeros(0, np.int64)
    played = ex.hashes[ex.chosen].ravel()
    uniq, counts = np.unique(played, return_counts=True)
    return uniq[counts >= min_count]


def _columns(ex: Examples, codes: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Feature indices int32[R, 2 + N_GROUPS] into one gamma vector: patterns first,
    then spatial patterns, then the group levels; the last index (gamma fixed at 1)
    stands for a feature absent."""
    k, ks = len(codes), len(keys)
    absent = k + ks + int(sum(LEVELS))
    cols = np.empty((len(ex.pos), 2 + N_GROUPS), dtype=np.int32)
    at = _find(codes.astype(np.int64), ex.code.astype(np.int64))
    cols[:, 0] = np.where(at >= 0, at, absent)
    sp = largest_known(keys, ex.hashes) if ks else np.full(len(ex.pos), -1)
    cols[:, 1] = np.where(sp >= 0, k + sp, absent)
    for g in range(N_GROUPS):
        lv = ex.levels[:, g].astype(np.int64)
        cols[:, 2 + g] = np.where(lv > 0, k + ks + _OFFSETS[g] + lv - 1, absent)
    return cols


def _team(gamma: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Each row's strength, column by column (no [R, C] temporary)."""
    team = gamma[cols[:, 0]]
    for c in range(1, cols.shape[1]):
        team *= gamma[cols[:, c]]
    return team


def fit(ex: Examples, iterations: int = 30, min_count: int = 2, log=None,
        spatial_min: int = 0) -> Model:
    """Fit the gammas to the examples; patterns seen fewer than ``min_count`` times
    among the candidates keep gamma 1 (they are not in the model), and diamonds played
    fewer than ``spatial_min`` times are not in it (0: no spatial patterns)."""
    uniq, counts = np.unique(ex.code, return_counts=True)
    codes = uniq[counts >= min_count].astype(np.int32)
    keys = spatial_dictionary(ex, spatial_min)
    cols = _columns(ex, codes, keys)
    k, ks = len(codes), len(keys)
    n_feat = k + ks + int(sum(LEVELS))
    gamma = np.ones(n_feat + 1)
    pos = ex.pos.astype(np.int64)
    n_pos = ex.n_positions
    win_rows = cols[ex.chosen]
    blocks = [(0, k), (k, k + ks)] + [(k + ks + int(_OFFSETS[g]),
                                       k + ks + int(_OFFSETS[g]) + LEVELS[g])
                                      for g in range(N_GROUPS)]
    team = _team(gamma, cols)
    for it in range(iterations):
        for c, (lo, hi) in enumerate(blocks):
            if hi == lo:
                continue
            e = np.bincount(pos, weights=team, minlength=n_pos)
            before = gamma[cols[:, c]]
            denom = np.bincount(cols[:, c], weights=team / before / e[pos],
                                minlength=n_feat + 1)
            wins = np.bincount(win_rows[:, c], minlength=n_feat + 1)
            g = gamma[lo:hi]
            gamma[lo:hi] = (wins[lo:hi] + 1.0) / (denom[lo:hi] + 2.0 / (g + 1.0))
            team *= gamma[cols[:, c]] / before   # only this block's factor changed
        if log is not None:
            log(f"MM iteration {it + 1}: log-likelihood {log_likelihood(ex, team):.1f}")
    base = k + ks
    return Model(codes, gamma[:k].copy(),
                 [gamma[base + _OFFSETS[g]:base + _OFFSETS[g] + LEVELS[g]].copy()
                  for g in range(N_GROUPS)], keys, gamma[k:base].copy())


def log_likelihood(ex: Examples, team: np.ndarray) -> float:
    """The log-likelihood of the played moves, given every candidate's strength."""
    e = np.bincount(ex.pos.astype(np.int64), weights=team)
    return float(np.sum(np.log(team[ex.chosen])) - np.sum(np.log(e)))


def strengths(model: Model, ex: Examples) -> np.ndarray:
    """Each candidate's strength under the model."""
    return _team(model.gamma_vector(), _columns(ex, model.codes, model.spatial_keys))
