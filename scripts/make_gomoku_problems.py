"""Compose Gomoku VCF problems: positions of random play where the side to move wins by
continuous fours, written in the RIGHT convention of ``problems/README.md``.

    .venv/bin/python scripts/make_gomoku_problems.py --count 40 --out problems/gomoku

Each position comes from a game of random moves on 15x15 (freestyle unless ``--rule``),
most of them within two points of a stone already there so that fours and threes are
common.  It is kept when the side to move has no five, the opponent has no five to play,
and the side to move has a VCF (``engine.core.gobang_vcf``) of at least ``--min-fours``
fours before the win and at most ``--fours``.  Every first move that starts such a win
(a four whose forced reply leaves a VCF of at most ``--fours - 1`` fours, or a four the
opponent cannot stop) is marked RIGHT, with its line in the comment; nothing else is.
``tests/test_gomoku_problems.py`` re-reads each file and checks its RIGHT moves with the
plain-Python reading of ``tests/vcf_reference.py``.  The same seed gives the same files.
"""

import argparse
import sys
from pathlib import Path

import numpy as np
from sgfmill import sgf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.gobang_tactics import winning_points  # noqa: E402
from engine.core.layout import BLACK  # noqa: E402
from engine.game.coords import row_col, to_gtp, to_sgfmill  # noqa: E402
from engine.game.registry import GameConfig  # noqa: E402
from engine.search.threats_first import vcf_line  # noqa: E402

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


def write(path: Path, state, answers: dict[int, list[int]], shortest: int, rule: str):
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--out", type=Path, default=Path("problems/gomoku"))
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", default="freestyle", choices=("freestyle", "exact5", "renju"))
    ap.add_argument("--fours", type=int, default=4, help="the most fours of a solution")
    ap.add_argument("--min-fours", type=int, default=2,
                    help="the fewest fours before the win of the shortest solution")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    made = 0
    while made < a.count:
        state = random_position(rng, a.rule, a.size, int(rng.integers(16, 60)))
        if state is None or fives(state, state.to_play) or fives(state, 3 - state.to_play):
            continue
        shortest = next((d for d in range(1, a.fours + 1) if vcf_line(state, d, NODES)), 0)
        if shortest < a.min_fours:
            continue   # no VCF at all, or too easy
        answers = winning_first_moves(state, a.fours)
        if not answers or len(answers) > 3:
            continue   # a VCF past the limits only, or too many ways to win
        made += 1
        path = a.out / f"vcf-{a.rule}-{made:02d}.sgf"
        write(path, state, answers, shortest, a.rule)
        print(path, NAME[state.to_play], " ".join(to_gtp(p, a.size) for p in answers),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
