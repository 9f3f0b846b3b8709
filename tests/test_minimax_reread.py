"""UCT's tsumego options for carrying refutations to the root: ``minimax`` (a node's
value mixes its mean with its best reply's, ``engine.search.minimax``) against the rule
written out in Python; ``reread`` (the two most visited root moves searched again in
trees of their own, ``engine.search.reread``): the budget it spends, when it demotes the
most visited move, and a composed problem still solved with it; ``ko_draw`` (a fight
won through a ko capture is half a win, ``uct_kernels.ko_draws``)."""

from pathlib import Path

import numpy as np
import pytest

from engine.core.layout import BLACK
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.search import minimax, registry, uct_kernels
from engine.search.base import Budget, Candidate, SearchResult, Target
from engine.search.reread import Rereader
from engine.search.tree import (FIRST, LOSS, MINIMAX, MOVE, NCHILD, PRIOR_N, PRIOR_W, PROVEN,
                                TF_ROWS, TI_ROWS, VISITS, WIN, WINS)
from engine.tsumego.problem import load_sgf_problem
from engine.tsumego.solve import fight_target, position, region_mask, solve

GO19 = Path(__file__).parent.parent / "problems" / "go" / "19x19"
SOLVER = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"


def chain_tree():
    """Root 0 -> children 1, 2, 3; node 1 -> children 4, 5 (a path 0, 1, 4)."""
    ti = np.zeros((TI_ROWS, 6), dtype=np.int32)
    tf = np.zeros((TF_ROWS, 6))
    ti[FIRST] = -1
    ti[FIRST, 0], ti[NCHILD, 0] = 1, 3
    ti[FIRST, 1], ti[NCHILD, 1] = 4, 2
    ti[MOVE, 1:] = [20, 21, 22, 30, 31]
    return ti, tf


def reference_value(ti, tf, node, alpha, min_visits):
    """The documented rule, written out."""
    n = ti[VISITS, node] + ti[PRIOR_N, node]
    q = (tf[WINS, node] + tf[PRIOR_W, node]) / n
    values = []
    for i in range(ti[FIRST, node], ti[FIRST, node] + max(ti[NCHILD, node], 0)):
        if ti[PROVEN, i] == WIN:
            values.append(1.0)
        elif ti[PROVEN, i] == LOSS:
            values.append(0.0)
        elif ti[VISITS, i] >= min_visits:
            values.append(tf[MINIMAX, i])
    return q if not values else (1 - alpha) * q + alpha * (1 - max(values))


def test_a_node_mixes_its_mean_with_its_best_qualified_reply():
    ti, tf = chain_tree()
    ti[VISITS, 1], tf[WINS, 1] = 40, 30.0          # 0.75 for its mover
    ti[VISITS, 4:6] = [25, 10]
    tf[MINIMAX, 4:6] = [0.9, 0.99]                 # 5 has too few visits to count
    got = minimax.node_value(ti, tf, 1, 0.5, 20)
    assert got == pytest.approx(0.5 * 0.75 + 0.5 * 0.1)
    assert got == pytest.approx(reference_value(ti, tf, 1, 0.5, 20))
    ti[PROVEN, 5] = WIN                            # a proven win counts, whatever its visits
    assert minimax.node_value(ti, tf, 1, 0.5, 20) == pytest.approx(0.5 * 0.75)
    ti[PROVEN, 5] = 0
    ti[VISITS, 4] = 5                              # no reply qualifies: the mean alone
    assert minimax.node_value(ti, tf, 1, 1.0, 20) == pytest.approx(0.75)


def test_the_backup_recomputes_the_path_leaf_first_with_priors_counted():
    rng = np.random.default_rng(3)
    for _ in range(30):
        ti, tf = chain_tree()
        ti[VISITS] = rng.integers(1, 60, size=6)
        tf[WINS] = rng.random(6) * ti[VISITS]
        ti[PRIOR_N, 1:] = rng.integers(0, 10, size=5)
        tf[PRIOR_W, 1:] = rng.random(5) * ti[PRIOR_N, 1:]
        tf[MINIMAX, 5] = rng.random()
        alpha, min_visits = float(rng.random()), int(rng.integers(1, 40))
        minimax.backup(ti, tf, np.array([0, 1, 4], dtype=np.int32), 2, alpha, min_visits)
        expect = tf.copy()
        expect[MINIMAX, 4] = reference_value(ti, expect, 4, alpha, min_visits)
        expect[MINIMAX, 1] = reference_value(ti, expect, 1, alpha, min_visits)
        assert tf[MINIMAX, 4] == pytest.approx(expect[MINIMAX, 4])
        assert tf[MINIMAX, 1] == pytest.approx(expect[MINIMAX, 1])


