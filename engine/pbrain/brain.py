"""The engine side of a Gomocup brain: one Gobang game, the search back end that answers
its moves, and the limits the manager set.  ``engine.pbrain.session`` turns protocol lines
into calls here and the results back into lines; nothing here reads or writes a stream.

Every public method either does all it says or raises ``BrainError`` with a reason and
changes nothing (the session answers ``ERROR reason``).  Colours: the brain keeps its own
(``own``: black after BEGIN, white after a first TURN, and after BOARD black unless the
opponent has more stones), so a TURN plays the opponent's colour and a PLAY ours whatever
the move counts say.  BOARD takes any arrangement of stones (fields relative to the brain:
1 own, 2 the opponent's), in any counts and any order, with no renju check of the set-up
stones, and the brain moves next; only an occupied or off-board point, or a position
already won, is refused.  TAKEBACK takes any stone off, the last one by undo and any other
by replaying the rest, and the side whose stone it was moves next.  Coordinates: x the
column, y the row.

Back end: the same search configuration as the GTP engine (``engine.search.config``:
registry, spec grammar ``--algo``, presets ``--preset``, options ``--set`` or an INFO line
naming the option, seed), with
``BRAIN_OPTIONS`` as the brain's own defaults over the preset: the MCTS-Solver, so a proven
win is played at once, and no resignation, which the protocol does not have.
"""

import time
from dataclasses import dataclass

from .. import NAME, __version__
from ..core.layout import BLACK, WHITE
from ..game.coords import point, row_col
from ..game.gobang_state import GobangState
from ..game.rules import GobangRules
from ..search.config import SearchConfig
from .limits import LIMIT_KEYS, Limits, own_moves_left, rule_variant
from .memory import held_bytes, node_bytes, pool_nodes
from .thinker import Thinker

BRAIN_OPTIONS = (("solver", "1"), ("resign_threshold", "0"))
MIN_POOL_NODES = 1_000
ABOUT = {"name": NAME, "version": __version__, "author": "the nakade authors",
         "country": "unknown"}
OWN, OPPONENT, MARKER = 1, 2, 3


class BrainError(Exception):
    """A command the brain cannot carry out; the message says why.  Nothing changed."""


@dataclass(frozen=True)
class BrainSettings(SearchConfig):
    """The command line: the search (``SearchConfig``, on Gobang, with the brain's own
    defaults) and fixed per-move caps."""
    game: str = "gobang"
    defaults: tuple[tuple[str, str], ...] = BRAIN_OPTIONS
    playouts: int | None = None
    seconds: float | None = None


