"""Matches end to end: planning and seeds, the resumable results file, the process pool,
the Dask path (an in-process cluster), the command line against GNU Go, and our own engine
started side by side on a cold numba cache."""

import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from engine.match.legacy import PRESETS_MARKER
from engine.match.referee import GameSetup
from engine.match import cells
from engine.match.records import write_sgfs
from engine.match.runner import (RESULTS_FILE, EngineSpec, MatchConfig, MatchMismatch,
                                 ResultsFile, WarmUpFailed, dask_backend, local_executor, plan,
                                 read_results, run_match, warm_up)
from gnugo_client import GNUGO

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(Path(__file__).with_name("fake_gtp_engine.py"))
SETUP = GameSetup(game="go", size=5, komi=7.5, command_timeout=10, startup_timeout=60,
                  move_timeout=10)


def fake_command(*args) -> str:
    return shlex.join([sys.executable, FAKE, *args])


def make_config(games=2, **fields) -> MatchConfig:
    """A plays C3 then passes, B only passes: A wins every game by area."""
    fields.setdefault("a", EngineSpec("a", fake_command("--moves", "C3 pass")))
    fields.setdefault("b", EngineSpec("b", fake_command("--moves", "pass pass")))
    return MatchConfig(setup=SETUP, games=games, **fields)


class CountingExecutor(ThreadPoolExecutor):
    def __init__(self):
        super().__init__(max_workers=2)
        self.submitted = 0

    def submit(self, fn, *args, **kwargs):
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def read_rows(out: Path) -> list[dict]:
    lines = (out / "results.jsonl").read_text().splitlines()
    assert "match" in json.loads(lines[0])
    return [json.loads(line) for line in lines[1:]]


def test_plan_alternates_colours_and_pairs_share_an_opening():
    config = make_config(games=4, random_opening=2, seed=7,
                         a=EngineSpec("a", fake_command("--name", "{seed}")))
    jobs = plan(config)
    assert [(j.black, j.white) for j in jobs] == [("a", "b"), ("b", "a")] * 2
    assert jobs[0].opening == jobs[1].opening and len(jobs[0].opening) == 2
    assert jobs[0].opening != jobs[2].opening
    seeds = {j.black_argv[-1] for j in jobs if j.black == "a"} | {
        j.white_argv[-1] for j in jobs if j.white == "a"}
    assert len(seeds) == 4 and all(s.isdigit() for s in seeds)
    assert plan(config) == jobs
    assert plan(replace(config, seed=8)) != jobs


def test_fixed_colours_give_every_game_its_own_opening():
    jobs = plan(make_config(games=3, alternate=False, openings=("C3", "D4 B2")))
    assert all(j.black == "a" for j in jobs)
    assert [len(j.opening) for j in jobs] == [1, 2, 1]


def test_a_bad_opening_or_two_kinds_of_opening_are_refused():
    with pytest.raises(ValueError):
        make_config(openings=("C3 C3",))
    with pytest.raises(ValueError):
        make_config(openings=("C3",), random_opening=2)


