"""Clock arithmetic of ``engine.timecontrol``: settings, clock updates, per-move allocation,
and simulated games in which every move spends its allocation plus some overhead without
the clock running out.  No wall-clock timing here."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.gtp.context import DEFAULT_PLAYOUTS, Context, Settings
from engine.search.base import Budget
from engine.core.layout import BLACK, WHITE
from engine.timecontrol import (BYO_YOMI_SHARE, FIXED_MARGIN, MIN_MOVES_LEFT, MIN_SECONDS,
                                PHASE_WEIGHTS, RELATIVE_MARGIN, TAIL_FRACTION, Clock,
                                TimeSettings, allocate, expected_moves_left, phase_weight,
                                time_saved_is_lost, typical_game_moves)


def kept(available):
    """What allocation leaves of ``available`` seconds after the safety margin."""
    return max(MIN_SECONDS, available - FIXED_MARGIN - RELATIVE_MARGIN * available)


@pytest.mark.parametrize("main, byo, stones", [(0, 1, 0), (0, 0, 0), (300, 30, 0)])
def test_no_limit_settings_allocate_nothing(main, byo, stones):
    settings = TimeSettings(main, byo, stones)
    assert settings.unlimited
    clock = settings.fresh_clock()
    assert allocate(settings, clock, 81, 0) is None
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


NINE, THIRTEEN, NINETEEN = 81, 169, 361


def main_share(seconds, points, played):
    """The main-time share before the margin, by the definitions of the module."""
    return seconds / expected_moves_left(points, played) * phase_weight(points, played)


def test_absolute_time_is_shared_over_the_moves_left():
    settings = TimeSettings.absolute(300)
    assert allocate(settings, Clock(300), NINETEEN, 0) == pytest.approx(
        kept(300 / (typical_game_moves(NINETEEN) / 2) * PHASE_WEIGHTS[0][1]))
    assert allocate(settings, Clock(300), NINE, 30) == pytest.approx(
        kept(main_share(300, NINE, 30)))
    assert allocate(settings, Clock(0.1), NINE, 10) == MIN_SECONDS
    assert allocate(settings, Clock(-3), NINE, 10) == MIN_SECONDS   # ran out: still answer


def test_byo_yomi_period_is_shared_over_the_stones_owed():
    settings = TimeSettings.canadian(0, 30, 5)
    assert allocate(settings, Clock(30, 5), NINETEEN, 100) == pytest.approx(kept(6))
    assert allocate(settings, Clock(12, 2), NINETEEN, 100) == pytest.approx(kept(6))
    assert allocate(settings, Clock(2, 1), NINETEEN, 100) == pytest.approx(kept(2))
    # Lizzie's "time_settings 0 2 1": about two seconds a move, less the margin
    lizzie = TimeSettings(0, 2, 1)
    assert allocate(lizzie, lizzie.fresh_clock(), NINETEEN, 0) == pytest.approx(kept(2))


def test_japanese_byo_yomi_plans_with_one_period_whatever_the_periods_left():
    settings = TimeSettings.japanese(600, 30, 5)
    assert allocate(settings, Clock(30, 5), NINETEEN, 200) == pytest.approx(kept(30))
    assert allocate(settings, Clock(30, 1), NINETEEN, 200) == pytest.approx(kept(30))
    assert allocate(settings, Clock(12, 3), NINETEEN, 200) == pytest.approx(kept(12))
    # in main time it leans on a period as on a Canadian period of one stone
    assert allocate(settings, Clock(600), NINETEEN, 100) == pytest.approx(
        kept(main_share(600, NINETEEN, 100) + BYO_YOMI_SHARE * 30))


def test_main_time_leans_on_the_byo_yomi_that_follows():
    settings = TimeSettings.canadian(60, 30, 5)
    byo = BYO_YOMI_SHARE * 30 / 5
    assert allocate(settings, Clock(60), NINE, 20) == pytest.approx(
        kept(main_share(60, NINE, 20) + byo))
    # at the end of main time: the little left plus part of one stone's share
    assert allocate(settings, Clock(0.5), NINE, 20) == pytest.approx(
        kept(main_share(0.5, NINE, 20) + byo))


def test_kinds_of_settings():
    assert TimeSettings().unlimited
    assert not TimeSettings.absolute(10).unlimited
    assert TimeSettings.canadian(10, 5, 2) == TimeSettings(10, 5, 2)
    japanese = TimeSettings.japanese(10, 5, 3)
    assert (japanese.periods, japanese.stones, japanese.unlimited) == (3, 1, False)
    assert japanese.fresh_clock() == Clock(10, 0)
    assert TimeSettings.japanese(0, 5, 3).fresh_clock() == Clock(5, 3)
    for bad in [lambda: TimeSettings.canadian(10, 5, 0), lambda: TimeSettings.japanese(10, 5, 0),
                lambda: TimeSettings.japanese(10, 0, 2), lambda: TimeSettings(1, 0, 1, -1)]:
        with pytest.raises(ValueError):
            bad()


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


def test_japanese_periods_are_kept_by_moves_within_them_and_lost_by_overruns():
    settings = TimeSettings.japanese(10, 30, 3)
    clock = Clock(10)
    clock.spend(25, settings)          # 15 s into the first period: it is whole again
    assert clock == Clock(30, 3)
    clock.spend(29, settings)
    assert clock == Clock(30, 3)
    clock.spend(31, settings)          # one period overrun, the move ended in the next
    assert clock == Clock(30, 2)
    clock.spend(65, settings)          # two periods gone: nothing left
    assert clock.stones == 0 and clock.seconds <= 0
    clock = Clock(10)
    clock.spend(75, settings)          # main time and two periods in one move
    assert clock == Clock(30, 1)


def test_absolute_time_running_out_stays_out():
    settings = TimeSettings(5, 0, 0)
    clock = Clock(5)
    clock.spend(6, settings)
    assert clock == Clock(-1, 0)
    assert allocate(settings, clock, NINE, 10) == MIN_SECONDS


def test_expected_moves_left_by_board_size_and_move_number():
    for points in (NINE, THIRTEEN, NINETEEN):
        own = typical_game_moves(points) / 2
        assert expected_moves_left(points, 0) == pytest.approx(own)
        assert expected_moves_left(points, 20) == pytest.approx(own - 10)
        # past the typical length: a floor, never zero
        floor = max(MIN_MOVES_LEFT, TAIL_FRACTION * own)
        assert expected_moves_left(points, 10 * points) == pytest.approx(floor)
    # a typical game: about 75 moves on 9x9, 140 on 13x13, 270 on 19x19
    assert 60 <= typical_game_moves(NINE) <= 90
    assert 120 <= typical_game_moves(THIRTEEN) <= 160
    assert 240 <= typical_game_moves(NINETEEN) <= 300


def test_phase_weight_favours_the_middle_game_and_averages_about_one():
    for points in (NINE, THIRTEEN, NINETEEN):
        moves = int(typical_game_moves(points))
        weights = [phase_weight(points, m) for m in range(0, moves, 2)]
        assert phase_weight(points, 0) < 1 < phase_weight(points, moves // 3)
        assert phase_weight(points, moves // 3) > phase_weight(points, int(0.9 * moves))
        assert 0.9 <= sum(weights) / len(weights) <= 1.2
        assert phase_weight(points, 5 * moves) == PHASE_WEIGHTS[-1][1]


def _play_out(settings: TimeSettings, points: int, overhead: float, length: float = 1.5):
    """One player's clock after a game ``length`` times the typical length in which every
    own move spends its allocation plus ``overhead``; returns the clock and the seconds
    spent per own move."""
    clock = settings.fresh_clock()
    spent = []
    for played in range(0, int(length * typical_game_moves(points)), 2):
        seconds = allocate(settings, clock, points, played) + overhead
        clock.spend(seconds, settings)
        assert clock.seconds > 0, (settings, played, clock)
        spent.append(seconds)
    return clock, spent


@pytest.mark.parametrize("settings, points", [
    (TimeSettings(30, 0, 0), NINE), (TimeSettings(60, 0, 0), NINE),
    (TimeSettings(300, 0, 0), THIRTEEN), (TimeSettings(600, 0, 0), NINETEEN),
    (TimeSettings(10, 10, 5), NINETEEN), (TimeSettings(0, 2, 1), NINETEEN),
    (TimeSettings(30, 5, 1), 225), (TimeSettings(0, 60, 25), NINETEEN),
    (TimeSettings.japanese(60, 10, 3), NINETEEN), (TimeSettings.japanese(0, 5, 1), NINE),
])
def test_a_long_game_never_runs_out_of_time(settings, points):
    _play_out(settings, points, overhead=0.05)


@pytest.mark.parametrize("main, points", [(30, NINE), (300, THIRTEEN), (900, NINETEEN)])
def test_sudden_death_spends_most_of_the_clock_and_most_in_the_middle_game(main, points):
    settings = TimeSettings.absolute(main)
    _, spent = _play_out(settings, points, overhead=0.0, length=1.0)
    assert sum(spent) >= 0.6 * main       # a typical game leaves little unused
    moves = 2 * len(spent)     # own moves are every other move of the game
    opening = spent[:int(0.1 * moves) // 2]
    middle = spent[int(0.25 * moves) // 2:int(0.55 * moves) // 2]
    assert max(opening) < min(middle)


@given(main=st.floats(0, 3600), byo=st.floats(1, 600), stones=st.integers(1, 30),
       seconds=st.floats(0.01, 3600), owed=st.integers(0, 30),
       points=st.sampled_from([NINE, THIRTEEN, NINETEEN]), played=st.integers(0, 1000))
def test_allocation_is_positive_and_within_what_the_clock_allows(main, byo, stones, seconds,
                                                                owed, points, played):
    settings = TimeSettings(main, byo, stones)
    clock = Clock(seconds, min(owed, stones))
    share = allocate(settings, clock, points, played)
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


def test_a_clock_replaces_the_default_budget_but_not_a_chosen_one():
    ctx = Context(Settings(size=9))
    assert ctx.move_budget(BLACK).playouts == DEFAULT_PLAYOUTS
    ctx.set_time_settings(TimeSettings.absolute(30))
    budget = ctx.move_budget(BLACK)
    assert budget.playouts is None and MIN_SECONDS <= budget.seconds < 30
    ctx.set_time_settings(TimeSettings(0, 1, 0))   # no limit: the default budget again
    assert ctx.move_budget(BLACK) == Budget(playouts=DEFAULT_PLAYOUTS)
    ctx.set_budget(2000, None)                     # a budget chosen over GTP caps the clock
    ctx.set_time_settings(TimeSettings.absolute(30))
    assert ctx.move_budget(BLACK).playouts == 2000


@pytest.mark.parametrize("settings, clock, lost", [
    (TimeSettings.absolute(60), Clock(30, 0), False),          # sudden death: kept
    (TimeSettings.canadian(60, 30, 5), Clock(40, 0), False),   # main time: kept
    (TimeSettings.canadian(0, 30, 5), Clock(12, 3), False),    # for the period's other stones
    (TimeSettings.canadian(0, 1, 1), Clock(1, 1), True),       # the period's last stone
    (TimeSettings.canadian(0, 30, 5), Clock(4, 1), True),
    (TimeSettings.japanese(60, 10, 3), Clock(8, 2), True),     # a period kept is whole again
    (TimeSettings.japanese(60, 10, 3), Clock(50, 0), False),
    (TimeSettings(0, 1, 0), Clock(0, 0), False),               # no limit
])
def test_time_saved_is_lost_only_where_a_period_starts_again(settings, clock, lost):
    assert time_saved_is_lost(settings, clock) is lost


def test_the_session_spends_a_byo_yomi_period_that_would_be_lost():
    ctx = Context(Settings(size=9))
    ctx.set_time_settings(TimeSettings(0, 1, 1))     # gogui-twogtp's 1 s a move
    assert ctx.move_budget(BLACK).spend_all
    ctx.set_time_settings(TimeSettings.absolute(30))
    assert not ctx.move_budget(BLACK).spend_all
    ctx.set_time_settings(TimeSettings(0, 1, 0))     # no clock: the default budget
    assert not ctx.move_budget(BLACK).spend_all


def test_the_session_reads_time_left_in_every_form():
    ctx = Context(Settings(size=9, playouts=500))
    ctx.set_time_settings(TimeSettings.japanese(60, 10, 3))
    ctx.set_time_left(BLACK, 8, 2)                 # Japanese: 8 s of a period, 2 periods
    assert ctx.clocks[BLACK] == Clock(8, 2)
    assert ctx.move_budget(BLACK).seconds == pytest.approx(kept(8))
    ctx.set_time_settings(TimeSettings.canadian(60, 30, 5))
    ctx.set_time_left(WHITE, 12, 3)                # Canadian: 12 s for 3 stones
    assert ctx.move_budget(WHITE).seconds == pytest.approx(kept(4))
    ctx.set_time_left(WHITE, 0, 0)                 # the end of main time: a fresh period
    assert ctx.clocks[WHITE] == Clock(30, 5)
    ctx.set_time_settings(TimeSettings.absolute(60))
    ctx.set_time_left(BLACK, 0, 0)                 # sudden death at 0: still a move
    assert ctx.move_budget(BLACK).seconds == MIN_SECONDS


def test_the_session_counts_set_up_stones_as_moves_played():
    ctx = Context(Settings(size=9, playouts=500))
    assert ctx.moves_played() == 0
    ctx.state.setup(black=[ctx.state.points()[i] for i in range(10)])
    assert ctx.moves_played() == 10
