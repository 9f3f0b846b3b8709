"""Experiment cells: named matches of our engine (engine A against engine B) whose results
live in one folder each under a root, run through ``engine.match.runner`` (so every cell
resumes, and a larger game count extends it) and reported as a markdown table read only
from the results files.  ``engine.reproduce`` (the published tables) and
``engine.match.strength`` (playing strength and its ablation) are lists of cells and this
module's ``main``.
"""

import argparse
import fnmatch
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .referee import GameSetup
from .runner import (RESULTS_FILE, EngineSpec, MatchConfig, MatchMismatch, local_executor,
                     read_results, run_match)
from ..results_store import NotAResultsFile, OutputBusy, ResultsWriteError
from .stats import summarise
from ..cli_types import positive_int
from ..search.registry import parse_spec

ENGINE = "{python} gtp_main.py"   # the runner puts the running interpreter for {python}
# every cell pins the papers' plain back ends (the engine's default is --preset strong);
# the pin is what the cells ran before presets existed, so their results resume
# (``engine.match.legacy``)
PAPER = "--preset paper"


@dataclass(frozen=True)
class Cell:
    name: str            # folder under the cells' root
    table: str           # which published table it belongs to
    label: str           # the row, as the paper names it
    published: float | None  # engine A's published win rate, percent (None: not published)
    a: str               # engine A's command line
    b: str
    setup: GameSetup
    opening: int
    games: int           # planned number of games


def _set_flags(spec: str) -> str:
    """The ``--set key=value`` flags of a back-end spec's options (``engine.search.registry``),
    in its order, each with a leading space."""
    return "".join(f" --set {k}={v}" for k, v in parse_spec(spec).options.items())


def engine(game: str, size: int, spec: str, playouts: int | None = None,
           seconds: float | None = None, settings: str = "") -> str:
    """Our engine's command line for back-end spec ``spec``: seeded per game, never
    resigning unless told otherwise (every game is played to its end, as in the papers'
    tables); ``settings`` adds command-line flags as written (a cell's results are keyed on
    its exact command line, so cells keep the text they first ran with)."""
    budget = f"--playouts {playouts}" if playouts else f"--time {seconds}"
    extra = f" {settings}" if settings else ""
    return (f"{ENGINE} {PAPER} --game {game} --size {size} --algo {parse_spec(spec).name} "
            f"{budget} --seed {{seed}} --set resign_threshold=0{_set_flags(spec)}{extra}")


def config(cell: Cell, games: int, seed: int) -> MatchConfig:
    return MatchConfig(a=EngineSpec("a", cell.a), b=EngineSpec("b", cell.b),
                       setup=cell.setup, games=games, alternate=True, seed=seed,
                       random_opening=cell.opening)


def recorded_rows(root: Path, cell: Cell) -> list[dict]:
    """The cell's games, each once (``runner.read_results``)."""
    _, rows, _, _ = read_results(root / cell.name / RESULTS_FILE, log=sys.stderr)
    return [rows[i] for i in sorted(rows)]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def report(root: Path, cells: list[Cell]) -> str:
    """The markdown table of every cell: published, ours, games, interval, effort."""
    head = ("| cell | table | match (A vs B) | published A % | ours A % | 95% Wilson | "
            "games (A W-L-D) | void | A s/move, playouts/move | B s/move, playouts/move |")
    lines = [head, "|" + "---|" * 10]
    for cell in cells:
        rows = recorded_rows(root, cell)
        s = summarise(rows, {"a": "A", "b": "B"})
        t = s.total
        pub = "-" if cell.published is None else f"{cell.published:g}"
        if t.games:
            low, high = s.interval()
            ours, interval = _pct(s.win_rate), f"{_pct(low)} - {_pct(high)}"
        else:
            ours, interval = "not run", "-"
        effort = []
        for label in ("a", "b"):
            u = s.usage[label]
            if u.genmoves:
                ppm = u.playouts_per_move
                effort.append(f"{u.seconds_per_move:.3f}, "
                              f"{'?' if ppm is None else f'{ppm:.0f}'}")
            else:
                effort.append("-")
        lines.append(f"| {cell.name} | {cell.table} | {cell.label} | {pub} | {ours} | "
                     f"{interval} | {t.games} ({t.wins}-{t.losses}-{t.draws}) | {s.void} | "
                     f"{effort[0]} | {effort[1]} |")
    return "\n".join(lines)


def select(items: list, patterns: list[str] | None, key=lambda cell: cell.name,
           what: str = "cell") -> list:
    """The items whose ``key`` matches one of the shell ``patterns`` (all without any);
    SystemExit naming the patterns when none does."""
    if not patterns:
        return items
    chosen = [c for c in items if any(fnmatch.fnmatch(key(c), p) for p in patterns)]
    if not chosen:
        raise SystemExit(f"no {what} matches {patterns}; see --list")
    return chosen


def main(all_cells: list[Cell], root: Path, seed: int, doc: str, argv=None) -> int:
    """The command line of a cells script: --list, --only, --games, --workers, --report,
    --root."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="GLOB", help="cells to run (names, globs)")
    ap.add_argument("--games", type=int,
                    help="play each selected cell up to this many games (default: its plan)")
    ap.add_argument("--workers", type=positive_int, default=2)
    ap.add_argument("--list", action="store_true", help="print the cells and their commands")
    ap.add_argument("--report", action="store_true", help="only print the table")
    ap.add_argument("--root", type=Path, default=root,
                    help=f"where the cells' folders are (default {root}; another root "
                         "for a trial run keeps the recorded cells clean)")
    args = ap.parse_args(argv)
    root = args.root
    cells = select(all_cells, args.only)
    if args.list:
        for c in cells:
            print(f"{c.name}: {c.label} (published {c.published}, planned {c.games} games)"
                  f"\n  A: {c.a}\n  B: {c.b}\n  setup: {c.setup}\n  opening: {c.opening}")
        return 0
    if not args.report:
        with local_executor(args.workers) as executor:
            for cell in cells:
                games = args.games if args.games is not None else cell.games
                start = time.monotonic()
                try:
                    s = run_match(config(cell, games, seed), root / cell.name, executor,
                                  progress=False)
                except (OutputBusy, ResultsWriteError, NotAResultsFile,
                        MatchMismatch) as exc:
                    raise SystemExit(f"{cell.name}: {exc}") from None
                low, high = s.interval() if s.total.games else (0.0, 1.0)
                rate = "-" if s.win_rate is None else _pct(s.win_rate)
                print(f"{cell.name}: A {rate}% [{_pct(low)}, {_pct(high)}] over "
                      f"{s.total.games} games ({s.void} void); this run "
                      f"{time.monotonic() - start:.0f} s", flush=True)
    print(report(root, cells))
    return 0
