"""Solve-rate arithmetic (engine.tsumego.stats): Wilson's interval against published values
and against the interval's definition (the p whose score test just rejects); the sign
test against the binomial distribution written out; two series compared problem by
problem, and by the kind of fight."""

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tsumego.problem import load_problems
from engine.tsumego.report import kinds_table, pairs_table
from engine.tsumego.stats import (Z95, label, paired, per_problem, sign_test, solve_rates,
                                  wilson)

PROBLEMS = Path(__file__).parent.parent / "problems"


@pytest.mark.parametrize("k, n, lo, hi", [
    (5, 10, 0.2365931, 0.7634069),      # the textbook example (Wikipedia, Agresti-Coull)
    # k = 0 and k = n in closed form: z^2/(n+z^2) and n/(n+z^2)
    (0, 10, 0.0, Z95 ** 2 / (10 + Z95 ** 2)),
    (10, 10, 10 / (10 + Z95 ** 2), 1.0),
])
def test_wilson_matches_known_values(k, n, lo, hi):
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=2e-7)
    assert got[1] == pytest.approx(hi, abs=2e-7)


def score_statistic(k, n, p):
    return abs(k / n - p) / math.sqrt(p * (1 - p) / n)


@given(st.integers(1, 400), st.data())
def test_interval_ends_are_where_the_score_test_reaches_z(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    for end in (lo, hi):
        if 0.0 < end < 1.0:
            assert score_statistic(k, n, end) == pytest.approx(Z95, rel=1e-9)


def test_no_runs_means_no_information():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


ROWS = [
    dict(problem="a", algo="uct", budget=100, seed=0, correct=True),
    dict(problem="a", algo="uct", budget=100, seed=1, correct=False),
    dict(problem="b", algo="uct", budget=100, seed=0, correct=True),
    dict(problem="a", algo="shot", budget=100, seed=0, correct=False),
    dict(problem="a", algo="uct", budget="1000", seed=0, correct=True),
]


def test_solve_rates_group_by_back_end_and_budget():
    rates = {(r.algo, r.budget): r for r in solve_rates(ROWS)}
    assert sorted(rates) == [("shot", 100), ("uct", 100), ("uct", 1000)]
    uct = rates[("uct", 100)]
    assert (uct.solved, uct.runs) == (2, 3) and uct.rate == pytest.approx(2 / 3)
    assert uct.as_dict()["ci95"] == list(wilson(2, 3))
    assert rates[("shot", 100)].rate == 0.0


def test_per_problem_counts_solved_seeds():
    table = per_problem(ROWS)
    assert table["a"][("uct", 100)] == (1, 2)
    assert table["b"][("uct", 100)] == (1, 1)
    assert table["a"][("shot", 100)] == (0, 1)


def test_restricted_rows_are_a_series_of_their_own():
    rows = ROWS + [dict(problem="a", algo="uct", budget=100, seed=0, correct=False,
                        restrict=True)]
    rates = {(r.label, r.budget): r for r in solve_rates(rows)}
    assert rates[("uct+restrict", 100)].runs == 1 and rates[("uct", 100)].runs == 3
    held = rates[("uct+restrict", 100)].as_dict()
    assert (held["algo"], held["restrict"], held["label"]) == ("uct", True, "uct+restrict")
    assert per_problem(rows)["a"][("uct+restrict", 100)] == (0, 1)
    assert label("uct:c=0.5", False) == "uct:c=0.5"


@pytest.mark.parametrize("wins, losses, p", [
    (12, 8, 0.5034),    # 2 * P(X <= 8), X ~ Binomial(20, 1/2): 2 * 263950 / 2**20
    (5, 0, 0.0625),     # 2 / 2**5
    (0, 5, 0.0625),
    (10, 10, 1.0),      # an even split: the two tails overlap, capped at 1
    (0, 0, 1.0),        # nothing to go on
])
def test_sign_test_matches_the_binomial_tails(wins, losses, p):
    assert sign_test(wins, losses) == pytest.approx(p, abs=5e-5)


@given(st.integers(0, 60), st.integers(0, 60))
def test_sign_test_is_a_two_sided_probability(wins, losses):
    p = sign_test(wins, losses)
    assert 0.0 < p <= 1.0
    assert p == sign_test(losses, wins)
    n = wins + losses
    direct = sum(math.comb(n, i) / 2 ** n for i in range(n + 1)
                 if min(i, n - i) <= min(wins, losses))
    assert p == pytest.approx(min(1.0, direct))


def test_paired_compares_shares_on_the_problems_both_series_ran():
    rows = [
        # a: uct 2 of 2, shot 1 of 3 -> uct; b: uct 0 of 1, shot 1 of 1 -> shot;
        # c: 1 of 2 against 2 of 4 -> a tie; d: uct alone, not compared
        *(dict(problem="a", algo="uct", budget=100, seed=s, correct=True) for s in (0, 1)),
        *(dict(problem="a", algo="shot", budget=100, seed=s, correct=s == 0) for s in range(3)),
        dict(problem="b", algo="uct", budget=100, seed=0, correct=False),
        dict(problem="b", algo="shot", budget=100, seed=0, correct=True),
        *(dict(problem="c", algo="uct", budget=100, seed=s, correct=s == 0) for s in (0, 1)),
        *(dict(problem="c", algo="shot", budget=100, seed=s, correct=s < 2) for s in range(4)),
        dict(problem="d", algo="uct", budget=100, seed=0, correct=True),
        dict(problem="a", algo="uct", budget=1000, seed=0, correct=True),   # alone there
    ]
    [pair] = paired(rows)
    assert (pair.a, pair.b, pair.budget, pair.problems) == ("shot", "uct", 100, 3)
    assert (pair.a_better, pair.b_better) == (1, 1)
    assert pair.p_value == 1.0
    table = pairs_table(rows)
    assert "| shot | uct | 100 | 3 | 1 | 1 | 1.000 |" in table
    assert pairs_table(ROWS[:3]) == ""   # one series: nothing to compare


def test_kinds_table_gives_the_solve_rates_of_each_kind_of_fight():
    problems = load_problems([PROBLEMS / "go" / "19x19" / f"{name}.sgf" for name in
                              ("bent-three-kill", "corner-six-kill", "corner-six-live")]
                             + [PROBLEMS / "gobang"]).problems
    rows = [dict(problem="bent-three-kill", algo="uct", budget=100, seed=0, correct=True),
            dict(problem="corner-six-kill", algo="uct", budget=100, seed=0, correct=False),
            dict(problem="corner-six-live", algo="uct", budget=100, seed=0, correct=True),
            dict(problem="corner-six-live", algo="uct", budget=200, seed=0, correct=False)]
    table = kinds_table(rows, problems).splitlines()
    assert table[2:] == ["| uct | 100 | kill | 1/2 | 0.500 | [0.095, 0.905] |",
                         "| uct | 100 | live | 1/1 | 1.000 | [0.207, 1.000] |",
                         "| uct | 200 | live | 0/1 | 0.000 | [0.000, 0.793] |"]
    gobang = [p for p in problems if p.game == "gobang"]
    assert gobang and kinds_table(rows, gobang) == ""    # no fight: no table
