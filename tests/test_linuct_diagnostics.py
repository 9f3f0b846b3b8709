"""LinUCT's diagnostics (``engine.search.linuct_diagnostics``): the terms they print are the
ones the compiled selection ranks by; the exact replay is the ridge regression of the
observations the search made; and fLinUCB-GD's mean tracks exact LinUCB's on the same
observations at small budgets, while its exploration width does not (measured, and
documented in docs/algorithms.md section 9)."""

import numpy as np
import pytest

from engine.core import features
from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.search import linuct_diagnostics as ld
from engine.search import linuct_kernels as lk
from engine.search import registry
from engine.search.base import Budget
from engine.search.tree import MOVE, NCHILD


def opening9():
    state = GoState(GoRules(size=9, komi=7.5))
    for move in "E5 C4 G4 D6 F7 C7".split():
        state.play(from_gtp(move, 9))
    return state


def go5():
    state = GoState(GoRules(size=5))
    for move in "C3 B3 C2".split():
        state.play(from_gtp(move, 5))
    return state


def compiled_root_values(searcher, state) -> dict[int, float]:
    """The root children's values as the compiled tree policy computes them."""
    pool, model, params = searcher.pool, searcher.model, searcher._kernel_params()
    idx = np.zeros(features.max_active(state.size), dtype=np.int32)
    m = features.board_row(state.s, state.meta, idx, ld.children_frame(searcher, state))
    nch = int(pool.ti[NCHILD, 0])
    out = np.zeros(nch)
    if model.exact:
        lk.exact_values(pool.ti, 0, pool.dpool, idx, 0, m, model.theta, model.ainv,
                        np.zeros_like(model.uq), params.width, out)
    else:
        row = idx[:m]
        lk.gd_values(pool.ti, 0, pool.dpool, model.theta[row].sum(), model.diag[row].sum(),
                     m, model.theta, model.diag, model.lazy, params.width, out,
                     np.zeros((2, nch)))
    if params.rave:
        lk.rave_mix(pool.ti, pool.tf, 0, params.c, params.rave_k, out)
    return {int(c): v for c, v in zip(pool.children(0), out)}


@pytest.mark.parametrize("spec", ["linuct-plain", "linuct-rave", "linuct-rave:prior=1",
                                  "linuct-rave:bandit=exact", "linuct-rave:features=mover",
                                  "linuct-plain:bandit=exact:features=mover"])
def test_root_view_shows_the_values_the_search_ranks_by(spec):
    state = go5()
    searcher = registry.make(spec, seed=3, options={"expand_after": "3", "width": "gd"})
    searcher.search(state, Budget(playouts=300))
    views = ld.root_view(searcher, state)
    compiled = compiled_root_values(searcher, state)
    by_move = {int(searcher.pool.ti[MOVE, c]): v for c, v in compiled.items()}
    assert len(views) == len(by_move) and [v.visits for v in views] == sorted(
        (v.visits for v in views), reverse=True)
    for v in views:
        assert v.value == pytest.approx(by_move[v.move], abs=1e-9)
        if searcher.params.rave:
            n = v.visits + v.prior_n
            assert v.beta == pytest.approx((1000 / (3 * n + 1000)) ** 0.5)
            assert (v.ucb1 is None) == (n == 0)
        else:
            assert v.value == pytest.approx(v.xtheta + v.width)


def test_model_view_measures_the_error_over_the_reservoir():
    state = go5()
    searcher = registry.make("linuct-rave", seed=2, options={"reservoir": "100000", "width": "gd"})
    checkpoints = ld.trace(searcher, state, [50, 200])
    assert [n for n, _ in checkpoints] == [50, 200]
    view = checkpoints[-1][1]
    rows, ys = ld._reservoir(searcher.model)
    assert view.observations == len(rows) == view.t   # one step per observation but the first
    theta = searcher.model.coefficients()
    assert view.mse == pytest.approx(np.mean([(y - theta[r].sum()) ** 2
                                              for r, y in zip(rows, ys)]))
    assert view.baseline == pytest.approx(np.var(ys))
    assert view.theta_norm == pytest.approx(np.linalg.norm(theta))


def test_exact_replay_is_the_ridge_regression_of_the_searchs_observations():
    state = go5()
    searcher = registry.make("linuct-plain", seed=6, options={"reservoir": "100000", "width": "gd"})
    searcher.search(state, Budget(playouts=150))
    rows, ys = ld._reservoir(searcher.model)
    d = features.dimension(5)
    x = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        x[i, r] = 1.0
    exact = ld.exact_replay(searcher)
    np.testing.assert_allclose(exact.theta, np.linalg.solve(np.eye(d) + x.T @ x, x.T @ ys),
                               atol=1e-8)
    assert ld.replay_mse(searcher, exact) == pytest.approx(np.mean((ys - x @ exact.theta) ** 2))
    small = registry.make("linuct-plain", seed=6, options={"reservoir": "16", "width": "gd"})
    small.search(state, Budget(playouts=150))
    with pytest.raises(ValueError, match="raise the reservoir option"):
        ld.exact_replay(small)


def _tracking(playouts: int, seed: int):
    state = opening9()
    searcher = registry.make("linuct-rave", seed=seed, options={"reservoir": "100000", "width": "gd"})
    searcher.search(state, Budget(playouts=playouts))
    rows = ld.compare_with_exact(searcher, state)
    return tuple(np.array([getattr(r, f) for r in rows])
                 for f in ("gd_xtheta", "exact_xtheta", "gd_width", "exact_width"))


SEEDS = range(1, 6)


def test_flinucb_gd_mean_tracks_exact_linucb_on_the_same_observations():
    # 9x9 after six opening moves, 300 playouts (about 600 observations), five seeds: the
    # means rank the root's children like exact LinUCB's (correlation 0.36 to 0.92) and
    # stay within 0.05-0.16 of them on average (their spread across the children: 0.14)
    gaps = []
    for seed in SEEDS:
        gd_mean, ex_mean, _, _ = _tracking(300, seed)
        assert np.corrcoef(gd_mean, ex_mean)[0, 1] > 0.2
        gaps.append(np.mean(np.abs(gd_mean - ex_mean)))
    assert np.mean(gaps) < 0.15


@pytest.mark.xfail(strict=True, reason="fLinUCB-GD's width does not track exact LinUCB's: "
                   "phi starts at 0 and its steps gamma_t / t sum to 0.05, and the diagonal "
                   "phi explains no correlated features away, so at 300 playouts the width is "
                   "4 to 6 times exact LinUCB's (docs/algorithms.md section 9)")
def test_flinucb_gd_width_tracks_exact_linucb_within_a_factor_two():
    for seed in SEEDS:
        _, _, gd_width, ex_width = _tracking(300, seed)
        assert np.all(gd_width < 2 * ex_width) and np.all(ex_width < 2 * gd_width)
