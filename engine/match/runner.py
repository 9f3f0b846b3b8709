"""A match: many games between engine A and engine B, run in parallel, recorded game by
game so that an interrupted match resumes where it stopped.

Planning (``plan``): game ``i`` of a match with ``alternate`` gives A black in even games
and white in odd ones, and the two games of a pair (``i // 2``) share their opening, so
each opening is played once with each colour assignment; without ``alternate`` A is always
black and every game has its own opening.  Openings are ``random_opening`` moves drawn by
the referee, or lines of ``openings`` taken in turn.  Every seed comes from the master
``seed`` through ``derive_seed``: the opening's from the pair, each engine's from the game
and its label, substituted for ``{seed}`` in its command line.  The same configuration
therefore plays the same games.  ``{python}`` in a command line stands for the interpreter
running the match (``sys.executable``), so a stored command does not name a machine's
paths.

Running (``run_match``): each game is ``run_game(job)`` -- two fresh engine processes, a
referee, the result row -- on a ``concurrent.futures`` executor: a process pool locally,
or ``dask_backend``'s executor on a Dask cluster.  Only the calling process writes files:
``results.jsonl`` (a header line with the match's identity, then one JSON row per finished
game, one whole line appended and fsynced as it arrives) and ``summary.txt``.  A row holds
the game itself (``engine.match.records``: its moves, the referee's note on each, the
win rates), so SGF files are made from the rows when asked for (``records.write_sgfs``),
never stored beside them.  Each row also carries ``match`` (a digest of the identity),
``code`` (``engine.results_store.code_version``, the runner's code) and ``commit`` (the
git commit it ran at).  On a re-run with the same
identity the rows already there are kept and only missing games are played; a different
identity is refused, naming what differs.  Files written before ``{python}`` existed named
the interpreter ``.venv/bin/python``; such a header still matches the same match written
with ``{python}``.  Files recorded before presets existed resume as
``engine.match.legacy`` says.  The number of games is not part of the identity, so a match can be
extended.

Integrity (``engine.results_store``): a match holds its folder's lock while it runs, so a
second one on the same folder refuses, naming the first.  Before playing, a torn last line
(a kill while writing) or a line that does not parse is moved to ``results.jsonl.corrupt``
with a message, and its game is played again; readers (``read_results``) keep the first
row of each game, so nothing is counted twice.  Pool
workers die with the runner (``engine.lifetime``), and their engines with them.

Protocols: the setup says which (``GameSetup`` is GTP, ``brain_referee.BrainSetup`` the
Gomocup brain protocol); ``PROTOCOLS`` gives each its client and referee, and everything
else -- plans, seeds, results, statistics -- is shared.

Before the games, ``warm_up`` starts each distinct engine command once and has it generate
two moves (GTP; the second searches from the first's kept tree, a path of its own): an
engine that compiles on first use (numba's cache) then does so alone, instead of in every
process started side by side or in the middle of a timed game, and a command that does not
work stops the match before it starts.
"""

import concurrent.futures as cf
import hashlib
import json
import multiprocessing
import os
import shlex
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm import tqdm

from ..game.coords import to_gtp
from ..core.layout import BLACK, WHITE
from ..lifetime import die_with_parent
from ..results_store import (FolderLock, NotAResultsFile, append_line, code_version,
                             commit, read_lines, repair, write_error)
from .brain_client import BrainClient
from .brain_referee import BrainReferee
from .records import sequence_of
from .legacy import PRESETS_MARKER, pre_presets_identity, stable_setup
from .gtp_client import CommandFailed, EngineFault, GtpClient, kill_engines
from .referee import GameSetup, Referee, parse_opening, random_opening
from .stats import LABELS, format_summary, summarise

RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.txt"
SEED_TEMPLATE = "{seed}"
PYTHON_TEMPLATE = "{python}"
LEGACY_PYTHON = ".venv/bin/python"   # what result files said before PYTHON_TEMPLATE
# protocol -> (client class, referee class, the commands that make a fresh engine move)
PROTOCOLS = {
    "gtp": (GtpClient, Referee,
            lambda size: (f"boardsize {size}", "clear_board", "genmove b", "genmove w")),
    "brain": (BrainClient, BrainReferee, lambda size: (f"START {size}", "BEGIN")),
}


