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

    # tsumego: fit on problems' correct first moves (each in its tsumego frame), the
    # problems named in --exclude (one file name a line) left out and measured
    S=../shared/outside-suites/sanderland-practice/sgf
    python scripts/train_patterns.py tsumego $S --exclude docs/tsumego-practice-sample.txt \
        --out engine/data/tsumego_patterns.txt
"""

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

GNUGO = "/usr/games/gnugo"


def generate(args) -> int:
    from engine.match.gtp_client import GtpClient
    from engine.patterns.selfplay import format_record, play_game
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = sum(1 for _ in open(out)) if out.exists() else 0
    n_random = args.random if args.random is not None else (4 if args.size < 13 else 8)
    t0 = time.time()
    games = 0
    gnugo = [GNUGO, "--mode", "gtp", "--level", str(args.level)]
    with GtpClient(gnugo, timeout=120) as client, open(out, "a") as f:
        while time.time() - t0 < args.minutes * 60 and games < args.games:
            r = play_game(client, args.size, args.komi, n_random, args.seed + done + games,
                          3 * args.size * args.size)
            f.write(format_record(r) + "\n")
            f.flush()
            games += 1
    print(f"{games} games of {args.size}x{args.size} (GNU Go level {args.level}) in "
          f"{time.time() - t0:.0f} s appended to {out} ({done + games} in all)")
    return 0


def _split(files, holdout):
    from engine.patterns.selfplay import read_records
    train, test = [], []
    for f in files:
        recs = read_records(f)
        n = int(holdout) if holdout >= 1 else math.ceil(len(recs) * holdout)
        test += recs[:n]
        train += recs[n:]
    return train, test


def train(args) -> int:
    from engine.knowledge import pattern_weights as weights
    from engine.patterns import mm
    from engine.patterns.dataset import examples
    t0 = time.time()
    recs, test = _split(args.files, args.holdout)
    ex = examples(recs)
    print(f"{len(recs)} training games ({len(test)} held out), {ex.n_positions} positions, "
          f"{len(ex.pos)} candidate moves; features in {time.time() - t0:.0f} s")
    model = mm.fit(ex, args.iterations, args.min_count, log=print)
    sizes = sorted({r.size for r in recs})
    header = (f"Elo ratings of move features, fitted by MM (scripts/train_patterns.py train)\n"
              f"on {len(recs)} GNU Go self-play games ({', '.join(f'{s}x{s}' for s in sizes)}),"
              f" {ex.n_positions} positions; {len(model.codes)} patterns; docs/patterns.md")
    weights.save(args.out, model, args.prior_games, args.prior_scale, args.ladder_nodes,
                 header)
    print(f"wrote {args.out} ({len(model.codes)} patterns) in {time.time() - t0:.0f} s")
    return 0


def _model(path):
    """The MM model of a weights file, and the same with its feature groups flattened."""
    import numpy as np
    from engine.knowledge import pattern_weights as weights
    from engine.patterns import mm
    wt = weights.load(path)
    keys = np.array(sorted(wt.spatial), dtype=np.int64)
    model = mm.Model(np.array(sorted(wt.patterns), dtype=np.int32),
                     np.array([wt.patterns[c] for c in sorted(wt.patterns)]), list(wt.groups),
                     keys, np.array([wt.spatial[int(h)] for h in keys]))
    return model, mm.Model(model.codes, model.pattern_gamma,
                           [np.ones_like(g) for g in wt.groups])


def _accuracy_rows(ex, predictors, heavy) -> list[tuple[str, float, float]]:
    """(predictor, top-1, top-5) for each (name, weights file) of ``predictors``, then the
    hand-made heavy policy (its strengths ``heavy``) and the uniform one."""
    import numpy as np
    from engine.patterns import mm
    from engine.patterns.accuracy import topk
    rows = []
    for name, path in predictors:
        model, flat = _model(path)
        rows += [(f"{name} (all features)", mm.strengths(model, ex)),
                 (f"{name} (3x3 patterns only)", mm.strengths(flat, ex))]
    rows += [("hand-made heavy policy", heavy), ("uniform", np.ones(len(ex.pos)))]
    return [(name, topk(ex, s, 1), topk(ex, s, 5)) for name, s in rows]


def accuracy(args) -> int:
    from engine.go_knowledge import load as load_knowledge
    from engine.patterns.accuracy import heavy_strengths
    from engine.patterns.dataset import examples, record_moves
    kn = load_knowledge()
    print("| board | held-out games | positions | predictor | top-1 | top-5 |")
    print("|---|---:|---:|---|---:|---:|")
    for f in args.files:
        _, test = _split([f], args.holdout)
        ex = examples(test)
        n = len({r.size for r in test}) and test[0].size
        heavy = heavy_strengths(record_moves(test), kn.patterns, kn.playout)
        for name, top1, top5 in _accuracy_rows(ex, [("learned", args.weights)], heavy):
            print(f"| {n}x{n} | {len(test)} | {ex.n_positions} | {name} | "
                  f"{100 * top1:.1f}% | {100 * top5:.1f}% |")
    return 0


def _answers(problems):
    """(framed position, correct first move) of each problem's every accepted board move."""
    from engine.tsumego.solve import position
    for p in problems:
        state = position(p)
        for move in sorted(p.accept):
            yield state, move


