"""``engine.tsumego.root``: one search's root on a problem, with the book's answers wherever
they rank, after moves played first; and the research driver that prints it
(``scripts/research/tsumego_root.py``), run as a user runs it."""

import subprocess
import sys
from pathlib import Path

from engine.tsumego.problem import load_sgf_problem
from engine.tsumego.root import book_first_move, root_rows, table

ROOT = Path(__file__).parent.parent
PROBLEM = ROOT / "problems" / "go" / "19x19" / "bent-three-kill.sgf"
SCRIPT = ROOT / "scripts" / "research" / "tsumego_root.py"
SPEC = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"


def test_the_root_lists_the_most_visited_moves_and_the_answer():
    problem = load_sgf_problem(PROBLEM)
    side, rows = root_rows(problem, SPEC, 2000, seed=3, top=2)
    assert side == "B"
    ranks = [r[0] for r in rows]
    visits = [r[2] for r in rows]
    assert ranks == sorted(ranks) and ranks[:2] == [1, 2]
    assert visits == sorted(visits, reverse=True)
    assert sum(r[5] for r in rows) >= 1          # the book's answer is listed, marked
    assert all(r[1] == r[6].split()[0] for r in rows)   # each line starts with its move
    text = table(rows)
    assert text.startswith("| rank | move | visits | win rate | proof | book | line |")
    assert "answer" in text and len(text.splitlines()) == 2 + len(rows)


def test_moves_played_first_turn_the_root_to_the_other_side():
    problem = load_sgf_problem(PROBLEM)
    side, after = root_rows(problem, SPEC, 500, seed=3, after=[book_first_move(problem)],
                            top=3)
    assert side == "W" and len(after) == 3
    assert not any(r[5] for r in after)   # the book's answers are Black's, not listed


def script(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=600)


def test_the_driver_prints_the_table_after_the_books_answer():
    answer = book_first_move(load_sgf_problem(PROBLEM))
    done = script(str(PROBLEM), "--budget", "300", "--top", "2", "--after-answer")
    assert done.returncode == 0, done.stderr
    assert f"after {answer}: W to play, 300 playouts" in done.stdout
    assert "| rank | move | visits | win rate | proof | book | line |" in done.stdout


def test_bad_input_gets_one_line_and_status_2(tmp_path):
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;GM[1]SZ[19]AB[zz")
    for args in ([str(PROBLEM), "--after", "Z99"], [str(broken)],
                 [str(PROBLEM), "--algo", "uct:bogus=1"]):
        done = script(*args)
        errors = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(errors) == 1, done.stderr
        assert errors[0].startswith("tsumego_root.py: ")
