"""Compose Gomoku VCF problems: positions of random play where the side to move wins by
continuous fours, written in the RIGHT convention of ``problems/README.md``.

    .venv/bin/python scripts/research/make_gomoku_problems.py --count 40 --out problems/gomoku

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

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.game.coords import to_gtp  # noqa: E402
from engine.tsumego.vcf_problems import (NAME, NODES, fives, random_position,  # noqa: E402
                                         winning_first_moves, write_problem)
from engine.search.threats_first import vcf_line  # noqa: E402


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
        write_problem(path, state, answers, shortest, a.rule)
        print(path, NAME[state.to_play], " ".join(to_gtp(p, a.size) for p in answers),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
