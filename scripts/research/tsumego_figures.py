"""docs/tsumego-results.md's tables and plots, made from the sweeps' records under
results/tsumego/ (each folder's ``results.csv``): one solve-rate-by-budget plot per
collection (``docs/figures/tsumego-COLLECTION.png``) and the markdown tables, printed.

    python scripts/research/tsumego_figures.py [--out docs/figures]

A collection is a set of problems (named by their file stems' prefix) and the folders
whose rows are counted on it; a row of a problem outside the collection is left out, so
GNU Go's run over the whole practice set also gives its rate on the advanced problems.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.tsumego.report import plot, rates_table  # noqa: E402
from engine.tsumego.stats import solve_rates  # noqa: E402
from engine.tsumego.sweep import ResultsFile, row_key  # noqa: E402

RESULTS = Path(__file__).resolve().parents[2] / "results" / "tsumego"
PRACTICE = ("sl-1-year-tsumego", "sl-maeda-tsumego-collection-10k-5k",
            "sl-maeda-tsumego-collection-1k-5k", "sl-maeda-tsumego-collection-1k-1d",
            "sl-maeda-nobuaki-newly-selected")
# name -> (title, folders, problem-name prefixes: None for every problem of the folders)
COLLECTIONS = {
    "ours": ("our collection (problems/: 72 Go, 5 Gobang), framed",
             ("ours", "ours-restrict"), None),
    "practice": ("the practice set (1,050 real 19x19 problems), framed, restricted",
                 ("practice-best", "practice-gnugo"), PRACTICE),
    "advanced": ("its advanced collection (150 Maeda 1k-1d problems)",
                 ("advanced-best", "practice-gnugo"), ("sl-maeda-tsumego-collection-1k-1d",)),
    "gnugo-suites": ("GNU Go's regression suites (217 whole-board tests), unframed",
                     ("gnugo-suites",), None),
}


def collection_rows(folders, prefixes) -> list[dict]:
    """The rows of the folders on the collection's problems, a job counted once when two
    folders ran it (the practice set's GNU Go sweep repeated ``best`` at 5,000)."""
    rows = {}
    for folder in folders:
        path = RESULTS / folder / "results.csv"
        if not path.exists():
            raise SystemExit(f"tsumego_figures.py: {path} is missing")
        for r in ResultsFile(path).rows(log=sys.stderr):
            if prefixes is None or r["problem"].startswith(prefixes):
                rows.setdefault(row_key(r)[:5], r)   # the job, whatever code ran it
    return list(rows.values())


def by_prefix(rows) -> str:
    """Solved / runs of each series on each sub-collection of the practice set."""
    series = sorted({(r["algo"], r.get("restrict", False), int(r["budget"])) for r in rows})
    head = "| series | budget | " + " | ".join(p.replace("sl-", "") for p in PRACTICE) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(PRACTICE)]
    for algo, restrict, budget in series:
        mine = [r for r in rows if (r["algo"], r.get("restrict", False),
                                    int(r["budget"])) == (algo, restrict, budget)]
        cells = []
        for prefix in PRACTICE:
            part = [r for r in mine if r["problem"].startswith(prefix + "-")]
            solved = sum(int(r["correct"]) for r in part)
            cells.append(f"{solved}/{len(part)}")
        name = "best" if algo.startswith("uct:playout=heavy:prior=1:rave=1:c=0:solver=1") \
            else algo
        lines.append(f"| {name} | {budget or 'own'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("docs/figures"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (title, folders, prefixes) in COLLECTIONS.items():
        rows = collection_rows(folders, prefixes)
        rates = solve_rates(rows)
        plot(rates, args.out / f"tsumego-{name}.png", title=title)
        print(f"## {title}\n\n{rates_table(rates)}\n")
        if name == "practice":
            print(by_prefix(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
