"""The VCF problems of ``problems/gomoku`` (composed by ``scripts/research/make_gomoku_problems.py``):
each loads through the tsumego loader; every RIGHT first move is a forced win that the
plain-Python reading of ``tests/vcf_reference.py`` proves on its own (any reply but the
block loses to a five; the block leaves another such win), inside five attacker moves;
and every winning first move that the collection's own freestyle oracle
(``engine.tsumego.gobang_oracle``) reads with at most four fours is among them.  That
oracle gives a line up when a forced block makes a four of the defender's, where ours
(and the engine) go on with a four on the point that stops it, so it may find fewer."""

from pathlib import Path

import pytest

from engine.game.coords import row_col
from engine.tsumego.gobang_oracle import gobang_answers
from engine.tsumego.problem import load_problems

import vcf_reference as ref

FOLDER = Path(__file__).resolve().parent.parent / "problems" / "gomoku"
REPORT = load_problems([FOLDER])
MOVES = 5     # the generator's four fours and the five


def test_the_collection_loads_whole():
    assert not REPORT.errors
    assert len(REPORT.problems) >= 40
    assert all(p.accept and "win" in p.tags for p in REPORT.problems)


@pytest.mark.parametrize("problem", REPORT.problems, ids=lambda p: p.name)
def test_every_right_move_wins_by_force(problem):
    state = problem.state
    grid = [[int(v) for v in row] for row in state.board()]
    me = state.to_play
    rule = state.rules.variant
    assert not ref.winning_points(grid, me, rule)           # no five at once
    assert not ref.winning_points(grid, 3 - me, rule)       # nothing to block first
    for move in problem.accept:
        r, c = row_col(move, state.size)
        assert ref.legal(grid, r, c, me, rule)
        grid[r][c] = me
        assert ref.wins_after(grid, me, rule, MOVES), (problem.name, move)
        grid[r][c] = 0


@pytest.mark.parametrize("problem", REPORT.problems, ids=lambda p: p.name)
def test_the_oracles_winning_moves_are_all_marked(problem):
    assert problem.state.rules.variant == "freestyle"
    assert gobang_answers(problem, MOVES - 1) <= set(problem.accept)
