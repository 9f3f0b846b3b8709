"""Tune the heavy playouts' ``[playout]`` values for reading Go problems: coordinate
ascent on the mean rank score of ``engine.tsumego.playout_reading`` (how the playouts
alone rank each problem's answers among its moves) over a tuning set of problems.

    .venv/bin/python scripts/tune_playouts.py PROBLEMS... --out DIR [--sample 100] \
        [--playouts 64] [--rounds 2] [--seed 1] [--start builtin]

``--sample N`` draws N of the problems (seeded), so a large collection tunes at a
bounded cost; measure the result on other problems.  Each round tries, value by value,
every parameter of ``GRID`` with the others held, and keeps a value when it raises the
score.  Every file tried is written to DIR (``trial-NNN.txt``, the knowledge file
loader keeps files by path) and the best to ``DIR/best.txt``; a markdown table of the
trials goes to stdout.  Bad input gives one line on stderr and exit status 2.
"""

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.go_knowledge import KnowledgeError, load  # noqa: E402
from engine.tsumego.playout_reading import means, read_problems  # noqa: E402
from engine.tsumego.problem import ProblemError, load_problems  # noqa: E402

# the values tried for each [playout] entry
GRID = {
    "atari": (0.25, 0.5, 0.75, 0.9, 1.0),
    "pattern": (0.0, 0.25, 0.5, 0.75, 0.9, 1.0),
    "selfatari": (0.5, 0.75, 0.9, 1.0),
    "selfatari_stones": (1, 2, 3),
    "nakade": (0.0, 0.5, 1.0),
    "eye_reply": (0.0, 0.5, 1.0),
    "own_space": (0.0, 0.5, 1.0),
}


def with_values(text: str, values: dict) -> str:
    """The knowledge file ``text`` with the ``[playout]`` entries of ``values`` set (the
    ``[prior]`` section has names of its own that are left alone)."""
    start = text.find("[playout]")
    if start < 0:
        raise ValueError("the start file has no [playout] section")
    end = text.find("\n[", start)
    end = len(text) if end < 0 else end
    section = text[start:end]
    for name, value in values.items():
        line = re.compile(rf"^{name}\s+\S+", re.M)
        if not line.search(section):
            raise ValueError(f"the start file has no [playout] entry {name}")
        section = line.sub(f"{name} {value}", section, count=1)
    return text[:start] + section + text[end:]


class Tuner:
    def __init__(self, problems, start: str, out: Path, playouts: int, seed: int):
        self.problems, self.out, self.playouts, self.seed = problems, out, playouts, seed
        self.text = Path(load(start).path).read_text()
        self.values: dict = {}
        self.trials: list = []

    def score(self, values: dict) -> tuple[float, int]:
        """(mean rank score, answers on top) of the start file with ``values`` set; a
        set of values already tried is not read again."""
        for tried, result in self.trials:
            if tried == values:
                return result
        path = self.out / f"trial-{len(self.trials):03d}.txt"
        path.write_text(with_values(self.text, values))
        m = means(read_problems(self.problems, str(path), self.playouts, self.seed))
        result = (m.rank_score, m.on_top)
        self.trials.append((dict(values), result))
        return result

    def run(self, rounds: int) -> tuple[dict, tuple[float, int]]:
        best = self.score({})
        for _ in range(rounds):
            for name, grid in GRID.items():
                for value in grid:
                    trial = {**self.values, name: value}
                    if trial == self.values:
                        continue
                    result = self.score(trial)
                    if result > best:
                        best, self.values = result, trial
        (self.out / "best.txt").write_text(with_values(self.text, self.values))
        return self.values, best


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
