"""The simulators of the bandit experiments (engine.bandits.experiments): the problems are
what the module promises, the regret is the plain sum of the gaps of the arms pulled, and
a repetition is one row (engine.reproduce.bandit)."""

import numpy as np

from engine.bandits.experiments import (REGRET_ALGORITHMS, arm_probs, cumulative_regret,
                                        make_problem, regret_task, task_seed, ucb1_arms)
from engine.core.rng import make_rng
from engine.reproduce.bandit import run_task, tasks


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


def test_the_arms_and_a_halving_repetition():
    assert np.allclose(arm_probs(5), [0.1, 0.3, 0.5, 0.7, 0.9])
    # two arms 0.1 and 0.9 apart, 200 pulls: both always find the better one
    rows = [run_task("halving", t) for t in tasks(
        {"budget": 200, "reps": 5, "arms": (2,), "ucb_c": 1.0}, "halving")]
    assert [(r["rep"], r["sh"], r["ucb"]) for r in rows] == [(i, 1, 1) for i in range(5)]
