"""Solving and sweeping (engine.tsumego.solve, engine.tsumego.sweep, nakade solve):
a tiny sweep end to end, resuming an interrupted one, the process pool, an in-process Dask
cluster, GNU Go as an external baseline, back-end specs with options, and runs restricted
to the problem's region."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game.coords import PASS, from_gtp
from engine.tsumego import sweep
from engine.tsumego.frame import frame_problem, problem_region
from engine.tsumego.problem import load_problems, load_sgf_problem
from engine.tsumego.solve import (COLUMNS, REQUIRED_COLUMNS, job_seed, position,
                                  region_mask, searcher, solve, solve_gtp)
from engine.tsumego.sweep import ResultsFile, Settings, job_key, plan, run_sweep

ROOT = Path(__file__).parent.parent
EASY = ROOT / "problems" / "go" / "19x19" / "straight-three-kill.sgf"
NINE = ROOT / "problems" / "go" / "9x9" / "pyramid-four-kill.sgf"
SUITE = Path(__file__).parent / "data" / "tsumego" / "suite.tst"
GNUGO = "/usr/games/gnugo --mode gtp --level 1"


@pytest.fixture(scope="module")
def problems():
    report = load_problems([EASY, NINE, SUITE])
    return [p for p in report.problems if p.name in ("straight-three-kill",
                                                      "pyramid-four-kill", "suite:10")]


def keys(rows):
    return sorted(job_key(r) for r in rows)


def test_seeds_depend_on_the_run_coordinates_only():
    assert job_seed("p", "uct", 100, 0) == job_seed("p", "uct", 100, 0)
    seeds = {job_seed(p, a, b, s) for p in "pq" for a in ("uct", "shot")
             for b in (100, 200) for s in range(3)}
    assert len(seeds) == 24 and all(0 <= s < 2 ** 63 for s in seeds)


def test_a_run_is_reproducible_and_reads_an_easy_problem():
    problem = load_sgf_problem(EASY)
    first = solve(problem, "uct", 2000, 0)
    again = solve(problem, "uct", 2000, 0)
    assert (first.move, first.correct) == (again.move, again.correct)
    assert first.move == "B19" and first.correct      # the vital point
    assert first.as_row()["problem"] == "straight-three-kill"


def test_composed_go_problems_are_framed_and_tst_positions_are_not(problems):
    by_name = {p.name: p for p in problems}
    framed = position(by_name["straight-three-kill"])
    assert sum(1 for p in framed.points() if framed.color_at(p)) > 200
    raw = position(by_name["suite:10"])
    assert raw.board().tolist() == by_name["suite:10"].state.board().tolist()
    bare = position(by_name["straight-three-kill"], use_frame=False)
    assert sum(1 for p in bare.points() if bare.color_at(p)) == 12


def test_plan_runs_the_cheapest_budgets_first(problems):
    jobs = plan(problems, ["uct", "shot"], [50, 10], 2)
    assert len(jobs) == 3 * 2 * 2 * 2
    assert [j.budget for j in jobs] == sorted(j.budget for j in jobs)
    with_gtp = plan(problems, ["uct"], [10], 1, gtp=GNUGO)
    assert [j for j in with_gtp if j.algo == "gnugo"][0].budget == 0


def test_tiny_sweep_end_to_end(tmp_path, problems):
    jobs = plan(problems, ["uct", "shot"], [16, 32], 1)
    rows, failures = run_sweep(problems, jobs, ResultsFile(tmp_path / "r.csv"), workers=1,
                               progress=False)
    assert failures == [] and keys(rows) == sorted(j.key for j in jobs)
    with open(tmp_path / "r.csv", newline="") as f:
        assert tuple(next(csv.reader(f))) == COLUMNS
    for row in rows:
        assert isinstance(row["correct"], bool) and row["seconds"] >= 0
        assert row["move"]


def test_an_interrupted_sweep_resumes_without_redoing_or_losing_work(tmp_path, problems,
                                                                     monkeypatch):
    jobs = plan(problems, ["uct"], [16, 32], 2)
    results = ResultsFile(tmp_path / "r.csv")
    run_sweep(problems, jobs[:5], results, workers=1, progress=False)
    # the process died while writing the sixth row
    with open(results.path, "a") as f:
        f.write("suite:10,uct,32,1,C")
    ran = []
    real = sweep.execute
    monkeypatch.setattr(sweep, "execute", lambda prepared, job, settings:
                        ran.append(job) or real(prepared, job, settings))
    rows, _ = run_sweep(problems, jobs, results, workers=1, progress=False)
    assert sorted(ran) == sorted(j.key for j in jobs[5:])
    assert keys(rows) == sorted(j.key for j in jobs)
    assert len(results.rows()) == len(jobs)           # no duplicates, no torn line
    ran.clear()
    run_sweep(problems, jobs, results, workers=1, progress=False)
    assert ran == []                                   # everything was done


def test_a_failing_job_is_reported_and_left_for_later(tmp_path, problems, monkeypatch):
    def explode(prepared, job, settings):
        raise RuntimeError("boom")
    monkeypatch.setattr(sweep, "execute", explode)
    log = tmp_path / "log.txt"
    with open(log, "w") as out:
        rows, failures = run_sweep(problems, plan(problems, ["uct"], [8], 1),
                                   ResultsFile(tmp_path / "r.csv"), workers=1,
                                   progress=False, log=out)
    assert rows == [] and len(failures) == 3
    assert "boom" in log.read_text()


def test_the_local_process_pool(tmp_path, problems):
    jobs = plan(problems, ["uct", "shot"], [16], 1)
    rows, failures = run_sweep(problems, jobs, ResultsFile(tmp_path / "r.csv"), workers=2,
                               progress=False)
    assert failures == [] and keys(rows) == sorted(j.key for j in jobs)


def test_the_dask_path_on_an_in_process_cluster(tmp_path, problems):
    distributed = pytest.importorskip("dask.distributed")
    jobs = plan(problems, ["uct"], [16], 2)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        rows, failures = run_sweep(problems, jobs, ResultsFile(tmp_path / "r.csv"),
                                   dask=client, progress=False)
    assert failures == [] and keys(rows) == sorted(j.key for j in jobs)
    serial, _ = run_sweep(problems, jobs, ResultsFile(tmp_path / "s.csv"), workers=1,
                          progress=False)
    moves = lambda rs: {(r["problem"], r["seed"]): r["move"] for r in rs}   # noqa: E731
    assert moves(rows) == moves(serial)                # same seeds, same answers


def run_script(*args) -> subprocess.CompletedProcess:
    """nakade solve run as a command, the way a user runs it."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "engine", "solve",
                           *map(str, args)], cwd=ROOT, env=dict(os.environ, PYTHONPATH=path),
                          capture_output=True, text=True, timeout=600)


