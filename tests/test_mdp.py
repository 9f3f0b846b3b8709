"""engine.mdp: the problems' dynamics by hand, Trap's optimum against brute force, the
methods on Trap, determinism, the sweep's resumption and the script's output."""

import json
import math

import numpy as np
import pytest

from engine.mdp import experiments
from engine.mdp import sweep as mdp_sweep
from engine.mdp.tree_kernels import count_transform, threshold, tree_simulate, weight
from engine.mdp.methods import METHODS, make_method, run_episode
from engine.mdp.optimum import grid_steps, trap_optimum
from engine.mdp.problems import Trap, TreasureHunt, make_problem, parse_params
from engine.mdp.wuct_kernels import new_samples, wuct_add, wuct_stats
from engine.search.base import Budget


class FixedRng:
    """A ``random.Random`` stand-in whose ``random()`` returns the given values in turn."""

    def __init__(self, *values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


# -- dynamics ----------------------------------------------------------------------------

def test_trap_steps_by_hand():
    p = Trap(R=0.1)
    s, r, done = p.step(p.reset(), 0.9375, FixedRng(0.5))   # 0 + 0.9375 + 0.05
    assert s == (1, pytest.approx(0.9875)) and r == 0.7 and not done
    s, r, done = p.step(s, 0.8125, FixedRng(0.2))           # + 0.8125 + 0.02 = 1.82
    assert s == (2, pytest.approx(1.82)) and r == 1.0 and done
    s, r, _ = p.step((0, 0.5), 0.6875, FixedRng(0.0))       # 1.1875: in the trap
    assert r == 0.0
    assert [Trap.reward(x) for x in (0.99, 1.0, 1.69, 1.7)] == [0.7, 0.0, 0.0, 1.0]
    assert p.actions == tuple((i + 0.5) / 8 for i in range(8))


def test_treasure_steps_by_hand():
    p = TreasureHunt(D=5)
    assert (p.H, p.T) == (2.5, 50)
    s, r, done = p.step(p.reset(), 0.0, FixedRng(0.5, 0.5))         # one step east
    assert s == (1, pytest.approx(1.0), pytest.approx(0.0)) and r == -0.001 and not done
    s, _, _ = p.step((0, 0.0, 0.0), math.pi, FixedRng(0.9, 0.1))     # clipped at 0
    assert s[1:] == (0.0, 0.0)
    s, r, done = p.step((0, 0.3, 0.2), 0.0, FixedRng(0.75, 1.0))     # noise +0.25, +0.5
    assert s[1:] == (pytest.approx(1.55), pytest.approx(0.7))
    s, r, done = p.step((3, 3.9, 3.9), math.pi / 4, FixedRng(0.5, 0.5))   # into the corner
    assert r == pytest.approx(1 - 0.001) and done
    s, r, done = p.step((3, 1.5, 0.5), math.pi / 2, FixedRng(0.5, 0.5))   # into the hole
    assert s[1:] == (pytest.approx(1.5), pytest.approx(1.5))
    assert r == pytest.approx(-0.501) and done
    _, r, done = p.step((49, 0.0, 0.0), 0.0, FixedRng(0.5, 0.5))     # the last step
    assert r == -0.001 and done


def test_problem_parameters():
    assert parse_params(["R=0.1,T=3"]) == {"R": 0.1, "T": 3.0}
    assert make_problem("trap", {"R": 0.1, "T": 3}).horizon == 3
    assert make_problem("treasure", {"D": 15}).params["T"] == 150
    for bad in (lambda: make_problem("maze"), lambda: make_problem("trap", {"D": 5}),
                lambda: parse_params("R"), lambda: make_problem("trap", {"T": 1.5})):
        with pytest.raises(ValueError):
            bad()


# -- Trap's optimum ----------------------------------------------------------------------

def _brute_force(R, T, L):
    """Expectimax over every action and every noise point: no grid, no sharing."""
    M = max(1, round(R * L))
    deltas = [k / L for k in range(M)]

    def value(t, x):
        if t == T:
            return 0.0
        return max(sum(Trap.reward(x + a + d) + value(t + 1, x + a + d) for d in deltas) / M
                   for a in Trap().actions)
    return value(0, 0.0)


@pytest.mark.parametrize("R,T", [(0.1, 2), (0.3, 2), (0.5, 2), (0.1, 3)])
def test_dp_matches_brute_force_on_a_coarse_grid(R, T):
    points = 4 if T == 3 else 8
    L = grid_steps(R, 8, points)
    assert trap_optimum(R, T, noise_points=points)[0] == pytest.approx(
        _brute_force(R, T, L), abs=1e-9)


def test_trap_optimum_on_the_fine_grid():
    # 0.7 then 1: step below 1, then jump past 1.7, whatever the noise
    for R in (0.01, 0.1):
        assert trap_optimum(R, 2)[0] == pytest.approx(1.7, abs=1e-9)
    assert trap_optimum(0.1, 3)[0] == pytest.approx(2.7, abs=1e-9)
    assert trap_optimum(0.5, 2)[0] < 1.7     # wide noise: the jump can fail


# -- the methods -------------------------------------------------------------------------

def _mean_return(problem, method, playouts, runs):
    return sum(run_episode(problem, make_method(method, problem), Budget(playouts=playouts),
                           seed) for seed in range(runs)) / runs


@pytest.mark.parametrize("method,floor", [("dpw", 1.5), ("wuct", 1.65), ("tree", 1.65)])
def test_methods_climb_out_of_the_trap(method, floor):
    p = Trap(R=0.01)
    small, large = _mean_return(p, method, 10, 20), _mean_return(p, method, 1000, 20)
    assert large >= floor and large > small
    assert large <= trap_optimum(0.01, 2)[0] + 1e-9


@pytest.mark.parametrize("method", ["uct", "pw"])
def test_uct_and_pw_fall_into_the_trap(method):
    # a new state after every transition: below the root only random playouts, which
    # rate the low actions best, so these settle on 0.7 + 0.7 (Couetoux et al.'s point)
    assert _mean_return(Trap(R=0.01), method, 1000, 10) == pytest.approx(1.4)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("problem", [Trap(R=0.1), TreasureHunt(D=5, T=6)])
def test_same_seed_same_episode(problem, method):
    def episode(seed):
        steps = []
        ret = run_episode(problem, make_method(method, problem), Budget(playouts=30), seed,
                          on_step=steps.append)
        return ret, [(s.decision.action, s.next_state) for s in steps]
    assert episode(3) == episode(3)
    assert len({repr(episode(s)) for s in range(4)}) > 1


def test_wuct_bandwidth_shrinks_with_nearby_samples():
    s = new_samples(2, 8)
    wuct_add(s, 1, 0.5, 0.0, 0, 1.0, 0.5, 1)
    wuct_add(s, 1, 0.5, 0.0, 1, 2.0, 0.5, 1)      # another action: not counted
    wuct_add(s, 1, 0.5, 0.0, 0, 3.0, 0.5, 1)      # on the first: density 1/(sqrt(2 pi) 0.5)
    wuct_add(s, 0, 0.5, 0.0, 0, 4.0, 0.5, 1)      # another step: its own list
    density = 1 / (math.sqrt(2 * math.pi) * 0.5)
    sigma3 = 0.5 / math.sqrt(1 + density)
    assert list(s[2][1, :3, 1]) == pytest.approx([0.5, 0.5, sigma3])
    assert list(s[3]) == [1, 3]
    n, r = np.zeros(2), np.zeros(2)
    wuct_stats(s, 1, 0.7, 0.0, 1, n, r)               # eqs. 2.4-2.5 with eq. 4.2

    def k(sigma):
        return math.exp(-0.04 / (2 * sigma * sigma)) / (math.sqrt(2 * math.pi) * sigma)
    assert n == pytest.approx([k(0.5) + k(sigma3), k(0.5)])
    assert r == pytest.approx([k(0.5) + 3 * k(sigma3), 2 * k(0.5)])


def test_abstraction_tree_schedule_and_split():
    assert [weight(d) for d in range(3)] == [1, 4, 9]
    assert [threshold(d) for d in range(3)] == [8, 12, 18]
    assert count_transform(8.0) == pytest.approx(4.0)
    from engine.core.rng import make_rng
    from engine.mdp.abstraction import roots
    from engine.mdp.kernels import env_params
    problem = Trap(R=0.01, T=2)
    kind, params, acts = env_params(problem)
    tree = roots(problem, 16)
    ints, geo, stats, used = tree
    cfg, rng = np.array([1.0, 30, 1]), make_rng(1)
    returns = [tree_simulate(kind, params, acts, cfg, np.array([1, 0.3, 0.0]), tree, rng)
               for _ in range(8)]
    assert ints[1, 0] == 8 and used[0] == 2 and (ints[1, 1:] == -1).all()   # th(0) = 8
    assert stats[1, 0].sum() == 8 and stats[1, 1].sum() == pytest.approx(sum(returns))
    assert (stats[1, 0] == 1).all()           # 8 actions, each tried once first
    tree_simulate(kind, params, acts, cfg, np.array([1, 0.3, 0.0]), tree, rng)
    child = ints[1, 1]                        # x = 0.3 < 1: the lower half
    assert used[0] == 3 and child == 2 and list(geo[child, :2]) == [-0.02, 1.0]
    assert ints[child, 0] == 1 and ints[1, 0] == 9 and stats[child, 0].sum() == 1


# -- the sweep ---------------------------------------------------------------------------

def test_sweep_resumes_and_merges(tmp_path, monkeypatch):
    problem = Trap(R=0.1)
    jobs = mdp_sweep.plan(["uct", "tree"], [1, 5], [], runs=6, chunk=4)
    assert len(jobs) == 8 and {j.stop for j in jobs} == {4, 6}
    rows, failures = mdp_sweep.run_sweep(problem, jobs, tmp_path, seed=2, workers=1,
                                         progress=False)
    assert not failures and len(rows) == 8
    def content(rows):     # all but the wall-clock time
        return {r["index"]: {k: v for k, v in r.items() if k != "seconds"} for r in rows}
    first = content(rows)

    results = tmp_path / mdp_sweep.RESULTS_FILE
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-2]) + lines[-2][:10])   # lose one row, tear one
    ran = []
    real = mdp_sweep.run_chunk
    monkeypatch.setattr(mdp_sweep, "run_chunk", lambda *a: ran.append(a[2]) or real(*a))
    rows, failures = mdp_sweep.run_sweep(problem, jobs, tmp_path, seed=2, workers=1,
                                         progress=False)
    assert len(ran) == 2 and not failures
    assert content(rows) == first      # same seeds, same results

    summary = {(s["method"], s["amount"]): s for s in mdp_sweep.summarise(rows)}
    returns = [run_episode(problem, make_method("tree", problem), Budget(playouts=5),
                           mdp_sweep.derive_seed(2, "run", i)) for i in range(6)]
    s = summary[("tree", 5)]
    assert s["runs"] == 6 and s["mean"] == pytest.approx(sum(returns) / 6)
    assert s["playouts_per_decision"] == 5

    with pytest.raises(ValueError):          # another setting in the same folder
        mdp_sweep.run_sweep(Trap(R=0.01), jobs, tmp_path, seed=2, progress=False)


