"""The hard deadline of ``engine.search.deadline`` and the GTP session's use of it: a search
that cannot answer in time (a fake slow search, a real numba compile) is answered for at the
deadline, by its best move so far or a quick legal move, and the session carries on with a
fresh back end.  The bound checked is the issue's: a move ends within 50 ms of its
allocation."""

import threading
import time

import numpy as np
import pytest
from numba import njit

from engine.core.layout import BLACK, PASS, WHITE
from engine.game.registry import GameConfig
from engine.gtp.context import Context, Settings
from engine.search.base import SearchResult
from engine.search.deadline import STOP_GRACE, GuardedSearch, fallback_result, quick_move
from engine.search.uct import UctSearcher
from engine.timecontrol import TimeSettings

TOLERANCE = 0.05   # the bound on a move's overrun of its allocation
# With a real numba compile on the search thread, LLVM holds the GIL for stretches that a
# loaded 2-core machine (a test run beside other work) stretches to a few tenths of a
# second; these tests check that the answer does not wait for the compile (seconds), and
# nakade bench deadline measures the 50 ms bound itself on a real clock.
COMPILE_SLACK = 0.5


def _sleeper(seconds, result=None):
    """A search that ignores ``stop`` (as a compile does) for ``seconds``."""
    def search(stop, progress):
        time.sleep(seconds)
        return result
    return search


def test_a_search_that_ends_in_time_gives_its_own_result():
    mine = SearchResult(move=42, winrate=0.6, playouts=10, seconds=0.0)
    guard = GuardedSearch(_sleeper(0.01, mine))
    assert guard.wait(time.monotonic() + 5) is mine
    assert not guard.abandoned


def test_a_search_past_its_deadline_is_abandoned_at_the_deadline():
    guard = GuardedSearch(_sleeper(1.0))
    start = time.monotonic()
    assert guard.wait(start + 0.1) is None
    assert time.monotonic() - start < 0.1 + TOLERANCE
    assert guard.abandoned
    assert guard.join(5)   # the orphan ends by itself


def test_stop_ends_a_search_that_listens_and_abandons_one_that_does_not():
    def listening(stop, progress):
        stop.wait(10)
        return SearchResult(move=7, winrate=0.5, playouts=1, seconds=0.0)
    stop = threading.Event()
    threading.Timer(0.05, stop.set).start()
    assert GuardedSearch(listening).wait(None, stop).move == 7
    stop = threading.Event()
    stop.set()
    start = time.monotonic()
    assert GuardedSearch(_sleeper(2.0)).wait(None, stop) is None
    assert time.monotonic() - start < STOP_GRACE + TOLERANCE


def test_progress_is_kept_and_passed_on_and_errors_reach_the_caller():
    seen = []
    partial = SearchResult(move=3, winrate=0.4, playouts=5, seconds=0.0)

    def reporting(stop, progress):
        progress(partial)
        time.sleep(1.0)
    guard = GuardedSearch(reporting, progress=seen.append)
    assert guard.wait(time.monotonic() + 0.2) is None
    assert guard.best_so_far is partial and seen == [partial]
    state = GameConfig(size=9).new_state()
    assert fallback_result(state, BLACK, partial, 0.2).move == 3

    def failing(stop, progress):
        raise ZeroDivisionError("boom")
    with pytest.raises(ZeroDivisionError):
        GuardedSearch(failing).wait(time.monotonic() + 5)


def test_an_abandoned_search_reports_to_its_caller_no_more():
    """An analysis stream that ended must not receive the lines of its orphaned search
    (they would land in the next command's output)."""
    seen, late = [], SearchResult(move=9, winrate=0.5, playouts=9, seconds=0.0)

    def reporting_late(stop, progress):
        time.sleep(0.3)
        progress(late)
    guard = GuardedSearch(reporting_late, progress=seen.append)
    assert guard.wait(time.monotonic() + 0.05) is None
    assert guard.join(5)
    assert seen == [] and guard.best_so_far is late


