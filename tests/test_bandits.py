"""The bandit kernels against hand-computed cases and straightforward numpy formulas."""

import math

import numpy as np
import pytest

from engine.bandits.flinucb import (GD_N, GD_SEEN, GD_T, flinucb_init, flinucb_score_sparse,
                                    flinucb_scores, flinucb_update, flinucb_update_sparse,
                                    theta_step_scaled, theta_step_sparse)
from engine.bandits.halving import (SH_N, SH_USED, ceil_log2, round_pulls, sh_done, sh_init,
                                    sh_next, sh_recommend, sh_tell)
from engine.bandits.linucb import (init_quads, linucb_init, linucb_score, linucb_score_sparse,
                                   linucb_scores_cached, linucb_update, linucb_update_sparse,
                                   refresh_quads)
from engine.bandits.ucb import ucb1_recommend, ucb1_scores, ucb1_select
from engine.core.rng import make_rng, rand_below

# ---- UCB1 ----------------------------------------------------------------------------


def test_ucb1_scores_by_hand():
    counts = np.array([1, 2, 3], dtype=np.int64)
    sums = np.array([1.0, 1.0, 0.0])
    out = np.empty(3)
    ucb1_scores(counts, sums, 1.0, out)
    # ln 6 = 1.791759: 1 + sqrt(1.791759), 0.5 + sqrt(1.791759 / 2), sqrt(1.791759 / 3)
    assert out == pytest.approx([2.338566, 1.446509, 0.772822], abs=1e-6)
    assert ucb1_select(counts, sums, 1.0, make_rng(0), out) == 0


def test_ucb1_tries_unvisited_arms_first_in_random_order():
    counts = np.array([3, 0, 2, 0], dtype=np.int64)
    sums = np.array([3.0, 0.0, 2.0, 0.0])
    out = np.empty(4)
    picks = {ucb1_select(counts, sums, 1.0, make_rng(seed), out) for seed in range(40)}
    assert picks == {1, 3}


def test_ucb1_recommends_most_pulled_then_best_mean():
    counts = np.array([5, 7, 7], dtype=np.int64)
    sums = np.array([5.0, 3.0, 4.0])
    assert ucb1_recommend(counts, sums, make_rng(0), np.empty(3)) == 2


def reference_ucb1_counts(rewards, steps, c):
    """Textbook UCB1 on arms that always pay ``rewards[a]``."""
    k = len(rewards)
    counts, sums = [1] * k, list(rewards)
    for t in range(k, steps):
        scores = [sums[a] / counts[a] + c * math.sqrt(math.log(t) / counts[a])
                  for a in range(k)]
        a = scores.index(max(scores))
        counts[a] += 1
        sums[a] += rewards[a]
    return counts


def test_ucb1_pull_counts_match_the_textbook_loop():
    rewards = [0.2, 0.5, 0.9, 0.45]
    counts = np.zeros(4, dtype=np.int64)
    sums = np.zeros(4)
    scratch = np.empty(4)
    rng = make_rng(3)
    for _ in range(300):
        a = ucb1_select(counts, sums, 0.7, rng, scratch)
        counts[a] += 1
        sums[a] += rewards[a]
    assert counts.tolist() == reference_ucb1_counts(rewards, 300, 0.7)


# ---- Sequential Halving --------------------------------------------------------------


def test_halving_schedule_by_hand():
    assert [ceil_log2(k) for k in (1, 2, 3, 4, 5, 8, 9, 1024)] == [0, 1, 2, 2, 3, 3, 4, 10]
    # T = 20, K = 4: two rounds; 20 // (4 * 2) = 2 pulls each, then 20 // (2 * 2) = 5
    assert round_pulls(20, 4, 4) == 2 and round_pulls(20, 2, 4) == 5
    # the floor is 1 pull even when T is small for the number of arms
    assert round_pulls(7, 5, 5) == 1 and round_pulls(1000, 1024, 1024) == 1