def protocol(setup: GameSetup) -> str:
    return getattr(setup, "protocol", "gtp")


class MatchMismatch(ValueError):
    """The results file belongs to a match with another configuration."""


class WarmUpFailed(RuntimeError):
    """An engine command did not start or did not generate a move."""


@dataclass(frozen=True)
class EngineSpec:
    label: str       # "a" or "b"
    command: str     # shell-style command line; {seed} becomes the game's seed
    name: str = ""   # display name (SGF PB/PW, summary); the command when empty

    def __post_init__(self):
        if not shlex.split(self.command):  # also ValueError for unbalanced quotes
            raise ValueError(f"engine {self.label.upper()} has an empty command line")

    @property
    def display(self) -> str:
        return self.name or self.command

    def argv(self, seed: int) -> list[str]:
        return [arg.replace(PYTHON_TEMPLATE, sys.executable)
                for arg in shlex.split(self.command.replace(SEED_TEMPLATE, str(seed)))]


@dataclass(frozen=True)
class MatchConfig:
    a: EngineSpec
    b: EngineSpec
    setup: GameSetup
    games: int
    alternate: bool = True
    seed: int = 0
    random_opening: int = 0
    openings: tuple = ()     # opening lines (GTP vertices), used in turn

    def __post_init__(self):
        if self.random_opening and self.openings:
            raise ValueError("give random openings or an openings list, not both")
        for line in self.openings:
            parse_opening(line, self.setup)  # ValueError for a bad line, before any game

    def identity(self) -> dict:
        """What fixes the content of the games (JSON-ready): not the number of games, the
        display names, or how the games are run."""
        identity = {
            "a": self.a.command, "b": self.b.command,
            "setup": stable_setup(asdict(self.setup)),
            "alternate": self.alternate, "seed": self.seed,
            "random_opening": self.random_opening, "openings": list(self.openings)}
        if protocol(self.setup) != "gtp":   # GTP matches keep the identity they always had
            identity["protocol"] = protocol(self.setup)
        return json.loads(json.dumps(identity))

    def names(self) -> dict:
        return {"a": self.a.display, "b": self.b.display}

    def digest(self) -> str:
        """A short digest of the identity: the ``match`` field of every row."""
        return identity_digest(self.identity())


def identity_digest(identity: dict) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class GameJob:
    """One game, ready to run anywhere (picklable)."""
    index: int
    black: str                 # label of the engine with black
    white: str
    black_argv: tuple
    white_argv: tuple
    names: tuple               # display names of black and white
    setup: GameSetup
    opening: tuple             # points
    opening_seed: int | None   # the seed the random opening came from


