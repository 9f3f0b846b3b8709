"""The integrity of the sweep's and the match's results folders (engine.results_store,
engine.tsumego.sweep, engine.match.runner): every row carries its configuration and a
re-run counts only its own; one writer per folder, the other refused by name; duplicates
never count twice; unreadable lines are moved out with a message; unwritable folders and
full disks are one-line errors; a hung baseline engine cannot hang a sweep; pool workers
die with their parent."""

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import results_store
from engine.results_store import (FolderLock, OutputBusy, ResultsWriteError, append_line,
                                  code_version)
from engine.tsumego.problem import load_problems
from engine.tsumego import cli as solve_cli
from engine.tsumego.sweep import ResultsFile, Settings, job_key, plan, run_sweep

ROOT = Path(__file__).parent.parent
NINE = ROOT / "problems" / "go" / "9x9" / "pyramid-four-kill.sgf"
FAKE = Path(__file__).parent / "fake_gtp_engine.py"


@pytest.fixture(scope="module")
def problems():
    return load_problems([NINE]).problems


def sweep(problems, path, settings=Settings(), seeds=2, log=None):
    return run_sweep(problems, plan(problems, ["uct"], [8], seeds),
                     ResultsFile(path), workers=1, settings=settings, progress=False,
                     log=log or io.StringIO())


def hold_lock(folder: Path):
    """Another process that holds ``folder``'s lock until killed."""
    code = (f"import sys, time; from engine.results_store import FolderLock\n"
            f"with FolderLock({str(folder)!r}):\n    print('held', flush=True)\n"
            f"    time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.readline().strip() == "held"
    return proc


# -- configuration --------------------------------------------------------------------------

def test_every_row_carries_its_configuration(tmp_path, problems):
    settings = Settings(use_frame=False, options=(("c", "0.5"), ("expand_after", "2")))
    rows, _ = sweep(problems, tmp_path / "r.csv", settings)
    assert rows and all(
        (r["frame"], r["options"], r["command"], r["version"]) ==
        ("0", "c=0.5;expand_after=2", "", code_version()) for r in rows)


def test_a_changed_configuration_runs_anew_and_counts_only_its_own_rows(tmp_path, problems):
    path = tmp_path / "r.csv"
    framed, _ = sweep(problems, path)
    log = io.StringIO()
    bare, _ = sweep(problems, path, Settings(use_frame=False), log=log)
    assert len(bare) == len(framed) == 2 and all(r["frame"] == "0" for r in bare)
    assert "2 row(s) of these jobs ran with another frame" in log.getvalue()
    other_code, _ = sweep(problems, path, Settings(version="0.0.0+other"))
    assert len(other_code) == 2 and all(r["version"] == "0.0.0+other" for r in other_code)
    assert len(ResultsFile(path).rows()) == 6
    again, _ = sweep(problems, path)             # the first configuration: nothing to run
    assert again == framed


def test_two_baseline_levels_are_two_configurations(tmp_path, problems):
    path = tmp_path / "r.csv"
    for level in ("1", "2"):
        command = f"{sys.executable} {FAKE} --name gnugo-{level}"
        rows, failures = run_sweep(problems, plan(problems, [], [], 1, gtp=command),
                                   ResultsFile(path), workers=1, progress=False,
                                   settings=Settings(gtp=command), log=io.StringIO())
        # the fake engine does not know reg_genmove: the job fails, for each level anew
        assert rows == [] and len(failures) == 1
    settings = Settings(gtp="x")
    assert settings.stamp(("p", "x", 0, 0, False))["command"] == "x"
    assert settings.stamp(("p", "uct", 8, 0, False))["command"] == ""


# -- one writer, no duplicates --------------------------------------------------------------

def test_a_second_writer_is_refused_by_name(tmp_path, problems):
    holder = hold_lock(tmp_path)
    try:
        with pytest.raises(OutputBusy, match=f"process {holder.pid} on .*wait for it"):
            sweep(problems, tmp_path / "r.csv")
    finally:
        holder.kill()
        holder.wait()
    rows, _ = sweep(problems, tmp_path / "r.csv")   # a dead holder blocks nobody
    assert len(rows) == 2


def test_the_script_refuses_a_busy_folder_in_one_line(tmp_path, capsys):
    holder = hold_lock(tmp_path / "out")
    try:
        code = solve_cli.main([str(NINE), "--algo", "uct", "--budgets", "8", "--seeds", "1",
                              "--out", str(tmp_path / "out"), "--no-progress"])
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and f"in use by process {holder.pid}" in err[0]


def test_the_lock_is_reentrant_within_a_process(tmp_path):
    with FolderLock(tmp_path), FolderLock(tmp_path):
        pass
    with FolderLock(tmp_path):
        pass


def test_duplicate_rows_never_count_twice(tmp_path, problems):
    path = tmp_path / "r.csv"
    rows, _ = sweep(problems, path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + lines[1:]) + "\n")   # two writers' worth of rows
    log = io.StringIO()
    assert len(ResultsFile(path).rows(log)) == 2
    assert "2 duplicate row(s) not counted" in log.getvalue()
    again, _ = sweep(problems, path)
    assert sorted(map(job_key, again)) == sorted(map(job_key, rows)) and len(again) == 2