def test_a_match_records_every_game_and_summarises(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        summary = run_match(make_config(), tmp_path, pool, progress=False)
    assert (summary.as_black.wins, summary.as_white.wins, summary.void) == (1, 1, 0)
    rows = sorted(read_rows(tmp_path), key=lambda r: r["index"])
    assert [(r["black"], r["winner"], r["result"]) for r in rows] == [
        ("a", "a", "B+17.5"), ("b", "a", "W+32.5")]
    assert rows[1]["sequence"] == ["B pass", "W C3", "B pass", "W pass"]
    assert len(rows[1]["notes"]) == len(rows[1]["winrates"]) == 4
    header, recorded, _, _ = read_results(tmp_path / "results.jsonl")
    assert write_sgfs(header, recorded, tmp_path / "sgf") == (2, 0)
    sgf = (tmp_path / "sgf" / "game-0001.sgf").read_text()
    assert "RE[W+32.5]" in sgf and "W[cc]" in sgf and " s]" in sgf
    assert not (tmp_path / "games").exists()      # no SGF is stored beside the rows
    assert "A win rate: 100.0%" in (tmp_path / "summary.txt").read_text()


def test_a_match_resumes_after_an_interruption(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        run_match(make_config(games=2), tmp_path, pool, warm=None, progress=False)
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"index": 2, "bla')  # a row cut short by a kill
    counting = CountingExecutor()
    with counting:
        summary = run_match(make_config(games=3), tmp_path, counting, warm=None,
                            progress=False)
    assert counting.submitted == 1
    assert sorted(r["index"] for r in read_rows(tmp_path)) == [0, 1, 2]
    assert summary.total.games == 3
    again = CountingExecutor()
    with again:
        run_match(make_config(games=3), tmp_path, again, warm=None, progress=False)
    assert again.submitted == 0


def test_a_results_file_of_another_match_is_refused(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        run_match(make_config(), tmp_path, pool, warm=None, progress=False)
        with pytest.raises(MatchMismatch):
            run_match(make_config(seed=1), tmp_path, pool, warm=None, progress=False)


def test_python_stands_for_this_interpreter_and_old_files_still_resume(tmp_path):
    """``{python}`` runs the engine with this interpreter and is what the results file
    keeps; a file written when the same command said ``.venv/bin/python`` resumes."""
    a = EngineSpec("a", "{python} " + shlex.join([FAKE, "--moves", "C3 pass"]))
    config = make_config(games=2, a=a)
    assert plan(config)[0].black_argv[0] == sys.executable
    with ThreadPoolExecutor(2) as pool:
        run_match(config, tmp_path, pool, warm=None, progress=False)
    results = tmp_path / "results.jsonl"
    header, *rows = results.read_text().splitlines()
    assert json.loads(header)["match"]["a"].startswith("{python} ")
    results.write_text("\n".join([header.replace("{python}", ".venv/bin/python"), *rows])
                       + "\n")
    counting = CountingExecutor()
    with counting:
        summary = run_match(make_config(games=2, a=a), tmp_path, counting, warm=None,
                            progress=False)
    assert counting.submitted == 0 and summary.total.games == 2
    with pytest.raises(MatchMismatch):    # any other difference still tells matches apart
        run_match(make_config(games=2, a=a, seed=1), tmp_path, counting, warm=None,
                  progress=False)


def test_an_engine_that_does_not_work_stops_the_match_before_it_starts(tmp_path):
    for broken in (str(tmp_path / "no-such-engine"), fake_command("--fault", "crash"),
                   fake_command("--refuse", "boardsize")):
        with pytest.raises(WarmUpFailed, match="engine B"):
            warm_up(make_config(b=EngineSpec("b", broken)))


def test_an_empty_engine_command_is_refused():
    with pytest.raises(ValueError, match="empty command"):
        EngineSpec("a", "  ")


def test_games_run_in_a_process_pool(tmp_path):
    with local_executor(2) as pool:
        summary = run_match(make_config(), tmp_path, pool, progress=False)
    assert summary.total.wins == 2 and len(read_rows(tmp_path)) == 2


def test_games_run_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        executor, warm = dask_backend(client)
        summary = run_match(make_config(), tmp_path, executor, warm, progress=False)
    assert summary.total.wins == 2 and summary.void == 0
    assert len(read_rows(tmp_path)) == 2


def run_cli(*args, env=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", "match", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.gnugo
def test_two_games_of_gnu_go_through_the_command_line(tmp_path):
    gnugo = f"{GNUGO} --mode gtp --level 1 --chinese-rules"
    done = run_cli("--a", gnugo, "--b", fake_command("--moves", "pass " * 40),
                   "--games", "2", "--random-opening", "2", "--workers", "2",
                   "--out", str(tmp_path), "--no-progress", "--sgf", str(tmp_path / "sgf"))
    assert done.returncode == 0, done.stderr
    assert "games: 2 counted, 0 void" in done.stdout
    rows = read_rows(tmp_path)
    assert {r["black"] for r in rows} == {"a", "b"}
    assert all(r["engines"]["a"].startswith("GNU Go") for r in rows)
    assert all(r["reason"] == "score" and r["moves"] > 2 for r in rows)
    assert len(list((tmp_path / "sgf").glob("*.sgf"))) == 2


def test_the_command_line_refuses_a_half_pair():
    done = run_cli("--a", "x", "--white", "y")
    assert done.returncode == 2 and "--a and --b" in done.stderr


def our_engine(playouts: int) -> str:
    return shlex.join([sys.executable, str(ROOT / "gtp_main.py"), "--preset", "paper",
                       "--size", "5",
                       "--playouts", str(playouts)]) + " --seed {seed}"


@pytest.mark.slow
def test_our_engines_side_by_side_on_a_cold_numba_cache(tmp_path, monkeypatch):
    """No warm-up: both engines of the game compile their kernels at the same time into an
    empty cache (the engines' own; this process's kernels are already loaded)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    # a first move that compiles takes far longer than a warm one: allow for it
    setup = replace(SETUP, max_moves=8, move_timeout=300, command_timeout=300)
    config = MatchConfig(a=EngineSpec("a", our_engine(30)), b=EngineSpec("b", our_engine(60)),
                         setup=setup, games=1)
    with ThreadPoolExecutor(1) as pool:
        summary = run_match(config, tmp_path / "match", pool, warm=None, progress=False)
    [row] = read_rows(tmp_path / "match")
    assert summary.void == 0 and row["reason"] != "time", row["detail"]
    assert row["playouts"]["a"] > 0 and row["playouts"]["b"] > 0
    assert any((tmp_path / "numba-cache").rglob("*.nbi"))


def test_our_engine_plays_a_match_after_the_warm_up(tmp_path):
    config = MatchConfig(a=EngineSpec("a", our_engine(30)), b=EngineSpec("b", our_engine(60)),
                         setup=replace(SETUP, max_moves=8), games=1, random_opening=1)
    with ThreadPoolExecutor(1) as pool:
        summary = run_match(config, tmp_path, pool, progress=False)
    [row] = read_rows(tmp_path)
    assert summary.void == 0 and row["engines"]["a"].startswith("nakade")
    assert row["playouts"]["a"] > 0 and row["playouts"]["b"] > 0


def test_a_game_whose_engine_cannot_start_is_void(tmp_path):
    config = make_config(b=EngineSpec("b", str(tmp_path / "no-such-engine")))
    with ThreadPoolExecutor(2) as pool:
        summary = run_match(config, tmp_path, pool, warm=None, progress=False)
    assert summary.void == 2 and summary.total.games == 0
    assert all(r["reason"] == "error" and "sgf" not in r for r in read_rows(tmp_path))


def _published_cells():
    """(module with MASTER_SEED, cell) of every published-table and strength cell."""
    from engine.match import strength
    from engine.reproduce import tables
    return ([(tables, c) for t in tables.TABLES for c in t.cells]
            + [(strength, c) for c in strength.CELLS])


def test_every_published_cell_pins_the_paper_preset_and_resumes_a_pre_presets_file(
        tmp_path):
    """Every cell that names a preset pins the papers' plain back ends; a results file
    written before presets existed (its commands had no --preset and meant those back
    ends, no marker) is resumed by the cell as it stands now.  A cell of the default engine
    (no --preset: the Pachi cells) postdates presets and has no such file.  The file is
    made here, so the test does not depend on which results are committed."""
    for module, cell in _published_cells():
        ours = [c for c in (cell.a, cell.b) if "gtp_main.py" in c]
        if ours and all(" --preset " not in c for c in ours):
            continue
        for command in ours:
            assert " --preset paper" in command, (cell.name, command)
        identity = cells.config(cell, 1, module.MASTER_SEED).identity()
        old = {**identity, "a": identity["a"].replace(" --preset paper", ""),
               "b": identity["b"].replace(" --preset paper", "")}
        path = tmp_path / cell.name / RESULTS_FILE
        path.parent.mkdir()
        path.write_text(json.dumps({"match": old}) + "\n" + json.dumps({"index": 0}) + "\n")
        assert list(ResultsFile(path, identity).load()) == [0], cell.name


def test_a_pre_presets_results_file_is_refused_to_our_bare_engine(tmp_path):
    """Without --preset our engine now plays the strong preset: not what the old file
    recorded.  A file written since carries the marker and compares commands exactly."""
    bare = ".venv/bin/python gtp_main.py --size 9 --seed {seed}"
    pinned = ".venv/bin/python gtp_main.py --preset paper --size 9 --seed {seed}"
    old = make_config(a=EngineSpec("a", bare)).identity()
    path = tmp_path / RESULTS_FILE
    path.write_text(json.dumps({"match": old}) + "\n")
    with pytest.raises(MatchMismatch, match="--preset paper"):
        ResultsFile(path, make_config(a=EngineSpec("a", bare)).identity()).load()
    assert ResultsFile(path, make_config(a=EngineSpec("a", pinned)).identity()).load() == {}
    fresh = tmp_path / "new" / RESULTS_FILE
    fresh.parent.mkdir()
    ResultsFile(fresh, make_config(a=EngineSpec("a", bare)).identity()).load()
    assert ResultsFile(fresh, make_config(a=EngineSpec("a", bare)).identity()).load() == {}
    with pytest.raises(MatchMismatch):
        ResultsFile(fresh, make_config(a=EngineSpec("a", pinned)).identity()).load()
