"""Print what LinUCT's linear model believes on a few 9x9 positions
(``engine/search/linuct_diagnostics.py``; what the columns mean: docs/algorithms.md
section 9):

    python scripts/research/linuct_diagnostics.py                          # linuct-rave, 1,000 playouts
    python scripts/research/linuct_diagnostics.py --algo linuct-plain --playouts 4000 --top 8
    python scripts/research/linuct_diagnostics.py --set playout=heavy --set prior=1 --exact
    python scripts/research/linuct_diagnostics.py --exact --set features=mover   # the mover encoding
    python scripts/research/linuct_diagnostics.py --exact --set features=mover --set width=count

For each position: the model over the search (theta's norm, the mean squared prediction
error over the observations the reservoir holds beside the best constant's, the mean of
fLinUCB-GD's diagonal D), then the root's children, most visited first, with the terms the
tree policy adds up, and the spread of the mean and the width over all of them.
``--exact`` also replays the search's observations into exact LinUCB and into the paper's
per-arm phi_a, and prints the means and widths for each child (it keeps every observation:
use small budgets, a few thousand playouts).
"""

import argparse
import sys

import numpy as np

from engine.game.coords import to_gtp
from engine.search import linuct_diagnostics as ld
from engine.search import registry
from engine.search.probes import positions

def _f(x, digits=3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def show(searcher, state, checkpoints: list[int], top: int, exact: bool):
    print("| playouts | observations | t | |theta| | MSE | best constant | MSE ratio "
          "| mean D |\n|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, v in ld.trace(searcher, state, checkpoints):
        ratio = None if v.mse is None or not v.baseline else v.mse / v.baseline
        print(f"| {n} | {v.observations} | {v.t} | {_f(v.theta_norm)} | {_f(v.mse, 4)} "
              f"| {_f(v.baseline, 4)} | {_f(ratio)} | {_f(v.diag_mean, 4)} |")
    size = state.size
    print("\n| move | visits | prior n | mean | x^T theta | width | UCB1 | beta | value |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    views = ld.root_view(searcher, state)
    for v in views[:top]:
        print(f"| {to_gtp(v.move, size)} | {v.visits} | {v.prior_n} | {_f(v.mean)} | "
              f"{_f(v.xtheta)} | {_f(v.width)} | {_f(v.ucb1)} | {_f(v.beta)} | "
              f"{_f(v.value)} |")
    means = np.array([v.xtheta for v in views])
    widths = np.array([v.width for v in views])
    print(f"\nOver all {len(views)} root children: x^T theta from {means.min():.3f} to "
          f"{means.max():.3f} (sd {means.std():.3f}), width from {widths.min():.3f} to "
          f"{widths.max():.3f} (sd {widths.std():.3f}).")
    if exact:
        view = ld.model_view(searcher)
        print(f"\nOn the same {view.observations} observations: exact LinUCB's MSE (in sample) "
              f"{ld.replay_mse(searcher, ld.exact_replay(searcher)):.4f}, fLinUCB-GD's "
              f"{_f(view.mse, 4)}, the best constant's {_f(view.baseline, 4)}.")
        print("\n| move | fLinUCB-GD x^T theta | exact x^T theta | fLinUCB-GD width | "
              "exact width | per-arm phi width |\n|---|---:|---:|---:|---:|---:|")
        for t in ld.compare_with_exact(searcher, state)[:top]:
            print(f"| {to_gtp(t.move, size)} | {_f(t.gd_xtheta)} | {_f(t.exact_xtheta)} | "
                  f"{_f(t.gd_width)} | {_f(t.exact_width)} | {_f(t.phi_width)} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--algo", default="linuct-rave", help="a LinUCT spec")
    ap.add_argument("--playouts", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--top", type=int, default=10, help="root children to print")
    ap.add_argument("--exact", action="store_true", help="compare with exact LinUCB")
    ap.add_argument("--only", nargs="+", help="positions by name")
    args = ap.parse_args(argv)
    options = dict(kv.split("=", 1) for kv in args.set)
    if args.exact:
        options.setdefault("reservoir", "1000000")   # keep every observation for the replay
    checkpoints = sorted({max(1, args.playouts // 10), max(1, args.playouts // 3),
                          args.playouts})
    for name, (state, note) in positions().items():
        if args.only and name not in args.only:
            continue
        searcher = registry.make(args.algo, seed=args.seed, options=options)
        if searcher.name != "linuct":
            raise SystemExit(f"{args.algo} is not a LinUCT back end")
        print(f"\n## {name} ({note}): {args.algo} {options or ''}, {args.playouts} playouts\n")
        show(searcher, state, checkpoints, args.top, args.exact)
    return 0


if __name__ == "__main__":
    sys.exit(main())
