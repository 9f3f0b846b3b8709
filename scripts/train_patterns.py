"""Learned move patterns (docs/patterns.md): generate game records with GNU Go's
self-play, fit the features' Elo ratings by minorization-maximization, and measure move
prediction on held-out games.

    # 1. records (appends; stops after --minutes; nice it, it uses one core)
    nice python scripts/train_patterns.py generate --size 9 --level 0 --minutes 8 \
        --out build/patterns/gnugo9.txt
    nice python scripts/train_patterns.py generate --size 19 --level 0 --minutes 17 \
        --out build/patterns/gnugo19.txt
    # 2. fit (the first --holdout games of each file are left out) and write the weights
    python scripts/train_patterns.py train build/patterns/gnugo9.txt \
        build/patterns/gnugo19.txt --out engine/data/go_patterns.txt
    # 3. top-1 / top-5 move prediction on the held-out games: learned, hand-made, uniform
    python scripts/train_patterns.py accuracy build/patterns/gnugo9.txt \
        build/patterns/gnugo19.txt
"""

import argparse
import sys
import time
from pathlib import Path


def generate(args) -> int:
    from engine.patterns.selfplay import format_record, gnugo_client, play_game
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = sum(1 for _ in open(out)) if out.exists() else 0
    n_random = args.random if args.random is not None else (4 if args.size < 13 else 8)
    t0 = time.time()
    games = 0
    with gnugo_client(args.level) as client, open(out, "a") as f:
        while time.time() - t0 < args.minutes * 60 and games < args.games:
            r = play_game(client, args.size, args.komi, n_random, args.seed + done + games,
                          3 * args.size * args.size)
            f.write(format_record(r) + "\n")
            f.flush()
            games += 1
    print(f"{games} games of {args.size}x{args.size} (GNU Go level {args.level}) in "
          f"{time.time() - t0:.0f} s appended to {out} ({done + games} in all)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="GNU Go self-play records")
    g.add_argument("--size", type=int, default=9)
    g.add_argument("--level", type=int, default=0)
    g.add_argument("--komi", type=float, default=7.5)
    g.add_argument("--random", type=int, default=None,
                   help="random opening moves (default 4 below 13x13, else 8)")
    g.add_argument("--minutes", type=float, default=5.0)
    g.add_argument("--games", type=int, default=10**9)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    return {"generate": generate}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
