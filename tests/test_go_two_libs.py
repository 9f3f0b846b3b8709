"""go_two_libs against the pure-Python reference (two liberties, liberties after a move
with one point taken, on seeded random positions) and on hand-made fights whose answer is
known: the atari a chain cannot escape, the atari it can, the extension of an own chain
of two liberties; and the heavy policy with the step on plays the killing atari."""

import numpy as np

from engine.core import go_policy
from engine.core.go_tactics import NONE
from engine.core.go_two_libs import MANY, libs_if_played, two_lib_moves, two_liberties
from engine.core.layout import BLACK, EMPTY, M_LAST, REP
from engine.core.rng import make_rng
from engine.game.coords import from_gtp
from engine.go_knowledge import DEFAULT_PATH, load

from go_boards import black_to_answer
from test_go_tactics import random_positions

TRIALS = DEFAULT_PATH.parent / "trials"   # the knowledge files of the cand9-* cells


def test_two_liberties_match_the_reference():
    seen = 0
    for st, ref in random_positions(40, seed=8):
        w = st.size + 2
        for i, color in enumerate(ref.board):
            if color == EMPTY:
                continue
            _, libs = ref.chain(ref.board, i)
            a, b = two_liberties(st.s, w, st.s[REP, ref.padded(i)])
            if len(libs) == 2:
                seen += 1
                assert {a, b} == {ref.padded(j) for j in libs}
            else:
                assert (a, b) == (NONE, NONE)
    assert seen > 50


def test_libs_if_played_matches_the_reference():
    rng = np.random.default_rng(2)
    seen = {n: 0 for n in range(MANY + 1)}
    for st, ref in random_positions(30, seed=9):
        w = st.size + 2
        empties = [i for i, c in enumerate(ref.board) if c == EMPTY]
        for color in (1, 2):
            for i in empties:
                p = ref.padded(i)
                captures = any(ref.board[k] == 3 - color and ref.chain(ref.board, k)[1] == {i}
                               for k in ref.neighbours(i))
                others = [j for j in empties if j != i]
                for t in [None] + ([int(rng.choice(others))] if others else []):
                    got = libs_if_played(st.s, w, np.int64(p), color,
                                         np.int64(NONE if t is None else ref.padded(t)))
                    if captures:
                        assert got == MANY
                        continue
                    board = list(ref.board)
                    board[i] = color
                    if t is not None:
                        board[t] = 3 - color
                    want = min(len(ref.chain(tuple(board), i)[1]), MANY)
                    assert got == want
                    seen[want] += 1
    assert min(seen.values()) > 20


# White's last move D1 has two liberties, C1 and D2.  Black D2 kills it (White C1 then
# has B1 alone: C2 is Black's); Black C1 does not (White D2 has D3 and E2).  Black's E1
# (next to D1) has two liberties, F1 and E2, and either gives it three.
EDGE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . X . . . .
. . . O X . .
"""


def _moves(picture, last):
    st = black_to_answer(picture, last)
    buf = np.empty(64, dtype=np.int32)
    n = two_lib_moves(st.s, st.size + 2, st.meta[M_LAST], BLACK, buf)
    return st, {int(p) for p in buf[:n]}


def _at(names, size=7):
    return {from_gtp(name, size) for name in names}


def test_attack_only_where_the_chain_cannot_escape_and_defence_to_three():
    _, moves = _moves(EDGE, "D1")
    assert moves == _at(["D2", "E2", "F1"])


def test_no_attack_on_a_chain_that_captures_its_way_out():
    # EDGE with White F1: Black's E1 is in atari (E2), so after Black D2 White captures
    # E1 instead of running; E1's atari is the atari step's, not a two-liberty defence
    picture = EDGE.replace(". . . O X . .", ". . . O X O .")
    _, moves = _moves(picture, "D1")
    assert moves == set()


def test_a_two_liberty_chain_that_can_run_is_not_attacked():
    picture = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . X . . . .
. . . . . . .
. . . . . . .
"""
    # White D4 has four liberties: nothing to attack, no own chain of two liberties
    _, moves = _moves(picture, "D4")
    assert moves == set()


def test_heavy_policy_plays_the_killing_atari():
    par = load(str(TRIALS / "two_libs.txt")).playout.copy()
    par[go_policy.P_TWO_LIBS] = 1.0
    par[go_policy.P_PATTERN] = 0.0
    rng = make_rng(4)
    buf = np.empty(128, dtype=np.int32)
    pat = load().patterns
    got = set()
    for _ in range(40):
        st = black_to_answer(EDGE, "D1")
        p = go_policy.heavy_move(st.s, st.meta, rng, BLACK, pat, par, buf, None, None)
        got.add(int(p))
    assert got == _at(["D2", "E2", "F1"])


# nakade_self_atari: Black's self-atari inside White's enclosure (bottom rows of 7x7)
def _throw_in(bottom_rows, move):
    picture = "\n".join([". . . . . . ."] * (7 - len(bottom_rows)) + bottom_rows)
    st = black_to_answer(picture, "G7")
    w = st.size + 2
    p = np.int64(from_gtp(move, 7))
    assert go_policy.is_self_atari(st.s, w, p, BLACK, 2.0)
    return go_policy.nakade_self_atari(st.s, w, p, BLACK, np.empty(16, dtype=np.int32))


def test_nakade_self_atari_allows_dead_shapes_only():
    # three in a row, last liberty D1 closed: a straight three once captured
    assert _throw_in([". . . . . O .", "O O O O O O .", "X X . . O . ."], "C1")
    # four in a row: captured, a straight four, which lives
    assert not _throw_in(["O O O O O O .", "X X X . . O ."], "D1")
    # the liberty D1 opens onto D2: not an enclosed space
    assert not _throw_in([". . . . . . .", "O O O . O . .", "X X . . O . ."], "C1")
    # a square of four, liberty C1: dead once captured
    assert _throw_in([". . . . . . .", "O O O . . . .", "X . O . . . .", "X X . O . . ."],
                     "B2")


def test_trial_knowledge_files_differ_from_the_builtin_only_in_their_values():
    base = load()
    changed = {"two_libs": {go_policy.P_TWO_LIBS}, "ladders": {go_policy.LADDER_NODES},
               "nakade": {go_policy.P_NAKADE},
               "selfatari_nakade": {go_policy.SELFATARI_NAKADE},
               "tactics": {go_policy.P_TWO_LIBS, go_policy.LADDER_NODES, go_policy.P_NAKADE,
                           go_policy.SELFATARI_NAKADE}}
    for name, values in changed.items():
        kn = load(str(TRIALS / f"{name}.txt"))
        assert set(np.flatnonzero(kn.playout != base.playout)) == values
        assert (kn.prior == base.prior).all() and (kn.patterns == base.patterns).all()
