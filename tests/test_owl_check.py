"""GNU Go's owl as a second reader of a sweep's answers (``scripts/research/owl_check.py`` over
``engine.tsumego.oracle.gnugo_judgement``): on our composed problems it accepts the book's
answer and rejects a wrong first move, and the script refuses what it cannot read."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game.coords import to_gtp
from engine.tsumego.problem import load_sgf_problem

ROOT = Path(__file__).parent.parent
GO19 = ROOT / "problems" / "go" / "19x19"
GNUGO = "/usr/games/gnugo --mode gtp --level 10"

pytestmark = pytest.mark.gnugo


def run_owl_check(*args) -> subprocess.CompletedProcess:
    """scripts/research/owl_check.py run as a command, the way a user runs it."""
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "research" / "owl_check.py"),
                           *map(str, args)], capture_output=True, text=True, cwd=ROOT)


# a kill and a live, each with a wrong move: the far corner of the problem's region; in
# the problem's position and in its frame (the collection's check: the same answers)
@pytest.mark.parametrize("frame", [[], ["--frame"]], ids=["position", "frame"])
@pytest.mark.parametrize("name, wrong", [("bent-three-kill", "E5"), ("bulky-five-live", "O14")])
def test_the_script_counts_the_runs_the_book_or_owl_accepts(tmp_path, name, wrong, frame):
    problem = load_sgf_problem(GO19 / f"{name}.sgf")
    right = to_gtp(min(problem.accept), problem.size)
    results = tmp_path / "results.csv"
    with open(results, "w", newline="") as f:
        w = csv.DictWriter(f, ["problem", "algo", "budget", "seed", "move", "correct"])
        w.writeheader()
        w.writerow(dict(problem=problem.name, algo="uct", budget=10, seed=0, move=right,
                        correct=1))
        w.writerow(dict(problem=problem.name, algo="uct", budget=10, seed=1, move=wrong,
                        correct=0))
    done = run_owl_check(results, GO19 / f"{name}.sgf", "--gtp", GNUGO, *frame)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"{name}{' ' * (50 - len(name))} {wrong:5s} fails" in out
    book = len(problem.accept)
    assert f"| the book's answers | {book} | {book} | 0 | 0 |" in out
    assert "| missed moves | 1 | 0 | 0 | 1 |" in out
    assert "solved by the book: 1; by the book or by GNU Go's reading of the move: 1" in out


def test_the_script_refuses_a_missing_results_file_in_one_line(tmp_path):
    done = run_owl_check(tmp_path / "none.csv", GO19 / "bent-three-kill.sgf")
    assert done.returncode == 2
    assert done.stderr.startswith("owl_check.py: cannot read") and not done.stdout


def test_a_problem_without_a_goal_is_asked_the_goal_its_fight_implies(tmp_path):
    # bent-three-kill with its "kill" tag taken out, as the practice collection's files
    # come: the side to move attacks, so its moves are read as kills
    text = (GO19 / "bent-three-kill.sgf").read_text().replace("TG[kill]", "TG[]")
    path = tmp_path / "bent-three-nogoal.sgf"
    path.write_text(text)
    problem = load_sgf_problem(path)
    assert problem.goal is None
    results = tmp_path / "results.csv"
    results.write_text("problem,algo,budget,seed,move,correct\n"
                       f"{problem.name},uct,10,0,E5,0\n")
    done = run_owl_check(results, path, "--gtp", GNUGO)
    assert done.returncode == 0, done.stderr
    assert "| the book's answers | 1 | 1 | 0 | 0 |" in done.stdout


def test_the_script_reports_an_engine_it_cannot_start_in_one_line(tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("problem,algo,budget,seed,move,correct\nbent-three-kill,uct,10,0,E5,0\n")
    done = run_owl_check(results, GO19 / "bent-three-kill.sgf", "--gtp", tmp_path / "no-gnugo")
    assert done.returncode == 2
    assert done.stderr.startswith("owl_check.py: ") and "Traceback" not in done.stderr
