"""The referee of one Gobang game between two Gomocup brains (``BrainClient``), as a Gomoku
manager plays it.  Our rules (``GobangState``) judge every move; the outcome is the GTP
referee's ``Outcome``, so the runner records and summarises both kinds of match alike.

Per game each brain gets ``START n`` (anything but OK voids the game), ``INFO`` with the
limits (``timeout_turn``, ``timeout_match``, ``max_memory`` in the protocol's milliseconds
and bytes, ``game_type 1``, the ``rule`` mask) and ``ABOUT`` (its name, when it says).
Then the side to move is asked: ``BEGIN`` on the empty board, ``TURN x,y`` with the
opponent's last move once it knows the position, ``BOARD`` with the whole position on its
first move after an opening (both sides get one, as managers do with openings); before
each, ``INFO time_left`` when the match time is limited.

Time odds: ``b_timeout_turn`` gives engine b a turn limit of its own (``--b-move-time``);
``seated`` tells each game's setup which colour b has.

A move is lost on time when it takes more than ``timeout_turn`` or what is left of
``timeout_match``, plus ``time_grace``; with neither, ``move_timeout`` bounds it.  Other
losses are the GTP referee's: ``illegal`` (our rules refuse it), ``bad reply`` (ERROR,
UNKNOWN or not ``x,y``), ``crash``.  A ``DEBUG`` or ``MESSAGE`` line saying ``N playouts``
and ``win rate W`` (ours does) gives the playouts the move used and the mover's win rate,
recorded as black's in the game record.
"""

import re
from dataclasses import dataclass, replace

from ..core.layout import BLACK, WHITE
from ..game.coords import point, row_col
from ..game.state import IllegalMove
from .brain_client import BrainClient
from .gtp_client import EngineFault, EngineTimeout
from .referee import (COLOUR_NAME, GameSetup, Outcome, PlayerRecord, _forfeit, _GameOver,
                      _check_move_limit, _outcome, _void, gobang_end)

RULE_MASKS = {"freestyle": 0, "exact5": 1, "renju": 4}
ABOUT_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')
PLAYOUTS_NOTE = re.compile(r"(\d+) playouts")
WINRATE_NOTE = re.compile(r"win rate (\d*\.?\d+)")


@dataclass(frozen=True)
class BrainSetup(GameSetup):
    """A Gobang game between brains: ``GameSetup``'s game, move limit and timeouts, with the
    Gomocup limits in place of a GTP clock (None: not sent).  Seconds and bytes here; the
    protocol's milliseconds are made on the way out."""
    protocol = "brain"           # a class attribute: the runner picks client and referee
    game: str = "gobang"
    size: int = 15
    timeout_turn: float | None = None
    timeout_match: float | None = None
    max_memory: int | None = None
    b_timeout_turn: float | None = None   # engine b's timeout_turn, when it has its own
    b_is_black: bool | None = None        # set per game by ``seated``

    def seated(self, b_is_black: bool) -> "BrainSetup":
        return self if self.b_timeout_turn is None else replace(self, b_is_black=b_is_black)

    def timeout_turn_of(self, colour: int) -> float | None:
        """The turn limit of the brain playing ``colour``."""
        if self.b_timeout_turn is not None and (colour == BLACK) == self.b_is_black:
            return self.b_timeout_turn
        return self.timeout_turn

    def __post_init__(self):
        super().__post_init__()
        if self.game != "gobang":
            raise ValueError("brains play Gobang only")
        if self.time is not None or self.playouts is not None or self.cleanup:
            raise ValueError("a brain match takes timeout_turn and timeout_match, not a GTP "
                             "clock, a playout budget or a cleanup phase")

    def infos(self, colour: int) -> list[str]:
        turn = self.timeout_turn_of(colour)
        pairs = [("timeout_turn", turn and int(turn * 1000)),
                 ("timeout_match", self.timeout_match and int(self.timeout_match * 1000)),
                 ("max_memory", self.max_memory), ("game_type", 1),
                 ("rule", RULE_MASKS[self.rule])]
        return [f"INFO {k} {v}" for k, v in pairs if v is not None]


def xy_text(p: int, size: int) -> str:
    r, c = row_col(p, size)
    return f"{c},{r}"


