"""The referee of one game between two GTP engines.  Our own rules (``GoState``,
``GobangState``) decide legality and the end of the game; the engines only propose moves.

Per game: each engine gets ``list_commands``, ``name``, ``version``, ``nakade-ready``
when it lists it (our engine's kernels load before the clock starts), ``boardsize``,
``clear_board``, ``komi`` (Go), ``fixed_handicap`` (Go, when a handicap is set: black's
stones at the GTP points, white to move first), ``time_settings`` (when a clock is set) and
``nakade-budget playouts N`` (when a playout budget is set); the opening moves are played
into both; then the side to move gets ``genmove`` (after ``time_left`` when it has a
clock) and its move is checked and forwarded to the other with ``play``.  An engine that
lists ``nakade-stats`` is asked ``nakade-stats json`` after each move: the playouts it
spent, and its win rate, visits and principal variation, which go into the move's SGF
comment (``engine.game.sgf.search_note``) and Sabaki's win-rate graph (``winrates``).

How a game ends (``Outcome.reason``):

* ``resign``; ``score`` (Go, two passes in a row); ``five`` (Gobang win);
  ``full board`` (Gobang, a draw); ``move limit`` (``max_moves`` moves played, opening
  included: scored as a **draw**, since neither side has shown a win);
* a loss for the engine at fault: ``illegal`` (our rules refuse its move), ``bad reply``
  (not a vertex, ``pass`` or ``resign``, or a ``?`` to genmove), ``time`` (its clock ran
  out, or no reply within ``move_timeout`` without a clock), ``timeout`` (no reply to
  another command), ``crash`` (it exited), ``garbage`` (it wrote something that is not
  GTP);
* ``error``: a void game, no winner -- an engine answered ``?`` to a forwarded ``play`` or
  to the set-up (``boardsize``, ``clear_board``, ``komi``, the playout budget): the two
  engines disagree on the rules or the configuration, and neither is clearly to blame.

Go scoring after two passes.  Our score is Tromp-Taylor area counting (``GoState.score``),
which does **not** remove dead stones: it is right only for games played out.  Engines
such as GNU Go pass while dead stones remain, so both engines are asked ``final_score``:
when both answer and agree (same winner and margin), that is the result; otherwise our
area score is, and the disagreement is noted in ``detail``.  With ``cleanup`` the game
instead goes on after the first two passes with ``kgs-genmove_cleanup`` (``genmove`` for
an engine without it) until two more passes, and our area score is the result: the
cleanup phase captures the dead stones, so area counting is then exact.

Clocks (``TimeSettings``, Canadian byo-yomi, ``engine.timecontrol``): a move may take what
is left of the main time plus, when byo-yomi follows, one period -- or what is left of the
current period -- plus ``time_grace`` seconds for process and pipe overhead.  Without a
clock ``move_timeout`` bounds a move (hung engines).  Time is measured here, from sending
``genmove`` to the end of the reply.  GTP carries whole seconds: the times sent are rounded
down, and a clock that would round to "no limit" is enforced without being sent.
"""

import json
import random
import re
from dataclasses import dataclass, field

from ..game.coords import PASS, from_gtp, to_gtp
from ..core.layout import BLACK, WHITE
from ..game.state import GameState, IllegalMove, opponent
from ..game.handicap import fixed_handicap_points, with_fixed_handicap
from ..game.registry import GameConfig
from ..game.sgf import black_winrate, search_note
from ..timecontrol import Clock, TimeSettings
from .gtp_client import EngineFault, EngineTimeout, GtpClient

COLOUR_LETTER = {BLACK: "B", WHITE: "W"}
COLOUR_NAME = {BLACK: "black", WHITE: "white"}
MOVE_LIMIT_PER_POINT = 3        # default max_moves: 3 x the points of the board
STATS_COMMAND = "nakade-stats"  # our engine's report of its last search
BUDGET_COMMAND = "nakade-budget"  # our engine's per-move budget
CLEANUP_COMMAND = "kgs-genmove_cleanup"
READY_COMMAND = "nakade-ready"
# RE suffix of a loss by fault: T for time, F (forfeit) for the rest
FAULT_RESULT = {"time": "T", "timeout": "T"}


