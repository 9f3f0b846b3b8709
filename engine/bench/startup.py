"""Start-up time of the GTP engine as a user meets it: ``nakade gtp`` with no
options (plus the case's game), on an empty numba cache (cold: every kernel compiles on
this machine) and then again on the cache the cold run filled (warm).

For each case and each of the two runs, measured from process start in a fresh
subprocess whose ``NUMBA_CACHE_DIR`` is a new empty temporary directory:

  gtp        the first GTP answer (``name``)
  search     the first search started (the first ``genmove``'s answer less the search time
             the engine logs on stderr)
  move 1     the first ``genmove`` answered (compiling included, on a cold cache)
  move 2     the second ``genmove`` answered, after the first
  playouts   the playouts of move 1 and of move 2 (a move cut short by the deadline guard
             or by compiling shows here)
  ready      the warm-up's "kernels ready in" figure from stderr (all kernels compiled)
  cpu        CPU seconds (user + system) of the engine and its compile worker together,
             start to exit: the figure to compare on a loaded machine
  load       the 1-minute load average when the run started

    nakade bench startup                 # go 9x9, go 19x19, gobang 15x15
    nakade bench startup --cases go:9 --json
    nakade bench startup --kernels --cases go:9   # compile time per kernel, cold
    nakade bench startup --side-by-side 2 --cases go:9   # two engines, one cold cache

``--side-by-side N`` starts N engines at once on one empty cache, as gogui-twogtp or a
process pool does, instead of the cold and warm runs: a row per engine, and in the cpu
column the CPU seconds of all N together.

``--kernels`` runs the warm-up's rules and first search on an empty cache in one child
process (no compile worker) and lists where the compile time went: each numba dispatcher compiled,
its own time (callees compiled from inside it excluded) and its inclusive time, wall and CPU
seconds.  CPU seconds are the figure to compare on a loaded machine. Extra engine options go after
``--`` (e.g. ``-- --preset paper``).
"""

import argparse
import json
import os
import queue
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from . import SOURCE_ROOT, engine_command

DEFAULT_CASES = "go:9,go:19,gobang:15"
TIMEOUT = 900.0   # seconds a run may take before it is reported as failed

SEARCH_LOG = re.compile(r"genmove \w+: \S+, win rate \S+, (\d+) playouts in ([\d.]+) s")
READY_LOG = re.compile(r"kernels ready in ([\d.]+) s")


def case_args(case: str) -> tuple[list[str], list[str]]:
    """(engine options, GTP set-up commands) of a case ``game:size``: Go gets its size by
    ``boardsize`` as a GUI sends it, so that 9x9 runs the engine with no options at all."""
    game, _, size = case.partition(":")
    if game == "go":
        return [], [f"boardsize {size or 19}", "clear_board"]
    return ["--game", game] + (["--size", size] if size else []), ["clear_board"]


def run_engine(args: list[str], setup: list[str], cache_dir: str) -> dict:
    """One engine process: answers timed from its start."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(SOURCE_ROOT))
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([*engine_command(), *args], cwd=SOURCE_ROOT,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    stderr_lines: list[str] = []
    threading.Thread(target=lambda: stderr_lines.extend(proc.stderr), daemon=True).start()
    answers: queue.Queue = queue.Queue()

    def read_answers():
        lines = []
        for line in proc.stdout:
            if line.strip():
                lines.append(line.strip())
            elif lines:
                answers.put((time.perf_counter() - start, " ".join(lines)))
                lines = []
        answers.put((time.perf_counter() - start, None))

    threading.Thread(target=read_answers, daemon=True).start()

    def ask(command: str) -> tuple[float, str]:
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        at, text = answers.get(timeout=TIMEOUT)
        if text is None or not text.startswith("="):
            raise RuntimeError(f"{command!r} -> {text!r}; stderr: {''.join(stderr_lines)}")
        return at, text

    try:
        row = {"gtp": ask("name")[0]}
        for command in setup:
            ask(command)
        row["move1"], _ = ask("genmove b")
        row["move2"], _ = ask("genmove w")
        ask("quit")
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0.1)   # the stderr reader drains the pipe
    after = resource.getrusage(resource.RUSAGE_CHILDREN)   # the worker was reaped by the engine
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    searches = [SEARCH_LOG.search(line) for line in stderr_lines]
    searches = [m for m in searches if m]
    ready = [READY_LOG.search(line) for line in stderr_lines]
    ready = [float(m.group(1)) for m in ready if m]
    row["playouts1"] = int(searches[0].group(1)) if searches else None
    row["playouts2"] = int(searches[1].group(1)) if len(searches) > 1 else None
    row["search"] = row["move1"] - float(searches[0].group(2)) if searches else None
    row["ready"] = ready[0] if ready else None
    row["cpu"] = cpu
    row["load"] = load
    row["stderr"] = [line.rstrip() for line in stderr_lines]
    return row


def bench_case(case: str, extra: list[str], cache_dir: str | None = None) -> list[dict]:
    """Two runs on one cache: a new empty one, or ``cache_dir`` as it is (kept)."""
    args, setup = case_args(case)
    if cache_dir is not None:
        os.makedirs(cache_dir, exist_ok=True)
        kinds = ("cold" if not os.listdir(cache_dir) else "warm", "warm")
        return [{"case": case, "cache": kind, **run_engine(args + extra, setup, cache_dir)}
                for kind in kinds]
    with tempfile.TemporaryDirectory(prefix="nakade-numba-") as temporary:
        return bench_case(case, extra, temporary)


def side_by_side(case: str, extra: list[str], engines: int) -> list[dict]:
    """``engines`` engines started at once on one new empty cache."""
    args, setup = case_args(case)
    with tempfile.TemporaryDirectory(prefix="nakade-numba-") as cache_dir:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with ThreadPoolExecutor(engines) as pool:
            rows = list(pool.map(lambda _: run_engine(args + extra, setup, cache_dir),
                                 range(engines)))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # each engine's own figure took in whichever of the others ended meanwhile
    return [{**row, "case": case, "cache": f"cold, {engines} at once", "cpu": cpu}
            for row in rows]


def _fmt(value, digits=2) -> str:
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{value:.{digits}f}"


def print_table(rows: list[dict]):
    print("| case | cache | gtp s | search s | move 1 s | move 2 s | playouts 1 / 2 | ready s "
          "| cpu s | load |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['case']} | {r['cache']} | {_fmt(r['gtp'])} | {_fmt(r['search'])} | "
              f"{_fmt(r['move1'])} | {_fmt(r['move2'])} | "
              f"{_fmt(r['playouts1'])} / {_fmt(r['playouts2'])} | {_fmt(r['ready'], 1)} | "
              f"{_fmt(r['cpu'], 1)} | {_fmt(r['load'], 1)} |")


# The child of ``--kernels``: the warm-up's rules and first search, in this one process (no
# compile worker), with a listener on numba's compile events.
_PROFILE = """
import json, sys, time
import numba.core.event as ev
stack, rows = [], {}

