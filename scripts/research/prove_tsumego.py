"""The root proof search alone (``engine.search.prover``, df-pn) on Go tsumego problems:
what it proves, refutes and leaves open at a budget of expansions, checked against each
problem's published answers.

    .venv/bin/python scripts/research/prove_tsumego.py problems/go --nodes 20000 [--table 20] [--exact]

PATHs are problem files or folders (as ``nakade solve`` takes them); each Go
problem is read in its tsumego frame over its region, like a restricted harness run.
Prints one line per problem -- the empty points of the region, the outcome (``proved``:
a win whatever the kos; ``ko``: the best is a ko; ``lost``: every move is refuted;
``open``), the answer and whether the problem accepts it, the refuted moves and how many
of them the problem accepts (a refuted right answer would be a wrong refutation),
the expansions and seconds -- then a table of the outcomes.  The first problem's time
includes compiling the kernels on an empty numba cache.  ``--exact`` also reads each
problem the exact minimax of ``engine.tsumego.oracle`` can finish (small enclosed ones,
simple ko) and counts the proofs and refutations it contradicts: a proved move it does not
accept, a refuted move it does, a root refuted whole where it has winners.
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core.layout import BOARD, EMPTY  # noqa: E402
from engine.game.coords import to_gtp  # noqa: E402
from engine.search.prover import prove  # noqa: E402
from engine.tsumego.oracle import exact_answers  # noqa: E402
from engine.tsumego.problem import load_problems  # noqa: E402
from engine.tsumego.solve import fight_target, position, region_mask  # noqa: E402


def outcome(proof) -> str:
    if proof.move is not None:
        return "proved" if proof.proved else "ko"
    return "lost" if proof.lost else "open"


def against_exact(problem, proof) -> Counter:
    """``read`` 1 when the exact minimax finished on ``problem``, ``contradicted`` 1 when
    it contradicts ``proof`` (module docstring)."""
    winners = exact_answers(problem)
    if winners is None:
        return Counter()
    wrong = ((proof.proved and proof.move not in winners)
             or any(m in winners for m in proof.refuted) or (proof.lost and winners))
    return Counter(read=1, contradicted=int(bool(wrong)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="problem files or folders")
    ap.add_argument("--nodes", type=int, default=20_000,
                    help="expansions a reading may spend (default 20000)")
    ap.add_argument("--table", type=int, default=20,
                    help="log2 of the transposition table's entries (default 20)")
    ap.add_argument("--exact", action="store_true",
                    help="check against the exact minimax where it finishes")
    args = ap.parse_args(argv)
    if args.nodes < 1 or not 10 <= args.table <= 28:
        ap.error("--nodes must be positive and --table within 10..28")
    report = load_problems(args.paths)
    for where, why in report.errors:
        print(f"unreadable: {where}: {why}", file=sys.stderr)
    counts, right, wrong_refuted, nodes, seconds = Counter(), 0, 0, 0, 0.0
    exact = Counter()
    for problem in report.problems:
        target = fight_target(problem)
        if target is None:
            continue
        state = position(problem)
        points = np.flatnonzero(region_mask(problem, state)).astype(np.int64)
        t0 = time.perf_counter()
        proof = prove(state, points, target, args.nodes, args.table)
        spent = time.perf_counter() - t0
        kind = outcome(proof)
        counts[kind] += 1
        correct = proof.move is not None and problem.is_correct(proof.move)
        right += correct
        bad = sum(problem.is_correct(m) for m in proof.refuted)
        wrong_refuted += bad
        nodes += proof.nodes
        seconds += spent
        if args.exact:
            exact.update(against_exact(problem, proof))
        empty = int((state.s[BOARD, points] == EMPTY).sum())
        answer = to_gtp(proof.move, state.size) if proof.move is not None else "-"
        print(f"{problem.name:48s} {empty:3d} {kind:6s} {answer:5s} "
              f"{'right' if correct else '':5s} refuted {len(proof.refuted):3d} "
              f"(right answers {bad}) {proof.nodes:9d} {spent:7.2f}s  "
              f"{' '.join(to_gtp(m, state.size) for m in proof.line[:10])}", flush=True)
    total = sum(counts.values())
    print(f"\n| problems | proved | ko | lost | open | answers right | refuted right "
          f"answers | expansions | seconds |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          f"\n| {total} | {counts['proved']} | {counts['ko']} | {counts['lost']} | "
          f"{counts['open']} | {right} | {wrong_refuted} | {nodes} | {seconds:.0f} |")
    if args.exact:
        print(f"\nexact minimax: {exact['read']} problems read, {exact['contradicted']} "
              f"contradicted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
