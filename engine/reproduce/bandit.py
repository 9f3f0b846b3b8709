"""The two bandit figures as tasks of one repetition each, whose rows are one JSON line
(the simulators are ``engine.bandits.experiments``'s):

* ``halving`` (SHOT paper, section 3.1): repetition ``rep`` on K arms: did Sequential
  Halving and did UCB1, with the pull budget T, name the best arm.  Its random streams come
  from (seed, T, K, rep, algorithm), so the rows do not depend on how tasks are spread.
* ``regret`` (LinUCT paper, figure 1): problem ``run`` of dimension d and feature norm s:
  R_t / t of LinUCB, fLinUCB-GD and UCB1 at 25 log-spaced steps (``marks``: 6,000
  rows stay a few MB).

``key`` names a task's row, so a run resumes by leaving out the keys already recorded.
"""

import numpy as np

from ..bandits.experiments import (REGRET_ALGORITHMS, arm_probs, halving_hits, regret_task,
                                   task_seed, ucb1_hits, warm_up)
from ..core.rng import make_rng

SEED = 2015


def marks(steps: int) -> np.ndarray:
    """The steps (0-based) a regret row records: 25 log-spaced, the last one included."""
    return np.unique(np.geomspace(1, steps, 25).astype(int)) - 1


def tasks(spec: dict, kind: str) -> list[tuple]:
    """Every task of the figure, heaviest first (a cut-short run has the cheap ones
    missing, not the costly)."""
    if kind == "halving":
        out = [(SEED, spec["budget"], k, rep, spec["ucb_c"])
               for k in spec["arms"] for rep in range(spec["reps"])]
        return sorted(out, key=lambda t: -t[2])
    return sorted(((SEED, d, norm, run, spec["arms"], spec["steps"], spec["alpha"],
                    spec["kappa"], spec["ucb_c"])
                   for d in spec["dims"] for norm in spec["norms"]
                   for run in range(spec["runs"])), key=lambda t: -t[1])


def key(kind: str, task: tuple) -> str:
    if kind == "halving":
        return f"T{task[1]}/K{task[2]}/{task[3]}"
    return f"d{task[1]}/s{task[2]:g}/{task[3]}"


def run_task(kind: str, task: tuple) -> dict:
    """One task's row (without the stamp the caller adds)."""
    warm_up()
    if kind == "halving":
        seed, budget, k, rep, c = task
        probs = arm_probs(k)
        sh = halving_hits(probs, budget, 1, make_rng(task_seed(seed, 1, budget, k, rep, 0)))
        ucb = ucb1_hits(probs, budget, c, 1, make_rng(task_seed(seed, 1, budget, k, rep, 1)))
        return {"key": key(kind, task), "budget": budget, "arms": k, "rep": rep,
                "sh": int(sh), "ucb": int(ucb)}
    d, norm, run, curves = regret_task(*task)
    steps = curves.shape[1]
    at = marks(steps)
    avg = curves[:, at] / (at + 1)
    return {"key": key(kind, task), "d": d, "norm": norm, "run": run,
            "t": (at + 1).tolist(),
            **{name: [float(f"{v:.5g}") for v in avg[i]]
               for i, name in enumerate(REGRET_ALGORITHMS)}}

