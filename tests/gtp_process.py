"""Drive the GTP engine in tests: as a subprocess through ``gtp_main.py`` (``GtpProcess``,
the way GUIs run it), or in-process over byte streams through the same reader, worker and
command table (``run_in_process``, fast: no interpreter start, no re-import).

Output of either is cut into responses with ``split_responses``: every response ends with
an empty line and no response contains one, so the stream splits on blank lines.
"""

import io
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.gtp import parse_settings, serve

REPO = Path(__file__).resolve().parent.parent
GTP_MAIN = REPO / "gtp_main.py"
# seconds an answer may take: a first genmove on an empty numba cache waits for every
# kernel to compile (README, "Start-up": about 40 s on an idle 2-core machine, more beside
# the test run's other worker)
ANSWER_TIMEOUT = 300.0


def split_responses(text: str) -> list[str]:
    """Responses in order, each without its terminating empty line."""
    if not text:
        return []
    assert text.endswith("\n\n"), f"output does not end with a complete response: {text!r}"
    return text[:-2].split("\n\n")


def run_in_process(argv: list[str], lines: list[str]) -> list[str]:
    """Send ``lines`` in one burst to an in-process session started with ``argv``; the
    responses until ``quit`` or end of input."""
    settings, searcher = parse_settings(argv)
    stdin = io.BytesIO("".join(line + "\n" for line in lines).encode())
    stdout = io.BytesIO()
    serve(settings, searcher, stdin, stdout)
    return split_responses(stdout.getvalue().decode())


class GtpProcess:
    """``python gtp_main.py ARGS`` with pipes; stdout is read line by line on a thread so
    reads can time out, and stderr is collected whole."""

    def __init__(self, *args: str, cwd: Path | None = None):
        self.proc = subprocess.Popen([sys.executable, str(GTP_MAIN), *args], cwd=cwd or REPO,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self._lines: queue.Queue = queue.Queue()
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._lines.put),
                         daemon=True).start()
        self._stderr_done = threading.Thread(
            target=self._pump, args=(self.proc.stderr, self.stderr_lines.append), daemon=True)
        self._stderr_done.start()

    @staticmethod
    def _pump(stream, sink):
        for raw in iter(stream.readline, b""):
            sink(raw.decode("utf-8", "replace").rstrip("\n"))
        sink(None)

    def send(self, data: str | bytes):
        """Write raw text or bytes (one or more lines, newlines included) and flush."""
        self.proc.stdin.write(data.encode() if isinstance(data, str) else data)
        self.proc.stdin.flush()

    def read_line(self, timeout: float = ANSWER_TIMEOUT) -> str:
        line = self._lines.get(timeout=timeout)
        if line is None:
            raise EOFError("the engine closed its output")
        return line

    def read_response(self, timeout: float = ANSWER_TIMEOUT) -> str:
        """The next response, its lines joined by newlines, without the empty line."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read_line(max(deadline - time.monotonic(), 0.01))
            if line == "":
                return "\n".join(lines)
            lines.append(line)

    def ask(self, command: str, timeout: float = ANSWER_TIMEOUT) -> str:
        self.send(command + "\n")
        return self.read_response(timeout)

    def close_input(self):
        self.proc.stdin.close()

    def finish(self, timeout: float = ANSWER_TIMEOUT) -> int:
        """Close stdin, wait for the exit; returns the exit status."""
        if not self.proc.stdin.closed:
            self.close_input()
        rc = self.proc.wait(timeout)
        self._stderr_done.join(timeout)
        return rc

    def all_output(self, timeout: float = 60.0) -> str:
        """Everything written to stdout until the engine exits, as text."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            if line is None:
                return "".join(ln + "\n" for ln in lines)
            lines.append(line)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if not stream.closed:
                try:
                    stream.close()
                except OSError:
                    pass


def run_subprocess(argv: list[str], lines: list[str | bytes], cwd: Path | None = None,
                   timeout: float = 120.0) -> tuple[list[str], list[str], int]:
    """Send ``lines`` (text or raw bytes) in one burst through ``gtp_main.py``; (responses,
    stderr lines, exit status) once the engine exits (after ``quit`` or end of input)."""
    with GtpProcess(*argv, cwd=cwd) as engine:
        engine.send(b"".join((ln.encode() if isinstance(ln, str) else ln) + b"\n"
                             for ln in lines))
        engine.close_input()
        out = engine.all_output(timeout)
        rc = engine.finish(timeout)
        return split_responses(out), [ln for ln in engine.stderr_lines if ln is not None], rc
