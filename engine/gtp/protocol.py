"""GTP v2 transport: line preprocessing, ids, '='/'?' framing, the command table, and the
two threads of a session (a reader that never stops reading stdin, one worker that answers
in order).  Knows nothing of Go: handlers come from ``commands`` and ``extensions``.

Input (GTP v2 section 2.5, ``docs/gtp.md`` section 1): control characters other than tab
and newline are dropped, tabs become spaces, everything from ``#`` on is a comment; a line
that is then empty gets no response.  ``[id] name args...``: ``id`` is an unsigned integer,
command names are matched exactly but case-insensitively.

Input lines are bounded (``MAX_LINE`` bytes): a longer one is read to its end and dropped
unparsed, and answered ``? line too long``.  If the reader fails in any way, input counts
as ended, so the engine exits instead of waiting for ever.

Output: ``=id payload`` or ``?id message``, then one empty line, flushed at once; stdout
carries nothing else.  Blank lines inside a payload would end the response early in every
client, so they are dropped.  Diagnostics (``log``, ``SafeStderr``) never raise: a closed,
full or broken stderr costs the diagnostics, never a reply.

Threads: the reader turns each stdin line into a ``Request`` and queues it; the worker (the
main thread) answers queued requests one by one.  Each request carries two events the
reader sets while the request is queued or running:

* ``interrupt``: a ``# interrupt`` line (GoGui's, sent while a command runs) arrived right
  after this request, i.e. before any other command line; a search stops early.
* ``followed``: any input line at all (command, comment or blank) arrived after this request,
  or input ended; a streaming command (live analysis) stops.

``Session.stop`` (SIGINT or SIGTERM, see ``engine.gtp.main``) sets both events of the
request being answered -- a search ends with its best move so far and is answered -- and
then nothing more is answered.

A handler returns the payload text, raises ``GtpError`` for a failure with a message, or
returns a ``Stream`` whose ``run(emit, stop)`` writes lines after an ``=`` header until
``stop`` (the request's ``followed`` event) is set.
"""

import queue
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

_DROPPED_CONTROLS = {c: None for c in range(32) if c not in (9, 10)}
_DROPPED_CONTROLS[127] = None
INTERRUPT_COMMENT = "interrupt"
ALL_GAMES = frozenset({"go", "gobang"})
MAX_LINE = 1 << 20   # bytes in one input line; GTP commands are a few dozen


class GtpError(Exception):
    """A failure reply: ``str(error)`` is the text after ``?``."""


def preprocess(raw: str) -> str:
    """The command part of an input line, per GTP: no controls, tabs as spaces, no comment."""
    line = raw.translate(_DROPPED_CONTROLS).replace("\t", " ")
    return line.split("#", 1)[0].strip()


def is_interrupt(raw: str) -> bool:
    """GoGui's interrupt line: a comment ``# interrupt`` and nothing else."""
    text = raw.strip()
    return text.startswith("#") and text[1:].strip().lower() == INTERRUPT_COMMENT


@dataclass
class Request:
    """One command line, parsed, with the events the reader sets while it waits or runs."""
    id: str | None
    name: str
    args: list[str]
    error: str | None = None   # the line could not be a command (too long): the reply
    received: float = field(default_factory=time.monotonic)
    interrupt: threading.Event = field(default_factory=threading.Event)
    followed: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def parse(cls, raw: str) -> "Request | None":
        """None for a line that gets no response (empty or comment only)."""
        words = preprocess(raw).split()
        if not words:
            return None
        ident = None
        if words[0].isdigit() and words[0].isascii():
            ident, words = words[0], words[1:]
        name = words[0].lower() if words else ""
        return cls(ident, name, words[1:])


def frame(ok: bool, ident: str | None, payload: str = "") -> str:
    """One complete response, terminating empty line included."""
    lines = payload.rstrip().split("\n")
    body = "\n".join([lines[0].rstrip()] + [ln.rstrip() for ln in lines[1:] if ln.strip()])
    return f"{'=' if ok else '?'}{ident or ''} {body}".rstrip(" ") + "\n\n"


@dataclass
class Stream:
    """A streaming success: the header ``=id`` goes out at once, then each line ``run``
    passes to ``emit``, then the terminating empty line once ``run`` returns.  ``run`` must
    keep going until ``stop`` is set, unless the command ends by itself (a
    ``genmove_analyze``)."""
    run: Callable[[Callable[[str], None], threading.Event], None]


@dataclass(frozen=True)
class Command:
    name: str
    handler: Callable
    games: frozenset = ALL_GAMES


class CommandTable:
    """The one list of commands: dispatch, ``list_commands`` and ``known_command`` read it,
    in registration order.  A command registered for some games only does not exist in the
    others."""

    def __init__(self):
        self._commands: dict[str, Command] = {}

    def register(self, name: str, handler: Callable, games=ALL_GAMES):
        if name in self._commands:
            raise ValueError(f"GTP command {name!r} registered twice")
        self._commands[name] = Command(name, handler, frozenset(games))

    def lookup(self, name: str, game: str) -> Command | None:
        cmd = self._commands.get(name)
        return cmd if cmd is not None and game in cmd.games else None

    def names(self, game: str) -> list[str]:
        return [c.name for c in self._commands.values() if game in c.games]


class Output:
    """Responses to a binary stream, UTF-8, flushed after each write; thread-safe."""

    def __init__(self, stream):
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, text: str):
        with self._lock:
            self._stream.write(text.encode("utf-8", "replace"))
            self._stream.flush()


def log(message: str):
    """One diagnostic to stderr (``main`` makes stderr safe for Lizzie, see ``SafeStderr``);
    never raises: a diagnostic that cannot be written is lost, the session goes on."""
    try:
        print(message, file=sys.stderr, flush=True)
    except Exception:  # noqa: BLE001 -- stderr closed, full, a broken pipe, None
        pass


