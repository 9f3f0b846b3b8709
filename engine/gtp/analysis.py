"""Live analysis for Sabaki and Lizzie: ``lz-analyze`` and ``kata-analyze`` stream the search
of the position until the next input line; ``lz-genmove_analyze`` and
``kata-genmove_analyze`` stream while a move is searched within the move budget, then
play it and end with ``play MOVE``.  Arguments: ``analysis_args``.  All four share the
session's interruptible search (``Context.search``); nothing here searches on its own.

Each info line holds every visited board move, best first, as
``info move V visits N winrate W [score fields] prior P lcb L order K pv V...`` with single
spaces and ``pv`` last, in the forms the clients parse (``docs/gtp.md``
section 3):

* lz dialect: ``visits``, ``winrate``, ``prior``, ``lcb``, ``order`` integers, the three
  rates in ten-thousandths (Lizzie reads them with ``Integer.parseInt``);
* kata dialect: the rates as decimals in [0, 1], always with a decimal point and never an
  exponent (Sabaki tells the dialects apart by the decimal point); in Go also
  ``scoreMean``/``scoreLead`` (the same number) and ``scoreStdev``, in points for the
  analysed side, from ``SCORE_PLAYOUTS`` light playouts after the move (Monte Carlo, not
  the search's value: cheap and rough), for the first ``SCORED_MOVES`` moves of a line;
* after the moves, when asked: ``rootInfo visits N winrate W [scoreLead S]``, then
  ``ownership`` and ``ownershipStdev``: one number per point, row by row from the top left
  (A19 on 19x19) to the bottom right, from the analysed side's view (+1: it owns the
  point, -1: the opponent does), as KataGo writes them.  Ownership is the Monte Carlo
  ownership of ``engine.scoring`` over ``OWNERSHIP_PLAYOUTS`` light playouts from the
  position, the analysed side moving first, computed once when the stream starts.

All rates are from the analysed side's view; the pv stops at its first pass.
"""

import math
import time
from itertools import takewhile

from ..game.coords import all_points, to_gtp
from ..core.layout import BLACK
from ..game.state import opponent
from ..scoring import playout_outcomes
from ..search.base import Budget, Candidate
from . import analysis_args
from .commands import log_search
from .protocol import GtpError, Stream

ANALYSIS_SECONDS = 24 * 3600.0    # a stream is stopped by the client, not by the budget
LCB_Z = 1.96
OWNERSHIP_PLAYOUTS = 200
SCORE_PLAYOUTS = 32
SCORED_MOVES = 10
LZ, KATA = "lz", "kata"


def register(table):
    table.register("lz-analyze", analyze(LZ))
    table.register("kata-analyze", analyze(KATA))
    table.register("lz-genmove_analyze", genmove_analyze(LZ))
    table.register("kata-genmove_analyze", genmove_analyze(KATA))


