"""The AMAF record the playouts keep (``engine.core.amaf``): who played each point first
and at which ply, against the rule that Go's colours alternate ply by ply."""

import numpy as np

from engine.core.amaf import first_color, first_ply
from engine.core.go_playout import policy_playout
from engine.core.layout import M_MOVES, M_TO_PLAY
from engine.core.rng import make_rng
from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules


def test_a_go_playout_records_each_first_play_with_its_ply():
    state = GoState(GoRules(size=9))
    for move in ("E5", "C3", "G7"):     # three plies in: the record keeps game plies
        state.play(from_gtp(move, 9))
    for seed in range(6):
        s, meta = state.s.copy(), state.meta.copy()
        start, mover = int(meta[M_MOVES]), int(meta[M_TO_PLAY])
        amaf = np.zeros(s.shape[1], dtype=np.int32)
        played = policy_playout(s, meta, state.zob, make_rng(seed), amaf,
                                np.zeros(0, dtype=np.uint8), None)
        end = int(meta[M_MOVES])
        assert played == end - start > 0
        entries = amaf[amaf != 0]
        plies = np.array([first_ply(e) for e in entries])
        colors = np.array([first_color(e) for e in entries])
        assert len(entries) > 0 and ((plies >= start) & (plies < end)).all()
        # one first play a ply at most, and the colour the ply's parity gives
        assert len(set(plies.tolist())) == len(plies)
        assert (colors == np.where((plies - start) % 2 == 0, mover, 3 - mover)).all()
