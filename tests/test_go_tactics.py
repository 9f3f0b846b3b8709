"""go_tactics and the heavy playout policy against the pure-Python reference: liberties,
atari, self-atari on seeded random positions; the heavy policy's moves are legal, never
fill an own eye, take what the atari step offers and refuse what the self-atari step
refuses."""

import numpy as np
import pytest

from engine.game.board_text import parse
from engine.core import go_policy
from engine.core.amaf import first_color
from engine.core.go_kernels import PASS, is_eye, is_legal
from engine.core.go_ladder import WithLadders
from engine.core.go_playout import WithEyeSpaces, heavy_par, policy_playout
from engine.core.go_policy import (LADDER_NODES, P_ATARI, P_NAKADE, P_PATTERN, P_SELFATARI,
                                   SELFATARI_STONES)
from engine.core.go_tactics import NONE, atari_liberty, is_self_atari, libs_after, size_after
from engine.game.coords import from_gtp
from engine.core.layout import BLACK, BOARD, EMPTY, M_LAST, M_LAST2, M_PASSES, M_TO_PLAY, REP
from engine.core.rng import make_rng
from engine.go_knowledge import load
from engine.game.go_state import GoState
from engine.game.rules import GoRules

from go_boards import black_to_answer
from go_reference import ReferenceGo


def random_positions(count, size=7, seed=3):
    """(GoState, ReferenceGo) pairs after random light-policy games of random length."""
    rng = np.random.default_rng(seed)
    krng = make_rng(seed)
    for _ in range(count):
        st = GoState(GoRules(size=size, komi=7.5, superko=False))
        ref = ReferenceGo(size, superko=False)
        for _ in range(int(rng.integers(5, 3 * size * size))):
            move = int(go_policy.random_move(st.s, st.meta, krng, st.to_play))
            if move == PASS:
                break
            st.play(move)
            ref.play(move)
        yield st, ref


def test_atari_liberty_matches_the_reference():
    checked = 0
    for st, ref in random_positions(40):
        w = st.size + 2
        for i, color in enumerate(ref.board):
            if color == EMPTY:
                continue
            _, libs = ref.chain(ref.board, i)
            got = atari_liberty(st.s, w, st.s[REP, ref.padded(i)])
            want = ref.padded(next(iter(libs))) if len(libs) == 1 else NONE
            assert got == want
            checked += len(libs) == 1
    assert checked > 50   # the positions did contain chains in atari


def test_libs_after_size_after_and_self_atari_match_the_reference():
    seen = {"capture": 0, "self_atari": 0, "two": 0}
    for st, ref in random_positions(30, seed=5):
        w = st.size + 2
        for color in (1, 2):
            for i, c in enumerate(ref.board):
                if c != EMPTY:
                    continue
                p = ref.padded(i)
                out = ref.outcome(p, color)
                got = libs_after(st.s, w, p, color)
                if out is None:     # a suicide: no liberty at all
                    assert got == 0
                    continue
                board, captured, _ = out
                stones, libs = ref.chain(board, i)
                if captured:
                    # captured stones away from p may add liberties the count leaves out
                    seen["capture"] += 1
                    assert 1 <= got <= min(len(libs), 2)
                else:
                    assert got == min(len(libs), 2)
                    assert size_after(st.s, w, p, color) == len(stones)
                    for k in (1, 2, 3):
                        want = len(libs) <= 1 and len(stones) >= k
                        assert is_self_atari(st.s, w, p, color, k) == want
                    seen["self_atari"] += len(libs) == 1
                    seen["two"] += len(libs) >= 2
    assert min(seen.values()) > 20


def policy(atari=0.0, pattern=0.0, selfatari=0.0, stones=2, nakade=0.0):
    par = np.zeros(go_policy.N_PARAMS)
    par[P_ATARI], par[P_PATTERN], par[P_SELFATARI] = atari, pattern, selfatari
    par[SELFATARI_STONES], par[P_NAKADE] = stones, nakade
    return par


def reference_atari_moves(ref, last, color):
    """Step 1 by the reference: capture the last move's chain in atari; save an own chain
    next to it from atari by capturing a neighbour in atari or extending to 2+ libs."""
    moves = set()
    li = ref.index(last)
    board = ref.board
    stones, libs = ref.chain(board, li)
    if len(libs) == 1:
        moves.add(ref.padded(next(iter(libs))))
    for k in ref.neighbours(li):
        if board[k] != color:
            continue
        own, own_libs = ref.chain(board, k)
        if len(own_libs) != 1:
            continue
        for j in own:
            for m in ref.neighbours(j):
                if board[m] == 3 - color:
                    _, their = ref.chain(board, m)
                    if len(their) == 1:
                        moves.add(ref.padded(next(iter(their))))
        lib = next(iter(own_libs))
        out = ref.outcome(ref.padded(lib), color)
        if out is not None and len(ref.chain(out[0], lib)[1]) >= 2:
            moves.add(ref.padded(lib))
    legal = set(ref.legal_moves(color, superko=False))
    return {m for m in moves if m in legal and not ref.is_eye(m, color)}


