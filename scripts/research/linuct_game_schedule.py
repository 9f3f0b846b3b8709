"""Where fLinUCB-GD's step schedule stands in a game (docs/algorithms.md section 9, "A
stable step"): LinUCT against UCT on 9x9, every move told to both searchers as the GTP
layer tells them (``notify_play``: a tree, and LinUCT's model with it, is kept from move
to move), printing for each LinUCT move the model's step count t before the search, the
length m of the root position's feature row, gamma_t m (the paper's step overshoots a
row while this exceeds 2, ``step=capped`` cuts it while it exceeds 1) and the largest
|theta_j|; then, on the last position, the norm of theta after a search from a fresh
model with the paper's step and with the capped one:

    python scripts/research/linuct_game_schedule.py
    python scripts/research/linuct_game_schedule.py --spec linuct-rave:rave_k=1000:features=mover --plies 60
"""

import argparse

import numpy as np

from engine.core import features
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.game.state import IllegalMove
from engine.search import registry
from engine.search.base import Budget


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default="linuct-rave:rave_k=1000:features=mover:width=count")
    ap.add_argument("--playouts", type=int, default=1000)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--every", type=int, default=5, help="print every Nth LinUCT move")
    args = ap.parse_args()
    state = GoState(GoRules(size=9, komi=7.5))
    linuct, uct = registry.make(args.spec, seed=1), registry.make("uct", seed=2)
    row = np.zeros(features.max_active(9), dtype=np.int32)
    print("| ply | t before the search | root row m | gamma_t m | tree kept | max abs theta_j |")
    print("|---:|---:|---:|---:|---|---:|")
    worst = 0.0
    for ply in range(args.plies):
        searcher = linuct if ply % 2 == 0 else uct
        if searcher is linuct:
            t = float(linuct.model.gd[0]) if linuct.model is not None else 0.0
            m = features.board_row(state.s, state.meta, row, features.STONE_FRAME)
        result = searcher.search(state, Budget(playouts=args.playouts))
        if searcher is linuct:
            top = float(np.abs(linuct.model.coefficients()).max())
            worst = max(worst, m / (101.0 + t))
            if ply // 2 % args.every == 0:
                print(f"| {ply} | {t:.0f} | {m} | {m / (101.0 + t):.3f} | {linuct.kept} "
                      f"| {top:.3f} |")
        color = state.to_play
        for s in (linuct, uct):
            s.notify_play(state, result.move, color)
        try:
            state.play(result.move)
        except IllegalMove:   # a resignation
            print(f"\n{'LinUCT' if searcher is linuct else 'UCT'} resigned at ply {ply}")
            break
    print(f"\nlargest gamma_t m at a search's first step: {worst:.3f}")
    # the same budget from a fresh model (t = 0) on the last position, where rows are long
    for step in ("paper", "capped"):
        fresh = registry.make(f"{args.spec}:step={step}", seed=1)
        fresh.search(state, Budget(playouts=args.playouts))
        print(f"fresh search of the last position, step={step}: |theta| "
              f"{np.linalg.norm(fresh.model.coefficients()):.4g}")


if __name__ == "__main__":
    main()
