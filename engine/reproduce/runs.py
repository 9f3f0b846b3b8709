"""Running a table's cells, resumably, on a local process pool or a Dask cluster:

* match tables: each cell is one match of ``engine.match.runner`` in
  ``<root>/<table>/<cell>/`` (its ``results.jsonl``: a header with the exact engine
  commands, then one row per game with its commit);
* bandit figures: ``rows.jsonl`` in ``<root>/<table>/``, a header with the figure's
  parameters, then one row per repetition (``engine.reproduce.bandit``);
* MDP sweeps: ``engine.mdp.sweep`` with one run a row (chunk 1), in ``<root>/<table>/``.

Every run of the command on a table (a *session*) appends one line to the table's (or the
match cell's) ``sessions.jsonl``: the commit, the exact command, the 1-minute load average
before and after, ``others`` (the cores that processes not of this command kept busy, on
average over the session: the machine's busy CPU time less this process's and its
children's, engines included; Linux only, else absent), the rows before and after, the
workers.  The load after counts our own engines, two of which start at once for every
game, so ``others`` is what tells whether anything else ran.  Equal-time cells are decided
only from sessions on a quiet machine (``verdict``); before each such cell the runner waits
for the load of the cell before it to decay (``settle``), or every cell after the first
would start on a machine its own games still load.
"""

import concurrent.futures as cf
import json
import os
import sys
import time
from pathlib import Path

from ..match.cells import config
from ..match.runner import dask_backend, local_executor, run_match
from ..mdp.problems import make_problem, parse_params
from ..mdp.sweep import plan as mdp_plan, run_sweep
from ..results_store import FolderLock, append_line, code_version, commit, read_lines
from . import bandit
from .tables import MASTER_SEED, Table

ROWS = "rows.jsonl"
SESSIONS = "sessions.jsonl"
MDP_SEED = 0
QUIET = 0.5              # the 1-minute load at most which a machine counts as quiet
SETTLE_LIMIT = 600.0     # seconds an equal-time cell waits for the load to fall to QUIET


def load() -> float:
    return os.getloadavg()[0]


def machine_cpu() -> float | None:
    """CPU seconds the whole machine has been busy since boot (``/proc/stat``), or None."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = ticks
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds of this process and of its children that have ended (a pool's workers
    once it is shut down, and through them the engines they waited for)."""
    try:
        import resource   # Unix only; where it is missing /proc/stat is too
    except ImportError:
        return 0.0
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


class Meter:
    """What a session's line records, taken as it starts: the commit and code that run
    (a commit made while a long session plays is not what played), the load before; and
    the CPU time of other processes from here to ``others()``."""

    def __init__(self):
        self.commit, self.code = commit(), code_version()
        self.load_before, self.started = load(), time.time()
        self._machine, self._own = machine_cpu(), own_cpu()

    def others(self) -> float | None:
        now = machine_cpu()
        if now is None or self._machine is None:
            return None
        wall = max(time.time() - self.started, 1e-6)
        return max(0.0, (now - self._machine) - (own_cpu() - self._own)) / wall


def settle(limit: float = SETTLE_LIMIT, poll: float = 5.0) -> float:
    """Wait until the 1-minute load is at most ``QUIET``, or ``limit`` seconds; the load
    then.  The average forgets with a time constant of one minute, so two busy cores fall
    to 0.5 in about two minutes when nothing else runs."""
    end = time.time() + limit
    while load() > QUIET and time.time() < end:
        time.sleep(poll)
    return load()


def session(folder: Path, command: str, workers: int, before: int, after: int,
            meter: Meter):
    """Append the session's line (see the module docstring)."""
    others = meter.others()
    append_line(folder / SESSIONS, json.dumps({
        "commit": meter.commit, "code": meter.code, "command": command,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(meter.started)),
        "seconds": round(time.time() - meter.started, 1), "workers": workers,
        "load_before": round(meter.load_before, 2), "load_after": round(load(), 2),
        **({} if others is None else {"others": round(others, 2)}),
        "rows_before": before, "rows_after": after}))


