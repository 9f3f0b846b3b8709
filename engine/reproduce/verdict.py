"""Each cell's figure, interval and verdict, read only from its raw rows.

Verdicts (docs/published-tables.md opens with them):

* ``reproduces``: the paper's figure is inside our 95 % interval;
* ``differs``: it is outside; ``differs because X`` when ``tables.BECAUSE`` names a
  measured reason;
* ``not yet run at N``: fewer than the table's games (repetitions) were played;
* ``not decided: loaded``: an equal-time cell with a session on a machine that was not
  quiet (``QUIET``: the 1-minute load before a session at most ``QUIET``, and other
  processes busy on at most ``QUIET`` cores on average through it, ``runs.Meter``; a
  session that has no such figure needs a load after it of at most its workers plus
  ``QUIET``);
* the figures whose paper prints no number (the SHOT bandit figure did not survive the
  extraction; the MDP sweeps) are compared with the paper's finding where it has one,
  else ``no published figure``.
"""

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bandits.experiments import REGRET_ALGORITHMS
from ..match.cells import recorded_rows
from ..match.records import move_playouts
from ..match.stats import Z95, summarise, wilson_interval
from ..mdp.sweep import RESULTS_FILE as MDP_RESULTS, summarise as mdp_summarise
from .runs import QUIET, ROWS, recorded, sessions
from .tables import BECAUSE, GAMES, Table


@dataclass
class Row:
    label: str
    x: float
    paper: float | None      # percent (match, halving) or the paper's finding's value
    ours: float | None
    low: float | None
    high: float | None
    n: int                   # games or repetitions
    verdict: str
    note: str = ""           # load, playouts a move...


def _verdict(name: str, paper, ours, low, high, n, need) -> str:
    if n < need:
        return f"not yet run at {need}" + (f" ({n} so far)" if n else "")
    if paper is None:
        return "no published figure"
    if low <= paper <= high:
        return "reproduces"
    return f"differs because {BECAUSE[name]}" if name in BECAUSE else "differs"


def quiet(folder: Path) -> tuple[bool, str]:
    """Whether every session that played in ``folder`` ran on a quiet machine, and the
    loads it recorded."""
    played = [s for s in sessions(folder) if s["rows_after"] > s["rows_before"]]
    if not played:
        return False, "load not recorded"
    # a line written by hand after a stopped session has no loads: not shown quiet
    ok = all(s.get("load_before") is not None and s["load_before"] <= QUIET and (
        s["others"] <= QUIET if s.get("others") is not None else
        s.get("load_after") is not None and s["load_after"] <= s["workers"] + QUIET)
        for s in played)
    return ok, "load " + ", ".join(
        _load(s, "load_before", "{:.1f}") + "/" + (
            "others " + _load(s, "others", "{:.2f}") if "others" in s
            else _load(s, "load_after", "{:.1f}")) for s in played)


def _load(session: dict, key: str, form: str) -> str:
    value = session.get(key)
    return "?" if value is None else form.format(value)


def _median_playouts(rows: list[dict]) -> list[str]:
    """Engine A's and B's median playouts a move over the games.  The mean is ruled by
    the decided positions, where the tree reaches the game's end or a playout ends within
    a move or two, so a playout costs almost nothing (SHOT table 2: UCT's mean a move is up
    to 2.6 times its median, SHOT's, which sizes its calls by time, about its median)."""
    moves = {"a": [], "b": []}
    for row in rows:
        for label, counts in move_playouts(row).items():
            moves[label] += counts
    return [f"{np.median(moves[k]):.0f}" if moves[k] else "?" for k in ("a", "b")]


def match_rows(table: Table, root: Path) -> list[Row]:
    out = []
    for cell, x in zip(table.cells, table.xs):
        rows = recorded_rows(root / table.key, cell) if (
            root / table.key / cell.name).exists() else []
        s = summarise(rows, {"a": "A", "b": "B"})
        n = s.total.games
        ours = low = high = None
        if n:
            low, high = (100 * v for v in s.interval())
            ours = 100 * s.win_rate
        verdict = _verdict(cell.name, cell.published, ours, low, high, n, GAMES)
        note = ""
        if table.timed:
            ok, note = quiet(root / table.key / cell.name)
            if n >= GAMES and not ok:
                verdict = "not decided: loaded"
        if n:
            ppm = [s.usage[k].playouts_per_move for k in ("a", "b")]
            note = "; ".join(filter(None, [note, "playouts/move A {} B {}".format(
                *("?" if p is None else f"{p:.0f}" for p in ppm)),
                "median A {} B {}".format(*_median_playouts(rows))]))
            if table.timed:   # what "equal time" came to: the seconds each side spent
                spm = [s.usage[k].seconds_per_move for k in ("a", "b")]
                note += "; s/move A {} B {}".format(
                    *("?" if t is None else f"{t:.3f}" for t in spm))
        out.append(Row(cell.label, x, cell.published, ours, low, high, n, verdict, note))
    return out


