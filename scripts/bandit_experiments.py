"""The two published bandit experiments, on the kernels of ``engine.bandits``.

1. ``halving`` (SHOT paper, sec. 3.1): Sequential Halving against UCB1 at naming the best
   of K Bernoulli arms, K = 2, 4, ..., 1024, arm j (1-based) paying with probability
   0.1 + 0.8 (j-1)/(K-1), a fixed pull budget T (``--budgets``, default 1,000, 3,000 and
   10,000), each (T, K) repeated ``--reps`` times.
   UCB1 (constant ``--ucb-c``) recommends its most pulled arm; Sequential Halving its last
   survivor.  Output: results/bandits/halving.csv and halving.png.
2. ``regret`` (LinUCT paper, fig. 1): average pseudo-regret R_t / t = mu* - (1/t) sum
   mu_{a_s} of exact LinUCB, fLinUCB-GD and UCB1 on 25 arms with feature dimension d = 10,
   100, 1000, averaged over ``--runs`` random problems.  A problem: arm features x_a =
   (1, s z_a) with z_a uniform on the unit sphere of R^(d-1) and s the feature norm
   (``--norms``); theta* = (0.5, (c/s) w) with w uniform on that sphere and
   c = 0.4 / max_a |z_a . w|, so every mean mu_a = x_a . theta* lies in [0.1, 0.9] (the
   extreme arm on the boundary) whatever d and s; rewards are Bernoulli (mu_a).  Each norm
   sees the same problems (means and random streams); only the features' scale differs,
   which matters to fLinUCB-GD, whose step size 1/(100+t) is not scale-free.
   Output: results/bandits/regret.csv and regret.png.

Every random choice flows from ``--seed``: a task's seed is derived from (seed, experiment,
its parameters, its index), so results do not depend on the number of workers.  Tasks run
in a process pool; the compiled kernels are warmed (and the numba cache filled) before the
pool starts.

    python scripts/bandit_experiments.py              # the full run: ~930 s of CPU, 8 min
                                                      # on 2 free cores
    python scripts/bandit_experiments.py --quick      # ~1 minute, smaller and noisier
    python scripts/bandit_experiments.py --only regret --workers 4

Needs matplotlib (the ``experiments`` extra) and tqdm.
"""

import argparse
import csv
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np
from numba import njit
from tqdm import tqdm

from engine.bandits.flinucb import GD_N, flinucb_init, flinucb_scores, flinucb_update
from engine.bandits.halving import SH_N, sh_done, sh_init, sh_next, sh_recommend, sh_tell
from engine.bandits.linucb import (init_quads, linucb_init, linucb_scores_cached,
                                   linucb_update, refresh_quads)
from engine.bandits.ucb import argmax_random_tie, ucb1_recommend, ucb1_select
from engine.core.rng import make_rng, next_u64

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "results", "bandits")

_TO_UNIT = 1.0 / 9007199254740992.0
_S11 = np.uint64(11)


@njit(cache=True, nogil=True, inline='always')
def _bernoulli(rng, p):
    return 1.0 if np.float64(next_u64(rng) >> _S11) * _TO_UNIT < p else 0.0


# ---- experiment 1: best-arm identification ------------------------------------------


@njit(cache=True, nogil=True)
def halving_hits(probs, budget, trials, rng):
    """How many of ``trials`` Sequential Halving runs name the last arm (the best)."""
    k = probs.shape[0]
    alive = np.empty(k, dtype=np.int64)
    sh = np.empty(SH_N, dtype=np.int64)
    counts = np.empty(k, dtype=np.int64)
    sums = np.empty(k)
    hits = 0
    for _ in range(trials):
        sh_init(alive, sh, counts, sums, budget, rng)
        while not sh_done(sh):
            a = sh_next(alive, sh)
            sh_tell(alive, sh, counts, sums, a, _bernoulli(rng, probs[a]), rng)
        if sh_recommend(alive, sh, counts, sums, rng) == k - 1:
            hits += 1
    return hits


@njit(cache=True, nogil=True)
def ucb1_hits(probs, budget, c, trials, rng):
    """How many of ``trials`` UCB1 runs of ``budget`` pulls recommend the best arm."""
    k = probs.shape[0]
    counts = np.empty(k, dtype=np.int64)
    sums = np.empty(k)
    scratch = np.empty(k)
    hits = 0
    for _ in range(trials):
        counts[:] = 0
        sums[:] = 0.0
        for _ in range(budget):
            a = ucb1_select(counts, sums, c, rng, scratch)
            counts[a] += 1
            sums[a] += _bernoulli(rng, probs[a])
        if ucb1_recommend(counts, sums, rng, scratch) == k - 1:
            hits += 1
    return hits


