"""The simulators of the bandit experiments (engine.bandits.experiments): the problems are
what the module promises, the regret is the plain sum of the gaps of the arms pulled, and
the result rows count every run once."""

import numpy as np

from engine.bandits.experiments import (REGRET_ALGORITHMS, arm_probs, cumulative_regret,
                                        halving_rows, halving_task, halving_tasks,
                                        make_problem, regret_rows, regret_task, task_seed,
                                        ucb1_arms)
from engine.core.rng import make_rng


def test_every_problem_has_its_means_in_the_band_with_an_arm_on_its_edge():
    for d in (2, 10, 100):
        for norm in (1.0, 10.0):
            x, mu = make_problem(7, d, 0, 25, norm)
            assert x.shape == (25, d) and np.all(x[:, 0] == 1.0)
            assert np.isclose(np.abs(mu - 0.5).max(), 0.4)
            assert np.allclose(np.linalg.norm(x[:, 1:], axis=1), norm)
    _, mu1 = make_problem(7, 10, 0, 25, 1.0)
    _, mu10 = make_problem(7, 10, 0, 25, 10.0)
    assert np.allclose(mu1, mu10)          # the norm scales the features, not the means


def test_the_regret_is_the_sum_of_the_gaps_in_step_order():
    _, mu = make_problem(3, 10, 1, 25, 1.0)
    arms = ucb1_arms(mu, 500, np.sqrt(2), make_rng(task_seed(3, 2, 10, 1, 2)))
    total, expected = 0.0, []
    for a in arms:
        total += mu.max() - mu[a]
        expected.append(total)
    assert np.array_equal(cumulative_regret(mu, arms), np.array(expected))
    d, norm, run, curves = regret_task(3, 10, 1.0, 1, 25, 500, 1.0, 1.0, np.sqrt(2))
    assert curves.shape == (len(REGRET_ALGORITHMS), 500)
    assert np.all(np.diff(curves, axis=1) >= 0)
    assert np.array_equal(curves[2], cumulative_regret(mu, arms))   # UCB1, its own stream


def test_the_rows_count_each_run_once():
    tasks = halving_tasks(1, [200], [2, 8], reps=30, chunk=20, c=1.0)
    assert [t[4] for t in tasks] == [20, 10, 20, 10]       # chunks of 20 and the rest
    rows = halving_rows(halving_task(*t) for t in tasks)
    assert {(r["arms"], r["algorithm"]): r["reps"] for r in rows} == {
        (2, "SequentialHalving"): 30, (2, "UCB1"): 30, (8, "SequentialHalving"): 30,
        (8, "UCB1"): 30}
    assert all(0 <= r["best_found"] <= 30 for r in rows)
    # two arms 0.1 and 0.9 apart, 200 pulls: both always find the better one
    assert all(r["rate"] == 1.0 for r in rows if r["arms"] == 2)
    assert np.allclose(arm_probs(5), [0.1, 0.3, 0.5, 0.7, 0.9])
    results = [regret_task(2, 10, 1.0, run, 25, 50, 1.0, 1.0, 1.0) for run in range(3)]
    rows, summary, curves = regret_rows(results)
    assert len(summary) == len(REGRET_ALGORITHMS)
    mean, se = curves[(10, 1.0)]
    assert mean.shape == (len(REGRET_ALGORITHMS), 50) and np.all(se >= 0)
    assert {r["t"] for r in rows} >= {1, 50}
