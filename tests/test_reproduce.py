"""engine.reproduce: the tables are the papers' as docs/published-tables.md reads them,
the verdicts follow their rules, and a figure's run resumes row by row."""

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from engine.cli import SUBCOMMANDS
from engine.game.sgf import search_note
from engine.match.records import move_playouts
from engine.reproduce import bandit, report, runs, tables, verdict
from engine.reproduce.cli import main


def test_every_published_cell_is_planned_at_100_games_with_the_printed_constants():
    cells = [c for t in tables.TABLES for c in t.cells]
    # SHOT tables 1, 2, table 2 at its printed playouts, 3 and 4; LinUCT tables 3 and 4
    assert len(cells) == 5 + 8 + 8 + 7 + 5 + 2 + 4
    assert all(c.games >= 100 for c in cells)
    shot = [c for t in tables.TABLES if t.key.startswith("shot-t") for c in t.cells]
    for c in shot:   # the SHOT paper's UCT has C = 0.41
        for side in (c.a, c.b):
            assert "--algo uct" not in side or "--set c=0.41" in side
    t2 = tables.BY_KEY["shot-t2"]
    assert t2.timed and 0.434 in t2.xs and len(t2.cells) == 8
    # the engines spend the printed 72 ms: they aim LANDING short of what they are given
    assert "--time 0.112 " in t2.cells[0].a and t2.cells[0].setup.time.byo_yomi == 0.112
    # table 2's games again at the playouts a move the paper's engines ran in its times
    at_playouts = tables.BY_KEY["shot-t2-playouts"]
    assert not at_playouts.timed and at_playouts.xs == t2.xs
    assert [c.published for c in at_playouts.cells] == [c.published for c in t2.cells]
    first = at_playouts.cells[0]
    assert "--algo shot --playouts 10000 " in first.a and "--size 10 " in first.a
    assert "--algo uct --playouts 4900 " in first.b and "--set c=0.41" in first.b
    assert first.setup.time is None
    for c in tables.BY_KEY["linuct-t4"].cells:   # as printed: per-arm phi_a, k, sqrt(2)
        assert "--set width=arm --set rave_k=1000 --set c=1.4142" in c.a
        assert "--algo uct" in c.b and "--set c=1.4142" in c.b
    assert tables.BY_KEY["shot-bandit"].spec["budget"] == 20_000
    assert tables.BY_KEY["shot-bandit"].spec["reps"] == 1000


def test_the_verdict_rules():
    v = verdict._verdict
    assert v("x", 50.0, 48.0, 40.0, 58.0, 100, 100) == "reproduces"
    assert v("x", 70.0, 48.0, 40.0, 58.0, 100, 100) == "differs"
    assert v("x", 70.0, 48.0, 40.0, 58.0, 60, 100) == "not yet run at 100 (60 so far)"
    assert v("x", None, 48.0, 40.0, 58.0, 100, 100) == "no published figure"


def test_the_median_playouts_a_move_are_read_from_the_notes_the_referee_writes():
    def note(n):
        return "0.100 s; " + search_note({"color": "b", "winrate": 0.5, "playouts": n,
                                          "visits": 7, "pv": ["E5"]})
    row = {"black": "b", "white": "a", "sequence": ["B E5", "W F6", "B G7", "W H8", "B J9"],
           "notes": ["opening", "opening", note(100), note(40), note(300)]}
    assert move_playouts(row) == {"b": [100, 300], "a": [40]}
    # a decided position's cheap playouts move the mean a move, not the median
    rows = [row, dict(row, notes=row["notes"][:3] + [note(50), note(300)]),
            dict(row, notes=row["notes"][:3] + [note(10 ** 6), note(300)])]
    assert verdict._median_playouts(rows) == ["50", "200"]


def test_a_timed_cell_is_decided_only_from_quiet_sessions(tmp_path):
    for before, after, ok in ((0.2, 2.3, True), (1.5, 2.0, False), (0.1, 4.0, False)):
        folder = tmp_path / f"{before}-{after}"
        folder.mkdir()
        (folder / runs.SESSIONS).write_text(json.dumps(
            {"load_before": before, "load_after": after, "workers": 2, "rows_before": 0,
             "rows_after": 5}) + "\n")
        assert verdict.quiet(folder)[0] == ok
    assert verdict.quiet(tmp_path / "none") == (False, "load not recorded")
    # with the CPU time of other processes measured, our own engines' load does not count
    for others, ok in ((0.1, True), (0.9, False)):
        folder = tmp_path / f"others-{others}"
        folder.mkdir()
        (folder / runs.SESSIONS).write_text(json.dumps(
            {"load_before": 0.3, "load_after": 1.8, "others": others, "workers": 1,
             "rows_before": 0, "rows_after": 5}) + "\n")
        assert verdict.quiet(folder)[0] == ok
    folder = tmp_path / "by-hand"   # a stopped session's line, written afterwards
    folder.mkdir()
    (folder / runs.SESSIONS).write_text(json.dumps(
        {"load_before": None, "load_after": None, "workers": 1, "rows_before": 0,
         "rows_after": 5}) + "\n")
    assert verdict.quiet(folder) == (False, "load ?/?")


