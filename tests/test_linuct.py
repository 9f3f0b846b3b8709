"""LinUCT: the selection values against x^T theta + alpha sqrt(x^T A^-1 x) (and the RAVE mix)
computed in numpy from feature rows of positions replayed move by move; the exact model
against the ridge regression of the observations the docstring promises; the fLinUCB-GD
step against its formulas written out in Python; feature deltas surviving tree reuse;
bounded memory; both bandits on Go and Gobang; each with the stone encoding of the rows and
the mover's (``features=mover``: a node's row in the frame of the player who made its
move)."""

import math
import subprocess
import sys

import numpy as np
import pytest

from engine.game.coords import from_gtp
from engine.core import features
from engine.core.layout import BLACK, WHITE
from engine.core.rng import make_rng, rand_below
from engine.game.go_state import GoState
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules, GoRules
from engine.search import linuct_deltas
from engine.search import linuct_kernels as lk
from engine.search import registry
from engine.search.base import Budget
from engine.search.linuct import DELTA_ENTRIES, STEPS, FeatureNodePool
from engine.search.tree import (FIRST, MOVE, NCHILD, PRIOR_N, PRIOR_W, TF_ROWS, TI_ROWS, VISITS,
                                WINS, record)

from conftest import go_from_text

ALGOS = ["linuct-plain", "linuct-rave"]
ENCODINGS = ["stone", "mover"]


def go5():
    return GoState(GoRules(size=5))


def go5_capture():
    """Black to play can capture at C5 (and white can save the stone there)."""
    return go_from_text("""
        . . . . .
        . X O X .
        . . X . .
        . . . . .
        . . . . .
    """, BLACK)


def gobang7():
    state = GobangState(GobangRules(size=7))
    for move, color in (("D4", BLACK), ("E5", WHITE), ("C3", BLACK)):
        state.play(from_gtp(move, 7), color)
    return state


def dense_row(state, frame=features.STONE_FRAME) -> np.ndarray:
    idx = np.zeros(features.max_active(state.size), dtype=np.int32)
    m = features.board_row(state.s, state.meta, idx, frame)
    x = np.zeros(features.dimension(state.size))
    x[idx[:m]] = 1.0
    return x


def own_frame(searcher, state) -> int:
    """The frame of a node's row, ``state`` its position: that of the player who moved
    into it with the mover encoding."""
    mover = searcher.params.features == "mover"
    return 3 - state.to_play if mover else features.STONE_FRAME


def children_frame(searcher, state) -> int:
    """The frame of the rows of the children of a node whose position is ``state``."""
    mover = searcher.params.features == "mover"
    return state.to_play if mover else features.STONE_FRAME


def tree_positions(pool, root_state) -> dict[int, object]:
    """Every node of the tree -> a state holding its position, by replaying the moves."""
    positions = {0: root_state}
    stack = [0]
    while stack:
        v = stack.pop()
        first, nch = int(pool.ti[FIRST, v]), int(pool.ti[NCHILD, v])
        for c in range(first, first + nch):
            child = positions[v].clone()
            child.play(int(pool.ti[MOVE, c]))
            positions[c] = child
            stack.append(c)
    return positions


def engine_values(searcher, state, node: int) -> np.ndarray:
    """The values of ``node``'s children as the search computes them (rows from the
    deltas)."""
    pool, model = searcher.pool, searcher.model
    idx = np.zeros(features.max_active(state.size), dtype=np.int32)
    m = features.board_row(state.s, state.meta, idx, children_frame(searcher, state))
    out = np.zeros(pool.ti[NCHILD, node])
    params = searcher._kernel_params()
    if searcher.params.bandit == "exact":
        lk.exact_values(pool.ti, node, pool.dpool, idx, 0, m, model.theta, model.ainv,
                        np.zeros_like(model.uq), params.width, out)
    elif params.arm:   # on a copy: the kernel steps each child's phi_a before scoring it
        lk.arm_values(pool.ti, node, pool.dpool, idx, 0, m, model.theta, model.phi.copy(),
                      model.arrays(), params.width, out, np.zeros_like(idx))
    else:
        row = idx[:m]
        lk.gd_values(pool.ti, node, pool.dpool, model.theta[row].sum(), model.diag[row].sum(),
                     m, model.theta, model.diag, model.lazy, params.width, out,
                     np.zeros((2, len(out))))
    if params.rave:
        lk.rave_mix(pool.ti, pool.tf, node, params.c, params.rave_k, out)
    return out


