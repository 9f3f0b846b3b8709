"""The GTP transport and the live behaviour of the engine process: preprocessing, framing,
the command table, internal errors, command-line validation, stderr hygiene, and what
needs real time to pass -- lz-analyze streaming until the next input line, GoGui's
``# interrupt`` during a long genmove, a clock that bounds a huge playout budget.
"""

import io
import queue
import re
import subprocess
import sys
import threading

import pytest

from engine.gtp import build_table, parse_settings
from engine.gtp.context import Context
from engine.gtp.protocol import (CommandTable, GtpError, Output, Request, SafeStderr,
                                 Session, Stream, frame, is_interrupt, preprocess)
from gtp_process import GTP_MAIN, REPO, GtpProcess, split_responses

# Lizzie reads stderr lines like these as engine output (docs/gtp.md section 1)
LIZZIE_PREFIXES = ("=", "?", "info", "play", "komi=", "opp_komi=", "Tuning")
INFO_SEGMENT = re.compile(r"info move [A-HJ-T]\d+ visits \d+ winrate \d+ prior \d+ lcb \d+ "
                          r"order \d+ pv( [A-HJ-T]\d+)+")


# -- preprocessing and framing ---------------------------------------------------------------

@pytest.mark.parametrize("raw, line", [
    ("name\n", "name"),
    ("  name  \r\n", "name"),
    ("\tplay\tb\td4\t", "play b d4"),
    ("play b\x01 d4\x7f", "play b d4"),
    ("na\x00me", "name"),
    ("genmove b # think hard", "genmove b"),
    ("# interrupt", ""),
    ("   ", ""),
    ("", ""),
])
def test_preprocess_drops_controls_tabs_and_comments(raw, line):
    assert preprocess(raw) == line


def test_request_parse_splits_id_name_and_args():
    r = Request.parse("12 PLAY B D4\n")
    assert (r.id, r.name, r.args) == ("12", "play", ["B", "D4"])
    r = Request.parse("name")
    assert (r.id, r.name, r.args) == (None, "name", [])
    r = Request.parse("7")
    assert (r.id, r.name, r.args) == ("7", "", [])
    assert Request.parse("-3 name").name == "-3"
    assert Request.parse("\u0663 name").id is None   # a non-ASCII digit is not an id
    assert Request.parse("# just a comment") is None
    assert Request.parse("\t \r\n") is None


def test_interrupt_line_is_only_the_gogui_comment():
    assert is_interrupt("# interrupt\n")
    assert is_interrupt("  #interrupt  ")
    assert not is_interrupt("interrupt")
    assert not is_interrupt("# interrupt now")
    assert not is_interrupt("name # interrupt")


def test_frame_echoes_ids_and_never_writes_an_empty_line_inside():
    assert frame(True, None, "2") == "= 2\n\n"
    assert frame(True, "12", "D4") == "=12 D4\n\n"
    assert frame(True, None, "") == "=\n\n"
    assert frame(True, "3", "") == "=3\n\n"
    assert frame(False, "13", "illegal move") == "?13 illegal move\n\n"
    assert frame(True, None, "a\n\nb\n   \nc\n") == "= a\nb\nc\n\n"
    assert frame(True, None, "\nboard") == "= \nboard\n\n"


def test_safe_stderr_keeps_lizzie_from_reading_logs_as_responses():
    sink = io.StringIO()
    err = SafeStderr(sink)
    err.write("= looks like a response\n? so does this\ninfo move D4\nplay b d4: occupied\n")
    err.write("def f(x) -> int:\nplain line\npart")
    err.write("ial\n")
    lines = sink.getvalue().splitlines()
    assert lines == ["| = looks like a response", "| ? so does this", "| info move D4",
                     "| play b d4: occupied", "def f(x) => int:", "plain line", "partial"]


# -- the command table and the session --------------------------------------------------------

def test_table_refuses_a_second_registration_and_filters_by_game():
    table = CommandTable()
    table.register("a", lambda ctx, args: "")
    table.register("b", lambda ctx, args: "", games=("gobang",))
    with pytest.raises(ValueError):
        table.register("a", lambda ctx, args: "")
    assert table.names("go") == ["a"]
    assert table.names("gobang") == ["a", "b"]
    assert table.lookup("b", "go") is None


def test_every_listed_command_is_known_and_dispatchable():
    table = build_table()
    for game in ("go", "gobang"):
        names = table.names(game)
        assert len(names) == len(set(names))
        assert all(table.lookup(n, game) is not None for n in names)
        assert all(n == n.lower() and " " not in n for n in names)


class _FakeContext:
    game = "go"
    quitting = False
    request = None


