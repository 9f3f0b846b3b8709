"""GTP extensions: the engine's own ``nakade-*`` commands (back end, parameters, budget,
statistics), GoGui's (``gogui-interrupt``, ``gogui-analyze_commands``, and the
``gogui-rules_*`` referee commands of Gobang), and live analysis (``lz-analyze``).

``nakade-algo SPEC [key=value...]`` switches the back end at run time (a spec is
``NAME[:key=value]...``, ``engine.search.registry``; the options given at start-up carry
over where the new back end knows them, and the reply names those it does not); ``nakade-set key value`` /
``nakade-get [key]`` set and read its parameters, ``nakade-param`` is the same pair in
GoGui's ``param`` form; ``nakade-budget [playouts N|off] [time S|off]`` sets the per-move
budget; ``nakade-stats`` shows the last search; ``nakade-ponder [on|off]`` switches
pondering (``Context.ponder``, run by the session between commands).

The ``gogui-rules_*`` commands exist in Gobang sessions only: GoGui takes an engine that
lists them as the referee of a non-Go game, which a Go session must not claim to be.
"""

import math
import time
from itertools import takewhile

from ..game.coords import to_gtp
from ..core.layout import BLACK, WHITE
from ..search import registry
from ..search.base import Budget
from .commands import COLOR_NAMES, color_arg, expect, float_arg, int_arg, vertex_list
from .protocol import CommandTable, GtpError, Stream

PREFIX = "nakade-"
GOBANG = ("gobang",)
STATS_CANDIDATES = 10
ANALYSIS_SECONDS = 24 * 3600.0    # a stream is stopped by the client, not by the budget
DEFAULT_INTERVAL_CS = 50          # Sabaki's
LCB_Z = 1.96
GAME_ID = "Gomoku"

# type/label/command of GoGui's analyze menu; an entry shows only when its command exists
ANALYZE_COMMANDS = (
    ("none", "Switch back end", "nakade-algo %s"),
    ("param", "Search parameters", "nakade-param"),
    ("none", "Search budget", "nakade-budget %s"),
    ("string", "Last search statistics", "nakade-stats"),
    ("pstring", "Generate move without playing", "reg_genmove %m"),
    ("string", "Final score", "final_score"),
    ("plist", "Dead stones", "final_status_list dead"),
    ("plist", "Seki stones", "final_status_list seki"),
    ("string", "Game result", "gogui-rules_final_result"),
    ("string", "Show board", "showboard"),
    ("string", "CPU time", "cputime"),
)


def register(table: CommandTable):
    def analyze_commands(ctx, args):
        return "\n".join(f"{kind}/{label}/{command}" for kind, label, command in ANALYZE_COMMANDS
                         if table.lookup(command.split()[0], ctx.game))

    table.register("gogui-interrupt", lambda ctx, args: "")
    table.register("gogui-analyze_commands", analyze_commands)
    table.register("lz-analyze", lz_analyze)
    table.register("gogui-rules_game_id", lambda ctx, args: GAME_ID, games=GOBANG)
    table.register("gogui-rules_board_size", lambda ctx, args: str(ctx.size), games=GOBANG)
    table.register("gogui-rules_legal_moves", rules_legal_moves, games=GOBANG)
    table.register("gogui-rules_side_to_move", rules_side_to_move, games=GOBANG)
    table.register("gogui-rules_board", rules_board, games=GOBANG)
    table.register("gogui-rules_final_result", rules_final_result, games=GOBANG)
    table.register("gogui-rules_captured_count", lambda ctx, args: "0 0", games=GOBANG)
    table.register(PREFIX + "algo", algo)
    table.register(PREFIX + "set", set_param)
    table.register(PREFIX + "get", get_param)
    table.register(PREFIX + "param", gogui_param)
    table.register(PREFIX + "budget", budget)
    table.register(PREFIX + "stats", stats)
    table.register(PREFIX + "ponder", ponder)


# -- back end --------------------------------------------------------------------------------

def algo(ctx, args):
    """``nakade-algo SPEC [KEY=VALUE...]``: the pairs add to the spec's options."""
    if not args:
        return ctx.algo
    try:
        spec = registry.parse_spec(args[0])
        pairs = dict(registry.parse_pair(pair) for pair in args[1:])
        unknown = ctx.switch_algo(str(registry.Spec(spec.name, spec.options | pairs)))
    except ValueError as exc:
        raise GtpError(str(exc)) from None
    if not unknown:
        return ""
    return ("start-up options not known to this back end, not applied: "
            + " ".join(f"{k}={v}" for k, v in unknown))


def ponder(ctx, args):
    """``nakade-ponder [on|off]``: switch pondering, or say whether it is on."""
    expect(args, 0, 1)
    if args:
        choice = args[0].lower()
        if choice not in ("on", "off"):
            raise GtpError(f"expected on or off, not {args[0]!r}")
        ctx.pondering = choice == "on"
    return "on" if ctx.pondering else "off"


def set_param(ctx, args):
    if len(args) == 1 and "=" in args[0]:
        args = args[0].split("=", 1)
    expect(args, 2)
    try:
        ctx.searcher.set_option(args[0], args[1])
    except ValueError as exc:
        raise GtpError(str(exc)) from None
    return ""


def _text(value) -> str:
    return str(int(value)) if isinstance(value, bool) else str(value)


