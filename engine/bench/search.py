"""Full-search speed, single-threaded unless ``--threads``: playouts per second and tree nodes of
each back end searching the empty board, after a warm-up search, the median of a few runs (each run
on a fresh tree with its own seed).

    nakade bench search               # every back end on go:9 go:19 gobang:10 gobang:20
    nakade bench search --json        # one JSON object per line
    nakade bench search --algos uct --cases go:9 --playouts 50000 --runs 5
    nakade bench search --options uct:rave=1
    nakade bench search --cases go:9 --algos uct,linuct:rave=1,linuct:bandit=exact
    nakade bench search --cases go:9 --algos uct,uct:playout=heavy:prior=1:rave=1

Threads (``engine.search.parallel``): ``--threads 1,2`` measures each back end on each
thread count instead, the counts' runs taken in turn (1, 2, 1, 2, ...) so that a change
of load on a shared machine touches them alike; a row gives the best and the median
playouts/s of its runs, ``x_1`` the best over the first count's best, and ``per_cpu_s``
the playouts per second of CPU time of the whole process (all threads: what the threads
cost each other, whatever else the machine runs), with the load average before and after.

    nakade bench search --cases go:9 --threads 1,2 --runs 5 \
        --algos uct,uct:playout=heavy:prior=1:rave=1:c=0

``--playouts`` is the budget of one run on 9x9 Go; the other cases scale it by the raw
playout cost of the board, so every run lasts a fraction of a second.  An ``--algos`` item
is a back-end spec ``NAME[:key=value]...`` (``engine.search.registry``); by default the
registry's back ends run, plus the knowledge variants of UCT and SHOT (heavy playouts;
priors and RAVE), plus LinUCT with exact LinUCB, whose O(d^2) observations
(d = 24 n^2 + 1) restrict it to boards up to ``EXACT_MAX_SIZE`` and ``EXACT_SHARE`` of the
budget.  ``x_uct`` is a row's time per playout over UCT's on the same case and budget (UCT is
measured at that budget when it is not a row already).
"""

import argparse
import json
import os
import statistics
import time

from engine.game.registry import GameConfig
from engine.search import registry
from engine.search.base import Budget

DEFAULT_CASES = "go:9,go:19,gobang:10,gobang:20"
# budget per run relative to go:9, roughly inverse to the cost of one playout there
BUDGET_SCALE = {("go", 9): 1.0, ("go", 19): 0.25, ("gobang", 10): 4.0, ("gobang", 20): 1.5}
VARIANTS = ["linuct:rave=1", "linuct:bandit=exact", "linuct:rave=1:bandit=exact",
            "uct:playout=heavy", "uct:playout=heavy:prior=1:rave=1:c=0", "shot:playout=heavy"]
EXACT_SHARE = 0.1
# LinUCT's cost per playout grows with the board (feature rows, and PLAIN's deep paths), so
# by default its rows are measured on the small boards the papers used
LINUCT_MAX_SIZE = 10


def make_state(game: str, size: int):
    return GameConfig(game, size).new_state()


def parse_options(texts: list[str]) -> dict[str, dict[str, str]]:
    """``NAME:key=value...`` specs into {name: {key: value}}."""
    out: dict[str, dict[str, str]] = {}
    for text in texts:
        try:
            spec = registry.parse_spec(text)
        except ValueError as exc:
            raise SystemExit(f"--options: {exc}") from None
        out.setdefault(spec.name, {}).update(spec.options)
    return out


def measure(algo: str, game: str, size: int, playouts: int, runs: int,
            options: dict[str, str]) -> dict:
    state = make_state(game, size)
    registry.make(algo, seed=0, options=options).search(state, Budget(playouts=200))
    rates, nodes, seconds = [], [], []
    for seed in range(1, runs + 1):
        searcher = registry.make(algo, seed=seed, options=options)
        t = time.perf_counter()
        result = searcher.search(state, Budget(playouts=playouts))
        dt = time.perf_counter() - t
        rates.append(result.playouts / dt)
        nodes.append(result.nodes)
        seconds.append(dt)
    return {"algo": algo, "game": game, "size": size,
            "playouts_per_s": round(statistics.median(rates), 1),
            "playouts": playouts, "nodes": int(statistics.median(nodes)),
            "seconds": round(statistics.median(seconds), 4), "runs": runs,
            "options": options}