class Compiles(ev.Listener):
    def on_start(self, event):
        stack.append([event.data["dispatcher"], time.perf_counter(), time.process_time(),
                      0.0, 0.0])

    def on_end(self, event):
        d, t0, c0, child_t, child_c = stack.pop()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if stack:
            stack[-1][3] += wall
            stack[-1][4] += cpu
        name = d.py_func.__module__.replace("engine.", "") + "." + d.py_func.__qualname__
        row = rows.setdefault(name, [0, 0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += wall - child_t
        row[2] += cpu - child_c
        row[3] += wall

ev.register("numba:compile", Compiles())
from engine.gtp import parse_settings
from engine.search.base import Budget
settings, searcher = parse_settings(sys.argv[1:])
t0, c0 = time.perf_counter(), time.process_time()
state = settings.new_state()
state.play(int(state.empty_points()[0]))
state.undo()
searcher.search(state, Budget(playouts=64))
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "kernels": rows}))
"""


def profile_kernels(case: str, extra: list[str], top: int) -> dict:
    args, _ = case_args(case)
    if case.startswith("go:"):
        args = ["--size", case.partition(":")[2] or "19"]
    with tempfile.TemporaryDirectory(prefix="nakade-numba-") as cache_dir:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(SOURCE_ROOT))
        out = subprocess.run([sys.executable, "-c", _PROFILE, *args, *extra], cwd=SOURCE_ROOT,
                             env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_kernels(case: str, result: dict, top: int):
    kernels = sorted(result["kernels"].items(), key=lambda kv: -kv[1][2])
    print(f"{case}: rules and first search on an empty cache {result['wall']:.1f} s wall, "
          f"{result['cpu']:.1f} s CPU; {len(kernels)} dispatchers compiled, "
          f"{sum(k[1][0] for k in kernels)} signatures")
    print("| kernel | compiles | own CPU s | own wall s | incl. wall s |")
    print("|---|---:|---:|---:|---:|")
    for name, (n, wall, cpu, incl) in kernels[:top]:
        print(f"| {name} | {n} | {cpu:.2f} | {wall:.2f} | {incl:.2f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="nakade bench startup",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default=DEFAULT_CASES,
                    help=f"comma-separated game:size (default {DEFAULT_CASES})")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--kernels", action="store_true",
                    help="compile time per kernel of a cold warm-up instead")
    ap.add_argument("--top", type=int, default=30, help="--kernels: rows shown")
    ap.add_argument("--stderr", action="store_true", help="show the engines' stderr")
    ap.add_argument("--cache-dir", help="run on this numba cache directory, kept (cold "
                    "only when empty; for warm A/B runs) instead of a new empty one")
    ap.add_argument("--side-by-side", type=int, metavar="N",
                    help="N engines started at once on one empty cache instead")
    ap.add_argument("engine_args", nargs="*", help="extra engine options, after --")
    a = ap.parse_args(argv)
    if a.side_by_side is not None and a.side_by_side < 1:
        ap.error("--side-by-side needs at least one engine")
    cases = [c for c in a.cases.split(",") if c]
    table = []
    for case in cases:
        if a.kernels:
            result = profile_kernels(case, a.engine_args, a.top)
            if a.json:
                print(json.dumps({"case": case, **result}))
            else:
                print_kernels(case, result, a.top)
            continue
        if a.side_by_side:
            rows = side_by_side(case, a.engine_args, a.side_by_side)
        else:
            rows = bench_case(case, a.engine_args, a.cache_dir)
        for row in rows:
            if a.stderr:
                print(f"--- {row['case']} {row['cache']} stderr:", *row["stderr"], sep="\n")
            if a.json:
                print(json.dumps({k: v for k, v in row.items() if k != "stderr"}), flush=True)
        table += rows
    if table and not a.json:
        print_table(table)
    return 0