def get_param(ctx, args):
    expect(args, 0, 1)
    options = ctx.searcher.options()
    if not args:
        return "\n".join(f"{key} {_text(value)}" for key, value in options.items())
    if args[0] not in options:
        raise GtpError(f"unknown option {args[0]!r} (known: {', '.join(options)})")
    return _text(options[args[0]])


def gogui_param(ctx, args):
    """GoGui ``param``: no arguments lists ``[type] key value`` lines; ``key value`` sets."""
    if args:
        return set_param(ctx, [args[0], " ".join(args[1:])])
    return "\n".join(f"[{'bool' if isinstance(v, bool) else 'string'}] {k} {_text(v)}"
                     for k, v in ctx.searcher.options().items())


def budget(ctx, args):
    if not args:
        time_text = "off" if ctx.seconds is None else f"{ctx.seconds:g}"
        return f"playouts {ctx.playouts or 'off'} time {time_text}"
    if len(args) % 2:
        raise GtpError("syntax error")
    playouts, seconds = ctx.playouts, ctx.seconds
    for key, value in zip(args[::2], args[1::2]):
        off = value.lower() == "off"
        if key == "playouts":
            playouts = None if off else int_arg(value, 1)
        elif key == "time":
            seconds = None if off else float_arg(value)
        else:
            raise GtpError(f"budget key must be playouts or time, not {key!r}")
    try:
        ctx.set_budget(playouts, seconds)
    except ValueError as exc:
        raise GtpError(str(exc)) from None
    return ""


def stats(ctx, args):
    r = ctx.last_result
    if r is None:
        raise GtpError("no search yet")
    lines = [f"{ctx.algo}: move {to_gtp(r.move, ctx.size)} win rate {r.winrate:.3f}, "
             f"{r.playouts} playouts in {r.seconds:.2f} s, {r.nodes} nodes"]
    for c in r.candidates[:STATS_CANDIDATES]:
        lines.append(f"{to_gtp(c.move, ctx.size)} visits {c.visits} winrate {c.winrate:.3f} "
                     f"prior {c.prior:.3f} pv {vertex_list(c.pv or [c.move], ctx.size)}")
    return "\n".join(lines)


# -- live analysis -------------------------------------------------------------------------------

def _analysis_args(ctx, args) -> tuple[int, float]:
    """``[b|w] [interval] [interval N]`` -> (colour, interval in seconds)."""
    color = ctx.state.to_play
    if args and args[0].lower() in ("b", "w", "black", "white"):
        color, args = color_arg(args[0]), args[1:]
    interval = DEFAULT_INTERVAL_CS
    if args and args[0].isdigit():
        interval, args = int(args[0]), args[1:]
    while args:
        if args[0].lower() != "interval":
            raise GtpError(f"unsupported analysis argument {args[0]!r}")
        expect(args[1:2], 1)
        interval, args = int_arg(args[1], 0), args[2:]
    return color, max(interval, 1) / 100.0


def info_line(result, size: int) -> str:
    """The lz dialect of ``docs/gtp.md`` section 3: every visited board move, best first;
    win rate, prior and lcb in ten-thousandths from the side to move's view; the pv cut at
    the first pass."""
    parts = []
    for c in result.candidates:
        if c.visits <= 0 or c.move < 0:
            continue
        line = c.pv if c.pv and c.pv[0] == c.move else [c.move]
        pv = [to_gtp(m, size) for m in takewhile(lambda m: m >= 0, line)]
        spread = LCB_Z * math.sqrt(max(c.winrate * (1 - c.winrate), 0.0) / c.visits)
        parts.append(f"info move {pv[0]} visits {c.visits} winrate {_permyriad(c.winrate)} "
                     f"prior {_permyriad(c.prior)} lcb {_permyriad(c.winrate - spread)} "
                     f"order {len(parts)} pv {' '.join(pv)}")
    return " ".join(parts)


def _permyriad(x: float) -> int:
    return min(10000, max(0, round(x * 10000)))


def lz_analyze(ctx, args):
    color, interval = _analysis_args(ctx, args)

    def run(emit, stop):
        last = [time.monotonic()]

        def progress(partial):
            now = time.monotonic()
            if now - last[0] >= interval:
                last[0] = now
                emit(info_line(partial, ctx.size))

        result = ctx.search(color, Budget(seconds=ANALYSIS_SECONDS), stop, progress)
        if not stop.is_set():  # the search ended by itself (a solved or finished position)
            emit(info_line(result, ctx.size))
        stop.wait()

    return Stream(run)


# -- GoGui referee (Gobang) -----------------------------------------------------------------------

def rules_legal_moves(ctx, args):
    state = ctx.state
    return "" if state.is_terminal() else vertex_list(state.legal_moves(), ctx.size)


def rules_side_to_move(ctx, args):
    return "b" if ctx.state.to_play == BLACK else "w"


def rules_board(ctx, args):
    """Rows of ``X O .`` top first, no labels: GoGui reads the symbols in order and would
    take an ``O`` or ``X`` of a column label for a stone."""
    symbol = {0: ".", BLACK: "X", WHITE: "O"}
    return "\n".join(" ".join(symbol[int(v)] for v in row) for row in ctx.state.board())


def rules_final_result(ctx, args):
    state = ctx.state
    if not state.is_terminal():
        return "undecided"
    won = state.winner()
    return f"{COLOR_NAMES[won]} wins" if won else "draw"
