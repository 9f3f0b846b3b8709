"""The solver on life and death (``engine.search.solver.fight_winner`` in the shared
iteration, ``engine.tsumego.solve``): every first move it proves, won or lost, agrees with
the exact minimax of ``engine.tsumego.oracle`` on small enclosed problems of our
collection; fights decided at a leaf; ko lines never proven."""

from pathlib import Path

import numpy as np
import pytest

from engine.game.coords import from_gtp, to_gtp
from engine.core.layout import BLACK, WHITE
from engine.search.base import Budget, Target
from engine.search.registry import make
from engine.search.solver import fight_winner
from engine.search.tree import MOVE, WIN
from engine.tsumego.oracle import exact_answers
from engine.tsumego.problem import load_sgf_problem
from engine.tsumego.solve import (fight_target, position, region_mask, solve, status_of)

from go_boards import board

GO19 = Path(__file__).parent.parent / "problems" / "go" / "19x19"
# small enclosed problems the exact reading finishes in about a second each, both goals
SMALL = ["bent-three-kill", "bulky-five-kill", "bulky-five-live", "corner-six-kill",
         "corner-six-live", "crossed-five-live", "first-line-kill", "corner-stone-live"]
SOLVER = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"


def test_the_fight_is_won_by_capture_or_by_unconditional_life():
    alive = board([".O.OX", "OOOOX", "XXXXX", ".....", "....."])   # two true eyes
    target = np.array([p for p in alive.points() if alive.color_at(p) == WHITE], np.int32)
    assert fight_winner(alive.s, alive.meta, target, BLACK) == WHITE
    one_eye = board(["O..X.", "OOOX.", "XXXX.", ".....", "....."])   # one eye of two points
    target = np.array([p for p in one_eye.points() if one_eye.color_at(p) == WHITE],
                      np.int32)
    assert fight_winner(one_eye.s, one_eye.meta, target, BLACK) == 0
    gone = np.array([from_gtp("E1", 5)], np.int32)   # an empty point: captured
    assert fight_winner(one_eye.s, one_eye.meta, gone, BLACK) == BLACK


@pytest.fixture(scope="module")
def readings():
    """name -> (the exact winning first moves, the solver's proven root moves)."""
    out = {}
    for name in SMALL:
        problem = load_sgf_problem(GO19 / f"{name}.sgf")
        state = position(problem)
        search = make(SOLVER, seed=3, options={"resign_threshold": "0"})
        result = search.search(state, Budget(playouts=3000),
                               allowed=region_mask(problem, state),
                               target=fight_target(problem))
        if result.candidates[0].proven == WIN:
            assert status_of(result, state) == "proved"
        out[name] = (exact_answers(problem),
                     {c.move: c.proven for c in result.candidates if c.proven})
    return out


def test_every_proof_agrees_with_the_exact_minimax(readings):
    for name, (winners, proofs) in readings.items():
        assert winners is not None, name
        for move, proven in proofs.items():
            assert (move in winners) == (proven == WIN), (name, to_gtp(move, 19), proven)


def test_the_solver_proves_moves_on_most_small_problems(readings):
    # a kill is proved only once every defence is read out to a capture, a life as soon as
    # the group has two eyes: the live problems are the ones proved within this budget
    won = [name for name, (_, proofs) in readings.items() if WIN in proofs.values()]
    some = [name for name, (_, proofs) in readings.items() if proofs]
    assert len(won) >= 3 and len(some) >= len(readings) // 2, (won, some)


def test_a_problem_is_proved_and_its_row_says_so():
    problem = load_sgf_problem(GO19 / "bulky-five-live.sgf")
    out = solve(problem, SOLVER, 3000, 0, restrict=True)
    assert out.correct and out.status == "proved"
    assert out.pv.split()[0] == out.move
    assert 0 < out.stable_at <= 3000


def test_a_ko_problem_is_never_proved_through_its_ko():
    problem = load_sgf_problem(GO19 / "corner-ko-kill.sgf")
    out = solve(problem, SOLVER, 3000, 0, restrict=True)
    # the kill is a ko: no line without a ko capture wins it, so nothing is proved
    assert out.status != "proved"


def test_the_fight_of_a_problem_is_its_defenders_stones():
    problem = load_sgf_problem(GO19 / "bent-three-kill.sgf")
    target = fight_target(problem)
    assert isinstance(target, Target) and target.attacker == problem.to_play
    assert set(target.points) == {p for p in problem.state.points()
                                  if problem.state.color_at(p) == 3 - problem.to_play}


def test_a_back_end_that_plans_its_budget_runs_in_one_search():
    problem = load_sgf_problem(GO19 / "bent-three-kill.sgf")
    out = solve(problem, "shot", 400, 0)
    assert out.stable_at is None and out.status in ("found", "ko", "proved", "refuted")
    stepped = solve(problem, "uct", 400, 0)
    assert stepped.stable_at is not None and 0 < stepped.stable_at <= 400


def test_region_tree_keeps_every_tree_move_inside_the_region():
    problem = load_sgf_problem(GO19 / "bent-three-kill.sgf")
    state = problem.state.clone()   # the bare board: outside moves exist everywhere
    mask = region_mask(problem, state)
    inside = set(np.flatnonzero(mask)) | {-1}
    moves = {}
    for region in ("root", "tree"):
        search = make(f"uct:region={region}", seed=5, options={"resign_threshold": "0"})
        search.search(state, Budget(playouts=1500), allowed=mask)
        pool = search.pool
        moves[region] = {int(m) for m in pool.ti[MOVE, 1:pool.used]}
    assert moves["tree"] <= inside
    assert not moves["root"] <= inside     # below the root, "root" plays anywhere
