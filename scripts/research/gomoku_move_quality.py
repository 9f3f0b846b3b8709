"""How often a Gobang configuration blunders, with a stronger brain as the judge: for each
position of a fixed set (ours to move, from recorded brain matches), our move under a time
or node budget, then the judge's evaluation of the position after it.  A *blunder* is a
move after which the judge sees a loss (a mate, or -1000 and worse) where its own move
(searched ``--reference-ms``) keeps the game; positions its own move cannot save are left
out.  The *loss* of a move is the judge's value of its own move less its value of ours
(within ``LOSS_CAP`` either way): a finer measure than the blunders, 0 where the moves
agree.  Far fewer games' worth of time than a match tells two configurations apart, since
each position is judged on its own.

    python scripts/research/gomoku_move_quality.py \\
        --records results/gomoku/ab-rapfi-10to1/results.jsonl ... \\
        --judge ../shared/opponents/rapfi/pbrain-rapfi --seconds 0.4 \\
        --config default= --config fours-only=vct_depth=0,lmr=0

The positions (and the judge's own moves) are built once into ``--positions`` and reused;
the judge's evaluations are cached beside it.  One JSON line per configuration goes to
``--out`` (the commit, the options, the summary and every move).
"""

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.game.coords import from_gtp, point, row_col, to_gtp  # noqa: E402
from engine.game.gobang_state import GobangState  # noqa: E402
from engine.game.rules import GobangRules  # noqa: E402
from engine.match.brain_client import BrainClient  # noqa: E402
from engine.results_store import commit  # noqa: E402
from engine.search import registry  # noqa: E402
from engine.search.base import Budget  # noqa: E402

LOST = -1000        # the judge's evaluation at and below which a position counts as lost
MATE = 5000         # a mate in the judge's evaluation, either way
LOSS_CAP = 500      # a move's loss against the judge's move is counted up to this
EVAL = re.compile(r"Eval ([+-]?M?\d+)")


class Judge:
    """The judging brain on pipes: its move and its evaluation (``MESSAGE ... Eval E``, as
    Rapfi reports it) for the side to move of a move list, colours alternating."""

    def __init__(self, argv: list[str], size: int):
        self.size = size
        self.client = BrainClient(argv, timeout=60)
        self.client.send(f"START {size}")

    def think(self, moves: list[str], ms: int) -> tuple[str, int]:
        self.client.tell(f"INFO timeout_turn {ms}")
        k = len(moves)
        stones = []
        for i, m in enumerate(moves):
            r, c = row_col(from_gtp(m, self.size), self.size)
            stones.append(f"{c},{r},{1 if i % 2 == k % 2 else 2}")
        self.client.notes.clear()
        reply = self.client.send(["BOARD", *stones, "DONE"])
        x, y = (int(v) for v in reply.text.split(","))
        value = 0
        for note in self.client.notes:
            found = EVAL.search(note)
            if found:
                text = found.group(1)
                value = (MATE if not text.startswith("-") else -MATE) if "M" in text \
                    else int(text)
        return to_gtp(point(y, x, self.size), self.size), value


def build_positions(args, judge: Judge) -> dict:
    found = []
    for path in args.records:
        for line in open(path):
            record = json.loads(line)
            if "index" not in record:
                continue
            seq = [s.split()[1] for s in record["sequence"]]
            ours = 0 if record["black"] == "a" else 1
            found += [seq[:k] for k in range(6, len(seq) - 4) if k % 2 == ours]
    random.Random(args.seed).shuffle(found)
    positions = []
    for seq in found:
        if len(positions) == args.n:
            break
        _, value = judge.think(seq, args.screen_ms)
        if abs(value) < 600:    # undecided for the judge at a glance
            move, _ = judge.think(seq, args.reference_ms)
            positions.append({"moves": seq, "reference": move})
    return {"size": args.size, "records": args.records, "positions": positions}


