"""SGF loading and saving (engine.game.sgf): hand-made records, broken files, the GNU Go
regression games, and GNU Go's own ``loadsgf`` as the oracle for positions."""

import pickle
import re
from pathlib import Path

import numpy as np
import pytest

from engine import __version__
from engine.game.coords import PASS, from_gtp, from_sgfmill, to_gtp
from engine.core.layout import BLACK, EMPTY, WHITE
from engine.game.gobang_state import GobangState
from engine.game.go_state import GoState
from engine.game.handicap import fixed_handicap_points
from engine.game.rules import GobangRules, GoRules
from engine.game.sgf import SgfError, apply_setup, game_of, load_game, read_tree, save_game

DATA = Path(__file__).parent / "data" / "sgf"
# the outside suites live in shared/, beside the checkout
GAMES = Path(__file__).resolve().parents[2] / "shared/outside-suites/gnugo-regression/games"
needs_games = pytest.mark.skipif(not GAMES.is_dir(), reason="GNU Go regression games absent")


def stones(state, colour):
    return {to_gtp(p, state.size) for p in state.points() if state.color_at(p) == colour}


def gtp(state, *vertices):
    return [from_gtp(v, state.size) for v in vertices]


# -- hand-made records ---------------------------------------------------------------------

def test_game_record():
    g = load_game(DATA / "game.sgf")
    assert (g.game, g.size, g.komi, g.komi_given) == ("go", 9, 6.5, True)
    assert g.players == ("Alice", "Bob") and g.result == "B+R" and g.handicap == 0
    assert len(g.moves) == 10 and g.state.moves == g.moves
    assert g.to_play == BLACK
    assert g.state.color_at(from_gtp("D5", 9)) == EMPTY  # captured by move 7
    assert g.state.captures == (1, 0)
    assert stones(g.state, BLACK) == {"E5", "C5", "D6", "D4", "G6"}
    assert stones(g.state, WHITE) == {"G3", "G7", "C3", "F7"}


GAME_SGF_MOVES = "E5 D5 C5 G3 D6 G7 D4 C3 G6 F7".split()  # game.sgf, black first


def test_loading_at_a_move_number_equals_playing_the_moves_by_hand():
    line = [(BLACK if i % 2 == 0 else WHITE, from_gtp(v, 9))
            for i, v in enumerate(GAME_SGF_MOVES)]
    for number in range(1, len(line) + 2):
        g = load_game(DATA / "game.sgf", move_number=number)
        by_hand = GoState(GoRules(size=9, komi=6.5))
        for colour, move in line[:number - 1]:
            by_hand.play(move, colour)
        assert np.array_equal(g.state.board(), by_hand.board()), number
        assert g.state.moves == line[:number - 1]
        assert g.moves == line  # the whole main line, played or not
        expected = line[number - 1][0] if number <= len(line) else BLACK
        assert g.to_play == expected


def test_a_move_number_past_the_end_plays_everything():
    assert load_game(DATA / "game.sgf", 999).state.moves == load_game(DATA / "game.sgf").moves


def test_move_number_below_one_is_refused():
    with pytest.raises(ValueError, match="move number"):
        load_game(DATA / "game.sgf", 0)


def test_problem_with_setup_and_player_to_move():
    g = load_game(DATA / "problem.sgf", move_number=1)
    assert g.to_play == WHITE and g.state.moves == []
    assert stones(g.state, WHITE) == {"A8", "B8", "C8", "D8", "D9"}
    assert stones(g.state, BLACK) == {"A7", "B7", "C7", "D7", "E7", "E8", "E9"}
    assert not g.komi_given and g.komi == 0.0
    main_line = load_game(DATA / "problem.sgf")  # the first variation
    assert main_line.moves == [(WHITE, from_gtp("A9", 9)), (BLACK, from_gtp("B9", 9))]


def test_tree_helpers_give_the_variations():
    tree = read_tree(DATA / "problem.sgf")
    assert game_of(tree) == "go" and tree.get_size() == 9
    state = GoState(GoRules(size=9))
    assert apply_setup(state, tree.get_root())
    assert len(stones(state, BLACK)) == 7 and len(stones(state, WHITE)) == 5
    firsts = [(child.get_move()[1], child.get("C")) for child in tree.get_root()]
    assert firsts == [((8, 0), "wrong"), ((8, 1), "RIGHT")]
    state.undo()  # the setup is one undoable step
    assert not state.board().any()


def test_setup_on_later_nodes_adds_and_removes():
    g = load_game(DATA / "setup_later.sgf")
    assert stones(g.state, BLACK) == {"A9", "C7", "E5"}  # B8 removed by AE
    assert stones(g.state, WHITE) == {"D6", "F4", "G3"}
    assert g.state.moves == [(BLACK, from_gtp("E5", 9)), (WHITE, from_gtp("G3", 9))]
    assert g.to_play == BLACK


def test_passes_empty_and_tt():
    g = load_game(DATA / "passes.sgf")
    assert [m for _, m in g.moves] == [from_gtp("E5", 9), PASS, PASS, from_gtp("C7", 9)]
    assert g.to_play == BLACK and g.komi == 7.0


