"""``nakade mdp sweep``: continuous-MDP experiments, the mean return of each search method
against playouts per decision and against milliseconds per decision, with 95 % intervals
(docs/mdp.md).

    nakade mdp sweep --problem trap --param R=0.01 \\
        --methods pw,dpw,wuct,tree --budgets 1,10,100 --ms 1,10 --runs 200 --json

* ``--problem trap|treasure`` and ``--param KEY=VALUE`` (repeatable or comma-separated:
  Trap R, T; Treasure Hunt D, G, H, A, eps, R_treasure, R_hole, R_time, T, K).
* ``--methods`` any of uct,pw,dpw,wuct,tree (all by default); ``--budgets`` playouts per
  decision, ``--ms`` milliseconds per decision (with neither, the thesis's 1..10,000
  playouts and 1..1,000 ms; with one of them, only that one); ``--runs`` episodes each.
* Results go to ``--out`` (default runs/mdp/<problem>-<setting>-<hash>/results.jsonl), one
  row per chunk of runs as it finishes; the same command again resumes, and a larger
  ``--runs`` adds runs.  ``--workers N`` processes (default: all cores), or ``--dask
  ADDRESS`` for a Dask scheduler.
* Prints a table, or with ``--json`` one object per line: problem, params, method, budget
  or ms, runs, mean, ci95 ([low, high]), playouts_per_decision, ms_per_decision, and for
  Trap optimum (the exact optimum, ``engine.mdp.optimum``).  ``--plot FILE.png`` draws
  the curves.
"""

import argparse
import json
import os
import sys

from .methods import METHODS
from .problems import PROBLEMS, make_problem, parse_params
from .sweep import default_out_dir, plan, run_sweep, summarise

THESIS_BUDGETS = (1, 10, 100, 1000, 10000)
THESIS_MS = (1, 10, 100, 1000)


def _ints(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected integers like 1,10,100")
    if any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: amounts must be positive")
    return values


def _methods(text: str) -> list[str]:
    names = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in names if m not in METHODS]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown method(s) {', '.join(bad) or '(none)'}; choose from {','.join(METHODS)}")
    return names


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="nakade mdp sweep",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--problem", choices=sorted(PROBLEMS), default="trap")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--methods", type=_methods, default=list(METHODS))
    ap.add_argument("--budgets", type=_ints, default=None, metavar="N,...")
    ap.add_argument("--ms", type=_ints, default=None, metavar="MS,...")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--chunk", type=int, default=0,
                    help="runs per job (default: runs / 20, at least 1, at most 100)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--dask", default=None, metavar="ADDRESS")
    ap.add_argument("--out", default=None, metavar="DIR")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--plot", default=None, metavar="FILE.png")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.budgets is None and args.ms is None:
        args.budgets, args.ms = list(THESIS_BUDGETS), list(THESIS_MS)
    args.budgets, args.ms = args.budgets or [], args.ms or []
    try:
        args.problem_obj = make_problem(args.problem, parse_params(args.param))
    except ValueError as exc:
        ap.error(str(exc))
    return args


def records(problem, summary, optimum):
    order = {m: i for i, m in enumerate(METHODS)}
    for s in sorted(summary, key=lambda s: (order[s["method"]], s["kind"], s["amount"])):
        rec = {"problem": problem.name, "params": problem.params, "method": s["method"],
               s["kind"]: s["amount"], "runs": s["runs"], "mean": s["mean"],
               "ci95": s["ci95"], "playouts_per_decision": s["playouts_per_decision"],
               "ms_per_decision": s["ms_per_decision"]}
        if optimum is not None:
            rec["optimum"] = optimum
        yield rec


def table(recs) -> str:
    lines = [f"{'method':<6} {'budget':>10} {'runs':>6} {'mean':>8} {'95% interval':>19} "
             f"{'playouts/dec':>12} {'ms/dec':>9}"]
    for r in recs:
        amount = f"{r['budget']} po" if "budget" in r else f"{r['ms']} ms"
        lo, hi = r["ci95"]
        lines.append(f"{r['method']:<6} {amount:>10} {r['runs']:>6} {r['mean']:>8.4f} "
                     f"[{lo:>8.4f}, {hi:>8.4f}] {r['playouts_per_decision']:>12.1f} "
                     f"{r['ms_per_decision']:>9.3f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    problem = args.problem_obj
    chunk = args.chunk or max(1, min(100, args.runs // 20))
    jobs = plan(args.methods, args.budgets, args.ms, args.runs, chunk)
    out = args.out or default_out_dir(problem, args.seed)
    rows, failures = run_sweep(problem, jobs, out, seed=args.seed, workers=args.workers,
                               dask=args.dask, progress=not args.no_progress)
    optimum = None
    if problem.name == "trap":
        from .optimum import trap_optimum
        optimum = trap_optimum(problem.R, problem.T, problem.n_actions)[0]
    recs = list(records(problem, summarise(rows), optimum))
    if args.json:
        for r in recs:
            print(json.dumps(r))
    else:
        print(f"{problem.name} {problem.params}  results: {out}")
        if optimum is not None:
            print(f"exact optimum (dynamic programming): {optimum:.4f}")
        print(table(recs))
    if args.plot:
        from .plot import plot_curves
        plot_curves(recs, args.plot, optimum=optimum)
    if failures:
        print(f"{len(failures)} job(s) failed; run the command again to retry them",
              file=sys.stderr)
        return 1
    return 0
