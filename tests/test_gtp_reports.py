"""``printsgf`` and ``nakade-stats json``: the engine's view of its own moves, as a reviewer
sees it in Sabaki (comments, SBKV win rates) and as scripts read it."""

import json

from sgfmill import sgf

from gtp_process import run_in_process

# one thread: more threads vary from run to run, and these tests play after the engine
ARGV = ["--size", "9", "--playouts", "300", "--seed", "7", "--threads", "1"]


def _nodes(text: str):
    return sgf.Sgf_game.from_string(text).get_main_sequence()[1:]


def test_printsgf_comments_the_engine_moves_with_their_search(tmp_path):
    path = tmp_path / "game.sgf"
    replies = run_in_process(ARGV, ["play b e5", "genmove w", "nakade-stats json",
                                    "play b a1", "genmove w", "nakade-stats json",
                                    "printsgf", f"printsgf {path}",
                                    f"printsgf {tmp_path}/no/such/dir/x.sgf"])
    first, second = json.loads(replies[2][2:]), json.loads(replies[5][2:])
    text = replies[6][2:]
    assert path.read_text().rstrip() == text
    assert replies[7] == "=" and replies[8] == "? cannot save file"
    nodes = _nodes(text)
    assert [n.get_move()[0] for n in nodes] == ["b", "w", "b", "w"]
    for node in (nodes[0], nodes[2]):   # moves the client played carry nothing
        assert not node.has_property("C") and not node.has_property("SBKV")
    for node, stats in ((nodes[1], first), (nodes[3], second)):
        assert stats["color"] == "w" and stats["playouts"] == 300
        comment = node.get("C")
        assert comment.startswith("nakade: ")
        assert (f"W win rate {100 * stats['winrate']:.1f}%, {stats['visits']} visits of "
                f"300 playouts, pv {' '.join(stats['pv'])}") in comment
        # SBKV is black's win rate in percent: Sabaki's win-rate graph
        sbkv = float(node.get_raw("SBKV"))
        assert abs(sbkv - 100 * (1 - stats["winrate"])) < 0.006
    assert second["candidates"][0]["visits"] >= second["candidates"][-1]["visits"]
    assert second["move"] == second["pv"][0]


def test_a_move_taken_back_loses_its_comment():
    replies = run_in_process(ARGV, ["genmove b", "printsgf", "undo", "play b e5", "printsgf"])
    move = replies[0][2:]
    before, after = _nodes(replies[1][2:]), _nodes(replies[4][2:])
    assert before[0].has_property("C") and before[0].get_raw("B")
    assert not after[0].has_property("C"), f"{move}: a hand-played move kept a comment"