def test_the_sweep_command_prints_one_object_per_line(tmp_path, capsys):
    script = experiments
    argv = ["--problem", "trap", "--param", "R=0.01", "--methods", "pw,dpw,wuct,tree",
            "--budgets", "1,10", "--ms", "1", "--runs", "3", "--json", "--workers", "1",
            "--out", str(tmp_path), "--no-progress"]
    assert script.main(argv) == 0
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(recs) == 4 * 3
    for r in recs:
        assert {"problem", "params", "method", "runs", "mean", "ci95"} <= set(r)
        assert ("budget" in r) != ("ms" in r) and r["runs"] == 3
        assert r["params"] == {"R": 0.01, "T": 2} and r["optimum"] == pytest.approx(1.7)
    with pytest.raises(SystemExit):
        script.parse_args(["--methods", "pw,nope"])


def test_parallel_sweep_matches_the_serial_one(tmp_path):
    problem = Trap(R=0.1)
    jobs = mdp_sweep.plan(["dpw", "wuct"], [3], [], runs=4, chunk=2)
    serial, _ = mdp_sweep.run_sweep(problem, jobs, tmp_path / "a", seed=5, workers=1,
                                    progress=False)
    parallel, failures = mdp_sweep.run_sweep(problem, jobs, tmp_path / "b", seed=5,
                                             workers=2, progress=False)
    assert not failures
    strip = lambda rows: sorted((r["index"], r["sum"], r["sum_sq"]) for r in rows)  # noqa: E731
    assert strip(serial) == strip(parallel)