def _session(table):
    out = io.BytesIO()
    return Session(table, _FakeContext(), Output(out)), out


def test_internal_error_becomes_a_failure_and_the_session_goes_on():
    table = CommandTable()

    def broken(ctx, args):
        raise KeyError("oops")

    table.register("broken", broken)
    table.register("fails", lambda ctx, args: (_ for _ in ()).throw(GtpError("no way")))
    table.register("fine", lambda ctx, args: "ok")
    session, out = _session(table)
    for line in ("1 broken", "2 fails", "3 fine", "4 unknown", "5"):
        session.handle(Request.parse(line))
    assert split_responses(out.getvalue().decode()) == [
        "?1 internal error: 'oops'", "?2 no way", "=3 ok", "?4 unknown command",
        "?5 syntax error"]


def test_a_stream_writes_header_lines_and_the_empty_line():
    table = CommandTable()

    def streaming(ctx, args):
        def run(emit, stop):
            emit("info  move   D4")   # whitespace is normalised to single spaces
            emit("")                  # nothing to say: no line
            emit("info move C3")
        return Stream(run)

    table.register("stream", streaming)
    session, out = _session(table)
    session.handle(Request.parse("9 stream"))
    assert out.getvalue().decode() == "=9\ninfo move D4\ninfo move C3\n\n"


