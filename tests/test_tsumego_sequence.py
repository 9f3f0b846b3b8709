"""Whole-sequence checking (engine.tsumego.sequence): a problem's answer tree is read
whole, every defence the file gives is played, and a run is right only when every line
ends right."""

import io
from pathlib import Path

from engine.game.coords import from_gtp
from engine.tsumego.problem import load_sgf_problem
from engine.tsumego.sequence import line_seed, solve_sequence, walk
from engine.tsumego.solve import position, solve
from engine.tsumego.sweep import ResultsFile, Settings, plan, row_key, run_sweep

GO19 = Path(__file__).parent.parent / "problems" / "go" / "19x19"
SPEC = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"

# Black kills White's A9-B9 in the corner: C9 (White answers A8 or D9) or A8 (White C9)
TREE = """(;FF[4]GM[1]SZ[9]PL[B]TG[kill]VW[aa:ee]AB[bb][cb][db][dc]AW[aa][ba]
(;B[ca](;W[ab];B[ac]C[RIGHT])(;W[da];B[ab]C[RIGHT])(;W[ea]C[WRONG: a pass]))
(;B[ab];W[ca];B[da]C[RIGHT])(;B[ea]C[WRONG]))"""


def tree_problem(tmp_path):
    path = tmp_path / "corner-capture.sgf"
    path.write_text(TREE)
    return load_sgf_problem(path)


def v(text):
    return from_gtp(text, 9)


def test_the_whole_answer_tree_is_read(tmp_path):
    problem = tree_problem(tmp_path)
    assert problem.accept == {v("C9"), v("A8")} and problem.reject == {v("E9")}
    c9, a8, e9 = problem.lines
    assert c9[:2] == (v("C9"), True) and e9[:2] == (v("E9"), False)
    assert [(m, right) for m, right, _ in c9[2]] == [(v("A8"), True), (v("D9"), True),
                                                    (v("E9"), False)]
    assert c9[2][0][2] == ((v("A7"), True, ()),)
    assert a8[2] == ((v("C9"), True, ((v("D9"), True, ()),)),)


def scripted(answers):
    """A solver that plays ``answers[moves so far]`` (GTP text)."""
    return lambda state, played: v(answers[tuple(played)])


def test_every_defence_the_file_marks_right_is_a_line(tmp_path):
    problem = tree_problem(tmp_path)
    state = position(problem)
    c9, a8, d9 = v("C9"), v("A8"), v("D9")
    # C9: White's A8 and D9 are lines (its E9, marked WRONG, is not), both answered
    right = scripted({(): "C9", (c9, a8): "A7", (c9, d9): "A8"})
    assert walk(state, problem.lines, right) == (2, 2)
    # one defence answered off the file's tree: that line is a miss
    assert walk(state, problem.lines, scripted({(): "C9", (c9, a8): "A7",
                                                (c9, d9): "E8"})) == (1, 2)
    # a first move the file marks wrong, or does not know, is one missed line
    assert walk(state, problem.lines, scripted({(): "E9"})) == (0, 1)
    assert walk(state, problem.lines, scripted({(): "E5"})) == (0, 1)
    # the other first move has one line
    assert walk(state, problem.lines, scripted({(): "A8", (a8, c9): "D9"})) == (1, 1)


def test_a_file_of_first_moves_is_the_first_move_check():
    problem = load_sgf_problem(GO19 / "bulky-five-live.sgf")
    plain = solve(problem, SPEC, 1000, 0, restrict=True)
    whole = solve_sequence(problem, SPEC, 1000, 0, restrict=True)
    assert whole.move == plain.move and whole.correct == plain.correct
    assert whole.lines == ("1/1" if plain.correct else "0/1")


def test_the_engine_plays_a_tree_out(tmp_path):
    problem = tree_problem(tmp_path)
    out = solve_sequence(problem, SPEC, 500, 0, restrict=True)
    good, total = map(int, out.lines.split("/"))
    assert 1 <= total <= 2 and out.correct == (good == total)
    # the line searches are seeded by the run's seed and the line alone
    assert line_seed(7, (1, 2)) == line_seed(7, (1, 2)) != line_seed(7, (2, 1))


def test_a_sequence_run_is_its_own_configuration():
    job = ("p", SPEC, 500, 0, True)
    plain, whole = Settings(version="x"), Settings(version="x", sequence=True)
    assert plain.stamp(job)["sequence"] == "" and whole.stamp(job)["sequence"] == "1"
    row = dict(zip(("problem", "algo", "budget", "seed", "restrict"), job))
    assert row_key({**row, **plain.stamp(job)}) != row_key({**row, **whole.stamp(job)})


def test_a_sweep_keeps_sequence_and_first_move_rows_apart(tmp_path):
    problems = [load_sgf_problem(GO19 / "straight-three-kill.sgf")]
    jobs = plan(problems, ["uct"], [16], 1)
    results = ResultsFile(tmp_path / "r.csv")
    log = io.StringIO()
    run_sweep(problems, jobs, results, workers=1, progress=False, log=log)
    run_sweep(problems, jobs, results, workers=1, progress=False, log=log)
    assert log.getvalue() == ""        # the same settings again: nothing run, nothing said
    whole = Settings(sequence=True)
    rows, _ = run_sweep(problems, jobs, results, workers=1, settings=whole, progress=False,
                        log=log)
    assert "ran with another sequence;" in log.getvalue()
    assert [(r["sequence"], r["lines"]) for r in rows] == [
        ("1", "1/1" if rows[0]["correct"] else "0/1")]
    assert len(results.rows()) == 2
