"""Golden GTP transcripts: every file ``tests/data/gtp/*.txt`` is a session of commands and
the responses expected, replayed in-process (fast), and through ``gtp_main.py`` as a
subprocess for the files that ask for it.

Transcript format (one directive per line):

``# text``        a comment (not sent)
``@ ARGS``        the engine's command-line options (once, before the first command)
``@ subprocess``  also replay this file through ``gtp_main.py`` in a subprocess
``> LINE``        a line sent to the engine exactly as written (``>`` alone sends an empty
                  line); it expects the response written on the lines after it, or none
                  when no response line follows
``~ REGEX``       the response must match REGEX completely (``re.DOTALL``)
other lines       the response, line by line (trailing spaces ignored)
blank lines       ignored (a response never contains one)

The commands are sent in one burst, as pipelining clients do; the responses are matched in
order, and a response nobody expected fails the test.  Files run with the data folder as the
working directory, so ``loadsgf`` paths are relative to it (as with gogui-regress).
"""

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gtp_process import run_in_process, run_subprocess

DATA = Path(__file__).parent / "data" / "gtp"
FILES = sorted(DATA.glob("*.txt"))


@dataclass
class Step:
    line: str
    lineno: int
    expected: list[str] = field(default_factory=list)
    pattern: str | None = None

    @property
    def expects_response(self) -> bool:
        return bool(self.expected) or self.pattern is not None

    def check(self, response: str, name: str):
        where = f"{name}:{self.lineno}: {self.line!r}"
        if self.pattern is not None:
            assert re.fullmatch(self.pattern, response, re.DOTALL), (
                f"{where}\nresponse {response!r}\ndoes not match {self.pattern!r}")
        else:
            got = [ln.rstrip() for ln in response.split("\n")]
            assert got == self.expected, f"{where}\nexpected {self.expected}\ngot      {got}"


@dataclass
class Transcript:
    path: Path
    argv: list[str] = field(default_factory=list)
    subprocess: bool = False
    steps: list[Step] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> "Transcript":
        t = cls(path)
        for lineno, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("@"):
                directive = line[1:].strip()
                assert not t.steps, f"{path.name}:{lineno}: options after the first command"
                if directive == "subprocess":
                    t.subprocess = True
                else:
                    t.argv += shlex.split(directive)
            elif line == ">" or line.startswith("> "):
                t.steps.append(Step(raw[2:], lineno))
            else:
                assert t.steps, f"{path.name}:{lineno}: a response before any command"
                step = t.steps[-1]
                if line.startswith("~ "):
                    assert not step.expects_response, f"{path.name}:{lineno}: two answers"
                    step.pattern = line[2:]
                else:
                    assert step.pattern is None, f"{path.name}:{lineno}: regex and lines"
                    step.expected.append(line)
        return t

    @property
    def lines(self) -> list[str]:
        return [s.line for s in self.steps]

    def check(self, responses: list[str]):
        pending = list(responses)
        for step in self.steps:
            if step.expects_response:
                assert pending, f"{self.path.name}:{step.lineno}: no response to {step.line!r}"
                step.check(pending.pop(0), self.path.name)
        assert not pending, f"{self.path.name}: responses nobody expected: {pending}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_in_process(path, monkeypatch):
    transcript = Transcript.load(path)
    monkeypatch.chdir(DATA)
    transcript.check(run_in_process(transcript.argv, transcript.lines))


SUBPROCESS_FILES = [p for p in FILES if Transcript.load(p).subprocess]


@pytest.mark.parametrize("path", SUBPROCESS_FILES, ids=[p.stem for p in SUBPROCESS_FILES])
def test_transcript_through_gtp_main(path):
    transcript = Transcript.load(path)
    responses, _, rc = run_subprocess(transcript.argv, transcript.lines, cwd=DATA)
    transcript.check(responses)
    assert rc == 0


def test_every_command_has_a_transcript():
    """Each command of every game's list_commands is sent by some transcript."""
    from engine.gtp import build_table
    table = build_table()
    sent = set()
    for path in FILES:
        for line in Transcript.load(path).lines:
            words = line.split("#")[0].split()
            if words and words[0].isdigit():
                words = words[1:]
            if words:
                sent.add(words[0].lower())
    listed = set(table.names("go")) | set(table.names("gobang"))
    assert listed - sent == set()
