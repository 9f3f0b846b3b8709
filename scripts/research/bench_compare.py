"""Side-by-side search speed of two checkouts (a refactor's before and after): each
(case, back end) is measured in a fresh process per checkout, with that checkout on the
PYTHONPATH, old and new alternating (the order swapped every round), so that the load of a
shared machine falls on both alike.  Time is CPU time of the process (``time.process_time``),
not wall time, and a row's figure is the minimum over rounds and seeds, the run least
disturbed by other processes.  Every run also reports its move, win rate, node count and a
hash of the node pool, so the table says whether the two checkouts searched alike ("same":
every seed's move, win rate and node count; "same pool": the pool's bytes as well, which
only checkouts with one pool layout can share).

    python scripts/research/bench_compare.py --old ../old-aa2d922 --cases go:9,gobang:10 \\
        --algos uct,linuct-rave,linuct-plain --rounds 3 --runs 3

A worker only uses what both checkouts offer: ``GameConfig(game, size).new_state()``,
``engine.search.registry.make(spec, seed=...)`` and ``searcher.search(state, Budget(...))``.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# playouts per run relative to go:9 (as ``bench_search.py``'s budgets)
BUDGET_SCALE = {("go", 9): 1.0, ("go", 19): 0.25, ("gobang", 10): 4.0, ("gobang", 20): 1.5}
DEFAULT_ALGOS = "uct,shot,linuct-rave,linuct-plain,uct:playout=heavy:prior=1:rave=1:c=0"


def pool_hash(searcher) -> str:
    """A digest of the searcher's node pool (and LinUCT's delta pool), '' if it has none."""
    pool = getattr(searcher, "pool", None)
    if pool is None or not hasattr(pool, "ti"):
        return ""
    h = hashlib.sha1()
    for name in ("ti", "tf", "tmeta", "dpool", "dmeta"):
        arr = getattr(pool, name, None)
        if arr is not None:
            h.update(arr.tobytes())
    return h.hexdigest()[:12]


def worker(case: str, algo: str, playouts: int, runs: int) -> None:
    """Measure one (case, back end) of the checkout on sys.path; one JSON line per seed."""
    from engine.game.registry import GameConfig
    from engine.search import registry
    from engine.search.base import Budget

    game, _, size = case.partition(":")
    state = GameConfig(game, int(size)).new_state()
    budget = max(100, int(playouts * BUDGET_SCALE.get((game, int(size)), 1.0)))
    registry.make(algo, seed=0).search(state, Budget(playouts=200))   # compile / load caches
    for seed in range(1, runs + 1):
        searcher = registry.make(algo, seed=seed)
        t = time.process_time()
        result = searcher.search(state, Budget(playouts=budget))
        cpu = time.process_time() - t
        print(json.dumps({"seed": seed, "us": 1e6 * cpu / max(result.playouts, 1),
                          "playouts": result.playouts, "move": result.move,
                          "winrate": round(result.winrate, 6), "nodes": result.nodes,
                          "pool": pool_hash(searcher)}), flush=True)


def run_checkout(root: Path, case: str, algo: str, playouts: int, runs: int) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", case, algo,
           "--playouts", str(playouts), "--runs", str(runs)]
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{root} {case} {algo} failed:\n{out.stderr[-2000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the checkout before (a worktree path)")
    ap.add_argument("--new", default=".", help="the checkout after (default: this one)")
    ap.add_argument("--cases", default="go:9,gobang:10")
    ap.add_argument("--algos", default=DEFAULT_ALGOS, help="comma-separated back-end specs")
    ap.add_argument("--playouts", type=int, default=20_000, help="budget of a go:9 run")
    ap.add_argument("--runs", type=int, default=3, help="seeds per process")
    ap.add_argument("--rounds", type=int, default=3, help="old/new alternations")
    ap.add_argument("--json", action="store_true", help="one JSON object per row")
    ap.add_argument("--worker", nargs=2, metavar=("CASE", "ALGO"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(*args.worker, args.playouts, args.runs)
        return
    if not args.old:
        ap.error("--old is required")
    roots = {"old": Path(args.old).resolve(), "new": Path(args.new).resolve()}
    rows = []
    if not args.json:
        print(f"{'case':10} {'algo':42} {'old us':>8} {'new us':>8} {'change':>7}  search")
    for case in args.cases.split(","):
        for algo in args.algos.split(","):
            got = {"old": [], "new": []}
            for r in range(args.rounds):
                for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
                    got[side] += run_checkout(roots[side], case, algo, args.playouts, args.runs)
            # the same search: move, win rate and nodes; the same pool bytes too only where
            # both checkouts lay the pool out alike
            same = all((a["move"], a["winrate"], a["nodes"])
                       == (b["move"], b["winrate"], b["nodes"])
                       for a, b in zip(got["old"], got["new"]))
            same_pool = all(a["pool"] == b["pool"] for a, b in zip(got["old"], got["new"]))
            old_us = min(x["us"] for x in got["old"])
            new_us = min(x["us"] for x in got["new"])
            row = {"case": case, "algo": algo, "old_us": round(old_us, 2),
                   "new_us": round(new_us, 2), "change_pct": round(100 * (new_us / old_us - 1), 1),
                   "same_trees": same, "same_pool": same_pool,
                   "playouts": got["new"][0]["playouts"]}
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{case:10} {algo:42} {old_us:8.2f} {new_us:8.2f} "
                      f"{row['change_pct']:+6.1f}%  {'same' if same else 'DIFFERENT'}"
                      f"{' (same pool)' if same and same_pool else ''}",
                      flush=True)


if __name__ == "__main__":
    main()