def halving_rows(table: Table, root: Path) -> list[Row]:
    """Per K and algorithm: how often it named the best arm.  The paper's figure is lost;
    its finding is UCB1 ahead with few arms, Sequential Halving from about 128."""
    _, rows = recorded(root / table.key / ROWS, "figure")
    reps = table.spec["reps"]
    out = []
    for k in table.spec["arms"]:
        got = [r for r in rows.values() if r["arms"] == k]
        n = len(got)
        hits = {a: sum(r[a] for r in got) for a in ("sh", "ucb")}
        iv = {a: wilson_interval(hits[a], n) if n else None for a in hits}
        if n < reps:
            verdict = f"not yet run at {reps}" + (f" ({n} so far)" if n else "")
        elif iv["sh"][0] > iv["ucb"][1]:
            verdict = "SH ahead" + (" (the finding)" if k >= 128 else " (not the finding)")
        elif iv["ucb"][0] > iv["sh"][1]:
            verdict = "UCB1 ahead" + (" (the finding)" if k < 128 else " (not the finding)")
        else:
            verdict = "level (intervals overlap)"
        for a, name in (("sh", "Sequential Halving"), ("ucb", "UCB1")):
            low, high = (100 * v for v in iv[a]) if n else (None, None)
            out.append(Row(f"K = {k}, {name}", k, None, 100 * hits[a] / n if n else None,
                           low, high, n, verdict))
    return out


def regret_rows(table: Table, root: Path) -> list[Row]:
    """R_t / t at the last step per (s, d) and algorithm, mean and 95 % normal interval;
    the finding: LinUCB lowest, fLinUCB-GD between LinUCB and UCB1."""
    _, rows = recorded(root / table.key / ROWS, "figure")
    spec = table.spec
    out = []
    for norm in spec["norms"]:
        for d in spec["dims"]:
            got = [r for r in rows.values() if r["d"] == d and r["norm"] == norm]
            n = len(got)
            stats = {}
            for name in REGRET_ALGORITHMS:
                v = np.array([r[name][-1] for r in got])
                m = float(v.mean()) if n else None
                half = Z95 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
                stats[name] = (m, m - half, m + half) if n else (None, None, None)
            lin, flin, ucb = (stats[a] for a in REGRET_ALGORITHMS)
            if n < spec["runs"]:
                verdict = f"not yet run at {spec['runs']}" + (f" ({n} so far)" if n else "")
            elif lin[2] < flin[1] and flin[2] < ucb[1]:
                verdict = "reproduces (LinUCB < fLinUCB-GD < UCB1)"
            elif flin[1] > ucb[2]:
                verdict = "differs: fLinUCB-GD above UCB1"
            else:
                verdict = "not decided: intervals overlap"
            for name in REGRET_ALGORITHMS:
                m, lo, hi = stats[name]
                out.append(Row(f"s = {norm:g}, d = {d}, {name}", d, None, m, lo, hi, n,
                               verdict))
    return out


def mdp_rows(table: Table, root: Path) -> list[Row]:
    """Mean return per method and budget (docs/mdp.md's tables), one run a row."""
    path = root / table.key / MDP_RESULTS
    rows = ([json.loads(t) for t in path.read_text().splitlines()[1:] if t.strip()]
            if path.exists() else [])
    want = table.spec["runs"]
    out = []
    for rec in mdp_summarise(rows):
        lo, hi = rec["ci95"]
        out.append(Row(f"{rec['method']}, {rec['amount']} playouts", rec["amount"], None,
                       rec["mean"], lo, hi, rec["runs"],
                       _verdict("", None, 0, 0, 0, rec["runs"], want)))
    return out


ROWS_OF = {"match": match_rows, "halving": halving_rows, "regret": regret_rows,
           "mdp": mdp_rows}
