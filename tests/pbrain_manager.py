"""A small Gomocup manager for the tests: starts brains as processes with pipes, as Piskvork
does, and plays them against each other, judging every move with its own five-in-a-row
check (plain Python, independent of the engine's kernels: the oracle).

``BrainProcess`` sends lines and reads replies with a deadline, setting MESSAGE and DEBUG
lines aside.  ``play_game`` plays one game with the protocol's two flows: BEGIN/TURN from
an empty board, or BOARD (each side's first move, when there is an opening) then TURN.
Each reply's time is measured from sending the command to the reply line.
"""

import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOTE_PREFIXES = ("MESSAGE", "DEBUG")
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class NoReply(AssertionError):
    """The brain did not answer in time, or exited."""


class BrainProcess:
    """``python -m engine.pbrain ARGS`` on pipes."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "engine.pbrain", *args], cwd=REPO,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        self.notes: list[str] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, sink):
        for raw in iter(stream.readline, b""):
            sink(raw.decode("utf-8", "replace").rstrip("\r\n"))
        sink(None)

    def send(self, *lines: str):
        self.proc.stdin.write("".join(line + "\r\n" for line in lines).encode())
        self.proc.stdin.flush()

    def reply(self, timeout: float) -> str:
        """The next line that is not a MESSAGE or DEBUG line."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise NoReply(f"no reply within {timeout} s") from None
            if line is None:
                raise NoReply(f"the brain exited; stderr: {self.stderr[-5:]}")
            if line.startswith(NOTE_PREFIXES):
                self.notes.append(line)
                continue
            return line

    def ask(self, *lines: str, timeout: float = 60.0) -> tuple[str, float]:
        """Send ``lines`` and wait for one reply: (the reply, seconds it took)."""
        start = time.monotonic()
        self.send(*lines)
        return self.reply(timeout), time.monotonic() - start

    def silent(self, seconds: float = 0.3) -> bool:
        """True when nothing but notes arrives for ``seconds``."""
        try:
            self.reply(seconds)
        except NoReply:
            return True
        return False

    def close(self) -> int:
        """END, then the exit status (killed after 10 s)."""
        try:
            self.send("END")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def parse_move(text: str, size: int) -> tuple[int, int]:
    x, y = (int(v) for v in text.split(","))
    assert 0 <= x < size and 0 <= y < size, f"move {text} off the board"
    return x, y


def makes_five(stones: dict, x: int, y: int, exact: bool) -> bool:
    """Whether the stone at (x, y) completes a line of five (exactly five if ``exact``)."""
    colour = stones[(x, y)]
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while stones.get((x + sign * k * dx, y + sign * k * dy)) == colour:
                run += 1
                k += 1
        if run == 5 or (run > 5 and not exact):
            return True
    return False


@dataclass
class Game:
    size: int
    exact: bool = False
    moves: list = field(default_factory=list)     # (x, y) alternating from black
    stones: dict = field(default_factory=dict)    # (x, y) -> 0 black, 1 white
    seconds: list = field(default_factory=list)   # reply times of the brains' moves
    winner: int | None = None                     # 0 black, 1 white, None: draw/unfinished

    def play(self, x: int, y: int):
        assert (x, y) not in self.stones, f"{x},{y} is occupied"
        colour = len(self.moves) % 2
        self.stones[(x, y)] = colour
        self.moves.append((x, y))
        if makes_five(self.stones, x, y, self.exact):
            self.winner = colour

    @property
    def over(self) -> bool:
        return self.winner is not None or len(self.moves) == self.size * self.size

    def board_lines(self, colour: int) -> list[str]:
        """The BOARD block for the side ``colour``: 1 its own stones, 2 the other's."""
        body = [f"{x},{y},{1 if self.stones[(x, y)] == colour else 2}"
                for x, y in self.moves]
        return ["BOARD", *body, "DONE"]


def start(brain: BrainProcess, size: int, infos: dict) -> None:
    reply, _ = brain.ask(f"START {size}")
    assert reply == "OK", reply
    brain.send(*(f"INFO {k} {v}" for k, v in infos.items()))


def play_game(black: BrainProcess, white: BrainProcess, size: int, infos: dict,
              opening=(), timeout: float = 60.0, max_moves: int | None = None) -> Game:
    """One game from ``opening`` ((x, y) moves), both brains already STARTed."""
    exact = int(infos.get("rule", 0)) & 1 == 1
    game = Game(size, exact)
    for x, y in opening:
        game.play(x, y)
    sides = (black, white)
    told = [False, False]      # whether a side has had its first command
    while not game.over and (max_moves is None or len(game.moves) < max_moves):
        colour = len(game.moves) % 2
        brain = sides[colour]
        if not game.moves:
            lines = ["BEGIN"]
        elif told[colour] or len(game.moves) == 1:
            lines = ["TURN {},{}".format(*game.moves[-1])]
        else:
            lines = game.board_lines(colour)
        told[colour] = True
        reply, seconds = brain.ask(*lines, timeout=timeout)
        game.play(*parse_move(reply, size))
        game.seconds.append(seconds)
    return game