def our_moves(options: dict, budget: Budget, positions: list, size: int) -> tuple[list, int]:
    """The ab back end's move in each position (its table cleared before each) and the
    nodes of all of them."""
    searcher = registry.make("ab", options=options)
    moves, nodes = [], 0
    for p in positions:
        state = GobangState(GobangRules(size=size))
        for m in p["moves"]:
            state.play(from_gtp(m, size))
        searcher.reset()
        result = searcher.search(state, budget)
        moves.append(to_gtp(result.move, size))
        nodes += result.playouts
    return moves, nodes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", nargs="+", default=[], help="brain match records (jsonl)")
    ap.add_argument("--judge", required=True, help="the judging brain's command line")
    ap.add_argument("--positions", default="results/gomoku/move-quality/positions.json")
    ap.add_argument("--out", default="results/gomoku/move-quality/runs.jsonl")
    ap.add_argument("--config", action="append", required=True, metavar="NAME=K=V,...",
                    help="a name and the ab options it sets (repeatable)")
    ap.add_argument("--seconds", type=float, help="our time a move")
    ap.add_argument("--nodes", type=int, help="our nodes a move (instead of --seconds)")
    ap.add_argument("--n", type=int, default=300, help="positions in a new set")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--screen-ms", type=int, default=300)
    ap.add_argument("--reference-ms", type=int, default=1000)
    ap.add_argument("--judge-ms", type=int, default=500)
    args = ap.parse_args(argv)
    if (args.seconds is None) == (args.nodes is None):
        ap.error("give one of --seconds and --nodes")
    budget = Budget(seconds=args.seconds) if args.nodes is None else Budget(playouts=args.nodes)
    judge = Judge(args.judge.split(), args.size)
    pos_path = Path(args.positions)
    pos_path.parent.mkdir(parents=True, exist_ok=True)
    if not pos_path.exists():
        pos_path.write_text(json.dumps(build_positions(args, judge)))
    data = json.loads(pos_path.read_text())
    positions = data["positions"]
    cache_path = pos_path.with_suffix(".evals.json")
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}

    def after(p, move) -> int:
        """Our side's value after ``move``, by the judge (cached by position)."""
        seq = p["moves"] + [move]
        key = " ".join(sorted(seq[0::2])) + "|" + " ".join(sorted(seq[1::2]))
        if key not in cache:   # the judge's value, for the side to move after ``move``
            cache[key] = judge.think(seq, args.judge_ms)[1]
        return -cache[key]

    reference = [after(p, p["reference"]) for p in positions]
    live = [i for i, v in enumerate(reference) if v > LOST]
    print(f"{len(live)} of {len(positions)} positions kept by the judge's own move")
    for spec in args.config:
        name, _, opts = spec.partition("=")
        options = dict(kv.split("=", 1) for kv in opts.split(",") if kv)
        moves, nodes = our_moves(options, budget, positions, data["size"])
        values = [after(p, m) for p, m in zip(positions, moves)]
        blunders = [i for i in live if values[i] <= LOST]
        # what each move gives up against the judge's own, a blunder counting as LOSS_CAP
        loss = [min(max(reference[i] - values[i], -LOSS_CAP), LOSS_CAP) for i in live]
        summary = {"positions": len(live), "blunders": len(blunders),
                   "mean": round(sum(max(values[i], -1500) for i in live) / len(live), 1),
                   "loss": round(sum(loss) / len(live), 1),
                   "judge_moves": sum(moves[i] == positions[i]["reference"] for i in live),
                   "nodes_a_move": nodes // max(1, len(positions))}
        cache_path.write_text(json.dumps(cache))
        record = {"commit": commit(), "config": name, "options": options,
                  "seconds": args.seconds, "nodes": args.nodes, "judge": args.judge,
                  "judge_ms": args.judge_ms, "summary": summary, "moves": moves,
                  "blunders": blunders}
        with open(args.out, "a") as f:
            f.write(json.dumps(record) + "\n")
        print(f"{name:24s} blunders {len(blunders):3d} of {len(live)}  mean "
              f"{summary['mean']:7.1f}  loss {summary['loss']:6.1f}  the judge's move "
              f"{summary['judge_moves']:3d}  nodes a move {summary['nodes_a_move']}")
    judge.client.close()


if __name__ == "__main__":
    main()
