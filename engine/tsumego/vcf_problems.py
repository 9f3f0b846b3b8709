"""Composing Gomoku VCF problems (``scripts/research/make_gomoku_problems.py`` is the command line):
random positions, the winning first moves of one by continuous fours, and the problem file
in the RIGHT convention of ``problems/README.md``.

A position comes from a game of random moves, most of them within two points of a stone
already there so that fours and threes are common.  A first move is *winning* when it makes
five, or a four the opponent cannot stop (two completions, or a completion black may not
play under renju), or a four whose forced block leaves a VCF (``engine.core.gobang_vcf``)
of one four fewer.
"""

from pathlib import Path

import numpy as np
from sgfmill import sgf

from ..core.gobang_tactics import winning_points
from ..core.layout import BLACK
from ..game.coords import row_col, to_gtp, to_sgfmill
from ..game.registry import GameConfig
from ..search.threats_first import vcf_line

NODES = 200_000
COLOUR = {1: "b", 2: "w"}
NAME = {1: "Black", 2: "White"}


def random_position(rng, rule: str, size: int, moves: int):
    """A game of ``moves`` random moves nobody has won, or None."""
    state = GameConfig("gobang", size, rule=rule).new_state()
    for _ in range(moves):
        legal = state.legal_moves()
        board = state.board()
        near = [p for p in legal if _near(board, *row_col(int(p), size))]
        pool = near if near and rng.random() < 0.9 else legal
        state.play(int(pool[rng.integers(len(pool))]))
        if state.is_terminal():
            return None
    return state


def _near(board, r, c) -> bool:
    return bool(board[max(r - 2, 0):r + 3, max(c - 2, 0):c + 3].any())


def fives(state, colour) -> list[int]:
    out = np.empty(state.s.shape[1], dtype=np.int32)
    return [int(p) for p in out[:winning_points(state.s, state.meta, colour, out)]]


def winning_first_moves(state, fours: int) -> dict[int, list[int]]:
    """First move -> its winning line, for every first move that wins by at most
    ``fours`` fours (the side to move has no five and the opponent none to play)."""
    me = state.to_play
    found = {}
    for p in state.legal_moves():
        after = state.clone()
        after.play(int(p))
        threats = fives(after, me)
        if not threats:
            continue
        blocks = [t for t in threats if after.is_legal(t)]
        if len(threats) >= 2 or not blocks:
            found[int(p)] = [int(p)]
            continue
        after.play(blocks[0])
        rest = vcf_line(after, fours - 1, NODES) if fours > 1 else []
        if rest:
            found[int(p)] = [int(p), blocks[0]] + rest
    return found


def write_problem(path: Path, state, answers: dict[int, list[int]], shortest: int, rule: str):
    n = state.size
    tree = sgf.Sgf_game(n)
    root = tree.get_root()
    root.set("GM", 4)
    root.set("GN", path.stem)
    root.set("CA", "UTF-8")
    black = {to_sgfmill(p, n) for c, p in state.moves if c == BLACK}
    white = {to_sgfmill(p, n) for c, p in state.moves if c != BLACK}
    root.set_setup_stones(black, white)
    root.set("PL", COLOUR[state.to_play])
    root.set("RU", rule)
    root.set_raw("DI", b"2" if shortest <= 3 else b"3")
    root.set_raw_list("TG", [b"win", b"fours"])
    root.set("C", f"{NAME[state.to_play]} to win by continuous fours "
                  f"({shortest} fours and the five at the shortest).")
    for move, line in sorted(answers.items()):
        node = root.new_child()
        node.set_move(COLOUR[state.to_play], to_sgfmill(move, n))
        shown = " ".join(to_gtp(p, n) for p in line)
        node.set("C", f"RIGHT: {shown}")
    path.write_bytes(tree.serialise(wrap=79))
