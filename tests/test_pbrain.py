"""The Gomocup brain (engine/pbrain): its protocol text, its limits, its quick move, the
adapter in-process, and -- through tests/pbrain_manager.py, a small manager with its own
five-in-a-row judge -- whole games between brain processes on pipes (the conformance
test): both flows, TAKEBACK, RESTART, bad input and the time limits."""

import io
import time

import pytest

from engine.core.layout import BLACK, WHITE
from engine.game.coords import point
from engine.game.gobang_state import GobangState
from engine.game.rules import GOBANG_VARIANTS, GobangRules
from engine.pbrain import protocol
from engine.pbrain.brain import Brain, BrainError, BrainSettings
from engine.pbrain.limits import Limits, NO_MATCH_LIMIT, own_moves_left, rule_variant
from engine.search import presets, registry
from engine.search.base import SearchResult
from engine.pbrain.memory import MEMORY_HEADROOM, held_bytes, node_bytes, pool_nodes
from engine.pbrain.protocol import Command, ProtocolError, UnknownCommand
from engine.pbrain.quick_move import quick_move
from engine.pbrain.session import Session
from engine.pbrain.thinker import Thinker
from engine.timecontrol import FIXED_MARGIN, RELATIVE_MARGIN
from pbrain_manager import BrainProcess, parse_move, play_game, start

FAST = ("--playouts", "150")   # games in seconds; the time tests run without it


# -- protocol text ---------------------------------------------------------------------------
@pytest.mark.parametrize("line, command", [
    ("START 20", Command("START", (20,))),
    ("rectstart 30, 20", Command("RECTSTART", (30, 20))),
    ("TURN 10,11\r", Command("TURN", (10, 11))),
    ("TAKEBACK 9,10", Command("TAKEBACK", (9, 10))),
    ("PLAY 1,2", Command("PLAY", (1, 2))),
    ("INFO timeout_turn 5000", Command("INFO", ("timeout_turn", "5000"))),
    ("INFO folder C:\\some dir", Command("INFO", ("folder", "C:\\some dir"))),
    ("BEGIN", Command("BEGIN")), ("ABOUT", Command("ABOUT")), ("END", Command("END")),
])
def test_commands_are_read(line, command):
    assert protocol.parse_line(line) == command


def test_an_empty_line_is_no_command():
    assert protocol.parse_line("  \r") is None


@pytest.mark.parametrize("line", ["START", "START 2x", "TURN 3", "TURN 3,4,5", "TURN -1,2",
                                  "RECTSTART 10", "BEGIN 7,7", "INFO"])
def test_bad_arguments_are_protocol_errors(line):
    with pytest.raises(ProtocolError):
        protocol.parse_line(line)


@pytest.mark.parametrize("line", ["FOO", "SWAP2BOARD", "genmove b"])
def test_unknown_commands(line):
    with pytest.raises(UnknownCommand):
        protocol.parse_line(line)


def test_board_lines_and_replies():
    assert protocol.parse_board_line("10,11,2") == (10, 11, 2)
    assert protocol.is_board_end("done\r")
    for bad in ("10,11", "10,11,4", "a,b,1"):
        with pytest.raises(ProtocolError):
            protocol.parse_board_line(bad)
    assert protocol.message("two\nlines") == ["MESSAGE two", "MESSAGE lines"]
    assert protocol.error("bad\nthing") == "ERROR bad thing"
    assert protocol.about({"name": 'a"b', "version": "1"}) == 'name="a\'b", version="1"'


# -- limits ------------------------------------------------------------------------------
def test_rule_masks():
    assert rule_variant(0) == "freestyle"
    assert rule_variant(1) == "exact5"
    for mask, words in ((2, "continuous"), (8, "caro"), (3, "continuous"), (16, "bits 16")):
        with pytest.raises(ValueError, match=words):
            rule_variant(mask)
    if "renju" in GOBANG_VARIANTS:
        assert rule_variant(4) == rule_variant(5) == "renju"
    else:
        with pytest.raises(ValueError, match="renju.*not supported yet"):
            rule_variant(4)


