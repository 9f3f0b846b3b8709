"""The playouts' reading of a problem (``engine.tsumego.playout_reading``), its tuning
(``engine.tsumego.playout_tuning``) and their research drivers run as commands: the
kernel counts what playing the playouts one by one counts, the rank score is the share of
other moves an answer beats, a throw-in problem's answer tops its moves, and bad input is
one line on stderr and exit status 2."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.core import go_policy
from engine.core.go_playout import heavy_par, policy_playout
from engine.core.rng import stream_rng
from engine.go_knowledge import load
from engine.search.solver import fight_playouts, fight_result
from engine.tsumego.playout_reading import means, move_shares, reading, solved_runs
from engine.tsumego.playout_tuning import Tuner, with_values
from engine.tsumego.problem import Problem, load_sgf_problem
from engine.tsumego.solve import fight_target, position

ROOT = Path(__file__).parent.parent
THROW_IN = ROOT / "problems" / "go" / "9x9" / "throw-in-kill-9.sgf"


def run(script: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "research" / script),
                           *args], capture_output=True, text=True, timeout=600)


def test_the_kernel_counts_the_attackers_wins_of_the_playouts_played_one_by_one():
    problem = load_sgf_problem(THROW_IN)
    state, fight = position(problem), fight_target(problem)
    kn = load()
    par = heavy_par(kn.playout)
    target = np.array(fight.points, dtype=np.int64)
    got = fight_playouts(state.s, state.meta, state.zob, stream_rng(7, 0), target,
                         fight.attacker, 40, kn.patterns, par)
    rng = stream_rng(7, 0)
    want = 0
    for _ in range(40):
        s, meta = state.s.copy(), state.meta.copy()
        policy_playout(s, meta, state.zob, rng, np.zeros(0, dtype=np.int8), kn.patterns, par)
        want += fight_result(s, target, fight.attacker) == fight.attacker
    assert got == want
    assert 0 < got < 40     # the position is open: both sides win some


def test_the_rank_score_counts_the_other_moves_the_best_answer_beats_ties_half():
    problem = Problem("p", "p.sgf", load_sgf_problem(THROW_IN).state, frozenset({1, 2}))
    r = reading(problem, {1: 0.2, 2: 0.6, 3: 0.6, 4: 0.1, 5: 0.9, 6: 0.3})
    assert (r.answer_share, r.moves) == (0.6, 6)
    assert r.other_share == pytest.approx((0.6 + 0.1 + 0.9 + 0.3) / 4)
    assert r.rank_score == pytest.approx((0.5 + 1 + 0 + 1) / 4)
    assert reading(problem, {3: 0.5, 4: 0.5}) is None      # no answer among the moves
    top = reading(problem, {1: 0.9, 3: 0.5})
    m = means([r, top])
    assert (m.rank_score, m.on_top) == (pytest.approx((r.rank_score + 1) / 2), 1)
    assert m.answer_share == pytest.approx(0.75)


def test_a_throw_in_problems_answer_tops_its_moves_and_repeats_with_its_seed():
    problem = load_sgf_problem(THROW_IN)
    shares = move_shares(problem, "builtin", 100, seed=1)
    r = reading(problem, shares)
    assert r.rank_score == 1.0
    assert r.answer_share > r.other_share + 0.5
    assert move_shares(problem, "builtin", 100, seed=1) == shares


def test_the_driver_prints_a_row_per_knowledge_file(tmp_path):
    copy = tmp_path / "k.txt"
    copy.write_text(Path(load().path).read_text().replace("eye_reply 0", "eye_reply 1"))
    done = run("playout_reading.py", str(THROW_IN), "--playouts", "20", "--knowledge",
               f"builtin,{copy}")
    assert done.returncode == 0, done.stderr
    assert "| builtin | 1 |" in done.stdout and f"| {copy} | 1 |" in done.stdout


def test_bad_input_is_one_line_and_status_2(tmp_path):
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;FF[4]GM[1]SZ[9]AB[zz")
    for args, message in ((["nope.sgf"], "nope.sgf"),
                          ([str(THROW_IN), "--knowledge", "missing.txt"], "missing.txt"),
                          ([str(broken)], "broken.sgf")):
        done = run("playout_reading.py", *args)
        err = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(err) == 1, done.stderr
        assert err[0].startswith("playout_reading.py:") and message in err[0]


def test_with_values_sets_playout_entries_and_refuses_an_unknown_one(tmp_path):
    def write(text):
        path = tmp_path / "k.txt"
        path.write_text(text)
        return str(path)

    text = Path(load().path).read_text()
    changed = with_values(text, {"eye_reply": 0.5, "selfatari_stones": 3,
                                      "selfatari": 0.5})
    lines = changed.splitlines()
    assert len(lines) == len(text.splitlines())
    kn = load(write(changed))
    assert kn.playout[go_policy.P_EYE_REPLY] == 0.5
    assert kn.playout[go_policy.SELFATARI_STONES] == 3
    assert kn.playout[go_policy.P_SELFATARI] == 0.5
    assert (kn.prior == load().prior).all()     # [prior]'s selfatari is another entry
    with pytest.raises(ValueError, match="no_such"):
        with_values(text, {"no_such": 1})


def test_tuning_keeps_the_best_trial_and_writes_it(tmp_path):
    tuner = Tuner([load_sgf_problem(THROW_IN)], "builtin", tmp_path, playouts=8, seed=1)
    values, best = tuner.run(rounds=1)
    assert len(tuner.trials) == len(list(tmp_path.glob("trial-*.txt"))) > 10
    assert best == max(result for _, result in tuner.trials)
    assert load(str(tmp_path / "best.txt")).playout.shape == load().playout.shape
    assert dict(tuner.trials[[r for _, r in tuner.trials].index(best)][0]) == values


def test_the_tuning_driver_prints_its_trials_and_refuses_a_missing_start(tmp_path):
    done = run("tune_playouts.py", str(THROW_IN), "--out", str(tmp_path), "--playouts", "4",
               "--rounds", "1")
    assert done.returncode == 0, done.stderr
    assert "| trial | values | rank score | answer on top |" in done.stdout
    assert "best: " in done.stdout
    done = run("tune_playouts.py", str(THROW_IN), "--out", str(tmp_path), "--start",
               "nope.txt")
    assert done.returncode == 2 and "nope.txt" in done.stderr


def test_the_runs_that_solved_each_problem_group_the_reading(tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("problem,algo,budget,seed,move,correct,seconds,restrict\n"
                       "throw-in-kill-9,uct,100,0,C1,1,0.1,1\n"
                       "throw-in-kill-9,uct,100,1,C1,1,0.1,1\n"
                       "throw-in-kill-9,uct,100,2,D1,0,0.1,1\n"
                       "throw-in-kill-9,uct,100,0,D1,0,0.1,0\n")
    assert solved_runs(results, "uct+restrict", 100) == {"throw-in-kill-9": 2}
    with pytest.raises(ValueError, match="no run of"):
        solved_runs(results, "uct+restrict", 200)
    done = run("playout_reading.py", str(THROW_IN), "--playouts", "10", "--against",
               str(results), "--series", "uct+restrict", "--budget", "100")
    assert done.returncode == 0, done.stderr
    assert "| builtin, 2 | 1 |" in done.stdout
