"""The tsumego frame (engine.tsumego.frame): it never touches the problem, its own chains
are unconditionally alive, and its komi makes the local result decide the game."""

from pathlib import Path

import numpy as np
import pytest

from engine.game.coords import from_gtp, point
from engine.core.layout import BLACK, EMPTY, WHITE
from engine.game.state import opponent
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.tsumego.frame import frame_problem, region_box, tsumego_frame
from engine.tsumego.stakes import attacker_of
from engine.tsumego.problem import load_problems

PROBLEMS = Path(__file__).parent.parent / "problems"
GO_PROBLEMS = [p for p in load_problems([PROBLEMS]).problems if p.game == "go"]


def chains(state):
    """{frozenset of stones: frozenset of liberties} of every chain on the board."""
    w, seen, out = state.size + 2, set(), {}
    for p in state.points():
        if state.color_at(p) == EMPTY or p in seen:
            continue
        chain = state.chain(p)
        seen |= chain
        out[frozenset(chain)] = frozenset(q + d for q in chain for d in (-1, 1, -w, w)
                                          if state.color_at(q + d) == EMPTY)
    return out


def neighbours(p, n):
    return [p + d for d in (-1, 1, -(n + 2), n + 2)]


def check_frame(problem_state, frame):
    raw, framed = problem_state, frame.state
    n = raw.size
    for p in frame.region:                     # R exactly as it was
        assert framed.color_at(p) == raw.color_at(p)
    problem_stones = {p for p in raw.points() if raw.color_at(p) != EMPTY}
    assert problem_stones <= frame.region
    added = {p for p in framed.points() if framed.color_at(p) != EMPTY} - problem_stones
    assert not added & frame.region
    for p in problem_stones:                   # no frame stone next to a problem stone
        assert not set(neighbours(p, n)) & added
    before, after = chains(raw), chains(framed)
    for stones, libs in before.items():        # every problem chain keeps its liberties
        assert after[stones] == libs
    for stones, libs in after.items():
        if stones & problem_stones:
            continue
        # a frame chain: two liberties that are points enclosed by the chain alone
        eyes = [q for q in libs
                if all(r in stones or framed.color_at(r) == 3 for r in neighbours(q, n))]
        assert len(eyes) >= 2
        colour = framed.color_at(next(iter(stones)))
        if colour != frame.attacker:           # the defender's part never touches R
            assert not {r for q in stones for r in neighbours(q, n)} & frame.region


@pytest.mark.parametrize("problem", GO_PROBLEMS, ids=lambda p: p.name)
def test_the_frame_of_every_problem_leaves_the_problem_alone(problem):
    frame = frame_problem(problem)
    assert frame.framed
    assert frame.state.to_play == problem.to_play
    expected = problem.to_play if problem.goal == "kill" else opponent(problem.to_play)
    assert frame.attacker == expected
    check_frame(problem.state, frame)


def corner_problem(size, to_play=BLACK):
    """White's straight three in the top-left corner, black around it."""
    state = GoState(GoRules(size=size, komi=6.5))
    black = [from_gtp(v, size) for v in ("E%d" % size, "E%d" % (size - 1))]
    black += [from_gtp(f"{c}{size - 2}", size) for c in "ABCDE"]
    white = [from_gtp(f"{c}{size - 1}", size) for c in "ABCD"] + [from_gtp(f"D{size}", size)]
    state.setup(black=black, white=white)
    state.to_play = to_play
    return state


def fill_region(frame, colour, except_points=()):
    """The framed position with every empty point and stone of R turned to ``colour``."""
    n = frame.state.size
    state = GoState(frame.state.rules)
    black = [p for p in frame.state.points() if frame.state.color_at(p) == BLACK
             and p not in frame.region]
    white = [p for p in frame.state.points() if frame.state.color_at(p) == WHITE
             and p not in frame.region]
    for p in frame.region:
        if p not in except_points:
            (black if colour == BLACK else white).append(p)
    state.setup(black=black, white=white)
    assert state.size == n
    return state


@pytest.mark.parametrize("size", [7, 9, 13, 19])
def test_komi_makes_the_attacker_win_by_half_a_point_only_with_all_of_the_region(size):
    frame = tsumego_frame(corner_problem(size), goal="kill")
    a = frame.attacker
    assert a == BLACK and frame.framed
    check_frame(corner_problem(size), frame)
    everything = fill_region(frame, a)
    assert everything.score() == 0.5           # black's view, black is the attacker
    # one defender stone left with one empty point beside it: the defender wins
    n = size
    stone, gap = point(0, 0, n), point(0, 1, n)
    partly = fill_region(frame, a, except_points=(stone, gap))
    partly.setup(white=[stone])
    assert partly.score() == -2.5      # black loses the stone and the dame, white gains one


def test_white_attacker_komi_has_the_other_sign():
    state = corner_problem(19)
    swapped = GoState(GoRules(size=19))
    swapped.setup(black=[p for p in state.points() if state.color_at(p) == WHITE],
                  white=[p for p in state.points() if state.color_at(p) == BLACK])
    frame = tsumego_frame(swapped, goal="live")     # black to move and live
    assert frame.attacker == WHITE
    assert fill_region(frame, WHITE).score() == -0.5


def test_nineteen_has_room_for_the_defenders_part_seven_does_not():
    big = tsumego_frame(corner_problem(19), goal="kill")
    small = tsumego_frame(corner_problem(7), goal="kill")
    outside = lambda f, colour: sum(1 for p in f.state.points()            # noqa: E731
                                    if p not in f.region and f.state.color_at(p) == colour)
    assert outside(big, WHITE) > 100
    assert outside(small, WHITE) == 0
    # balanced areas keep the komi small where the defender has a part
    assert abs(big.komi) < abs(small.komi)


def test_no_frame_when_the_problem_fills_the_board():
    state = GoState(GoRules(size=7, komi=3.5))
    state.setup(black=[from_gtp("A1", 7), from_gtp("G7", 7)], white=[from_gtp("D4", 7)])
    frame = tsumego_frame(state)
    assert not frame.framed and frame.komi == 3.5
    assert np.array_equal(frame.state.board(), state.board())


def test_region_box_from_stones_margin_and_vw():
    state = corner_problem(19)
    board = state.board()
    assert region_box(board) == (0, 3, 0, 5)          # stones rows 0-2, cols 0-4, margin 1
    assert region_box(board, margin=3) == (0, 5, 0, 7)
    vw = {point(r, c, 19) for r in range(0, 8) for c in range(0, 8)}
    assert region_box(board, vw) == (0, 7, 0, 7)
    tight = {point(0, 0, 19)}                         # the stones and their neighbours win
    assert region_box(board, tight) == (0, 3, 0, 5)


def test_attacker_guess_is_the_outside_colour():
    board = corner_problem(19).board()
    assert attacker_of(None, WHITE, board) == BLACK
    assert attacker_of("kill", WHITE, board) == WHITE
    assert attacker_of("live", WHITE, board) == BLACK
    empty = np.zeros((9, 9), dtype=np.int8)
    assert attacker_of(None, BLACK, empty) == WHITE   # no evidence: the side to move defends
