"""Write our problem collection (problems/go, problems/gobang) from the definitions of
``engine.tsumego.collection``, and check every answer against readers that are not our
search (GNU Go's owl code, an exact minimax, an exact reading of fours: see
``engine.tsumego.collection.verify``).

    .venv/bin/python scripts/research/make_tsumego_problems.py            # write the SGF files
    .venv/bin/python scripts/research/make_tsumego_problems.py --verify   # and check the answers

``--verify`` prints one line per problem: ``ok``, or ``DISAGREE`` with what the readers
accept.
"""

import argparse
import sys
from pathlib import Path

from engine.tsumego.collection import write_collection
from engine.tsumego.collection.verify import verify_go, verify_gobang

ROOT = Path(__file__).resolve().parents[2] / "problems"


def report(results) -> tuple[int, int]:
    """Print each line as it comes; (problems, disagreeing)."""
    count = bad = 0
    for agree, line in results:
        print(line, flush=True)
        count += 1
        bad += not agree
    return count, bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verify", action="store_true", help="check every answer (needs GNU Go)")
    ap.add_argument("--only", help="only definitions whose name contains this")
    args = ap.parse_args(argv)
    try:
        go_files, gobang_files = write_collection(ROOT, args.only)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    print(f"wrote the problems under {ROOT}")
    if not args.verify:
        return 0
    _, bad_gobang = report(verify_gobang(gobang_files))
    checked, bad_go = report(verify_go(go_files))
    print(f"{checked} Go problems checked, {bad_go} disagreeing")
    return 1 if bad_gobang + bad_go else 0


if __name__ == "__main__":
    sys.exit(main())
