"""The knowledge file loader and the 3x3 pattern table: the built-in file loads, a broken
file is refused with its line, patterns hold in every orientation and for both colours,
and a neighbourhood's code is what the kernels compute."""

import numpy as np
import pytest

from engine.game.coords import from_gtp
from engine.core import go_policy, patterns3
from engine.core.layout import BLACK, EMPTY, OFFBOARD, WHITE
from engine.go_knowledge import DEFAULT_PATH, PRIOR_FEATURES, KnowledgeError, load
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.search import registry


def test_the_built_in_file_loads_complete():
    kn = load()
    assert kn.playout.shape == (go_policy.N_PARAMS,)
    assert kn.prior.shape == (2 * len(PRIOR_FEATURES),)
    assert not np.isnan(kn.playout).any() and not np.isnan(kn.prior).any()
    assert (kn.prior[1::2] <= kn.prior[0::2]).all()   # wins never exceed games
    assert kn.patterns.any()


@pytest.mark.parametrize("name, index", [("nakade", go_policy.P_NAKADE),
                                         ("eye_reply", go_policy.P_EYE_REPLY),
                                         ("own_space", go_policy.P_OWN_SPACE)])
def test_a_file_older_than_a_playout_step_reads_with_it_off(tmp_path, name, index):
    text = DEFAULT_PATH.read_text()
    line = next(x for x in text.splitlines() if x.startswith(name + " "))
    old = load(write(tmp_path, text.replace(line + "\n", "")))
    assert old.playout[index] == 0.0
    on = tmp_path / "on.txt"   # another path: ``load`` keeps what it read by path
    on.write_text(text.replace(line, f"{name} 1"))
    assert load(str(on)).playout[index] == 1.0


def write(tmp_path, text):
    path = tmp_path / "k.txt"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("change, message", [
    (("atari 0.9", "atari lots"), "is not a number"),
    (("atari 0.9", "atari 1.5"), "at most 1"),
    (("even 10 5", "even 5 10"), "more wins than games"),
    (("near3 8 8", ""), "missing near3"),
    (("[prior]", "[priors]"), "unknown section"),
    (("XOX\n...\n???", "XOX\n.X.\n???"), "centre"),
    (("XOX\n...\n???", "XOX\n.Z.\n???"), "unknown pattern characters"),
    (("pattern hane_enclosing 1", "pattern hane_enclosing 300"), "1..255"),
    (("empty_third 10 10", "empty_third 10 10\neven 1 1"), "given twice"),
    (("nakade 0", "nakade 2"), "at most 1"),
    (("eye_reply 0", "eye_reply 2"), "at most 1"),
    (("own_space 0", "own_space -0.5"), "finite number >= 0"),
])
def test_a_broken_file_is_refused_with_the_reason(tmp_path, change, message):
    text = DEFAULT_PATH.read_text()
    old, new = change
    assert old in text
    with pytest.raises(KnowledgeError, match=message):
        load(write(tmp_path, text.replace(old, new, 1)))


def test_a_missing_file_is_a_clear_error_and_the_searcher_refuses_it(tmp_path):
    with pytest.raises(KnowledgeError, match="cannot read"):
        load(str(tmp_path / "nope.txt"))
    with pytest.raises(ValueError, match="cannot read"):
        registry.make("uct", seed=0, options={"knowledge": str(tmp_path / "nope.txt")})
    searcher = registry.make("uct", seed=0, options={})
    with pytest.raises(ValueError):
        searcher.set_option("knowledge", str(tmp_path / "nope.txt"))
    assert searcher.options()["knowledge"] == "builtin"   # a refused value changes nothing


def neighbourhood(rows):
    """The code of a 3x3 picture (X black, O white, . empty, # edge) by the definition."""
    value = {".": EMPTY, "X": BLACK, "O": WHITE, "#": OFFBOARD}
    cells = [rows[0][0], rows[0][1], rows[0][2], rows[1][0], rows[1][2], rows[2][0],
             rows[2][1], rows[2][2]]
    return sum(value[ch] << (2 * i) for i, ch in enumerate(cells))


def test_a_pattern_holds_in_every_orientation_and_for_both_colours():
    table = patterns3.expand([(["XO.", "...", "?.?"], 7)])
    # the pattern itself, rotated a quarter turn, mirrored, and with colours swapped
    for rows in (["XO.", "...", "X.O"], ["?.X", "..O", "?.."], [".OX", "...", "?.?"],
                 ["OX.", "...", "..."]):
        concrete = [r.replace("?", ".") for r in rows]
        assert table[neighbourhood(concrete)] == 7, rows
    assert table[neighbourhood(["XX.", "...", "..."])] == 0
    assert table[neighbourhood(["...", "...", "..."])] == 0


def test_wildcards_and_the_edge():
    table = patterns3.expand([(["?X?", "x.O", "###"], 3)])
    assert table[neighbourhood(["OXO", "..O", "###"])] == 3    # x matches empty
    assert table[neighbourhood(["OXO", "O.O", "###"])] == 3    # x matches the other colour
    assert table[neighbourhood(["OXO", "X.O", "###"])] == 0    # x refuses X
    assert table[neighbourhood(["OXO", "..O", "..."])] == 0    # the edge is required


def test_the_kernel_code_matches_the_definition():
    st = GoState(GoRules(size=5))
    st.setup(black=[from_gtp("B2", 5), from_gtp("A1", 5)], white=[from_gtp("C3", 5)])
    p = from_gtp("B1", 5)
    #  rows around b1: a2 b2 c2 / a1 . c1 / edge
    assert patterns3.code(st.s, 7, p) == neighbourhood([".X.", "X..", "###"])
    p = from_gtp("B3", 5)
    assert patterns3.code(st.s, 7, p) == neighbourhood(["...", "..O", ".X."])