def run_halving(rewards, budget, seed=0):
    """Drive the ask/tell machine on arms that always pay ``rewards[a]``."""
    k = len(rewards)
    alive = np.empty(k, dtype=np.int64)
    sh = np.empty(SH_N, dtype=np.int64)
    counts = np.empty(k, dtype=np.int64)
    sums = np.empty(k)
    rng = make_rng(seed)
    sh_init(alive, sh, counts, sums, budget, rng)
    order = []
    while not sh_done(sh):
        a = sh_next(alive, sh)
        order.append(int(a))
        sh_tell(alive, sh, counts, sums, a, rewards[a], rng)
    assert sh_next(alive, sh) == -1
    return sh_recommend(alive, sh, counts, sums, rng), counts.tolist(), int(sh[SH_USED]), order


def test_halving_four_arms_budget_twenty():
    best, counts, used, _ = run_halving([0.1, 0.4, 0.3, 0.9], 20)
    # round 0: 2 pulls x 4 arms; arms 3 and 1 survive; round 1: 5 pulls x 2 arms
    assert (best, counts, used) == (3, [2, 7, 2, 7], 18)


def test_halving_three_arms_budget_twelve():
    best, counts, used, _ = run_halving([0.5, 0.2, 0.7], 12)
    # L = 2; round 0: 12 // (3 * 2) = 2 each, keep ceil(3/2) = 2; round 1: 12 // 4 = 3 each
    assert (best, counts, used) == (2, [5, 2, 5], 12)


def test_halving_stops_at_the_budget_when_the_floor_overspends():
    best, counts, used, order = run_halving([0.1, 0.2, 0.3, 0.4, 0.5], 7)
    # L = 3; round 0: max(1, 7 // 15) = 1 pull x 5 arms, keep 3 (arms 4, 3, 2);
    # round 1 would pull each once more but only 2 pulls are left: best first, 4 then 3
    assert used == 7 and counts == [1, 1, 1, 2, 2] and order[5:] == [4, 3] and best == 4


def test_halving_breaks_ties_at_random():
    answers = {run_halving([0.5] * 4, 16, seed)[0] for seed in range(40)}
    assert answers == {0, 1, 2, 3}


def test_halving_single_arm_needs_no_pull():
    assert run_halving([0.3], 10)[:3] == (0, [0], 0)


# ---- exact LinUCB --------------------------------------------------------------------


def direct_linucb(xs, rs, d):
    a = np.eye(d) + sum(np.outer(x, x) for x in xs)
    b = sum(r * x for x, r in zip(xs, rs))
    return np.linalg.inv(a), np.linalg.solve(a, b)


def test_sherman_morrison_inverse_matches_numpy_after_many_updates():
    rng = np.random.default_rng(1)
    d = 8
    ainv, theta, u = np.empty((d, d)), np.empty(d), np.empty(d)
    linucb_init(ainv, theta)
    xs, rs = rng.normal(size=(500, d)), rng.normal(size=500)
    for x, r in zip(xs, rs):
        linucb_update(ainv, theta, x, r, u)
    want_inv, want_theta = direct_linucb(xs, rs, d)
    np.testing.assert_allclose(ainv, want_inv, atol=1e-12)
    np.testing.assert_allclose(theta, want_theta, rtol=1e-9, atol=1e-12)


def test_linucb_scores_match_the_formula_and_the_cache_stays_exact():
    rng = np.random.default_rng(2)
    d, k = 6, 10
    arms = rng.normal(size=(k, d))
    ainv, theta, u = np.empty((d, d)), np.empty(d), np.empty(d)
    linucb_init(ainv, theta)
    q = np.empty(k)
    init_quads(arms, ainv, q)
    xs, rs = [], []
    for _ in range(300):
        x = arms[rng.integers(k)]
        r = rng.random()
        denom = linucb_update(ainv, theta, x, r, u)
        refresh_quads(arms, q, u, denom)
        xs.append(x)
        rs.append(r)
    want_inv, want_theta = direct_linucb(xs, rs, d)
    alpha = 0.8
    want = [x @ want_theta + alpha * math.sqrt(x @ want_inv @ x) for x in arms]
    assert [linucb_score(x, theta, ainv, alpha) for x in arms] == pytest.approx(want, rel=1e-9)
    out = np.empty(k)
    linucb_scores_cached(arms, theta, q, alpha, out)
    assert out.tolist() == pytest.approx(want, rel=1e-9)