@dataclass(frozen=True)
class GameSetup(GameConfig):
    """Everything about a game except the engines: the game (``GameConfig``: rules from
    game, size, komi, Gobang rule, superko), clocks, limits, timeouts."""
    size: int = 9
    max_moves: int | None = None         # None: MOVE_LIMIT_PER_POINT x the board's points
    time: TimeSettings | None = None     # a clock per side, sent as time_settings
    time_grace: float = 0.5              # seconds a move may run over its clock
    move_timeout: float | None = 600.0   # bound on a move without a clock (None: none)
    command_timeout: float = 60.0        # bound on every other command
    startup_timeout: float = 300.0       # bound on the first command (start-up, imports)
    cleanup: bool = False                # Go: a kgs-genmove_cleanup phase before scoring
    playouts: int | None = None          # per-move playouts, set with nakade-budget
    handicap: int = 0                    # Go: black's fixed handicap stones (0: none)

    def __post_init__(self):
        self.rules()  # validates game, size, rule
        if self.handicap and (self.game != "go" or self.handicap < 2):
            raise ValueError("a handicap is 2 stones or more, and Go's only")
        if self.handicap:
            try:
                fixed_handicap_points(self.size, self.handicap)
            except ValueError:
                raise ValueError(f"a {self.size}x{self.size} board takes no fixed handicap "
                                 f"of {self.handicap}") from None

    def new_state(self) -> GameState:
        return with_fixed_handicap(super().new_state(), self.handicap)

    def seated(self, b_is_black: bool) -> "GameSetup":
        """The setup of one game once the seats are known (``b_is_black``: engine b has
        black); the same for both engines here, see ``BrainSetup``'s time odds."""
        return self

    @property
    def move_limit(self) -> int:
        if self.max_moves is not None:
            return self.max_moves
        return MOVE_LIMIT_PER_POINT * self.size * self.size


@dataclass
class PlayerRecord:
    """One side's part of a game."""
    name: str = ""                 # the engine's own ``name version``, when it says
    moves: int = 0                 # moves it generated
    seconds: float = 0.0           # total time of its genmove replies
    playouts: int | None = None    # total playouts it reported (nakade-stats), if any
    final_score: str | None = None


@dataclass
class Outcome:
    """How one game went.  ``winner`` is BLACK, WHITE, 0 (a draw) or None (void)."""
    winner: int | None
    reason: str
    result: str            # the SGF RE value: B+R, W+3.5, B+T, W+F, B+, Draw, Void
    detail: str
    state: GameState       # the final position, its history = the game's moves
    comments: list         # one per move in ``state.moves``: time, playouts
    players: dict          # BLACK / WHITE -> PlayerRecord
    area_score: float | None = None   # our Tromp-Taylor score, Go games that were scored
    score_source: str | None = None   # "engines" (agreed final_score) or "area"
    winrates: list = field(default_factory=list)  # per move: black's win rate, or None


class _GameOver(Exception):
    def __init__(self, winner, reason, result, detail):
        super().__init__(detail)
        self.winner, self.reason, self.result, self.detail = winner, reason, result, detail


def _forfeit(loser: int, reason: str, detail: str) -> _GameOver:
    winner = opponent(loser)
    suffix = FAULT_RESULT.get(reason, "F")
    return _GameOver(winner, reason, f"{COLOUR_LETTER[winner]}+{suffix}",
                     f"{COLOUR_NAME[loser]} loses: {detail}")


def _check_move_limit(state, limit: int):
    """The game is a draw once ``limit`` moves have been played."""
    if len(state.moves) >= limit:
        raise _GameOver(0, "move limit", "Draw", f"move limit of {limit} moves reached")