class Brain:
    def __init__(self, settings: BrainSettings, searcher=None, ready=None):
        """``ready``: an Event the start-up sets once the kernels are loaded (moves before
        it are quick moves), or None."""
        self.settings = settings
        searcher = searcher if searcher is not None else settings.make_searcher()[0]
        self.thinker = Thinker(searcher, settings.seed, ready)
        self.max_nodes = int(searcher.options()["max_nodes"])   # the most the pool gets
        self.limits = Limits()
        self.variant = "freestyle"
        self.state: GobangState | None = None
        self.own: int | None = None              # the brain's colour, once known
        self.notes: list[tuple[str, str]] = []   # ("message" | "debug", text) to send
        self._rule_problem: str | None = None
        self._pool_for: int | None = None        # the max_memory the pool was sized for

    # -- set-up ------------------------------------------------------------------------
    def start(self, width: int, height: int | None = None):
        """A new empty board (square only)."""
        if height is not None and height != width:
            raise BrainError(f"rectangular boards are not supported ({width}x{height})")
        try:
            rules = GobangRules(size=width, variant=self.variant)
        except ValueError as exc:
            raise BrainError(f"unsupported size: {exc}") from None
        self.state = GobangState(rules)
        self.own = None
        self.thinker.reset()

    def restart(self):
        self.start(self._board().size)

    def info(self, key: str, value: str):
        """One INFO line.  Problems cannot be answered now (INFO has no reply): a bad value
        becomes a MESSAGE before the next reply; a rule the brain cannot play makes every
        move command an ERROR until it changes (a memory limit only cuts the search)."""
        try:
            if key in self.thinker.searcher.options() and key not in LIMIT_KEYS:
                self._set_option(key, value)
                return
            self.limits.set(key, value)
        except ValueError as exc:
            self.notes.append(("message", f"{exc}; ignored"))
            return
        if key == "rule":
            self._set_rule(self.limits.rule)

    def _set_option(self, key: str, value: str):
        """A back-end option by its own name (``INFO c 0.5``: what ``--set`` and GTP's
        ``nakade-set`` take); ``max_nodes`` is the most a memory limit may then give the
        pool."""
        self.thinker.searcher.set_option(key, value)
        if key == "max_nodes":
            self.max_nodes = int(self.thinker.searcher.options()["max_nodes"])
            self._pool_for = None

    def _set_rule(self, mask: int):
        try:
            variant = rule_variant(mask)
        except ValueError as exc:
            self._rule_problem = str(exc)
            return
        if self.state is not None and variant != self.variant:
            try:
                state = self._replay(GobangRules(self.state.size, variant), self.state.moves)
            except BrainError as exc:
                self._rule_problem = f"rule {mask}: {exc}"
                return
            state.to_play = self.state.to_play
            self.state = state
            self.thinker.reset()
        self.variant, self._rule_problem = variant, None

    # -- moves -------------------------------------------------------------------------
    def begin(self, received: float) -> tuple[int, int]:
        state = self._playable()
        if state.move_count:
            raise BrainError(f"BEGIN needs an empty board, this one has {state.move_count} "
                             f"stones (send RESTART or BOARD)")
        self.own = state.to_play
        return self._answer(received)

    def turn(self, x: int, y: int, received: float) -> tuple[int, int]:
        """The opponent played (x, y): play it and answer."""
        state = self._playable()
        p = self._point(x, y)
        own = self.own or 3 - state.to_play
        self._play(p, 3 - own)
        self.own = own
        try:
            if state.is_terminal():
                how = "fills the board" if state.winner() == 0 else "makes five"
                raise BrainError(f"{x},{y} {how}: the game is over, no move to answer")
            return self._answer(received)
        except BrainError:
            state.undo()
            self.thinker.reset()
            raise

    def play(self, x: int, y: int) -> tuple[int, int]:
        """The manager imposes our move (PLAY, the answer to a SUGGEST)."""
        state = self._playable()
        self._play(self._point(x, y), self.own or state.to_play)
        return x, y

    def board(self, stones: list[tuple[int, int, int]], received: float) -> tuple[int, int]:
        """A whole position (x, y, field), then a move for it."""
        old = self._board()
        self._check_playable()
        n = old.size
        seen = set()
        own, theirs = [], []
        for x, y, field in stones:
            p = self._point(x, y)
            if p in seen:
                raise BrainError(f"BOARD names {x},{y} twice")
            seen.add(p)
            if field == MARKER:
                raise BrainError(f"BOARD field 3 at {x},{y}: continuous games are not "
                                 f"supported")
            (own if field == OWN else theirs).append(p)
        if len(seen) >= n * n:
            raise BrainError(f"BOARD has {len(seen)} stones: no empty point is left on the "
                             f"{n}x{n} board")
        # black moves when the counts are equal, and has the extra stones of a set-up
        mine = BLACK if len(own) >= len(theirs) else WHITE
        stones = [(mine if field == OWN else 3 - mine, self._point(x, y))
                  for x, y, field in stones]
        state = self._replay(old.rules, stones)
        if state.is_terminal():
            raise BrainError("the game is already over in that position")
        state.to_play = mine
        old_own, self.state, self.own = self.own, state, mine
        self.thinker.reset()
        try:
            return self._answer(received)
        except BrainError:
            self.state, self.own = old, old_own
            self.thinker.reset()
            raise

    def takeback(self, x: int, y: int):
        state = self._board()
        p = self._point(x, y)
        colour = state.color_at(p)
        if colour not in (BLACK, WHITE):
            raise BrainError(f"no stone at {x},{y} to take back")
        if state.moves[-1][1] == p:
            state.undo()
        else:
            self.state = state = self._replay(state.rules,
                                              [m for m in state.moves if m[1] != p])
        state.to_play = colour
        self.thinker.reset()

    # -- the engine's answer -------------------------------------------------------------
    def _answer(self, received: float) -> tuple[int, int]:
        state = self.state
        if state.is_terminal():
            raise BrainError("the game is over")
        self._size_pool()
        moves_left = own_moves_left(state.move_count, len(state.empty_points()))
        budget = self.limits.move_seconds(moves_left, self.settings.seconds)
        left = budget - (time.monotonic() - received) if budget > 0 else 0.0
        p = self.thinker.think(state, max(left, 0.0), self.settings.playouts)
        self._play(p)
        spent = time.monotonic() - received
        self.limits.spend(spent)
        result = self.thinker.last
        if result is None:
            self.notes.append(("debug", f"quick move (no search) in {spent:.3f} s"))
        else:
            self.notes.append(("debug", f"{result.playouts} playouts, win rate "
                                        f"{result.winrate:.3f}, {spent:.3f} s of "
                                        f"{budget:.3f} s"))
        r, c = row_col(p, state.size)
        return c, r

    def _size_pool(self):
        """Fit the node pool to ``max_memory`` when it changed (the tree is dropped); a
        limit that leaves less than the configured pool cuts it, with a MESSAGE."""
        limit = self.limits.max_memory or None
        if limit == self._pool_for:
            return
        searcher = self.thinker.searcher
        if limit is None:   # the limit was lifted: back to the configured pool
            searcher.set_option("max_nodes", str(self.max_nodes))
            self._pool_for = None
            return
        held = held_bytes(searcher)
        nodes = pool_nodes(limit, held, node_bytes(searcher), MIN_POOL_NODES, self.max_nodes)
        searcher.set_option("max_nodes", str(nodes))
        self._pool_for = limit
        mib = f"max_memory {limit // 2**20} MiB"
        if nodes < self.max_nodes:   # the limit cuts the search: the user should know
            self.notes.append(("message", f"{mib} cuts the search tree to {nodes} nodes "
                                          f"of {self.max_nodes} (the brain holds "
                                          f"{held // 2**20} MiB)"))
        else:
            self.notes.append(("debug", f"node pool: {nodes} nodes for {mib}"))

    # -- helpers -------------------------------------------------------------------------
    def _board(self) -> GobangState:
        if self.state is None:
            raise BrainError("no board yet: send START first")
        return self.state

    def _check_playable(self):
        if self._rule_problem is not None:
            raise BrainError(self._rule_problem)

    def _playable(self) -> GobangState:
        state = self._board()
        self._check_playable()
        return state

    def _point(self, x: int, y: int) -> int:
        n = self._board().size
        if not (0 <= x < n and 0 <= y < n):
            raise BrainError(f"{x},{y} is off the {n}x{n} board")
        return point(y, x, n)

    def _play(self, p: int, colour: int | None = None):
        """``colour`` (the side to move if None) plays ``p``."""
        state = self.state
        colour = state.to_play if colour is None else colour
        why = state.why_illegal(p, colour)
        if why is not None:
            r, c = row_col(p, state.size)
            raise BrainError(f"{c},{r}: {why}")
        if colour == state.to_play:
            self.thinker.notify_play(state, p, colour)
        else:   # out of turn: the tree's children are the other side's
            self.thinker.reset()
        state.play(p, colour)

    @staticmethod
    def _replay(rules: GobangRules, stones) -> GobangState:
        """A new position of ``stones`` ((colour, point) in order, as set-up stones)."""
        state = GobangState(rules)
        for i, (colour, p) in enumerate(stones):
            if state.is_terminal():
                raise BrainError(f"the game is over after {i} of its {len(stones)} stones")
            state.place(p, colour)
        return state
