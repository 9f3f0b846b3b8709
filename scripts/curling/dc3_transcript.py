"""Record one real game through the official DigitalCurling3 server as a test fixture:
every message our client received with its reply, and the actions its player chose
(tests/data/curling_dc3_game.json, replayed by tests/test_curling_dc3.py).

    python scripts/curling/dc3_transcript.py SERVER_BINARY EXAMPLE_BINARY \
        [--ends 2] [--seconds 0.3] [--seed 7] [--out tests/data/curling_dc3_game.json]
"""

import argparse
import json

from engine.curling.dc3_server import EXAMPLE, server_game
from engine.curling.match import Games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("server")
    ap.add_argument("example")
    ap.add_argument("--ends", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="tests/data/curling_dc3_game.json")
    args = ap.parse_args()
    exchange = []
    games = Games(args.ends, 150, args.seconds, args.server, args.example)
    result = server_game(games, "tree", EXAMPLE, 0, args.seed, exchange)
    with open(args.out, "w") as f:
        json.dump({"exchange": exchange, "actions": [s[3] for s in result.shots],
                   "scores": result.scores, "winner": result.winner}, f,
                  separators=(",", ":"))
    print(f"{len(exchange)} messages, ends {result.scores}, winner team {result.winner}")


if __name__ == "__main__":
    main()
