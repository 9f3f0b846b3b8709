"""UCT with progressive widening: plain UCT on the finite action set, PW (thesis Algorithm
2) and DPW (Algorithm 3), as one tree with two switches.

A state node holds its actions; an action node its visit count, total return and, under
DPW, the next states it has produced with their rewards and visit counts.

* Actions: ``alpha`` None gives a node every action of ``problem.actions`` at once (plain
  UCT); otherwise a node adds one action whenever N(x)^alpha >= #actions (counts before
  this visit, so the first visit adds the first action).  A problem with a finite action
  set gives its actions in a random order without repetition; otherwise they are drawn by
  ``problem.sample_action``.
* Next states: ``beta`` None draws a fresh transition every time (UCT, PW).  A continuous
  state is then never met again, so the new state is a leaf evaluated by a random
  playout, which is exactly what makes plain UCT and PW fall into Trap's trap.  With
  ``beta`` (DPW) an action draws a new transition when N(x, a)^beta >= #children, and
  otherwise revisits a stored child (state and reward) with probability proportional to
  its visits, so the tree grows below it.
"""

import random

from .common import Decision, argmax_random, most_visited, rollout, run_budget, ucb_index


class _Action:
    __slots__ = ("value", "n", "total", "children", "child_n")

    def __init__(self, value):
        self.value, self.n, self.total = value, 0, 0.0
        self.children, self.child_n = [], []   # (state, reward, done, node); visits


class _State:
    __slots__ = ("n", "actions", "pending")

    def __init__(self, problem, widen: bool, rng):
        self.n = 0
        if not widen:
            self.actions, self.pending = [_Action(a) for a in problem.actions], None
        else:
            self.actions = []
            self.pending = list(problem.actions)   # drawn without repetition
            rng.shuffle(self.pending)


class WideningUCT:
    """``name``: uct, pw or dpw; ``c`` the UCB constant."""

    def __init__(self, name: str, c: float = 1.0, alpha: float | None = None,
                 beta: float | None = None, finite_actions: bool = True):
        self.name, self.c, self.alpha, self.beta = name, c, alpha, beta
        self.finite_actions = finite_actions

    def decide(self, problem, state, budget, rng: random.Random) -> Decision:
        root = _State(problem, self.alpha is not None, rng)
        count, seconds = run_budget(lambda: self._simulate(problem, root, state, rng), budget)
        visits = [a.n for a in root.actions]
        best = root.actions[most_visited(root.actions, visits, [a.total for a in root.actions],
                                         rng)]
        return Decision(best.value, count, seconds, best.total / max(best.n, 1),
                        {a.value: a.n for a in root.actions})

    def _widen(self, problem, node, rng):
        if node.n ** self.alpha < len(node.actions):
            return
        if not self.finite_actions:
            node.actions.append(_Action(problem.sample_action(rng)))
        elif node.pending:
            node.actions.append(_Action(node.pending.pop()))

    def _simulate(self, problem, node, state, rng) -> float:
        if self.alpha is not None:
            self._widen(problem, node, rng)
        act = node.actions[argmax_random(
            [ucb_index(a.total, a.n, node.n, self.c) for a in node.actions], rng)]
        if self.beta is not None and act.n ** self.beta < len(act.children):
            i = _weighted_index(act.child_n, rng)
            nxt, reward, done, child = act.children[i]
            act.child_n[i] += 1
            value = reward if done else reward + problem.gamma * self._simulate(
                problem, child, nxt, rng)
        else:
            nxt, reward, done = problem.step(state, act.value, rng)
            value = reward if done else reward + problem.gamma * rollout(problem, nxt, rng)
            if self.beta is not None:
                child = _State(problem, self.alpha is not None, rng)
                child.n = 1      # the playout just made counts as its first visit
                act.children.append((nxt, reward, done, child))
                act.child_n.append(1)
        node.n += 1
        act.n += 1
        act.total += value
        return value


def _weighted_index(weights, rng) -> int:
    pick = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        pick -= w
        if pick < 0:
            return i
    return len(weights) - 1
