"""The engine under faults a careless or hostile user causes (engine.gtp): a closed or full
stderr, SIGINT/SIGTERM during a search or while idle, special and oversized files for
``loadsgf``, an endless input line, a reader that dies, huge and non-finite times, and a
``genmove`` asked after two passes by the side that would lose the count."""

import io
import os
import queue
import signal
import subprocess
import sys
import time

import pytest

from engine.game import sgf
from engine.gtp.protocol import MAX_LINE, Reader, SafeStderr, log
from engine.search.base import MAX_SECONDS, Budget
from gtp_process import GTP_MAIN, REPO, GtpProcess, run_in_process, run_subprocess

QUICK = ["--size", "9", "--playouts", "50"]


def engine_with_stderr(redirect: str, lines: list[str]) -> tuple[str, int]:
    """Run the engine through a shell that redirects (or closes) its stderr."""
    command = f"exec {sys.executable} {GTP_MAIN} {' '.join(QUICK)} {redirect}"
    done = subprocess.run(["bash", "-c", command], input="".join(ln + "\n" for ln in lines),
                          capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    return done.stdout, done.returncode


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_a_closed_or_full_stderr_never_costs_a_reply(redirect):
    if "full" in redirect and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    out, rc = engine_with_stderr(redirect, ["genmove b", "play w pass", "genmove b",
                                            "nonsense", "quit"])
    replies = out.split("\n\n")
    assert rc == 0 and replies[0].startswith("= ") and replies[1] == "="
    assert replies[2].startswith("= ") and replies[3] == "? unknown command"


def test_safe_stderr_and_log_swallow_every_failure(monkeypatch):
    class Broken(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    for stream in (None, Broken()):
        safe = SafeStderr(stream)
        assert safe.write("genmove b: D4\n") == len("genmove b: D4\n")
        safe.flush()
        monkeypatch.setattr(sys, "stderr", safe)
        log("a diagnostic nobody can read")
    monkeypatch.setattr(sys, "stderr", None)
    log("and none at all")


def wait_until_ready(engine: GtpProcess, timeout: float = 300.0):
    """Until the warm-up has compiled the kernels (the next search is a real one)."""
    deadline = time.monotonic() + timeout
    while not any("kernels ready" in (ln or "") for ln in engine.stderr_lines):
        assert time.monotonic() < deadline, "the engine never got ready"
        time.sleep(0.1)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_genmove_answers_the_move_and_exits(signum):
    with GtpProcess("--size", "9", "--playouts", "100000000") as engine:
        wait_until_ready(engine)
        engine.send("genmove b\nshowboard\n")
        time.sleep(1.0)
        start = time.monotonic()
        engine.proc.send_signal(signum)
        reply = engine.read_response(timeout=30)
        rc = engine.proc.wait(timeout=30)
        assert time.monotonic() - start < 10
    assert reply.startswith("= ") and reply != "= pass"
    assert rc == 128 + signum      # and showboard, queued behind, was never answered
    assert not any("Fatal Python error" in (ln or "") for ln in engine.stderr_lines)


def test_a_signal_while_idle_exits_at_once():
    with GtpProcess(*QUICK) as engine:
        assert engine.ask("name") == "= nakade"
        engine.proc.send_signal(signal.SIGINT)
        assert engine.proc.wait(timeout=30) == 130


def test_loadsgf_refuses_special_files_without_reading_them(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    replies = run_in_process(QUICK, ["loadsgf /dev/zero", f"loadsgf {fifo}",
                                     f"loadsgf {tmp_path}", "name"])
    assert replies == ["? cannot load file"] * 3 + ["= nakade"]
    assert time.monotonic() - start < 10
    with pytest.raises(sgf.SgfError, match="not a regular file"):
        sgf.load_game("/dev/zero")


def test_an_oversized_sgf_file_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "big.sgf"
    path.write_text("(;GM[1]SZ[9]C[" + "x" * 1000 + "])")
    monkeypatch.setattr(sgf, "MAX_FILE_BYTES", 400)
    with pytest.raises(sgf.SgfError, match="larger than"):
        sgf.load_game(path)
    monkeypatch.setattr(sgf, "MAX_FILE_BYTES", 1100)
    assert sgf.load_game(path).state.size == 9


def test_an_endless_line_is_refused_and_the_session_goes_on():
    huge = b"play b " + b"A" * (MAX_LINE + 10)
    replies, _, rc = run_subprocess(QUICK, [b"1 name", huge, b"2 name"])
    assert replies == ["=1 nakade", "? line too long", "=2 nakade"] and rc == 0


def test_a_line_of_exactly_the_limit_is_still_read():
    line = "name" + " " * (MAX_LINE - 5)    # MAX_LINE bytes with its newline
    assert run_in_process(QUICK, [line]) == ["= nakade"]


def test_a_reader_that_dies_ends_the_session():
    class Exploding(io.BytesIO):
        def readline(self, size=-1):
            raise MemoryError("no room for this line")

    requests = queue.Queue()
    reader = Reader(Exploding(), requests)
    reader.start()
    reader.join(5)
    assert requests.get(timeout=5) is None


@pytest.mark.parametrize("commands", [
    ["time_settings 1e308 0 0", "genmove b"],
    ["time_settings 0 1e308 1", "genmove b"],
    ["time_settings 1e308 1e308 1", "genmove b"],
    ["time_left b 1e308 0", "genmove b"],
    ["time_left b 1e308 5", "genmove b"],
    ["nakade-budget time 1e308", "genmove b"],
])
def test_huge_times_are_clamped(commands):
    replies = run_in_process(QUICK, commands)
    assert replies[0] == "=" and replies[1].startswith("= ") and len(replies[1]) > 2


@pytest.mark.parametrize("command", ["time_settings nan 0 0", "time_left b inf 0",
                                     "time_settings 5 -inf 1"])
def test_non_finite_times_are_refused(command):
    assert run_in_process(QUICK, [command]) == ["? syntax error"]


def test_a_huge_time_on_the_command_line_is_clamped():
    replies = run_in_process(["--size", "9", "--playouts", "50", "--time", "1e308"],
                             ["genmove b"])
    assert replies[0].startswith("= ")
    assert Budget(seconds=1e308).seconds == MAX_SECONDS
    assert Budget(seconds=float("inf")).seconds == MAX_SECONDS
    with pytest.raises(ValueError):
        Budget(seconds=float("nan"))


@pytest.mark.parametrize("argv", [["--seed", str(2**64)], ["--komi", "nan"],
                                  ["--time", "inf"], ["--playouts", "0"]])
def test_bad_engine_values_are_argparse_errors(argv):
    done = subprocess.run([sys.executable, str(GTP_MAIN), *argv], capture_output=True,
                          text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and f"argument {argv[0]}" in done.stderr


def test_after_two_passes_the_losing_side_plays_on():
    # black's one stone owns the whole 5x5 board: after two passes white is 25 - 7.5
    # behind, and another pass would end the game lost under area scoring
    setup = ["boardsize 5", "komi 7.5", "play b C3", "play w pass", "play b pass"]
    replies = run_in_process(["--size", "5", "--playouts", "300"],
                             setup + ["genmove w", "genmove b"])
    white, black = replies[-2], replies[-1]
    assert white.startswith("= ") and white != "= pass"
    assert black.startswith("= ")          # and the game goes on from white's stone


def test_after_two_passes_the_winning_side_passes():
    setup = ["boardsize 5", "komi 7.5", "play b C3", "play w pass", "play b pass"]
    replies = run_in_process(["--size", "5", "--playouts", "300"], setup + ["genmove b"])
    assert replies[-1] == "= pass"