# -- damaged files --------------------------------------------------------------------------

def test_a_corrupt_middle_line_is_moved_out_and_its_job_runs_again(tmp_path, problems):
    path = tmp_path / "r.csv"
    sweep(problems, path)
    lines = path.read_text().splitlines()
    lines[1] = lines[1][:12] + "\x00garbage,,"
    path.write_text("\n".join(lines) + "\n" + "pyramid-four-kill,uct,8,1,C")  # torn too
    log = io.StringIO()
    rows, failures = sweep(problems, path, log=log)
    assert failures == [] and len(rows) == 2
    assert "line 2 unreadable and a torn last line: moved to r.csv.corrupt" in log.getvalue()
    assert "garbage" in (tmp_path / "r.csv.corrupt").read_text()
    assert "garbage" not in path.read_text()


def test_a_file_that_is_not_a_results_file_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.csv").write_text("name,score\nx,1\n")
    code = solve_cli.main([str(NINE), "--algo", "uct", "--budgets", "8", "--seeds", "1",
                          "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and "not a sweep's results file" in err[-1]


def test_a_full_disk_is_one_line(tmp_path, capsys, monkeypatch):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    (tmp_path / "full.csv").symlink_to("/dev/full")
    with pytest.raises(ResultsWriteError, match="No space left on device; free some"):
        append_line(tmp_path / "full.csv", "x")

    class FullDisk:   # the store's view of the OS: every write fails as on a full disk
        def __getattr__(self, name):
            return getattr(os, name)

        @staticmethod
        def write(fd, data):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(results_store, "os", FullDisk())
    code = solve_cli.main([str(NINE), "--algo", "uct", "--budgets", "8", "--seeds", "1",
                          "--out", str(tmp_path / "out"), "--no-progress", "--workers", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("nakade solve: cannot write ")
    assert "No space left on device; free some disk space" in err[0]


def test_a_special_file_is_never_read(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.csv").symlink_to("/dev/zero")
    code = solve_cli.main([str(NINE), "--algo", "uct", "--budgets", "8", "--seeds", "1",
                          "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and "results.csv is not a regular file" in err[-1]


def test_an_unwritable_output_folder_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    code = solve_cli.main([str(NINE), "--algo", "uct", "--budgets", "8", "--seeds", "1",
                          "--out", str(tmp_path / "file" / "out"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"nakade solve: cannot write {tmp_path / 'file' / 'out'}")


# -- engines and workers --------------------------------------------------------------------

def test_a_hanging_baseline_engine_fails_its_job_in_time(tmp_path, problems):
    command = f"{sys.executable} {FAKE} --hang-on loadsgf"
    start = time.monotonic()
    rows, failures = run_sweep(problems, plan(problems, [], [], 1, gtp=command),
                               ResultsFile(tmp_path / "r.csv"), workers=1, progress=False,
                               settings=Settings(gtp=command, gtp_timeout=1.0),
                               log=io.StringIO())
    assert rows == [] and len(failures) == 1
    assert type(failures[0][1]).__name__ == "EngineTimeout"
    assert time.monotonic() - start < 30
    # the engine was killed, not left behind
    found = subprocess.run(["pgrep", "-f", f"{FAKE} --hang-on"], capture_output=True)
    assert found.stdout == b""


def test_pool_workers_and_their_engines_die_with_their_parent(tmp_path):
    """A parent with a worker that runs a hung engine is SIGKILLed: the worker and the
    engine go too."""
    marker = tmp_path / "pids"
    code = f"""
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from engine.lifetime import die_with_parent
from engine.match.gtp_client import GtpClient, kill_engines

def init(parent):
    die_with_parent(parent, kill_engines)

def work(path):
    client = GtpClient([sys.executable, {str(FAKE)!r}, "--hang-on", "name"])
    with open(path, "w") as f:
        f.write(f"{{os.getpid()}} {{client.proc.pid}}")
    client.ask("name")

if __name__ == "__main__":
    with ProcessPoolExecutor(1, initializer=init, initargs=(os.getpid(),)) as pool:
        pool.submit(work, {str(marker)!r})
        time.sleep(60)
"""
    parent = subprocess.Popen([sys.executable, "-c", code],
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    while not (marker.exists() and len(marker.read_text().split()) == 2):
        assert time.monotonic() < deadline and parent.poll() is None
        time.sleep(0.1)
    worker, engine = map(int, marker.read_text().split())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in (worker, engine)):
        assert time.monotonic() < deadline, "the worker or its engine outlived the parent"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


# -- matches --------------------------------------------------------------------------------

def match_config(games=2, seed=0):
    from engine.match.referee import GameSetup
    from engine.match.runner import EngineSpec, MatchConfig
    setup = GameSetup(game="go", size=5, komi=7.5, command_timeout=10, startup_timeout=60,
                      move_timeout=10)
    engine = [sys.executable, str(FAKE), "--moves"]
    return MatchConfig(a=EngineSpec("a", " ".join(engine + ["C3"])),
                       b=EngineSpec("b", " ".join(engine + ["pass"])), setup=setup,
                       games=games, seed=seed)


def play(config, out):
    from concurrent.futures import ThreadPoolExecutor
    from engine.match.runner import run_match
    with ThreadPoolExecutor(2) as pool:
        return run_match(config, out, pool, warm=None, progress=False)


def test_match_rows_carry_the_match_and_the_code(tmp_path):
    config = match_config()
    play(config, tmp_path)
    rows = [json.loads(line) for line in
            (tmp_path / "results.jsonl").read_text().splitlines()[1:]]
    assert {(r["match"], r["code"]) for r in rows} == {(config.digest(), code_version())}


def test_a_second_match_on_one_folder_is_refused_by_name(tmp_path):
    holder = hold_lock(tmp_path)
    try:
        with pytest.raises(OutputBusy, match=f"process {holder.pid} "):
            play(match_config(), tmp_path)
    finally:
        holder.kill()
        holder.wait()


def test_match_readers_count_each_game_once(tmp_path):
    from engine.match.cells import Cell, recorded_rows
    from engine.match.runner import read_results
    play(match_config(), tmp_path / "cell")
    path = tmp_path / "cell" / "results.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + lines[1:]) + "\n")   # two writers' worth of rows
    log = io.StringIO()
    _, rows, _, _ = read_results(path, log)
    assert sorted(rows) == [0, 1]
    assert "2 duplicate row(s) not counted" in log.getvalue()
    cell = Cell("cell", "t", "x", None, "a", "b", match_config().setup, 0, 2)
    assert [r["index"] for r in recorded_rows(tmp_path, cell)] == [0, 1]
    summary = play(match_config(), tmp_path / "cell")
    assert summary.total.games == 2


def test_a_file_that_is_not_a_match_is_refused(tmp_path):
    from engine.results_store import NotAResultsFile
    (tmp_path / "results.jsonl").write_text('{"index": 0}\n')
    with pytest.raises(NotAResultsFile, match="not a match header"):
        play(match_config(), tmp_path)


def test_a_corrupt_match_line_is_moved_out_and_its_game_played_again(tmp_path, capsys):
    play(match_config(), tmp_path)
    path = tmp_path / "results.jsonl"
    lines = path.read_text().splitlines()
    lines[1] = lines[1][:40]
    path.write_text("\n".join(lines) + "\n")
    summary = play(match_config(), tmp_path)
    assert summary.total.games == 2
    assert "line 2 unreadable: moved to results.jsonl.corrupt" in capsys.readouterr().err
    assert len(path.read_text().splitlines()) == 3


def test_another_match_is_refused_naming_what_differs(tmp_path):
    from engine.match.runner import MatchMismatch
    play(match_config(), tmp_path)
    with pytest.raises(MatchMismatch, match=r"differs in seed\)"):
        play(match_config(seed=3), tmp_path)


def run_match_cli(*args):
    return subprocess.run([sys.executable, "-m", "engine", "match", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("flag, value", [
    ("--komi", "nan"), ("--komi", "inf"), ("--workers", "0"), ("--max-moves", "0"),
    ("--max-moves", "-1"), ("--playouts", "0"), ("--move-timeout", "0"),
    ("--seed", str(2**64)), ("--move-time", "1e999"), ("--games", "-1")])
def test_bad_match_values_are_argparse_errors(flag, value):
    done = run_match_cli("--a", "x", "--b", "y", flag, value)
    assert done.returncode == 2 and f"argument {flag}: " in done.stderr
    assert "Traceback" not in done.stderr


def test_the_match_command_line_reports_a_busy_folder_in_one_line(tmp_path):
    holder = hold_lock(tmp_path)
    try:
        done = run_match_cli("--a", f"{sys.executable} {FAKE}", "--b",
                             f"{sys.executable} {FAKE}", "--games", "1", "--out",
                             str(tmp_path), "--no-progress", "--no-warm-up")
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(
        f"nakade match: {tmp_path} is in use by process {holder.pid}")
