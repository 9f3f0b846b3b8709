"""Every answer of the collection against readers that are not our search, one line per
problem (``ok``, or ``DISAGREE`` with what the readers accept):

* Go, GNU Go's owl code (``oracle.gnugo_judgement``), for every empty point of the
  problem's region; the accepted moves are those with GNU Go's best result code (1 =
  unconditional, 2/3 = ko).  It also requires the problem to be "critical" (not settled
  whoever moves) and repeats the check on the tsumego frame of the position (the frame
  must not change the answer).
* Go, ``oracle.exact_answers``: a complete minimax of our own, where the position is small
  enough.
* Gobang, ``gobang_oracle.gobang_answers``: an exhaustive reading of continuous fours.
"""

from ..gobang_oracle import gobang_answers
from ..oracle import exact_answers, gnugo_framed_judgement, gnugo_judgement
from ..problem import load_sgf_problem
from ..solve import GtpEngine
from ...game.coords import to_gtp

GNUGO = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules"


def _exact_notes(problem, raw) -> tuple[list, list]:
    """Disagreements and remarks of the exact reading (not asked on ko problems)."""
    n = problem.size
    exact = exact_answers(problem)
    if exact is None:
        return [], ["GNU Go only: too big to read exactly"]
    extra = exact - problem.accept
    if exact - extra != problem.accept:
        return [f"exact reading accepts {sorted(to_gtp(p, n) for p in exact)}"], []
    if extra and all(raw["codes"].get(p) in (2, 3) for p in extra):
        # the frame gives no ko threats, so the reading wins GNU Go's kos too
        return [], ["exact reading also wins the ko at "
                    + ", ".join(sorted(to_gtp(p, n) for p in extra))]
    if extra:
        return [f"exact reading accepts {sorted(to_gtp(p, n) for p in exact)}"], []
    return [], []


def verify_go(paths, gnugo: str = GNUGO):
    """Yield (agrees, line) for every Go problem of ``paths`` (SGF files)."""
    with GtpEngine(gnugo) as engine:
        for path in paths:
            problem = load_sgf_problem(path)
            if problem.game != "go":
                continue
            n = problem.size
            mine = {to_gtp(p, n) for p in problem.accept}
            raw = gnugo_judgement(engine, path.resolve(), problem, problem.state)
            framed = gnugo_framed_judgement(engine, problem)
            notes = []
            gnu = {to_gtp(p, n) for p in raw["accepted"]}
            if gnu != mine:
                notes.append(f"GNU Go accepts {sorted(gnu)} (code {raw['best']})")
            if not (raw["attack"] and raw["defend"]):
                notes.append(f"not critical: owl_attack {raw['attack']} "
                             f"owl_defend {raw['defend']}")
            fgnu = {to_gtp(p, n) for p in framed["accepted"]}
            if fgnu != gnu or framed["best"] != raw["best"]:
                notes.append(f"framed: GNU Go accepts {sorted(fgnu)} (code {framed['best']})")
            ko = " ko" if raw["best"] in (2, 3) else ""
            remarks = []   # worth knowing, not disagreements
            if not ko:
                more_notes, remarks = _exact_notes(problem, raw)
                notes += more_notes
            status = "DISAGREE" if notes else "ok"
            yield not notes, (f"{status:8} {problem.name:36} mine {sorted(mine)}{ko}  "
                              + "; ".join(notes + remarks))


def verify_gobang(specs_paths):
    """Yield (agrees, line) for every (definition, SGF file) Gobang pair."""
    for spec, path in specs_paths:
        problem = load_sgf_problem(path)
        n = problem.size
        mine = {to_gtp(p, n) for p in problem.accept}
        exact = {to_gtp(p, n) for p in gobang_answers(problem, spec["fours"])}
        agree = exact == mine
        yield agree, (f"{'ok' if agree else 'DISAGREE':8} {problem.name:36} mine {sorted(mine)}"
                      + ("" if agree else f"  exact reading accepts {sorted(exact)}"))