def test_tt_is_a_point_above_19x19():
    g = load_game(DATA / "tt_on_21.sgf")
    assert g.moves == [(BLACK, from_gtp("U2", 21)), (WHITE, PASS)]


def test_handicap_game():
    g = load_game(DATA / "handicap.sgf")
    assert g.handicap == 3 and g.komi == 0.5
    setup = load_game(DATA / "handicap.sgf", move_number=1)
    assert stones(setup.state, BLACK) == {to_gtp(p, 19) for p in fixed_handicap_points(19, 3)}
    assert setup.to_play == WHITE
    assert g.moves[0][0] == WHITE and g.to_play == BLACK


def test_handicap_without_moves_gives_white_the_move():
    g = load_game(b"(;SZ[9]HA[2]AB[cg][gc])")
    assert g.to_play == WHITE and g.handicap == 2


def test_player_to_move_overrides_the_default():
    assert load_game(b"(;SZ[9]PL[W]AB[aa])").to_play == WHITE
    assert load_game(b"(;SZ[9]AB[aa])").to_play == BLACK


def test_gomoku_record():
    g = load_game(DATA / "gomoku.sgf")
    assert g.game == "gobang" and isinstance(g.state, GobangState) and g.size == 15
    assert g.state.is_terminal() and g.state.winner() == BLACK
    assert len(g.moves) == 9


def test_gobang_without_size_is_15x15():
    assert load_game(b"(;GM[4];B[hh])").size == 15


def test_expected_game_is_enforced():
    with pytest.raises(SgfError, match="gomoku.sgf: a gobang record, not go"):
        load_game(DATA / "gomoku.sgf", game="go")
    assert load_game(DATA / "game.sgf", game="go").game == "go"


def test_rules_template_keeps_what_the_record_does_not_say():
    template = GoRules(size=19, komi=5.5, superko=False, suicide=True)
    g = load_game(DATA / "problem.sgf", rules=template)  # no KM
    assert g.state.rules == GoRules(size=9, komi=5.5, superko=False, suicide=True)
    g = load_game(DATA / "game.sgf", rules=template)
    assert g.state.rules.komi == 6.5
    exact5 = load_game(DATA / "gomoku.sgf", rules=GobangRules(variant="exact5"))
    assert exact5.state.rules == GobangRules(size=15, variant="exact5")
    with pytest.raises(ValueError, match="cannot play a gobang record"):
        load_game(DATA / "gomoku.sgf", rules=template)


def test_superko_repetition_in_a_record_is_accepted():
    path = DATA / "superko.sgf"
    g = load_game(path)
    assert len(g.state.moves) == 8
    assert g.state.rules.superko  # the loaded state plays on under the full rules
    strict = load_game(path, move_number=8).state
    colour, move = g.moves[-1]
    assert strict.why_illegal(move, colour) == "positional superko"


def test_simple_ko_in_a_record_is_illegal():
    ko = b"(;SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb])"
    with pytest.raises(SgfError, match="<sgf data>: move 2 is illegal: W B8: ko"):
        load_game(ko)


# -- broken files --------------------------------------------------------------------------