def test_heavy_moves_are_legal_and_follow_the_atari_step():
    kn = load()
    rng = make_rng(11)
    buf = np.empty(100, dtype=np.int32)
    hits = 0
    for st, ref in random_positions(60, seed=7):
        last = int(st.meta[M_LAST])
        color = st.to_play
        if last < 0:
            continue
        want = reference_atari_moves(ref, last, color)
        for par in (policy(atari=1.0), kn.playout):
            move = int(go_policy.heavy_move(st.s, st.meta, rng, color, kn.patterns, par, buf,
                                            None, None))
            if move != PASS:
                assert is_legal(st.s, st.meta, move, color)
                assert not is_eye(st.s, st.size + 2, move, color)
            if want and par is not kn.playout:
                assert move in want
                hits += 1
    assert hits > 5


def test_the_atari_step_captures_escapes_and_counter_captures():
    # white's last move b2 is in atari (c2 takes it); black a2 and b3 are in atari too:
    # a4 takes the white a3 stone that holds both, b4 extends b3 to three liberties, and
    # a1 is no escape (a2-a1-b1 would keep one liberty)
    n, black, white = parse("""
        . . . . .
        . . . . .
        O X O . .
        X O . . .
        . X . . .
    """)
    st = GoState(GoRules(size=n, komi=0.5, superko=False))
    st.setup(black=black, white=white)
    last = from_gtp("B2", n)
    st.meta[M_LAST] = last
    st.meta[M_TO_PLAY] = 1
    buf = np.empty(64, dtype=np.int32)
    k = go_policy.atari_moves(st.s, st.meta, n + 2, last, 1, buf, None, 0)
    assert set(buf[:k].tolist()) == {from_gtp(v, n) for v in ("C2", "A4", "B4")}
    ref = ReferenceGo(n, superko=False)
    ref.setup(black=black, white=white)
    assert reference_atari_moves(ref, last, 1) == set(buf[:k].tolist())



def test_the_pattern_step_looks_around_the_last_two_moves_with_pattern2():
    # every 3x3 neighbourhood matches: the step's candidates are the points around the
    # last move (and with pattern2 the mover's own last move) that are legal, no own eye
    # and no self-atari of two stones or more; each is drawn in 400 tries
    rng = make_rng(3)
    every = np.ones(1 << 16, np.uint8)
    buf = np.empty(100, dtype=np.int32)
    tried = 0
    for st, _ in random_positions(30, seed=13):
        w, color = st.size + 2, st.to_play
        last, last2 = int(st.meta[M_LAST]), int(st.meta[M_LAST2])
        if last < 0 or last2 < 0:
            continue
        for centres in ((last, -1), (last, last2)):
            want = {p for c in centres if c >= 0
                    for p in (c - w - 1, c - w, c - w + 1, c - 1, c + 1, c + w - 1, c + w,
                              c + w + 1)
                    if st.s[BOARD, p] == EMPTY and is_legal(st.s, st.meta, p, color)
                    and not is_eye(st.s, w, p, color) and not is_self_atari(st.s, w, p, color, 2)}
            got = {int(go_policy.pattern_move(st.s, st.meta, rng, w, centres[0], centres[1],
                                              color, every, 2, buf)) for _ in range(400)}
            assert got == (want or {NONE})
        tried += 1
    assert tried > 10


def test_the_capture_step_takes_a_chain_left_in_atari_next_to_the_own_last_move():
    # the reference's chains: the last liberties of the opponent's chains in atari that
    # touch the mover's own last move and are legal for it and fill no own eye, each
    # drawn in 300 tries
    rng = make_rng(4)
    buf = np.empty(100, dtype=np.int32)
    found = 0
    for st, ref in random_positions(300, seed=17):
        color = st.to_play
        own_last = int(st.meta[M_LAST2])
        if own_last < 0:
            continue
        near = set(ref.neighbours(ref.index(own_last)))
        legal = set(ref.legal_moves(color, superko=False))
        want = {ref.padded(next(iter(libs))) for c, stones, libs in ref.chains()
                if c == 3 - color and len(libs) == 1 and stones & near}
        want = {p for p in want if p in legal and not ref.is_eye(p, color)}
        got = {int(go_policy.capture_move(st.s, st.meta, rng, st.size + 2, own_last, color,
                                          buf)) for _ in range(300)}
        assert got == (want or {NONE})
        found += bool(want)
    assert found > 5


