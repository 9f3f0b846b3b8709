"""What the engine reports about its searches outside live analysis: the statistics object
of ``nakade-stats json`` (one line of JSON, for scripts and the match referee), and
``printsgf [FILE]``, the game so far as SGF with the engine's view of each of its own
moves (win rate, visits, principal variation) as comments and Sabaki's SBKV win rates.

The statistics object: ``algo``, ``color`` (``b``/``w``, who the search was for), ``move``,
``winrate`` (of the move, from ``color``'s view, 0 .. 1), ``playouts``, ``seconds``,
``nodes``, ``visits`` and ``pv`` of the move (GTP vertices), and ``candidates``: up to
``STATS_CANDIDATES`` root moves, most visited first, each with ``move``, ``visits``,
``winrate``, ``prior``, ``pv`` and ``proven`` (1 a proven win, -1 a proven loss).
"""

import json

from .. import NAME
from ..game.coords import to_gtp
from ..core.layout import BLACK, WHITE
from ..game.sgf import black_winrate, save_game, search_note
from ..search.base import SearchResult
from .commands import expect, log
from .protocol import GtpError

STATS_CANDIDATES = 10
COLOR_LETTER = {BLACK: "b", WHITE: "w"}


def register(table):
    table.register("printsgf", printsgf)


def move_stats(result: SearchResult, color: int, move: int, size: int) -> dict:
    """The statistics object of ``result`` for ``move`` (the move played, which a cleanup
    rule may have chosen over the search's own)."""
    chosen = next((c for c in result.candidates if c.move == move), None)
    pv = (chosen.pv or [move]) if chosen is not None else [move]
    return dict(color=COLOR_LETTER[color], move=to_gtp(move, size),
                winrate=round(chosen.winrate if chosen else result.winrate, 4),
                playouts=result.playouts, seconds=round(result.seconds, 3),
                nodes=result.nodes, visits=chosen.visits if chosen else 0,
                pv=[to_gtp(m, size) for m in pv])


def stats_json(ctx) -> str:
    r = ctx.last_result
    if r is None:
        raise GtpError("no search yet")
    stats = dict(algo=ctx.algo, **move_stats(r, ctx.last_color, r.move, ctx.size))
    if r.komi is not None:
        stats["komi"] = r.komi
    stats["candidates"] = [
        dict(move=to_gtp(c.move, ctx.size), visits=c.visits, winrate=round(c.winrate, 4),
             prior=round(c.prior, 4), pv=[to_gtp(m, ctx.size) for m in (c.pv or [c.move])],
             proven=c.proven)
        for c in r.candidates[:STATS_CANDIDATES]]
    return json.dumps(stats, separators=(",", ":"))


def printsgf(ctx, args):
    """``printsgf [FILE]``: the SGF as the reply, or written to FILE (empty reply)."""
    expect(args, 0, 1)
    state = ctx.state
    comments, winrates, engine_colors = [], [], set()
    for index, (color, move) in enumerate(state.moves):
        entry = ctx.move_results.get(index)
        if entry is None or entry[:2] != (color, move):
            comments.append(None)
            winrates.append(None)
            continue
        stats = move_stats(entry[2], color, move, ctx.size)
        comments.append(f"{NAME}: {stats['seconds']:.2f} s; {search_note(stats)}")
        winrates.append(black_winrate(stats))
        engine_colors.add(color)
    data = save_game(state, black_name=NAME if BLACK in engine_colors else "",
                     white_name=NAME if WHITE in engine_colors else "", komi=ctx.komi
                     if ctx.game == "go" else None, comments=comments, winrates=winrates)
    if not args:
        return data.decode("utf-8")
    try:
        with open(args[0], "wb") as f:
            f.write(data)
    except OSError as exc:
        log(f"printsgf {args[0]}: {exc}")
        raise GtpError("cannot save file") from None
    return ""
