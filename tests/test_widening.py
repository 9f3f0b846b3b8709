"""Progressive widening (``engine.search.widening``): the width schedule against
Coulom's thresholds written out, the ranking of a block (every column moved whole), the
selection rules that honour it, and whole searches whose every node visited only the
children its visits opened, best prior first."""

import numpy as np
import pytest

from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules, GoRules
from engine.search import linuct_kernels, registry, uct_kernels
from engine.search.base import Budget
from engine.search.tree import (FIRST, LOSS, MOVE, NCHILD, PRIOR_N, PRIOR_W, PROVEN, TF_ROWS,
                                TI_ROWS, VISITS, WINS)
from engine.search.widening import ALL, rank_children, width


def opened_by_thresholds(widen, after, rate, visits):
    """``widen`` children, and child ``widen + j + 1`` once visits reach after * rate^j."""
    if widen == 0:
        return ALL
    n = widen
    while visits >= after * rate ** (n - widen) * (1 - 1e-12):
        n += 1
    return n


@pytest.mark.parametrize("widen,after,rate", [(0, 40.0, 1.4), (1, 40.0, 1.4), (3, 10.0, 2.0)])
def test_the_width_opens_one_child_at_each_threshold(widen, after, rate):
    for visits in list(range(0, 200)) + [999, 1000, 10_000, 123_456]:
        assert width(widen, after, rate, visits) == opened_by_thresholds(widen, after, rate,
                                                                          visits)


def test_crazystones_schedule_with_one_child_at_first():
    # the n-th move opens when the node has 40 * 1.4^(n - 2) visits
    assert [width(1, 40.0, 1.4, v) for v in (39, 40, 55, 56, 78, 79)] == [1, 2, 2, 3, 3, 4]


def block(priors):
    """A root (node 0) whose children 1.. have (prior games, prior wins); every other
    field holds a value unique to its child, so a misplaced column shows."""
    k = len(priors)
    ti = np.zeros((TI_ROWS, k + 1), dtype=np.int32)
    tf = np.zeros((TF_ROWS, k + 1))
    ti[FIRST, 0], ti[NCHILD, 0] = 1, k
    for i, (n, w) in enumerate(priors, start=1):
        ti[:, i] = 100 * i + np.arange(TI_ROWS)
        tf[:, i] = 1000.0 * i + np.arange(TF_ROWS)
        ti[PRIOR_N, i], tf[PRIOR_W, i] = n, w
    return ti, tf


def test_ranking_orders_the_block_by_prior_mean_and_moves_whole_columns():
    priors = [(10, 5.0), (34, 29.0), (0, 0.0), (20, 5.0), (25, 20.0), (10, 5.0), (34, 29.0)]
    ti, tf = block(priors)
    before_i, before_f = ti.copy(), tf.copy()
    rank_children(ti, tf, 0, True)
    means = [w / n if n else 0.5 for n, w in priors]
    # stable: equal means keep their order; no prior counts as an even one
    expected = sorted(range(1, len(priors) + 1), key=lambda i: -means[i - 1])
    for j, i in enumerate(expected, start=1):
        assert (ti[:, j] == before_i[:, i]).all()
        assert (tf[:, j] == before_f[:, i]).all()
    assert (ti[:, 0] == before_i[:, 0]).all()
    # without the bias the same order, and the virtual games gone
    unbiased_i, unbiased_f = block(priors)
    rank_children(unbiased_i, unbiased_f, 0, False)
    assert (unbiased_i[MOVE] == ti[MOVE]).all()
    assert (unbiased_i[PRIOR_N, 1:] == 0).all() and (unbiased_f[PRIOR_W, 1:] == 0).all()


def test_selection_looks_only_at_the_open_children():
    # child 3 is the best by far but third in rank: with two children open it waits
    ti, tf = block([(0, 0.0)] * 4)
    ti[FIRST, 1:] = -1
    for i, (n, w) in enumerate([(10, 5.0), (10, 4.0), (10, 10.0), (10, 1.0)], start=1):
        ti[VISITS, i], tf[WINS, i], ti[PROVEN, i] = n, w, 0
    ti[VISITS, 0] = 40
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, False) == 3
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, False, False, 2) == 1
    values = np.array([0.5, 0.4, 1.0, 0.1])
    assert linuct_kernels.best_child(ti, 1, 4, values, False) == 2
    assert linuct_kernels.best_child(ti, 1, 4, values, False, 2) == 0
    # a proven loss does not take an open place: the next child opens instead
    ti[PROVEN, 1] = LOSS
    assert uct_kernels.select_child(ti, tf, 0, 0.0, False, 1000.0, True, False, 2) == 3
    assert linuct_kernels.best_child(ti, 1, 4, values, True, 2) == 2


def visited_within_width(pool, params, node=0):
    """Every node under ``node``: its visited children are among the first
    width(visits) of its block, the block ranked by prior mean."""
    ti, tf = pool.ti, pool.tf
    first, k = int(ti[FIRST, node]), int(ti[NCHILD, node])
    if k <= 0:
        return
    kids = range(first, first + k)
    means = [tf[PRIOR_W, i] / ti[PRIOR_N, i] if ti[PRIOR_N, i] else 0.5 for i in kids]
    assert means == sorted(means, reverse=True)
    opened = width(params.widen, params.widen_after, params.widen_rate, ti[VISITS, node])
    visited = [j for j, i in enumerate(kids) if ti[VISITS, i] > 0]
    assert not visited or max(visited) < opened
    for i in kids:
        if ti[VISITS, i] > 0:
            visited_within_width(pool, params, i)


@pytest.mark.parametrize("spec", ["uct:prior=1:widen=1",
                                  "uct:playout=heavy:prior=1:rave=1:c=0:widen=2",
                                  "linuct:rave=1:prior=1:widen=2",
                                  "uct:prior=1:bias=0:widen=1",
                                  "linuct:prior=1:widen=1"])
def test_a_widened_search_visits_only_what_the_visits_opened(spec):
    st = GoState(GoRules(size=9))
    for move in ("E5", "D4", "F6"):   # a position with a last move: priors that differ
        st.play(from_gtp(move, 9))
    searcher = registry.make(spec, seed=4)
    result = searcher.search(st, Budget(playouts=2000))
    pool = searcher.pool
    visited_root = int((pool.ti[VISITS, pool.children()] > 0).sum())
    assert result.playouts == 2000
    assert 1 < visited_root <= width(searcher.params.widen, 40.0, 1.4, 2000)
    visited_within_width(pool, searcher.params)
    if not searcher._kernel_params().bias:
        assert (pool.ti[PRIOR_N, :pool.used] == 0).all()


def test_without_the_bias_the_priors_rank_the_same_children():
    st = GoState(GoRules(size=9))
    for move in ("E5", "D4", "F6"):
        st.play(from_gtp(move, 9))
    roots = []
    for bias in (1, 0):
        searcher = registry.make(f"uct:prior=1:widen=1:bias={bias}", seed=4)
        searcher.search(st, Budget(playouts=1))
        roots.append(searcher.pool.ti[MOVE, searcher.pool.children()])
    assert (roots[0] == roots[1]).all()


def test_widening_unranked_children_is_refused():
    for spec, state in (("uct:widen=2", GoState(GoRules(size=9))),
                        ("uct:prior=1:widen=2", GobangState(GobangRules(size=9))),
                        ("linuct:rave=1:widen=2", GoState(GoRules(size=9)))):
        with pytest.raises(ValueError, match="widen needs priors"):
            registry.make(spec).search(state, Budget(playouts=10))
