"""A Gomocup-protocol client for one brain subprocess: ``GtpClient``'s process handling (the
reader threads, deadlines, the process group killed on ``close``) with the brain protocol's
framing.

A command is one or more lines (``BOARD`` sends its block and ``DONE`` together); the reply
is the next line that is not ``MESSAGE`` or ``DEBUG`` -- those are kept in ``notes`` -- and
it is a failure when it starts with ``ERROR`` or ``UNKNOWN``.  ``INFO`` lines get no reply
(``tell``).  The faults are ``GtpClient``'s: ``EngineTimeout``, ``EngineCrash``;
``EngineGarbage`` does not occur, since any line may be a reply.  ``close`` sends ``END``.
"""

import time

from .gtp_client import EngineCrash, GtpClient, Reply

NOTE_PREFIXES = ("MESSAGE", "DEBUG")
FAILURE_PREFIXES = ("ERROR", "UNKNOWN")


class BrainClient(GtpClient):
    def __init__(self, argv, env=None, cwd=None, timeout: float | None = None):
        super().__init__(argv, env=env, cwd=cwd, timeout=timeout)
        self.notes: list[str] = []      # MESSAGE and DEBUG lines, in order

    def _write(self, lines: list[str]):
        for line in lines:
            if "\n" in line or "\r" in line:
                raise ValueError(f"a protocol line is one line: {line!r}")
        if self._closed:
            raise EngineCrash(f"{self.program}: the client is closed")
        try:
            self.proc.stdin.write("".join(line + "\r\n" for line in lines).encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crash(f"could not send {lines[0]!r}") from None

    def tell(self, *lines: str):
        """Lines that get no reply (INFO)."""
        self._write(list(lines))

    def send(self, command, timeout: float | None = None) -> Reply:
        """Send a command (a line, or a list of lines) and wait for its reply, at most
        ``timeout`` seconds (None: the client's ``timeout``).  EngineFault when the brain
        fails."""
        lines = [command] if isinstance(command, str) else list(command)
        start = time.monotonic()
        self._write(lines)
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else start + timeout
        while True:
            line = self._next_line(lines[0], deadline).strip()
            if not line:
                continue
            if line.upper().startswith(NOTE_PREFIXES):
                self.notes.append(line)
                continue
            ok = not line.upper().startswith(FAILURE_PREFIXES)
            return Reply(ok, line, time.monotonic() - start)

    def _goodbye(self) -> bytes:
        return b"END\r\n"
