"""Problem loaders (engine.tsumego.problem): the RIGHT convention, GNU Go .tst scripts,
broken files of every kind, and the shipped collection under problems/."""

from pathlib import Path

import pytest

from engine.game.coords import PASS, from_gtp
from engine.core.layout import BLACK, WHITE
from engine.tsumego.collection import GOBANG
from engine.tsumego.gobang_oracle import gobang_answers
from engine.tsumego.problem import (ProblemError, load_problems, load_sgf_problem,
                                    load_tst)
from engine.tsumego.solve import fight_kind, fight_target

DATA = Path(__file__).parent / "data" / "tsumego"
PROBLEMS = Path(__file__).parent.parent / "problems"
# the outside suites live in shared/, beside the checkout
GNUGO_SUITES = Path(__file__).resolve().parents[2] / "shared/outside-suites/gnugo-regression"


def gtp(problem, *vertices):
    return {from_gtp(v, problem.size) for v in vertices}


# -- the RIGHT convention ------------------------------------------------------------------

def test_right_in_any_comment_of_the_subtree_marks_the_first_move_correct():
    p = load_sgf_problem(DATA / "right.sgf")
    assert p.name == "right" and p.kind == "sgf" and p.game == "go"
    assert p.to_play == BLACK and p.size == 9
    # A9: RIGHT two nodes down; a second, unmarked A9 variation does not spoil it
    assert p.accept == gtp(p, "A9")
    # B9 and E9 carry WRONG; E6 carries nothing and is simply not right
    assert p.reject == gtp(p, "B9", "E9")
    assert p.is_correct(from_gtp("A9", 9))
    assert not p.is_correct(from_gtp("E6", 9)) and not p.is_correct(PASS)
    assert p.answer_text() == "[A9]"


def test_metadata_region_and_position():
    p = load_sgf_problem(DATA / "right.sgf")
    assert p.difficulty == 2 and p.tags == ("kill", "eye-shape", "test")
    assert p.goal == "kill"
    assert p.region == {from_gtp(f"{col}{row}", 9) for col in "ABCDE" for row in (9, 8, 7, 6, 5)}
    assert p.state.color_at(from_gtp("D9", 9)) == BLACK
    assert p.state.color_at(from_gtp("C9", 9)) == WHITE
    assert p.state.komi == 0.0


def test_side_to_move_comes_from_the_first_moves_without_pl():
    p = load_sgf_problem(DATA / "no_pl.sgf")
    assert p.to_play == WHITE and p.accept == gtp(p, "E5")
    assert p.goal is None and p.region is None and p.difficulty is None


def test_setup_may_continue_in_move_less_nodes_below_the_root():
    p = load_sgf_problem(DATA / "setup_chain.sgf")
    assert p.to_play == WHITE and p.state.komi == 5.5
    assert p.state.color_at(from_gtp("A9", 9)) == BLACK
    assert p.state.color_at(from_gtp("B8", 9)) == 0       # AE in the second node
    assert p.state.color_at(from_gtp("C7", 9)) == WHITE
    assert p.accept == gtp(p, "D6")


def test_gobang_problem_places_its_setup_as_moves():
    p = load_sgf_problem(DATA / "gobang.sgf")
    assert p.game == "gobang" and p.size == 15 and p.to_play == BLACK
    assert p.accept == gtp(p, "H5", "H9") and p.reject == gtp(p, "A15")
    assert p.state.color_at(from_gtp("H7", 15)) == BLACK
    assert p.state.color_at(from_gtp("G9", 15)) == WHITE
    assert not p.state.is_terminal()


BROKEN = {
    "no_right.sgf": "no variation is marked RIGHT",
    "mixed_colours.sgf": "no PL and the first moves are of both colours",
    "pl_mismatch.sgf": "not by the side to play",
    "occupied.sgf": "first move D6 is illegal: occupied",
    "no_variations.sgf": "no variations",
    "move_in_root.sgf": "holds a move",
    "bad_difficulty.sgf": "DI[hard] is not a number",
    "garbage.sgf": "not an SGF file",
    "truncated.sgf": "malformed SGF",
    "gobang_five.sgf": "already holds five in a row",
}


@pytest.mark.parametrize("name, why", sorted(BROKEN.items()))
def test_a_broken_problem_is_refused_with_its_file_and_reason(name, why):
    with pytest.raises(ProblemError) as info:
        load_sgf_problem(DATA / "broken" / name)
    assert why in info.value.why
    assert info.value.where.endswith(name)
    assert name in str(info.value)


def test_a_missing_file_is_an_error_too():
    with pytest.raises(ProblemError, match="No such file"):
        load_sgf_problem(DATA / "nowhere.sgf")


def test_loading_a_folder_reports_the_broken_files_and_goes_on():
    report = load_problems([DATA])
    names = {p.name for p in report.problems}
    assert {"right", "no_pl", "setup_chain", "gobang", "suite:10"} <= names
    where = {Path(w).name for w, _ in report.errors}
    assert set(BROKEN) <= where
    assert "short.sgf" in where      # a game record, not a problem: reported, not fatal


