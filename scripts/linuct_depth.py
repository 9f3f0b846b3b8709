"""How deep a search's tree goes and how much of the root it spends on one move, for
LinUCT_PLAIN and UCT at two budgets (docs/published-tables.md, table 5's LinUCT_PLAIN
cells: the paper's reading of why PLAIN plays worse with more playouts is that it
concentrates on deep lines):

    python scripts/linuct_depth.py                               # 2,000 and 8,000 playouts
    python scripts/linuct_depth.py --budgets 500 1000 --seeds 2 --algos linuct-plain

On the positions of ``scripts/linuct_diagnostics.py`` (empty board, opening, capturing
race), one search per (back end, budget, seed), each from a fresh searcher with the
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
from engine.search.tree import FIRST, NCHILD, VISITS
from linuct_diagnostics import positions


def tree_shape(pool) -> tuple[int, float, float]:
    """(most visited line's length, visit-weighted mean depth below the root, the most
    visited root child's share of the root's children's visits)."""
    ti = pool.ti
    line, node = 0, 0
    while ti[NCHILD, node] > 0:
        kids = np.arange(ti[FIRST, node], ti[FIRST, node] + ti[NCHILD, node])
        visits = ti[VISITS, kids]
        if visits.max() == 0:
            break
        node = int(kids[np.argmax(visits)])
        line += 1
    weighted, total, stack = 0.0, 0, [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 0:
            weighted += depth * ti[VISITS, node]
            total += ti[VISITS, node]
        first, n = ti[FIRST, node], ti[NCHILD, node]
        stack.extend((int(c), depth + 1) for c in range(first, first + max(n, 0))
                     if ti[VISITS, c] > 0)
    root = ti[VISITS, ti[FIRST, 0]:ti[FIRST, 0] + ti[NCHILD, 0]]
    share = float(root.max() / max(root.sum(), 1))
    return line, weighted / max(total, 1), share


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
                    shapes.append(tree_shape(getattr(searcher, "inner", searcher).pool))
                line, depth, share = np.mean(shapes, axis=0)
                print(f"| {name} | {algo} | {budget:,} | {line:.1f} | {depth:.2f} | "
                      f"{share:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