def reference_values(searcher, positions, node: int) -> np.ndarray:
    """The documented values from dense rows of the children's positions."""
    p, pool, model = searcher.params, searcher.pool, searcher.model
    first, nch = int(pool.ti[FIRST, node]), int(pool.ti[NCHILD, node])
    big_n = pool.ti[VISITS, node]
    values = []
    for c in range(first, first + nch):
        x = dense_row(positions[c], own_frame(searcher, positions[c]))
        if p.bandit == "exact":
            v = x @ model.theta + p.alpha * math.sqrt(max(x @ model.ainv @ x, 0.0))
        elif p.width == "arm":   # eq. 5's step with the iteration's draw x_i, then eq. 6
            phi = model.phi[c].astype(float)
            slot = int(model.lazy[lk.ARM_SLOT])
            if slot >= 0:
                stride = model.table.size // model.table_len.size
                xi = np.zeros_like(x)
                xi[model.table[slot * stride:slot * stride + model.table_len[slot]]] = 1.0
                gamma, t = model.lazy[lk.ARM_GAMMA], model.lazy[lk.ARM_T]
                phi = phi + gamma * (x / t - (phi @ xi) * xi)
            v = x @ model.coefficients() + p.kappa * math.sqrt(max(x @ phi, 0.0))
        else:
            v = (x @ model.coefficients()
                 + p.kappa * math.sqrt(max(x @ (model.diagonal() * x), 0.0)))
        n = pool.ti[VISITS, c] + pool.ti[PRIOR_N, c]   # priors: virtual games
        if p.rave and n > 0:
            beta = math.sqrt(p.rave_k / (3 * n + p.rave_k))
            ucb = ((pool.tf[WINS, c] + pool.tf[PRIOR_W, c]) / n
                   + p.c * math.sqrt(math.log(max(big_n, 1)) / n))
            v = beta * v + (1 - beta) * ucb
        values.append(v)
    return np.array(values)


def expanded_nodes(pool, limit: int) -> list[int]:
    return [v for v in range(pool.used) if pool.ti[NCHILD, v] > 0][:limit]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("bandit", ["exact", "gd", "arm"])
@pytest.mark.parametrize("make_state", [go5, go5_capture, gobang7])
def test_selection_values_match_the_formula(algo, bandit, make_state, encoding):
    # arm: fLinUCB-GD with the paper's phi_a per node (float32, hence the tolerance)
    state = make_state()
    searcher = registry.make(algo, seed=4, options={
        "bandit": "exact" if bandit == "exact" else "gd", "width": "gd" if bandit == "gd"
        else "arm", "expand_after": "3", "features": encoding})
    searcher.search(state, Budget(playouts=300))
    positions = tree_positions(searcher.pool, state)
    nodes = expanded_nodes(searcher.pool, 6)
    assert len(nodes) >= 4   # the root and some nodes below it
    if bandit == "arm":
        assert searcher.model.lazy[lk.ARM_SLOT] >= 0 and np.abs(searcher.model.phi).max() > 0
    tol = 1e-5 if bandit == "arm" else 1e-9
    for v in nodes:
        np.testing.assert_allclose(engine_values(searcher, positions[v], v),
                                   reference_values(searcher, positions, v),
                                   rtol=tol, atol=tol)


