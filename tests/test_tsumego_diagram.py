"""SVG diagrams of tsumego runs (``engine.tsumego.diagram``): well-formed, and showing
exactly the stones, answers, engine move and variation asked for."""

import xml.etree.ElementTree as ET
from pathlib import Path

from engine.core.layout import PASS
from engine.tsumego.diagram import svg
from engine.tsumego.frame import problem_region
from engine.tsumego.problem import load_sgf_problem

ROOT = Path(__file__).parent.parent
PROBLEM = ROOT / "problems" / "go" / "19x19" / "straight-three-kill.sgf"
NS = "{http://www.w3.org/2000/svg}"


def elements(text, kind, cls):
    root = ET.fromstring(text)
    return [e for e in root.iter(NS + kind) if e.get("class") == cls]


def test_a_miss_shows_stones_answers_the_wrong_move_and_the_variation():
    problem = load_sgf_problem(PROBLEM)
    region = problem_region(problem)
    wrong = next(p for p in sorted(region) if problem.state.color_at(p) == 0
                 and p not in problem.accept)
    pv = [wrong, PASS, next(iter(problem.accept))]
    text = svg(problem.state, region, problem.accept, wrong, False, pv, title=problem.name)
    stones = int((problem.state.board() != 0).sum())
    assert len(elements(text, "circle", "stone")) == stones   # the region holds them all
    assert len(elements(text, "circle", "answer")) == len(problem.accept)
    assert [e.text for e in elements(text, "text", "pv")] == ["1", "3"]   # a pass shows none
    assert len(elements(text, "path", "move")) == 1 and not elements(text, "rect", "move")
    assert problem.name in text


def test_a_hit_is_a_square_and_the_view_is_cropped():
    problem = load_sgf_problem(PROBLEM)
    answer = next(iter(problem.accept))
    text = svg(problem.state, problem_region(problem), problem.accept, answer, True)
    assert len(elements(text, "rect", "move")) == 1
    root = ET.fromstring(text)
    assert int(root.get("width")) < 20 * 24      # a corner problem is not the whole board


def test_with_nothing_marked_the_view_is_the_stones_bounding_box():
    problem = load_sgf_problem(PROBLEM)
    text = svg(problem.state)
    board = problem.state.board()
    rows, cols = (board != 0).nonzero()
    lines = ET.fromstring(text).findall(NS + "line")
    assert len(lines) == (rows.max() - rows.min() + 1) + (cols.max() - cols.min() + 1)
    assert len(elements(text, "circle", "stone")) == len(rows)