def arm_probs(k: int) -> np.ndarray:
    return 0.1 + 0.8 * np.arange(k) / (k - 1)


def task_seed(*parts: int) -> int:
    return int(np.random.SeedSequence(list(parts)).generate_state(1, dtype=np.uint64)[0])


def halving_task(seed, budget, k, chunk, trials, c):
    probs = arm_probs(k)
    sh = halving_hits(probs, budget, trials, make_rng(task_seed(seed, 1, budget, k, chunk, 0)))
    ucb = ucb1_hits(probs, budget, c, trials, make_rng(task_seed(seed, 1, budget, k, chunk, 1)))
    return budget, k, sh, ucb, trials


# ---- experiment 2: regret of LinUCB, fLinUCB-GD and UCB1 -----------------------------


def make_problem(seed: int, d: int, run: int, k: int, norm: float):
    """Arm features X [k, d] and means mu [k] = X theta*, as in the module docstring."""
    rng = np.random.default_rng([seed, 2, d, run])
    z = rng.normal(size=(k, d - 1))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    w = rng.normal(size=d - 1)
    w /= np.linalg.norm(w)
    c = 0.4 / np.abs(z @ w).max()
    x = np.hstack([np.ones((k, 1)), norm * z])
    theta_star = np.concatenate([[0.5], (c / norm) * w])
    return np.ascontiguousarray(x), x @ theta_star


@njit(cache=True, nogil=True)
def run_linucb(X, mu, steps, alpha, rng):
    """Cumulative pseudo-regret of exact LinUCB after each step."""
    k, d = X.shape
    ainv, theta, u, x = np.empty((d, d)), np.empty(d), np.empty(d), np.empty(d)
    linucb_init(ainv, theta)
    q, scores = np.empty(k), np.empty(k)
    init_quads(X, ainv, q)
    best = mu.max()
    regret = np.empty(steps)
    total = 0.0
    for t in range(steps):
        linucb_scores_cached(X, theta, q, alpha, scores)
        a = argmax_random_tie(scores, k, rng)
        for j in range(d):
            x[j] = X[a, j]
        denom = linucb_update(ainv, theta, x, _bernoulli(rng, mu[a]), u)
        refresh_quads(X, q, u, denom)
        total += best - mu[a]
        regret[t] = total
    return regret


@njit(cache=True, nogil=True)
def run_flinucb(X, mu, steps, kappa, rng):
    """Cumulative pseudo-regret of fLinUCB-GD; its reservoir holds every past pull."""
    k, d = X.shape
    theta, phi, gd = np.empty(d), np.empty((k, d)), np.empty(GD_N)
    flinucb_init(theta, phi, gd)
    mem_row, mem_y = np.empty(steps, dtype=np.int64), np.empty(steps)
    scores = np.empty(k)
    best = mu.max()
    regret = np.empty(steps)
    total = 0.0
    for t in range(steps):
        flinucb_scores(X, theta, phi, kappa, scores)
        a = argmax_random_tie(scores, k, rng)
        flinucb_update(X, X, theta, phi, gd, mem_row, mem_y, a, _bernoulli(rng, mu[a]), rng)
        total += best - mu[a]
        regret[t] = total
    return regret


@njit(cache=True, nogil=True)
def run_ucb1(mu, steps, c, rng):
    """Cumulative pseudo-regret of UCB1 (features ignored)."""
    k = mu.shape[0]
    counts, sums, scratch = np.zeros(k, dtype=np.int64), np.zeros(k), np.empty(k)
    best = mu.max()
    regret = np.empty(steps)
    total = 0.0
    for t in range(steps):
        a = ucb1_select(counts, sums, c, rng, scratch)
        counts[a] += 1
        sums[a] += _bernoulli(rng, mu[a])
        total += best - mu[a]
        regret[t] = total
    return regret


REGRET_ALGORITHMS = ("LinUCB", "fLinUCB-GD", "UCB1")


def regret_task(seed, d, norm, run, arms, steps, alpha, kappa, c):
    x, mu = make_problem(seed, d, run, arms, norm)
    curves = (run_linucb(x, mu, steps, alpha, make_rng(task_seed(seed, 2, d, run, 0))),
              run_flinucb(x, mu, steps, kappa, make_rng(task_seed(seed, 2, d, run, 1))),
              run_ucb1(mu, steps, c, make_rng(task_seed(seed, 2, d, run, 2))))
    return d, norm, run, np.stack(curves)


# ---- running, saving, plotting -------------------------------------------------------


