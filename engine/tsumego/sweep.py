"""The sweep: every (problem, back end, budget, seed index) solved once, in parallel, with
results that survive interruption.

* Jobs (``plan``) run cheapest budget first, so a sweep cut short still has whole tables
  for the small budgets.  A job is (problem, back-end spec, budget, seed index,
  restricted or not); an external GTP engine adds one job per Go problem (budget 0,
  seed 0, never restricted).
* Results (``ResultsFile``): a CSV with ``solve.COLUMNS``, one row appended and flushed as
  each run finishes.  A sweep started again reads the file first and runs only the jobs
  that have no row yet; a torn last line (the process killed while writing) is cut off.
  A file of older columns (before ``restrict``, before the answer columns ``status``,
  ``pv``, ``stable_at``) is read, its missing columns empty (unrestricted rows), and
  rewritten with every column before the first new row goes in.
* Parallelism: ``workers <= 1`` runs the jobs in this process; otherwise a local process
  pool (the numba kernels are compiled once here first, so the workers load them instead
  of each compiling them); ``dask`` (a scheduler address or a ``Client``) runs the same
  jobs on a Dask cluster.  The problems and their prepared positions travel to each
  worker once (pool initialiser, Dask ``scatter``), the jobs as plain tuples.
* A job that raises is reported and left without a row, so a later run retries it.
* Progress (tqdm, with an ETA) is counted in playouts, a GTP run as ``GTP_COST``: the
  budgets differ by a factor of 100, so counting jobs would make the ETA useless.
"""

import csv
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from ..game.registry import GameConfig
from ..search.base import Budget
from .solve import (COLUMNS, REQUIRED_COLUMNS, gtp_name, position, region_mask, searcher,
                    solve, solve_gtp)

GTP_COST = 20_000        # a GTP run's weight on the progress bar, in playouts


@dataclass(frozen=True)
class Job:
    problem: str
    algo: str
    budget: int
    seed: int
    restrict: bool = False

    @property
    def key(self) -> tuple:
        return (self.problem, self.algo, self.budget, self.seed, self.restrict)


def row_key(row: dict) -> tuple:
    """The ``Job.key`` a result row answers."""
    return (row["problem"], row["algo"], row["budget"], row["seed"], row["restrict"])


@dataclass(frozen=True)
class Settings:
    """What every job of a sweep shares."""
    use_frame: bool = True
    options: tuple = ()          # (key, value) pairs for every back end
    gtp: str | None = None       # command line of an external engine


def plan(problems, algos, budgets, seeds: int, gtp: str | None = None,
         restrict: bool = False, restricted=()) -> list[Job]:
    """``algos``: back-end specs (``engine.search.registry``); ``restrict``: every spec's
    runs restricted to the region, ``restricted``: those specs' runs always."""
    jobs = [Job(p.name, algo, budget, seed, restrict or algo in restricted)
            for budget in sorted(budgets) for seed in range(seeds)
            for algo in algos for p in problems]
    if gtp:
        jobs += [Job(p.name, gtp_name(gtp), 0, 0) for p in problems if p.game == "go"]
    return jobs


def cost(job: Job) -> int:
    return job.budget if job.budget else GTP_COST


