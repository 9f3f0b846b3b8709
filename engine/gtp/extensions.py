"""GTP extensions: the engine's own ``nakade-*`` commands (back end, parameters, budget,
statistics), GoGui's (``gogui-interrupt``, ``gogui-analyze_commands``, and the
``gogui-rules_*`` referee commands of Gobang).  Live analysis is ``analysis``, GoGui's
graphics ``gfx``, ``printsgf`` and the JSON statistics ``reports``.

``nakade-algo SPEC [key=value...]`` switches the back end at run time (a spec is
``NAME[:key=value]...``, ``engine.search.registry``; the options given at start-up carry
over where the new back end knows them, and the reply names those it does not); ``nakade-set key
value`` / ``nakade-get [key]`` set and read its parameters, ``nakade-param`` is the same pair in
GoGui's ``param`` form; ``nakade-budget [playouts N|off] [time S|off]`` sets the per-move
budget; ``nakade-stats [json]`` shows the last search; ``nakade-ponder [on|off]`` switches
pondering (``Context.ponder``, run by the session between commands); ``nakade-ready``
answers once the start-up warm-up has loaded the kernels, so a referee that sends it
before the clock starts never has a timed move spent loading them (``genmove`` itself
never waits: a GUI's first move comes at once).

The ``gogui-rules_*`` commands exist in Gobang sessions only: GoGui takes an engine that
lists them as the referee of a non-Go game, which a Go session must not claim to be.
"""

from ..game.coords import to_gtp
from ..core.layout import BLACK, WHITE
from ..search import registry
from .commands import COLOR_NAMES, expect, float_arg, int_arg, vertex_list
from .gfx import ANALYZE_ENTRIES
from .protocol import CommandTable, GtpError
from .reports import STATS_CANDIDATES, stats_json

PREFIX = "nakade-"
GOBANG = ("gobang",)
GAME_IDS = {"renju": "Renju"}   # GoGui's name of the game; every other rule is Gomoku

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
) + ANALYZE_ENTRIES


def register(table: CommandTable):
    def analyze_commands(ctx, args):
        return "\n".join(f"{kind}/{label}/{command}" for kind, label, command in ANALYZE_COMMANDS
                         if table.lookup(command.split()[0], ctx.game))

    table.register("gogui-interrupt", lambda ctx, args: "")
    table.register("gogui-analyze_commands", analyze_commands)
    table.register("gogui-rules_game_id", rules_game_id, games=GOBANG)
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
    table.register(PREFIX + "ready", ready)


def ready(ctx, args):
    expect(args, 0)
    if ctx.warmed is not None:
        ctx.warmed.wait()
    return ""


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
    """``nakade-stats [json]``: the last search as text, or as one line of JSON."""
    expect(args, 0, 1)
    if args:
        if args[0].lower() != "json":
            raise GtpError(f"expected json, not {args[0]!r}")
        return stats_json(ctx)
    r = ctx.last_result
    if r is None:
        raise GtpError("no search yet")
    lines = [f"{ctx.algo}: move {to_gtp(r.move, ctx.size)} win rate {r.winrate:.3f}, "
             f"{r.playouts} playouts in {r.seconds:.2f} s, {r.nodes} nodes"]
    for c in r.candidates[:STATS_CANDIDATES]:
        lines.append(f"{to_gtp(c.move, ctx.size)} visits {c.visits} winrate {c.winrate:.3f} "
                     f"prior {c.prior:.3f} pv {vertex_list(c.pv or [c.move], ctx.size)}")
    return "\n".join(lines)


# -- GoGui referee (Gobang) -----------------------------------------------------------------------

def rules_game_id(ctx, args):
    return GAME_IDS.get(ctx.rules.variant, "Gomoku")


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
