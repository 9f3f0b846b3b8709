"""scripts/linuct_depth.py: the tree's shape, checked against what the search reports."""

import sys
from pathlib import Path

import pytest

from engine.search import registry
from engine.search.base import Budget
from engine.search.tree import PV_LENGTH

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import linuct_depth  # noqa: E402
from linuct_diagnostics import positions  # noqa: E402


@pytest.mark.parametrize("algo", ["linuct-plain", "uct"])
def test_tree_shape_agrees_with_the_searchs_own_line_and_visits(algo):
    state, _ = positions()["opening"]
    searcher = registry.make(algo, seed=3, options={"resign_threshold": "0"})
    result = searcher.search(state, Budget(playouts=400))
    line, depth, share = linuct_depth.tree_shape(getattr(searcher, "inner", searcher).pool)
    # the reported PV is the same most visited line, cut at its length limit
    assert len(result.pv) == min(line, PV_LENGTH) and line >= 1
    visits = [c.visits for c in result.candidates]
    assert share == pytest.approx(max(visits) / sum(visits))
    assert depth >= 1.0


def test_the_script_prints_one_row_per_position_back_end_and_budget(capsys):
    assert linuct_depth.main(["--budgets", "100", "200", "--seeds", "1"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ")][1:]
    assert len(rows) == 3 * 2 * 2
