"""Clock arithmetic of ``engine.timecontrol``: settings, clock updates, per-move allocation,
and simulated games in which every move spends its allocation plus some overhead without
the clock running out.  No wall-clock timing here."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.gtp.context import Context, Settings
from engine.core.layout import BLACK, WHITE
from engine.timecontrol import (BYO_YOMI_SHARE, FIXED_MARGIN, MIN_MOVES_LEFT, MIN_SECONDS,
                                MOVES_PER_EMPTY_POINT, RELATIVE_MARGIN, Clock, TimeSettings,
                                allocate, expected_moves_left)


def kept(available):
    """What allocation leaves of ``available`` seconds after the safety margin."""
    return max(MIN_SECONDS, available - FIXED_MARGIN - RELATIVE_MARGIN * available)


@pytest.mark.parametrize("main, byo, stones", [(0, 1, 0), (0, 0, 0), (300, 30, 0)])
def test_no_limit_settings_allocate_nothing(main, byo, stones):
    settings = TimeSettings(main, byo, stones)
    assert settings.unlimited
    clock = settings.fresh_clock()
    assert allocate(settings, clock, 30) is None
    before = (clock.seconds, clock.stones)
    clock.spend(1000, settings)
    assert (clock.seconds, clock.stones) == before


def test_negative_settings_are_refused():
    for args in [(-1, 0, 0), (0, -1, 1), (0, 1, -1)]:
        with pytest.raises(ValueError):
            TimeSettings(*args)


def test_fresh_clocks():
    assert TimeSettings(300, 30, 5).fresh_clock() == Clock(300, 0)
    assert TimeSettings(0, 2, 1).fresh_clock() == Clock(2, 1)     # Lizzie: byo-yomi only
    assert TimeSettings(60, 0, 0).fresh_clock() == Clock(60, 0)


def test_absolute_time_is_shared_over_the_moves_left():
    settings = TimeSettings(300, 0, 0)
    assert allocate(settings, Clock(300), 30) == pytest.approx(kept(10))
    assert allocate(settings, Clock(300), 0.5) == pytest.approx(kept(300))   # at least 1 move
    assert allocate(settings, Clock(0.1), 30) == MIN_SECONDS


def test_byo_yomi_period_is_shared_over_the_stones_owed():
    settings = TimeSettings(0, 30, 5)
    assert allocate(settings, Clock(30, 5), 100) == pytest.approx(kept(6))
    assert allocate(settings, Clock(12, 2), 100) == pytest.approx(kept(6))
    assert allocate(settings, Clock(2, 1), 100) == pytest.approx(kept(2))
    # Lizzie's "time_settings 0 2 1": about two seconds a move, less the margin
    lizzie = TimeSettings(0, 2, 1)
    assert allocate(lizzie, lizzie.fresh_clock(), 100) == pytest.approx(kept(2))


def test_main_time_leans_on_the_byo_yomi_that_follows():
    settings = TimeSettings(60, 30, 5)
    byo = BYO_YOMI_SHARE * 30 / 5
    assert allocate(settings, Clock(60), 30) == pytest.approx(kept(2 + byo))
    # at the end of main time: no more than what is left plus part of one period's share
    assert allocate(settings, Clock(0.5), 30) == pytest.approx(kept(0.5 / 30 + byo))
    assert allocate(settings, Clock(0.5), 0.1) == pytest.approx(kept(0.5 + byo))


def test_spending_main_time_moves_into_byo_yomi():
    settings = TimeSettings(10, 30, 5)
    clock = Clock(10)
    clock.spend(4, settings)
    assert clock == Clock(6, 0)
    clock.spend(8, settings)           # 2 s over: charged to the first period, 1 stone played
    assert clock == Clock(28, 4)
    for _ in range(3):
        clock.spend(5, settings)
    assert clock == Clock(13, 1)
    clock.spend(5, settings)           # the period's last stone: a fresh period
    assert clock == Clock(30, 5)


def test_absolute_time_running_out_stays_out():
    settings = TimeSettings(5, 0, 0)
    clock = Clock(5)
    clock.spend(6, settings)
    assert clock == Clock(-1, 0)
    assert allocate(settings, clock, 10) == MIN_SECONDS


def test_expected_moves_left():
    assert expected_moves_left(361) == pytest.approx(MOVES_PER_EMPTY_POINT * 361)
    assert expected_moves_left(0) == MIN_MOVES_LEFT
    assert expected_moves_left(81) >= MIN_MOVES_LEFT


def _play_out(settings: TimeSettings, board_points: int, overhead: float) -> Clock:
    """One player's clock after a game in which every own move spends its allocation plus
    ``overhead`` and the board fills by two stones a turn."""
    clock = settings.fresh_clock()
    empty = board_points
    while empty > 0:
        spent = allocate(settings, clock, expected_moves_left(empty)) + overhead
        clock.spend(spent, settings)
        assert clock.seconds > 0, (settings, empty, clock)
        empty -= 2
    return clock


@pytest.mark.parametrize("settings, points", [
    (TimeSettings(60, 0, 0), 81), (TimeSettings(600, 0, 0), 361),
    (TimeSettings(10, 10, 5), 361), (TimeSettings(0, 2, 1), 361),
    (TimeSettings(30, 5, 1), 225), (TimeSettings(0, 60, 25), 361),
])
def test_a_whole_game_never_runs_out_of_time(settings, points):
    _play_out(settings, points, overhead=0.2)


@given(main=st.floats(0, 3600), byo=st.floats(1, 600), stones=st.integers(1, 30),
       seconds=st.floats(0.01, 3600), owed=st.integers(0, 30), moves_left=st.floats(0, 400))
def test_allocation_is_positive_and_within_what_the_clock_allows(main, byo, stones, seconds,
                                                                owed, moves_left):
    settings = TimeSettings(main, byo, stones)
    clock = Clock(seconds, min(owed, stones))
    share = allocate(settings, clock, moves_left)
    assert share >= MIN_SECONDS
    if clock.stones > 0:
        bound = clock.seconds / clock.stones
    else:
        bound = clock.seconds + BYO_YOMI_SHARE * byo / stones
    assert share <= max(MIN_SECONDS, bound - FIXED_MARGIN)


def test_the_session_takes_the_smaller_of_fixed_time_and_clock():
    ctx = Context(Settings(size=9, playouts=500, seconds=5.0))
    assert (ctx.move_budget(BLACK).playouts, ctx.move_budget(BLACK).seconds) == (500, 5.0)
    ctx.set_time_settings(TimeSettings(0, 2, 1))
    assert ctx.move_budget(BLACK).seconds == pytest.approx(kept(2))
    assert ctx.move_budget(BLACK).playouts == 500
    ctx.set_time_left(WHITE, 600, 0)
    assert ctx.move_budget(WHITE).seconds == 5.0
    ctx.set_time_settings(TimeSettings(0, 1, 0))   # no limit again
    assert ctx.move_budget(WHITE).seconds == 5.0