class ResultsFile:
    """The CSV of a sweep's rows (see the module docstring)."""

    def __init__(self, path):
        self.path = Path(path)

    def rows(self) -> list[dict]:
        if not self.path.exists():
            return []
        self._cut_torn_line()
        with self.path.open(newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is not None and not _older_columns(tuple(reader.fieldnames)):
                raise ValueError(f"{self.path}: columns {reader.fieldnames}, "
                                 f"expected {list(COLUMNS)}")
            return [self._typed(row) for row in reader]

    def done(self) -> set:
        return {row_key(r) for r in self.rows()}

    def append(self, row: dict):
        new = not self.path.exists() or self.path.stat().st_size == 0
        if not new and self._header() != COLUMNS:
            self._add_columns()
        with self.path.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            if new:
                writer.writeheader()
            writer.writerow(self._text(row))
            f.flush()
            os.fsync(f.fileno())

    def _header(self) -> tuple:
        with self.path.open(newline="") as f:
            return tuple(next(csv.reader(f), ()))

    def _add_columns(self):
        """Rewrite a file of older columns with all of ``COLUMNS`` (its rows ran
        unrestricted, their answer columns empty); the new file replaces the old one at
        once, so an interruption loses nothing."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with tmp.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            for row in self.rows():
                writer.writerow(self._text(row))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    @staticmethod
    def _text(row: dict) -> dict:
        stable = row.get("stable_at")
        return {**row, "correct": int(row["correct"]), "seconds": f"{row['seconds']:.4f}",
                "restrict": int(row.get("restrict", False)), "status": row.get("status", ""),
                "pv": row.get("pv", ""), "stable_at": "" if stable is None else stable}

    def _cut_torn_line(self):
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            self.path.write_bytes(data[: data.rfind(b"\n") + 1])

    @staticmethod
    def _typed(row: dict) -> dict:
        stable = row.get("stable_at") or ""
        return {**row, "budget": int(row["budget"]), "seed": int(row["seed"]),
                "correct": row["correct"] == "1", "seconds": float(row["seconds"]),
                "restrict": row.get("restrict", "0") == "1",
                "status": row.get("status") or "", "pv": row.get("pv") or "",
                "stable_at": int(stable) if stable else None}


def _older_columns(header: tuple) -> bool:
    """Whether ``header`` is ``COLUMNS`` or what an older version wrote: a prefix of it
    holding at least ``REQUIRED_COLUMNS``."""
    return len(REQUIRED_COLUMNS) <= len(header) <= len(COLUMNS) and \
        header == COLUMNS[:len(header)]


# -- running one job, wherever it runs -------------------------------------------------------

def prepare(problems, use_frame: bool = True) -> dict:
    """name -> (problem, the position its runs search, its region mask), built once for
    the whole sweep."""
    out = {}
    for p in problems:
        state = position(p, use_frame)
        out[p.name] = (p, state, region_mask(p, state))
    return out


def execute(prepared: dict, job: tuple, settings: Settings) -> dict:
    """Run one job (a ``Job.key`` tuple); returns its row."""
    name, algo, budget, seed, restrict = job
    problem, state, mask = prepared[name]
    if settings.gtp and budget == 0 and algo == gtp_name(settings.gtp):
        return solve_gtp(problem, settings.gtp, state=state).as_row()
    return solve(problem, algo, budget, seed, options=dict(settings.options), state=state,
                 restrict=restrict, mask=mask).as_row()


_WORKER = {}   # what the pool initialiser hands each worker process


def _init_worker(prepared, settings):
    _WORKER["prepared"], _WORKER["settings"] = prepared, settings


def _execute_in_worker(job):
    return execute(_WORKER["prepared"], job, _WORKER["settings"])


def warm_up(algos, games, options: dict | None = None):
    """Compile (or load from numba's cache) every back end's kernels for every game."""
    states = {game: GameConfig(game, size=5).new_state() for game in games}
    for algo in algos:
        for game in games:
            searcher(algo, 0, options).search(states[game], Budget(playouts=16))


# -- the sweep -----------------------------------------------------------------------------

def _progress(jobs, enabled: bool):
    from tqdm import tqdm   # only the sweep needs it
    return tqdm(total=sum(cost(j) for j in jobs), unit="playout", unit_scale=True,
                disable=not enabled, smoothing=0.05, dynamic_ncols=True)


def _local_results(prepared, todo, settings, workers):
    if workers <= 1:
        for job in todo:
            try:
                yield job, execute(prepared, job.key, settings), None
            except Exception as e:  # noqa: BLE001 -- one bad job must not end the sweep
                yield job, None, e
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(prepared, settings)) as pool:
        futures = {pool.submit(_execute_in_worker, job.key): job for job in todo}
        try:
            for fut in as_completed(futures):
                exc = fut.exception()
                yield futures[fut], None if exc else fut.result(), exc
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _dask_results(prepared, todo, settings, dask):
    from dask.distributed import Client, as_completed as dask_completed
    client = dask if isinstance(dask, Client) else Client(dask)
    try:
        [shared] = client.scatter([prepared], broadcast=True)
        futures = {client.submit(execute, shared, job.key, settings, pure=False): job
                   for job in todo}
        for fut in dask_completed(futures):
            exc = fut.exception()
            yield futures[fut], None if exc else fut.result(), exc
    finally:
        if client is not dask:
            client.close()


def run_sweep(problems, jobs, results: ResultsFile, workers: int | None = None, dask=None,
              settings: Settings = Settings(), progress: bool = True, log=sys.stderr):
    """Run the jobs that ``results`` has no row for, appending each row as it comes.
    Returns (rows of ``jobs`` now in the file, jobs that failed with their errors)."""
    done = results.done()
    todo = [j for j in jobs if j.key not in done]
    failures = []
    if todo:
        prepared = prepare(problems, settings.use_frame)
        searchers = sorted({j.algo for j in todo if j.budget > 0})
        if dask is None:
            warm_up(searchers, sorted({p.game for p in problems}), dict(settings.options))
        workers = os.cpu_count() if workers is None else workers
        stream = (_dask_results(prepared, todo, settings, dask) if dask is not None
                  else _local_results(prepared, todo, settings, workers))
        with _progress(todo, progress) as bar:
            for job, row, exc in stream:
                if exc is not None:
                    failures.append((job, exc))
                    print(f"failed: {job.key}: {type(exc).__name__}: {exc}", file=log)
                else:
                    results.append(row)
                bar.update(cost(job))
    wanted = {j.key for j in jobs}
    rows = [r for r in results.rows() if row_key(r) in wanted]
    return rows, failures