def test_selection_reads_the_minimax_value_of_visited_children():
    ti, tf = chain_tree()
    ti[VISITS, 1:4] = [30, 30, 0]
    tf[WINS, 1:4] = [24.0, 12.0, 0.0]              # means 0.8 and 0.4
    tf[MINIMAX, 1:4] = [0.3, 0.6, 0.9]             # 1 is refuted below
    ti[NCHILD, 1] = 0
    ti[VISITS, 0] = 61
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, False) == 3   # unvisited
    ti[PRIOR_N, 3], tf[PRIOR_W, 3] = 10, 1.0       # priors only: read as their mean, 0.1
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, False) == 1
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, False, True) == 2


def result_of(candidates):
    return SearchResult(move=candidates[0].move, winrate=candidates[0].winrate,
                        playouts=100, seconds=0.0, candidates=candidates)


def test_the_most_visited_move_is_demoted_only_when_refuted_and_the_runner_up_is_not():
    rr = Rereader(lambda params: None)
    result = result_of([Candidate(1, 90, 0.6), Candidate(2, 50, 0.4), Candidate(3, 10, 0.3)])
    assert rr.prefer(result) is result             # nothing re-read yet
    for top, runner_up, swapped in [(0.3, 0.7, True), (0.3, 0.45, False),
                                    (0.6, 0.9, False), (0.2, 0.5, True)]:
        rr._values = {1: top, 2: runner_up}
        got = rr.prefer(result)
        assert got.move == (2 if swapped else 1)
        assert got.candidates[0].move == got.move  # the answer's line is the PV
        assert sorted(c.move for c in got.candidates) == [1, 2, 3]
    rr._values = {1: 0.1, 2: 0.9}
    won = result_of([Candidate(1, 90, 0.6, proven=WIN), Candidate(2, 50, 0.4)])
    assert rr.prefer(won) is won                   # a proven win needs no second look


@pytest.fixture(scope="module")
def bent_three():
    problem = load_sgf_problem(GO19 / "bent-three-kill.sgf")
    state = position(problem)
    return problem, state, region_mask(problem, state), fight_target(problem)


def test_a_reread_search_spends_exactly_its_budget(bent_three):
    problem, state, allowed, target = bent_three
    searcher = registry.make(f"{SOLVER}:reread=0.5:solver=0", seed=4,
                             options={"resign_threshold": "0"})
    result = searcher.search(state, Budget(playouts=1000), allowed=allowed, target=target)
    assert result.playouts == 1000
    readers = searcher.rereader._readers
    assert len(readers) == 2                      # the two most visited moves were re-read
    assert sum(r.pool.ti[VISITS, 0] for r in readers.values()) == 500
    # a time budget is searched as before, without re-reading
    searcher = registry.make(f"{SOLVER}:reread=0.5", seed=4)
    searcher.search(state, Budget(seconds=0.05), allowed=allowed, target=target)
    assert searcher.rereader._readers == {}


@pytest.mark.parametrize("option", ["reread=0.3", "minimax=0.3"])
def test_a_composed_problem_is_still_solved(bent_three, option):
    problem = bent_three[0]
    for seed in range(2):
        assert solve(problem, f"{SOLVER}:{option}", 2000, seed, restrict=True).correct


def test_with_ko_draw_a_fight_won_through_a_ko_capture_is_half_a_win():
    # Black's C4 captures White's B4 and leaves a ko: the fight (White's B4 at stake) is
    # over at once, won by Black through a ko
    n = 5
    state = GoState(GoRules(size=n))
    point = lambda r, c: (r + 1) * (n + 2) + c + 1   # noqa: E731 (row 0 at the top)
    state.setup(black=[point(1, 0), point(0, 1), point(2, 1)],
                white=[point(1, 1), point(0, 2), point(2, 2), point(1, 3)])
    capture = point(1, 2)
    allowed = np.zeros(state.s.shape[1], dtype=np.uint8)
    allowed[capture] = 1
    target = Target((point(1, 1),), BLACK)
    means = {}
    for ko_draw in (0, 1):
        searcher = registry.make(f"uct:solver=1:ko_draw={ko_draw}", seed=2)
        result = searcher.search(state, Budget(playouts=300), allowed=allowed, target=target)
        got = next(c for c in result.candidates if c.move == capture)
        assert got.visits > 0 and got.proven == 0   # a ko line is never proven
        means[ko_draw] = got.winrate
    assert means == {0: 1.0, 1: 0.5}
