"""Threat proofs inside the tree (``tree_search.run`` calling
``solver.prove_by_threats`` at a Gobang leaf's first visit, with ``solver=1`` and
``threat_nodes`` > 0): a VCF problem the plain solver cannot settle is proven and its
winning move played, and every leaf the tree proves by threats is what the plain-Python
reading of ``tests/vcf_reference.py`` says it is."""

from pathlib import Path

import pytest

from engine.search import registry
from engine.search.base import Budget
from engine.search.solver import TREE_VCF_DEPTH
from engine.search.tree import FIRST, LOSS, MOVE, NCHILD, PROVEN, WIN
from engine.tsumego.problem import load_problems
from engine.tsumego.solve import solve

import numpy as np
import vcf_reference as ref
from test_vcf import clustered_game, grid_of

FOLDER = Path(__file__).resolve().parent.parent / "problems" / "gomoku"
PLAYOUTS = 300


@pytest.fixture(scope="module")
def problem():
    return next(p for p in load_problems([FOLDER]).problems if p.name == "vcf-freestyle-01")


@pytest.mark.parametrize("back_end", ["uct", "linuct"])
def test_the_tree_proves_a_win_the_plain_solver_misses(problem, back_end):
    on = registry.make(f"{back_end}:solver=1:threat_nodes=200", seed=1)
    found = on.search(problem.state.clone(), Budget(playouts=PLAYOUTS))
    assert found.candidates[0].proven == 1 and found.move in problem.accept
    assert found.playouts < PLAYOUTS      # the proven root ends the search
    off = registry.make(f"{back_end}:solver=1", seed=1)
    plain = off.search(problem.state.clone(), Budget(playouts=PLAYOUTS))
    assert plain.candidates[0].proven != 1 and plain.playouts == PLAYOUTS


def test_the_tsumego_harness_runs_the_tree_proofs(problem):
    # the harness hands UCT its fight target through the root VCF's wrapper
    outcome = solve(problem, "uct:solver=1:threat_nodes=200", 500, 0)
    assert outcome.status == "proved" and outcome.correct


def threat_proven_leaves(pool, state):
    """(position after the leaf's move, the leaf's mover, its value) for every proven leaf
    of the tree that is not a finished game: the ones ``prove_by_threats`` settled."""
    ti = pool.ti
    stack = [(0, state)]
    while stack:
        node, pos = stack.pop()
        for child in range(ti[FIRST, node], ti[FIRST, node] + ti[NCHILD, node]):
            after = pos.clone()
            mover = after.to_play
            after.play(int(ti[MOVE, child]))
            if ti[NCHILD, child] > 0:
                stack.append((child, after))
            elif ti[PROVEN, child] != 0 and not after.is_terminal():
                yield after, mover, int(ti[PROVEN, child])


@pytest.mark.parametrize("rule", ["freestyle", "exact5", "renju"])
def test_every_tree_proof_agrees_with_the_reference(rule):
    rng = np.random.default_rng(5)
    checked = {WIN: 0, LOSS: 0}
    positions = 0
    while positions < 4:
        state = clustered_game(rng, None, rule, 9, int(rng.integers(20, 28)))
        if state is None:
            continue
        positions += 1
        searcher = registry.make("uct:solver=1:threat_nodes=100:expand_after=2", seed=3)
        searcher.search(state.clone(), Budget(playouts=300))
        for after, mover, value in threat_proven_leaves(searcher.pool, state):
            grid = grid_of(after)
            to_move = 3 - mover
            if value == LOSS:   # the side to move wins by fours (a five is one)
                assert ref.forced_win(grid, to_move, rule, TREE_VCF_DEPTH + 1) is not None
            else:               # two winning points, or one the side to move may not take
                assert not ref.winning_points(grid, to_move, rule)
                blocks = [p for p in ref.winning_points(grid, mover, rule)
                          if ref.legal(grid, *p, to_move, rule)]
                assert len(ref.winning_points(grid, mover, rule)) >= 2 or (
                    ref.winning_points(grid, mover, rule) and not blocks)
            checked[value] += 1
    assert checked[LOSS] > 0 and checked[WIN] > 0   # both kinds of proof were checked
