"""The depth-weighted state-abstraction tree (thesis Algorithms 5 and 7, eqs. 3.1-3.7).

Each time step has its own tree of nested boxes over the state space (``problem.bounds``):
the root box is the whole space, and a box that has been visited th(d) = 8 * 1.5^d times
(d its depth) is split in two along every coordinate (halves in 1-D, quarters in 2-D).
Every box s keeps N_s, and per action N_{s,a} and R_{s,a}.  A state's statistics mix the
boxes on the path from the root to the deepest box containing it, the deep (small, more
specific) boxes weighing more:

    n~(x, a) = sum_s w(d(s)) N_{s,a},   r~(x, a) = sum_s w(d(s)) R_{s,a},   w(d) = (d+1)^2

(eqs. 3.1-3.2).  Because the weights inflate the counts, the total is mapped through
f(n) = n^(2/3) (eq. 3.4) and every action's count and return scaled by f(n~)/n~ (eqs.
3.5-3.6) before UCB1 (eq. 3.7); the mean r~/n~ is unchanged by the scaling, only the
exploration term sees f.  The simulation then steps and recurses into the next step's
tree, down to the end of the episode, and every box on the path records the return.  A
choice costs O(depth x actions), not O(samples) as in Weighted UCT.

The root chooses by plain UCB1 on exact counts (Algorithm 7), as in ``wuct``.  Boxes are
not split below ``max_depth`` (a floor on their size that the budgets here never reach).
"""

from .common import Decision, UNTRIED, argmax_random, most_visited, run_budget, ucb_index


def weight(depth: int) -> float:
    return float((depth + 1) ** 2)


def threshold(depth: int) -> float:
    return 8.0 * 1.5 ** depth


def count_transform(n: float) -> float:
    return n ** (2.0 / 3.0)


class _Box:
    """One box: its corners, N_s, N_{s,a}, R_{s,a}, and the sub-boxes made so far (keyed
    by which half of each coordinate they cover)."""
    __slots__ = ("low", "high", "n", "na", "ra", "children")

    def __init__(self, low, high, k):
        self.low, self.high = low, high
        self.n, self.na, self.ra = 0, [0] * k, [0.0] * k
        self.children = {}

    def child(self, coords, k):
        mids = [(lo + hi) / 2 for lo, hi in zip(self.low, self.high)]
        key = tuple(c >= m for c, m in zip(coords, mids))
        box = self.children.get(key)
        if box is None:
            low = tuple(m if up else lo for up, lo, m in zip(key, self.low, mids))
            high = tuple(hi if up else m for up, hi, m in zip(key, self.high, mids))
            box = self.children[key] = _Box(low, high, k)
        return box


class AbstractionTree:
    name = "tree"

    def __init__(self, c: float = 1.0, max_depth: int = 30):
        self.c, self.max_depth = c, max_depth

    def decide(self, problem, state, budget, rng) -> Decision:
        k = len(problem.actions)
        visits, totals = [0] * k, [0.0] * k
        low, high = zip(*problem.bounds)
        trees = [_Box(low, high, k) for _ in range(problem.horizon)]

        def simulate():
            i = argmax_random([ucb_index(totals[j], visits[j], sum(visits), self.c)
                               for j in range(k)], rng)
            nxt, reward, done = problem.step(state, problem.actions[i], rng)
            value = reward if done else reward + problem.gamma * self._below(
                problem, trees, nxt, rng)
            visits[i] += 1
            totals[i] += value

        count, seconds = run_budget(simulate, budget)
        best = most_visited(problem.actions, visits, totals, rng)
        return Decision(problem.actions[best], count, seconds,
                        totals[best] / max(visits[best], 1),
                        dict(zip(problem.actions, visits)))

    def _below(self, problem, trees, state, rng) -> float:
        k = len(problem.actions)
        coords = state[1:]
        n, r = [0.0] * k, [0.0] * k
        box, depth, path = trees[state[0]], 0, []
        while True:
            path.append(box)
            w = weight(depth)
            for j in range(k):
                n[j] += w * box.na[j]
                r[j] += w * box.ra[j]
            if box.n < threshold(depth) or depth >= self.max_depth:
                break
            box, depth = box.child(coords, k), depth + 1
        n_tilde = sum(n)
        scale = count_transform(n_tilde) / n_tilde if n_tilde > 0 else 0.0
        n_sum = n_tilde * scale
        scores = [ucb_index(r[j] * scale, n[j] * scale, n_sum, self.c) if n[j] > 0
                  else UNTRIED for j in range(k)]
        i = argmax_random(scores, rng)
        nxt, reward, done = problem.step(state, problem.actions[i], rng)
        value = reward if done else reward + problem.gamma * self._below(
            problem, trees, nxt, rng)
        for box in path:
            box.n += 1
            box.na[i] += 1
            box.ra[i] += value
        return value
