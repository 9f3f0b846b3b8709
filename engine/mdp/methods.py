"""The search methods by name, with the thesis's settings for each problem, and the
episode: decide, step, repeat.

| name | method | Trap | Treasure Hunt |
|---|---|---|---|
| ``uct``  | plain UCT on the finite action set | C = 1 | C = 1, K headings |
| ``pw``   | progressive widening (actions) | C = 1, alpha = 0.3 | C = 1, alpha = 0.2 |
| ``dpw``  | double PW | C = 1, alpha = 0.3, beta = 0.25 | C = 0.3, alpha = 0.2, beta = 0.25 |
| ``wuct`` | Weighted UCT | C = 1 | C = 1 |
| ``tree`` | state-abstraction tree | C = 1 | C = 1 |

PW and DPW draw Treasure Hunt's headings from the whole circle; the others choose among
``K`` evenly spaced headings.  On Trap every method has the 8 actions.
"""

import random
from dataclasses import dataclass

from ..match.runner import derive_seed
from .abstraction import AbstractionTree
from .wuct import WeightedUCT
from .widening import WideningUCT

METHODS = ("uct", "pw", "dpw", "wuct", "tree")


def make_method(name: str, problem):
    """The method ``name`` with the thesis's settings for ``problem``."""
    trap = problem.name == "trap"
    alpha = 0.3 if trap else 0.2
    if name == "uct":
        return WideningUCT("uct", c=1.0)
    if name == "pw":
        return WideningUCT("pw", c=1.0, alpha=alpha, finite_actions=trap)
    if name == "dpw":
        return WideningUCT("dpw", c=1.0 if trap else 0.3, alpha=alpha, beta=0.25,
                           finite_actions=trap)
    if name == "wuct":
        return WeightedUCT(c=1.0)
    if name == "tree":
        return AbstractionTree(c=1.0)
    raise ValueError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")


_WARM = set()    # problems whose kernels this process has run


def warm_up(problem):
    """Run every compiled kernel once in this process (numba loads or compiles it), so
    that no timed decision pays for it."""
    from ..search.base import Budget
    if problem.name not in _WARM:
        for method in ("dpw", "wuct", "tree"):
            make_method(method, problem).decide(problem, problem.reset(),
                                                Budget(playouts=2), random.Random(0))
        _WARM.add(problem.name)


@dataclass
class Step:
    state: tuple
    decision: object          # common.Decision
    next_state: tuple
    reward: float


def run_episode(problem, method, budget, seed: int, on_step=None) -> float:
    """The return of one episode; the search and the environment draw from separate
    streams derived from ``seed``.  ``on_step(Step)`` is called after every step."""
    search_rng = random.Random(derive_seed(seed, "search"))
    env_rng = random.Random(derive_seed(seed, "environment"))
    state, total, discount = problem.reset(), 0.0, 1.0
    while True:
        decision = method.decide(problem, state, budget, search_rng)
        nxt, reward, done = problem.step(state, decision.action, env_rng)
        total += discount * reward
        discount *= problem.gamma
        if on_step is not None:
            on_step(Step(state, decision, nxt, reward))
        if done:
            return total
        state = nxt
