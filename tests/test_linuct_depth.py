"""``engine.search.probes.tree_shape``: the tree's shape, checked against what the search
reports; and the research driver that tabulates it (``scripts/research/linuct_depth.py``),
run as a command."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.search import registry
from engine.search.base import Budget
from engine.search.probes import positions, tree_shape
from engine.search.tree import PV_LENGTH

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "research" / "linuct_depth.py"


@pytest.mark.parametrize("algo", ["linuct-plain", "uct"])
def test_tree_shape_agrees_with_the_searchs_own_line_and_visits(algo):
    state, _ = positions()["opening"]
    searcher = registry.make(algo, seed=3, options={"resign_threshold": "0"})
    result = searcher.search(state, Budget(playouts=400))
    line, depth, share = tree_shape(searcher.pool)
    # the reported PV is the same most visited line, cut at its length limit
    assert len(result.pv) == min(line, PV_LENGTH) and line >= 1
    visits = [c.visits for c in result.candidates]
    assert share == pytest.approx(max(visits) / sum(visits))
    assert depth >= 1.0


def test_the_driver_prints_one_row_per_position_back_end_and_budget():
    done = subprocess.run([sys.executable, str(SCRIPT), "--budgets", "100", "200", "--seeds",
                           "1"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [r for r in done.stdout.splitlines() if r.startswith("| ")][1:]
    assert len(rows) == 3 * 2 * 2