def tsumego(args) -> int:
    from engine.go_knowledge import load as load_knowledge
    from engine.knowledge import pattern_weights as weights
    from engine.patterns import mm
    from engine.patterns.accuracy import heavy_strengths
    from engine.patterns.dataset import examples_at
    from engine.tsumego.problem import load_problems
    t0 = time.time()
    report = load_problems(args.files)
    held = {Path(line).stem for line in Path(args.exclude).read_text().split()} \
        if args.exclude else set()
    go = [p for p in report.problems if p.game == "go" and p.accept]
    train_set = [p for p in go if p.name not in held]
    test_set = [p for p in go if p.name in held]
    ex = examples_at(_answers(train_set))
    print(f"{len(train_set)} training problems ({len(test_set)} held out, "
          f"{len(report.errors)} unreadable), "
          f"{ex.n_positions} answers, {len(ex.pos)} candidate moves; features in "
          f"{time.time() - t0:.0f} s")
    model = mm.fit(ex, args.iterations, args.min_count, log=print)
    header = (f"Elo ratings of move features, fitted by MM (scripts/train_patterns.py tsumego)"
              f"\non the correct first moves of {len(train_set)} tsumego problems, each in its"
              f" tsumego frame; {len(model.codes)} patterns; docs/patterns.md")
    weights.save(args.out, model, args.prior_games, args.prior_scale, args.ladder_nodes,
                 header)
    print(f"wrote {args.out} ({len(model.codes)} patterns) in {time.time() - t0:.0f} s")
    if test_set:
        test = examples_at(_answers(test_set))
        kn = load_knowledge()
        heavy = heavy_strengths(_answers(test_set), kn.patterns, kn.playout)
        print("| held-out problems | answers | predictor | top-1 | top-5 |")
        print("|---:|---:|---|---:|---:|")
        for name, top1, top5 in _accuracy_rows(test, [("learned on tsumego", args.out),
                                                      ("learned on games", None)], heavy):
            print(f"| {len(test_set)} | {test.n_positions} | {name} | {100 * top1:.1f}% | "
                  f"{100 * top5:.1f}% |")
    return 0


