"""How deep a search's tree goes and how much of the root it spends on one move, for
LinUCT_PLAIN and UCT at two budgets (docs/published-tables.md, LinUCT tables 3-4's LinUCT_PLAIN
cells: the paper's reading of why PLAIN plays worse with more playouts is that it
concentrates on deep lines):

    python scripts/research/linuct_depth.py                               # 2,000 and 8,000 playouts
    python scripts/research/linuct_depth.py --budgets 500 1000 --seeds 2 --algos linuct-plain

On the positions of ``engine.search.probes`` (empty board, opening, capturing race), one search per (back end, budget, seed), each from a fresh searcher with the
registry's defaults: the length of the most visited line from the root (followed while a
node has visited children), the visit-weighted mean depth of the tree's nodes (the depth
a playout leaves the tree at, on average), and the most visited root move's share of the
root's visits.  The table gives the mean over the seeds of each.
"""

import argparse
import sys

import numpy as np

from engine.search import registry
from engine.search.base import Budget
from engine.search.probes import positions, tree_shape


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algos", nargs="+", default=["linuct-plain", "uct"])
    parser.add_argument("--budgets", nargs="+", type=int, default=[2000, 8000])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    print("| position | back end | playouts | most visited line | mean depth | top root share |")
    print("|---|---|---:|---:|---:|---:|")
    for name, (state, _) in positions().items():
        for algo in args.algos:
            for budget in args.budgets:
                shapes = []
                for seed in range(1, args.seeds + 1):
                    searcher = registry.make(algo, seed=seed,
                                             options={"resign_threshold": "0"})
                    searcher.search(state, Budget(playouts=budget))
                    shapes.append(tree_shape(searcher.pool))
                line, depth, share = np.mean(shapes, axis=0)
                print(f"| {name} | {algo} | {budget:,} | {line:.1f} | {depth:.2f} | "
                      f"{share:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
