"""The contract between the search back ends and everything that uses them (GTP, scripts).

A back end is built by the registry from a name and ``key=value`` options, then asked to
``search(state, budget)``.  It returns a ``SearchResult`` and never plays the move itself;
the caller plays it and tells every back end with ``notify_play`` so trees can be reused.
Win rates are always from the point of view of the side to move at the root.
"""

import threading
from dataclasses import dataclass, field
from typing import Protocol

MAX_SECONDS = 1e6          # about 11.6 days: more than any move is given
MAX_COUNT = 10**15         # playouts or simulated moves: far beyond any search, fits int64
# a node's visits are int32 (``engine.search.tree``): a search whose root would pass this
# stops there, keeping clear of overflow by more than the visits threads have in flight.
# An analysis stream left running for hours on many cores reaches it.
MAX_VISITS = 2**31 - 1 - 2**20


@dataclass
class Budget:
    """Stop at whichever limit comes first; at least one must be set.

    ``playouts``: completed playouts; ``seconds``: wall-clock time; ``sim_moves``: forward
    model calls (moves simulated in tree and playouts, machine-independent).  Limits above
    ``MAX_SECONDS`` / ``MAX_COUNT`` (a client's way of saying "no limit": ``time_settings
    1e308 0 0``, or an infinite share of such a clock) are clamped to them, so the search's
    arithmetic on them stays finite; NaN is refused.

    ``spend_all``: time left unspent is lost (a byo-yomi period that starts again with
    every move), so a search runs to its deadline even once its move is settled: the
    extra playouts still grow the subtree the next move reuses."""
    playouts: int | None = None
    seconds: float | None = None
    sim_moves: int | None = None
    spend_all: bool = False

    def __post_init__(self):
        if self.playouts is None and self.seconds is None and self.sim_moves is None:
            raise ValueError("a budget needs playouts, seconds or sim_moves")
        for name in ("playouts", "seconds", "sim_moves"):
            v = getattr(self, name)
            if v is not None and not v > 0:   # NaN included
                raise ValueError(f"budget {name} must be positive, not {v}")
            if v is not None:
                setattr(self, name, min(v, MAX_SECONDS if name == "seconds" else MAX_COUNT))


@dataclass
class Candidate:
    move: int
    visits: int
    winrate: float          # mean reward in [0, 1] for the side to move at the root
    prior: float = 0.0      # the tree policy's prior for this move in [0, 1]
    pv: list[int] = field(default_factory=list)   # starts with ``move``
    proven: int = 0         # 1: a proven win for the side to move, -1: a proven loss


@dataclass
class SearchResult:
    move: int               # a board point, PASS or RESIGN
    winrate: float          # of the chosen move, root side's view
    playouts: int
    seconds: float
    nodes: int = 0
    sim_moves: int = 0
    candidates: list[Candidate] = field(default_factory=list)   # proven wins, then most visited
    komi: float | None = None   # the komi the simulations played with, when not the game's

    @property
    def pv(self) -> list[int]:
        return self.candidates[0].pv if self.candidates else [self.move]


@dataclass(frozen=True)
class Target:
    """A tsumego's fight, for the back ends that read one (``reads_fights``): the points of
    the defender's stones at stake and the side that must capture them
    (``engine.search.solver.fight_winner``)."""
    points: tuple
    attacker: int


class Searcher(Protocol):
    name: str
    landing: float   # seconds short of a time budget its callers aim the search

    def reset(self) -> None:
        """Forget everything (new game, new board size)."""

    def search(self, state, budget: Budget, stop: threading.Event | None = None,
               progress=None, allowed=None) -> SearchResult:
        """Search ``state`` (not modified) for its side to move within ``budget``.
        ``stop`` set from another thread ends the search early with the best move so far;
        ``progress(result)``, if given, is called every so often with a partial result
        (live analysis); ``allowed``, a uint8 mask over the padded board, keeps the root's
        moves inside a region (tsumego), pass staying allowed.  A back end with
        ``reads_fights`` also takes ``target`` (``Target``): the search then ends its
        simulations where that fight is decided and its solver proves them."""

    def notify_play(self, state, move: int, color: int) -> None:
        """``move`` was played on ``state`` (before the move): reuse what can be reused."""

    def set_option(self, key: str, value: str) -> None:
        """Set one parameter from text; ValueError with a clear message when it is bad."""

    def options(self) -> dict:
        """Current parameters, name -> value."""