def test_a_numba_compile_does_not_hold_the_watchdog_up():
    """A real compile on the search thread: the caller still answers at the deadline."""
    def compiling(stop, progress):
        # a fresh function each time, so numba compiles it (no cache)
        @njit
        def busy(a):
            total = 0.0
            for i in range(a.shape[0]):
                for j in range(i % 7):
                    total += np.sin(a[i]) * np.cos(a[j]) + np.sqrt(abs(a[i] - j))
            return total
        busy(np.arange(10.0))
        return SearchResult(move=1, winrate=0.5, playouts=1, seconds=0.0)
    guard = GuardedSearch(compiling)
    start = time.monotonic()
    result = guard.wait(start + 0.02)
    elapsed = time.monotonic() - start
    assert guard.join(300)
    assert result is None, "the compile was faster than the deadline: nothing tested"
    assert elapsed < 0.02 + COMPILE_SLACK


def _random_positions(game, size, count, seed):
    rng = np.random.default_rng(seed)
    config = GameConfig(game=game, size=size)
    for _ in range(count):
        state = config.new_state()
        for _ in range(int(rng.integers(0, 2 * size * size))):
            moves = state.legal_moves()
            if state.is_terminal() or len(moves) == 0:
                break
            state.play(int(rng.choice(moves)))
        yield state


@pytest.mark.parametrize("game, size", [("go", 9), ("go", 5), ("gobang", 9)])
def test_quick_move_is_legal_and_fills_no_own_eye(game, size):
    passes = 0
    for i, state in enumerate(_random_positions(game, size, 40, seed=size)):
        color = state.to_play
        move = quick_move(state, color, seed=i)
        if move == PASS:
            passes += 1
            if not state.is_terminal() and game == "gobang":
                pytest.fail("a Gobang position with empty points got a pass")
            continue
        assert state.is_legal(move, color), (str(state), move)
        if game == "go":
            assert not state.is_eye(move, color)
    assert passes < 40


def test_quick_move_opens_gobang_in_the_centre_and_answers_next_to_the_stones():
    state = GameConfig(game="gobang", size=9).new_state()
    w = 11
    assert quick_move(state, BLACK) == 5 * w + 5
    state.play(2 * w + 2, BLACK)
    r, c = divmod(quick_move(state, WHITE), w)
    assert max(abs(r - 2), abs(c - 2)) <= 2


class CompilingUct(UctSearcher):
    """UCT whose first search spends ``delay`` seconds before it starts, deaf to ``stop``:
    what a cold numba cache does to a first move."""
    delay = 3.0

    def search(self, state, budget, stop=None, progress=None, allowed=None):
        time.sleep(self.delay)
        return super().search(state, budget, stop, progress, allowed)


def test_a_session_move_stuck_in_a_compile_is_answered_within_its_allocation():
    ctx = Context(Settings(size=9, playouts=200),
                  searcher=CompilingUct())
    ctx.set_time_settings(TimeSettings.absolute(20))
    stuck = ctx.searcher
    for color in (BLACK, WHITE):
        budget = ctx.move_budget(color)
        start = time.monotonic()
        result = ctx.think(color)
        assert time.monotonic() - start < budget.seconds + COMPILE_SLACK
        assert ctx.state.is_legal(result.move, color)
        ctx.commit(result.move, color)
    # the stuck back end was left behind; its replacement is a plain UCT configured alike
    # (behind the root steps, as ``registry.make`` builds every back end)
    assert type(ctx.searcher) is UctSearcher
    assert ctx.searcher.options() == stuck.options()


def test_a_ponder_stuck_in_a_compile_lets_the_next_command_in_at_once():
    ctx = Context(Settings(size=9, playouts=200, ponder=True),
                  searcher=CompilingUct())
    stop = threading.Event()
    threading.Timer(0.05, stop.set).start()
    start = time.monotonic()
    ctx.ponder(stop)
    assert time.monotonic() - start < 0.05 + STOP_GRACE + COMPILE_SLACK
    assert type(ctx.searcher) is UctSearcher
