"""Seeded fuzzing of the GTP front end: valid, garbled, binary and very long lines, with and
without ids, pipelined in one burst through ``gtp_main.py``.  Every line that is not empty
after GTP preprocessing gets exactly one framed response, in order, with its id echoed;
empty and comment lines get none; the engine stays alive to the end and exits cleanly.

The oracle for "which lines are commands" is written here from the GTP text, independently
of ``engine.gtp.protocol``.
"""

import random
import re

import pytest

from gtp_process import run_subprocess

VERTICES = ["a1", "E5", "j9", "t19", "z25", "pass", "PASS", "i5", "a0", "c", "", "d-4"]
COLOURS = ["b", "w", "black", "WHITE", "x", ""]
NUMBERS = ["0", "1", "2", "5", "9", "19", "25", "26", "-1", "7.5", "nan", "1e9", "abc", ""]
COMMANDS = [
    "protocol_version", "name", "version", "list_commands", "known_command {w}",
    "boardsize {n}", "clear_board", "komi {n}", "play {c} {v}", "play {c} {v}",
    "play {c} {v}", "genmove {c}", "reg_genmove {c}", "undo", "showboard", "final_score",
    "final_status_list {w}", "time_settings {n} {n} {n}", "time_left {c} {n} {n}",
    "loadsgf {w} {n}", "fixed_handicap {n}", "place_free_handicap {n}",
    "set_free_handicap {v} {v} {v}", "kgs-genmove_cleanup {c}", "cputime",
    "gogui-interrupt", "gogui-analyze_commands", "lz-analyze {c} {n}", "nakade-algo",
    "nakade-get {w}", "nakade-set c {n}", "nakade-param", "nakade-budget", "nakade-stats",
    "gogui-rules_legal_moves", "no_such_command {w}", "PLAY {c} {v}",
]
WORDS = ["dead", "alive", "seki", "genmove", "c", "x", "no_such_file.sgf", "", "\u00e9t\u00e9"]
CONTROL = "".join(chr(c) for c in range(32) if c not in (9, 10)) + "\x7f"


def _valid(rng: random.Random) -> str:
    template = rng.choice(COMMANDS)
    return re.sub(r"\{(\w)\}", lambda m: rng.choice(
        {"v": VERTICES, "c": COLOURS, "n": NUMBERS, "w": WORDS}[m.group(1)]), template)


def _garble(rng: random.Random, line: str) -> str:
    chars = list(line)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randint(0, len(chars))
        chars.insert(pos, rng.choice(CONTROL + "\t #=?\u00ff\u2028 xyz0123"))
    return "".join(chars)


def _line(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.55:
        text = _valid(rng)
    elif kind < 0.75:
        text = _garble(rng, _valid(rng))
    elif kind < 0.82:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).replace(b"\n", b"")
    elif kind < 0.88:
        text = rng.choice(["", "   ", "\t", "# a comment", "  # interrupt", "\r"])
    elif kind < 0.94:
        text = rng.choice(["name ", "known_command ", "# "]) + "x" * rng.randint(10_000,
                                                                               120_000)
    else:
        text = "".join(rng.choice("abcdefghij0123456789 _-") for _ in range(rng.randint(1, 30)))
    if rng.random() < 0.4:
        text = f"{rng.randint(0, 10**6)} {text}"
    return text.encode("utf-8", "replace")


def _command_words(raw: bytes) -> list[str]:
    """GTP 2.5 preprocessing: the words of a line, none for an empty or comment line."""
    text = raw.decode("utf-8", "replace")
    text = "".join(ch for ch in text if ch in "\t\n" or not (ord(ch) < 32 or ord(ch) == 127))
    return text.replace("\t", " ").split("#")[0].split()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_command_line_gets_exactly_one_framed_response(seed):
    rng = random.Random(seed)
    lines = [_line(rng) for _ in range(250)] + [b"999999 name", b"quit"]
    responses, stderr_lines, rc = run_subprocess(
        ["--size", "9", "--playouts", "50", "--seed", str(seed)], lines, timeout=240)
    expected_ids = []
    for raw in lines:
        words = _command_words(raw)
        if words:
            has_id = words[0].isascii() and words[0].isdigit()
            expected_ids.append(words[0] if has_id else "")
    assert len(responses) == len(expected_ids)
    for response, ident in zip(responses, expected_ids):
        head = response.split("\n", 1)[0]
        assert re.fullmatch(rf"[=?]{ident}( .*)?", head), (ident, response[:200])
    assert responses[-2] == "=999999 nakade"
    assert responses[-1] == "="
    assert rc == 0
    tracebacks = [i for i, line in enumerate(stderr_lines) if line.startswith("Traceback")]
    assert not tracebacks, "\n".join(stderr_lines[max(tracebacks[0] - 3, 0):][:40])