def _outcome(end, state, comments: list, sides: dict, winrates: list,
             area_score: float | None = None, score_source: str | None = None) -> Outcome:
    """The ``Outcome`` of a game that ended with ``end`` (its winner, reason, result and
    detail); the comment of the last move gets the detail."""
    if comments:
        comments[-1] = f"{comments[-1]}; {end.detail}"
    return Outcome(end.winner, end.reason, end.result, end.detail, state, comments,
                   {c: s.record for c, s in sides.items()}, area_score, score_source,
                   winrates)


def _void(detail: str) -> _GameOver:
    return _GameOver(None, "error", "Void", detail)


def score_text(score: float) -> str:
    """A black-relative score as a GTP/SGF result: B+3.5, W+12, 0."""
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"


def parse_score(text: str | None) -> float | None:
    """A ``final_score`` answer as a black-relative number; None when it is not a score."""
    if text is None:
        return None
    t = text.strip().upper()
    if t in ("0", "DRAW", "JIGO"):
        return 0.0
    m = re.fullmatch(r"([BW])\+(\d+(?:\.\d*)?)", t)
    if m is None:
        return None
    margin = float(m.group(2))
    return margin if m.group(1) == "B" else -margin


def _winner_of(score: float) -> int:
    return BLACK if score > 0 else WHITE if score < 0 else 0


class _Side:
    """The referee's view of one engine: its client, clock, abilities and record."""

    def __init__(self, client: GtpClient, colour: int, setup: GameSetup):
        self.client, self.colour, self.setup = client, colour, setup
        self.clock: Clock | None = setup.time.fresh_clock() if setup.time else None
        self.commands: set[str] = set()
        self.told_time = False
        self.record = PlayerRecord()

    def fault(self, exc: EngineFault, during: str, reason: str | None = None) -> _GameOver:
        return _forfeit(self.colour, reason or exc.kind, f"{exc.kind} during {during}: {exc}")

    def send(self, command: str, timeout: float | None = None):
        try:
            return self.client.send(command, self.setup.command_timeout if timeout is None
                                    else timeout)
        except EngineFault as exc:
            raise self.fault(exc, command.split()[0]) from None

    def require(self, command: str, timeout: float | None = None) -> str:
        reply = self.send(command, timeout)
        if not reply.ok:
            raise _void(f"{COLOUR_NAME[self.colour]} refused {command!r}: {reply.text}")
        return reply.text

    def start(self):
        listed = self.send("list_commands", self.setup.startup_timeout)
        self.commands = set(listed.text.lower().split()) if listed.ok else set()
        name, version = self.send("name"), self.send("version")
        self.record.name = " ".join(r.text for r in (name, version) if r.ok and r.text)
        if READY_COMMAND in self.commands:   # our engines: kernels loaded before any clock
            self.send(READY_COMMAND, self.setup.startup_timeout)
        s = self.setup
        self.require(f"boardsize {s.size}")
        self.require("clear_board")
        if s.game == "go":
            self.require(f"komi {s.komi:g}")
        if s.handicap:
            placed = self.require(f"fixed_handicap {s.handicap}").upper().split()
            ours = [to_gtp(p, s.size) for p in fixed_handicap_points(s.size, s.handicap)]
            if sorted(placed) != sorted(ours):
                raise _void(f"{COLOUR_NAME[self.colour]} placed the handicap at "
                            f"{' '.join(placed)}, not {' '.join(ours)}")
        if s.playouts is not None:
            if BUDGET_COMMAND not in self.commands:
                raise _void(f"{COLOUR_NAME[self.colour]} has no {BUDGET_COMMAND} command to "
                            f"set {s.playouts} playouts per move")
            self.require(f"{BUDGET_COMMAND} playouts {s.playouts}")
        # GTP carries whole seconds: round down, so an engine never plans with more time
        # than it has; a setting that rounds to "no limit" is not sent at all
        told = s.time and TimeSettings(int(s.time.main), int(s.time.byo_yomi), s.time.stones)
        if told and (s.time.unlimited or not told.unlimited):
            self.told_time = self.send(
                f"time_settings {int(told.main)} {int(told.byo_yomi)} {told.stones}").ok

    def allowed_seconds(self) -> float | None:
        """How long the next move may take by the clock; None without a clock."""
        if self.clock is None:
            return None
        t, c = self.setup.time, self.clock
        if t.unlimited:
            return self.setup.move_timeout
        extra = t.byo_yomi if c.stones == 0 and t.stones > 0 else 0.0
        return max(0.0, c.seconds) + extra

    def generate(self, command: str) -> tuple[str, float]:
        """Ask for a move; returns (reply text, seconds).  Time and faults are losses."""
        letter = COLOUR_LETTER[self.colour].lower()
        allowed = self.allowed_seconds()
        if self.told_time and self.clock is not None:
            self.send(f"time_left {letter} {int(self.clock.seconds)} {self.clock.stones}")
        if allowed is None:
            timeout = self.setup.move_timeout
        else:
            timeout = allowed + self.setup.time_grace
        try:
            reply = self.client.send(f"{command} {letter}", timeout)
        except EngineTimeout as exc:
            raise self.fault(exc, command, "time") from None
        except EngineFault as exc:
            raise self.fault(exc, command) from None
        if not reply.ok:
            raise _forfeit(self.colour, "bad reply", f"{command} failed: {reply.text}")
        if self.clock is not None and allowed is not None:
            self.clock.spend(min(reply.seconds, allowed), self.setup.time)
        self.record.moves += 1
        self.record.seconds += reply.seconds
        return reply.text, reply.seconds

    def last_stats(self) -> dict | None:
        """The engine's ``nakade-stats json`` about its last move (its playouts added to
        the record); None when it has no such command or its answer is not that object."""
        if STATS_COMMAND not in self.commands:
            return None
        reply = self.send(f"{STATS_COMMAND} json")
        try:
            stats = json.loads(reply.text) if reply.ok else None
            playouts = int(stats["playouts"])
            black_winrate(stats)   # a winrate and a colour it can read
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        self.record.playouts = (self.record.playouts or 0) + playouts
        return stats

    def ask_final_score(self) -> str | None:
        """The engine's ``final_score``; None when it fails (no penalty: the game is over)."""
        try:
            reply = self.client.send("final_score", self.setup.command_timeout)
        except EngineFault:
            return None
        return reply.text if reply.ok else None


