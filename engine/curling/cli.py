"""``python -m engine.mdp curling``: play and draw a game, run matches, join a server.

    python -m engine.mdp curling --a tree --b flat --ends 2 --budget 100 --seed 1
        plays a game and writes the sheet of every shot of the last end as SVG
        (runs/curling/game-<seed>/shot-NN.svg, the chosen shot's path and the candidates'
        values drawn on it)
    python -m engine.mdp curling match --a tree --b flat --ends 2 --budget 100 --cap 200
        plays games until the Wilson interval of a's score excludes 50 % or the cap;
        records in results/curling/, summary printed and added to summary.jsonl
        (--seconds 0.3: 0.3 CPU seconds a shot instead of playouts; --server BINARY:
        every game through the official server, --b dc3-rulebased --example BINARY
        against the official example client)
    python -m engine.mdp curling summary          every comparison's summary, from records
    python -m engine.mdp curling connect --port 10000 --player tree --budget 100
        joins a DigitalCurling3 server as one team
"""

import argparse
import json
import sys
from pathlib import Path

from .players import MODES, make_player, parse_spec

KINDS = sorted(MODES) + ["rules"]


def player_spec(spec: str) -> str:
    """argparse's check of a player spec (``tree``, ``tree,c_below=0.3``)."""
    try:
        parse_spec(spec)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return spec


def _common(ap):
    ap.add_argument("--ends", type=int, default=2)
    ap.add_argument("--budget", type=int, default=100, help="playouts per shot")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="CPU seconds per shot instead of the playout budget (equal time)")
    ap.add_argument("--seed", type=int, default=0)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv.pop(0) if argv and argv[0] in ("match", "summary", "connect") else "play"
    ap = argparse.ArgumentParser(prog=f"python -m engine.mdp curling {command}",
                                 description=__doc__.split("\n\n")[0])
    if command in ("play", "match"):
        ap.add_argument("--a", type=player_spec, default="tree",
                        help=f"a player: {', '.join(KINDS)}, with settings as in "
                             "tree,c_below=0.3")
        ap.add_argument("--b", type=(lambda v: v if v == "dc3-rulebased" and command == "match"
                                     else player_spec(v)), default="flat",
                        help="the same" + (", or dc3-rulebased" if command == "match" else ""))
        _common(ap)
    if command == "play":
        ap.add_argument("--out", default=None)
    if command == "match":
        ap.add_argument("--cap", type=int, default=200)
        ap.add_argument("--workers", type=int, default=1)
        ap.add_argument("--dask", default=None, help="a Dask scheduler address")
        ap.add_argument("--server", default=None,
                        help="a DigitalCurling3-Server binary: every game through it")
        ap.add_argument("--example", default=None,
                        help="the official rulebased example client's binary (--b dc3-rulebased)")
    if command == "summary":
        ap.add_argument("--cap", type=int, default=10 ** 9,
                        help="games at which a comparison counts as stopped by its cap")
    if command == "connect":
        ap.add_argument("--host", default="localhost")
        ap.add_argument("--port", type=int, default=10000)
        ap.add_argument("--player", type=player_spec, default="tree")
        _common(ap)
    args = ap.parse_args(argv)
    if command == "match":
        from .match import ROOT, Games, run_match
        games = Games(args.ends, args.budget, args.seconds, args.server, args.example)
        summary = run_match(args.a, args.b, games, args.cap, args.seed,
                            workers=args.workers, batch=max(2 * args.workers, 8),
                            dask=args.dask)
        print(json.dumps(summary))
        with open(ROOT / "summary.jsonl", "a") as f:
            f.write(json.dumps(summary) + "\n")
        return 0
    if command == "summary":
        from .match import ROOT, summarise
        for path in sorted(ROOT.glob("*.jsonl")):
            if path.name == "summary.jsonl":
                continue
            rows = [json.loads(x) for x in path.read_text().splitlines()[1:]]
            if rows:
                print(json.dumps(summarise(rows, args.cap)))
        return 0
    if command == "connect":
        from .dc3_client import play
        session = play(make_player(args.player, args.seed, args.budget, args.seconds),
                       args.host, args.port)
        print(f"game over after {session.moves} moves as {session.team}")
        return 0
    from .draw import play_and_draw
    out = Path(args.out or f"runs/curling/game-{args.seed}")
    result, files = play_and_draw(make_player(args.a, args.seed, args.budget, args.seconds),
                                  make_player(args.b, args.seed + 1, args.budget, args.seconds),
                                  args.ends, args.seed, out)
    print(f"{args.a} (team 0) vs {args.b} (team 1): ends {result.scores}, "
          f"winner {['team 0', 'team 1'][result.winner] if result.winner >= 0 else 'draw'}; "
          f"{len(files)} SVGs in {out}")
    return 0
