"""Training examples from game records: every position where the recorded player (not the
random opening) chose a board move among the candidates a tree node would offer
(``game.candidate_moves``: legal, not filling an own eye), with each candidate's features
(``core.move_features``) and which one was played.

Patterns are counted up to symmetry (``symmetry.CANON``), so the model has one rating per
pattern shape.
"""

from dataclasses import dataclass

import numpy as np

from ..core.game import GO, candidate_moves
from ..core.go_ladder import ladder_scratch
from ..core.layout import PASS
from ..core.move_features import N_GROUPS, candidate_features
from .selfplay import replay
from .symmetry import CANON

LADDER_NODES = 200


@dataclass
class Examples:
    """One row per candidate move: its position's index, canonical pattern code, group
    levels (``move_features``) and whether it was the move played."""
    pos: np.ndarray        # int32[R]
    code: np.ndarray       # int32[R]
    levels: np.ndarray     # int8[R, N_GROUPS]
    chosen: np.ndarray     # bool[R]

    @property
    def n_positions(self) -> int:
        return int(self.pos[-1]) + 1 if len(self.pos) else 0


def examples(records) -> Examples:
    """The training examples of a list of ``selfplay.Record``."""
    pos, codes, levels, chosen = [], [], [], []
    n = 0
    lad = None
    for rec in records:
        lad = lad if lad is not None and lad.ss.shape[2] == (rec.size + 2) ** 2 else \
            ladder_scratch(rec.size)
        cand = np.empty((rec.size + 2) ** 2 + 1, dtype=np.int32)
        for state, move, i in replay(rec):
            if i < rec.n_random or move == PASS:
                continue
            k = candidate_moves(GO, state.s, state.meta, cand) - 1     # PASS is last
            hit = np.flatnonzero(cand[:k] == move)
            if len(hit) == 0:
                continue
            c = np.empty(k, dtype=np.int32)
            lv = np.empty((k, N_GROUPS), dtype=np.int8)
            candidate_features(state.s, state.meta, state.to_play, cand, k, lad,
                               LADDER_NODES, c, lv)
            pos.append(np.full(k, n, dtype=np.int32))
            codes.append(CANON[c])
            levels.append(lv)
            ch = np.zeros(k, dtype=bool)
            ch[hit[0]] = True
            chosen.append(ch)
            n += 1
    if not pos:
        return Examples(np.zeros(0, np.int32), np.zeros(0, np.int32),
                        np.zeros((0, N_GROUPS), np.int8), np.zeros(0, bool))
    return Examples(np.concatenate(pos), np.concatenate(codes), np.concatenate(levels),
                    np.concatenate(chosen))
