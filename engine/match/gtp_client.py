"""A GTP client for one engine subprocess, built to survive engines that misbehave.

Each command goes out with a numeric id (``7 genmove b``); the reply must be ``=7 ...`` or
``?7 ...`` (a reply without an id is accepted, since some engines drop it), followed by an
empty line (docs/gtp.md section 1).  What can go wrong, and what it raises -- all subclasses of
``EngineFault``, which means "this engine is no longer usable":

* ``EngineTimeout``: no complete reply within the command's timeout (a hang, or too slow);
* ``EngineCrash``: the engine closed its output or its input (it exited or crashed); the
  message carries the exit status and the last lines it wrote to stderr;
* ``EngineGarbage``: something that is not a GTP reply arrived (a stray stdout line, or a
  reply carrying the id of a command not yet sent).

A ``?`` reply is not a fault: ``send`` returns it as ``Reply(ok=False)`` and ``ask`` raises
``CommandFailed`` for it.  A reply with an older id than expected (the late answer to a
command that timed out) is skipped.

A reader thread moves stdout lines into a queue, so every wait has a deadline; another keeps
the last lines of stderr (and keeps the pipe from filling).  The engine runs in a session of
its own; ``close`` asks it to ``quit`` (unless a command timed out) and then kills its
whole process group, so nothing it started outlives the client.  ``kill_engines`` kills
every engine this process still has open at once: a worker killed with its parent calls it
(``engine.lifetime``).

``timeout`` (constructor): the deadline of every command sent without one of its own, so a
caller that gives none (a tsumego baseline) still cannot wait for ever on a hung engine.
"""

import os
import queue
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass

STDERR_LINES = 20      # stderr lines kept for crash reports
QUIT_SECONDS = 2.0     # how long ``close`` waits for a polite exit before killing
_EOF = None            # what the stdout reader queues when the pipe closes
_OPEN = weakref.WeakSet()   # clients not yet closed, for ``kill_engines``


def kill_engines():
    """Kill the process group of every open client at once (no ``quit``, no waiting)."""
    for client in list(_OPEN):
        try:
            os.killpg(client.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class EngineFault(RuntimeError):
    """The engine cannot be talked to any more; ``kind`` names how it failed."""
    kind = "fault"


class EngineTimeout(EngineFault):
    kind = "timeout"


class EngineCrash(EngineFault):
    kind = "crash"


class EngineGarbage(EngineFault):
    kind = "garbage"


class CommandFailed(RuntimeError):
    """The engine answered ``?`` to a command that ``ask`` needed to succeed."""


@dataclass(frozen=True)
class Reply:
    ok: bool          # '=' (True) or '?' (False)
    text: str         # the payload, lines joined with newlines, stripped
    seconds: float    # from sending the command to the end of the reply


class GtpClient:
    """One engine process.  ``argv`` is its command line (a list); ``env`` and ``cwd`` as
    for ``subprocess.Popen``; ``timeout``: seconds a command sent without a timeout of its
    own may wait (None: for ever).  Use as a context manager or call ``close``."""

    def __init__(self, argv, env=None, cwd=None, timeout: float | None = None):
        self.argv = list(argv)
        self.timeout = timeout
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd,
                                     start_new_session=True)
        self._lines: queue.Queue = queue.Queue()
        self._stderr: deque = deque(maxlen=STDERR_LINES)
        self._next_id = 1
        self._closed = False
        self._stuck = False   # a command timed out: ``close`` kills without asking
        self._readers = [threading.Thread(target=self._pump_stdout, daemon=True),
                         threading.Thread(target=self._pump_stderr, daemon=True)]
        for t in self._readers:
            t.start()
        _OPEN.add(self)

    # -- the readers (threads) -----------------------------------------------------------
    def _pump_stdout(self):
        try:
            for raw in self.proc.stdout:
                self._lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass  # the pipe was closed under us by ``close``
        self._lines.put(_EOF)

    def _pump_stderr(self):
        try:
            for raw in self.proc.stderr:
                self._stderr.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    # -- commands ------------------------------------------------------------------------
    def send(self, command: str, timeout: float | None = None) -> Reply:
        """Send one command and wait for its reply, at most ``timeout`` seconds (None: the
        client's ``timeout``).  EngineFault when the engine fails."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        if self._closed:
            raise EngineCrash(f"{self.program}: the client is closed")
        ident = self._next_id
        self._next_id += 1
        start = time.monotonic()
        try:
            self.proc.stdin.write(f"{ident} {command}\n".encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crash(f"could not send {command!r}") from None
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else start + timeout
        ok, text = self._read_reply(ident, command, deadline)
        return Reply(ok, text, time.monotonic() - start)

    def ask(self, command: str, timeout: float | None = None) -> str:
        """The payload of a successful reply; CommandFailed on a ``?`` reply."""
        reply = self.send(command, timeout)
        if not reply.ok:
            raise CommandFailed(f"{self.program}: {command!r} failed: {reply.text}")
        return reply.text

    def _next_line(self, command: str, deadline: float | None) -> str:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._stuck = True
            raise EngineTimeout(f"{self.program}: no reply to {command!r} within the time "
                                f"limit") from None
        if line is _EOF:
            self._lines.put(_EOF)  # every later read sees the end too
            raise self._crash(f"closed its output while answering {command!r}")
        return line

    def _read_reply(self, ident: int, command: str, deadline) -> tuple[bool, str]:
        while True:
            head = self._next_line(command, deadline)
            if head.strip() == "":
                continue  # blank lines between replies are harmless
            if head[0] not in "=?":
                raise EngineGarbage(f"{self.program}: not a GTP reply to {command!r}: "
                                    f"{head[:80]!r}")
            digits = len(head) - len(head[1:].lstrip("0123456789")) - 1
            got = int(head[1:1 + digits]) if digits else ident
            lines = [head[1 + digits:]]
            while (line := self._next_line(command, deadline)) != "":
                lines.append(line)
            if got == ident:
                return head[0] == "=", "\n".join(lines).strip()
            if got > ident:
                raise EngineGarbage(f"{self.program}: reply id {got} to {command!r}, which "
                                    f"was sent as {ident}")
            # an older id: the late reply to a command that timed out -- skip it

    # -- ending --------------------------------------------------------------------------
    @property
    def program(self) -> str:
        """A short name for messages: the program, or the script an interpreter runs."""
        names = [os.path.basename(a) for a in self.argv[:2]]
        if len(names) == 2 and names[0].startswith("python"):
            return names[1]
        return names[0] if names else "engine"

    def _goodbye(self) -> bytes:
        """What ``close`` sends to ask the engine to exit."""
        return f"{self._next_id} quit\n".encode()

    def stderr_tail(self) -> list[str]:
        return list(self._stderr)

    def _crash(self, what: str) -> EngineCrash:
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        how = "still running" if status is None else f"exit status {status}"
        tail = " | ".join(self.stderr_tail()[-3:])
        return EngineCrash(f"{self.program} {what} ({how})" + (f"; stderr: {tail}" if tail
                                                                else ""))

    def close(self):
        """Ask the engine to quit, then kill its process group; idempotent."""
        if self._closed:
            return
        self._closed = True
        _OPEN.discard(self)
        if self.proc.poll() is None and not self._stuck:
            try:
                self.proc.stdin.write(self._goodbye())
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(timeout=0 if self._stuck else QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        try:  # the engine's own children, and the engine itself if it did not quit
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        for t in self._readers:
            t.join(timeout=1.0)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
