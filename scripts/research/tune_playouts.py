"""Tune the heavy playouts' ``[playout]`` values for reading Go problems: coordinate
ascent on the mean rank score of the playouts' reading (``engine.tsumego.playout_tuning``)
over a tuning set of problems.

    .venv/bin/python scripts/research/tune_playouts.py PROBLEMS... --out DIR [--sample 100] \
        [--playouts 64] [--rounds 2] [--seed 1] [--start builtin]

``--sample N`` draws N of the problems (seeded), so a large collection tunes at a
bounded cost; measure the result on other problems.  Every file tried is written to DIR
and the best to ``DIR/best.txt``; a markdown table of the trials goes to stdout.  Bad input gives one line on stderr and exit status 2.
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.go_knowledge import KnowledgeError  # noqa: E402
from engine.tsumego.playout_tuning import Tuner  # noqa: E402
from engine.tsumego.problem import ProblemError, load_problems  # noqa: E402



def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problems", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=0, help="tune on N problems drawn (0: all)")
    ap.add_argument("--playouts", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", default="builtin", help="the knowledge file to start from")
    args = ap.parse_args(argv)
    if args.playouts < 1 or args.rounds < 1 or args.sample < 0:
        ap.error("--playouts and --rounds must be positive, --sample at least 0")
    try:
        report = load_problems(args.problems)
        if report.errors:
            where, why = report.errors[0]
            raise ValueError(f"{where}: {why}")
        problems = sorted((p for p in report.problems if p.game == "go"),
                          key=lambda p: p.name)
        if args.sample:
            problems = random.Random(args.seed).sample(problems, min(args.sample,
                                                                     len(problems)))
        if not problems:
            raise ValueError("no Go problem to tune on")
        args.out.mkdir(parents=True, exist_ok=True)
        tuner = Tuner(problems, args.start, args.out, args.playouts, args.seed)
        values, (score, top) = tuner.run(args.rounds)
    except (OSError, KnowledgeError, ProblemError, ValueError) as exc:
        print(f"tune_playouts.py: {exc}", file=sys.stderr)
        return 2
    print(f"{len(problems)} problems, {args.playouts} playouts a move, seed {args.seed}\n")
    print("| trial | values | rank score | answer on top |\n|---:|---|---:|---:|")
    for i, (tried, (s, t)) in enumerate(tuner.trials):
        shown = ", ".join(f"{k}={v}" for k, v in tried.items()) or "(start)"
        print(f"| {i} | {shown} | {s:.4f} | {t} |")
    chosen = ", ".join(f"{k}={v}" for k, v in values.items()) or "the start file"
    print(f"\nbest: {chosen}, rank score {score:.4f}, {top} on top -> {args.out / 'best.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
