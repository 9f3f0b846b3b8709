"""What one GTP session holds and does, apart from the protocol: the game and its rules, the
position, the search back end and its budget, the clocks, and the last search's result.
Handlers in ``commands`` and ``extensions`` parse arguments and format replies; the state
changes and decisions they trigger live here.

Invariants: ``state`` always matches ``rules``; every move played through ``play`` or a
generated move is announced to the back end (``notify_play``) before it is played; the
back end is reset whenever the position changes other than by a move (new board, undo,
handicap, loaded file).  Komi belongs to the session, not the board, so it survives
``boardsize`` and ``clear_board``.
"""

import threading
import time
from dataclasses import dataclass, replace

from ..game.coords import RESIGN, to_gtp
from ..core.layout import BLACK, WHITE
from ..game.state import IllegalMove, opponent
from ..game.registry import new_state, names as game_names
from ..scoring import DEAD, stones_with_status
from ..search import registry
from ..search.base import Budget, SearchResult
from ..search.config import SearchConfig
from ..search.options import OptionConflict
from ..search.deadline import GuardedSearch, fallback_result, fresh_searcher
from .protocol import GtpError, log
from ..timecontrol import Clock, TimeSettings, allocate, time_saved_is_lost

GAMES = game_names()
DEFAULT_PLAYOUTS = 10_000   # the move budget when neither playouts, time nor a clock is given
PONDER_SECONDS = 3600.0     # a bound on one ponder: new input stops it long before
# How long past its time budget a search may run before the guard answers for it: with the
# reply's own overhead, a move stays within 50 ms of its allocation.
DEADLINE_SLACK = 0.01


@dataclass(frozen=True)
class Settings(SearchConfig):
    """The session's start-up configuration (the command-line options): the game and the
    search (``SearchConfig``: back end, seed, preset, options), and the move budget."""
    playouts: int | None = None
    seconds: float | None = None   # fixed per-move time
    ponder: bool = False           # search on the opponent's time


