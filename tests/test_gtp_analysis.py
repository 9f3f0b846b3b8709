"""Live analysis, read the way the clients read it.  The parsers below follow the clients'
own rules (docs/gtp.md, section 3):

* Sabaki (``enginesyncer.js``): the line is cut at ``info``; in each segment the trailing
  run of vertices is the pv (cut at ``pass``), the tokens before it, less the last (the
  ``pv`` key), pair up as keys and values; a segment without a pv, or whose move is not a
  vertex, is dropped; a ``winrate`` with a decimal point is a fraction, else
  ten-thousandths.
* Lizzie (``Leelaz.java``, ``MoveData.java``): the line must start with ``info``; it is cut
  at `` info `` and at single spaces; tokens pair up as keys and values until ``pv``, which
  takes the rest; lz dialect: ``visits``, ``winrate`` and ``lcb`` through
  ``Integer.parseInt``; KataGo dialect: the line is first cut at ``ownership`` (the numbers
  after it each through ``Double.parseDouble``), ``visits`` an int, ``winrate``,
  ``scoreMean``, ``scoreStdev`` doubles.  Java's parsers reject what the regexes below
  reject, and a rejection stops Lizzie's reader thread.
"""

import random
import re
import time

import pytest

from gtp_process import GtpProcess, run_in_process
from engine.game.coords import PASS, all_points, from_gtp, to_gtp
from engine.core.layout import BLACK, WHITE
from engine.gtp import analysis, analysis_args
from engine.gtp.context import Context, Settings
from engine.gtp.protocol import GtpError
from engine.search.base import Candidate, SearchResult

JAVA_INT = re.compile(r"[+-]?\d+")
JAVA_DOUBLE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
SABAKI_PV = re.compile(r"(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$")
VERTEX = re.compile(r"[A-Za-z]\d+")


def java_int(text: str) -> int:
    assert JAVA_INT.fullmatch(text), f"Integer.parseInt({text!r}) throws"
    return int(text)


def java_double(text: str) -> float:
    assert JAVA_DOUBLE.fullmatch(text), f"Double.parseDouble({text!r}) throws"
    return float(text)


def sabaki_parse(line: str) -> list[dict]:
    moves = []
    for segment in re.split(r"\s*info\s+", line)[1:]:
        segment = segment.strip()
        match = SABAKI_PV.search(segment)
        if match is None:
            continue
        pv_text = match.group(0)
        cut = pv_text.find("pass")
        pv = [v for v in (pv_text if cut < 0 else pv_text[:cut]).split() if len(v) >= 2]
        tokens = segment[:match.start()].strip().split()[:-1]
        fields = dict(zip(tokens[::2], tokens[1::2]))
        if not VERTEX.fullmatch(fields.get("move", "")) or "winrate" not in fields:
            continue
        winrate = fields["winrate"]
        moves.append(dict(move=fields["move"], visits=float(fields["visits"]),
                          winrate=float(winrate) * 100 if "." in winrate
                          else float(winrate) / 100,
                          score_lead=float(fields["scoreLead"]) if "scoreLead" in fields
                          else None, pv=pv))
    return moves


def lizzie_parse(line: str, katago: bool) -> tuple[list[dict], list[float] | None]:
    assert line.startswith("info")
    ownership = None
    if katago and "ownership" in line:
        line, owned = line.split("ownership", 1)
        ownership = [java_double(t) for t in owned.strip().split(" ")]
    moves = []
    for segment in line[5:].split(" info "):
        data, move, i = segment.strip().split(" "), {}, 0
        while i < len(data):
            key = data[i]
            if key == "pv":
                move["pv"] = data[i + 1:]
                break
            value = data[i + 1]        # an odd token count throws here, as in Java
            i += 2
            if key == "move":
                move["move"] = value
            elif key == "visits":
                move["visits"] = java_int(value)
            elif key == "winrate":
                move["winrate"] = java_double(value) * 100 if katago else java_int(value) / 100
            elif key == "lcb" and not katago:
                move["lcb"] = java_int(value) / 100
            elif key in ("scoreMean", "scoreStdev") and katago:
                move[key] = java_double(value)
        moves.append(move)
    return moves, ownership


# -- arguments ---------------------------------------------------------------------------

def parse(text: str, kata: bool = False, to_play: int = BLACK):
    return analysis_args.parse(text.split(), to_play, 9, kata)


def test_colour_interval_and_the_keys_we_use():
    r = parse("w 25 minmoves 4 maxmoves 7 interval 30")
    assert (r.color, r.interval, r.min_moves, r.max_moves) == (WHITE, 0.3, 4, 7)
    assert parse("").color == BLACK and parse("", to_play=WHITE).color == WHITE
    assert parse("b 0").interval == 0.01   # at least a centisecond between lines


