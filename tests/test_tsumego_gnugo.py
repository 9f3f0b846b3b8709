"""Our problem collection against GNU Go's life-and-death reader (owl): every answer we mark
RIGHT achieves the goal by GNU Go's reading -- kills every defender chain of a ``kill``
problem, saves the largest of a ``live`` one -- with the result the problem asks for
(unconditional, or the ko of problems tagged ``ko``), and no move we mark WRONG does.

``scripts/research/make_tsumego_problems.py --verify`` (``engine.tsumego.collection.verify``) goes
further (every point of the region, the framed position, an exact reading of our own);
this test pins the marked answers."""

from pathlib import Path

import pytest

from engine.game.coords import to_gtp
from engine.game.state import opponent
from engine.tsumego.oracle import groups_at_stake
from engine.tsumego.problem import load_problems

PROBLEMS = Path(__file__).parent.parent / "problems" / "go"
GO_PROBLEMS = load_problems([PROBLEMS]).problems
WIN, KO_A, KO_B = 1, 2, 3     # GNU Go's GTP result codes


def test_the_collection_has_go_problems():
    assert len(GO_PROBLEMS) >= 60


@pytest.mark.gnugo
@pytest.mark.parametrize("problem", GO_PROBLEMS, ids=lambda p: p.name)
def test_gnugo_owl_accepts_our_answers(gnugo, problem):
    # the position before move 1: our answers are the record's variations
    gnugo.ask(f"loadsgf {Path(problem.source).resolve()} 1")
    defender = problem.to_play if problem.goal == "live" else opponent(problem.to_play)
    targets = [to_gtp(p, problem.size)
               for p in groups_at_stake(problem.state, defender, problem.goal)]
    ask = "owl_does_defend" if problem.goal == "live" else "owl_does_attack"
    wanted = (KO_A, KO_B) if "ko" in problem.tags else (WIN,)

    def codes(move):
        vertex = to_gtp(move, problem.size)
        return [int(gnugo.ask(f"{ask} {vertex} {t}")) for t in targets]

    for move in problem.accept:
        assert all(code in wanted for code in codes(move)), to_gtp(move, problem.size)
    for move in problem.reject:
        assert not all(code in (WIN,) + wanted for code in codes(move)), \
            to_gtp(move, problem.size)
