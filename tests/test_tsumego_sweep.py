"""Solving and sweeping (engine.tsumego.solve, engine.tsumego.sweep, scripts/solve_tsumego.py):
a tiny sweep end to end, resuming an interrupted one, the process pool, an in-process Dask
cluster, and GNU Go as an external baseline."""

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from engine.tsumego import sweep
from engine.tsumego.problem import load_problems, load_sgf_problem
from engine.tsumego.solve import (COLUMNS, job_seed, position, solve, solve_gtp)
from engine.tsumego.sweep import ResultsFile, Settings, plan, run_sweep

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
    return sorted((r["problem"], r["algo"], r["budget"], r["seed"]) for r in rows)


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


def load_script():
    spec = importlib.util.spec_from_file_location("solve_tsumego",
                                                  ROOT / "scripts" / "solve_tsumego.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_writes_every_output(tmp_path):
    pytest.importorskip("matplotlib")
    script = load_script()
    out = tmp_path / "out"
    code = script.main([str(EASY), str(NINE), "--algo", "uct,shot", "--budgets", "8,16",
                        "--seeds", "1", "--out", str(out), "--workers", "1",
                        "--no-progress"])
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["problems"] == 2 and summary["rows"] == 8
    assert {(r["algo"], r["budget"]) for r in summary["rates"]} == {
        ("uct", 8), ("uct", 16), ("shot", 8), ("shot", 16)}
    for r in summary["rates"]:
        assert r["ci95"][0] <= r["rate"] <= r["ci95"][1]
    assert "straight-three-kill" in (out / "per_problem.md").read_text()
    assert (out / "solve_rate.png").read_bytes()[:4] == b"\x89PNG"
    assert len((out / "results.csv").read_text().splitlines()) == 9


def test_the_script_refuses_an_unknown_back_end(tmp_path):
    script = load_script()
    with pytest.raises(SystemExit):
        script.main([str(EASY), "--algo", "nope", "--out", str(tmp_path)])


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
