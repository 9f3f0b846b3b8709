"""The rules that turn a ranking of root moves into the move played (engine.search.decide)."""

from engine.game.coords import PASS, RESIGN, from_gtp
from engine.game.registry import GameConfig
from engine.search.base import Candidate
from engine.search.decide import VERDICT_VISITS, choose


def _ranked(state, *pairs):
    """Candidates best first from (move text, visits, win rate)."""
    return [Candidate(PASS if text == "pass" else from_gtp(text, state.size), visits, rate)
            for text, visits, rate in pairs]


def test_a_pass_ranked_first_by_a_few_visits_gives_way_to_the_next_move():
    state = GameConfig(size=9).new_state()
    ranked = _ranked(state, ("pass", 3, 0.31), ("E5", 2, 0.5), ("C3", 1, 0.4))
    assert choose(state, ranked, 0.0) == (from_gtp("E5", 9), 0.5)


def test_a_pass_ranked_first_by_enough_visits_is_played():
    state = GameConfig(size=9).new_state()
    ranked = _ranked(state, ("pass", VERDICT_VISITS, 0.6), ("E5", 10, 0.5))
    assert choose(state, ranked, 0.0) == (PASS, 0.6)


def test_a_pass_ahead_of_an_even_spread_gives_way_to_the_next_move():
    """2,000 playouts spread over 19x19's 362 moves (UCB1, c = 0.7): a pass first by 16
    visits to 15 is noise, however many visits the root has."""
    state = GameConfig(size=19).new_state()
    spread = [("pass", 16, 0.56), ("Q17", 15, 0.55)] + [("D4", 5, 0.5)] * 360
    assert choose(state, _ranked(state, *spread), 0.0) == (from_gtp("Q17", 19), 0.55)


def test_a_pass_in_a_decided_game_is_played_however_spread_the_visits():
    state = GameConfig(size=9).new_state()
    won = [("pass", 150, 1.0), ("E5", 140, 1.0), ("C3", 130, 1.0)]
    assert choose(state, _ranked(state, *won), 0.0) == (PASS, 1.0)


def test_a_pass_with_most_of_the_visits_is_played():
    state = GameConfig(size=9).new_state()
    ranked = _ranked(state, ("pass", 150, 0.6), ("E5", 60, 0.5), ("C3", 40, 0.4))
    assert choose(state, ranked, 0.0) == (PASS, 0.6)


def test_a_pass_alone_is_played_whatever_its_visits():
    state = GameConfig(size=9).new_state()
    assert choose(state, _ranked(state, ("pass", 1, 0.4)), 0.0) == (PASS, 0.4)


def test_resigning_needs_a_verdict_and_a_threshold():
    state = GameConfig(size=9).new_state()
    losing = [("E5", VERDICT_VISITS, 0.02), ("C3", 5, 0.01)]
    assert choose(state, _ranked(state, *losing), 0.05) == (RESIGN, 0.02)
    assert choose(state, _ranked(state, *losing), 0.0) == (from_gtp("E5", 9), 0.02)
    assert choose(state, _ranked(state, ("E5", 20, 0.02)), 0.05) == (from_gtp("E5", 9), 0.02)


def test_pass_ends_a_won_game_after_the_opponents_pass():
    state = GameConfig(size=9, komi=0.5).new_state()
    state.play(from_gtp("E5", 9))
    state.play(PASS)
    assert choose(state, _ranked(state, ("D4", 50, 0.9)), 0.0) == (PASS, 1.0)
