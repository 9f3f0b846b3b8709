"""Match statistics against known values: Wilson intervals, Elo differences, tallies."""

import math

import pytest

from engine.match.stats import (elo_difference, elo_interval, format_summary, summarise,
                                wilson_interval)


def test_wilson_interval_of_half():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)


def test_wilson_interval_of_none_in_ten():
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)


def test_wilson_interval_is_symmetric_and_bounded():
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0)
    assert low == pytest.approx(1 - wilson_interval(0, 10)[1])
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_of_known_win_rates():
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(0.5) == 0.0
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_elo_interval_maps_the_wilson_bounds():
    elo, low, high = elo_interval(75, 100)
    wl, wh = wilson_interval(75, 100)
    assert elo == pytest.approx(190.85, abs=0.01)
    assert low == pytest.approx(elo_difference(wl)) and high == pytest.approx(elo_difference(wh))
    assert low < elo < high
    assert elo_interval(0, 10)[1] == -math.inf


def row(index, black, winner, reason="score", moves=10, playouts=None):
    white = "b" if black == "a" else "a"
    return dict(index=index, black=black, white=white, winner=winner, reason=reason,
                moves=moves, seconds={"a": 1.0, "b": 2.0}, genmoves={"a": 5, "b": 4},
                playouts={"a": playouts, "b": None})


def test_summary_tallies_each_colour_and_counts_draws_half():
    rows = [row(0, "a", "a"), row(1, "b", "a"), row(2, "a", "b", "resign"),
            row(3, "b", "draw", "move limit"), row(4, "a", None, "error", moves=0)]
    s = summarise(rows, {"a": "A", "b": "B"})
    assert (s.as_black.wins, s.as_black.losses, s.as_black.draws) == (1, 1, 0)
    assert (s.as_white.wins, s.as_white.losses, s.as_white.draws) == (1, 0, 1)
    assert s.void == 1
    assert s.win_rate == pytest.approx(2.5 / 4)
    assert s.reasons == {"score": 2, "resign": 1, "move limit": 1, "error": 1}
    assert s.moves == 40
    assert s.usage["a"].seconds_per_move == pytest.approx(4.0 / 20)
    assert s.usage["b"].seconds_per_move == pytest.approx(8.0 / 16)
    assert s.usage["b"].playouts_per_move is None
    text = format_summary(s)
    assert "A as black: 1 W / 1 L / 0 D" in text and "62.5%" in text


def test_summary_averages_reported_playouts_only():
    rows = [row(0, "a", "a", playouts=500), row(1, "b", "b", playouts=None)]
    s = summarise(rows, {"a": "A", "b": "B"})
    assert s.usage["a"].playouts_per_move == pytest.approx(100.0)
    assert "100 playouts per move" in format_summary(s)
