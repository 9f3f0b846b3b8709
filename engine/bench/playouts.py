"""Raw playout speed, single-threaded: playouts per second from the empty board, for the
light policy and the heavy one (Go: ``engine.core.go_policy`` with the built-in knowledge
file; Gobang: the threat-aware playout of ``engine.core.gobang_threats``), and on Go the
learned softmax policy (``elo``: ``engine.core.elo_policy`` with the built-in weights).

Prints a table (or, with --json, one JSON object per line) of the median over several
timed runs after warm-up, plus the time from process start to the first playout result
with a cold numba cache and with a warm one (each measured in a fresh subprocess).

    nakade bench playouts            # the default set, well under a minute
    nakade bench playouts --json
    nakade bench playouts --seconds 2 --runs 7 --cases go:9,go:9:heavy,gobang:15
    nakade bench playouts --no-startup --cases go:9:heavy,go:9:elo,go:19:heavy,go:19:elo
    nakade bench playouts --no-startup --cases go:9:heavy --knowledge my.txt
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

DEFAULT_CASES = "go:9,go:9:heavy,go:19,go:19:heavy,gobang:10,gobang:10:heavy,gobang:15"

# The child program for the start-up measurement: import, build an empty board, one playout.
_FIRST_PLAYOUT = """
import sys
from engine.core.rng import make_rng
from engine.game.rules import GoRules
from engine.game.go_state import GoState
GoState(GoRules(size=9)).playout(make_rng(1))
print("ok")
"""


def make_runner(game: str, size: int, policy: str, knowledge: str | None = None):
    """A function count -> (black wins, moves) over fresh copies of the empty board."""
    from engine.core.layout import new_arrays, zobrist_table
    from engine.core.rng import make_rng
    s, meta = new_arrays(size)
    scratch_s, scratch_meta = new_arrays(size)
    zob = zobrist_table(size)
    rng = make_rng(12345)
    if game == "go":
        from engine.core.go_kernels import clear_board
        from engine.core.go_playout import LIGHT, heavy_par, run_playouts
        from engine.go_knowledge import load
        clear_board(s, meta, size)
        if policy == "elo":
            from engine.knowledge.pattern_weights import elo
            pat, par = load(knowledge).patterns, elo()
        else:
            pat, par = LIGHT if policy == "light" else (load(knowledge).patterns,
                                                        heavy_par(load(knowledge).playout))
        return lambda count: run_playouts(s, meta, zob, rng, 7.5, count, scratch_s,
                                          scratch_meta, pat, par)
    from engine.core import gobang_kernels as gb
    from engine.core import gobang_threats as gt
    from engine.core.layout import GOBANG_FREESTYLE
    gb.clear_board(s, meta, size, GOBANG_FREESTYLE)
    run = gb.run_playouts if policy == "light" else gt.run_threat_playouts
    return lambda count: run(s, meta, zob, rng, count, scratch_s, scratch_meta)


def measure(game: str, size: int, policy: str, seconds: float, runs: int,
            knowledge: str | None = None) -> dict:
    run = make_runner(game, size, policy, knowledge)
    run(50)  # compile (or load from cache) and warm up
    count = 200
    while True:  # size the batch so one run lasts about `seconds`
        t = time.perf_counter()
        run(count)
        dt = time.perf_counter() - t
        if dt > seconds / 4:
            break
        count *= 4
    count = max(1, int(count * seconds / dt))
    rates, lengths = [], []
    for _ in range(runs):
        t = time.perf_counter()
        _, moves = run(count)
        dt = time.perf_counter() - t
        rates.append(count / dt)
        lengths.append(moves / count)
    return {"game": game, "size": size, "policy": policy,
            "playouts_per_s": round(statistics.median(rates), 1),
            "moves_per_playout": round(float(np.mean(lengths)), 1),
            "runs": runs, "playouts_per_run": count}


def startup_seconds(cache_dir: str) -> float:
    """Wall time from starting a fresh interpreter to its first playout result."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", _FIRST_PLAYOUT], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="nakade bench playouts",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=DEFAULT_CASES,
                    help="comma-separated game:size[:light|heavy|elo] list "
                         f"(default {DEFAULT_CASES})")
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per case (median)")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--knowledge", metavar="PATH", default=None,
                    help="Go knowledge file of the heavy policy (default: the built-in one)")
    ap.add_argument("--no-startup", action="store_true",
                    help="skip the cold/warm start-up measurement")
    args = ap.parse_args(argv)
    rows = []
    for case in args.cases.split(","):
        game, _, rest = case.partition(":")
        size, _, policy = rest.partition(":")
        policy = policy or "light"
        if game not in ("go", "gobang") or not size.isdigit() or policy not in (
                "light", "heavy", "elo") or (policy == "elo" and game != "go"):
            ap.error(f"bad case {case!r}: use go:N, gobang:N, go:N:heavy, go:N:elo or "
                     "gobang:N:heavy")
        rows.append(measure(game, int(size), policy, args.seconds, args.runs, args.knowledge))
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
    startup = None
    if not args.no_startup:
        with tempfile.TemporaryDirectory() as cache:
            cold = startup_seconds(cache)
            warm = startup_seconds(cache)
        startup = {"measure": "start_to_first_playout_s", "game": "go", "size": 9,
                   "cold_cache_s": round(cold, 2), "warm_cache_s": round(warm, 2)}
        if args.json:
            print(json.dumps(startup))
    if not args.json:
        print(f"{'game':8} {'size':>4} {'policy':7} {'playouts/s':>12} {'moves/playout':>14}")
        for r in rows:
            print(f"{r['game']:8} {r['size']:>4} {r['policy']:7} {r['playouts_per_s']:>12,.0f}"
                  f" {r['moves_per_playout']:>14.1f}")
        if startup:
            print(f"process start to first 9x9 playout: {startup['cold_cache_s']:.2f} s with a "
                  f"cold numba cache (compiling), {startup['warm_cache_s']:.2f} s warm")
    return 0