class Report:
    """Turns (partial) search results into info lines for one request."""

    def __init__(self, ctx, request, dialect: str):
        self.request, self.dialect = request, dialect
        self.size, self.seed = ctx.size, ctx.settings.seed
        self.root = ctx.root(request.color).clone()
        self.go = ctx.game == "go"
        self.sign = 1.0 if request.color == BLACK else -1.0
        self.scores: dict[int, tuple[float, float]] = {}
        self.owners = self.root_scores = None

    def prepare(self):
        """The expensive part, run inside the stream: the ownership playouts."""
        r = self.request
        if self.go and self.dialect == KATA and (r.ownership or r.ownership_stdev
                                                  or r.root_info):
            self.owners, self.root_scores = playout_outcomes(
                self.root, OWNERSHIP_PLAYOUTS, self.seed, first=r.color)

    def line(self, result) -> str:
        moves = self._moves(result)
        parts = [self._segment(c, order) for order, c in enumerate(moves)]
        if not parts:
            return ""
        r = self.request
        if self.dialect == KATA and r.root_info:
            parts.append(self._root_info(result, moves[0]))
        if self.owners is not None:
            black, white = self.owners[0], self.owners[1]
            points = all_points(self.size)
            if r.ownership:
                parts.append("ownership " + " ".join(
                    _decimal(self.sign * (black[p] - white[p])) for p in points))
            if r.ownership_stdev:
                parts.append("ownershipStdev " + " ".join(
                    _decimal(math.sqrt(max(black[p] + white[p] - (black[p] - white[p]) ** 2,
                                           0.0))) for p in points))
        return " ".join(parts)

    def _moves(self, result) -> list[Candidate]:
        r = self.request
        moves = [c for c in result.candidates
                 if c.visits > 0 and c.move >= 0 and r.permits(c.move)]
        if len(moves) < r.min_moves:
            shown = {c.move for c in moves}
            for p in self.root.legal_moves(r.color):
                if len(moves) >= r.min_moves:
                    break
                if int(p) not in shown and r.permits(int(p)):
                    moves.append(Candidate(move=int(p), visits=0, winrate=0.0))
        return moves if r.max_moves is None else moves[:r.max_moves]

    def _segment(self, c: Candidate, order: int) -> str:
        line = c.pv if c.pv and c.pv[0] == c.move else [c.move]
        pv = " ".join(to_gtp(m, self.size) for m in takewhile(lambda m: m >= 0, line))
        lcb = _lcb(c)
        if self.dialect == LZ:
            return (f"info move {to_gtp(c.move, self.size)} visits {c.visits} "
                    f"winrate {_permyriad(c.winrate)} prior {_permyriad(c.prior)} "
                    f"lcb {_permyriad(lcb)} order {order} pv {pv}")
        score = ""
        if self.go and order < SCORED_MOVES:
            lead, spread = self._score_after(c.move)
            score = (f" scoreMean {_decimal(lead)} scoreStdev {_decimal(spread)}"
                     f" scoreLead {_decimal(lead)}")
        return (f"info move {to_gtp(c.move, self.size)} visits {c.visits} "
                f"winrate {_decimal(c.winrate)}{score} prior {_decimal(c.prior)} "
                f"lcb {_decimal(lcb)} order {order} pv {pv}")

    def _score_after(self, move: int) -> tuple[float, float]:
        """(mean, standard deviation) of the final score for the analysed side after
        ``move``, over SCORE_PLAYOUTS light playouts; cached for the stream."""
        if move not in self.scores:
            after = self.root.clone()
            after.play(move, self.request.color)
            _, scores = playout_outcomes(after, SCORE_PLAYOUTS, self.seed,
                                         first=opponent(self.request.color))
            self.scores[move] = (self.sign * float(scores.mean()), float(scores.std()))
        return self.scores[move]

    def _root_info(self, result, best: Candidate) -> str:
        text = f"rootInfo visits {result.playouts} winrate {_decimal(best.winrate)}"
        if self.root_scores is not None:
            lead = self.sign * float(self.root_scores.mean())
            text += f" scoreLead {_decimal(lead)} scoreStdev {_decimal(self.root_scores.std())}"
        return text


def _lcb(c: Candidate) -> float:
    if c.visits <= 0:
        return 0.0
    spread = LCB_Z * math.sqrt(max(c.winrate * (1 - c.winrate), 0.0) / c.visits)
    return max(c.winrate - spread, 0.0)


def _permyriad(x: float) -> int:
    return min(10000, max(0, round(x * 10000)))


def _decimal(x: float) -> str:
    """Six decimals, no exponent, no negative zero: what every client's parser takes."""
    text = f"{x:.6f}"
    return text[1:] if text == "-0.000000" else text


def _request(ctx, args, dialect):
    request = analysis_args.parse(args, ctx.state.to_play, ctx.size, kata=dialect == KATA)
    if ctx.game != "go" and (request.ownership or request.ownership_stdev):
        raise GtpError("ownership is defined for Go only")
    return request, Report(ctx, request, dialect)


def _emitter(report, emit):
    """A ``progress`` callback that emits a line every ``interval`` seconds."""
    last = [time.monotonic()]

    def progress(partial):
        now = time.monotonic()
        if now - last[0] >= report.request.interval:
            last[0] = now
            emit(report.line(partial))

    return progress


def analyze(dialect: str):
    def handler(ctx, args):
        request, report = _request(ctx, args, dialect)

        def run(emit, stop):
            report.prepare()
            result = ctx.search(request.color, Budget(seconds=ANALYSIS_SECONDS), stop,
                                _emitter(report, emit), allowed=request.root_mask(report.root))
            if not stop.is_set():  # the search ended by itself (a solved or finished game)
                emit(report.line(result))
            stop.wait()

        return Stream(run)

    return handler


def genmove_analyze(dialect: str):
    """A ``genmove`` that streams info lines while it searches; GoGui's interrupt ends the
    search early, other input waits for the move (Leela Zero's and KataGo's rule)."""
    def handler(ctx, args):
        request, report = _request(ctx, args, dialect)
        gtp_request = ctx.request    # the session lets go of it before the stream runs

        def run(emit, stop):
            ctx.request = gtp_request   # the clock runs from the command's arrival
            try:
                report.prepare()
                color = request.color
                result = ctx.think(color, gtp_request.interrupt if gtp_request else None,
                                   _emitter(report, emit), request.root_mask(report.root))
                emit(report.line(result))
                move = ctx.commit(result.move, color)
            finally:
                ctx.request = None
            log_search(ctx, "genmove_analyze", color, move)
            emit(f"play {to_gtp(move, ctx.size)}")

        return Stream(run)

    return handler

