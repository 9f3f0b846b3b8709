"""``scripts/tsumego_root.py``: one search's root on a problem, with the book's answers
wherever they rank, after moves played first, and its errors."""

from pathlib import Path

from engine.tsumego.problem import load_sgf_problem

from script_module import load_script

ROOT = Path(__file__).parent.parent
PROBLEM = ROOT / "problems" / "go" / "19x19" / "bent-three-kill.sgf"
SPEC = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"

tsumego_root = load_script("tsumego_root")


def test_the_root_lists_the_most_visited_moves_and_the_answer():
    problem = load_sgf_problem(PROBLEM)
    side, rows = tsumego_root.root_rows(problem, SPEC, 2000, seed=3, top=2)
    assert side == "B"
    ranks = [r[0] for r in rows]
    visits = [r[2] for r in rows]
    assert ranks == sorted(ranks) and ranks[:2] == [1, 2]
    assert visits == sorted(visits, reverse=True)
    assert sum(r[5] for r in rows) >= 1          # the book's answer is listed, marked
    assert all(r[1] == r[6].split()[0] for r in rows)   # each line starts with its move


def test_moves_played_first_turn_the_root_to_the_other_side():
    problem = load_sgf_problem(PROBLEM)
    _, rows = tsumego_root.root_rows(problem, SPEC, 2000, seed=3, top=1)
    answer = rows[0][1]
    side, after = tsumego_root.root_rows(problem, SPEC, 500, seed=3, after=[answer], top=3)
    assert side == "W" and len(after) == 3
    assert not any(r[5] for r in after)   # the book's answers are Black's, not listed


def test_bad_input_gets_one_line_and_status_2(capsys, tmp_path):
    assert tsumego_root.main([str(PROBLEM), "--after", "Z99"]) == 2
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;GM[1]SZ[19]AB[zz")
    assert tsumego_root.main([str(broken)]) == 2
    assert tsumego_root.main([str(PROBLEM), "--algo", "uct:bogus=1"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("tsumego_root.py: ") for e in errors)


def test_main_prints_the_table(capsys):
    assert tsumego_root.main([str(PROBLEM), "--budget", "300", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "| rank | move | visits | win rate | proof | book | line |" in out
    assert "B to play, 300 playouts" in out


def test_after_answer_plays_the_books_answer_first(capsys):
    problem = load_sgf_problem(PROBLEM)
    answer = tsumego_root.to_gtp(min(problem.accept), problem.size)
    assert tsumego_root.main([str(PROBLEM), "--budget", "300", "--after-answer"]) == 0
    assert f"after {answer}: W to play" in capsys.readouterr().out