def warm_up():
    """Compile (or load from the numba cache) every kernel once, before the pool forks."""
    rng = make_rng(0)
    halving_hits(arm_probs(4), 16, 1, rng)
    ucb1_hits(arm_probs(4), 16, 1.0, 1, rng)
    x, mu = make_problem(0, 3, 0, 4, 1.0)
    run_linucb(x, mu, 4, 1.0, rng)
    run_flinucb(x, mu, 4, 1.0, rng)
    run_ucb1(mu, 4, 1.0, rng)


def run_pool(fn, tasks, workers, desc):
    """Run ``fn(*task)`` for every task (heaviest first, as given) with a progress bar."""
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(fn, *t) for t in tasks]
        for f in tqdm(as_completed(futures), total=len(futures), desc=desc, unit="task",
                      file=sys.stderr):
            results.append(f.result())
    return results


def experiment_halving(args, out_dir):
    tasks = []
    for budget in args.budgets:
        for k in args.arms:
            for chunk in range(0, args.reps, args.chunk):
                tasks.append((args.seed, budget, k, chunk, min(args.chunk, args.reps - chunk),
                              args.ucb_c))
    tasks.sort(key=lambda t: -t[1] * t[2])
    hits = {}
    for budget, k, sh, ucb, trials in run_pool(halving_task, tasks, args.workers, "halving"):
        h = hits.setdefault((budget, k), [0, 0, 0])
        h[0] += sh
        h[1] += ucb
        h[2] += trials
    rows = []
    for (budget, k), (sh, ucb, trials) in sorted(hits.items()):
        for name, n in (("SequentialHalving", sh), ("UCB1", ucb)):
            rate = n / trials
            rows.append({"budget": budget, "arms": k, "algorithm": name, "best_found": n,
                         "reps": trials, "rate": round(rate, 4),
                         "se": round(math.sqrt(rate * (1 - rate) / trials), 4)})
    write_csv(os.path.join(out_dir, "halving.csv"), rows)
    plot_halving(rows, args, os.path.join(out_dir, "halving.png"))
    return rows


