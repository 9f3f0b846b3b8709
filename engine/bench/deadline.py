"""How the engine keeps to its clock when its kernels are not compiled: start the GTP engine
on an empty numba cache (``NUMBA_CACHE_DIR`` a fresh folder), give it a byo-yomi clock and
ask for moves at once, and print each reply's time -- from writing ``genmove`` to reading
the reply -- beside the clock.  While the kernels compile, the deadline guard
(``engine/search/deadline.py``) answers each move with a quick legal move at its deadline.

    nakade bench deadline                       # 8 moves, 2 s a move, 9x9
    nakade bench deadline --moves 20 --byo-yomi 1 -- --size 19

Arguments after ``--`` go to the engine (``nakade gtp``).  Prints a markdown table; ``--warm`` uses the
normal cache instead.
"""

import argparse
import os
import subprocess
import tempfile
import time

from . import engine_command


class Engine:
    def __init__(self, argv, env):
        self.p = subprocess.Popen([*engine_command(), *argv],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)

    def ask(self, command: str) -> tuple[str, float]:
        start = time.monotonic()
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine closed its output after {command!r}")
            if not line.strip() and lines:
                return lines[0], time.monotonic() - start
            if line.strip():
                lines.append(line.strip())

    def close(self):
        self.ask("quit")
        self.p.wait(60)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="nakade bench deadline",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=8)
    ap.add_argument("--byo-yomi", type=float, default=2.0, help="seconds a move (default 2)")
    ap.add_argument("--warm", action="store_true", help="keep the normal numba cache")
    ap.add_argument("engine_args", nargs="*", help="engine options (after --)")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    if not args.warm:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")
    engine = Engine(args.engine_args or ["--size", "9"], env)
    start = time.monotonic()
    engine.ask(f"time_settings 0 {args.byo_yomi:g} 1")
    print("| move | since start, s | reply | reply time, s | clock, s |")
    print("|---:|---:|---|---:|---:|")
    worst = 0.0
    for i in range(args.moves):
        colour = "bw"[i % 2]
        reply, seconds = engine.ask(f"genmove {colour}")
        worst = max(worst, seconds)
        print(f"| {i + 1} | {time.monotonic() - start:.1f} | {reply} | {seconds:.3f} | "
              f"{args.byo_yomi:g} |", flush=True)
    engine.close()
    print(f"\nslowest reply {worst:.3f} s for a {args.byo_yomi:g} s clock "
          f"({'warm' if args.warm else 'empty'} numba cache)")
    return 0 if worst <= args.byo_yomi else 1
