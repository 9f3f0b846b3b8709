"""The core GTP v2 commands (administration, board setup, moves, scoring, clocks, files,
handicap) as handlers ``handler(ctx, args) -> str`` registered into a ``CommandTable``.
Handlers only parse arguments, call the session (``context``) and format the reply.

Failure texts are the standard ones of docs/gtp.md section 1 (``syntax error``,
``illegal move``, ``unacceptable size``, ``cannot undo``, ``board not empty``,
``invalid number of stones``, ``bad vertex list``, ``cannot load file``); details go to
stderr.  Go-only commands (scoring, handicap, cleanup) do not exist in a Gobang session.
"""

import math
import re
import time

import numpy as np

from .. import NAME, __version__
from ..game.board_text import render
from ..game.coords import GTP_LETTERS, from_gtp, point, row_col, to_gtp
from ..core.layout import BLACK, WHITE
from ..game.state import IllegalMove, parse_color
from ..game.handicap import fixed_handicap_points, max_fixed_handicap, place_handicap
from ..scoring import STATUSES, final_score, result_text, stones_with_status
from ..game.sgf import load_game
from ..timecontrol import TimeSettings
from .protocol import CommandTable, GtpError, log

GO = ("go",)
PROTOCOL_VERSION = "2"
_VERTEX = re.compile(rf"[{GTP_LETTERS}]\d+", re.IGNORECASE)
COLOR_NAMES = {BLACK: "black", WHITE: "white"}


# -- argument parsing ----------------------------------------------------------------------

def expect(args: list[str], count: int, at_most: int | None = None):
    """Exactly ``count`` arguments (or ``count`` .. ``at_most``), else a syntax error."""
    if not count <= len(args) <= (count if at_most is None else at_most):
        raise GtpError("syntax error")


def color_arg(text: str) -> int:
    try:
        return parse_color(text)
    except ValueError:
        raise GtpError("syntax error") from None


