"""The two published bandit experiments (defined in ``engine.bandits.experiments``), run
in a process pool, written as CSV and plotted.

1. ``halving``: Sequential Halving against UCB1 (constant ``--ucb-c``) at naming the best
   of K = 2, 4, ..., 1024 Bernoulli arms, pull budgets T ``--budgets`` (default 20,000,
   the SHOT paper's), each (T, K) repeated ``--reps`` times.
   Output: results/bandits/halving.csv and halving.png.
2. ``regret``: average pseudo-regret of exact LinUCB, fLinUCB-GD and UCB1 on 25 arms with
   feature dimension d = 10, 100, 1000 and feature norms ``--norms``, averaged over
   ``--runs`` random problems.  Output: results/bandits/regret.csv and regret.png.

Every random choice flows from ``--seed``, so results do not depend on the number of
workers.  The compiled kernels are warmed (and the numba cache filled) before the pool
starts.

    python scripts/bandit_experiments.py              # the full run (docs/bandit-results.md)
    python scripts/bandit_experiments.py --quick      # smaller and noisier
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

from tqdm import tqdm

from engine.bandits.experiment_plots import plot_halving, plot_regret
from engine.bandits.experiments import (halving_rows, halving_task, halving_tasks,
                                        regret_rows, regret_task, regret_tasks, warm_up)

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "results", "bandits")


def run_pool(fn, tasks, workers, desc):
    """Run ``fn(*task)`` for every task (heaviest first, as given) with a progress bar."""
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(fn, *t) for t in tasks]
        for f in tqdm(as_completed(futures), total=len(futures), desc=desc, unit="task",
                      file=sys.stderr):
            results.append(f.result())
    return results


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def experiment_halving(args, out_dir):
    tasks = halving_tasks(args.seed, args.budgets, args.arms, args.reps, args.chunk,
                          args.ucb_c)
    rows = halving_rows(run_pool(halving_task, tasks, args.workers, "halving"))
    write_csv(os.path.join(out_dir, "halving.csv"), rows)
    plot_halving(rows, args.budgets, args.arms, args.reps, args.ucb_c,
                 os.path.join(out_dir, "halving.png"))
    return rows


def experiment_regret(args, out_dir):
    tasks = regret_tasks(args.seed, args.dims, args.norms, args.runs, args.k_linear,
                         args.steps, args.alpha, args.kappa, args.ucb_c)
    rows, summary, curves = regret_rows(run_pool(regret_task, tasks, args.workers, "regret"))
    write_csv(os.path.join(out_dir, "regret.csv"), rows)
    plot_regret(curves, args.dims, args.norms, args.runs, (args.alpha, args.kappa, args.ucb_c),
                os.path.join(out_dir, "regret.png"))
    return summary


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
        args.budgets = [20000]   # the SHOT paper's budget (docs/published-tables.md)
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