@pytest.mark.parametrize("bandit", ["exact", "gd"])
def test_priors_count_as_games_in_the_ucb1_half(bandit):
    state = go5_capture()
    searcher = registry.make("linuct-rave:prior=1:playout=heavy:width=gd", seed=4,
                             options={"bandit": bandit, "expand_after": "3"})
    searcher.search(state, Budget(playouts=300))
    pool = searcher.pool
    kids = range(pool.ti[FIRST, 0], pool.ti[FIRST, 0] + pool.ti[NCHILD, 0])
    assert all(pool.ti[PRIOR_N, c] > 0 for c in kids)   # every move gets the "even" prior
    positions = tree_positions(pool, state)
    nodes = expanded_nodes(pool, 6)
    assert len(nodes) >= 4 and all(pool.ti[PRIOR_N, pool.ti[FIRST, v]] > 0 for v in nodes)
    for v in nodes:
        np.testing.assert_allclose(engine_values(searcher, positions[v], v),
                                   reference_values(searcher, positions, v),
                                   rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("make_state", [go5_capture, gobang7])
def test_gd_values_hand_the_childrens_sums_down(make_state, encoding):
    # the descent takes a child's row sums from its parent's ``gd_values`` call
    state = make_state()
    searcher = registry.make("linuct-plain:width=gd", seed=5,
                             options={"expand_after": "3", "features": encoding})
    searcher.search(state, Budget(playouts=300))
    pool, model = searcher.pool, searcher.model
    positions = tree_positions(pool, state)
    for v in expanded_nodes(pool, 6):
        x = dense_row(positions[v], children_frame(searcher, positions[v]))
        nch = pool.ti[NCHILD, v]
        sums = np.zeros((2, nch))
        lk.gd_values(pool.ti, v, pool.dpool, x @ model.theta, x @ model.diag, int(x.sum()),
                     model.theta, model.diag, model.lazy, 1.0, np.zeros(nch), sums)
        dots, quads = sums
        children = [dense_row(positions[c], own_frame(searcher, positions[c]))
                    for c in pool.children(v)]
        np.testing.assert_allclose(dots, [c @ model.theta for c in children], atol=1e-12)
        np.testing.assert_allclose(quads, [c @ model.diag for c in children], atol=1e-12)


@pytest.mark.parametrize("make_state", [go5_capture, gobang7])
def test_mover_encoding_carries_both_frames_down(make_state):
    # with frames alternating down the path, the descent turns a chosen child's sums (in
    # its own frame) and its parent's own-frame sums into the child's sums in both frames
    state = make_state()
    searcher = registry.make("linuct-plain", seed=5, options={"expand_after": "3",
                                                              "features": "mover"})
    searcher.search(state, Budget(playouts=300))
    pool, model = searcher.pool, searcher.model
    positions = tree_positions(pool, state)
    checked = 0
    for v in expanded_nodes(pool, 6):
        parent = dense_row(positions[v], own_frame(searcher, positions[v]))
        for c in pool.children(v):
            own = dense_row(positions[c], own_frame(searcher, positions[c]))
            carry = np.array([own @ model.theta, own @ model.diag,
                              parent @ model.theta, parent @ model.diag])
            linuct_deltas.carry_flipped(pool.dpool, pool.ti[linuct_deltas.DELTA, c],
                                        model.theta, model.diag, carry)
            other = dense_row(positions[c], children_frame(searcher, positions[c]))
            np.testing.assert_allclose(carry, [other @ model.theta, other @ model.diag,
                                               own @ model.theta, own @ model.diag],
                                       atol=1e-12)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("make_state", [go5_capture, gobang7])
def test_exact_model_is_the_ridge_regression_of_every_node_observation(algo, make_state,
                                                                        encoding):
    # every playout through a node observes (x_node, reward of the node's mover) once, so
    # A = I + sum_v N(v) x_v x_v^T and b = sum_v W(v) x_v over the nodes below the root:
    # the row the descent built for every node against its replayed position's
    state = make_state()
    searcher = registry.make(algo, seed=2, options={"bandit": "exact", "expand_after": "2",
                                                    "features": encoding})
    searcher.search(state, Budget(playouts=200))
    pool, model = searcher.pool, searcher.model
    positions = tree_positions(pool, state)
    d = features.dimension(state.size)
    a, b = np.eye(d), np.zeros(d)
    for v in range(1, pool.used):
        x = dense_row(positions[v], own_frame(searcher, positions[v]))
        a += pool.ti[VISITS, v] * np.outer(x, x)
        b += pool.tf[WINS, v] * x
    np.testing.assert_allclose(model.ainv, np.linalg.inv(a), atol=1e-8)
    np.testing.assert_allclose(model.theta, np.linalg.solve(a, b), atol=1e-8)


@pytest.mark.parametrize("width,step", [("gd", "paper"), ("count", "paper"),
                                        ("count", "normalised"), ("count", "capped"),
                                        ("gd", "normalised")])
def test_gd_step_follows_its_formulas(width, step):
    # one observation (a row, the reward of the node's mover) per call: one fLinUCB-GD
    # step, and the node's visit; with ``width=count`` D is no step's but 1 / (1 + n_j),
    # n_j the observations so far with feature j, and theta's step is the same.  ``step``
    # sets the rate of theta's step (gradient and decay) on the drawn row x_i: gamma
    # (paper), gamma / |x_i| (normalised), min(gamma, 1 / |x_i|) (capped); D's keeps gamma.
    # Rows of 1 to 299 features, so that gamma |x_i| is above 1 for some steps, below for
    # others
    count = width == "count"
    d, cap, stride = 400, 5, 300
    rng_rows = np.random.default_rng(0)
    obs = [(np.sort(rng_rows.choice(d, rng_rows.integers(1, stride), replace=False)),
            float(rng_rows.integers(0, 3)) / 2) for _ in range(40)]
    rate_of = {"paper": lambda gamma, m: gamma, "normalised": lambda gamma, m: gamma / m,
               "capped": lambda gamma, m: min(gamma, 1 / m)}[step]
    capped = [False, False]   # a step whose rate the cap cut, one it left as gamma
    theta, diag, gd = np.zeros(d), np.full(d, 1.0 if count else 0.0), np.zeros(2)
    lazy = np.array([1.0, 0.0, -1.0, 0.0, 0.0])   # lk.THETA_SCALE ... lk.ARM_T
    mem_row, mem_y = np.zeros(cap, dtype=np.int64), np.zeros(cap)
    table, table_len = np.zeros(cap * stride, dtype=np.int32), np.zeros(cap, dtype=np.int64)
    ti, tf = np.zeros((TI_ROWS + 1, 2), dtype=np.int32), np.zeros((TF_ROWS, 2))
    path = np.array([0, 1], dtype=np.int32)
    rows, row_len = np.zeros(2 * stride, dtype=np.int32), np.zeros(2, dtype=np.int64)
    winner_for = {1.0: BLACK, 0.5: 0, 0.0: WHITE}   # node 1's move is the root player's
    model = lk.LinuctModel(theta, np.zeros((0, 0)), np.zeros(0), np.zeros(0), diag, lazy, gd,
                           mem_row, mem_y, table, table_len, np.zeros(d if count else 0),
                           np.zeros((0, 0), dtype=np.float32))
    rng = make_rng(7)
    ref_rng = make_rng(7)
    ref_theta, ref_diag, kept = np.zeros(d), np.zeros(d), [None] * cap
    ref_seen = [0] * d
    for t, (row, y) in enumerate(obs, start=1):
        rows[stride:stride + len(row)] = row
        row_len[1] = len(row)
        lk.gd_observe(model, rows, row_len, stride, 1, BLACK, winner_for[y], rng, count,
                      STEPS[step])
        record(ti, tf, path, 1, BLACK, winner_for[y])
        # one step from an observation drawn uniformly among those before t (the paper's
        # i_t ~ U(1..t-1); none at t = 1), then the reservoir (algorithm R) takes this one
        if t > 1:
            xi_idx, yi = kept[int(rand_below(ref_rng, min(t - 1, cap)))]
            xi = np.zeros(d)
            xi[xi_idx] = 1.0
            gamma, lam = 1 / (100 + t), t ** -0.4
            rate = rate_of(gamma, len(xi_idx))
            capped[gamma * len(xi_idx) > 1] = True
            ref_theta = ref_theta + rate * ((yi - ref_theta @ xi) * xi - lam * ref_theta)
            ref_diag = ref_diag + gamma * (1 / t - xi * ref_diag)
        slot = t - 1 if t <= cap else int(rand_below(ref_rng, t))
        if slot < cap:
            kept[slot] = (row, y)
        for j in row:
            ref_seen[j] += 1
    if count:
        ref_diag = np.array([1.0 / (1.0 + n) for n in ref_seen])
        assert lazy[lk.DIAG_SHIFT] == 0.0
    # theta and D are kept lazily: theta = scale * array, D = array + shift
    np.testing.assert_allclose(lazy[lk.THETA_SCALE] * theta, ref_theta, atol=1e-12)
    np.testing.assert_allclose(diag + lazy[lk.DIAG_SHIFT], ref_diag, atol=1e-12)
    assert gd[0] == len(obs) and gd[1] == len(obs)
    assert ti[VISITS, 1] == len(obs) and tf[WINS, 1] == sum(y for _, y in obs)
    assert all(capped)


@pytest.mark.parametrize("encoding", ENCODINGS)
# widening moves whole columns of the pool, the deltas' pointers with them
@pytest.mark.parametrize("algo", ALGOS + ["linuct-rave:prior=1:widen=1"])
def test_deltas_stay_right_through_tree_reuse(algo, encoding):
    state = go5()
    searcher = registry.make(algo, seed=3, options={"expand_after": "2", "features": encoding,
                                                    "width": "gd"})
    first = searcher.search(state, Budget(playouts=400))
    searcher.notify_play(state, first.move, state.to_play)
    state.play(first.move)
    kept_nodes = searcher.pool.used
    assert kept_nodes > 1 + searcher.pool.ti[NCHILD, 0]   # a subtree came along
    searcher.search(state, Budget(playouts=200))
    positions = tree_positions(searcher.pool, state)
    for v in expanded_nodes(searcher.pool, 8):
        np.testing.assert_allclose(engine_values(searcher, positions[v], v),
                                   reference_values(searcher, positions, v),
                                   rtol=1e-9, atol=1e-9)


def test_the_model_lives_with_the_tree():
    # a small k keeps the tree shallow, so 100 fresh playouts make fewer model steps than
    # 200 on a kept tree
    searcher = registry.make("linuct-rave", seed=1, options={"rave_k": "10", "width": "gd"})
    searcher.search(go5(), Budget(playouts=100))
    steps = searcher.model.gd[0]
    searcher.search(go5(), Budget(playouts=100))     # the same position: tree and model kept
    assert searcher.model.gd[0] > steps
    other = go5()
    other.play(from_gtp("C3", 5))
    searcher.search(other, Budget(playouts=100))     # another position: both start afresh
    assert 0 < searcher.model.gd[0] < steps


def test_memory_is_bounded_by_the_pools():
    searcher = registry.make("linuct-plain", seed=1, options={"max_nodes": "2000",
                                                              "width": "gd"})
    result = searcher.search(go5(), Budget(playouts=3000))
    pool, model = searcher.pool, searcher.model
    assert isinstance(pool, FeatureNodePool)
    assert pool.ti.shape == (TI_ROWS + 1, 2000)
    assert pool.dpool.shape == (DELTA_ENTRIES * 2000,)
    assert result.playouts == 3000 and pool.used <= 2000   # a full pool stops the growth
    assert 0 < pool.dmeta[linuct_deltas.D_USED] <= pool.dpool.shape[0]
    # fLinUCB-GD: no d x d matrix, no per-node vectors; the reservoir keeps row copies
    d = features.dimension(5)
    assert model.ainv.size == 0
    assert model.nbytes < 4 * d * 8 + 4096 * (features.max_active(5) * 4 + 8 + 8 + 8)
    # the paper's per-arm width: a float32 phi_a for each node of the pool, no more
    searcher.set_option("width", "arm")
    searcher.search(go5(), Budget(playouts=3000))
    assert searcher.model.phi.shape == (2000, d) and searcher.model.phi.dtype == np.float32


def test_a_full_delta_pool_stops_the_growth_not_the_search():
    searcher = registry.make("linuct-rave", seed=1, options={"max_nodes": "1000"})
    searcher.search(go5(), Budget(playouts=10))
    pool = searcher.pool
    pool.dpool = pool.dpool[:pool.dmeta[linuct_deltas.D_USED] + 5]   # room for no further expansion
    used = pool.used
    result = searcher.search(go5(), Budget(playouts=500))
    assert result.playouts == 500 and pool.used == used


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("make_state", [go5, gobang7])
def test_exact_bandit_plays_legal_moves_deterministically(algo, make_state):
    def run():
        r = registry.make(algo, seed=6, options={"bandit": "exact"}).search(
            make_state(), Budget(playouts=300))
        return r.move, r.nodes, [(c.move, c.visits, c.winrate) for c in r.candidates]
    first = run()
    assert make_state().is_legal(first[0])
    assert first == run()


def test_exact_plain_finds_a_gobang_win_in_one():
    state = GobangState(GobangRules(size=7))
    for b, w in (("B4", "B6"), ("C4", "C6"), ("D4", "D6"), ("E4", "E6")):
        state.play(from_gtp(b, 7), BLACK)
        state.play(from_gtp(w, 7), WHITE)
    result = registry.make("linuct-plain", seed=1, options={"bandit": "exact"}).search(
        state, Budget(playouts=300))
    assert result.move in (from_gtp("A4", 7), from_gtp("F4", 7))


def test_options_are_typed_and_checked():
    plain = registry.make("linuct-plain", options={"bandit": "exact", "alpha": "0.5"})
    assert plain.options()["bandit"] == "exact" and plain.options()["alpha"] == 0.5
    assert plain.options()["rave"] is False
    rave = registry.make("linuct-rave")
    assert rave.options()["bandit"] == "gd" and rave.options()["expand_after"] == 10
    assert rave.options()["rave"] is True
    rave.set_option("rave_k", "1000")
    rave.set_option("kappa", "2")
    assert rave._kernel_params().rave_k == 1000 and rave._kernel_params().width == 2
    with pytest.raises(ValueError, match="option bandit must be one of gd, exact"):
        rave.set_option("bandit", "ucb")
    plain.set_option("prior", "1")   # known, but plain LinUCT has no counts to bias
    plain.search(go5(), Budget(playouts=10))
    assert not plain.pool.ti[PRIOR_N, :plain.pool.used].any()
    with pytest.raises(ValueError, match="option playout must be one of light, heavy"):
        plain.set_option("playout", "softmax")


def test_the_encoding_is_an_option_and_switching_it_drops_the_tree():
    searcher = registry.make("linuct-rave", seed=1)
    assert searcher.options()["features"] == "stone" and not searcher._kernel_params().mover
    with pytest.raises(ValueError, match="option features must be one of stone, mover"):
        searcher.set_option("features", "black")
    searcher.search(go5(), Budget(playouts=200))
    steps = searcher.model.gd[0]
    searcher.set_option("features", "stone")     # unchanged: tree and model kept
    assert searcher.pool is not None and searcher.model.gd[0] == steps
    searcher.set_option("features", "mover")
    assert searcher.pool is None and searcher.model is None and searcher._kernel_params().mover
    result = searcher.search(go5(), Budget(playouts=200))
    assert result.playouts == 200 and go5().is_legal(result.move)


def test_the_encodings_search_differently_from_the_same_seed():
    # the mover encoding is not the stone one renamed: from one seed, other trees
    def visits(encoding):
        searcher = registry.make("linuct-rave", seed=2, options={"features": encoding})
        searcher.search(go5_capture(), Budget(playouts=500))
        return searcher.pool.ti[VISITS, :searcher.pool.used].tolist()
    assert visits("stone") != visits("mover")


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("make_state", [go5_capture, gobang7])
def test_count_width_is_one_over_one_plus_the_observations(algo, encoding, make_state):
    # every playout through a node observes its row once, so feature j was observed
    # n_j = sum_v N(v) [j in x_v] times over the nodes below the root, and D_j must be
    # 1 / (1 + n_j), the inverse of the diagonal of exact LinUCB's A = I + sum x x^T;
    # the selection scores children by that D as by any other
    state = make_state()
    searcher = registry.make(algo, seed=3, options={"width": "count", "expand_after": "3",
                                                    "features": encoding})
    searcher.search(state, Budget(playouts=300))
    pool, model = searcher.pool, searcher.model
    positions = tree_positions(pool, state)
    n = np.zeros(features.dimension(state.size))
    for v in range(1, pool.used):
        n += pool.ti[VISITS, v] * dense_row(positions[v], own_frame(searcher, positions[v]))
    assert n.max() >= 300 and (n == 0).any()   # features seen often, and some never
    np.testing.assert_allclose(model.diagonal(), 1.0 / (1.0 + n), rtol=1e-12)
    for v in expanded_nodes(pool, 6):
        np.testing.assert_allclose(engine_values(searcher, positions[v], v),
                                   reference_values(searcher, positions, v),
                                   rtol=1e-9, atol=1e-9)


def test_the_width_is_an_option_and_switching_it_starts_a_fresh_model():
    searcher = registry.make("linuct-rave", seed=1, options={"width": "gd"})
    assert not searcher._kernel_params().count_width
    with pytest.raises(ValueError, match="option width must be one of arm, gd, count"):
        searcher.set_option("width", "exact")
    searcher.search(go5(), Budget(playouts=100))
    assert searcher.model.seen.size == 0 and searcher.model.lazy[lk.DIAG_SHIFT] > 0
    searcher.set_option("width", "count")
    assert searcher._kernel_params().count_width
    result = searcher.search(go5(), Budget(playouts=100))
    model = searcher.model
    assert result.playouts == 100 and model.seen.size == features.dimension(5)
    assert model.seen[-1] == model.gd[1] > 100   # the constant feature: every observation
    searcher.set_option("bandit", "exact")   # exact LinUCB keeps its own width
    assert not searcher._kernel_params().count_width


def test_the_step_is_an_option_whose_default_is_the_papers():
    searcher = registry.make("linuct-rave", seed=1)
    assert searcher.options()["step"] == "paper"
    assert searcher._kernel_params().step == lk.STEP_PAPER
    with pytest.raises(ValueError, match="option step must be one of paper, normalised, capped"):
        searcher.set_option("step", "nlms")

    # a capturing race on 9x9: rows of about 270 features, so gamma_t |x| > 1 (the cap
    # cuts the paper's step) for the first hundred-odd observations
    race = go_from_text("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X X X X X X
        O O O O O O O O .
        X X X X X X X X .
        O O O O O O O O O
        . . . . . . . . .
        . . . . . . . . .
    """, BLACK)

    def theta(step):
        s = registry.make("linuct-rave", seed=1, options={"step": step} if step else {})
        s.search(race, Budget(playouts=200))
        return s.model.coefficients()

    # the default is the paper's step, bit for bit; the others step differently
    default = theta(None)
    assert np.array_equal(default, theta("paper"))
    assert not np.allclose(default, theta("normalised"))
    assert not np.allclose(default, theta("capped"))


@pytest.mark.parametrize("model", ["keep", "fresh"])
def test_a_fresh_model_starts_every_search(model):
    # the tree is kept after the move played either way; with ``model=fresh`` the model
    # starts afresh, so a one-playout search observes only its own path
    state = go5()
    searcher = registry.make("linuct-rave", seed=1, options={"model": model, "width": "gd"})
    searcher.search(state, Budget(playouts=200))
    before = searcher.model.gd[1]
    move = searcher.search(state, Budget(playouts=1)).move
    searcher.notify_play(state, move, state.to_play)
    state.play(move)
    searcher.search(state, Budget(playouts=1))
    assert searcher.kept
    if model == "fresh":
        assert 1 <= searcher.model.gd[1] <= 10
    else:
        assert searcher.model.gd[1] > before


def test_the_papers_per_arm_width_keeps_no_tree_across_moves_and_starts_phi_at_zero():
    # width=arm (the default, the paper's): phi_a is a row per node, so after a move the
    # tree starts afresh rather than re-rooting, a new node's phi_a is 0 before its first
    # step, and the values still follow eqs. 5-6; one thread only
    state = go5()
    searcher = registry.make("linuct-rave", seed=2, options={"expand_after": "3"})
    assert searcher.options()["width"] == "arm" and searcher._kernel_params().arm
    first = searcher.search(state, Budget(playouts=300))
    touched = searcher.pool.used
    searcher.notify_play(state, first.move, state.to_play)
    state.play(first.move)
    searcher.search(state, Budget(playouts=100))
    assert not searcher.kept and searcher.pool.used < touched
    assert not searcher.model.phi[searcher.pool.used:touched].any()
    positions = tree_positions(searcher.pool, state)
    for v in expanded_nodes(searcher.pool, 4):
        np.testing.assert_allclose(engine_values(searcher, positions[v], v),
                                   reference_values(searcher, positions, v),
                                   rtol=1e-5, atol=1e-5)
    # two threads asked: the search runs on one, so it plays as the one-thread search of
    # the same seed does, move for move and node for node
    def searched(threads):
        one = registry.make("linuct-rave", seed=4, options={"expand_after": "3",
                                                            "threads": threads})
        r = one.search(go5(), Budget(playouts=200))
        return r.move, r.nodes, [(c.move, c.visits) for c in r.candidates]
    assert searched("2") == searched("1")


def test_switching_the_bandit_rebuilds_the_model():
    searcher = registry.make("linuct-rave", seed=1)
    searcher.search(go5(), Budget(playouts=50))
    assert searcher.model.ainv.size == 0
    searcher.set_option("bandit", "exact")
    result = searcher.search(go5(), Budget(playouts=50))
    assert searcher.model.ainv.shape == (601, 601) and result.playouts == 50


@pytest.mark.slow
@pytest.mark.parametrize("algo", ALGOS)
def test_resident_memory_at_100k_playouts_on_9x9_stays_under_2_gib(algo):
    code = f"""
import resource
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.search import registry
from engine.search.base import Budget
r = registry.make({algo!r} + ":width=gd", seed=1).search(GoState(GoRules(size=9)), Budget(playouts=100_000))
print(r.playouts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=600).stdout.split()
    assert int(out[0]) == 100_000
    assert int(out[1]) * 1024 < 2 * 2**30   # ru_maxrss is in KiB on Linux


def test_a_node_pool_too_large_for_the_memory_is_refused_up_front(monkeypatch):
    from engine.search import memory
    from engine.search.linuct import NODE_BYTES
    from gtp_process import run_in_process
    monkeypatch.setattr(memory, "available_bytes", lambda: 1 << 30)
    too_many = str((1 << 30) // NODE_BYTES)         # over 80 % of 1 GiB
    with pytest.raises(ValueError, match=r"max_nodes \d+ needs 1\.0 GiB .* of the 1\.0 GiB"):
        registry.make("linuct-rave", options={"max_nodes": too_many})
    searcher = registry.make("linuct-plain", options={"max_nodes": "100000"})
    with pytest.raises(ValueError, match="lower max_nodes"):
        searcher.set_option("max_nodes", too_many)
    assert searcher.options()["max_nodes"] == 100_000   # unchanged
    replies = run_in_process(["--size", "9", "--algo", "linuct-plain"],
                             [f"nakade-set max_nodes {too_many}", "nakade-get"])
    assert replies[0].startswith("? option max_nodes") and "max_nodes 1000000" in replies[1]
    monkeypatch.setattr(memory, "available_bytes", lambda: None)   # unknown: no limit
    registry.make("linuct-plain", options={"max_nodes": too_many})