class XorshiftRng:
    """``random()`` from the project's xorshift, the stream the compiled playout uses."""

    def __init__(self, state):
        self.state = state

    def random(self):
        from engine.core.rng import rand_unit
        return float(rand_unit(self.state))


@pytest.mark.parametrize("D", [5.0, 15.0])
def test_compiled_treasure_playout_matches_the_python_steps(D):
    from engine.core.rng import make_rng
    from engine.mdp.kernels import treasure_params, treasure_rollout
    problem = TreasureHunt(D=D)
    for seed in range(40):
        start = (seed % 7, 0.37 * (seed % 11), 0.53 * (seed % 5))
        rng = XorshiftRng(make_rng(seed))
        state, total = start, 0.0
        while True:     # the reference: problem.step with sample_action, draw by draw
            state, reward, done = problem.step(state, problem.sample_action(rng), rng)
            total += reward
            if done:
                break
        compiled = treasure_rollout(treasure_params(problem), start[0], start[1], start[2],
                                    make_rng(seed))
        assert compiled == pytest.approx(total, abs=1e-12)


def test_the_dask_path_on_an_in_process_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    problem = Trap(R=0.1)
    jobs = mdp_sweep.plan(["uct", "tree"], [2], [], runs=4, chunk=2)
    serial, _ = mdp_sweep.run_sweep(problem, jobs, tmp_path / "a", seed=1, progress=False)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        rows, failures = mdp_sweep.run_sweep(problem, jobs, tmp_path / "b", seed=1,
                                             dask=client, progress=False)
    assert not failures
    assert sorted((r["index"], r["sum"]) for r in rows) == sorted(
        (r["index"], r["sum"]) for r in serial)


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    from engine.mdp.plot import plot_curves
    recs = [{"problem": "trap", "params": {"R": 0.1, "T": 2}, "method": m, key: v,
             "mean": 1.4, "ci95": [1.3, 1.5]}
            for m in ("dpw", "tree") for key in ("budget", "ms") for v in (1, 10)]
    plot_curves(recs, tmp_path / "c.png", optimum=1.7)
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