def kept(seconds: float) -> float:
    """What ``engine.timecontrol`` leaves of ``seconds`` after its safety margin."""
    return seconds - FIXED_MARGIN - RELATIVE_MARGIN * seconds


def test_a_move_gets_the_turn_limit_less_the_margin():
    limits = Limits()
    assert limits.move_seconds(35) == 5.0            # nothing said: the default
    limits.set("timeout_turn", "2000")
    assert limits.move_seconds(35) == pytest.approx(kept(2.0))
    assert limits.move_seconds(35, fixed=0.5) == 0.5
    limits.set("timeout_turn", "0")
    assert limits.move_seconds(35) == 0.0            # as fast as possible


def test_a_game_is_planned_for_35_own_moves_then_a_tenth_of_what_is_left():
    assert own_moves_left(0, 225) == 35
    assert own_moves_left(20, 205) == 25
    assert own_moves_left(60, 165) == own_moves_left(200, 200) == 10
    assert own_moves_left(3, 22) == 11               # half the empty points, on 5x5


def test_a_move_gets_a_share_of_the_match_time():
    limits = Limits()
    limits.set("timeout_turn", "30000")
    limits.set("timeout_match", "60000")
    assert limits.time_left == 60000                 # until the manager says otherwise
    assert limits.move_seconds(30) == pytest.approx(kept(60.0 / 30))
    limits.spend(10.0)
    assert limits.time_left == 50000
    limits.set("time_left", "15000")
    assert limits.move_seconds(30) == pytest.approx(kept(15.0 / 30))
    limits.set("time_left", "3000")                  # 0.1 s a move: the margin eats it
    assert limits.move_seconds(30) == 0.0
    limits.set("time_left", str(NO_MATCH_LIMIT))
    assert limits.move_seconds(30) == pytest.approx(kept(30.0))
    for out_of_time in ("0", "-300"):
        limits.set("time_left", out_of_time)
        assert limits.move_seconds(30) == 0.0        # no search: the quick move


def test_a_turn_limit_the_margin_eats_gets_the_quick_move():
    limits = Limits()
    limits.set("timeout_turn", "150")
    assert limits.move_seconds(35) == 0.0
    limits.set("timeout_turn", "500")
    assert limits.move_seconds(35) == pytest.approx(kept(0.5))


class _BudgetSpy:
    """A back end that records the budget it is given and answers at once."""
    name = "spy"

    def __init__(self, landing):
        self.landing, self.budgets = landing, []

    def search(self, state, budget, stop=None, progress=None):
        self.budgets.append(budget)
        return SearchResult(move=state.empty_points()[0], winrate=0.5, playouts=1,
                            seconds=0.0)


@pytest.mark.parametrize("algo, landing", [("ab", 0.01), ("uct", 0.04)])
def test_the_search_aims_its_own_landing_short_of_the_move_time(algo, landing):
    assert registry.back_end(algo).landing == landing   # the alpha-beta stops precisely
    spy = _BudgetSpy(landing)
    state = GobangState(GobangRules(size=15))
    state.play(point(7, 7, 15))
    Thinker(spy).think(state, 0.3)
    assert spy.budgets[0].seconds == pytest.approx(0.3 - landing)


def test_bad_info_values_are_refused_and_unknown_keys_ignored():
    limits = Limits()
    for key, value in (("timeout_turn", "fast"), ("max_memory", "-5")):
        with pytest.raises(ValueError, match=key):
            limits.set(key, value)
    limits.set("evaluate", "3,4")
    limits.set("time_left", "-200")                  # over time: negative is legal
    assert limits.time_left == -200 and limits.timeout_turn is None