def test_a_name_already_taken_is_reported_not_loaded(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "same.sgf").write_bytes((DATA / "no_pl.sgf").read_bytes())
    report = load_problems([tmp_path])
    assert [p.name for p in report.problems] == ["same"]
    assert any("already taken" in why for _, why in report.errors)


# -- GNU Go regression scripts -------------------------------------------------------------

def test_tst_tests_answers_and_position_commands():
    report = load_tst(DATA / "suite.tst")
    by_name = {p.name: p for p in report.problems}
    assert list(by_name) == ["suite:10", "suite:20", "suite:30", "suite:60", "suite:line43"]
    p10 = by_name["suite:10"]
    assert p10.kind == "tst" and p10.to_play == BLACK and not p10.expect_fail
    assert p10.accept == gtp(p10, "G3", "G7") and p10.reject == frozenset()
    # loadsgf FILE 3: moves 1 and 2 played, the third not
    assert [m for _, m in p10.state.moves] == [from_gtp("E5", 9), from_gtp("C7", 9)]
    assert p10.state.komi == 7.0
    p20 = by_name["suite:20"]
    assert p20.to_play == WHITE and p20.expect_fail and p20.accept == frozenset()
    assert p20.reject == gtp(p20, "E5", "D4") and p20.answer_text() == "[!D4|E5]"
    assert p20.is_correct(from_gtp("A1", 9)) and not p20.is_correct(from_gtp("D4", 9))
    p30 = by_name["suite:30"]        # after "play white G7"
    assert p30.state.color_at(from_gtp("G7", 9)) == WHITE
    p60 = by_name["suite:60"]        # after "undo" and "komi 0.5"
    assert p60.state.color_at(from_gtp("G7", 9)) == 0
    assert p60.state.komi == 0.5 and p60.accept == {PASS}
    last = by_name["suite:line43"]   # "boardsize 5" started afresh; no test id
    assert last.size == 5


def test_a_game_position_has_no_fight_for_the_search_to_read():
    """A .tst test asks for a whole game's best move: handing the search a fight (the
    defender's stones at stake) would end its simulations on another question."""
    tests = load_tst(DATA / "suite.tst").problems
    assert all(fight_target(p) is None and fight_kind(p) is None for p in tests)
    composed = load_sgf_problem(PROBLEMS / "go" / "9x9" / "pyramid-four-kill.sgf")
    assert fight_target(composed) is not None and fight_kind(composed) == "kill"


def test_tst_counts_tests_and_skipped_commands_and_reports_unreadable_tests():
    report = load_tst(DATA / "suite.tst")
    assert report.tests_read == 9
    assert dict(report.skipped) == {"owl_defend": 1, "dragon_status": 1,
                                    "restricted_genmove": 1}
    errors = dict(report.errors)
    assert errors["suite:70"] == "no '#?' answer follows"
    assert "missing.sgf" in errors["suite:80"]
    # boardsize 1 fails, so clear_board does not bring a position back
    assert "boardsize 1" in errors["suite:90"]
    assert "Z9" in errors["suite:100"]


def test_tst_with_a_bad_colour_and_an_illegal_play():
    report = load_tst(DATA / "broken.tst")
    assert report.problems == [] and report.tests_read == 2
    errors = dict(report.errors)
    assert "purple" in errors["broken:1"]
    assert "occupied" in errors["broken:2"]


@pytest.mark.skipif(not GNUGO_SUITES.is_dir(), reason="GNU Go regression suites absent")
def test_every_reg_genmove_of_the_gnugo_suites_is_read():
    report = load_problems(sorted(GNUGO_SUITES.glob("*.tst")))
    assert report.tests_read == 218
    assert len(report.problems) == 217
    assert [name for name, _ in report.errors] == ["tiny:101"]   # a 1x1 board
    assert dict(report.skipped) == {"restricted_genmove": 7, "dragon_status": 3,
                                    "owl_defend": 2}


# -- our collection -------------------------------------------------------------------------

def test_the_collection_loads_whole_and_is_labelled():
    report = load_problems([PROBLEMS])
    assert report.errors == []
    go = [p for p in report.problems if p.game == "go"]
    gobang = [p for p in report.problems if p.game == "gobang"]
    assert len(go) >= 60 and len(gobang) >= 4
    for p in report.problems:
        assert p.difficulty in (1, 2, 3), p.name
        assert p.accept, p.name
        assert p.tags and p.tags[0] in ("kill", "live", "win", "defend"), p.name
        assert p.state.komi == 0.0, p.name
    assert {p.size for p in go} >= {9, 19}


def test_gobang_answers_are_exactly_the_moves_that_win_by_fours():
    fours = {spec["name"]: spec["fours"] for spec in GOBANG}
    for p in load_problems([PROBLEMS / "gobang"]).problems:
        assert gobang_answers(p, fours[p.name]) == p.accept, p.name
