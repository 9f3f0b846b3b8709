"""The sweep: every (problem, back end, budget, seed index) solved once, in parallel, with
results that survive interruption, concurrent runs and changed settings.

* Jobs (``plan``) run cheapest budget first, so a sweep cut short still has whole tables
  for the small budgets.  A job is (problem, back-end spec, budget, seed index,
  restricted or not); an external GTP engine adds one job per Go problem (budget 0,
  seed 0, never restricted).
* Configuration (``Settings.stamp``): every row also carries what its job ran with besides
  its coordinates -- the frame, the options every back end got, the external engine's
  command line, the code version (``solve.CONFIG_COLUMNS``), and whether it played the
  answer tree out (``sequence``, at the end of the row with its ``lines``).  A row
  answers a job only when all of it matches (``Settings.key``), so a sweep re-run with
  ``--no-frame``, other
  options, another baseline level or other code runs its jobs anew: the rows of the other
  configuration stay in the file, are named in a message, and are never counted.
* Results (``ResultsFile``): a CSV with ``solve.COLUMNS``, one whole line appended and
  fsynced as each run finishes (``engine.results_store``).  A sweep holds the folder's lock
  while it runs, so a second sweep on the same folder refuses, naming the first.  Started
  again, it first repairs the file (a torn last line, or a line that does not parse, goes
  to ``results.csv.corrupt``, with a message), then runs only the jobs without a row.
  Readers keep the first row of each (job, configuration), so a duplicate never counts
  twice.  Files of older columns are read (the missing columns empty: rows of an unknown
  configuration, without the answer columns ``status``, ``pv``, ``stable_at``) and
  rewritten with every column before the first new row goes in.
* Parallelism: ``workers <= 1`` runs the jobs in this process; otherwise a local process
  pool (the numba kernels are compiled once here first, so the workers load them instead
  of each compiling them; each worker dies with this process, ``engine.lifetime``);
  ``dask`` (a scheduler address or a ``Client``) runs the same jobs on a Dask cluster.
  The problems and their prepared positions travel to each worker once (pool initialiser,
  Dask ``scatter``), the jobs as plain tuples.
* A job that raises is reported and left without a row, so a later run retries it; an
  external engine silent for ``Settings.gtp_timeout`` seconds over one command is killed
  and its job fails so.
* Progress (tqdm, with an ETA) is counted in playouts, a GTP run as ``GTP_COST``: the
  budgets differ by a factor of 100, so counting jobs would make the ETA useless.
"""

import csv
import io
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from ..game.registry import GameConfig
from ..lifetime import die_with_parent
from ..match.gtp_client import kill_engines
from ..results_store import (FolderLock, NotAResultsFile, append_line, code_version, first_of_each,
                             read_lines, repair, replace_text)
from ..core.layout import BLACK
from ..game.coords import point
from ..search.base import Budget, Target
from .sequence import solve_sequence
from .solve import (COLUMNS, CONFIG_COLUMNS, GTP_TIMEOUT, REQUIRED_COLUMNS, gtp_name,
                    position, region_mask, searcher, solve, solve_gtp)

GTP_COST = 20_000        # a GTP run's weight on the progress bar, in playouts
SETTING_COLUMNS = CONFIG_COLUMNS + ("sequence",)   # a row's configuration (``stamp``)


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


def job_key(row: dict) -> tuple:
    """The ``Job.key`` a result row answers."""
    return (row["problem"], row["algo"], row["budget"], row["seed"], row["restrict"])


def row_key(row: dict) -> tuple:
    """The job and the configuration of a row: what ``Settings.key`` of its job is."""
    return job_key(row) + tuple(row[c] for c in SETTING_COLUMNS)


def options_text(options) -> str:
    """The canonical text of (key, value) pairs: sorted, ``k=v`` joined by ``;``."""
    return ";".join(f"{k}={v}" for k, v in sorted(options))