class _Brain:
    """The referee's view of one brain: its client, the moves it knows, time used."""

    def __init__(self, client: BrainClient, colour: int, setup: BrainSetup):
        self.client, self.colour, self.setup = client, colour, setup
        self.known = 0          # moves of the game this brain has been told
        self.used = 0.0         # seconds of match time
        self.record = PlayerRecord()
        self.winrate: float | None = None   # the last move's, as its note said

    def start(self):
        s = self.setup
        try:
            reply = self.client.send(f"START {s.size}", s.startup_timeout)
            if not reply.ok or reply.text.upper() != "OK":
                raise _void(f"{COLOUR_NAME[self.colour]} refused START {s.size}: "
                            f"{reply.text}")
            self.client.tell(*s.infos(self.colour))
            about = self.client.send("ABOUT", s.command_timeout)
        except EngineFault as exc:
            raise _forfeit(self.colour, exc.kind, f"{exc.kind} during start: {exc}") from None
        fields = dict(ABOUT_FIELD.findall(about.text)) if about.ok else {}
        self.record.name = " ".join(v for v in (fields.get("name"), fields.get("version"))
                                    if v)

    def allowed_seconds(self) -> float | None:
        limits = [t for t in (self.setup.timeout_turn_of(self.colour),
                              self.setup.timeout_match and self.setup.timeout_match
                              - self.used) if t is not None]
        return max(0.0, min(limits)) if limits else None

    def ask(self, moves: list[int]) -> tuple[int, float]:
        """This brain's move after ``moves``; a fault ends the game."""
        s, n = self.setup, self.setup.size
        if not moves:
            lines = ["BEGIN"]
        elif self.known == len(moves) - 1:
            lines = [f"TURN {xy_text(moves[-1], n)}"]
        else:
            own = len(moves) % 2   # the parity of this brain's moves
            lines = (["BOARD"] + [f"{xy_text(p, n)},{1 if i % 2 == own else 2}"
                                  for i, p in enumerate(moves)] + ["DONE"])
        allowed = self.allowed_seconds()
        timeout = s.move_timeout if allowed is None else allowed + s.time_grace
        notes = len(self.client.notes)
        try:
            if s.timeout_match:
                self.client.tell(f"INFO time_left {int((s.timeout_match - self.used) * 1000)}")
            reply = self.client.send(lines, timeout)
        except EngineTimeout as exc:
            raise _forfeit(self.colour, "time", f"no move in time: {exc}") from None
        except EngineFault as exc:
            raise _forfeit(self.colour, exc.kind, f"{exc.kind} during {lines[0]}: "
                                                  f"{exc}") from None
        self.used += reply.seconds
        self.record.moves += 1
        self.record.seconds += reply.seconds
        self.known = len(moves) + 1
        self._read_notes(self.client.notes[notes:])
        if not reply.ok:
            raise _forfeit(self.colour, "bad reply", f"{lines[0]} failed: {reply.text}")
        m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", reply.text)
        if m is None or not all(int(v) < n for v in m.groups()):
            raise _forfeit(self.colour, "bad reply", f"not a move: {reply.text[:40]!r}")
        x, y = int(m.group(1)), int(m.group(2))
        return point(y, x, n), reply.seconds

    def _read_notes(self, notes: list[str]):
        self.winrate = None
        for note in notes:
            found = PLAYOUTS_NOTE.search(note)
            if found:
                self.record.playouts = (self.record.playouts or 0) + int(found.group(1))
                rate = WINRATE_NOTE.search(note)
                self.winrate = float(rate.group(1)) if rate else None
                return


class BrainReferee:
    """Plays one game between ``black`` and ``white`` (started BrainClients) from
    ``opening`` (points, alternating from black, legal by our rules)."""

    def __init__(self, setup: BrainSetup, black: BrainClient, white: BrainClient,
                 opening=()):
        self.setup = setup
        self.sides = {BLACK: _Brain(black, BLACK, setup), WHITE: _Brain(white, WHITE, setup)}
        self.state = setup.new_state()
        self.opening = list(opening)
        self.comments: list[str] = []
        self.winrates: list[float | None] = []

    def play(self) -> Outcome:
        try:
            for side in self.sides.values():
                side.start()
            for move in self.opening:
                self.state.play(move)
                self.comments.append("opening")
                self.winrates.append(None)
            self._play_moves()
        except _GameOver as over:
            end = over
        return _outcome(end, self.state, self.comments, self.sides, self.winrates)

    def _play_moves(self):
        """Moves until the game is decided, a fault or the move limit (always raises)."""
        while True:
            if self.state.is_terminal():
                raise gobang_end(self.state)
            _check_move_limit(self.state, self.setup.move_limit)
            colour = self.state.to_play
            side = self.sides[colour]
            before = side.record.playouts
            move, seconds = side.ask([p for _, p in self.state.moves])
            if (side.setup.timeout_match is not None
                    and side.used > side.setup.timeout_match + side.setup.time_grace):
                raise _forfeit(colour, "time", "out of match time")
            try:
                self.state.play(move, colour)
            except IllegalMove as exc:
                raise _forfeit(colour, "illegal", f"illegal move {exc}") from None
            playouts = (None if side.record.playouts is None
                        else side.record.playouts - (before or 0))
            self.comments.append(f"{seconds:.3f} s" + (f", {playouts} playouts"
                                                       if playouts is not None else ""))
            rate = side.winrate
            self.winrates.append(None if rate is None else
                                 rate if colour == BLACK else 1.0 - rate)