class Context:
    def __init__(self, settings: Settings, searcher=None):
        if settings.game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}")
        # a clock replaces the default budget; a budget the user chose stays a cap under it
        self.default_budget = settings.playouts is None and settings.seconds is None
        if self.default_budget:
            settings = replace(settings, playouts=DEFAULT_PLAYOUTS)
        self.settings = settings
        self.game = settings.game
        self.komi = settings.komi
        self.rules = settings.rules()
        self.algo = registry.parse_spec(settings.algo).name
        self.searcher = searcher if searcher is not None else settings.make_searcher()[0]
        self.playouts = settings.playouts
        self.seconds = settings.seconds
        self.pondering = settings.ponder
        self.time_settings: TimeSettings | None = None
        self.clocks: dict[int, Clock] = {}
        self.last_result: SearchResult | None = None
        self.last_color = BLACK                   # the colour ``last_result`` searched for
        # engine moves by their index in ``state.moves``: (colour, move, search result)
        self.move_results: dict[int, tuple[int, int, SearchResult]] = {}
        self.request = None          # the request being answered (set by the session)
        self.quitting = False
        self.warmed: threading.Event | None = None   # the start-up warm-up's end
        self._state = None

    # -- the position ----------------------------------------------------------------
    @property
    def state(self):
        """The position; built on first use so start-up never waits for the kernels."""
        if self._state is None:
            self._state = new_state(self.rules)
        return self._state

    @property
    def size(self) -> int:
        return self.rules.size

    def new_game(self, size: int | None = None):
        """Empty board of ``size`` (default: the current one); ValueError when the rules
        refuse the size, and then nothing changes."""
        rules = self.settings.rules(self.size if size is None else size, self.komi)
        self.rules = rules
        self._state = None
        self.move_results.clear()
        self.searcher.reset()
        if self.time_settings is not None:
            self.set_time_settings(self.time_settings)

    def set_komi(self, komi: float):
        self.komi = komi
        if self.game == "go":
            self.rules = replace(self.rules, komi=komi)
            self.state.rules = self.rules

    def replace_state(self, state):
        """Adopt a position built elsewhere (a loaded file); its rules become the session's."""
        self._state = state
        self.rules = state.rules
        if self.game == "go":
            self.komi = state.komi
        self.move_results.clear()
        self.searcher.reset()

    def setup_changed(self):
        """The position changed other than by a move (undo, handicap): trees are stale,
        and so are the search results of moves taken back."""
        played = len(self.state.moves)
        self.move_results = {i: r for i, r in self.move_results.items() if i < played}
        self.searcher.reset()

    def is_empty(self) -> bool:
        return not self.state.board().any()

    def play(self, move: int, color: int):
        """Play a move for ``color``; IllegalMove (and no change) when the rules refuse it."""
        why = self.state.why_illegal(move, color)
        if why is not None:
            raise IllegalMove(why)
        self.searcher.notify_play(self.state, move, color)
        self.state.play(move, color)

    def root(self, color: int):
        """The position to search for ``color``: the state itself, or a copy with ``color``
        to move (GTP lets either colour move at any time).  After two passes in Go, a side
        that would lose the area count searches on (a copy reopened: passing ends the game
        again) -- the client, not the engine, decides when the game is over."""
        reopen = self._passing_loses(color)
        if color == self.state.to_play and not reopen:
            return self.state
        root = self.state.clone()
        root.to_play = color
        if reopen:
            root.reopen()
        return root

    def _passing_loses(self, color: int) -> bool:
        if self.game != "go" or not self.state.is_terminal():
            return False
        score = self.state.score()
        return (score if color == BLACK else -score) < 0

    # -- searching ---------------------------------------------------------------------
    def move_budget(self, color: int, since: float | None = None) -> Budget:
        """The budget of one move for ``color``: the fixed playouts and seconds, and what
        the clock allows less the time already gone since the request arrived."""
        seconds, spend_all = self.seconds, False
        if self.time_settings is not None:
            share = allocate(self.time_settings, self.clocks[color], self.size ** 2,
                             self.moves_played())
            if share is not None:
                if since is not None:
                    share = max(share - (time.monotonic() - since), 0.01)
                seconds = share if seconds is None else min(seconds, share)
                spend_all = time_saved_is_lost(self.time_settings, self.clocks[color])
                if self.default_budget:
                    return Budget(seconds=seconds, spend_all=spend_all)
        return Budget(playouts=self.playouts, seconds=seconds, spend_all=spend_all)

    def moves_played(self) -> int:
        """How far into the game we are, in moves of both players: the moves played, or
        the stones on the board for a position set up (handicap, a loaded file)."""
        stones = self.size ** 2 - len(self.state.empty_points())
        return max(self.state.move_count, stones)

    def set_budget(self, playouts: int | None, seconds: float | None):
        Budget(playouts=playouts, seconds=seconds)  # validates: positive, one at least
        self.playouts, self.seconds = playouts, seconds
        self.default_budget = False

    def search(self, color: int, budget: Budget, stop: threading.Event | None = None,
               progress=None, allowed=None) -> SearchResult:
        """Search a move for ``color`` (``Searcher.search``: ``allowed`` limits the root's
        moves); a budget in seconds is a hard deadline (see ``_guarded``), a budget in
        playouts or simulated moves alone is not.  Options the search cannot honour
        together are the user's error (``GtpError``), not the engine's."""
        try:
            return self._search(color, budget, stop, progress, allowed)
        except OptionConflict as exc:
            raise GtpError(str(exc)) from None

    def _search(self, color, budget, stop, progress, allowed) -> SearchResult:
        if budget.seconds is None:
            result = self.searcher.search(self.root(color), budget, stop=stop,
                                          progress=progress, allowed=allowed)
        else:
            start = time.monotonic()
            deadline = start + budget.seconds + DEADLINE_SLACK
            root = self.root(color)
            root = root.clone() if root is self.state else root
            aim = replace(budget, seconds=max(budget.seconds - self.searcher.landing,
                                              budget.seconds / 2))
            result, best = self._guarded(root, aim, deadline, stop, progress, allowed)
            if result is None:
                result = fallback_result(root, color, best,
                                         time.monotonic() - start, self.settings.seed)
                log(f"search overran its deadline: answering {to_gtp(result.move, self.size)} "
                    f"({'best so far' if result.playouts else 'quick move'})")
        self.last_result, self.last_color = result, color
        return result

    def _guarded(self, root, budget: Budget, deadline: float | None,
                 stop: threading.Event | None, progress=None, allowed=None):
        """The back end's search of ``root`` (a position of its own, never the live one)
        on a thread of its own, waited for until ``deadline`` or ``stop``
        (``engine.search.deadline``): (its result, its last progress report).  The result
        is None when it did not end in time, and then the back end is left to the
        orphaned search and a fresh one takes its place."""
        searcher = self.searcher
        guard = GuardedSearch(
            lambda inner_stop, report: searcher.search(root, budget, stop=inner_stop,
                                                      progress=report, allowed=allowed),
            progress)
        result = guard.wait(deadline, stop)
        if result is None:
            self.searcher = fresh_searcher(self.searcher)
        return result, guard.best_so_far

    def ponder(self, stop: threading.Event):
        """While pondering is on, search the position as it stands (the opponent to move,
        after our move) until ``stop``: every opponent reply is a subtree of that tree,
        which the back end keeps when the reply comes (``notify_play``), so the next
        ``genmove`` starts from what was searched.  The last search's result is kept.
        Guarded like a move: a ponder stuck in a compile when input arrives is left behind
        rather than waited for."""
        if self.pondering and not stop.is_set():
            self._guarded(self.state.clone(), Budget(seconds=PONDER_SECONDS), None, stop)

    def think(self, color: int, stop: threading.Event | None = None, progress=None,
              allowed=None) -> SearchResult:
        """Search a move for ``color`` within the move budget; the board is untouched."""
        return self.search(color, self.move_budget(color, self._since()), stop, progress,
                           allowed)

    def commit(self, move: int, color: int) -> int:
        """Play a generated move (a resignation plays nothing) and charge its time to
        ``color``'s clock; returns the move.  The last search is kept as the move's
        (``move_results``: SGF comments)."""
        if move != RESIGN:
            if self.last_result is not None:
                self.move_results[len(self.state.moves)] = (color, move, self.last_result)
            self.play(move, color)
        self.spend(color, time.monotonic() - self._since())
        return move

    def cleanup_choice(self, result: SearchResult, color: int) -> int:
        """``result``'s move, unless it passes or resigns while dead opponent stones remain
        (``engine.scoring``): then the most visited board move of the search, else a legal
        move next to a dead stone that fills no own eye."""
        if result.move >= 0:
            return result.move
        state = self.root(color)
        dead = [p for p in stones_with_status(state, DEAD, seed=self.settings.seed)
                if state.color_at(p) == opponent(color)]
        w = self.size + 2
        ranked = [c.move for c in result.candidates if c.move >= 0]
        near_dead = [q for p in dead for q in (p + 1, p - 1, p + w, p - w)]
        for move in (ranked + near_dead) if dead else []:
            if state.is_legal(move, color) and not state.is_eye(move, color):
                return move
        return result.move

    def _since(self) -> float:
        """When the client asked: the clock has been running since then."""
        return self.request.received if self.request is not None else time.monotonic()

    # -- clocks ---------------------------------------------------------------------------
    def set_time_settings(self, settings: TimeSettings):
        """New time settings: both clocks start afresh."""
        self.time_settings = settings
        self.clocks = {c: settings.fresh_clock() for c in (BLACK, WHITE)}

    def set_time_left(self, color: int, seconds: float, stones: int):
        """A clock reading (GTP ``time_left``): ``stones`` 0 is main time, else the stones
        owed in the Canadian period or the Japanese periods left."""
        settings = self.time_settings
        if settings is None:  # a clock without settings: take it as it comes
            settings = TimeSettings(0, seconds, stones) if stones else TimeSettings(seconds)
            self.set_time_settings(settings)
        if seconds <= 0 and stones == 0 and settings.stones > 0:
            # "time_left c 0 0" at the end of main time (some servers): byo-yomi begins
            self.clocks[color] = replace(settings, main=0).fresh_clock()
            return
        self.clocks[color] = Clock(seconds, stones)

    def spend(self, color: int, seconds: float):
        if self.time_settings is not None:
            self.clocks[color].spend(seconds, self.time_settings)

    # -- back ends -----------------------------------------------------------------------
    def switch_algo(self, spec: str) -> list[tuple[str, str]]:
        """Use the back end of ``spec`` (ValueError, and no change, when the registry
        refuses it); returns the start-up options it does not know, which it runs without."""
        self.searcher, unknown = self.settings.make_searcher(spec)
        self.algo = registry.parse_spec(spec).name
        self.last_result = None
        return unknown

