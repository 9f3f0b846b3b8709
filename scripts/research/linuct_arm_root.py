"""Where a LinUCT_RAVE search with the paper's per-arm phi_a (``width=arm``) spends its
playouts at the root, beside UCT's: 9x9 after E5 C3, 1,000 playouts, seed 3.  Prints the
root moves visited and, for LinUCT's eight most visited, (visits, x_a^T theta, the width
kappa sqrt(x_a^T phi_a)).  docs/published-tables.md cites it (LinUCT table 4).

    python scripts/research/linuct_arm_root.py
"""

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # this checkout's engine

from engine.core import features  # noqa: E402
from engine.game.coords import from_gtp  # noqa: E402
from engine.game.go_state import GoState  # noqa: E402
from engine.game.rules import GoRules  # noqa: E402
from engine.search import registry  # noqa: E402
from engine.search.base import Budget  # noqa: E402
from engine.search.tree import MOVE, VISITS  # noqa: E402


def main():
    state = GoState(GoRules(size=9, komi=7.5))
    for m in ("E5", "C3"):
        state.play(from_gtp(m, 9))
    for spec in ("linuct-rave:width=arm:rave_k=1000:c=1.4142", "uct:c=1.4142"):
        s = registry.make(spec, seed=3)
        s.search(state, Budget(playouts=1000))
        pool = s.pool
        kids = [c for c in pool.by_visits() if pool.ti[VISITS, c] > 0]
        print(f"{spec}: {len(kids)} root moves visited of {pool.ti[1, 0]}, top visits "
              f"{[int(pool.ti[VISITS, c]) for c in kids[:6]]}")
        if s.name == "linuct":
            theta, idx = s.model.coefficients(), np.zeros(features.max_active(9), np.int32)
            terms = []
            for c in kids[:8]:
                child = state.clone()
                child.play(int(pool.ti[MOVE, c]))
                m = features.board_row(child.s, child.meta, idx, features.STONE_FRAME)
                x = np.zeros(features.dimension(9))
                x[idx[:m]] = 1.0
                terms.append((int(pool.ti[VISITS, c]), round(float(x @ theta), 3),
                              round(math.sqrt(max(float(x @ s.model.phi[c]), 0.0)), 3)))
            print("  (visits, x.theta, width):", terms)


if __name__ == "__main__":
    main()