def test_sparse_linucb_equals_dense_on_binary_rows():
    rng = np.random.default_rng(3)
    d = 30
    rows = [np.sort(rng.choice(d, size=rng.integers(1, 8), replace=False)).astype(np.int32)
            for _ in range(12)]
    flat = np.concatenate(rows)
    starts = np.cumsum([0] + [len(r) for r in rows])
    dense = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        dense[i, r] = 1.0
    a1, t1, a2, t2, u = (np.empty((d, d)), np.empty(d), np.empty((d, d)), np.empty(d),
                         np.empty(d))
    linucb_init(a1, t1)
    linucb_init(a2, t2)
    for _ in range(100):
        i = int(rng.integers(len(rows)))
        r = rng.random()
        den_dense = linucb_update(a1, t1, dense[i], r, u)
        den_sparse = linucb_update_sparse(a2, t2, flat, starts[i], len(rows[i]), r, u)
        assert den_sparse == pytest.approx(den_dense, rel=1e-12)
    np.testing.assert_allclose(a2, a1, atol=1e-12)
    np.testing.assert_allclose(t2, t1, atol=1e-12)
    for i in range(len(rows)):
        assert linucb_score_sparse(flat, starts[i], len(rows[i]), t2, a2, 1.3) == \
            pytest.approx(linucb_score(dense[i], t1, a1, 1.3), rel=1e-12)


# ---- fLinUCB-GD ----------------------------------------------------------------------


def reference_flinucb(arms, table, obs, capacity, seed):
    """The update rule of the module docstring in plain numpy, drawing the same random
    numbers as the kernel (the earlier observation, then the reservoir slot): observation
    t steps from one of the t - 1 before it, never from itself."""
    rng = make_rng(seed)
    k, d = arms.shape
    theta, phi = np.zeros(d), np.zeros((k, d))
    mem = []
    for t, (row, y) in enumerate(obs, start=1):
        if mem:
            i, yi = mem[rand_below(rng, len(mem))]
            xi = table[i]
            gamma, lam = 1.0 / (100 + t), t ** -0.4
            theta = theta + gamma * ((yi - theta @ xi) * xi - lam * theta)
            phi = phi + gamma * (arms / t - np.outer(phi @ xi, xi))
        if len(mem) < capacity:
            mem.append((row, y))
        else:
            slot = rand_below(rng, t)
            if slot < capacity:
                mem[slot] = (row, y)
    return theta, phi


