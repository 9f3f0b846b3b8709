"""One brain session over a pair of streams: reads command lines, has ``protocol`` parse
them and ``brain`` carry them out, writes the reply (after the MESSAGE and DEBUG lines the
brain queued), flushed at once.  One thread: the protocol allows it, and a manager sends
nothing while it waits for a move.

A move's clock starts when its command line arrives (for BOARD, the ``BOARD`` line), since
the manager's turn time covers every command but START, RECTSTART and RESTART.  A bad
command never ends the session: protocol errors and brain errors are ``ERROR`` replies,
unknown commands ``UNKNOWN``, and any other failure (a bug) is logged to stderr and answered
``ERROR internal error``.  ``END`` or the end of input ends it.
"""

import sys
import time
import traceback

from . import protocol
from .brain import ABOUT, Brain, BrainError
from .protocol import Command, ProtocolError, UnknownCommand


def log(text: str):
    print(text, file=sys.stderr, flush=True)


class Session:
    def __init__(self, brain: Brain, out, ready=None):
        """``out``: a binary stream; ``ready``: (an Event set once the kernels are loaded,
        the most seconds START waits for it), or None."""
        self.brain = brain
        self.out = out
        self.ready = ready
        self.handlers = {
            "START": self._start, "RECTSTART": self._start, "RESTART": self._restart,
            "BEGIN": lambda c, t: protocol.move(*self.brain.begin(t)),
            "TURN": lambda c, t: protocol.move(*self.brain.turn(*c.args, t)),
            "PLAY": lambda c, t: protocol.move(*self.brain.play(*c.args)),
            "TAKEBACK": self._takeback,
            "INFO": self._info,
            "ABOUT": lambda c, t: protocol.about(ABOUT),
        }

    def write(self, lines: list[str]):
        if lines:
            self.out.write("".join(line + "\n" for line in lines).encode("utf-8"))
            self.out.flush()

    def serve(self, lines):
        """Answer ``lines`` (an iterator of text lines) until END or their end."""
        for line in lines:
            received = time.monotonic()
            try:
                command = protocol.parse_line(line)
            except UnknownCommand as exc:
                self.write(self._notes() + [protocol.unknown(str(exc))])
                continue
            except ProtocolError as exc:
                self.write(self._notes() + [protocol.error(str(exc))])
                continue
            if command is None:
                continue
            if command.name == "END":
                return
            if command.name == "BOARD":
                stones, problem, ended = self._read_board(lines)
                if ended:
                    return
                reply = (protocol.error(problem) if problem is not None
                         else self._run(lambda c, t: protocol.move(
                             *self.brain.board(stones, t)), command, received))
            else:
                reply = self._run(self.handlers[command.name], command, received)
            if reply is not None:
                self.write(self._notes() + [reply])

    def _run(self, handler, command: Command, received: float) -> str | None:
        try:
            return handler(command, received)
        except (BrainError, ProtocolError) as exc:
            return protocol.error(str(exc))
        except Exception as exc:   # a bug: say so, and keep serving
            log(traceback.format_exc())
            return protocol.error(f"internal error: {exc!r}")

    def _read_board(self, lines) -> tuple[list, str | None, bool]:
        """The lines of a BOARD block up to DONE: (stones, the first problem or None,
        whether input ended or END came first)."""
        stones, problem = [], None
        for line in lines:
            if protocol.is_board_end(line):
                return stones, problem, False
            if line.strip().upper() == "END":
                return stones, problem, True
            if not line.strip():
                continue
            try:
                stones.append(protocol.parse_board_line(line))
            except ProtocolError as exc:
                problem = problem or str(exc)
        return stones, problem, True

    def _notes(self) -> list[str]:
        notes, self.brain.notes = self.brain.notes, []
        lines = []
        for kind, text in notes:
            lines += protocol.message(text) if kind == "message" else protocol.debug(text)
        return lines

    # -- handlers that are more than a call ------------------------------------------------
    def _start(self, command: Command, received: float) -> str:
        if self.ready is not None:
            event, seconds = self.ready
            event.wait(seconds)
        self.brain.start(*command.args)
        return protocol.ok()

    def _restart(self, command: Command, received: float) -> str:
        self.brain.restart()
        return protocol.ok()

    def _takeback(self, command: Command, received: float) -> str:
        self.brain.takeback(*command.args)
        return protocol.ok()

    def _info(self, command: Command, received: float) -> None:
        self.brain.info(*command.args)
        return None
