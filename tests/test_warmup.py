"""The start-up compile (``engine.warmup``): the playout the worker compiles is the very
one the searches call (same argument types, so the search finds it in the cache), and
so are the scoring's heavy playout and what this process compiles while it waits; the
worker gets the session's settings intact, and engines started side by side on one empty
cache both play (slow: every kernel compiles)."""

import json
import sys
from dataclasses import asdict, fields
from multiprocessing import get_context

import pytest

from engine import warmup
from engine.core.go_playout import policy_playout
from engine.core.gobang_vcf import find_vcf
from engine.gtp import parse_settings, warm_up
from engine.gtp.context import Context
from engine.pbrain.brain import BRAIN_OPTIONS, BrainSettings
from engine.scoring import ownership
from engine.search import shot_kernels
from engine.search.base import Budget
from engine.search.config import SearchConfig
from engine.search.uct_kernels import backup
from gtp_process import GtpProcess

STRONG = ["--set", "playout=heavy", "--set", "prior=1", "--set", "rave=1", "--set", "c=0"]


@pytest.mark.parametrize("argv", [
    ["--size", "9"],
    ["--size", "9", *STRONG],
    ["--size", "9", "--algo", "shot", "--set", "playout=heavy"],
    ["--size", "9", "--algo", "linuct-rave"],
    ["--game", "gobang", "--size", "9", "--set", "playout=heavy"],
])
def test_the_worker_compiles_the_playout_the_search_uses(argv):
    settings, searcher = parse_settings(argv)
    state = settings.new_state()
    searcher.search(state, Budget(playouts=40))   # compiles (or loads) and saves it
    jobs = {name: (kernel, args) for name, kernel, args in warmup.worker_jobs(settings, searcher)}
    assert warmup.cached(*jobs["playouts"])


@pytest.mark.parametrize("argv", [
    ["--size", "9"],
    ["--size", "9", *STRONG],
    ["--size", "9", "--algo", "linuct-rave"],
])
def test_the_worker_compiles_the_priors_the_search_uses(argv):
    settings, searcher = parse_settings(argv)
    priors = warmup.priors_job(settings, searcher)
    assert priors is not None   # the strong preset's Go back ends give priors
    searcher.search(settings.new_state(), Budget(playouts=40))
    assert warmup.cached(*priors)


def test_the_worker_compiles_the_vcf_reading_the_search_uses():
    settings, searcher = parse_settings(["--game", "gobang", "--size", "9"])
    vcf = warmup.vcf_args(settings, searcher)
    assert vcf is not None   # the strong preset reads VCFs at the root and in the tree
    searcher.search(settings.new_state(), Budget(playouts=40))
    assert warmup.cached(find_vcf, vcf)


@pytest.mark.parametrize("argv", [["--size", "9"], ["--size", "9", "--preset", "paper"]])
def test_the_worker_compiles_the_heavy_playout_the_scoring_uses(argv):
    settings, _ = parse_settings(argv)
    ownership(settings.new_state(), playouts=2)
    assert warmup.cached(policy_playout, warmup.scoring_args(settings))


@pytest.mark.parametrize("argv", [["--size", "9"], ["--size", "9", "--preset", "paper"],
                                  ["--game", "gobang", "--size", "9"]])
def test_what_is_compiled_while_waiting_is_what_a_move_uses(argv):
    settings, searcher = parse_settings(argv)
    state = settings.new_state()
    result = warmup.search_twice(searcher, state, 40)   # a kept tree, the final choice
    searcher.notify_play(state, result.move, state.to_play)   # the tree follows the move
    jobs = warmup.waiting_jobs(settings, searcher)
    assert [kernel for kernel, _ in jobs][0] is backup
    assert all(warmup.cached(kernel, args) for kernel, args in jobs)


def test_only_uct_compiles_a_backup_while_waiting():
    for algo in ("shot", "linuct-rave"):
        settings, searcher = parse_settings(["--size", "9", "--algo", algo])
        assert backup not in [kernel for kernel, _ in warmup.waiting_jobs(settings, searcher)]


@pytest.mark.parametrize("argv, names", [
    (["--size", "9"], ["priors", "playouts", "scoring playouts"]),
    (["--size", "9", "--preset", "paper"], ["playouts", "scoring playouts"]),
    (["--size", "9", "--algo", "shot"], ["playouts", "scoring playouts"]),
    (["--game", "gobang", "--size", "9"], ["VCF reading", "playouts"]),
    (["--game", "gobang", "--size", "9", "--preset", "paper"], ["playouts"]),
])
def test_the_worker_compiles_what_the_session_uses(argv, names):
    settings, searcher = parse_settings(argv)
    assert [name for name, _, _ in warmup.worker_jobs(settings, searcher)] == names


