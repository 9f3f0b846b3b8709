"""Curling matches between two players, run until their result is clear: games in
batches through the project's process pool (or a Dask cluster), each comparison stopped
as soon as the 95 % Wilson interval of the first player's score excludes 50 %, or at a
stated cap of games.

* Game i: player ``a`` plays team 0 (no hammer in the first end) when i is even, team 1
  when odd, so both meet both sides; the game's seed is ``derive_seed(seed, "game", i)``.
* Records: ``results/curling/<a>-<b>-<ends>e-<budget>p.jsonl`` (``sweep.ResultsLog``: a
  header with the comparison's identity, then one row per game with its commit,
  flushed as it finishes); the same command resumes, playing only the games it lacks.
  Every row carries the commit (``results_store.commit``).
* ``summarise`` gives games, a's score (wins + draws / 2), its Wilson interval, how the
  run stopped ("separated" or "cap"), playouts per shot and seconds per game.
"""

import concurrent.futures as cf
import time
from pathlib import Path

from ..match.runner import derive_seed
from ..match.stats import wilson_interval
from ..mdp.sweep import ResultsLog, _executor
from ..results_store import commit
from .game import play_game
from .players import make_player

ROOT = Path("results/curling")


def play_one(a: str, b: str, ends: int, budget: int, index: int, seed: int) -> dict:
    """One game's record (``index`` sets sides and seeds)."""
    game_seed = derive_seed(seed, "game", index)
    a_team = index % 2
    pa = make_player(a, derive_seed(game_seed, "a"), budget)
    pb = make_player(b, derive_seed(game_seed, "b"), budget)
    players = [pa, pb] if a_team == 0 else [pb, pa]
    start = time.process_time()
    result = play_game(players, ends, game_seed)
    seconds = time.process_time() - start
    totals = [sum(s[0] for s in result.scores), sum(s[1] for s in result.scores)]
    a_score = 0.5 if result.winner < 0 else float(result.winner == a_team)
    searched = [p for (_, _, team, _, p) in result.shots if p > 0]
    return {"index": str(index), "game": index, "a": a, "b": b, "ends": ends,
            "budget": budget, "a_team": a_team, "scores": result.scores,
            "totals": totals, "winner": result.winner, "a_score": a_score,
            "playouts_per_shot": sum(searched) / max(len(searched), 1),
            "cpu_seconds": seconds, "commit": commit()}


def path_of(a, b, ends, budget, root=ROOT) -> Path:
    return Path(root) / f"{a}-{b}-{ends}e-{budget}p.jsonl"


def run_match(a: str, b: str, ends: int, budget: int, cap: int, seed: int = 0,
              workers: int = 1, batch: int = 8, dask=None, root=ROOT, log=print) -> dict:
    """Play ``a`` against ``b`` until the interval separates from 50 % or ``cap`` games;
    returns the summary."""
    out = path_of(a, b, ends, budget, root)
    out.parent.mkdir(parents=True, exist_ok=True)
    results = ResultsLog(out, {"curling_match": [a, b, ends, budget], "seed": seed})
    rows = results.load()
    executor = None if workers <= 1 and dask is None else _executor(workers, dask)[0]
    try:
        while True:
            summary = summarise(list(rows.values()), cap)
            if summary["stopped"] != "running":
                return summary
            todo = [i for i in range(cap) if str(i) not in rows][:batch]
            if executor is None:
                done = (play_one(a, b, ends, budget, i, seed) for i in todo)
            else:
                futures = [executor.submit(play_one, a, b, ends, budget, i, seed) for i in todo]
                done = (f.result() for f in cf.as_completed(futures))
            for row in done:             # kept as each game ends: a cut run loses no game
                results.append(row)
                rows[row["index"]] = row
            s = summarise(list(rows.values()), cap)
            log(f"{a} vs {b} {ends} ends {budget} playouts: {s['games']} games, "
                f"score {s['score']:.3f} [{s['wilson95'][0]:.3f}, {s['wilson95'][1]:.3f}]")
    finally:
        if executor is not None:
            executor.shutdown(wait=True)


def summarise(rows, cap: int) -> dict:
    n = len(rows)
    points = sum(r["a_score"] for r in rows)
    lo, hi = wilson_interval(points, n) if n else (0.0, 1.0)
    stopped = ("separated" if n >= 10 and (lo > 0.5 or hi < 0.5)
               else "cap" if n >= cap else "running")
    first = rows[0] if rows else {}
    return {"a": first.get("a"), "b": first.get("b"), "ends": first.get("ends"),
            "budget": first.get("budget"), "games": n, "score": points / n if n else 0.0,
            "wins": sum(r["a_score"] == 1.0 for r in rows),
            "draws": sum(r["a_score"] == 0.5 for r in rows),
            "wilson95": [lo, hi], "stopped": stopped, "cap": cap,
            "playouts_per_shot": sum(r["playouts_per_shot"] for r in rows) / max(n, 1),
            "cpu_seconds_per_game": sum(r["cpu_seconds"] for r in rows) / max(n, 1),
            "commits": sorted({str(r["commit"]) for r in rows})}
