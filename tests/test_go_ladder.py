"""Ladder reading (``go_ladder``) on hand-built positions: a working ladder, the same
ladder broken by a stone on its path, an escape by capturing an attacking stone in atari,
the two-liberty chain the attacker ladders, a cut-off reading; GNU Go's tactical reader
(``defend`` / ``attack``) agrees on each where it is installed.  The heavy policy's atari
step leaves out the escape into a working ladder."""

import numpy as np
import pytest

from engine.core.go_ladder import ladder_captured, ladder_scratch
from engine.core.go_policy import atari_moves
from engine.core.layout import BLACK, M_LAST, WHITE
from engine.game.coords import point, to_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules

from gnugo_client import GNUGO, GTPClient, gnugo_available

N = 9
# the white stone E5 (row 4, col 4 from the top) in atari: extending gives two liberties
# and Black's ataris drive it up and right to the edge
LADDER_B = [(4, 3), (3, 4), (5, 4), (5, 5)]
LADDER_W = [(4, 4)]
BREAKER = [(1, 7)]                 # a white stone on the ladder's path
CAPTURE_ESCAPE = [(2, 4), (3, 3)]  # white stones that put the black D6 stone in atari


def make(black, white, to_play):
    st = GoState(GoRules(size=N, komi=7.5, superko=False))
    st.setup(black=[point(r, c, N) for r, c in black],
             white=[point(r, c, N) for r, c in white])
    st.to_play = to_play
    return st


def read(st, rc, attacker, max_nodes=1000):
    return bool(ladder_captured(st.s, st.meta, point(*rc, N), attacker, ladder_scratch(N),
                                max_nodes))


CASES = [   # (name, black, white, to play, chain, attacker first, captured)
    ("working ladder", LADDER_B, LADDER_W, WHITE, (4, 4), False, True),
    ("broken by a breaker", LADDER_B, LADDER_W + BREAKER, WHITE, (4, 4), False, False),
    ("escape by capture", LADDER_B, LADDER_W + CAPTURE_ESCAPE, WHITE, (4, 4), False, False),
    ("two liberties, attacker first", [(4, 3), (5, 4), (5, 5)], LADDER_W, BLACK, (4, 4), True,
     True),
    ("two liberties, broken", [(4, 3), (5, 4), (5, 5)], LADDER_W + BREAKER, BLACK, (4, 4),
     True, False),
]


@pytest.mark.parametrize("name,black,white,to_play,chain,attacker,captured", CASES,
                         ids=[c[0] for c in CASES])
def test_ladder_positions(name, black, white, to_play, chain, attacker, captured):
    assert read(make(black, white, to_play), chain, attacker) == captured


def test_a_cut_off_reading_says_not_captured():
    st = make(LADDER_B, LADDER_W, WHITE)
    assert read(st, (4, 4), False, max_nodes=1000)
    assert not read(st, (4, 4), False, max_nodes=3)


def test_the_reader_leaves_the_position_alone():
    st = make(LADDER_B, LADDER_W, WHITE)
    before = st.s.copy(), st.meta.copy()
    read(st, (4, 4), False)
    assert (st.s == before[0]).all() and (st.meta == before[1]).all()


@pytest.mark.parametrize("white,nodes,offered", [(LADDER_W, 0, True), (LADDER_W, 100, False),
                                                  (LADDER_W + BREAKER, 100, True)])
def test_the_heavy_policy_does_not_run_into_a_working_ladder(white, nodes, offered):
    st = make(LADDER_B, white, WHITE)
    last = point(3, 4, N)   # Black's atari
    st.meta[M_LAST] = last
    buf = np.empty(64, dtype=np.int32)
    k = atari_moves(st.s, st.meta, N + 2, last, WHITE, buf, ladder_scratch(N), nodes)
    assert (point(4, 5, N) in buf[:k].tolist()) == offered


@pytest.mark.gnugo
@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
@pytest.mark.parametrize("name,black,white,to_play,chain,attacker,captured", CASES,
                         ids=[c[0] for c in CASES])
def test_gnugo_agrees(name, black, white, to_play, chain, attacker, captured):
    setup = [f"boardsize {N}", "clear_board"]
    setup += [f"play b {to_gtp(point(r, c, N), N)}" for r, c in black]
    setup += [f"play w {to_gtp(point(r, c, N), N)}" for r, c in white]
    vertex = to_gtp(point(*chain, N), N)
    with GTPClient([GNUGO, "--mode", "gtp"]) as g:
        g.send_many(setup)
        # attack: can the attacker, moving first, capture?  defend: can the owner, moving
        # first, save it?  The answer's first word is 0 when it cannot.
        ok, reply = g.send(f"{'attack' if attacker else 'defend'} {vertex}")
    assert ok
    gnugo_captures = reply.split()[0] != "0" if attacker else reply.split()[0] == "0"
    assert gnugo_captures == captured