@dataclass(frozen=True)
class Settings:
    """What every job of a sweep shares."""
    use_frame: bool = True
    options: tuple = ()          # (key, value) pairs for every back end
    gtp: str | None = None       # command line of an external engine
    gtp_timeout: float | None = GTP_TIMEOUT   # seconds per command of that engine
    version: str = field(default_factory=code_version)
    sequence: bool = False       # play the answer tree out (``sequence``), our back ends

    def is_gtp(self, job: tuple) -> bool:
        """Whether a job (a ``Job.key``) is the external engine's."""
        return bool(self.gtp) and job[2] == 0 and job[1] == gtp_name(self.gtp)

    def stamp(self, job: tuple) -> dict:
        """The configuration columns of ``job``'s row."""
        gtp = self.is_gtp(job)
        return {"frame": "1" if self.use_frame else "0",
                "options": "" if gtp else options_text(self.options),
                "command": self.gtp if gtp else "", "version": self.version,
                "sequence": "1" if self.sequence and not gtp else ""}

    def key(self, job: Job) -> tuple:
        """The ``row_key`` of the row that answers ``job`` under these settings."""
        return job.key + tuple(self.stamp(job.key).values())


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

    def lock(self) -> FolderLock:
        return FolderLock(self.path.parent)

    def _scan(self):
        """(header, typed rows in file order, numbers of the lines that do not parse,
        whether the last line is torn)."""
        lines, torn = read_lines(self.path)
        if not lines:
            return COLUMNS, [], [], torn
        header = tuple(next(csv.reader([lines[0][1]]), ()))
        if not (len(REQUIRED_COLUMNS) <= len(header) <= len(COLUMNS)
                and header == COLUMNS[:len(header)]):
            raise NotAResultsFile(f"{self.path}: columns {list(header)}, expected "
                                  f"{list(COLUMNS)}: not a sweep's results file; move it "
                                  f"away or choose another output folder")
        rows, bad = [], []
        for number, text in lines[1:]:
            row = self._parse(header, text)
            if row is None:
                bad.append(number)
            else:
                rows.append(row)
        return header, rows, bad, torn

    def rows(self, log=None) -> list[dict]:
        """Every readable row, the first of each (job, configuration) only; what was left
        out is reported to ``log`` when given."""
        _, rows, bad, torn = self._scan()
        unique, doubles = first_of_each(rows, row_key)
        if log is not None:
            if bad or torn:
                print(f"{self.path}: {len(bad) + torn} unreadable line(s) skipped",
                      file=log)
            if doubles:
                print(f"{self.path}: {doubles} duplicate row(s) not counted", file=log)
        return unique

    def prepare(self, log=None):
        """Before appending (the caller holds the lock): move unreadable lines out, and
        bring a file of older columns up to ``COLUMNS``."""
        header, rows, bad, torn = self._scan()
        repair(self.path, bad, torn, log)
        if rows and header != COLUMNS:
            lines = [dict(zip(COLUMNS, COLUMNS))] + [self._text(r) for r in rows]
            replace_text(self.path, "".join(self._line(r) + "\n" for r in lines))

    def done(self) -> set:
        return {row_key(r) for r in self.rows()}

    def append(self, row: dict):
        if not self.path.exists() or self.path.stat().st_size == 0:
            append_line(self.path, self._line(dict(zip(COLUMNS, COLUMNS))))
        append_line(self.path, self._line(self._text(row)))

    @staticmethod
    def _line(row: dict) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(
            [" ".join(str(row.get(c, "")).splitlines()) for c in COLUMNS])
        return out.getvalue()

    @staticmethod
    def _text(row: dict) -> dict:
        stable = row.get("stable_at")
        return {**row, "correct": int(row["correct"]), "seconds": f"{row['seconds']:.4f}",
                "restrict": int(row.get("restrict", False)),
                "stable_at": "" if stable is None else stable}

    @staticmethod
    def _parse(header: tuple, text: str) -> dict | None:
        """A typed row, or None for a line that is not one."""
        try:
            values = next(csv.reader([text]))
        except (csv.Error, StopIteration):
            return None
        if len(values) != len(header):
            return None
        row = {c: "" for c in COLUMNS} | {"restrict": "0"} | dict(zip(header, values))
        if row["correct"] not in ("0", "1") or row["restrict"] not in ("0", "1"):
            return None
        try:
            return {**row, "budget": int(row["budget"]), "seed": int(row["seed"]),
                    "correct": row["correct"] == "1", "seconds": float(row["seconds"]),
                    "restrict": row["restrict"] == "1",
                    "stable_at": int(row["stable_at"]) if row["stable_at"] else None}
        except ValueError:
            return None


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
    if settings.is_gtp(job):
        outcome = solve_gtp(problem, settings.gtp, state=state, timeout=settings.gtp_timeout)
    else:
        run = solve_sequence if settings.sequence else solve
        outcome = run(problem, algo, budget, seed, options=dict(settings.options),
                      state=state, restrict=restrict, mask=mask)
    return {**outcome.as_row(), **settings.stamp(job)}


