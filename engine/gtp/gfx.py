"""GoGui's graphical analyze commands (type ``gfx``; GoGui lists them from
``gogui-analyze_commands``): a reply of ``gfx`` directives that GoGui draws on its board.

* ``nakade-gfx_ownership``: the Monte Carlo ownership of the position (``engine.scoring``,
  the side to move playing first) as ``INFLUENCE`` (+1 black's, -1 white's, GoGui's
  sign) and the playouts' mean area score as ``TEXT``.  Go only.
* ``nakade-gfx_pv [COLOUR]``: searches the position for COLOUR (default: the side to move)
  within the move budget, GoGui's interrupt ending it early, as ``reg_genmove`` does; the
  principal variation as ``VAR`` (stopping at its first pass) and the win rate as ``TEXT``.
* ``nakade-gfx_visits [COLOUR]``: the same search; every visited root move labelled with
  its visits (``LABEL``), the most visited marked, the totals as ``TEXT``.

While those two search, the visits so far go to stderr as GoGui's live graphics
(``gogui-gfx: LABEL ...`` every ``LIVE_SECONDS``), wiped with ``gogui-gfx: CLEAR`` before
the reply.
"""

import time
from itertools import takewhile

from ..game.coords import all_points, to_gtp
from ..core.layout import BLACK
from ..game.state import opponent
from ..scoring import playout_outcomes
from .analysis import OWNERSHIP_PLAYOUTS
from .commands import COLOR_NAMES, color_arg, expect, interrupt_of, log
from .protocol import GtpError

GO = ("go",)
LIVE_SECONDS = 0.5
PREFIX = "nakade-gfx_"
# GoGui analyze-menu entries (type/label/command) for ``gogui-analyze_commands``
ANALYZE_ENTRIES = (
    ("gfx", "Ownership", PREFIX + "ownership"),
    ("gfx", "Principal variation", PREFIX + "pv %c"),
    ("gfx", "Visits", PREFIX + "visits %c"),
)


def register(table):
    table.register(PREFIX + "ownership", ownership, games=GO)
    table.register(PREFIX + "pv", pv)
    table.register(PREFIX + "visits", visits)


def ownership(ctx, args):
    expect(args, 0)
    state = ctx.state
    owners, scores = playout_outcomes(state, OWNERSHIP_PLAYOUTS, ctx.settings.seed,
                                      first=state.to_play)
    values = " ".join(f"{to_gtp(p, ctx.size)} {owners[0, p] - owners[1, p]:.2f}"
                      for p in all_points(ctx.size))
    lead = float(scores.mean())
    leader = "B" if lead >= 0 else "W"
    return (f"INFLUENCE {values}\nTEXT {leader}+{abs(lead):.1f} by area, mean of "
            f"{OWNERSHIP_PLAYOUTS} light playouts")


def _search(ctx, args):
    expect(args, 0, 1)
    color = color_arg(args[0]) if args else ctx.state.to_play
    last = [time.monotonic()]

    def live(partial):
        if time.monotonic() - last[0] >= LIVE_SECONDS:
            last[0] = time.monotonic()
            log(f"gogui-gfx: LABEL {_labels(partial, ctx.size)}")

    result = ctx.think(color, interrupt_of(ctx), live)
    log("gogui-gfx: CLEAR")
    if not result.candidates:
        raise GtpError("no move to show")
    return color, result


def pv(ctx, args):
    color, result = _search(ctx, args)
    best = result.candidates[0]
    line = list(takewhile(lambda m: m >= 0, best.pv or [best.move]))
    who = [color, opponent(color)]
    moves = " ".join(f"{'b' if who[i % 2] == BLACK else 'w'} {to_gtp(m, ctx.size)}"
                     for i, m in enumerate(line))
    text = (f"TEXT {COLOR_NAMES[color]} {to_gtp(best.move, ctx.size)}: win rate "
            f"{100 * best.winrate:.1f}%, {best.visits} of {result.playouts} playouts")
    return f"VAR {moves}\n{text}" if moves else text


def visits(ctx, args):
    color, result = _search(ctx, args)
    shown = [c for c in result.candidates if c.move >= 0 and c.visits > 0]
    labels = _labels(result, ctx.size)
    lines = [f"LABEL {labels}"] if labels else []
    if shown:
        lines.append(f"SQUARE {to_gtp(shown[0].move, ctx.size)}")
    lines.append(f"TEXT {COLOR_NAMES[color]}: {result.playouts} playouts, "
                 f"{len(shown)} moves visited")
    return "\n".join(lines)


def _labels(result, size: int) -> str:
    """``LABEL`` arguments: each visited board move and its visits."""
    return " ".join(f"{to_gtp(c.move, size)} {c.visits}" for c in result.candidates
                    if c.move >= 0 and c.visits > 0)