def int_arg(text: str, low: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if low is not None and value < low:
        raise GtpError("syntax error")
    return value


def float_arg(text: str, low: float | None = None) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not math.isfinite(value) or (low is not None and value < low):
        raise GtpError("syntax error")
    return value


def move_arg(text: str, size: int, off_board: str = "illegal move") -> int:
    """A vertex or ``pass``: a syntax error when it is neither, ``off_board`` when it names
    a point beyond this board."""
    if text.lower() != "pass" and not _VERTEX.fullmatch(text):
        raise GtpError("syntax error")
    try:
        return from_gtp(text, size)
    except ValueError:
        raise GtpError(off_board) from None


def vertex_list(points, size: int) -> str:
    return " ".join(to_gtp(p, size) for p in points)


def interrupt_of(ctx):
    return ctx.request.interrupt if ctx.request is not None else None


def log_search(ctx, what: str, color: int, move: int):
    r = ctx.last_result
    komi = "" if r.komi is None else f" at komi {r.komi:g}"
    log(f"{what} {COLOR_NAMES[color]}: {to_gtp(move, ctx.size)}, win rate {r.winrate:.3f}"
        f"{komi}, {r.playouts} playouts in {r.seconds:.2f} s ({ctx.algo})")


# -- administration --------------------------------------------------------------------------

def register(table: CommandTable):
    """Add the core commands to ``table``, in the order ``list_commands`` shows them."""

    def known_command(ctx, args):
        return "true" if len(args) == 1 and table.lookup(args[0].lower(), ctx.game) else "false"

    def list_commands(ctx, args):
        return "\n".join(table.names(ctx.game))

    table.register("protocol_version", lambda ctx, args: PROTOCOL_VERSION)
    table.register("name", lambda ctx, args: NAME)
    table.register("version", lambda ctx, args: __version__)
    table.register("known_command", known_command)
    table.register("list_commands", list_commands)
    table.register("quit", quit_)
    table.register("boardsize", boardsize)
    table.register("clear_board", clear_board)
    table.register("komi", komi)
    table.register("play", play)
    table.register("genmove", genmove)
    table.register("reg_genmove", reg_genmove)
    table.register("undo", undo)
    table.register("showboard", showboard)
    table.register("final_score", final_score_, games=GO)
    table.register("final_status_list", final_status_list, games=GO)
    table.register("kgs-genmove_cleanup", genmove_cleanup, games=GO)
    table.register("fixed_handicap", fixed_handicap, games=GO)
    table.register("place_free_handicap", place_free_handicap, games=GO)
    table.register("set_free_handicap", set_free_handicap, games=GO)
    table.register("time_settings", time_settings)
    table.register("time_left", time_left)
    table.register("kgs-time_settings", kgs_time_settings)
    table.register("loadsgf", loadsgf)
    table.register("cputime", cputime)


def quit_(ctx, args):
    ctx.quitting = True
    return ""


def cputime(ctx, args):
    return f"{time.process_time():.3f}"


# -- board --------------------------------------------------------------------------------------

def boardsize(ctx, args):
    expect(args, 1)
    size = int_arg(args[0])
    try:
        ctx.new_game(size)
    except ValueError as exc:
        log(f"boardsize {size}: {exc}")
        raise GtpError("unacceptable size") from None
    return ""


def clear_board(ctx, args):
    ctx.new_game()
    return ""


def komi(ctx, args):
    expect(args, 1)
    ctx.set_komi(float_arg(args[0]))
    return ""


def showboard(ctx, args):
    state = ctx.state
    facts = [f"{COLOR_NAMES[state.to_play]} to play", f"move {state.move_count}"]
    if ctx.game == "go":
        b, w = state.captures
        facts += [f"komi {ctx.komi:g}", f"captures black {b} white {w}"]
    else:
        facts.append(f"rule {ctx.rules.variant}")
        if state.is_terminal():
            won = state.winner()
            facts.append(f"{COLOR_NAMES[won]} won" if won else "draw")
    return "\n" + render(state) + "\n" + ", ".join(facts)


# -- moves ---------------------------------------------------------------------------------------

def play(ctx, args):
    expect(args, 2)
    color = color_arg(args[0])
    move = move_arg(args[1], ctx.size)
    try:
        ctx.play(move, color)
    except IllegalMove as exc:
        log(f"illegal move {args[0]} {args[1]}: {exc}")
        raise GtpError("illegal move") from None
    return ""


def genmove(ctx, args):
    expect(args, 1)
    color = color_arg(args[0])
    move = ctx.commit(ctx.think(color, interrupt_of(ctx)).move, color)
    log_search(ctx, "genmove", color, move)
    return to_gtp(move, ctx.size)


def reg_genmove(ctx, args):
    expect(args, 1)
    color = color_arg(args[0])
    move = ctx.think(color, interrupt_of(ctx)).move
    log_search(ctx, "reg_genmove", color, move)
    return to_gtp(move, ctx.size)


def genmove_cleanup(ctx, args):
    """A genmove that does not pass while dead opponent stones remain (KGS cleanup)."""
    expect(args, 1)
    color = color_arg(args[0])
    result = ctx.think(color, interrupt_of(ctx))
    move = ctx.commit(ctx.cleanup_choice(result, color), color)
    log_search(ctx, "kgs-genmove_cleanup", color, move)
    return to_gtp(move, ctx.size)


def undo(ctx, args):
    if not ctx.state.can_undo():
        raise GtpError("cannot undo")
    ctx.state.undo()
    ctx.setup_changed()
    return ""


# -- scoring ------------------------------------------------------------------------------------

def final_score_(ctx, args):
    return result_text(final_score(ctx.state, seed=ctx.settings.seed))


def final_status_list(ctx, args):
    expect(args, 1)
    wanted = args[0].lower()
    if wanted not in STATUSES:
        raise GtpError("syntax error")
    return vertex_list(stones_with_status(ctx.state, wanted, seed=ctx.settings.seed), ctx.size)


# -- handicap ----------------------------------------------------------------------------------

def _place_handicap(ctx, points: list[int]):
    try:
        place_handicap(ctx.state, points)
    except IllegalMove as exc:
        log(f"handicap: {exc}")
        raise GtpError("bad vertex list") from None
    ctx.setup_changed()


def _handicap_count(ctx, args) -> int:
    expect(args, 1)
    count = int_arg(args[0])
    if not ctx.is_empty():
        raise GtpError("board not empty")
    return count


def fixed_handicap(ctx, args):
    count = _handicap_count(ctx, args)
    try:
        points = fixed_handicap_points(ctx.size, count)
    except ValueError:
        raise GtpError("invalid number of stones") from None
    _place_handicap(ctx, points)
    return vertex_list(points, ctx.size)


def place_free_handicap(ctx, args):
    count = _handicap_count(ctx, args)
    if not 2 <= count < ctx.size * ctx.size:
        raise GtpError("invalid number of stones")
    points = free_handicap_points(ctx.size, count)
    _place_handicap(ctx, points)
    return vertex_list(points, ctx.size)


def free_handicap_points(size: int, count: int) -> list[int]:
    """The fixed points as far as they go, then each further stone on the point farthest
    from the stones already placed (off the first line while there is room; ties to the
    first point in board order)."""
    fixed = min(count, max_fixed_handicap(size))
    placed = [row_col(p, size) for p in fixed_handicap_points(size, fixed)] if fixed >= 2 else []
    rows, cols = np.divmod(np.arange(size * size), size)
    inner = (rows > 0) & (rows < size - 1) & (cols > 0) & (cols < size - 1)
    nearest = np.full(size * size, np.inf)   # squared distance to the closest stone
    for r, c in placed:
        nearest = np.minimum(nearest, (rows - r) ** 2 + (cols - c) ** 2)
    while len(placed) < count:
        free = nearest > 0
        allowed = free & inner if (free & inner).any() else free
        r, c = divmod(int(np.argmax(np.where(allowed, nearest, -1))), size)
        placed.append((r, c))
        nearest = np.minimum(nearest, (rows - r) ** 2 + (cols - c) ** 2)
    return [point(r, c, size) for r, c in placed]


def set_free_handicap(ctx, args):
    if not ctx.is_empty():
        raise GtpError("board not empty")
    points = []
    for text in args:
        if not _VERTEX.fullmatch(text):
            raise GtpError("bad vertex list")
        move = move_arg(text, ctx.size, off_board="bad vertex list")
        if move in points:
            raise GtpError("bad vertex list")
        points.append(move)
    if not 2 <= len(points) < ctx.size * ctx.size:
        raise GtpError("invalid number of stones")
    _place_handicap(ctx, points)
    return ""


# -- clocks ------------------------------------------------------------------------------------

def time_settings(ctx, args):
    expect(args, 3)
    ctx.set_time_settings(TimeSettings(float_arg(args[0], 0), float_arg(args[1], 0),
                                       int_arg(args[2], 0)))
    return ""


def kgs_time_settings(ctx, args):
    """KGS's clocks: ``none``, ``absolute MAIN``, ``byoyomi MAIN PERIOD PERIODS`` (Japanese)
    or ``canadian MAIN PERIOD STONES``."""
    if not args:
        raise GtpError("syntax error")
    kind, rest = args[0].lower(), args[1:]
    if kind == "none":
        expect(rest, 0)
        settings = TimeSettings()
    elif kind == "absolute":
        expect(rest, 1)
        settings = TimeSettings.absolute(float_arg(rest[0], 0))
    elif kind in ("byoyomi", "canadian"):
        expect(rest, 3)
        main, period, count = float_arg(rest[0], 0), float_arg(rest[1], 0), int_arg(rest[2], 0)
        make = TimeSettings.japanese if kind == "byoyomi" else TimeSettings.canadian
        try:
            settings = make(main, period, count)
        except ValueError:
            raise GtpError("syntax error") from None
    else:
        raise GtpError("syntax error")
    ctx.set_time_settings(settings)
    return ""


def time_left(ctx, args):
    expect(args, 3)
    ctx.set_time_left(color_arg(args[0]), float_arg(args[1]), int_arg(args[2], 0))
    return ""


# -- files --------------------------------------------------------------------------------------

def loadsgf(ctx, args):
    expect(args, 1, 2)
    number = int_arg(args[1], 1) if len(args) == 2 else None
    try:
        loaded = load_game(args[0], number, game=ctx.game, rules=ctx.rules)
    except ValueError as exc:  # SgfError is one
        log(str(exc))
        raise GtpError("cannot load file") from None
    ctx.replace_state(loaded.state)
    return COLOR_NAMES[loaded.to_play]
