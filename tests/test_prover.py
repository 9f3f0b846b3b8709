"""The root proof search (``engine.search.prover`` over ``engine.search.dfpn_kernels``):
what it proves agrees with the exact minimax of ``engine.tsumego.oracle`` on small
enclosed problems and with the published answers of our whole collection; a ko is read
as a ko; proved moves are answered at once and refuted ones are kept from the back end."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.core.layout import BLACK, M_PASSES, WHITE
from engine.game.coords import to_gtp
from engine.search.base import Budget
from engine.search.dfpn_kernels import position_key
from engine.search.prover import ProofStep, _Reading, prove
from engine.search.registry import make
from engine.tsumego.oracle import exact_answers
from engine.tsumego.problem import load_problems, load_sgf_problem
from engine.tsumego.solve import fight_target, position, region_mask, solve

GO19 = Path(__file__).parent.parent / "problems" / "go" / "19x19"
SMALL = ["bent-three-kill", "bulky-five-kill", "bulky-five-live", "corner-six-kill",
         "corner-six-live", "crossed-five-live", "first-line-kill", "corner-stone-live"]
SOLVER = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"


def _setup(problem):
    state = position(problem)
    points = np.flatnonzero(region_mask(problem, state)).astype(np.int64)
    return state, points, fight_target(problem)


def _proof(problem, nodes):
    state, points, target = _setup(problem)
    return prove(state, points, target, nodes)


@pytest.fixture(scope="module")
def collection():
    """Every 19x19 problem of ours with its proof at 5,000 expansions a reading."""
    return [(p, _proof(p, 5000)) for p in load_problems([GO19]).problems]


def test_every_proof_and_refutation_agrees_with_the_exact_minimax():
    proved = 0
    for name in SMALL:
        problem = load_sgf_problem(GO19 / f"{name}.sgf")
        winners = exact_answers(problem)
        proof = _proof(problem, 20_000)
        assert winners is not None, name
        if proof.move is not None:
            assert proof.move in winners, (name, to_gtp(proof.move, 19))
            proved += proof.proved
        assert not winners & set(proof.refuted), (name, proof.refuted)
        assert not proof.lost, name
    assert proved >= 5


def test_on_our_collection_a_proved_move_is_a_right_answer_and_a_refuted_one_never(
        collection):
    proved = [p.name for p, proof in collection if proof.proved]
    for problem, proof in collection:
        if proof.move is not None:
            assert problem.is_correct(proof.move), problem.name
            assert proof.line[0] == proof.move
        assert not any(problem.is_correct(m) for m in proof.refuted), problem.name
    # the live problems, where two eyes end a line, and the short kills
    assert len(proved) >= 15, proved
    assert {"throw-in-kill", "straight-three-kill", "corner-six-live"} <= set(proved)


def test_a_pending_pass_and_a_game_over_are_different_positions():
    # the same stones, white to move: after black's stone, after black's pass (white may
    # end the game) and after two passes (over); one key for the last two once let a
    # game-over verdict stand for a position still in play
    state = position(load_sgf_problem(GO19 / "throw-in-kill.sgf"))
    keys = {position_key(state.meta, state.zob)}
    for passes in (1, 2):
        meta = state.meta.copy()
        meta[M_PASSES] = passes
        keys.add(position_key(meta, state.zob))
    assert len(keys) == 3


def test_a_ko_is_no_unconditional_kill():
    # the answer (S2) kills by a ko: with black's ko captures forbidden no move kills,
    # and the reading proves it
    problem = load_sgf_problem(GO19 / "corner-ko-kill.sgf")
    state, points, target = _setup(problem)
    assert state.to_play == BLACK and target.attacker == BLACK
    no_ko = _Reading(state, points, target, WHITE, 400_000, 20)
    assert no_ko.delta == 0 and no_ko.phi > 0
    assert problem.accept <= set(no_ko.lost_children())


def test_a_proved_answer_is_played_at_once_and_its_row_says_proved():
    problem = load_sgf_problem(GO19 / "throw-in-kill.sgf")
    out = solve(problem, f"{SOLVER}:prove_nodes=5000", 2000, 0, restrict=True)
    assert out.correct and out.status == "proved" and out.move == "S1"
    assert out.pv.split()[0] == "S1" and out.stable_at == 0


def test_without_a_region_the_proof_reads_the_points_a_capture_empties():
    """Unrestricted, the proof reads the whole board, the stones' points too: over the
    empty points alone a throw-in, once taken, could never be played again, and this
    problem read as lost with its answer refuted."""
    problem = load_sgf_problem(GO19 / "throw-in-kill.sgf")
    step = proof_step(20000)
    result, _ = step.before(position(problem), None, fight_target(problem))
    assert problem.is_correct(result.move) and result.candidates[0].proven == 1


def proof_step(nodes: int) -> ProofStep:
    step = ProofStep()
    step.params.prove_nodes = nodes
    return step


def test_refuted_moves_are_kept_from_the_back_end_and_the_proof_is_read_once():
    problem = load_sgf_problem(GO19 / "j-shape-kill.sgf")
    state, points, target = _setup(problem)
    mask = region_mask(problem, state)
    step = proof_step(5000)
    answer, allowed = step.before(state, mask, target)
    refuted = step._last[1].refuted
    assert answer is None and refuted and step._last[1].move is None
    assert not any(problem.is_correct(m) for m in refuted)
    assert allowed[refuted].sum() == 0 and mask[refuted].all()
    assert all(allowed[m] for m in problem.accept)
    first = step._last
    step.before(state, mask, target)
    assert step._last is first
    # without a fight the back end alone, its mask as it was
    assert step.before(state, mask, None) == (None, mask)


def test_the_options_are_every_back_ends_and_checked():
    search = make("uct:prove_nodes=7")
    assert search.options()["prove_nodes"] == 7 and search.options()["prove_table"] == 20
    search.set_option("prove_table", "12")
    assert search.options()["prove_table"] == 12
    with pytest.raises(ValueError):
        make("uct:prove_nodes=-1")
    with pytest.raises(ValueError):
        make("shot:prove_table=40")


def test_without_a_fight_the_back_end_searches_alone():
    # the same position the fight's proof answers at once, searched as a whole game
    search = make("uct:prove_nodes=1000", seed=3)
    state = position(load_sgf_problem(GO19 / "throw-in-kill.sgf"))
    result = search.search(state, Budget(playouts=50))
    assert result.playouts >= 50 and search.step(ProofStep)._last is None


def test_the_research_driver_reports_each_problem_and_a_table():
    script = Path(__file__).resolve().parents[1] / "scripts" / "research" / "prove_tsumego.py"
    files = [str(GO19 / "throw-in-kill.sgf"), str(GO19 / "j-shape-kill.sgf")]
    done = subprocess.run([sys.executable, str(script), *files, "--nodes", "2000", "--exact"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:5] == ["throw-in-kill", "11", "proved", "S1", "right"]
    assert lines[1].split()[:3] == ["j-shape-kill", "21", "open"]
    assert lines[-3].startswith("| 2 | 1 | 0 | 0 | 1 | 1 | 0 |")
    assert lines[-1] == "exact minimax: 2 problems read, 0 contradicted"