# Lizzie merges stderr into stdout and reads lines starting like these, or containing ' -> ',
# as engine output (docs/gtp.md section 1).
_LIZZIE_PREFIXES = ("=", "?", "info", "play", "komi=", "opp_komi=", "Tuning")


class SafeStderr:
    """A text stream for ``sys.stderr`` that rewrites every line so no GUI mistakes it for
    a response: lines starting like a response get a ``| `` in front, and ``' -> '`` (which
    Python tracebacks print in type hints) becomes ``' => '``.  Writing never raises: once
    the stream fails (closed, full disk, broken pipe) or is None (started with stderr
    closed), everything written is dropped."""

    def __init__(self, stream):
        self._stream = stream
        self._broken = stream is None
        self._partial = ""
        self._lock = threading.Lock()

    @staticmethod
    def clean(line: str) -> str:
        line = line.replace(" -> ", " => ")
        return "| " + line if line.lstrip().startswith(_LIZZIE_PREFIXES) else line

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._partial = (self._partial + text).split("\n")
            if lines and not self._broken:
                try:
                    self._stream.write("".join(self.clean(ln) + "\n" for ln in lines))
                except Exception:  # noqa: BLE001 -- see the class docstring
                    self._broken = True
        return len(text)

    def flush(self):
        with self._lock:
            if not self._broken:
                try:
                    self._stream.flush()
                except Exception:  # noqa: BLE001 -- see the class docstring
                    self._broken = True

    def __getattr__(self, name):
        return getattr(self._stream, name)


class Reader(threading.Thread):
    """Reads binary lines (at most ``MAX_LINE`` bytes each) from ``stream`` into
    ``requests`` until end of input or any failure, then queues None.  Sets the events of
    the last request read as later lines arrive."""

    def __init__(self, stream, requests: "queue.Queue[Request | None]"):
        super().__init__(name="gtp-reader", daemon=True)
        self._stream = stream
        self._requests = requests

    def run(self):
        last = None
        try:
            while raw := self._stream.readline(MAX_LINE + 1):
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    self._skip_rest_of_line()
                    request = Request(None, "", [], error="line too long")
                    text = ""
                else:
                    text = raw.decode("utf-8", "replace")
                    request = Request.parse(text)
                if last is not None:
                    last.followed.set()
                    if is_interrupt(text):
                        last.interrupt.set()
                if request is not None:
                    self._requests.put(request)
                    last = request
        except (OSError, ValueError) as exc:
            log(f"input closed: {exc}")
        except BaseException as exc:  # noqa: BLE001 -- a dead reader must end the session
            log(f"input reader failed: {exc!r}")
        finally:
            if last is not None:
                last.followed.set()
            self._requests.put(None)

    def _skip_rest_of_line(self):
        while chunk := self._stream.readline(MAX_LINE):
            if chunk.endswith(b"\n"):
                return


class Session:
    """Answers requests in order: dispatch through the table, frame, write.  ``idle(stop)``,
    when given, runs whenever no request waits after an answer, until ``stop`` (the last
    request's ``followed``: any new input) is set -- pondering."""

    def __init__(self, table: CommandTable, context, output: Output, idle=None):
        self.table = table
        self.context = context
        self.output = output
        self.idle = idle
        self.running = True
        self.signal = None      # the signal that stopped the session (``stop``)
        self._current = None    # the request being answered, or last answered
        self._requests = None

    def stop(self, signum: int):
        """From any thread: end the running search or stream (it is still answered), then
        answer nothing more."""
        self.signal = signum
        self.running = False
        current = self._current
        if current is not None:
            current.interrupt.set()
            current.followed.set()
        if self._requests is not None:
            self._requests.put(None)   # wakes a session waiting for input

    def handle(self, request: Request):
        """Answer one request completely (a stream included)."""
        if request.error is not None:
            self.output.write(frame(False, request.id, request.error))
            return
        ctx = self.context
        command = self.table.lookup(request.name, ctx.game) if request.name else None
        if command is None:
            message = "unknown command" if request.name else "syntax error"
            self.output.write(frame(False, request.id, message))
            return
        ctx.request = request
        try:
            result = command.handler(ctx, request.args)
        except GtpError as exc:
            self.output.write(frame(False, request.id, str(exc)))
            return
        except Exception as exc:  # a bug must cost one reply, not the session
            log(f"internal error in {request.name}:\n{traceback.format_exc().rstrip()}")
            self.output.write(frame(False, request.id, f"internal error: {exc}"))
            return
        finally:
            ctx.request = None
        if isinstance(result, Stream):
            self._stream(request, result)
        else:
            self.output.write(frame(True, request.id, result or ""))
        if ctx.quitting:
            self.running = False

    def _stream(self, request: Request, stream: Stream):
        self.output.write(f"={request.id or ''}\n")

        def emit(line: str):
            text = " ".join(line.split())  # one line, single spaces (Lizzie splits on ' ')
            if text:
                self.output.write(text + "\n")

        try:
            stream.run(emit, request.followed)
        except Exception:
            log(f"internal error in {request.name}:\n{traceback.format_exc().rstrip()}")
            request.followed.wait()  # an ended stream leaves the client idle: wait anyway
        self.output.write("\n")

    def serve(self, requests: "queue.Queue[Request | None]"):
        """Answer until ``quit``, end of input or ``stop``."""
        self._requests = requests
        while self.running:
            request = requests.get()
            if request is None or not self.running:
                break
            self._current = request
            self.handle(request)
            if self.idle is not None and self.running and requests.empty():
                self.idle(request.followed)
