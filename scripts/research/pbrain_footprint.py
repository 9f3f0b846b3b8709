"""The Gomocup brain's memory as a manager sees it: ``python -m engine.pbrain`` on pipes,
Gomocup's INFO lines (20x20, 350 MB, 5 s a move unless told), the resident memory of the
brain process (``/proc/PID/status``: VmRSS now, VmHWM its peak) after START (its kernels
loaded) and after each of its moves against a opponent that plays next to the brain's last
stone.  ``--cold`` starts on an empty numba cache (a fresh ``NUMBA_CACHE_DIR``), as a
first start in a tournament does.  One JSON line per reading on stdout.

    python scripts/research/pbrain_footprint.py --turn-ms 1000 --moves 10 [--cold]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def memory(pid: int) -> dict:
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)   # MiB
    return fields


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--turn-ms", type=int, default=5000)
    ap.add_argument("--max-memory", type=int, default=350000000)
    ap.add_argument("--moves", type=int, default=10, help="the brain's moves to measure")
    ap.add_argument("--cold", action="store_true", help="start on an empty numba cache")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", help="the brain's stderr goes to this file")
    ap.add_argument("brain_args", nargs="*", help="arguments for the brain")
    a = ap.parse_args(argv)
    env = dict(os.environ)
    if a.cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="nakade-cold-cache-")
    t0 = time.monotonic()
    brain = subprocess.Popen([sys.executable, "-m", "engine.pbrain", *a.brain_args], cwd=REPO,
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=open(a.log, "w") if a.log else subprocess.DEVNULL,
                             text=True, bufsize=1)

    def ask(*lines):
        brain.stdin.write("".join(line + "\r\n" for line in lines))
        brain.stdin.flush()
        while True:
            reply = brain.stdout.readline().strip()
            if not reply.startswith(("MESSAGE", "DEBUG")):
                return reply
            print(json.dumps({"note": reply}), flush=True)

    def record(what, reply=""):
        print(json.dumps({"at": what, "reply": reply, "seconds": round(time.monotonic() - t0, 1),
                          **memory(brain.pid)}), flush=True)

    record("launched")
    record("START", ask(f"START {a.size}"))
    for key, value in (("max_memory", a.max_memory), ("timeout_match", 120000),
                       ("timeout_turn", a.turn_ms), ("game_type", 1), ("rule", 0),
                       ("time_left", 120000)):
        brain.stdin.write(f"INFO {key} {value}\r\n")
    rng = random.Random(a.seed)
    stones, reply, n = set(), ask("BEGIN"), 0
    while n < a.moves:
        n += 1
        record(f"move {n}", reply)
        if not reply[:1].isdigit():
            break
        x, y = map(int, reply.split(","))
        stones.add((x, y))
        free = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (x + dx, y + dy) not in stones and 0 <= x + dx < a.size
                and 0 <= y + dy < a.size]
        if not free:
            break
        mine = rng.choice(free)
        stones.add(mine)
        reply = ask("TURN {},{}".format(*mine))
        if reply.startswith("ERROR"):   # our stone ended the game: a new one
            record("game over", reply)
            ask("RESTART")
            stones, reply = set(), ask("BEGIN")
    brain.stdin.write("END\r\n")
    brain.stdin.close()
    brain.wait(10)


if __name__ == "__main__":
    main()