BROKEN = {
    "empty.sgf": "not an SGF file",
    "garbage.sgf": "not an SGF file",
    "truncated.sgf": "malformed SGF: unexpected end",
    "sz0.sgf": "board size must be 2..25, not 0",
    "sz30.sgf": "board size must be 2..25, not 30",
    "nonsquare.sgf": r"non-square board SZ\[9:13\]",
    "offboard.sgf": r"move 2 is off the board: W\[ej\]",
    "occupied.sgf": "move 4 is illegal: W E5: occupied",
    "chess.sgf": r"unsupported game type GM\[3\]",
    "gomoku_setup.sgf": "setup stones are not supported in gobang",
    "no-such-file.sgf": "No such file",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_file_gives_one_clear_error(name):
    path = DATA / "broken" / name
    with pytest.raises(SgfError) as caught:
        load_game(path)
    message = str(caught.value)
    assert message.startswith(f"cannot load file: {path}: ")
    assert caught.value.source == str(path)
    assert re.search(BROKEN[name], message), message


def test_errors_survive_pickling():
    error = pickle.loads(pickle.dumps(SgfError("x.sgf", "not an SGF file")))
    assert (str(error), error.source) == ("cannot load file: x.sgf: not an SGF file", "x.sgf")


def test_bad_property_values_are_reported():
    for data, problem in [(b"(;SZ[9]KM[six])", "bad game information"),
                          (b"(;SZ[9]AB[zz])", "bad setup in node 0: malformed AB/AW/AE"),
                          (b"(;SZ[9];B[aa];PL[x])", "bad PL in node 2"),
                          (b"(;SZ[9]AB[aa][ba]AW[ab][bb][ca])", "without liberties"),
                          (b"(;SZ[x])", r"bad board size SZ\[x\]"),
                          (b"(;CA[no-such-codec]SZ[9]PB[x])", "unknown encoding")]:
        with pytest.raises(SgfError, match=problem):
            load_game(data)


def test_read_tree_reports_errors_too():
    with pytest.raises(SgfError, match="not an SGF file"):
        read_tree(DATA / "broken" / "garbage.sgf")
    with pytest.raises(SgfError, match=r"^cannot load file: <sgf data>: not an SGF file$"):
        read_tree(b"")


# -- the GNU Go regression games -----------------------------------------------------------

@needs_games
def test_every_regression_game_loads_or_fails_cleanly():
    loaded = failed = 0
    for path in sorted(GAMES.rglob("*.sgf")):
        try:
            g = load_game(path)
        except SgfError as e:
            assert str(path) in str(e)
            failed += 1
        else:
            assert len(g.state.moves) == len(g.moves)
            loaded += 1
    assert loaded > 0
    print(f"{loaded} regression games loaded, {failed} refused")


@pytest.mark.gnugo
@needs_games
def test_positions_agree_with_gnugo_loadsgf(gnugo):
    """Every move number of 9x9-4.sgf, then every regression game in the middle and at the
    end: same stones and same side to move as GNU Go's ``loadsgf``."""
    cases = [(GAMES / "9x9-4.sgf", n) for n in range(1, 36)]
    for path in sorted(GAMES.rglob("*.sgf")):
        length = len(load_game(path).moves)
        cases += [(path, length // 2 + 1), (path, None)]
    commands = []
    for path, number in cases:
        commands += [f"loadsgf {path}" + ("" if number is None else f" {number}"),
                     "list_stones black", "list_stones white"]
    replies = gnugo.send_many(commands)
    for i, (path, number) in enumerate(cases):
        (ok, to_play), (_, black), (_, white) = replies[3 * i: 3 * i + 3]
        g = load_game(path, number)
        colour = {BLACK: "black", WHITE: "white"}[g.to_play]
        assert ok, (path, to_play)
        assert (to_play, set(black.split()), set(white.split())) == (
            colour, stones(g.state, BLACK), stones(g.state, WHITE)), (path.name, number)


# -- saving --------------------------------------------------------------------------------

def assert_round_trip(state, **kwargs):
    data = save_game(state, **kwargs)
    g = load_game(data)
    assert np.array_equal(g.state.board(), state.board())
    assert g.to_play == state.to_play
    assert g.state.moves == state.moves == g.moves
    return data, g


def test_round_trip_of_a_handicap_game_with_comments(tmp_path):
    state = GoState(GoRules(size=9, komi=0.5))
    state.setup(black=fixed_handicap_points(9, 2))
    state.to_play = WHITE
    for vertex in ("E5", "D5", "D6", "C5", "pass", "D4", "E4", "F5", "E6", "C6"):
        state.play(from_gtp(vertex, 9))
    comments = ["1.5 s", None, "", "w: 0.52"]
    path = tmp_path / "out.sgf"
    data, g = assert_round_trip(state, path=path, black_name="Ann", white_name="Zoë",
                                result="W+3.5", comments=comments)
    assert path.read_bytes() == data
    assert (g.players, g.result, g.komi, g.komi_given) == (("Ann", "Zoë"), "W+3.5", 0.5, True)
    root = read_tree(data).get_root()
    assert root.get("AP") == ("nakade", __version__)
    assert (root.get("FF"), root.get("GM"), root.get("SZ"), root.get("CA")) == (4, 1, 9, "UTF-8")
    assert root.has_property("DT")
    assert {to_gtp(from_sgfmill(pt, 9), 9) for pt in root.get("AB")} == {"C3", "G7"}
    nodes = read_tree(data).get_main_sequence()[1:]
    assert [n.get("C") if n.has_property("C") else None for n in nodes[:5]] == [
        "1.5 s", None, None, "w: 0.52", None]


def test_round_trip_with_setup_between_moves_and_a_side_to_move():
    state = GoState(GoRules(size=9, komi=7.5))
    state.play(from_gtp("E5", 9))
    state.setup(black=gtp(state, "A1", "B1"), white=gtp(state, "J9"))
    state.play(from_gtp("D4", 9))
    state.setup(empty=gtp(state, "A1", "E5"))
    state.to_play = WHITE  # white again, as after a GTP "play w" edit
    data, g = assert_round_trip(state, komi=6.5)
    assert g.komi == 6.5
    assert b"PL[W]" in data


def test_round_trip_of_a_bare_setup_with_white_to_play():
    state = GoState(GoRules(size=5))
    state.setup(black=gtp(state, "C3"))
    state.to_play = WHITE
    data, _ = assert_round_trip(state)
    assert b"PL[W]" in data


def test_round_trip_of_a_gobang_game():
    state = GobangState(GobangRules(size=15))
    for vertex in ("H8", "H9", "J8", "J9", "K8"):
        state.play(from_gtp(vertex, 15))
    data, g = assert_round_trip(state)
    assert g.game == "gobang" and b"GM[4]" in data and b"KM[" not in data


@needs_games
def test_round_trip_of_a_loaded_record():
    assert_round_trip(load_game(GAMES / "9x9-4.sgf").state)