class Referee:
    """Plays one game between ``black`` and ``white`` (started GtpClients) from
    ``opening`` (points, alternating from black, legal by our rules)."""

    def __init__(self, setup: GameSetup, black: GtpClient, white: GtpClient, opening=()):
        self.setup = setup
        self.sides = {BLACK: _Side(black, BLACK, setup), WHITE: _Side(white, WHITE, setup)}
        self.opening = list(opening)
        self.state = setup.new_state()
        self.comments: list[str] = []
        self.winrates: list[float | None] = []
        self.area_score: float | None = None
        self.score_source: str | None = None

    def play(self) -> Outcome:
        try:
            for side in self.sides.values():
                side.start()
            self._play_opening()
            self._play_moves("genmove")
            end = self._score()
        except _GameOver as over:
            end = over
        return _outcome(end, self.state, self.comments, self.sides, self.winrates,
                        self.area_score, self.score_source)

    def _forward(self, move: int, colour: int, to: int):
        vertex = to_gtp(move, self.setup.size)
        self.sides[to].require(f"play {COLOUR_LETTER[colour]} {vertex}")

    def _play_opening(self):
        for move in self.opening:
            colour = self.state.to_play
            self.state.play(move, colour)
            self.comments.append("opening")
            self.winrates.append(None)
            for to in (BLACK, WHITE):
                self._forward(move, colour, to)

    def _play_moves(self, phase: str):
        """Moves until two passes in a row (Go), a decided Gobang game, a resignation, a
        fault or the move limit; returns normally only after two passes."""
        passes = 0
        while passes < 2:
            if self.setup.game == "gobang" and self.state.is_terminal():
                raise gobang_end(self.state)
            _check_move_limit(self.state, self.setup.move_limit)
            colour = self.state.to_play
            side = self.sides[colour]
            command = (CLEANUP_COMMAND if phase == "cleanup" and CLEANUP_COMMAND
                       in side.commands else "genmove")
            text, seconds = side.generate(command)
            move = self._check(colour, text)
            stats = side.last_stats()
            note = f"{seconds:.3f} s" + (f"; {search_note(stats)}" if stats else "")
            self.comments.append(note if phase == "genmove" else f"{phase}: {note}")
            self.winrates.append(black_winrate(stats) if stats else None)
            self._forward(move, colour, opponent(colour))
            passes = passes + 1 if move == PASS else 0
        if self.setup.cleanup and phase == "genmove":
            self._play_moves("cleanup")

    def _check(self, colour: int, text: str) -> int:
        """Our rules' verdict on a genmove reply: the move, played; or the game's end."""
        word = text.strip()
        if word.lower() == "resign":
            winner = opponent(colour)
            raise _GameOver(winner, "resign", f"{COLOUR_LETTER[winner]}+R",
                            f"{COLOUR_NAME[colour]} resigns")
        try:
            move = from_gtp(word, self.setup.size)
        except ValueError:
            raise _forfeit(colour, "bad reply", f"unparsable move {word[:40]!r}") from None
        try:
            self.state.play(move, colour)
        except IllegalMove as exc:
            raise _forfeit(colour, "illegal", f"illegal move {exc}") from None
        return move

    def _score(self) -> _GameOver:
        """After two passes (Go): the result by the rule of the module docstring."""
        answers = {}
        for colour, side in self.sides.items():
            side.record.final_score = answers[colour] = side.ask_final_score()
        area = self.state.score()
        theirs = [parse_score(answers[c]) for c in (BLACK, WHITE)]
        said = (f"final_score black: {answers[BLACK] or '-'}, white: {answers[WHITE] or '-'}; "
                f"area: {score_text(area)}")
        if not self.setup.cleanup and theirs[0] is not None and theirs[0] == theirs[1]:
            score, source = theirs[0], "engines"
        else:
            score, source = area, "area"
        self.area_score, self.score_source = area, source
        return _GameOver(_winner_of(score), "score", score_text(score) if score else "Draw",
                        f"{score_text(score)} by {source} ({said})")