# -- command-line options ----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["--size", "0"], ["--size", "1"], ["--size", "99"], ["--size", "nine"],
    ["--game", "gobang", "--size", "4"], ["--game", "chess"], ["--rule", "renju5"],
    ["--playouts", "-5"], ["--playouts", "0"], ["--time", "0"], ["--time", "-1"],
    ["--time", "inf"], ["--komi", "nan"], ["--seed", "-1"],
    ["--algo", "no_such_algo"], ["--set", "c"], ["--set", "=1"], ["--set", "c=abc"],
    ["--set", "no_such_option=1"], ["--resign-threshold", "2"], ["--no_such_flag"],
])
def test_absurd_options_are_an_argparse_error(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        parse_settings(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_options_reach_the_session():
    settings, searcher = parse_settings(
        ["--game", "go", "--size", "13", "--komi", "6.5", "--no-superko", "--algo", "shot",
         "--playouts", "77", "--time", "3", "--seed", "5", "--set", "max_nodes=5000",
         "--resign-threshold", "0.05"])
    ctx = Context(settings, searcher)
    assert (ctx.size, ctx.komi, ctx.rules.superko, ctx.algo) == (13, 6.5, False, "shot")
    assert (ctx.playouts, ctx.seconds) == (77, 3.0)
    assert searcher.options()["seed"] == 5
    assert searcher.options()["max_nodes"] == 5000
    assert searcher.options()["resign_threshold"] == 0.05
    gobang, _ = parse_settings(["--game", "gobang", "--rule", "exact5"])
    assert Context(gobang).rules.size == 15 and Context(gobang).rules.variant == "exact5"


def test_absurd_option_exits_2_without_traceback_through_gtp_main():
    proc = subprocess.run([sys.executable, str(GTP_MAIN), "--size", "99"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr and "size" in proc.stderr


# -- the live process --------------------------------------------------------------------------

def _check_stderr(lines):
    for line in filter(None, lines):
        assert not line.lstrip().startswith(LIZZIE_PREFIXES), line
        assert " -> " not in line, line


def test_session_basics_quit_and_clean_stderr():
    with GtpProcess("--size", "9", "--playouts", "50") as engine:
        assert engine.ask("1 protocol_version") == "=1 2"
        assert engine.ask("play b e5") == "="
        assert engine.ask("play w e5") == "? illegal move"
        assert engine.ask("play b x") == "? syntax error"
        assert re.fullmatch(r"= [A-HJ]\d", engine.ask("genmove w"))
        assert engine.ask("name" + " " * 50_000 + "# " + "x" * 100_000) == "= nakade"
        assert engine.ask("7 quit") == "=7"
        assert engine.finish() == 0
        assert engine.proc.stdout.read() == b""
        _check_stderr(engine.stderr_lines)


def test_end_of_input_without_quit_exits_cleanly():
    with GtpProcess("--size", "9", "--playouts", "50") as engine:
        engine.send("name\ngenmove b\n")
        engine.close_input()
        responses = split_responses(engine.all_output())
        assert responses[0] == "= nakade" and re.fullmatch(r"= [A-HJ]\d", responses[1])
        assert engine.finish() == 0


def _lizzie_parse(line: str) -> list[dict]:
    """Parse an info line the way Lizzie 0.7.4 does: split on ' info ', then on single
    spaces, integers through int() (Integer.parseInt), pv last."""
    assert line.startswith("info ")
    moves = []
    for segment in line[len("info "):].split(" info "):
        words = segment.split(" ")
        pv_at = words.index("pv")
        fields = dict(zip(words[:pv_at:2], words[1:pv_at:2]))
        for key in ("visits", "winrate", "prior", "lcb", "order"):
            int(fields[key])
        moves.append(dict(fields, pv=words[pv_at + 1:]))
    return moves


def test_lz_analyze_streams_until_the_next_line_then_answers_it():
    with GtpProcess("--size", "9", "--seed", "1") as engine:
        engine.send("play b e5\n5 lz-analyze w 10\n")
        assert engine.read_response() == "="
        assert engine.read_line() == "=5"
        lines = [engine.read_line() for _ in range(3)]
        for line in lines:
            assert all(INFO_SEGMENT.fullmatch("info " + seg)
                       for seg in line[len("info "):].split(" info ")), line
            moves = _lizzie_parse(line)
            assert [int(m["order"]) for m in moves] == list(range(len(moves)))
            assert all(0 <= int(m["winrate"]) <= 10000 and 0 <= int(m["lcb"]) <= 10000
                       and m["pv"][0] == m["move"] for m in moves)
            visits = [int(m["visits"]) for m in moves]
            assert visits == sorted(visits, reverse=True)
        # Sabaki stops analysis by sending protocol_version
        engine.send("6 protocol_version\n")
        while (line := engine.read_line()) != "":
            assert line.startswith("info move ")
        assert engine.read_response() == "=6 2"
        # a bare newline stops it as well, and gets no response of its own
        engine.send("lz-analyze 10\n")
        assert engine.read_line() == "="
        assert engine.read_line().startswith("info move ")
        engine.send("\n")
        while engine.read_line() != "":
            pass
        assert engine.ask("7 name") == "=7 nakade"
        assert engine.ask("quit") == "="
        assert engine.finish() == 0
        _check_stderr(engine.stderr_lines)


def test_lz_analyze_on_a_finished_game_waits_without_lines():
    with GtpProcess("--game", "gobang", "--size", "5") as engine:
        engine.send("".join(f"play b {v}\n" for v in ("a1", "b1", "c1", "d1", "e1")))
        assert [engine.read_response() for _ in range(5)] == ["="] * 5
        engine.send("lz-analyze 10\n")
        assert engine.read_line() == "="
        engine.send("name\n")
        assert engine.read_line() == ""      # no info line: nothing to analyse
        assert engine.read_response() == "= nakade"


def test_gogui_interrupt_stops_a_long_genmove():
    with GtpProcess("--size", "9", "--time", "300", "--playouts", "100000000") as engine:
        assert engine.ask("known_command gogui-interrupt") == "= true"
        engine.send("genmove b\n")
        with pytest.raises(queue.Empty):
            engine.read_line(timeout=0.5)          # still thinking
        engine.send("# interrupt\n")
        assert re.fullmatch(r"= [A-HJ]\d", engine.read_response(timeout=60))
        assert engine.ask("undo") == "="            # the interrupted move was played
        # an interrupt pipelined right behind the genmove applies to it as well
        engine.send("1 genmove w\n# interrupt\n2 name\n")
        assert re.fullmatch(r"=1 [A-HJ]\d", engine.read_response(timeout=60))
        assert engine.read_response() == "=2 nakade"


def test_the_clock_bounds_a_huge_playout_budget():
    """Lizzie's two seconds a move: answered well inside a generous bound, not after
    10^9 playouts."""
    with GtpProcess("--size", "9", "--playouts", "1000000000") as engine:
        assert engine.ask("time_settings 0 2 1") == "="
        assert re.fullmatch(r"= [A-HJ]\d", engine.ask("genmove b", timeout=60))


def test_nakade_ready_answers_only_once_the_warm_up_has_ended():
    settings, searcher = parse_settings(["--preset", "paper", "--size", "9", "--playouts", "50"])
    ctx = Context(settings, searcher)
    ctx.warmed = threading.Event()
    out = io.BytesIO()
    session = Session(build_table(), ctx, Output(out))
    requests: queue.Queue = queue.Queue()
    worker = threading.Thread(target=session.serve, args=(requests,), daemon=True)
    worker.start()
    for line in ("1 nakade-ready", "2 name", "quit"):
        requests.put(Request.parse(line))
    requests.put(None)
    worker.join(0.5)
    assert worker.is_alive() and out.getvalue() == b""   # still waiting: nothing answered
    ctx.warmed.set()
    worker.join(30)
    assert out.getvalue() == b"=1\n\n=2 nakade\n\n=\n\n"