def tygem(args) -> int:
    """Fit on the Tygem 9-dan games (streamed) and measure on held-out ones."""
    from engine.knowledge import pattern_weights as weights
    from engine.patterns import mm, tygem as ty
    from engine.patterns.accuracy import topk
    import numpy as np
    t0 = time.monotonic()
    paths = ty.zips(args.data)
    train_games = (g for g in ty.games(paths) if not ty.is_held_out(g[0]))
    train_games = itertools.islice(train_games, args.games)
    ex, read = ty.examples(train_games, args.every, args.seed, args.skip_opening,
                           deadline=t0 + args.minutes * 60)
    print(f"{read} training games, {ex.n_positions} positions (one move in {args.every}), "
          f"{len(ex.pos)} candidate moves; features in {time.monotonic() - t0:.0f} s",
          flush=True)
    model = mm.fit(ex, args.iterations, args.min_count, log=print,
                   spatial_min=args.spatial_min)
    del ex
    print(f"{len(model.codes)} 3x3 patterns, {len(model.spatial_keys)} diamonds; "
          f"fit done at {time.monotonic() - t0:.0f} s", flush=True)
    header = (f"Elo ratings of move features, fitted by MM (scripts/train_patterns.py tygem)\n"
              f"on {read} Tygem 9-dan 19x19 games, one move in {args.every}; "
              f"{len(model.codes)} 3x3 patterns, {len(model.spatial_keys)} diamonds "
              f"(played >= {args.spatial_min} times); docs/patterns.md")
    weights.save(args.out, model, args.prior_games, args.prior_scale, args.ladder_nodes,
                 header)
    test_games = itertools.islice((g for g in ty.games(paths) if ty.is_held_out(g[0])),
                                  args.test_games)
    test, n_test = ty.examples(test_games, 1, args.seed)
    flat = mm.Model(model.codes, model.pattern_gamma, [np.ones_like(g) for g in model.groups])
    no_spatial = mm.Model(model.codes, model.pattern_gamma, model.groups)
    print(f"| held-out games | positions | predictor | top-1 | top-5 |")
    print("|---:|---:|---|---:|---:|")
    for name, m in (("all features", model), ("without diamonds", no_spatial),
                    ("3x3 patterns only", flat)):
        s = mm.strengths(m, test)
        print(f"| {n_test} | {test.n_positions} | {name} | {100 * topk(test, s, 1):.1f}% | "
              f"{100 * topk(test, s, 5):.1f}% |")
    print(f"wrote {args.out} in {time.monotonic() - t0:.0f} s")
    return 0


def main(argv=None) -> int:
    from engine.knowledge import pattern_weights as weights
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
    for name in ("train", "accuracy"):
        c = sub.add_parser(name)
        c.add_argument("files", nargs="+", help="record files (generate's output)")
        c.add_argument("--holdout", type=float, default=0.1,
                       help="games held out from each file: a count, or a fraction below 1")
    tr = sub.choices["train"]
    sub.choices["accuracy"].add_argument("--weights", default=None,
                                         help="weights file (default: the built-in one)")
    ts = sub.add_parser("tsumego", help="fit on tsumego problems' correct first moves")
    ts.add_argument("files", nargs="+", help="problem files or folders")
    ts.add_argument("--exclude", help="a file of problem names (or file names), one a "
                    "line: held out of the fit and measured")
    ty = sub.add_parser("tygem", help="fit on the Tygem 9-dan games, measure on held-out")
    ty.add_argument("--data", default=None, help="folder of the zips (default "
                    "../shared/datasets/tygem-9d)")
    ty.add_argument("--games", type=int, default=10**9, help="training games at most")
    ty.add_argument("--minutes", type=float, default=10.0,
                    help="stop reading training games after this")
    ty.add_argument("--every", type=int, default=8, help="one training move in N")
    ty.add_argument("--skip-opening", type=int, default=0)
    ty.add_argument("--test-games", type=int, default=100)
    ty.add_argument("--spatial-min", type=int, default=10,
                    help="diamonds played fewer times are not in the model")
    ty.add_argument("--seed", type=int, default=0)
    for name in ("train", "tsumego", "tygem"):
        c = sub.choices[name]
        c.add_argument("--iterations", type=int, default=30)
        c.add_argument("--min-count", type=int, default=2,
                       help="patterns seen fewer times among the candidates keep gamma 1")
        c.add_argument("--prior-games", type=float, default=weights.PRIOR_GAMES,
                       help="a tree prior's even games (engine.search.go_priors)")
        c.add_argument("--prior-scale", type=float, default=weights.PRIOR_SCALE,
                       help="a tree prior's won games: sqrt(move probability) times this")
        c.add_argument("--ladder-nodes", type=int, default=100)
    tr.add_argument("--out", default="engine/data/go_patterns.txt")
    ty.add_argument("--out", default="engine/data/go_patterns.txt")
    ts.add_argument("--out", default="engine/data/tsumego_patterns.txt")
    args = ap.parse_args(argv)
    return {"generate": generate, "train": train, "accuracy": accuracy,
            "tsumego": tsumego, "tygem": tygem}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