def gobang_end(state) -> _GameOver:
    """The end of a decided Gobang game: a five or a full board."""
    w = state.winner()
    if w == 0:
        return _GameOver(0, "full board", "Draw", "the board is full")
    return _GameOver(w, "five", f"{COLOUR_LETTER[w]}+", f"{COLOUR_NAME[w]} made five")


def random_opening(setup: GameSetup, k: int, seed: int) -> list[int]:
    """``k`` moves, each drawn uniformly from the legal board points (Go: no pass;
    Gobang: none that ends the game), from ``seed``; fewer when none are left."""
    rng = random.Random(seed)
    state = setup.new_state()
    moves = []
    for _ in range(k):
        candidates = [int(m) for m in state.legal_moves()]
        rng.shuffle(candidates)
        for move in candidates:
            state.play(move)
            if not state.is_terminal():
                moves.append(move)
                break
            state.undo()
        else:
            break
    return moves


def parse_opening(text: str, setup: GameSetup) -> list[int]:
    """GTP vertices (and ``pass`` in Go) separated by spaces or commas, alternating from
    black; ValueError when one is not on the board, illegal, or ends the game."""
    state = setup.new_state()
    moves = []
    for word in text.replace(",", " ").split():
        move = from_gtp(word, setup.size)
        try:
            state.play(move)
        except IllegalMove as exc:
            raise ValueError(f"opening {text.strip()!r}: {exc}") from None
        if state.is_terminal():
            raise ValueError(f"opening {text.strip()!r} ends the game")
        moves.append(move)
    return moves
