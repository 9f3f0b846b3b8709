"""The experiment sweep: mean return of each method against playouts per decision and
against time per decision, with 95 % intervals, resumable and parallel.

* A job is a chunk of runs (episodes) of one method at one budget: ``kind`` "budget"
  (playouts per decision) or "ms" (milliseconds per decision), runs ``start .. stop-1``.
  Run i's seed is ``derive_seed(seed, "run", i)`` whatever the method, so the methods
  meet the same noise streams as far as their choices allow.
* Results: one JSONL file per problem setting (``ResultsLog``: a header with the
  setting's identity, then a row per finished chunk, flushed and fsynced; a torn last
  line is cut off), the layout of the match runner's results (whose class now also
  reads match-specific legacy headers, so it is not shared).  Running the same command
  again runs only the chunks that have no row; a file of another setting is refused.
  Rows keep sums, not means, so chunks merge exactly.
* Parallelism: ``workers <= 1`` in this process; otherwise the project's process pool
  (``engine.match.runner.local_executor``), or a Dask cluster (``dask``: a scheduler
  address or a ``distributed.Client``) through its executor.  Jobs are plain tuples.
* Each process runs the compiled kernels once (``warm_up``) before its first job, so
  the time budgets measure search, not numba loading its cache.
* ``summarise`` turns rows into one record per (method, kind, amount): runs, mean, the
  normal 95 % interval of the mean, playouts and milliseconds per decision.
"""

import concurrent.futures as cf
import hashlib
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..match.runner import derive_seed, local_executor
from ..match.stats import Z95
from ..search.base import Budget
from .methods import make_method, run_episode, warm_up
from .problems import make_problem

RESULTS_FILE = "results.jsonl"
KINDS = ("budget", "ms")


@dataclass(frozen=True)
class Job:
    method: str
    kind: str          # "budget" or "ms"
    amount: int        # playouts or milliseconds per decision
    start: int         # first run index
    stop: int          # one past the last

    @property
    def key(self) -> str:
        return f"{self.method}/{self.kind}/{self.amount}/{self.start}-{self.stop}"


def plan(methods, budgets, ms, runs: int, chunk: int) -> list[Job]:
    """Cheapest first, so a sweep cut short has whole curves at the small budgets."""
    amounts = [("budget", b) for b in sorted(budgets)] + [("ms", m) for m in sorted(ms)]
    amounts.sort(key=lambda ka: ka[1] if ka[0] == "budget" else ka[1] * 50)
    return [Job(m, kind, amount, s, min(s + chunk, runs))
            for kind, amount in amounts for s in range(0, runs, chunk) for m in methods]


def budget_of(kind: str, amount: int) -> Budget:
    if kind == "budget":
        return Budget(playouts=amount)
    if kind == "ms":
        return Budget(seconds=amount / 1000.0)
    raise ValueError(f"unknown budget kind {kind!r}")


def run_chunk(problem_name: str, params: dict, job: tuple, seed: int) -> dict:
    """Run the episodes of one job (``Job`` fields as a tuple); its result row."""
    job = Job(*job)
    problem = make_problem(problem_name, params)
    warm_up(problem)
    budget = budget_of(job.kind, job.amount)
    total = total_sq = seconds = 0.0
    playouts = decisions = 0
    for i in range(job.start, job.stop):
        steps = []
        ret = run_episode(problem, make_method(job.method, problem), budget,
                          derive_seed(seed, "run", i), on_step=steps.append)
        total += ret
        total_sq += ret * ret
        decisions += len(steps)
        playouts += sum(s.decision.playouts for s in steps)
        seconds += sum(s.decision.seconds for s in steps)
    return {"index": job.key, "method": job.method, "kind": job.kind,
            "amount": job.amount, "start": job.start, "stop": job.stop,
            "runs": job.stop - job.start, "sum": total, "sum_sq": total_sq,
            "decisions": decisions, "playouts": playouts, "seconds": seconds}


class SettingMismatch(ValueError):
    """The results file belongs to another problem setting or seed."""


