"""Training examples from game records, or from any (position, chosen move) pairs such as
a tsumego's correct answers: every position where the player (in a record, not the random
opening) chose a board move among the candidates a tree node would offer
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


def record_moves(records):
    """(state, move) for every move of the records that a player chose (not the random
    opening) on the board; the state is reused, so use it before taking the next."""
    return ((state, move) for rec in records for state, move, i in replay(rec)
            if i >= rec.n_random and move != PASS)


def examples(records) -> Examples:
    """The training examples of a list of ``selfplay.Record``."""
    return examples_at(record_moves(records))


def examples_at(chosen_moves) -> Examples:
    """The training examples of (state, the board move chosen there) pairs, e.g. a
    problem's position and a correct answer; a move outside the candidates is skipped."""
    pos, codes, levels, chosen = [], [], [], []
    n = 0
    lad = cand = None
    for state, move in chosen_moves:
        n_points = state.s.shape[1]
        if cand is None or len(cand) != n_points + 1:
            lad, cand = ladder_scratch(state.size), np.empty(n_points + 1, dtype=np.int32)
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