def measure_threads(algo: str, game: str, size: int, playouts: int, runs: int,
                    options: dict[str, str], counts: list[int]) -> list[dict]:
    """One row per thread count, the counts' runs taken in turn."""
    state = make_state(game, size)
    for n in counts:   # compiled, and the threads' code paths warm
        registry.make(algo, seed=0, options={**options, "threads": str(n)}).search(
            state, Budget(playouts=200))
    load = os.getloadavg()[0]
    rates = {n: [] for n in counts}
    per_cpu = {n: [] for n in counts}
    for seed in range(1, runs + 1):
        for n in counts:
            searcher = registry.make(algo, seed=seed, options={**options, "threads": str(n)})
            t, c = time.perf_counter(), time.process_time()
            result = searcher.search(state, Budget(playouts=playouts))
            dt, dc = time.perf_counter() - t, time.process_time() - c
            rates[n].append(result.playouts / dt)
            per_cpu[n].append(result.playouts / max(dc, 1e-9))
    base = max(rates[counts[0]])
    return [{"algo": algo, "game": game, "size": size, "threads": n, "playouts": playouts,
             "best_playouts_per_s": round(max(rates[n]), 1),
             "median_playouts_per_s": round(statistics.median(rates[n]), 1),
             "x_1": round(max(rates[n]) / base, 2),
             "per_cpu_s": round(max(per_cpu[n]), 1), "runs": runs,
             "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
             "options": options} for n in counts]


def print_thread_rows(rows: list[dict]):
    print(f"{'algo':40} {'case':8} {'threads':>7} {'best/s':>9} {'median/s':>9} "
          f"{'x_1':>5} {'per_cpu_s':>9} {'load':>10}")
    for r in rows:
        print(f"{r['algo']:40} {r['game']}:{r['size']:<5d} {r['threads']:7d} "
              f"{r['best_playouts_per_s']:9,.0f} {r['median_playouts_per_s']:9,.0f} "
              f"{r['x_1']:5.2f} {r['per_cpu_s']:9,.0f} "
              f"{r['load_before']:4.1f}-{r['load_after']:<4.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="nakade bench search",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--algos", default=",".join(registry.names() + VARIANTS))
    ap.add_argument("--cases", default=DEFAULT_CASES, help="comma-separated game:size list")
    ap.add_argument("--playouts", type=int, default=20_000, help="budget of a go:9 run")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per case (median)")
    ap.add_argument("--options", nargs="*", default=[],
                    help="NAME:key=value specs: options for every run of that back end")
    ap.add_argument("--threads", help="comma-separated thread counts, e.g. 1,2: compare them")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    args = ap.parse_args(argv)
    options = parse_options(args.options)
    counts = [int(n) for n in args.threads.split(",")] if args.threads else None
    rows = []
    for case in args.cases.split(","):
        game, _, size = case.partition(":")
        size = int(size)
        full = max(100, int(args.playouts * BUDGET_SCALE.get((game, size), 1.0)))
        if counts:
            for item in args.algos.split(","):
                spec = registry.parse_spec(item)
                opts = {**options.get(spec.name, {}), **spec.options}
                if spec.name.startswith("linuct") and size > LINUCT_MAX_SIZE:
                    continue
                for row in measure_threads(spec.name, game, size, full, args.runs, opts,
                                           counts):
                    row["algo"] = item
                    rows.append(row)
                    if args.json:
                        print(json.dumps(row), flush=True)
            continue
        uct_rate = {}   # budget -> UCT's playouts/s on this case
        for item in args.algos.split(","):
            try:
                spec = registry.parse_spec(item)
            except ValueError as exc:
                raise SystemExit(f"--algos: {exc}") from None
            algo, opts = spec.name, {**options.get(spec.name, {}), **spec.options}
            budget = full
            if algo.startswith("linuct") and size > LINUCT_MAX_SIZE:
                continue
            if opts.get("bandit") == "exact":
                if (game, size) != ("go", 9):   # O(d^2) per observation: the paper's 9x9 only
                    continue
                budget = max(100, int(full * EXACT_SHARE))
            row = measure(algo, game, size, budget, args.runs, opts)
            row["algo"] = item
            if item == "uct":
                uct_rate[budget] = row["playouts_per_s"]
            elif budget not in uct_rate:
                uct_rate[budget] = measure("uct", game, size, budget, args.runs,
                                           options.get("uct", {}))["playouts_per_s"]
            row["x_uct"] = round(uct_rate[budget] / row["playouts_per_s"], 2)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    if counts:
        if not args.json:
            print_thread_rows(rows)
        return 0
    if not args.json:
        print(f"{'algo':25} {'game':7} {'size':>4} {'playouts':>9} {'playouts/s':>11} "
              f"{'x_uct':>6} {'nodes':>9} {'seconds':>8}")
        for r in rows:
            print(f"{r['algo']:25} {r['game']:7} {r['size']:4d} {r['playouts']:9,d} "
                  f"{r['playouts_per_s']:11,.0f} {r['x_uct']:6.2f} {r['nodes']:9,d} "
                  f"{r['seconds']:8.3f}")
    return 0