def test_flinucb_follows_its_formulas():
    rng = np.random.default_rng(4)
    k, d, capacity = 5, 7, 6
    arms = rng.normal(size=(k, d))
    obs = [(int(rng.integers(k)), float(rng.random())) for _ in range(40)]
    theta, phi, gd = np.empty(d), np.empty((k, d)), np.empty(GD_N)
    mem_row, mem_y = np.empty(capacity, dtype=np.int64), np.empty(capacity)
    flinucb_init(theta, phi, gd)
    rng_state = make_rng(9)
    for row, y in obs:
        flinucb_update(arms, arms, theta, phi, gd, mem_row, mem_y, row, y, rng_state)
    want_theta, want_phi = reference_flinucb(arms, arms, obs, capacity, 9)
    np.testing.assert_allclose(theta, want_theta, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(phi, want_phi, rtol=1e-12, atol=1e-15)
    assert gd[GD_T] == 40 and gd[GD_SEEN] == 40
    out = np.empty(k)
    flinucb_scores(arms, theta, phi, 1.0, out)
    want = [x @ want_theta + math.sqrt(max(x @ p, 0.0)) for x, p in zip(arms, want_phi)]
    assert out.tolist() == pytest.approx(want, rel=1e-12)


def test_sparse_flinucb_equals_dense_on_binary_rows():
    rng = np.random.default_rng(5)
    d, k = 20, 6
    rows = [np.sort(rng.choice(d, size=rng.integers(1, 6), replace=False)).astype(np.int32)
            for _ in range(k)]
    flat = np.concatenate(rows)
    starts = np.cumsum([0] + [len(r) for r in rows[:-1]]).astype(np.int64)
    lens = np.array([len(r) for r in rows], dtype=np.int64)
    dense = np.zeros((k, d))
    for i, r in enumerate(rows):
        dense[i, r] = 1.0
    states = []
    for _ in range(2):
        theta, phi, gd = np.empty(d), np.empty((k, d)), np.empty(GD_N)
        flinucb_init(theta, phi, gd)
        states.append((theta, phi, gd, np.empty(8, dtype=np.int64), np.empty(8), make_rng(2)))
    arm_rows = np.arange(k, dtype=np.int64)
    for _ in range(60):
        row, y = int(rng.integers(k)), float(rng.random())
        flinucb_update(dense, dense, *states[0][:5], row, y, states[0][5])
        flinucb_update_sparse(flat, starts, lens, arm_rows, *states[1][:5], row, y,
                              states[1][5])
    np.testing.assert_allclose(states[1][0], states[0][0], atol=1e-14)
    np.testing.assert_allclose(states[1][1], states[0][1], atol=1e-14)
    out = np.empty(k)
    flinucb_scores(dense, states[0][0], states[0][1], 1.0, out)
    for a in range(k):
        assert flinucb_score_sparse(flat, starts[a], lens[a], states[1][0], states[1][1], a,
                                    1.0) == pytest.approx(out[a], rel=1e-12)


def test_scaled_theta_step_equals_the_sparse_step():
    # 500 steps with the schedule's gamma_t and lambda_t: scale * theta stays the theta of
    # the plain step, and the scale is the product of the decays
    rng = np.random.default_rng(8)
    d = 30
    theta, scaled, scale, decay = np.zeros(d), np.zeros(d), 1.0, 1.0
    for t in range(1, 501):
        row = np.sort(rng.choice(d, size=rng.integers(1, 8), replace=False)).astype(np.int32)
        y, gamma, lam = float(rng.random()), 1 / (100 + t), t ** -0.4
        theta_step_sparse(theta, row, 0, len(row), y, gamma, lam)
        scale = theta_step_scaled(scaled, scale, row, 0, len(row), y, gamma, lam)
        decay *= 1 - gamma * lam
    np.testing.assert_allclose(scale * scaled, theta, rtol=1e-12, atol=1e-15)
    assert scale == pytest.approx(decay, rel=1e-12)


def test_flinucb_theta_approaches_the_exact_ridge_solution_on_a_noiseless_problem():
    """d = 5, 200 Gaussian feature rows, y = x^T theta* exactly.  After 20,000 steps theta is
    within 6% (relative, 2-norm) of the exact ridge solution A^-1 b, and at least twice
    as close as after 2,000 steps.  The floor is the gradient's own shrinkage: lambda_t =
    t^-0.4 is still 1.9% at t = 20,000."""
    rng = np.random.default_rng(6)
    d, n_rows, steps = 5, 200, 20000
    table = rng.normal(size=(n_rows, d))
    theta_star = rng.normal(size=d)
    theta, phi, gd = np.empty(d), np.empty((1, d)), np.empty(GD_N)
    flinucb_init(theta, phi, gd)
    mem_row, mem_y = np.empty(steps, dtype=np.int64), np.empty(steps)
    rng_state = make_rng(6)
    counts = np.zeros(n_rows)
    errors = []
    for t, row in enumerate(rng.integers(n_rows, size=steps), start=1):
        flinucb_update(table[:1], table, theta, phi, gd, mem_row, mem_y, row,
                       table[row] @ theta_star, rng_state)
        counts[row] += 1
        if t in (2000, steps):
            a = np.eye(d) + (table.T * counts) @ table
            ridge = np.linalg.solve(a, (table.T * counts) @ (table @ theta_star))
            errors.append(np.linalg.norm(theta - ridge) / np.linalg.norm(ridge))
    assert errors[1] < 0.06
    assert errors[1] < errors[0] / 2


def test_reservoir_keeps_a_uniform_sample_of_the_past():
    """1,000 observations into 100 slots, 200 seeds: the kept ids are distinct and their
    mean is that of a uniform sample (sd of the average over seeds about 1.9)."""
    d = 1
    table = np.ones((1000, d))
    means = []
    for seed in range(200):
        theta, phi, gd = np.empty(d), np.empty((1, d)), np.empty(GD_N)
        flinucb_init(theta, phi, gd)
        mem_row, mem_y = np.empty(100, dtype=np.int64), np.empty(100)
        rng_state = make_rng(seed)
        for row in range(1000):
            flinucb_update(table[:1], table, theta, phi, gd, mem_row, mem_y, row, 0.0,
                           rng_state)
        assert len(set(mem_row.tolist())) == 100
        means.append(mem_row.mean())
    assert abs(np.mean(means) - 499.5) < 8