def test_pool_size_from_memory():
    mib = 2**20
    assert pool_nodes(400 * mib, 200 * mib, 100, 1000, 10**7) == \
        (200 * mib - MEMORY_HEADROOM) // 100
    assert pool_nodes(4000 * mib, 200 * mib, 100, 1000, 10**6) == 10**6
    assert pool_nodes(210 * mib, 200 * mib, 100, 1000, 10**6) == 1000   # the least, not none


# -- the quick move ---------------------------------------------------------------------
def position(size, black, white, variant="freestyle"):
    """A GobangState from (x, y) lists, black first and alternating (white may be one
    short); black to move when the counts are equal."""
    state = GobangState(GobangRules(size, variant))
    for i in range(len(black) + len(white)):
        x, y = (black if i % 2 == 0 else white)[i // 2]
        state.play(point(y, x, size))
    return state


def xy(p, size):
    return p % (size + 2) - 1, p // (size + 2) - 1


def test_quick_move_wins_then_blocks_then_crowds():
    s = position(9, [(1, 1), (2, 1), (3, 1), (4, 1)], [(1, 5), (2, 5), (3, 5), (4, 5)])
    assert xy(quick_move(s), 9) in ((0, 1), (5, 1))            # black wins at once
    s = position(9, [(1, 1), (2, 1), (3, 1), (8, 8)], [(1, 5), (2, 5), (3, 5), (4, 5)])
    assert xy(quick_move(s), 9) in ((0, 5), (5, 5))            # black must block
    assert xy(quick_move(position(9, [], [])), 9) == (4, 4)     # the centre
    s = position(9, [(4, 4)], [])
    x, y = xy(quick_move(s), 9)
    assert max(abs(x - 4), abs(y - 4)) == 1                     # next to the stone


def test_quick_move_knows_exactly_five():
    # black's x x x x _ x makes six at the gap, a win only in freestyle; white has a four
    black = [(0, 0), (1, 0), (2, 0), (3, 0), (5, 0)]
    white = [(0, 8), (1, 8), (2, 8), (3, 8), (8, 4)]
    assert xy(quick_move(position(9, black, white)), 9) == (4, 0)
    assert xy(quick_move(position(9, black, white, "exact5")), 9) == (4, 8)


# -- the adapter in-process ----------------------------------------------------------------
def new_brain(size=9, **settings) -> Brain:
    brain = Brain(BrainSettings(playouts=100, **settings))
    brain.start(size)
    return brain


def snapshot(brain):
    return brain.state.board().tobytes(), brain.state.to_play, list(brain.state.moves)


def test_bad_moves_leave_the_position_alone():
    brain = new_brain()
    x, y = brain.begin(time.monotonic())
    before = snapshot(brain)
    for bad in ((x, y), (9, 0), (0, 12)):
        with pytest.raises(BrainError):
            brain.turn(*bad, time.monotonic())
        assert snapshot(brain) == before
    with pytest.raises(BrainError, match="empty board"):
        brain.begin(time.monotonic())
    with pytest.raises(BrainError, match="no stone at"):
        brain.takeback((x + 1) % 9, y)
    assert snapshot(brain) == before
    with pytest.raises(BrainError, match="no board"):
        Brain(BrainSettings(playouts=10)).turn(1, 1, time.monotonic())


@pytest.mark.parametrize("stones, reason", [
    ([(1, 1, 1), (1, 1, 2)], "twice"),
    ([(1, 1, 3)], "continuous"),
    ([(9, 1, 1)], "off the"),
    ([(x, 0, 1) for x in range(5)] + [(x, 3, 2) for x in range(5)], "over"),
])
def test_bad_boards_are_refused(stones, reason):
    brain = new_brain()
    brain.begin(time.monotonic())
    before = snapshot(brain)
    with pytest.raises(BrainError, match=reason):
        brain.board(stones, time.monotonic())
    assert snapshot(brain) == before


def test_full_board_is_refused():
    brain = new_brain(size=5)
    stones = [(x, y, 1 + (x + 2 * y) % 2) for x in range(5) for y in range(5)]
    with pytest.raises(BrainError, match="no empty point"):
        brain.board(stones, time.monotonic())


def test_board_sets_colours_by_the_counts_and_answers():
    brain = new_brain()
    x, y = brain.board([(4, 4, 2), (3, 3, 1), (5, 5, 2)], time.monotonic())
    state = brain.state
    assert state.color_at(point(4, 4, 9)) == BLACK      # the opponent had one more: black
    assert state.color_at(point(y, x, 9)) == WHITE
    assert state.to_play == BLACK and state.move_count == 4


@pytest.mark.parametrize("own, theirs, mine", [
    (4, 3, BLACK), (2, 4, WHITE), (0, 3, WHITE), (4, 0, BLACK), (3, 3, BLACK), (0, 0, BLACK)])
def test_any_counts_are_played_for_the_side_told_to_move(own, theirs, mine):
    """A manager's set-up need not alternate: the brain plays the position it is given."""
    brain = new_brain()
    stones = [(x, 1, 1) for x in range(own)] + [(x, 6, 2) for x in range(theirs)]
    x, y = brain.board(stones, time.monotonic())
    state = brain.state
    assert brain.own == mine and state.color_at(point(y, x, 9)) == mine
    assert state.to_play == 3 - mine and state.move_count == own + theirs + 1
    # the manager's undo: our answer, then a stone of the set-up, then play on
    brain.takeback(x, y)
    assert state.to_play == mine and state.color_at(point(y, x, 9)) == 0
    if theirs:
        brain.takeback(0, 6)
        assert brain.state.to_play == 3 - mine and brain.state.color_at(point(6, 0, 9)) == 0
        x, y = brain.turn(8, 8, time.monotonic())
        assert brain.state.color_at(point(8, 8, 9)) == 3 - mine
        assert brain.state.color_at(point(y, x, 9)) == mine
    brain.restart()
    assert brain.state.move_count == 0 and brain.own is None


def test_a_renju_set_up_is_not_judged_by_the_order_of_its_stones():
    # black's last stone, played, would make a double three at (4, 4): a forbidden point
    if "renju" not in GOBANG_VARIANTS:
        pytest.skip("no renju")
    brain = new_brain()
    brain.info("rule", "4")
    stones = [(3, 4, 1), (5, 4, 1), (4, 3, 1), (4, 5, 1), (4, 4, 1), (0, 0, 2), (8, 0, 2),
              (0, 8, 2), (8, 8, 2)]
    x, y = brain.board(stones, time.monotonic())
    assert brain.own == BLACK and brain.state.color_at(point(y, x, 9)) == BLACK


def test_a_winning_turn_is_refused_and_undone():
    brain = new_brain()
    # the opponent (black) has an open four: whatever we block, the other end wins
    brain.board([(1, 0, 2), (2, 0, 2), (3, 0, 2), (4, 0, 2), (0, 8, 1), (2, 8, 1),
                 (4, 8, 1)], time.monotonic())
    win = next(x for x in (0, 5) if brain.state.color_at(point(0, x, 9)) == 0)
    before = snapshot(brain)
    with pytest.raises(BrainError, match="makes five"):
        brain.turn(win, 0, time.monotonic())
    assert snapshot(brain) == before


def test_info_names_a_back_end_option_as_set_does():
    brain = new_brain()
    brain.info("c", "0.25")
    brain.info("max_nodes", "5000")
    options = brain.thinker.searcher.options()
    assert float(options["c"]) == 0.25 and int(options["max_nodes"]) == 5000
    assert brain.max_nodes == 5000
    brain.info("c", "-3")                      # out of bounds: a MESSAGE, nothing changed
    assert float(brain.thinker.searcher.options()["c"]) == 0.25
    assert brain.notes and brain.notes[-1][0] == "message" and "c" in brain.notes[-1][1]
    brain.info("timeout_turn", "700")          # the protocol's own keys stay the limits'
    assert brain.limits.timeout_turn == 700


def test_unsupported_rules_refuse_moves_until_changed():
    brain = new_brain()
    brain.info("rule", "2")
    with pytest.raises(BrainError, match="continuous"):
        brain.begin(time.monotonic())
    brain.info("rule", "1")
    assert brain.variant == "exact5" and brain.state.rules.variant == "exact5"
    brain.begin(time.monotonic())


def test_default_options_follow_the_back_end():
    assert BrainSettings().back_end_options() == {
        "playout": "shape", "shape_prior": "20", "widen": "8", "expand_after": "3",
        "vcf": "1", "near": "2", "vcf_defence": "1", "vct": "1", "vct_nodes": "30000",
        "stop_early": "1",
        "solver": "1",
        "threat_nodes": "50", "threads": presets._cores(), "resign_threshold": "0"}  # all cores
    assert BrainSettings(algo="shot").back_end_options() == {
        "playout": "shape", "vcf": "1", "near": "2", "vcf_defence": "1", "vct": "1",
        "vct_nodes": "30000", "threads": presets._cores(),
        "resign_threshold": "0"}
    assert BrainSettings(preset="paper").back_end_options() == {
        "solver": "1", "resign_threshold": "0"}
    linuct = BrainSettings(algo="linuct-rave", options=(("kappa", "2"),)).back_end_options()
    assert linuct["kappa"] == "2" and linuct["playout"] == "shape"   # LinUCT takes it too
    assert BrainSettings(options=(("playout", "light"),)).back_end_options()["playout"] == \
        "light"
    Brain(BrainSettings(algo="linuct-plain"))    # builds: no option it does not know


def test_session_over_streams():
    """The loop in-process: replies in order, INFO silent, END stops reading."""
    out = io.BytesIO()
    lines = iter(["ABOUT", "START 9", "INFO timeout_turn 800", "INFO rule 9", "BEGIN",
                  "INFO rule 0", "BOARD", "4,4,1", "x", "DONE", "BOARD", "4,4,1", "3,3,2",
                  "DONE", "WHAT", "END", "BEGIN"])
    Session(Brain(BrainSettings(playouts=50)), out).serve(lines)
    replies = [r for r in out.getvalue().decode().splitlines()
               if not r.startswith(("DEBUG", "MESSAGE"))]
    assert replies[0].startswith('name="nakade"')
    assert replies[1] == "OK"
    assert replies[2].startswith("ERROR rule 9") and "caro" in replies[2]
    assert replies[3].startswith("ERROR a BOARD line")
    assert replies[4].count(",") == 1                # a move
    assert replies[5].startswith("UNKNOWN")
    assert len(replies) == 6                         # nothing after END


# -- brains on pipes (the conformance test) ------------------------------------------------
@pytest.fixture(scope="module")
def brains():
    with BrainProcess(*FAST, "--seed", "1") as a, BrainProcess(*FAST, "--seed", "2") as b:
        yield a, b


def test_begin_turn_game_to_a_result(brains):
    a, b = brains
    infos = {"timeout_turn": 5000, "timeout_match": 600000, "max_memory": 500 * 2**20,
             "game_type": 1, "rule": 0}
    for brain in brains:
        start(brain, 10, infos)
    game = play_game(a, b, 10, infos)
    assert game.over and len(game.moves) >= 9
    assert max(game.seconds) < 5.0


def test_board_flow_exact_five_and_restart(brains):
    a, b = brains
    infos = {"timeout_turn": 5000, "rule": 1}
    for brain in brains:
        start(brain, 10, {})
        assert brain.ask("RESTART")[0] == "OK"
        brain.send(*(f"INFO {k} {v}" for k, v in infos.items()))
    game = play_game(b, a, 10, infos, opening=[(4, 4), (5, 5), (3, 6)])
    assert game.over


def test_takeback_and_replay(brains):
    a, _ = brains
    start(a, 12, {"timeout_turn": 3000})
    first, _ = a.ask("BEGIN")
    x, y = (int(v) for v in first.split(","))
    reply, _ = a.ask(f"TURN {(x + 3) % 12},{y}")
    assert a.ask(f"TAKEBACK {reply}")[0] == "OK"
    assert a.ask(f"TAKEBACK {(x + 3) % 12},{y}")[0] == "OK"
    again, _ = a.ask(f"TURN {(x + 3) % 12},{y}")    # the same position as before
    assert again.count(",") == 1
    assert a.ask(f"TAKEBACK {(x + 5) % 12},{(y + 5) % 12}")[0].startswith("ERROR")  # empty
    assert a.ask(f"TAKEBACK {first}")[0] == "OK"     # any stone, not only the last


# Gomocup's tournament INFO lines, as its managers send them (20x20 via START 20)
GOMOCUP_INFOS = {"max_memory": 350000000, "timeout_match": 120000, "timeout_turn": 5000,
                 "game_type": 1, "time_left": 120000}


def board_block(own, theirs):
    return ["BOARD", *(f"{x},{y},1" for x, y in own), *(f"{x},{y},2" for x, y in theirs),
            "DONE"]


@pytest.mark.parametrize("rule", [0, 1, 4])
def test_gomocup_set_ups_and_undo_under_its_limits(brains, rule):
    """What a Gomocup manager sends: its INFO lines, openings by BOARD in any counts, undo by
    TAKEBACK, RESTART and RECTSTART after them; every move command gets a move."""
    a, _ = brains
    seen = len(a.notes)
    start(a, 20, dict(GOMOCUP_INFOS, rule=rule))
    for own, theirs in (([(9, 9), (10, 10), (11, 9), (3, 3)], [(9, 10), (10, 9), (12, 12)]),
                        ([(9, 9), (10, 11)], [(9, 10), (10, 9), (12, 12), (2, 17)]),
                        ([], [(9, 9), (10, 10), (8, 8)]), ([(5, 5)], [])):
        reply, _ = a.ask(*board_block(own, theirs))
        x, y = parse_move(reply, 20)
        assert (x, y) not in own + theirs
        assert a.ask(f"TAKEBACK {x},{y}")[0] == "OK"
        if theirs:
            assert a.ask("TAKEBACK {},{}".format(*theirs[-1]))[0] == "OK"
            reply, _ = a.ask("TURN {},{}".format(*theirs[-1]))
            assert parse_move(reply, 20) not in own + theirs
        assert a.ask("RESTART")[0] == "OK"
    assert a.ask("RECTSTART 20,20")[0] == "OK"
    assert a.ask(*board_block([(1, 1)], [(2, 2), (3, 3)]))[0].count(",") == 1
    assert a.ask(*board_block([(1, 1), (1, 1)], []))[0].startswith("ERROR")      # twice
    assert a.ask(*board_block([(20, 1)], []))[0].startswith("ERROR")             # off
    five = board_block([(x, 0) for x in range(5)], [(x, 5) for x in range(4)])
    assert a.ask(*five)[0].startswith("ERROR")                                   # won
    # every move was answered under 350 MB; how much of the pool it left depends on what the
    # process holds by then (a search the deadline guard abandoned holds its pool a while)
    assert a.ask("RESTART")[0] == "OK"
    assert a.ask("BEGIN")[0].count(",") == 1
    a.send("INFO max_memory 100000000")              # below what the brain holds: cut
    assert a.ask("TURN 0,0")[0].count(",") == 1
    assert any(n.startswith("MESSAGE max_memory 95 MiB cuts the search")
               for n in a.notes[seen:])
    a.send("INFO max_memory 0")


def test_bad_input_gets_errors_and_the_brain_lives_on(brains):
    a, _ = brains
    start(a, 10, {"timeout_turn": 2000})
    first, _ = a.ask("BEGIN")
    bad = [("FOO bar", "UNKNOWN"), (f"TURN {first}", "ERROR"), ("TURN 10,3", "ERROR"),
           ("TURN 3", "ERROR"), ("START 4", "ERROR"), ("RECTSTART 10,12", "ERROR"),
           ("BEGIN", "ERROR"), ("TAKEBACK 0,0", "ERROR")]
    for line, kind in bad:
        assert a.ask(line)[0].startswith(kind + " "), line
    a.send("INFO timeout_turn abc", "INFO nonsense 1")
    assert a.silent()                                # INFO never answers
    reply, _ = a.ask("TURN 0,0")                     # the game goes on where it was
    assert reply.count(",") == 1 and reply != first
    assert any("timeout_turn" in n for n in a.notes if n.startswith("MESSAGE"))
    assert a.ask("ABOUT")[0].startswith('name="nakade", version=')


def test_moves_keep_to_the_turn_and_match_time():
    with BrainProcess("--seed", "3") as a, BrainProcess("--seed", "4") as b:
        start(a, 15, {"timeout_turn": 1500, "timeout_match": 100000})
        start(b, 15, {"timeout_turn": 5000, "timeout_match": 15000, "time_left": 15000})
        game = play_game(a, b, 15, {}, max_moves=12)
        black, white = game.seconds[0::2], game.seconds[1::2]
        assert max(black) < 1.5, black
        assert sum(white) < 3.0, white                # a share each: 15 s over 35 moves
        assert any("playouts" in n for n in b.notes)  # and it did search
        # timeout_turn 0: no search at all
        start(a, 15, {"timeout_turn": 0})
        reply, seconds = a.ask("BEGIN")
        assert reply == "7,7" and "quick move" in a.notes[-1], a.notes[-1]
        assert seconds < 1.0


def test_max_memory_sizes_the_pool_and_never_refuses_a_move():
    brain = new_brain()
    searcher = brain.thinker.searcher
    brain.info("max_memory", str(10 * 2**20))        # below what the process holds
    brain.begin(time.monotonic())                    # still a move, on the least pool
    assert searcher.options()["max_nodes"] == 1_000
    assert any(kind == "message" and "cuts the search tree to 1000 nodes" in text
               for kind, text in brain.notes)
    brain.restart()
    held = held_bytes(searcher)
    brain.info("max_memory", str(held + MEMORY_HEADROOM + node_bytes(searcher) * 50_000))
    brain.begin(time.monotonic())
    assert 40_000 < searcher.options()["max_nodes"] <= 50_000
    brain.info("max_memory", "0")                    # lifted: the configured pool again
    brain.turn(0, 0, time.monotonic())
    assert searcher.options()["max_nodes"] == brain.max_nodes == 1_000_000


def test_the_same_seed_plays_the_same_moves():
    # on one search thread (more threads interleave as the OS schedules them)
    def game(seed):
        brain = new_brain(seed=seed, options=(("threads", "1"),))
        moves = [brain.begin(time.monotonic())]
        for x, y in ((0, 0), (8, 8), (0, 8)):
            if brain.state.color_at(point(y, x, 9)) == 0:
                moves.append(brain.turn(x, y, time.monotonic()))
        return moves
    assert game(11) == game(11)


def test_a_node_of_linuct_behind_the_root_steps_is_counted_as_linuct():
    from engine.search.registry import make
    assert node_bytes(make("linuct")) > node_bytes(make("uct")) == node_bytes(make("shot"))


def test_the_kernels_compile_in_a_child_process():
    """The child that compiles on a cold cache runs with the brain's arguments (here on a
    warm cache: it loads them and exits)."""
    from engine.pbrain.kernels import compile_in_child
    lines = []
    assert compile_in_child(["--playouts", "20", "--seed", "3"], lines.append)
    assert "child process" in lines[-1]