def sessions(folder: Path) -> list[dict]:
    lines, _ = read_lines(folder / SESSIONS) if (folder / SESSIONS).exists() else ([], False)
    return [json.loads(text) for _, text in lines]


def recorded(path: Path, header_key: str) -> tuple[dict | None, dict]:
    """(header, rows by key) of a rows file; a torn last line is left out."""
    if not path.exists():
        return None, {}
    lines, _ = read_lines(path)
    if not lines:
        return None, {}
    header = json.loads(lines[0][1]).get(header_key)
    rows = {}
    for _, text in lines[1:]:
        row = json.loads(text)
        rows.setdefault(row["key"], row)
    return header, rows


class Runner:
    """Where the work goes: ``workers`` local processes, or the Dask scheduler at
    ``dask``; ``command`` is what the sessions record."""

    def __init__(self, workers: int, dask: str | None, command: str):
        self.workers, self.command = workers, command
        self.client = None
        if dask:
            from dask.distributed import Client
            self.client = Client(dask)

    def executor(self):
        return self.client.get_executor(pure=False) if self.client else local_executor(
            self.workers)

    def run(self, table: Table, root: Path, games: int):
        folder = root / table.key
        folder.mkdir(parents=True, exist_ok=True)
        if table.kind == "match":
            for cell in table.cells:
                self._match(cell, folder / cell.name, games, table.timed)
        elif table.kind == "mdp":
            self._mdp(table, folder)
        else:
            self._bandit(table, folder)

    def _match(self, cell, out: Path, games: int, timed: bool = False):
        cfg = config(cell, games, MASTER_SEED)
        n0 = _games(out)
        if n0 >= games:
            return
        if timed and not self.client:
            settle()
        meter = Meter()
        if self.client:
            executor, warm = dask_backend(self.client)
            s = run_match(cfg, out, executor, warm=warm, progress=False)
        else:
            with local_executor(self.workers) as executor:
                s = run_match(cfg, out, executor, progress=False)
        session(out, self.command, self.workers, n0, s.total.games + s.void, meter)
        print(f"{cell.name}: {s.total.games} games, A {s.win_rate}", file=sys.stderr)

    def _bandit(self, table: Table, folder: Path):
        path = folder / ROWS
        ident = {"kind": table.kind, **{k: list(v) if isinstance(v, tuple) else v
                                        for k, v in table.spec.items()}}
        with FolderLock(folder):
            header, rows = recorded(path, "figure")
            if header is None:
                append_line(path, json.dumps({"figure": ident}))
            elif header != ident:
                raise SystemExit(f"{path} holds another figure's rows; move it away")
            todo = [t for t in bandit.tasks(table.spec, table.kind)
                    if bandit.key(table.kind, t) not in rows]
            if not todo:
                return
            meter = Meter()
            stamp = {"commit": meter.commit, "code": meter.code}
            with self.executor() as executor:
                futures = [executor.submit(bandit.run_task, table.kind, t) for t in todo]
                try:
                    for f in cf.as_completed(futures):
                        append_line(path, json.dumps({**f.result(), **stamp}))
                finally:
                    for f in futures:
                        f.cancel()
            session(folder, self.command, self.workers, len(rows), len(rows) + len(todo),
                    meter)

    def _mdp(self, table: Table, folder: Path):
        spec = table.spec
        problem = make_problem(spec["problem"], parse_params(spec["param"]))
        jobs = mdp_plan(spec["methods"], spec["budgets"], [], spec["runs"], 1)
        meter = Meter()
        rows, failures = run_sweep(problem, jobs, folder, seed=MDP_SEED,
                                   workers=self.workers, dask=self.client, progress=False)
        session(folder, self.command, self.workers, -1, len(rows), meter)
        if failures:
            raise SystemExit(f"{table.key}: {len(failures)} runs failed")


def _games(out: Path) -> int:
    """Rows already in a match cell's results (0 when none)."""
    path = out / "results.jsonl"
    if not path.exists():
        return 0
    lines, _ = read_lines(path)
    return len({json.loads(t)["index"] for _, t in lines[1:]})
