"""Curling matches between two players, run until their result is clear: games in
batches through the project's process pool (or a Dask cluster), each comparison stopped
as soon as the 95 % Wilson interval of the first player's score excludes 50 %, or at a
stated cap of games.

* Game i: player ``a`` plays team 0 (no hammer in the first end) when i is even, team 1
  when odd, so both meet both sides; the game's seed is ``derive_seed(seed, "game", i)``.
* ``Games`` says how: the ends, a budget per shot (``budget`` playouts, or ``seconds``
  of CPU time when that is above 0: equal time, records named ``...-<seconds>s``), and
  optionally a DigitalCurling3-Server binary (``server``): then every game is a real
  server game (``dc3_server.server_game``), ``a`` our client in this process, ``b`` one
  of ours in another or the official example client (``b`` = ``dc3-rulebased``, its
  binary ``example``); records ``server-<a>-<b>-...``.
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

from dataclasses import dataclass

from ..match.runner import derive_seed
from ..match.stats import wilson_interval
from ..mdp.sweep import ResultsLog, _executor
from ..results_store import commit
from .game import play_game
from .players import make_player

ROOT = Path("results/curling")


@dataclass(frozen=True)
class Games:
    """How each game of a match is played."""
    ends: int
    budget: int = 150             # playouts per shot
    seconds: float = 0.0          # > 0: CPU seconds per shot instead
    server: str = None            # a DigitalCurling3-Server binary: games through it
    example: str = None           # the official example client's binary (b = dc3-rulebased)

    def name(self, a, b) -> str:
        size = f"{self.seconds:g}s" if self.seconds > 0 else f"{self.budget}p"
        return f"{'server-' if self.server else ''}{a}-{b}-{self.ends}e-{size}.jsonl"

    def identity(self, a, b) -> list:
        size = [self.budget] + ([f"{self.seconds:g}s"] if self.seconds > 0 else [])
        return [a, b, self.ends] + size + (["server"] if self.server else [])

    def size(self) -> str:
        return f"{self.seconds:g} s" if self.seconds > 0 else f"{self.budget} playouts"


def play_one(a: str, b: str, games: Games, index: int, seed: int) -> dict:
    """One game's record (``index`` sets sides and seeds)."""
    game_seed = derive_seed(seed, "game", index)
    a_team = index % 2
    start = time.process_time()
    if games.server is not None:
        from .dc3_server import server_game
        result = server_game(games, a, b, a_team, game_seed)
    else:
        pa = make_player(a, derive_seed(game_seed, "a"), games.budget, games.seconds)
        pb = make_player(b, derive_seed(game_seed, "b"), games.budget, games.seconds)
        result = play_game([pa, pb] if a_team == 0 else [pb, pa], games.ends, game_seed)
    cpu = time.process_time() - start
    totals = [sum(s[0] for s in result.scores), sum(s[1] for s in result.scores)]
    a_score = 0.5 if result.winner < 0 else float(result.winner == a_team)
    searched = [(team == a_team, p) for (_, _, team, _, p) in result.shots if p > 0]
    mine = [p for is_a, p in searched if is_a]
    theirs = [p for is_a, p in searched if not is_a]
    return {"index": str(index), "game": index, "a": a, "b": b, "ends": games.ends,
            "budget": games.budget, "seconds": games.seconds,
            "server": games.server is not None, "a_team": a_team, "scores": result.scores,
            "totals": totals, "winner": result.winner, "a_score": a_score,
            "playouts_per_shot": sum(mine) / max(len(mine), 1),
            "b_playouts_per_shot": sum(theirs) / max(len(theirs), 1),
            "cpu_seconds": cpu, "commit": commit()}


def run_match(a: str, b: str, games: Games, cap: int, seed: int = 0, workers: int = 1,
              batch: int = 8, dask=None, root=ROOT, log=print) -> dict:
    """Play ``a`` against ``b`` until the interval separates from 50 % or ``cap`` games;
    returns the summary."""
    out = Path(root) / games.name(a, b)
    out.parent.mkdir(parents=True, exist_ok=True)
    results = ResultsLog(out, {"curling_match": games.identity(a, b), "seed": seed})
    rows = results.load()
    executor = None if workers <= 1 and dask is None else _executor(workers, dask)[0]
    try:
        while True:
            summary = summarise(list(rows.values()), cap)
            if summary["stopped"] != "running":
                return summary
            todo = [i for i in range(cap) if str(i) not in rows][:batch]
            if executor is None:
                done = (play_one(a, b, games, i, seed) for i in todo)
            else:
                futures = [executor.submit(play_one, a, b, games, i, seed) for i in todo]
                done = (f.result() for f in cf.as_completed(futures))
            for row in done:             # kept as each game ends: a cut run loses no game
                results.append(row)
                rows[row["index"]] = row
            s = summarise(list(rows.values()), cap)
            log(f"{a} vs {b} {games.ends} ends {games.size()}: {s['games']} games, "
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
            "budget": first.get("budget"), "seconds": first.get("seconds", 0.0),
            "server": first.get("server", False), "games": n, "score": points / n if n else 0.0,
            "wins": sum(r["a_score"] == 1.0 for r in rows),
            "draws": sum(r["a_score"] == 0.5 for r in rows),
            "wilson95": [lo, hi], "stopped": stopped, "cap": cap,
            "playouts_per_shot": sum(r["playouts_per_shot"] for r in rows) / max(n, 1),
            "b_playouts_per_shot": sum(r.get("b_playouts_per_shot", r["playouts_per_shot"])
                                       for r in rows) / max(n, 1),
            "cpu_seconds_per_game": sum(r["cpu_seconds"] for r in rows) / max(n, 1),
            "commits": sorted({str(r["commit"]) for r in rows})}
