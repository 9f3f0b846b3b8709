"""What a problem without a goal is about (engine.tsumego.stakes): the attacker is the side
that walls the other in, and the target leaves out the defender's outside stones.

The practice problems below are real ones whose answer settles who attacks: the correct
first move (Black's) makes the eyes of a Black group shut in by White (White attacks),
or kills a White group shut in by Black (Black attacks)."""

from pathlib import Path

import numpy as np
import pytest

from engine.core.layout import BLACK, EMPTY, WHITE
from engine.game.coords import from_gtp, to_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.search.solver import fight_result
from engine.tsumego.frame import frame_problem, region_box
from engine.tsumego.problem import load_problems
from engine.tsumego.solve import fight_kind, fight_target
from engine.tsumego.stakes import open_sides, reach, stakes

PRACTICE = (Path(__file__).resolve().parents[2]
            / "shared/outside-suites/sanderland-practice/sgf")
PROBLEMS = Path(__file__).parent.parent / "problems"


def practice(name):
    path = PRACTICE / f"{name}.sgf"
    if not path.exists():
        pytest.skip(f"{path} not here")
    return load_problems([path]).problems[0]


def board_of(rows):
    """A 19x19 board with ``rows`` (strings of X, O, .) in its top-left corner."""
    board = np.zeros((19, 19), dtype=np.int8)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            board[r, c] = {"X": BLACK, "O": WHITE, ".": EMPTY}[ch]
    return board


def test_open_sides_are_the_box_sides_off_the_board_edge():
    side = open_sides(19, (0, 4, 0, 6))        # a top-left corner box
    assert side[4, :7].all() and side[:5, 6].all()
    assert not side[0, :6].any() and not side[:4, 0].any()
    assert side.sum() == 7 + 5 - 1


def test_a_gap_next_to_the_wall_is_no_way_out():
    # White's corner group behind a Black wall with a one-point gap at C3 (next to
    # Black's B3 and D3 stones): shut in.  Black's wall reaches the open sides.
    board = board_of(["OO.X....",
                      "O..X....",
                      "OO.X....",
                      "XX.X....",
                      "........"])
    box = (0, 4, 0, 7)
    white = reach(board, box, WHITE)
    assert (white[board == WHITE] < 0).all()
    assert (reach(board, box, BLACK)[board == BLACK] >= 0).all()
    attacker, target = stakes(board, box, to_play=BLACK)
    assert attacker == BLACK
    assert sorted(to_gtp(p, 19) for p in target) == ["A17", "A18", "A19", "B17", "B19"]


def test_the_ring_decides_over_depth():
    # newly-selected 081: a Black group in the open, ringed by White; Black's P16 makes
    # its eyes.  The old depth guess (Black's stones lie deeper) called Black the attacker.
    problem = practice("sl-maeda-nobuaki-newly-selected-tsumego-100-problems-for-1-8k-081")
    board = problem.state.board()
    attacker, target = stakes(board, region_box(board, problem.region), problem.to_play)
    assert attacker == WHITE
    assert set(target) == {p for p in problem.state.points()
                           if problem.state.color_at(p) == BLACK}
    assert frame_problem(problem).attacker == WHITE


def test_a_shut_in_group_with_cutting_stones_defends():
    # 1 Year Tsumego 181: Black's ten stones inside White's net, White's cutting stones
    # D3, D2, F4 inside; Black's E3 lives.
    problem = practice("sl-1-year-tsumego-problem-181")
    target = fight_target(problem)
    assert target.attacker == WHITE
    assert from_gtp("C3", 19) in target.points


def test_outside_stones_are_left_out_of_the_target():
    # Maeda 10k-5k 145: Black kills White's R-column group (T15 or T12); White's Q13, Q12,
    # Q11 and S11 stand on the region's open side, outside the fight.
    problem = practice("sl-maeda-tsumego-collection-10k-5k-145")
    target = fight_target(problem)
    assert target.attacker == BLACK
    points = {to_gtp(p, 19) for p in target.points}
    assert {"R17", "S17", "R16", "T16", "R15", "S15", "R14"} <= points
    assert not {"Q13", "Q12", "Q11", "S11"} & points


def test_the_kind_of_fight_names_the_movers_task():
    kinds = {p.name: fight_kind(p) for p in load_problems([PROBLEMS / "go"]).problems}
    assert kinds["bent-three-kill"] == "kill" and kinds["straight-three-live"] == "live"
    assert set(kinds.values()) == {"kill", "live"}     # every defender stone at stake


def test_the_kind_of_fight_names_the_defenders_outside_stones():
    assert fight_kind(practice("sl-maeda-tsumego-collection-10k-5k-145")) == \
        "kill, outside stones"
    assert fight_kind(practice("sl-1-year-tsumego-problem-181")) == "live"


def test_weak_cutting_stones_near_the_open_side_stay_at_stake():
    # newly-selected 089: Black's M14 catches White's M16-M15 (two liberties) by the
    # region's open bottom side.
    problem = practice("sl-maeda-nobuaki-newly-selected-tsumego-100-problems-for-1-8k-089")
    target = fight_target(problem)
    assert target.attacker == BLACK
    assert {"M16", "M15"} <= {to_gtp(p, 19) for p in target.points}


def test_a_goal_names_the_attacker_and_our_collection_keeps_its_fights():
    # every problem of ours names its goal, and none has defender stones outside: the
    # target is every defender stone, as before stakes existed
    for problem in load_problems([PROBLEMS / "go"]).problems:
        target = fight_target(problem)
        assert target.attacker == (problem.to_play if problem.goal == "kill"
                                   else 3 - problem.to_play)
        assert set(target.points) == {p for p in problem.state.points()
                                      if problem.state.color_at(p) == 3 - target.attacker}


def test_a_fight_is_judged_by_its_target_not_by_the_score():
    # White owns most of this board, but its target stone at A5 is gone: Black's fight is
    # won; with a White stone on a target point the defender has lived
    state = GoState(GoRules(size=5))
    state.setup(black=[from_gtp(v, 5) for v in ("A4", "B5")],
                white=[from_gtp(v, 5) for v in ("C3", "D3", "C2", "D2", "E4")])
    gone = np.array([from_gtp("A5", 5)], np.int32)
    assert fight_result(state.s, gone, BLACK) == BLACK
    standing = np.array([from_gtp("A5", 5), from_gtp("C3", 5)], np.int32)
    assert fight_result(state.s, standing, BLACK) == WHITE