def test_the_worker_gets_the_search_configuration_unchanged():
    settings, _ = parse_settings(["--game", "gobang", "--size", "11", "--seed", "5",
                                  "--rule", "exact5", *STRONG[:2], "--time", "2"])
    got = warmup._settings_from_json(json.dumps(asdict(settings)))
    assert type(got) is SearchConfig
    assert asdict(got) == {f.name: getattr(settings, f.name) for f in fields(SearchConfig)}
    brain = BrainSettings(options=(("vcf", "1"),))
    assert warmup._settings_from_json(json.dumps(asdict(brain))).defaults == BRAIN_OPTIONS


def _compiled_signatures() -> dict:
    """Every kernel of the package loaded so far, with the signatures it has in this
    process (compiled or loaded from the cache)."""
    kernels = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("engine."):
            for attr, value in vars(module).items():
                if hasattr(value, "signatures") and hasattr(value, "py_func"):
                    kernels[f"{name}.{attr}"] = len(value.signatures)
    return kernels


@pytest.mark.parametrize("argv", [
    ["--size", "9", "--threads", "1"],
    ["--size", "9", "--algo", "linuct-rave", "--threads", "1"],
    ["--game", "gobang", "--size", "9", "--threads", "1"],
])
def test_after_the_warm_up_a_game_needs_no_new_kernel(argv):
    """A kernel first met in the middle of a game compiles there (or loads, but only
    once warmed), and a timed move waits for it: the second search of a kept tree once
    compiled two (tree.restrict_children, tree.settle) during moves 2-7 of a timed game."""
    settings, searcher = parse_settings(argv)
    warm_up(settings)
    before = _compiled_signatures()
    ctx = Context(settings, searcher)
    ctx.set_budget(80, None)
    for _ in range(4):
        ctx.commit(ctx.think(ctx.state.to_play).move, ctx.state.to_play)
    after = _compiled_signatures()
    assert {k: v for k, v in after.items() if v > before.get(k, 0)} == {}


def _signatures_after_a_search(argv) -> dict:
    settings, searcher = parse_settings(argv)
    searcher.search(settings.new_state(), Budget(playouts=64))
    return _compiled_signatures()


@pytest.mark.slow
def test_a_go_search_compiles_each_kernel_for_one_argument_type_list(tmp_path, monkeypatch):
    """Each signature of a kernel is a compile of its own (a literal constant or an int32
    point where another call passes an int64 once cost a cold start 6 s of 57).  A
    kernel's callees show their signatures only in the process that compiled them, hence
    a fresh process on an empty cache (slow: everything compiles), searching with no
    option but the board."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    with get_context("spawn").Pool(1) as pool:
        kernels = pool.apply(_signatures_after_a_search, (["--size", "9"],))
    assert "engine.core.go_policy._playable_called" in kernels
    assert {name: n for name, n in kernels.items() if n > 1} == {}
    # nor does it compile the playout's eye-space steps, which the shipped knowledge file
    # leaves off (``go_playout.WithEyeSpaces``; they were some 10 s of 52)
    steps = ("nakade_move", "eye_reply_move", "fills_own_space")
    assert [kernels[f"engine.core.go_policy.{name}"] for name in steps] == [0, 0, 0]


def test_the_warm_up_compiles_the_shot_threads_kernel_without_a_batch():
    """The warm-up's 64-playout SHOT search on Gobang's empty 15x15 board makes no batch
    for the threads: their kernel still compiles there, not in the first timed move."""
    settings, _ = parse_settings(["--game", "gobang", "--algo", "shot", "--threads", "2"])
    warm_up(settings)
    assert shot_kernels.run_tasks.signatures


@pytest.mark.slow
def test_two_engines_on_one_empty_cache_both_play(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    engines = [GtpProcess("--size", "9", *STRONG) for _ in range(2)]
    try:
        for engine in engines:
            engine.send("genmove b\n")
        for engine in engines:
            reply = engine.read_response(timeout=900)
            assert reply.startswith("= ") and reply[2:] not in ("", "resign"), reply
            assert engine.ask("genmove w", timeout=120).startswith("= ")
            assert engine.finish() == 0
        assert any("compiling" in line for e in engines for line in e.stderr_lines if line)
    finally:
        for engine in engines:
            engine.kill()