def test_the_script_writes_every_output(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    done = run_script(str(EASY), str(NINE), "--algo", "uct,shot", "--budgets", "8,16",
                      "--seeds", "1", "--out", str(out), "--workers", "1",
                      "--no-progress")
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["problems"] == 2 and summary["rows"] == 8
    assert {(r["algo"], r["budget"]) for r in summary["rates"]} == {
        ("uct", 8), ("uct", 16), ("shot", 8), ("shot", 16)}
    for r in summary["rates"]:
        assert r["ci95"][0] <= r["rate"] <= r["ci95"][1]
    per_problem = (out / "per_problem.md").read_text()
    assert "straight-three-kill" in per_problem
    assert "| uct | 16 | kill | " in per_problem      # the kinds table
    assert (out / "solve_rate.png").read_bytes()[:4] == b"\x89PNG"
    assert len((out / "results.csv").read_text().splitlines()) == 9


def test_the_script_refuses_an_unknown_back_end(tmp_path):
    done = run_script(str(EASY), "--algo", "nope", "--out", str(tmp_path))
    assert done.returncode != 0


@pytest.mark.gnugo
def test_gnugo_as_a_baseline(tmp_path, problems):
    by_name = {p.name: p for p in problems}
    outcome = solve_gtp(by_name["straight-three-kill"], GNUGO)
    assert (outcome.algo, outcome.budget, outcome.seed) == ("gnugo", 0, 0)
    assert outcome.move == "B19" and outcome.correct
    jobs = plan(problems, ["uct"], [8], 1, gtp=GNUGO)
    rows, failures = run_sweep(problems, jobs, ResultsFile(tmp_path / "r.csv"), workers=1,
                               settings=Settings(gtp=GNUGO), progress=False)
    assert failures == []
    assert {r["problem"] for r in rows if r["algo"] == "gnugo"} == set(by_name)


# -- back-end specs ---------------------------------------------------------------------------

def test_a_spec_builds_its_back_end_with_its_own_options_on_top():
    built = searcher("uct:c=0.5", seed=3, options={"c": "0.9", "expand_after": "4"})
    params = built.options()
    assert params["c"] == 0.5 and params["expand_after"] == 4 and params["seed"] == 3
    assert params["resign_threshold"] == 0          # a tsumego run always names a move
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        searcher("uct:bogus=1")
    with pytest.raises(ValueError, match="unknown back end"):
        searcher("nope:c=1")


def test_the_spec_is_the_label_and_picks_the_seed():
    problem = load_sgf_problem(EASY)
    plain, tuned = solve(problem, "uct", 64, 0), solve(problem, "uct:c=0.5", 64, 0)
    assert (plain.algo, tuned.algo) == ("uct", "uct:c=0.5")
    assert job_seed(EASY.stem, "uct", 64, 0) != job_seed(EASY.stem, "uct:c=0.5", 64, 0)


def test_the_script_runs_specs_and_labels_everything_with_them(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    done = run_script(str(EASY), "--algo", "uct,uct:c=0.5", "--budgets", "8",
                      "--seeds", "1", "--out", str(out), "--workers", "1",
                      "--no-progress")
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert {r["label"] for r in summary["rates"]} == {"uct", "uct:c=0.5"}
    assert summary["restrict"] is False
    assert "uct:c=0.5@8" in (out / "per_problem.md").read_text()
    with open(out / "results.csv", newline="") as f:
        assert {row["algo"] for row in csv.DictReader(f)} == {"uct", "uct:c=0.5"}


@pytest.mark.parametrize("spec, why", [("uct,uct:bogus=1", "unknown option 'bogus'"),
                                       ("uct:c=x", "needs a number"),
                                       ("uct:c", "expected key=value"),
                                       ("nope", "unknown back end")])
def test_a_bad_spec_stops_the_script_before_any_run(tmp_path, spec, why):
    done = run_script(str(EASY), "--algo", spec, "--out", str(tmp_path / "out"))
    assert done.returncode != 0
    assert why in done.stderr
    assert not (tmp_path / "out").exists()          # nothing ran, nothing was written


def test_a_bad_option_for_every_back_end_stops_the_script_too(tmp_path):
    done = run_script(str(EASY), "--algo", "uct,shot", "--option", "c=2",
                      "--out", str(tmp_path / "out"))
    assert done.returncode != 0
    assert "--algo shot" in done.stderr   # shot has no c


# -- restricted runs --------------------------------------------------------------------------

VW_PROBLEM = Path(__file__).parent / "data" / "tsumego" / "right.sgf"


def test_the_region_is_the_vw_box_when_the_file_has_one():
    problem = load_sgf_problem(VW_PROBLEM)      # 9x9, VW[aa:ee], stones in rows/cols 0-3
    box = {from_gtp(f"{c}{r}", 9) for c in "ABCDE" for r in range(5, 10)}
    assert problem_region(problem) == box
    mask = region_mask(problem, problem.state)
    assert mask.dtype.name == "uint8" and mask.shape == (11 * 11,)
    assert set(mask.nonzero()[0]) == box


def test_without_vw_the_region_is_the_stones_box_grown_by_one_as_in_the_frame():
    problem = load_sgf_problem(EASY)            # stones A17-E19: rows 0-2, columns 0-4
    box = {from_gtp(f"{c}{r}", 19) for c in "ABCDEF" for r in range(16, 20)}
    assert problem_region(problem) == box == frame_problem(problem).region


def every_problem():
    return load_problems([ROOT / "problems"]).problems


@pytest.mark.parametrize("problem", every_problem(), ids=lambda p: p.name)
def test_every_correct_answer_of_the_collection_lies_in_its_region(problem):
    # else a restricted run could not solve it
    assert problem.accept and problem.accept <= problem_region(problem)


def test_restricted_runs_answer_inside_the_region_and_unrestricted_ones_need_not(problems):
    # the bare board (no frame): an unrestricted search answers all over it
    inside = outside = 0
    for problem in problems:
        region = problem_region(problem) | {PASS}
        state = position(problem, use_frame=False)
        for seed in range(4):
            free = solve(problem, "uct", 32, seed, state=state)
            held = solve(problem, "uct", 32, seed, state=state, restrict=True)
            assert held.restrict and not free.restrict
            assert from_gtp(held.move, problem.size) in region
            inside += 1
            outside += from_gtp(free.move, problem.size) not in region
    assert inside == 4 * len(problems) and outside > 0


def test_restricted_and_unrestricted_rows_are_different_jobs(tmp_path, problems):
    results = ResultsFile(tmp_path / "r.csv")
    free = plan(problems, ["uct"], [16], 1)
    held = plan(problems, ["uct"], [16], 1, restrict=True)
    run_sweep(problems, free, results, workers=1, progress=False)
    rows, failures = run_sweep(problems, held, results, workers=1, progress=False)
    assert failures == [] and keys(rows) == sorted(j.key for j in held)
    assert all(r["restrict"] for r in rows)
    assert len(results.rows()) == 2 * len(problems)
    with open(results.path, newline="") as f:
        reader = csv.DictReader(f)
        assert {line["restrict"] for line in reader} == {"0", "1"}
        assert tuple(reader.fieldnames) == COLUMNS


def test_a_results_file_of_older_columns_is_read_and_upgraded(tmp_path, problems):
    path = tmp_path / "r.csv"
    assert COLUMNS[:len(REQUIRED_COLUMNS)] == REQUIRED_COLUMNS
    path.write_text(",".join(REQUIRED_COLUMNS) + "\n"
                    "straight-three-kill,uct,16,0,B19,1,0.0100\n")
    results = ResultsFile(path)
    [old] = results.rows()
    assert old["restrict"] is False and old["correct"] is True and old["version"] == ""
    jobs = plan(problems[:1], ["uct"], [16], 1) + plan(problems[:1], ["uct"], [16], 1,
                                                       restrict=True)
    log = io.StringIO()
    rows, _ = run_sweep(problems[:1], jobs, results, workers=1, progress=False, log=log)
    # the old row's configuration is unknown: kept, not counted, its job run again
    assert keys(rows) == sorted(j.key for j in jobs)
    assert all(r["version"] == Settings().version for r in rows)
    assert "1 row(s) of these jobs ran with another frame/version" in log.getvalue()
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(COLUMNS) and len(lines) == 4
    # no configuration, no answer columns, no sequence columns
    assert lines[1] == "straight-three-kill,uct,16,0,B19,1,0.0100,0,,,,,,,,,"
    assert all(r["status"] in ("proved", "refuted", "ko", "found") and r["pv"] for r in rows)


def test_the_script_says_a_run_was_restricted(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    done = run_script(str(EASY), str(NINE), "--algo", "uct", "--budgets", "8",
                      "--seeds", "1", "--out", str(out), "--workers", "1",
                      "--no-progress", "--restrict", "--no-frame")
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["restrict"] is True and summary["frame"] is False
    assert [(r["label"], r["restrict"]) for r in summary["rates"]] == [("uct+restrict", True)]
    assert "uct+restrict@8" in (out / "per_problem.md").read_text()
    with open(out / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and {r["restrict"] for r in rows} == {"1"}
    regions = {p.name: problem_region(p) | {PASS}
               for p in load_problems([EASY, NINE]).problems}
    for r in rows:
        size = 19 if r["problem"] == EASY.stem else 9
        assert from_gtp(r["move"], size) in regions[r["problem"]]


def test_best_names_an_explicit_restricted_spec_and_misses_get_a_diagram(tmp_path):
    pytest.importorskip("matplotlib")
    from engine.tsumego import best
    out = tmp_path / "out"
    done = run_script(str(EASY), str(NINE), "--algo", "best,uct", "--budgets", "20",
                      "--seeds", "1", "--out", str(out), "--workers", "1", "--no-progress")
    assert done.returncode == 0, done.stderr
    with open(out / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {(r["algo"], r["restrict"]) for r in rows} == {(best.SPEC, "1"), ("uct", "0")}
    assert "best" not in {r["algo"] for r in rows}
    for r in rows:
        assert r["status"] in ("proved", "refuted", "ko", "found")
        assert r["pv"].split()[0] == r["move"] and 0 < int(r["stable_at"]) <= 20
    assert not (out / "misses").exists()       # diagrams only when asked for
    missed = {r["problem"] for r in rows if r["correct"] == "0"}
    # asked for afterwards, the finished sweep plays nothing and draws from its rows
    again = run_script(str(EASY), str(NINE), "--algo", "best,uct", "--budgets", "20",
                       "--seeds", "1", "--out", str(out), "--workers", "1", "--no-progress",
                       "--diagrams", str(tmp_path / "misses"))
    assert again.returncode == 0, again.stderr
    assert (out / "results.csv").read_text().count("\n") == len(rows) + 1
    drawn = {p.stem for p in (tmp_path / "misses").glob("*.svg")}
    assert drawn == missed
