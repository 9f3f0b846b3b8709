"""The research driver that counts the Gobang alpha-beta's nodes to a fixed depth
(``scripts/research/gomoku_search_cost.py``), run as a command: a deeper search costs
more, the moves are empty points of the positions, and a run compared with itself agrees
on every move."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "research" / "gomoku_search_cost.py"
POSITIONS = ROOT / "results" / "gomoku" / "move-quality" / "positions.json"


def run(*args):
    done = subprocess.run([sys.executable, str(SCRIPT), "--n", "3", *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_nodes_grow_with_depth_and_the_moves_are_empty_points(tmp_path):
    shallow = run("--depth", "1")
    deep = run("--depth", "3")
    nodes = [int(re.search(r"([\d,]+) nodes", out[0]).group(1).replace(",", ""))
             for out in (shallow, deep)]
    assert 0 < nodes[0] < nodes[1]
    positions = json.loads(POSITIONS.read_text())["positions"][:3]
    moves = deep[-1].split()
    assert len(moves) == 3
    assert all(m not in p["moves"] for m, p in zip(moves, positions))
    earlier = tmp_path / "deep.txt"
    earlier.write_text("\n".join(deep) + "\n")
    assert "3 of 3" in run("--depth", "3", "--compare", str(earlier))[1]