class ResultsLog:
    """``path``: a header line ``{"mdp_sweep": identity}``, then one JSON row per job."""

    def __init__(self, path, identity: dict):
        self.path = Path(path)
        self.identity = json.loads(json.dumps(identity))

    def load(self) -> dict:
        """Rows by job key; creates the file (with its header) when there is none."""
        data = self.path.read_bytes() if self.path.exists() else b""
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) < len(data):          # a line cut short by a kill
            self.path.write_bytes(whole)
        lines = whole.splitlines()
        if not lines:
            self.append({"mdp_sweep": self.identity}, mode="w")
            return {}
        if json.loads(lines[0]).get("mdp_sweep") != self.identity:
            raise SettingMismatch(f"{self.path} holds another problem setting or seed; "
                                  f"choose another output folder")
        return {row["index"]: row for row in map(json.loads, lines[1:])}

    def append(self, row: dict, mode: str = "a"):
        with open(self.path, mode) as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())


def identity(problem, seed: int) -> dict:
    return {"mdp": problem.name, "params": problem.params, "seed": seed}


def default_out_dir(problem, seed: int, root="runs/mdp") -> Path:
    """One folder per problem setting and seed, so the same command resumes."""
    digest = hashlib.sha256(json.dumps(identity(problem, seed), sort_keys=True).encode())
    tag = ",".join(f"{k}={v:g}" for k, v in problem.params.items()
                   if k in ("R", "D", "T"))
    return Path(root) / f"{problem.name}-{tag}-{digest.hexdigest()[:8]}"


def _executor(workers: int, dask):
    if dask is not None:
        from dask.distributed import Client
        client = dask if isinstance(dask, Client) else Client(dask)
        return client.get_executor(pure=False), (client if client is not dask else None)
    return local_executor(workers), None


def run_sweep(problem, jobs, out_dir, seed: int = 0, workers: int = 1, dask=None,
              progress: bool = True, log=sys.stderr):
    """Run the jobs without a row in ``out_dir``'s results; return (rows of ``jobs``,
    failures as (job, exception))."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = ResultsLog(out / RESULTS_FILE, identity(problem, seed))
    rows = results.load()
    todo = [j for j in jobs if j.key not in rows]
    failures = []
    from tqdm import tqdm
    with tqdm(total=sum(j.stop - j.start for j in jobs), unit="run",
              initial=sum(j.stop - j.start for j in jobs if j.key in rows),
              disable=not progress, dynamic_ncols=True) as bar:
        for job, row, exc in _results(problem, todo, seed, workers, dask):
            if exc is not None:
                failures.append((job, exc))
                print(f"failed: {job.key}: {type(exc).__name__}: {exc}", file=log)
            else:
                results.append(row)
                rows[job.key] = row
            bar.update(job.stop - job.start)
    wanted = {j.key for j in jobs}
    return [r for k, r in rows.items() if k in wanted], failures


def _results(problem, todo, seed, workers, dask):
    args = (problem.name, problem.params)
    if not todo:
        return
    if workers <= 1 and dask is None:
        for job in todo:
            try:
                yield job, run_chunk(*args, _fields(job), seed), None
            except Exception as exc:  # noqa: BLE001 -- one bad job must not end the sweep
                yield job, None, exc
        return
    executor, own_client = _executor(workers, dask)
    try:
        futures = {executor.submit(run_chunk, *args, _fields(job), seed): job
                   for job in todo}
        try:
            for fut in cf.as_completed(futures):
                exc = fut.exception()
                yield futures[fut], None if exc else fut.result(), exc
        finally:
            for fut in futures:
                fut.cancel()
    finally:
        executor.shutdown(wait=True)
        if own_client is not None:
            own_client.close()


def _fields(job: Job) -> tuple:
    return (job.method, job.kind, job.amount, job.start, job.stop)


def summarise(rows) -> list[dict]:
    """One record per (method, kind, amount), in plan order of first appearance."""
    groups = {}
    for r in rows:
        groups.setdefault((r["method"], r["kind"], r["amount"]), []).append(r)
    out = []
    for (method, kind, amount), rs in groups.items():
        n = sum(r["runs"] for r in rs)
        mean = sum(r["sum"] for r in rs) / n
        var = max(0.0, sum(r["sum_sq"] for r in rs) / n - mean * mean)
        half = Z95 * math.sqrt(var * n / (n - 1) / n) if n > 1 else math.inf
        decisions = sum(r["decisions"] for r in rs)
        out.append({"method": method, "kind": kind, "amount": amount, "runs": n,
                    "mean": mean, "ci95": [mean - half, mean + half],
                    "playouts_per_decision": sum(r["playouts"] for r in rs) / decisions,
                    "ms_per_decision": 1000 * sum(r["seconds"] for r in rs) / decisions})
    return out
