"""What every search method of ``engine.mdp`` shares: the budget loop, the UCB1 choice
(eq. 2.2 of the thesis: mean + C sqrt(2 ln N / n)), the random default policy, and the
decision a search returns.

A search method is an object with ``name`` and ``decide(problem, state, budget, rng)``
returning a ``Decision``; it keeps nothing from one decision to the next (every decision
starts a fresh search from the true state).  ``budget`` is ``engine.search.base.Budget``:
``playouts`` simulations, or ``seconds`` of time, whichever ends first.  Time here is
the CPU time of the searching thread (``time.thread_time``), not the wall clock: the
experiments run many searches side by side, often on a shared machine, and a wall-clock
budget would then measure the scheduler more than the search.  On an idle core the two
agree.
"""

import math
import time
from dataclasses import dataclass

UNTRIED = math.inf


@dataclass
class Decision:
    action: float
    playouts: int
    seconds: float
    value: float              # the chosen action's mean return in the search
    visits: dict              # root action -> visits (for printing)


def run_budget(simulate, budget) -> tuple[int, float]:
    """Call ``simulate()`` until the budget is spent (at least once); (count, CPU seconds)."""
    start = time.thread_time()
    limit = budget.playouts if budget.playouts is not None else math.inf
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    done = 0
    while True:
        simulate()
        done += 1
        if done >= limit or time.thread_time() >= deadline:
            return done, time.thread_time() - start


def ucb_index(total: float, n: float, parent: float, c: float) -> float:
    """UCB1 of an arm with ``n`` (possibly weighted) visits and ``total`` return; an arm
    never tried comes first.  ``parent`` below 1 (weighted counts) explores as 1."""
    if n <= 0:
        return UNTRIED
    return total / n + c * math.sqrt(2.0 * math.log(max(parent, 1.0)) / n)


def argmax_random(values, rng) -> int:
    """Index of the largest value, ties broken at random."""
    best = max(values)
    ties = [i for i, v in enumerate(values) if v == best]
    return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]


def rollout(problem, state, rng) -> float:
    """Return of the uniformly random default policy from ``state`` to the episode's end
    (the problem's own ``rollout`` when it has one)."""
    fast = getattr(problem, "rollout", None)
    if fast is not None:
        return fast(state, rng)
    total, discount = 0.0, 1.0
    while True:
        state, reward, done = problem.step(state, problem.sample_action(rng), rng)
        total += discount * reward
        if done:
            return total
        discount *= problem.gamma


def most_visited(actions, visits, totals, rng) -> int:
    """The root's recommendation: most visits, then best mean, then at random."""
    keys = [(n, t / n if n else -math.inf) for n, t in zip(visits, totals)]
    return argmax_random(keys, rng)


def root_ucb_search(problem, state, budget, rng, c: float, below) -> Decision:
    """Thesis Algorithm 7: plain UCB1 over the finite actions at the root, on exact counts
    (every root sample comes from the one true state); ``below(next_state)`` runs the rest
    of a simulation and returns its return."""
    actions = problem.actions
    k = len(actions)
    visits, totals = [0] * k, [0.0] * k

    def simulate():
        parent = sum(visits)
        i = argmax_random([ucb_index(totals[j], visits[j], parent, c) for j in range(k)], rng)
        nxt, reward, done = problem.step(state, actions[i], rng)
        visits[i] += 1
        totals[i] += reward if done else reward + problem.gamma * below(nxt)

    count, seconds = run_budget(simulate, budget)
    best = most_visited(actions, visits, totals, rng)
    return Decision(actions[best], count, seconds, totals[best] / max(visits[best], 1),
                    dict(zip(actions, visits)))