def derive_seed(master: int, *keys) -> int:
    """A 31-bit seed for ``keys`` (game index, label...) under the master seed."""
    digest = hashlib.sha256(repr((master,) + keys).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def plan(config: MatchConfig) -> list[GameJob]:
    """The jobs of games 0 .. games-1 (see the module docstring)."""
    fixed = [parse_opening(line, config.setup) for line in config.openings]
    jobs = []
    for i in range(config.games):
        swap = config.alternate and i % 2 == 1
        black, white = (config.b, config.a) if swap else (config.a, config.b)
        pair = i // 2 if config.alternate else i
        opening, opening_seed = [], None
        if fixed:
            opening = fixed[pair % len(fixed)]
        elif config.random_opening:
            opening_seed = derive_seed(config.seed, "opening", pair)
            opening = random_opening(config.setup, config.random_opening, opening_seed)
        jobs.append(GameJob(
            index=i, black=black.label, white=white.label,
            black_argv=tuple(black.argv(derive_seed(config.seed, "engine", i, black.label))),
            white_argv=tuple(white.argv(derive_seed(config.seed, "engine", i, white.label))),
            names=(black.display, white.display), setup=config.setup.seated(swap),
            opening=tuple(opening), opening_seed=opening_seed))
    return jobs


def run_game(job: GameJob) -> dict:
    """Play one game; its result row (no moves when the engines could not even be
    started)."""
    labels = {BLACK: job.black, WHITE: job.white}
    client_class, referee_class, _ = PROTOCOLS[protocol(job.setup)]
    clients = []
    try:
        try:
            for argv in (job.black_argv, job.white_argv):
                clients.append(client_class(argv))
        except OSError as exc:  # a command that cannot be started (warm-up skipped)
            return _row(job, winner=None, result="Void", reason="error",
                        detail=f"cannot start an engine: {exc}")
        outcome = referee_class(job.setup, *clients, opening=job.opening).play()
    finally:
        for client in clients:
            client.close()
    winner = (None if outcome.winner is None else
              "draw" if outcome.winner == 0 else labels[outcome.winner])
    players = {labels[c]: p for c, p in outcome.players.items()}
    return _row(job, winner=winner, result=outcome.result, reason=outcome.reason,
                detail=outcome.detail, moves=len(outcome.state.moves),
                engines={k: p.name for k, p in players.items()},
                seconds={k: round(p.seconds, 4) for k, p in players.items()},
                genmoves={k: p.moves for k, p in players.items()},
                playouts={k: p.playouts for k, p in players.items()},
                final_score={k: p.final_score for k, p in players.items()},
                area_score=outcome.area_score, score_source=outcome.score_source,
                sequence=sequence_of(outcome.state), notes=list(outcome.comments),
                winrates=[None if w is None else round(w, 4) for w in outcome.winrates])


def _row(job: GameJob, **fields) -> dict:
    empty = {label: None for label in LABELS}
    row = dict(index=job.index, black=job.black, white=job.white, moves=0,
               opening=[to_gtp(m, job.setup.size) for m in job.opening],
               opening_seed=job.opening_seed, engines=dict(empty),
               seconds={label: 0.0 for label in LABELS},
               genmoves={label: 0 for label in LABELS}, playouts=dict(empty),
               final_score=dict(empty), area_score=None, score_source=None, sequence=[],
               notes=[], winrates=[])
    row.update(fields)
    return row


def warm_up(config: MatchConfig):
    """Start each distinct engine command once and have it generate its first moves on the
    match's board; WarmUpFailed when one cannot."""
    setup = config.setup
    client_class, _, commands = PROTOCOLS[protocol(setup)]
    for spec in {config.a.command: config.a, config.b.command: config.b}.values():
        argv = spec.argv(derive_seed(config.seed, "warm-up", spec.label))
        try:
            with client_class(argv) as client:
                for command in commands(setup.size):
                    client.ask(command, setup.startup_timeout)
        except (OSError, EngineFault, CommandFailed) as exc:
            raise WarmUpFailed(f"engine {spec.label.upper()} ({spec.command}) does not "
                               f"work: {exc}") from exc


def local_executor(workers: int) -> cf.Executor:
    """``workers`` processes (fresh interpreters: no forked threads or locks), each dying
    with this process and killing its engines then."""
    return cf.ProcessPoolExecutor(max_workers=workers,
                                  mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_init_worker, initargs=(os.getpid(),))


def _init_worker(parent: int):
    die_with_parent(parent, kill_engines)


def dask_backend(client):
    """(executor, warm-up) for a ``distributed.Client``: games become tasks on its
    workers, and the warm-up runs on every worker, where the engines will run."""
    return client.get_executor(pure=False), lambda config: client.run(warm_up, config)


def legacy_identity(identity: dict) -> dict:
    """``identity`` as a results file written before ``{python}`` recorded it."""
    old = dict(identity)
    for label in LABELS:
        old[label] = old[label].replace(PYTHON_TEMPLATE, LEGACY_PYTHON)
    return old


def read_results(path, log=None) -> tuple[dict | None, dict, list[int], bool]:
    """What a results file holds: (its header line, or None for an empty file; the rows by
    game index, the first of each; the numbers of the lines that do not parse; whether the
    last line is torn).  ``log`` hears what was left out.  NotAResultsFile when the first
    line is not a match header."""
    lines, torn = read_lines(path)
    if not lines:
        return None, {}, [], torn
    try:
        header = json.loads(lines[0][1])
        if not isinstance(header["match"], dict):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise NotAResultsFile(f"{path}: the first line is not a match header; move the "
                              f"file away or choose another output folder") from None
    rows, bad, doubles = {}, [], 0
    for number, text in lines[1:]:
        try:
            row = json.loads(text)
            index = row["index"]
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise TypeError
        except (ValueError, KeyError, TypeError):
            bad.append(number)
            continue
        if index in rows:
            doubles += 1
        else:
            rows[index] = row
    if log is not None:
        for count, what in ((len(bad) + torn, "unreadable line(s) skipped"),
                            (doubles, "duplicate row(s) not counted")):
            if count:
                print(f"{path}: {count} {what}", file=log)
    return header, rows, bad, torn


class ResultsFile:
    """The JSONL results of one match (see the module docstring); the caller holds the
    folder's lock."""

    def __init__(self, path, identity: dict, log=None):
        self.path = Path(path)
        self.identity = identity
        self.log = log or sys.stderr

    def load(self) -> dict:
        """Rows already recorded, by game index, the file repaired first; creates the file
        when there is none.  MatchMismatch when it holds another match."""
        header, rows, bad, torn = read_results(self.path)
        if header is None:
            repair(self.path, [], torn, self.log)
            append_line(self.path, json.dumps({"match": self.identity, PRESETS_MARKER: 1}))
            return {}
        # a file recorded before presets holds what our commands meant then
        same = (self.identity if header.get(PRESETS_MARKER)
                else pre_presets_identity(self.identity))
        accepted = [] if same is None else [same, legacy_identity(same)]
        recorded = header["match"]
        if recorded not in accepted:
            differ = sorted(k for k in set(recorded) | set(self.identity)
                            if recorded.get(k) != self.identity.get(k))
            before = "" if header.get(PRESETS_MARKER) else (
                "; recorded before presets: our engine's commands resume it with "
                "--preset paper, engine/match/legacy.py")
            raise MatchMismatch(f"{self.path} holds another match (it differs in "
                                f"{', '.join(differ)}{before}); choose another output "
                                f"folder or delete it")
        repair(self.path, bad, torn, self.log)
        _, rows, _, _ = read_results(self.path, self.log)
        return rows

    def append(self, row: dict):
        append_line(self.path, json.dumps(row))


def default_out_dir(config: MatchConfig) -> Path:
    """A folder named after the match's identity, so re-running a command resumes it."""
    return Path("matches") / f"match-{config.digest()}"


def _score_text(summary) -> str:
    t = summary.total
    return f"A {t.wins} B {t.losses} draw {t.draws} void {summary.void}"


def run_match(config: MatchConfig, out_dir, executor: cf.Executor,
              warm=warm_up, progress: bool = True):
    """Play the games of ``config`` not yet in ``out_dir`` on ``executor``; write the
    results and summary; return the Summary of all games 0 .. games-1.
    ``warm`` (a function of the config, or None) runs first when games remain."""
    out = Path(out_dir)
    with FolderLock(out):
        return _run_locked(config, out, executor, warm, progress)


def _write(path: Path, text: str):
    try:
        path.write_text(text)
    except OSError as exc:
        raise write_error(path, exc) from None


def _run_locked(config: MatchConfig, out: Path, executor, warm, progress: bool):
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise write_error(out, exc) from None
    results = ResultsFile(out / RESULTS_FILE, config.identity())
    rows = results.load()
    stamp = {"match": config.digest(), "code": code_version(), "commit": commit()}
    jobs = [job for job in plan(config) if job.index not in rows]
    names = config.names()

    def counted():
        return [rows[i] for i in sorted(rows) if i < config.games]

    if jobs and warm is not None:
        warm(config)
    with tqdm(total=config.games, initial=len(counted()), desc="games", unit="game",
              disable=not progress) as bar:
        bar.set_postfix_str(_score_text(summarise(counted(), names)))
        futures = [executor.submit(run_game, job) for job in jobs]
        try:
            for future in cf.as_completed(futures):
                row = future.result()
                row.update(stamp)
                results.append(row)
                rows[row["index"]] = row
                bar.update(1)
                bar.set_postfix_str(_score_text(summarise(counted(), names)))
        finally:
            for future in futures:
                future.cancel()
    summary = summarise(counted(), names)
    _write(out / SUMMARY_FILE, format_summary(summary) + "\n")
    return summary