def test_keys_of_other_engines_are_skipped_with_their_value():
    r = parse("b 10 pvVisits true ownership true widget 3 maxmoves 2")
    assert r.max_moves == 2 and r.ignored == ["pvvisits", "ownership", "widget"]
    k = parse("b 10 ownership true ownershipStdev false rootInfo 1", kata=True)
    assert (k.ownership, k.ownership_stdev, k.root_info, k.ignored) == (True, False, True, [])


@pytest.mark.parametrize("text", ["minmoves", "minmoves -1", "maxmoves x", "interval y",
                                  "avoid b D4", "avoid b D4 0", "avoid q D4 1",
                                  "allow b D4 x"])
def test_malformed_values_are_syntax_errors(text):
    with pytest.raises(GtpError, match="syntax error"):
        parse(text)


def test_avoid_and_allow_restrict_the_analysed_colour_at_the_root():
    ctx = Context(Settings(size=9))
    r = parse("avoid b D4,E5 1 avoid b A1:B2 3 avoid w J9 1")
    names = {"D4", "E5", "A1", "A2", "B1", "B2"}
    assert {to_gtp(p, 9) for p in r.avoid} == names     # white's J9 is not ours
    mask = r.root_mask(ctx.state)
    assert {to_gtp(p, 9) for p in all_points(9) if not mask[p]} == names
    allow = parse("allow b C3:D4 2 avoid b pass 1")
    mask = allow.root_mask(ctx.state)
    assert {to_gtp(p, 9) for p in all_points(9) if mask[p]} == {"C3", "C4", "D3", "D4"}
    assert allow.permits(PASS)   # the search may always pass
    assert parse("allow w D4 1").root_mask(ctx.state) is None   # not the analysed colour
    for bad in ("allow b D4 1 allow b E5 1", "avoid b D4 1 allow b E5 1",
                "allow b D4 1 avoid b E5 1"):
        with pytest.raises(GtpError, match="cannot be combined"):
            parse(bad)
    assert parse("allow b D4 1 avoid w E5 1").allow == {from_gtp("D4", 9)}


# -- lines ----------------------------------------------------------------------------------

def _result(size=9):
    def c(move, visits, winrate, pv, prior=0.0):
        return Candidate(from_gtp(move, size), visits, winrate, prior,
                         [from_gtp(m, size) for m in pv])
    return SearchResult(move=from_gtp("E5", size), winrate=0.6, playouts=1000, seconds=1.0,
                        candidates=[c("E5", 600, 0.6, ["E5", "D4", "pass", "C3"], 0.25),
                                    c("pass", 300, 0.55, ["pass"]),
                                    c("D4", 90, 1.0, ["D4", "E5"]),
                                    c("C3", 10, 0.0, ["C3"])])


def _report(text, dialect, size=9):
    ctx = Context(Settings(size=size, seed=3))
    request = analysis_args.parse(text.split(), ctx.state.to_play, size, dialect == "kata")
    report = analysis.Report(ctx, request, dialect)
    report.prepare()
    return report


def test_lz_lines_are_what_lizzie_and_sabaki_read():
    line = _report("", "lz").line(_result())
    assert line.startswith("info move E5 visits 600 winrate 6000 prior 2500 lcb 5608 "
                           "order 0 pv E5 D4 info move D4 visits 90 winrate 10000 ")
    lizzie, _ = lizzie_parse(line, katago=False)
    sabaki = sabaki_parse(line)
    # the pass is no board move: both clients skip it, and the pv stops before a pass
    assert [m["move"] for m in lizzie] == [m["move"] for m in sabaki] == ["E5", "D4", "C3"]
    assert [m["winrate"] for m in lizzie] == [m["winrate"] for m in sabaki] == [60, 100, 0]
    assert [m["visits"] for m in lizzie] == [600, 90, 10]
    assert sabaki[0]["pv"] == lizzie[0]["pv"] == ["E5", "D4"]


def test_kata_lines_keep_their_decimal_point():
    line = _report("", "kata").line(_result())
    sabaki = sabaki_parse(line)
    lizzie, ownership = lizzie_parse(line, katago=True)
    assert ownership is None
    # a certain win is 1.000000, not 1: Sabaki would read "1" as 0.01 %
    assert " winrate 1.000000 " in line and " winrate 0.000000 " in line
    assert [m["winrate"] for m in sabaki] == [m["winrate"] for m in lizzie] == [60, 100, 0]
    assert all(m["score_lead"] is not None for m in sabaki)
    assert [m["scoreMean"] for m in lizzie] == [m["score_lead"] for m in sabaki]
    assert not re.search(r"\d[eE][+-]?\d", line)   # no exponents