def test_the_meter_counts_other_processes_cpu_not_ours_or_our_childrens(monkeypatch):
    before = runs.own_cpu()
    child = subprocess.run(   # a child of ours, ended and waited for: counted as ours
        [sys.executable, "-c", "import time\nx = 0\nfor i in range(5_000_000): x += i\n"
                               "print(time.process_time())"],
        check=True, capture_output=True, text=True)
    assert runs.own_cpu() - before >= 0.9 * float(child.stdout)
    clock = iter([100.0, 102.0])
    machine = iter([10.0, 14.0])
    own = iter([5.0, 8.0])
    monkeypatch.setattr(runs.time, "time", lambda: next(clock))
    monkeypatch.setattr(runs, "machine_cpu", lambda: next(machine))
    monkeypatch.setattr(runs, "own_cpu", lambda: next(own))
    monkeypatch.setattr(runs, "load", lambda: 0.2)
    meter = runs.Meter()
    assert meter.others() == 0.5   # 4 busy seconds, 3 of them ours, over 2 s


def test_an_equal_time_cell_waits_for_the_load_of_the_one_before_to_decay(monkeypatch):
    loads = iter([2.1, 1.3, 0.7, 0.4, 0.4])
    waits = []
    monkeypatch.setattr(runs, "load", lambda: next(loads))
    monkeypatch.setattr(runs.time, "sleep", waits.append)
    assert runs.settle(poll=5.0) == 0.4
    assert waits == [5.0, 5.0, 5.0]
    monkeypatch.setattr(runs, "load", lambda: 3.0)   # never quiet: gives up at the limit
    assert runs.settle(limit=0.0) == 3.0


def test_a_bandit_figure_resumes_by_repetition_and_reports(tmp_path):
    small = replace(tables.BY_KEY["shot-bandit"],
                    spec={"budget": 200, "reps": 6, "arms": (2, 4, 128), "ucb_c": 1.4})
    runner = runs.Runner(1, None, "test")
    runner.run(small, tmp_path, 1)
    path = tmp_path / small.key / runs.ROWS
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"figure": {"kind": "halving", "budget": 200, "reps": 6,
                                               "arms": [2, 4, 128], "ucb_c": 1.4}}
    assert len(lines) == 1 + 18 and all("commit" in json.loads(x) for x in lines[1:])
    runner.run(small, tmp_path, 1)          # nothing missing: nothing played
    assert len(path.read_text().splitlines()) == 19
    rows = report.write(small, tmp_path)
    assert [r.n for r in rows] == [6] * 6 and rows[0].ours == 100.0   # K = 2: both find it
    assert (tmp_path / small.key / report.TABLE_PNG).exists()
    assert "Rerun: `python scripts/reproduce.py --only shot-bandit`" in (
        tmp_path / small.key / report.TABLE_MD).read_text()


def test_a_regret_row_is_one_problem_and_the_same_whatever_the_order():
    spec = {"dims": (10,), "norms": (1.0,), "runs": 2, "arms": 5, "steps": 300,
            "alpha": 1.0, "kappa": 1.0, "ucb_c": 1.4}
    todo = bandit.tasks(spec, "regret")
    rows = [bandit.run_task("regret", t) for t in reversed(todo)]
    again = bandit.run_task("regret", todo[-1])
    assert rows[0] == again and len(rows[0]["t"]) == len(rows[0]["UCB1"])
    assert rows[0]["t"][-1] == 300


def test_reproduce_is_a_subcommand_and_lists_the_tables(capsys):
    assert SUBCOMMANDS["reproduce"][0] == "engine.reproduce.cli"
    assert main(["--list", "--only", "linuct-t3"]) == 0
    out = capsys.readouterr().out
    assert "linuct-plain8000-plain2000-go9 (paper 17.4)" in out
    with pytest.raises(SystemExit):
        main(["--list", "--only", "no-such-table"])
