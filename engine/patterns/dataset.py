"""Training examples from game records, or from any (position, chosen move) pairs such as
a tsumego's correct answers: every position where the player (in a record, not the random
opening) chose a board move among the candidates a tree node would offer
(``game.candidate_moves``: legal, not filling an own eye), with each candidate's features
(``core.move_features``), its diamond hashes (``core.spatial``) and which one was played.

Patterns are counted up to symmetry (``symmetry.CANON``), so the model has one rating per
pattern shape.
"""

from dataclasses import dataclass

import numpy as np

from ..core.game import GO, candidate_moves
from ..core.go_ladder import ladder_scratch
from ..core.layout import PASS
from ..core.move_features import N_GROUPS, candidate_features
from ..core.spatial import CELLS, N_RADII, RING_END, SALT, TABLE, candidate_hashes
from .selfplay import replay
from ..knowledge.symmetry import CANON

LADDER_NODES = 200


@dataclass
class Examples:
    """One row per candidate move: its position's index, canonical pattern code, group
    levels (``move_features``), diamond hashes (``spatial``, smallest first) and whether
    it was the move played."""
    pos: np.ndarray        # int32[R]
    code: np.ndarray       # int32[R]
    levels: np.ndarray     # int8[R, N_GROUPS]
    chosen: np.ndarray     # bool[R]
    hashes: np.ndarray     # int64[R, N_RADII]

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
    pos, codes, levels, chosen, hashes = [], [], [], [], []
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
        hs = np.empty((k, N_RADII), dtype=np.int64)
        candidate_hashes(state.s, state.meta, state.to_play, cand, k, CELLS, RING_END, TABLE,
                         SALT, hs)
        hashes.append(hs)
        pos.append(np.full(k, n, dtype=np.int32))
        codes.append(CANON[c])
        levels.append(lv)
        ch = np.zeros(k, dtype=bool)
        ch[hit[0]] = True
        chosen.append(ch)
        n += 1
    if not pos:
        return Examples(np.zeros(0, np.int32), np.zeros(0, np.int32),
                        np.zeros((0, N_GROUPS), np.int8), np.zeros(0, bool),
                        np.zeros((0, N_RADII), np.int64))
    return Examples(np.concatenate(pos), np.concatenate(codes), np.concatenate(levels),
                    np.concatenate(chosen), np.concatenate(hashes))


def concat(parts) -> Examples:
    """One ``Examples`` of several (chunks of a stream), positions renumbered."""
    parts = [p for p in parts if len(p.pos)]
    if not parts:
        return examples_at(())
    offsets = np.cumsum([0] + [p.n_positions for p in parts[:-1]])
    return Examples(np.concatenate([p.pos + np.int32(o) for p, o in zip(parts, offsets)]),
                    *(np.concatenate([getattr(p, f) for p in parts])
                      for f in ("code", "levels", "chosen", "hashes")))