def test_minmoves_fills_with_unvisited_moves_and_maxmoves_cuts():
    report = _report("minmoves 6 avoid b A9,B9 1", "lz")
    moves, _ = lizzie_parse(report.line(_result()), katago=False)
    assert [m["move"] for m in moves][:3] == ["E5", "D4", "C3"]
    assert [m["visits"] for m in moves][3:] == [0, 0, 0]
    assert "A9" not in [m["move"] for m in moves] and len(moves) == 6
    short, _ = lizzie_parse(_report("maxmoves 2", "lz").line(_result()), katago=False)
    assert [m["move"] for m in short] == ["E5", "D4"]
    assert _report("maxmoves 0", "lz").line(_result()) == ""


def test_ownership_block_after_the_moves_in_board_order():
    report = _report("ownership true ownershipStdev true rootInfo true", "kata")
    line = report.line(_result())
    moves, ownership = lizzie_parse(line.split(" ownershipStdev ")[0], katago=True)
    assert len(moves) == 3 and len(ownership) == 81
    assert all(-1 <= v <= 1 for v in ownership)
    stdev = [java_double(t) for t in line.split(" ownershipStdev ")[1].split(" ")]
    assert len(stdev) == 81 and all(0 <= v <= 1 for v in stdev)
    assert " rootInfo visits 1000 winrate 0.600000 scoreLead " in line


# -- through the engine, live -------------------------------------------------------------

def _stream(engine, command: str, seconds: float) -> list[str]:
    """Info lines of ``command`` for ``seconds``, then stop it with a bare newline."""
    engine.send(command + "\n")
    assert engine.read_line() == "="
    lines, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline or not lines:
        lines.append(engine.read_line())
    engine.send("\n")
    while (line := engine.read_line()) != "":
        lines.append(line)
    return lines


# black walls the D column, white the F column: black owns the left, white the right
WALLS = [f"play {c} {x}{n}" for n in range(1, 10) for c, x in (("b", "D"), ("w", "F"))]


def test_live_streams_parse_in_both_clients_and_honour_the_keys():
    with GtpProcess("--size", "9", "--seed", "2") as engine:
        for command in WALLS:
            assert engine.ask(command) == "="
        lines = _stream(engine, "lz-analyze b 10 maxmoves 4 avoid b A1,B1,C1 1", 1.0)
        for line in lines:
            lizzie, _ = lizzie_parse(line, katago=False)
            sabaki = sabaki_parse(line)
            assert [m["move"] for m in lizzie] == [m["move"] for m in sabaki]
            assert 1 <= len(lizzie) <= 4
            assert not {"A1", "B1", "C1"} & {m["move"] for m in lizzie}
        lines = _stream(engine, "kata-analyze w 10 ownership true allow w G1:J2 1", 1.0)
        for line in lines:
            moves, ownership = lizzie_parse(line, katago=True)
            assert {m["move"][0] for m in moves} <= set("GHJ")
            assert {int(m["move"][1:]) for m in moves} <= {1, 2}
            # white's view, row by row from A9: the left is black's, the right white's
            rows = [ownership[r * 9:(r + 1) * 9] for r in range(9)]
            assert all(row[0] < -0.5 and row[8] > 0.5 for row in rows)
        black_view = _stream(engine, "kata-analyze b 10 ownership true", 0.5)[-1]
        _, ownership = lizzie_parse(black_view, katago=True)
        assert ownership[0] > 0.5 and ownership[80] < -0.5
        assert engine.ask("quit") == "="


# -- fuzzing the arguments ---------------------------------------------------------------

FUZZ_COMMANDS = ["lz-analyze", "kata-analyze", "lz-genmove_analyze", "kata-genmove_analyze"]
FUZZ_WORDS = ["b", "w", "B", "white", "x", "0", "1", "10", "-3", "2.5", "nan", "1e9",
              "interval", "minmoves", "maxmoves", "avoid", "allow", "ownership",
              "ownershipStdev", "rootInfo", "pvVisits", "true", "false", "D4", "pass",
              "A1:C3", "D4,E5", "Z9", "A1:pass", ",", "\u00e9"]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_arguments_get_one_response_each_and_no_internal_error(seed, capfd):
    rng = random.Random(seed)
    lines = [" ".join([rng.choice(FUZZ_COMMANDS)] + rng.choices(FUZZ_WORDS,
                                                               k=rng.randint(0, 8)))
             for _ in range(60)]
    responses = run_in_process(["--size", "9", "--playouts", "20", "--seed", str(seed)],
                               lines)
    assert len(responses) == len(lines)
    assert all(re.match(r"[=?]", r) for r in responses)
    for line, response in zip(lines, responses):
        if "genmove" in line and response.startswith("="):
            assert re.search(r"\nplay ([A-HJ][1-9]|pass|resign)$", response), (line, response)
    assert "internal error" not in capfd.readouterr().err
