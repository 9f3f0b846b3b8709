"""What the Gobang alpha-beta spends to reach a fixed depth: the nodes (one thread, a fresh
transposition table a position) over the first positions of the move-quality set, and the
move chosen in each, so that two versions of the search (or two option sets) compare on
work and on moves with no clock involved.

    python scripts/research/gomoku_search_cost.py --depth 5 --n 40
    python scripts/research/gomoku_search_cost.py --depth 5 --n 40 --set vct_depth=0

Prints the total nodes and the seconds, then the moves; ``--compare FILE`` (an earlier
run's output: its last line is the moves) adds how many moves agree.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.search.base import Budget  # noqa: E402
from gomoku_move_quality import our_moves  # noqa: E402   (this script's folder)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", default="results/gomoku/move-quality/positions.json")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--n", type=int, default=40, help="the first N positions")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an option of the ab back end (repeatable)")
    ap.add_argument("--compare", help="a file whose last line is an earlier run's moves")
    args = ap.parse_args(argv)
    data = json.loads(Path(args.positions).read_text())
    options = {"depth": str(args.depth), "threads": "1",
               **dict(kv.split("=", 1) for kv in args.set)}
    t0 = time.perf_counter()
    moves, nodes = our_moves(options, Budget(playouts=10**12), data["positions"][:args.n],
                             data["size"])
    print(f"depth {args.depth}, {len(moves)} positions, {options}: {nodes:,} nodes in "
          f"{time.perf_counter() - t0:.1f} s")
    if args.compare:
        lines = [line for line in Path(args.compare).read_text().splitlines() if line.strip()]
        before = lines[-1].split()
        same = sum(a == b for a, b in zip(before, moves))
        print(f"moves as in {args.compare}: {same} of {len(moves)}")
    print(" ".join(moves))


if __name__ == "__main__":
    main()