def experiment_regret(args, out_dir):
    tasks = [(args.seed, d, norm, run, args.k_linear, args.steps[d], args.alpha, args.kappa,
              args.ucb_c) for d in args.dims for norm in args.norms for run in range(args.runs)]
    tasks.sort(key=lambda t: -t[1] * t[1] * t[5])
    curves = {(d, norm): [] for d in args.dims for norm in args.norms}
    for d, norm, run, c in run_pool(regret_task, tasks, args.workers, "regret"):
        curves[(d, norm)].append((run, c))
    rows, summary = [], {}
    for key in sorted(curves):
        d, norm = key
        stack = np.stack([c for _, c in sorted(curves[key], key=lambda rc: rc[0])])
        steps = stack.shape[2]
        t = np.arange(1, steps + 1)
        avg = stack / t                     # [runs, algorithm, step]: R_t / t
        mean, se = avg.mean(axis=0), avg.std(axis=0, ddof=1) / math.sqrt(avg.shape[0])
        marks = np.unique(np.geomspace(1, steps, 120).astype(int)) - 1
        for i, name in enumerate(REGRET_ALGORITHMS):
            for j in marks:
                rows.append({"d": d, "norm": norm, "t": int(j + 1), "algorithm": name,
                             "avg_regret": round(float(mean[i, j]), 6),
                             "se": round(float(se[i, j]), 6)})
            summary[(d, norm, name)] = (float(mean[i, -1]), float(se[i, -1]))
        curves[key] = (mean, se)
    write_csv(os.path.join(out_dir, "regret.csv"), rows)
    plot_regret(curves, args, os.path.join(out_dir, "regret.png"))
    return summary


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot_halving(rows, args, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    styles = ["-", "--", ":", "-."]
    colours = {"SequentialHalving": "tab:blue", "UCB1": "tab:red"}
    for bi, budget in enumerate(args.budgets):
        for name, colour in colours.items():
            pts = [r for r in rows if r["budget"] == budget and r["algorithm"] == name]
            ks = [r["arms"] for r in pts]
            rate = np.array([r["rate"] for r in pts])
            se = np.array([r["se"] for r in pts])
            ax.errorbar(ks, 100 * rate, yerr=196 * se, color=colour,
                        linestyle=styles[bi % len(styles)], marker="o", markersize=3,
                        capsize=2, label=f"{name}, T = {budget:,}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(args.arms)
    ax.set_xticklabels([str(k) for k in args.arms])
    ax.axvline(128, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("number of arms K")
    ax.set_ylabel("best arm identified (%)")
    ax.set_ylim(0, 101)
    ax.set_title(f"Sequential Halving vs UCB1 (c = {args.ucb_c:g}), {args.reps:,} runs each, "
                 "95% CI")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_regret(curves, args, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(args.norms), len(args.dims), sharey=True, squeeze=False,
                             figsize=(4.2 * len(args.dims), 3.6 * len(args.norms) + 0.6))
    colours = {"LinUCB": "tab:blue", "fLinUCB-GD": "tab:green", "UCB1": "tab:red"}
    for row, norm in zip(axes, args.norms):
        for ax, d in zip(row, args.dims):
            mean, se = curves[(d, norm)]
            t = np.arange(1, mean.shape[1] + 1)
            for i, name in enumerate(REGRET_ALGORITHMS):
                ax.plot(t, mean[i], color=colours[name], label=name)
                ax.fill_between(t, mean[i] - 1.96 * se[i], mean[i] + 1.96 * se[i],
                                color=colours[name], alpha=0.2, linewidth=0)
            ax.set_xscale("log")
            ax.set_title(f"d = {d}, |z_a| = {norm:g}, {args.runs} runs", fontsize=10)
            ax.grid(alpha=0.3)
        row[0].set_ylabel("average regret R_t / t")
    for ax in axes[-1]:
        ax.set_xlabel("step t")
    axes[0][0].legend()
    fig.suptitle(f"LinUCB (alpha = {args.alpha:g}), fLinUCB-GD (kappa = {args.kappa:g}), "
                 f"UCB1 (c = {args.ucb_c:g}); shaded: 95% CI of the mean")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="about a minute: fewer runs, shorter")
    p.add_argument("--only", choices=("halving", "regret"), help="run one experiment")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=2015)
    p.add_argument("--out", default=OUT_DIR, help="directory for the CSV and PNG files")
    p.add_argument("--ucb-c", type=float, default=math.sqrt(2), help="UCB1 constant")
    p.add_argument("--alpha", type=float, default=1.0, help="LinUCB width factor")
    p.add_argument("--kappa", type=float, default=1.0, help="fLinUCB-GD width factor")
    p.add_argument("--budgets", type=int, nargs="+", help="pull budgets T of experiment 1")
    p.add_argument("--reps", type=int, help="repetitions per (T, K) of experiment 1")
    p.add_argument("--runs", type=int, help="random problems per d of experiment 2")
    p.add_argument("--horizon", type=int, nargs=3, metavar=("T10", "T100", "T1000"),
                   help="steps of experiment 2 for d = 10, 100, 1000")
    p.add_argument("--norms", type=float, nargs="+", default=[1.0, 10.0],
                   help="feature norms s of experiment 2 (x_a = (1, s z_a))")
    args = p.parse_args(argv)
    args.arms = [2 ** i for i in range(1, 11)]
    args.dims = [10, 100, 1000]
    args.k_linear = 25
    args.chunk = 50 if args.quick else 100
    if args.budgets is None:
        args.budgets = [1000, 3000, 10000]
    if args.reps is None:
        args.reps = 100 if args.quick else 1000
    if args.runs is None:
        args.runs = 10 if args.quick else 100
    horizon = args.horizon or ([1000, 1000, 1000] if args.quick else [10000, 10000, 10000])
    args.steps = dict(zip(args.dims, horizon))
    return args


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    t0 = time.perf_counter()
    warm_up()
    print(f"kernels ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if args.only in (None, "halving"):
        t1 = time.perf_counter()
        rows = experiment_halving(args, args.out)
        print(f"\nexperiment 1 ({time.perf_counter() - t1:.0f} s): best arm found, % of "
              f"{args.reps} runs (UCB1 c = {args.ucb_c:g})")
        for budget in args.budgets:
            print(f"  T = {budget}")
            print("    K     " + " ".join(f"{k:>6d}" for k in args.arms))
            for name in ("SequentialHalving", "UCB1"):
                rates = [r["rate"] for r in rows if r["budget"] == budget
                         and r["algorithm"] == name]
                print(f"    {name[:8]:8s} " + " ".join(f"{100 * x:6.1f}" for x in rates))
    if args.only in (None, "regret"):
        t1 = time.perf_counter()
        summary = experiment_regret(args, args.out)
        print(f"\nexperiment 2 ({time.perf_counter() - t1:.0f} s): average regret R_t/t at the "
              f"last step, mean +- s.e. over {args.runs} problems")
        for norm in args.norms:
            for d in args.dims:
                cells = [f"{name} {m:.4f}+-{s:.4f}" for (dd, nn, name), (m, s)
                         in summary.items() if (dd, nn) == (d, norm)]
                print(f"  |z| = {norm:g}, d = {d:4d} (t = {args.steps[d]}): "
                      + ", ".join(cells))
    print(f"\ntotal {time.perf_counter() - t0:.0f} s; results in {args.out}")


if __name__ == "__main__":
    main()
