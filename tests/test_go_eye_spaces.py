"""The heavy policy's own-eye-space steps (``go_policy``): the eye reply, which answers a
move played into the mover's eye space, and the refusal to fill an own eye space
without splitting it; and ``go_tactics.makes_atari``, which the reply scores with.  The
space and atari tests check the kernels against flood fills written out here, on the
seeded random positions of ``test_go_tactics``."""

import numpy as np
import pytest

from engine.core import go_policy
from engine.core.go_policy import (EYE_SPACE_MAX, P_EYE_REPLY, P_OWN_SPACE, eye_reply_move,
                                   fills_own_space)
from engine.core.go_tactics import NONE, makes_atari
from engine.core.layout import EMPTY
from engine.core.rng import make_rng
from engine.game.coords import from_gtp

from go_boards import black_to_answer
from test_go_tactics import policy, random_positions


def reference_fills_own_space(ref, i, color):
    """The flood fill of empty points from ``i``: True when only ``color`` and the edge
    enclose it, it holds 2 to EYE_SPACE_MAX points, and the others stay connected."""
    board = ref.board
    space, todo = {i}, [i]
    while todo:
        for j in ref.neighbours(todo.pop()):
            if board[j] == EMPTY and j not in space:
                space.add(j)
                todo.append(j)
            elif board[j] not in (EMPTY, color):
                return False
    if not 2 <= len(space) <= EYE_SPACE_MAX:
        return False
    rest = space - {i}
    start = next(iter(rest))
    seen, todo = {start}, [start]
    while todo:
        for j in ref.neighbours(todo.pop()):
            if j in rest and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen == rest


def test_fills_own_space_matches_the_reference():
    seen = {True: 0, False: 0}
    buf = np.empty(64, dtype=np.int32)
    for st, ref in random_positions(200, seed=11):
        w = st.size + 2
        for color in (1, 2):
            for i, c in enumerate(ref.board):
                if c == EMPTY:
                    want = reference_fills_own_space(ref, i, color)
                    assert fills_own_space(st.s, w, ref.padded(i), color, buf) == want
                    seen[want] += 1
    assert seen[True] > 15 and seen[False] > 50   # both answers were asked for


def test_makes_atari_matches_the_reference():
    seen = 0
    for st, ref in random_positions(40, seed=13):
        w = st.size + 2
        for color in (1, 2):
            for i, c in enumerate(ref.board):
                if c != EMPTY:
                    continue
                want = False
                for j in ref.neighbours(i):
                    if ref.board[j] == 3 - color:
                        _, libs = ref.chain(ref.board, j)
                        want |= len(libs) == 2 and i in libs
                assert makes_atari(st.s, w, ref.padded(i), color) == want
                seen += want
    assert seen > 50


def corner(*rows: str) -> str:
    """A 7x7 picture whose bottom rows are ``rows`` (top first), empty above them."""
    return "\n".join([". " * 6 + "."] * (7 - len(rows)) + list(rows))


# Black's eye spaces in the lower left corner with White's last move inside, and Black's
# answer (None: the reply has none)
REPLIES = [
    ("rectangular six, the 2-1 point: the point that splits it",
     corner("X X X X . . .", ". . . X . . .", ". O . X . . ."), "B1", "B2"),
    ("straight four, the 2-1 point: the atari that splits it",
     corner("X X X X X . .", ". O . . X . ."), "B1", "C1"),
    ("an open space", corner(". O . . . . ."), "B1", None),
    ("one empty point left", corner("X X X . . . .", ". O X . . . ."), "B1", None),
    ("the last move is not White's stone", corner("X X X X X . .", ". X . . X . ."), "B1",
     None),
]


@pytest.mark.parametrize("name, picture, last, reply", REPLIES, ids=[r[0] for r in REPLIES])
def test_the_eye_reply_answers_a_move_inside_an_own_eye_space(name, picture, last, reply):
    st = black_to_answer(picture, last)
    n = st.size
    buf = np.empty(64, dtype=np.int32)
    got = eye_reply_move(st.s, st.meta, make_rng(1), n + 2, from_gtp(last, n), 1, buf)
    assert got == (NONE if reply is None else from_gtp(reply, n))
    if reply is not None:   # the heavy policy with the step always on plays it
        par = policy()
        par[P_EYE_REPLY] = 1.0
        move = go_policy.heavy_move(st.s, st.meta, make_rng(1), 1,
                                    np.zeros(1 << 16, np.uint8), par, buf, None, True)
        assert move == from_gtp(reply, n)


def uniform_draws(st, par, count=300):
    """The moves of ``count`` uniform steps (no other step is on) from the same position."""
    rng = make_rng(5)
    buf = np.empty(st.s.shape[1], dtype=np.int32)
    pat = np.zeros(1 << 16, np.uint8)
    return {int(go_policy.heavy_move(st.s, st.meta, rng, 1, pat, par, buf, None, True))
            for _ in range(count)}


def test_the_uniform_step_refuses_to_fill_an_own_eye_space_unless_it_splits_it():
    # Black's straight three A1-C1 and a two-point space E1-F1 beside White's open area
    picture = corner(". . . O . . .", ". . . O . . .", ". . . O . . .", "X X X X X X X",
                     ". . . X . . X")
    st = black_to_answer(picture, "D5")
    n = st.size
    ends = {from_gtp(v, n) for v in ("A1", "C1", "E1", "F1")}
    off = uniform_draws(st, policy())
    assert ends <= off                      # without the refusal every one is drawn
    par = policy()
    par[P_OWN_SPACE] = 1.0
    on = uniform_draws(st, par)
    assert not ends & on
    assert from_gtp("B1", n) in on          # the middle makes two eyes: still drawn