def test_the_uniform_step_refuses_self_atari_when_told():
    rng = make_rng(2)
    refused = 0
    for st, ref in random_positions(40, seed=9):
        color = st.to_play
        par = policy(selfatari=1.0, stones=1)
        for _ in range(3):
            move = int(go_policy.heavy_move(st.s, st.meta, rng, color, np.zeros(1 << 16, np.uint8),
                                            par, np.empty(100, dtype=np.int32),
                                            None, None))
            if move == PASS:
                continue
            assert not is_self_atari(st.s, st.size + 2, move, color, 1)
        refused += any(is_self_atari(st.s, st.size + 2, ref.padded(i), color, 1)
                       for i, c in enumerate(ref.board) if c == EMPTY
                       and ref.outcome(ref.padded(i), color) is not None)
    assert refused > 10   # self-ataris were on offer


def test_heavy_playouts_end_and_are_repeatable():
    kn = load()
    st = GoState(GoRules(size=9))
    results = []
    for _ in range(2):
        s, meta = st.s.copy(), st.meta.copy()
        amaf = np.zeros(s.shape[1], dtype=np.int8)
        moves = policy_playout(s, meta, st.zob, make_rng(4), amaf, kn.patterns, kn.playout)
        assert meta[M_PASSES] >= 2 or moves >= 3 * s.shape[1]
        results.append((moves, s[BOARD].tobytes(), amaf.tobytes()))
    assert results[0] == results[1]


# white's eye spaces in the corner, each with the last white move next to it, and the
# vital point black must take (None: the shape has none)
EYE_SPACES = [
    ("bent three", ". . . . .\n. . . . .\nO O . . .\n. O . . .\n. . O . .", "B2", "A1"),
    ("straight three", ". . . . .\n. . . . .\n. . . . .\nO O O O .\n. . . O .", "D1",
     "B1"),
    ("bulky five", ". . . . .\n. . . . .\nO O O . .\n. . O . .\n. . . O .", "C2", "B1"),
    ("pyramid four", ". . . . .\n. . . . .\n. . O . .\n. O . O .\nO . . . O", "D2", "C1"),
    ("straight four", ". . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n"
     "O O O O O .\n. . . . O .", "E1", None),
    ("square four", ". . . . .\n. . . . .\nO O O . .\n. . O . .\n. . O . .", "C2", None),
    ("two points", ". . . . .\n. . . . .\n. . . . .\nO O O . .\n. . O . .", "C1", None),
    ("seven points", ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n"
     ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n"
     "O O O O O O O O .\n. . . . . . . O .", "H1", None),
    ("a black stone inside", ". . . . .\n. . . . .\nO O O . .\nX . O . .\n. . . O .",
     "C2", None),
]


@pytest.mark.parametrize("name, picture, last, vital", EYE_SPACES,
                         ids=[e[0] for e in EYE_SPACES])
def test_the_nakade_step_finds_the_vital_point_of_a_small_eye_space(name, picture, last,
                                                                     vital):
    st = black_to_answer(picture, last)
    n = st.size
    buf = np.empty(64, dtype=np.int32)
    got = go_policy.nakade_move(st.s, st.meta, n + 2, from_gtp(last, n), 1, buf)
    assert got == (NONE if vital is None else from_gtp(vital, n))
    if vital is not None:   # the heavy policy with the step always on plays it
        move = go_policy.heavy_move(st.s, st.meta, make_rng(1), 1, np.zeros(1 << 16, np.uint8),
                                    policy(nakade=1.0), buf, None, True)
        assert move == from_gtp(vital, n)


def test_the_eye_space_steps_are_compiled_into_playouts_only_when_the_file_turns_one_on():
    # the bent three: a playout whose nakade step is on starts on the vital point A1
    st = black_to_answer(EYE_SPACES[0][1], EYE_SPACES[0][2])
    vital = from_gtp("A1", st.size)
    par = policy(atari=1.0, pattern=1.0, nakade=1.0)
    assert go_policy.reads_eye_spaces(par) and not go_policy.reads_eye_spaces(policy())

    def first_at_vital(playout_par):
        """Who played A1 first in each of a dozen playouts (0: nobody)."""
        firsts = []
        for seed in range(12):
            s, meta = st.s.copy(), st.meta.copy()
            amaf = np.zeros(s.shape[1], dtype=np.int32)
            policy_playout(s, meta, st.zob, make_rng(seed), amaf, np.zeros(1 << 16, np.uint8),
                           playout_par)
            firsts.append(int(first_color(amaf[vital])))
        return firsts

    wrapped = heavy_par(par)
    assert isinstance(wrapped, WithEyeSpaces) and wrapped.inner is par
    laddered = par.copy()
    laddered[LADDER_NODES] = 50
    assert isinstance(heavy_par(laddered).inner, WithLadders)
    assert first_at_vital(wrapped) == [BLACK] * 12
    assert first_at_vital(heavy_par(laddered)) == [BLACK] * 12
    # the bare array compiles the policy without the step, whatever the array says
    assert first_at_vital(par) != [BLACK] * 12