_WORKER = {}   # what the pool initialiser hands each worker process


def _init_worker(prepared, settings, parent):
    die_with_parent(parent, kill_engines)
    _WORKER["prepared"], _WORKER["settings"] = prepared, settings


def _execute_in_worker(job):
    return execute(_WORKER["prepared"], job, _WORKER["settings"])


def warm_up(algos, games, options: dict | None = None):
    """Compile (or load from numba's cache) every back end's kernels for every game, and
    on Go the kernels of a search that reads a fight (a decided one: a corner stone in
    atari), the proof search's included when the options ask for it."""
    states = {game: GameConfig(game, size=5).new_state() for game in games}
    fight, target = _warm_fight()
    for algo in algos:
        for game in games:
            search = searcher(algo, 0, options)
            search.search(states[game], Budget(playouts=16))
            if game == "go":
                extra = {"target": target} if getattr(search, "reads_fights", False) else {}
                search.search(fight, Budget(playouts=16), **extra)


def _warm_fight():
    """A 5x5 position, black to move, whose white corner stone black captures at once."""
    state = GameConfig("go", size=5).new_state()
    state.setup(black=[point(0, 1, 5)], white=[point(0, 0, 5)])
    return state, Target((point(0, 0, 5),), BLACK)


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
                             initargs=(prepared, settings, os.getpid())) as pool:
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
    """Run the jobs that ``results`` has no row for under ``settings``, appending each row
    as it comes, holding the folder's lock (``OutputBusy`` when another process does).
    Returns (rows of ``jobs`` now in the file, jobs that failed with their errors)."""
    with results.lock():
        results.prepare(log)
        rows = results.rows(log)
        done = {row_key(r) for r in rows}
        todo = [j for j in jobs if settings.key(j) not in done]
        _report_other_configurations(rows, jobs, settings, results.path, log)
        failures = []
        if todo:
            failures = _run(problems, todo, results, workers, dask, settings, progress, log)
        wanted = {settings.key(j) for j in jobs}
        return [r for r in results.rows() if row_key(r) in wanted], failures


def _report_other_configurations(rows, jobs, settings: Settings, path, log):
    """Say how many rows answer these jobs under another configuration, and why."""
    stamps = {j.key: settings.stamp(j.key) for j in jobs}
    other = [r for r in rows if job_key(r) in stamps
             and {c: r[c] for c in SETTING_COLUMNS} != stamps[job_key(r)]]
    if other:
        differ = sorted({c for r in other for c in SETTING_COLUMNS
                         if r[c] != stamps[job_key(r)][c]})
        print(f"{path}: {len(other)} row(s) of these jobs ran with another "
              f"{'/'.join(differ)}; they are kept, not counted, and the jobs run again",
              file=log)


def _run(problems, todo, results, workers, dask, settings, progress, log) -> list:
    failures = []
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
    return failures
