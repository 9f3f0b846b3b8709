"""The arguments of the live-analysis commands (``lz-analyze``, ``kata-analyze`` and their
``genmove_analyze`` forms), parsed into an ``AnalysisRequest``.

Grammar (Leela Zero's and KataGo's): ``[colour] [interval] KEY VALUE...``; the colour
defaults to the side to move, the interval (centiseconds) to Sabaki's 50.  Keys:

=======================  =============================================================
``interval N``           centiseconds between two info lines (a number, as KataGo takes)
``minmoves N``           at least N moves per line, unvisited legal moves filling up
``maxmoves N``           at most N moves per line
``avoid C MOVES DEPTH``  ``MOVES`` comma-separated vertices, or ``A1:C3`` rectangles
``allow C MOVES DEPTH``  only ``MOVES`` (Leela Zero's and KataGo's forms of both)
``ownership B``          kata: the ownership block (Go only)
``ownershipStdev B``     kata: its standard deviation per point
``rootInfo B``           kata: a ``rootInfo`` block for the whole search
=======================  =============================================================

``avoid``/``allow`` restrict the analysed colour's moves at the root (``root_mask``); the
search kernels take no restriction deeper than the root, so a restriction on the other
colour, or beyond the first ply, is accepted and not applied.  Like Leela Zero, ``allow``
and ``avoid`` of board points for the same colour cannot be combined.

Other keys KataGo documents (``pvVisits``, ``pvEdgeVisits``, ``movesOwnership``,
``movesOwnershipStdev``) and keys nobody documents are accepted and ignored with their value,
so a client written for another engine still gets its analysis.  A malformed value of a
key we use is a ``syntax error``.
"""

from dataclasses import dataclass, field

import numpy as np

from ..game.coords import from_gtp, point, row_col
from ..game.state import parse_color
from .commands import expect
from .protocol import GtpError

DEFAULT_INTERVAL_CS = 50          # Sabaki's
KATA_FLAGS = {"ownership": "ownership", "ownershipstdev": "ownership_stdev",
              "rootinfo": "root_info"}
RESTRICTIONS = ("avoid", "allow")


@dataclass
class AnalysisRequest:
    color: int
    interval: float = DEFAULT_INTERVAL_CS / 100.0   # seconds
    min_moves: int = 0
    max_moves: int | None = None
    ownership: bool = False
    ownership_stdev: bool = False
    root_info: bool = False
    avoid: set = field(default_factory=set)         # points the analysed colour may not play
    allow: set | None = None                        # when given: the only points it may play
    ignored: list = field(default_factory=list)     # keys accepted but not used

    def permits(self, move: int) -> bool:
        if move in self.avoid:
            return False
        return self.allow is None or move < 0 or move in self.allow

    def root_mask(self, state) -> np.ndarray | None:
        """The ``allowed`` mask of ``Searcher.search`` for the restrictions, or None."""
        if not self.avoid and self.allow is None:
            return None
        mask = np.zeros(state.s.shape[1], dtype=np.uint8)
        for p in state.points():
            mask[p] = self.permits(p)
        return mask


def parse(args: list[str], to_play: int, size: int, kata: bool) -> AnalysisRequest:
    """``args`` of an analysis command; GtpError for what cannot be honoured."""
    args = list(args)
    color = to_play
    if args and args[0].lower() in ("b", "w", "black", "white"):
        color = parse_color(args.pop(0))
    request = AnalysisRequest(color)
    if args and _is_number(args[0]):
        request.interval = _interval(args.pop(0))
    restricted = {}
    while args:
        key = args.pop(0).lower()
        if key in RESTRICTIONS:
            expect(args[:3], 3)
            color_text, moves, depth = args[:3]
            del args[:3]
            _restrict(request, key, _color(color_text), _moves(moves, size), _depth(depth),
                      restricted)
            continue
        expect(args[:1], 1)   # every other key has one value
        value = args.pop(0)
        if key == "interval":
            request.interval = _interval(value)
        elif key in ("minmoves", "maxmoves"):
            number = _count(value)
            if key == "minmoves":
                request.min_moves = number
            else:
                request.max_moves = number
        elif kata and key in KATA_FLAGS:
            setattr(request, KATA_FLAGS[key], _flag(value))
        else:
            request.ignored.append(key)
    return request


def _restrict(request, key, color, moves, depth, restricted):
    """Apply one avoid/allow to the root when it concerns the analysed colour."""
    kinds = restricted.setdefault(color, set())
    board_moves = {m for m in moves if m >= 0}
    if (key == "allow" and ("allow" in kinds or "avoid" in kinds)) or \
            (key == "avoid" and "allow" in kinds and board_moves):
        raise GtpError("allow cannot be combined with avoid or another allow")
    if key == "allow" or board_moves:
        kinds.add(key)
    if color != request.color or depth < 1:
        return
    if key == "avoid":
        request.avoid |= board_moves
    else:
        request.allow = board_moves


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _interval(text: str) -> float:
    try:
        centiseconds = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not 0 <= centiseconds < 1e9:
        raise GtpError("syntax error")
    return max(centiseconds, 1.0) / 100.0


def _count(text: str) -> int:
    if not text.isdigit():
        raise GtpError("syntax error")
    return int(text)


def _depth(text: str) -> int:
    number = _count(text)
    if number < 1:
        raise GtpError("syntax error")
    return number


def _flag(text: str) -> bool:
    value = text.lower()
    if value not in ("true", "false", "1", "0"):
        raise GtpError("syntax error")
    return value in ("true", "1")


def _color(text: str) -> int:
    try:
        return parse_color(text)
    except ValueError:
        raise GtpError("syntax error") from None


def _moves(text: str, size: int) -> list[int]:
    """Comma-separated vertices, ``pass``, or ``A1:C3`` rectangles (corners included)."""
    moves = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            if ":" in item:
                ends = [from_gtp(v, size) for v in item.split(":", 1)]
                if min(ends) < 0:   # a rectangle of passes
                    raise ValueError
                (r0, c0), (r1, c1) = (row_col(e, size) for e in ends)
                moves += [point(r, c, size) for r in range(min(r0, r1), max(r0, r1) + 1)
                          for c in range(min(c0, c1), max(c0, c1) + 1)]
            else:
                moves.append(from_gtp(item, size))
        except ValueError:
            raise GtpError(f"bad move list {text!r}") from None
    if not moves:
        raise GtpError(f"bad move list {text!r}")
    return moves
