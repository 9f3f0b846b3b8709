"""Solve rates and their confidence intervals.

A solve rate is k correct answers out of n runs.  Its interval is Wilson's score interval
(Wilson 1927) at 95 %: unlike the normal approximation p +- z sqrt(p(1-p)/n) it stays
inside [0, 1] and does not collapse to a point at k = 0 or k = n.  Runs of the same
problem with different seeds are counted as independent trials, which they are for the
search but not for the problem; the interval is about the search's luck on this set.

Rows are grouped by back end (the spec, ``engine.search.registry``), restricted or not, and
budget; a restricted series is labelled ``SPEC+restrict`` (``label``).

Two series at one budget are also compared problem by problem (``paired``): on how many
problems each solved more of its runs than the other, and the two-sided exact sign test
of those counts.  The problem is the unit there, so that comparison carries the set's
spread of difficulty that the runs' intervals leave out, and two series whose seeds
differ are compared on what each did with every problem they share.
"""

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ..match.stats import Z95, wilson_interval

RESTRICTED = "+restrict"    # what a restricted series' label adds to the back end's spec


def label(algo: str, restrict: bool) -> str:
    return algo + RESTRICTED if restrict else algo


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials; (0, 1) when n is 0."""
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, not k={k}, n={n}")
    return wilson_interval(k, n, z)


@dataclass
class Rate:
    algo: str
    budget: int
    solved: int
    runs: int
    restrict: bool = False
    proved: int = 0      # of the solved runs, those whose move the solver proved

    @property
    def label(self) -> str:
        return label(self.algo, self.restrict)

    @property
    def rate(self) -> float:
        return self.solved / self.runs if self.runs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.solved, self.runs)

    def as_dict(self) -> dict:
        lo, hi = self.interval
        return dict(algo=self.algo, restrict=self.restrict, label=self.label,
                    budget=self.budget, solved=self.solved, proved=self.proved,
                    runs=self.runs, rate=self.rate, ci95=[lo, hi])


def solve_rates(rows) -> list[Rate]:
    """One Rate per (algo, restrict, budget) of result rows (dicts with algo, budget,
    correct and optionally restrict and status), sorted by algo, restrict, then budget."""
    counts = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        c = counts[(row["algo"], bool(row.get("restrict", False)), int(row["budget"]))]
        c[0] += bool(row["correct"])
        c[1] += 1
        c[2] += bool(row["correct"]) and row.get("status") == "proved"
    return [Rate(algo, budget, k, n, restrict, proved)
            for (algo, restrict, budget), (k, n, proved) in sorted(counts.items())]


def per_problem(rows) -> dict:
    """problem -> (label, budget) -> (solved, runs)."""
    table = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        series = label(row["algo"], bool(row.get("restrict", False)))
        cell = table[row["problem"]][(series, int(row["budget"]))]
        cell[0] += bool(row["correct"])
        cell[1] += 1
    return {p: {key: tuple(v) for key, v in cells.items()} for p, cells in table.items()}


@dataclass
class Pair:
    """Series ``a`` against series ``b`` at one budget, over the problems both ran."""
    a: str
    b: str
    budget: int
    problems: int
    a_better: int        # problems where a solved a larger share of its runs
    b_better: int

    @property
    def p_value(self) -> float:
        return sign_test(self.a_better, self.b_better)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance, were both sides equally likely to come out
    ahead on each problem, of a split at least as uneven as ``wins`` to ``losses``."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(wins, losses) + 1))
    return min(1.0, 2 * tail / 2 ** n)


def paired(rows) -> list[Pair]:
    """Every two series of one budget, problem by problem (module docstring), in the
    order of their labels."""
    table = per_problem(rows)
    series = defaultdict(set)
    for cells in table.values():
        for name, budget in cells:
            series[budget].add(name)
    pairs = []
    for budget in sorted(series):
        for a, b in combinations(sorted(series[budget]), 2):
            shares = [(cells[(a, budget)], cells[(b, budget)]) for cells in table.values()
                      if (a, budget) in cells and (b, budget) in cells]
            # a larger share, compared without division: k_a / n_a > k_b / n_b
            better_a = sum(ka * nb > kb * na for (ka, na), (kb, nb) in shares)
            better_b = sum(ka * nb < kb * na for (ka, na), (kb, nb) in shares)
            pairs.append(Pair(a, b, budget, len(shares), better_a, better_b))
    return pairs
