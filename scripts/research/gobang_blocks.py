"""Does an engine block on 10x10 Gobang?  The short games of the SHOT tables (issue 44:
58 of 100 games of the 10k cell ended within 15 moves) come from moves that leave an
opponent's threat open; this asks each engine the two questions on fixed positions, many
times with different seeds, and counts the answers that block.

* ``three``: black has an open three D4 D5 D6 (D3, D7 empty; D2, D8 empty too); white to
  move must play D3 or D7 (anything else lets black make an open four).
* ``four``: black has D4-D7 with D3 white; white must play D8.

    python scripts/research/gobang_blocks.py --trials 20 --playouts 10000 50000 \
        --algos uct:c=0.41 uct:c=0.7 shot

One engine process per (algo, budget) answers every trial (``clear_board`` between them;
its random stream moves on, so the trials differ).  Prints one line a configuration and,
with ``--out``, one JSON line each.
"""

import argparse
import json
import sys

from engine.match.cells import engine
from engine.match.gtp_client import GtpClient

POSITIONS = {
    # name: (black stones, white stones, blocking answers)
    "three": (["D4", "D5", "D6"], ["H8", "H2"], {"D3", "D7"}),
    "four": (["D4", "D5", "D6", "D7", "J9"], ["D3", "H8", "H2", "A10"], {"D8"}),
}


def probe(spec: str, playouts: int, trials: int, seed: int) -> dict:
    argv = engine("gobang", 10, spec, playouts).replace("{python}", sys.executable)
    argv = argv.replace("{seed}", str(seed)).split()
    out = {"algo": spec, "playouts": playouts, "trials": trials}
    with GtpClient(argv, timeout=300) as client:
        for name, (black, white, blocks) in POSITIONS.items():
            hits = 0
            answers = []
            for _ in range(trials):
                client.ask("clear_board")
                for b, w in zip(black, white + [None]):
                    client.ask(f"play black {b}")
                    if w:
                        client.ask(f"play white {w}")
                for w in white[len(black):]:
                    client.ask(f"play white {w}")
                move = client.ask("genmove white").strip().upper()
                answers.append(move)
                hits += move in blocks
            out[name] = hits
            out[name + "_answers"] = answers
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--algos", nargs="+", default=["uct:c=0.41", "uct:c=0.7", "shot"])
    ap.add_argument("--playouts", type=int, nargs="+", default=[10000, 50000])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--out", help="append one JSON line per configuration here")
    args = ap.parse_args(argv)
    for spec in args.algos:
        for n in args.playouts:
            row = probe(spec, n, args.trials, args.seed)
            print(f"{spec} {n}: open three blocked {row['three']}/{args.trials}, "
                  f"four blocked {row['four']}/{args.trials}", flush=True)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
