"""Playing strength on 9x9 Go: our best configuration against GNU Go 3.8 level 10, and the
ablation of its knowledge components on 9x9 (``ablate-*``) and 19x19 (``ablate19-*``, which
also adds, one at a time, the knowledge options tried for 19x19), each a match in
``results/strength/<cell>/``.

    python scripts/strength.py --list                      # the cells and their commands
    python scripts/strength.py --only best-vs-gnugo10      # the headline match (resumes)
    python scripts/strength.py --only 'ablate-*' --workers 2
    python scripts/strength.py --report                    # the markdown table, no games
    python scripts/strength.py --only 'pachi9-*' --workers 1   # against Pachi 12.90

The Pachi cells (issue 41) play the default engine (``--preset strong``, no flags but the
budget) against Pachi from ``../shared/opponents`` (its README's commands): ``pachi9-1s``
the issue's yardstick, ours at ``--time 1`` on two threads against ``-t =25000
threads=2`` (about 1.1 s a move there), and ``pachi9-fixed`` both at fixed playouts on
one thread (ours 5,000 a move, Pachi ``-t =5000``), the fairer measure on a loaded
machine.  Pachi's own stderr says its seconds a move; the match's summary says ours.

The best configuration is UCT with heavy playouts, priors and RAVE and no UCB exploration
term (c = 0: priors and AMAF values do the exploring, as in michi), at 0.9 s per move
(the issue allows 1 s) on one core per engine; GNU Go plays with --level 10 and Chinese
(area) rules, komi 7.5, and games go through a kgs-genmove_cleanup phase so that the area
count is exact.  Each ablation cell plays the best configuration with one component taken
away (engine A) against the full one (engine B) at equal playouts per move, so a win rate
below 50% is that component's contribution; equal playouts favour the heavy policy, whose
playouts cost about three times as much as light ones (``nakade bench playouts``).
"""

from pathlib import Path

from . import cells
from .cells import ENGINE, PAPER, Cell, engine
from .referee import GameSetup
from ..timecontrol import TimeSettings

OUT_ROOT = Path("results/strength")
MASTER_SEED = 0
GNUGO = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules"
# the checkout sits beside ../shared (the opponents' README)
PACHI = str(Path(__file__).resolve().parents[3] / "shared" / "opponents" / "pachi" / "run-pachi")
DEFAULT = f"{ENGINE} --size 9 --komi 7.5 --seed {{seed}}"   # the strong preset, no flags
BEST = "--set playout=heavy --set prior=1 --set rave=1 --set c=0"
ABLATION_PLAYOUTS = 2000
TYGEM_PRIORS = "--set priors=elo --set patterns=tygem"
GO9_CLEANUP = GameSetup(game="go", size=9, komi=7.5, superko=True, cleanup=True)
GO9 = GameSetup(game="go", size=9, komi=7.5, superko=True)
GO19 = GameSetup(game="go", size=19, komi=7.5, superko=True)
GO19_CLEANUP = GameSetup(game="go", size=19, komi=7.5, superko=True, cleanup=True)


def _clock_setup(size: int, seconds: float) -> GameSetup:
    """Issue 41's clocks: ``seconds`` a move for both engines (a reply later than the
    grace loses the game), kgs cleanup so the area count is exact."""
    return GameSetup(game="go", size=size, komi=7.5, superko=True, cleanup=True,
                     time=TimeSettings(0.0, seconds, 1))


# what each component is worth: name -> label, and engine A's settings (a component taken
# away, or one of the knowledge options tried on 19x19 added)
_ABLATIONS = (
    ("light-playouts", "light playouts instead of heavy", "--set prior=1 --set rave=1 --set c=0"),
    ("no-prior", "no priors", "--set playout=heavy --set rave=1 --set c=0"),
    ("no-rave", "no RAVE", "--set playout=heavy --set prior=1 --set c=0"),
    ("ucb-c0.7", "UCB exploration c = 0.7 (the plain default)", BEST + " --set c=0.7"),
    ("plain-uct", "plain UCT: light, no priors, no RAVE, c = 0.7", ""),
    ("plus-ladder-priors", "+ ladder reading in the priors (priors=ladder)",
     BEST + " --set priors=ladder"),
    ("plus-elo-priors", "+ learned priors (priors=elo)", BEST + " --set priors=elo"),
    ("plus-elo-playouts", "+ learned softmax playouts (playout=elo)",
     BEST + " --set playout=elo"),
    ("plus-tygem-priors", "+ priors learned on Tygem 9-dan games (priors=elo, patterns=tygem)",
     BEST + " --set priors=elo --set patterns=tygem"),
    ("plus-tygem-playouts", "+ softmax playouts learned on Tygem games (playout=elo, "
     "patterns=tygem)", BEST + " --set playout=elo --set patterns=tygem"))


def _ablation(prefix: str, setup: GameSetup, opening: int, games: int,
              names: tuple[str, ...]) -> list[Cell]:
    """Self-play cells, one for each of ``names`` in ``_ABLATIONS``: the best configuration
    with one component taken away or one option added (A) against the full one (B), at
    equal playouts, resigning at 10% (resigned games end sooner)."""
    resign = " --set resign_threshold=0.1"
    full = engine("go", setup.size, "uct", ABLATION_PLAYOUTS, settings=BEST)
    return [Cell(f"{prefix}-{name}", f"ablation, {setup.size}x{setup.size}, "
                 f"{ABLATION_PLAYOUTS} playouts/move", f"{label} vs best", None,
                 engine("go", setup.size, "uct", ABLATION_PLAYOUTS, settings=settings + resign),
                 full + resign, setup, opening, games)
            for name, label, settings in _ABLATIONS if name in names]


# options tried for the default (issue 41): name -> label, settings added to the
# default engine's; each plays the default with them (A) against the default (B) at
# equal playouts on one thread
CANDIDATE_PLAYOUTS = 2000
CANDIDATE19_PLAYOUTS = 1000
_CANDIDATES = (
    ("replies1", "+ last-good-reply with forgetting (replies=1, LGRF-1)", "--set replies=1"),
    ("replies2", "+ last-good-reply with forgetting (replies=2, LGRF-2)", "--set replies=2"),
    ("ladders", "+ no escape into a working ladder (knowledge ladder_nodes 200)",
     "--set knowledge=engine/data/trials/ladders.txt"),
    ("two-libs", "+ 2-liberty attack and defence (knowledge two_libs 0.9)",
     "--set knowledge=engine/data/trials/two_libs.txt"),
    ("nakade", "+ nakade vital points (knowledge nakade 0.9)",
     "--set knowledge=engine/data/trials/nakade.txt"),
    ("selfatari-nakade", "+ self-ataris allowed when they kill by nakade (knowledge "
     "selfatari_nakade 1)", "--set knowledge=engine/data/trials/selfatari_nakade.txt"),
    ("tactics", "+ all of them but the replies (knowledge ladder_nodes 200, nakade 0.9, "
     "two_libs 0.9, selfatari_nakade 1)", "--set knowledge=engine/data/trials/tactics.txt"),
    ("tygem-priors", "+ the Tygem model's priors, diamonds read, in Pachi's form "
     "(priors=elo, patterns=tygem)", TYGEM_PRIORS),
    ("rave-distance3", "+ AMAF weighted by how early the first play came (rave_distance=3, "
     "Pachi's distance_rave)", "--set rave_distance=3"),
    ("selfatari60", "self-ataris refused 60% of the time, not 90% (Pachi's selfatarirate)",
     "--set knowledge=engine/data/trials/selfatari60.txt"),
    ("pattern100", "3x3 pattern moves looked for always, not 90% (Pachi's patternrate)",
     "--set knowledge=engine/data/trials/pattern100.txt"),
    ("atari100", "captures and escapes looked for always, not 90%",
     "--set knowledge=engine/data/trials/atari100.txt"),
    ("expand8", "leaves grown at 8 visits, not 10 (Pachi's expand_p)",
     "--set expand_after=8"),
    ("pattern2", "+ pattern moves around the mover's own last move too (knowledge pattern2 1, "
     "Pachi's pattern2)", "--set knowledge=engine/data/trials/pattern2.txt"),
    ("capture2", "+ captures of a chain left in atari next to the mover's own last move "
     "(knowledge capture2 0.9)", "--set knowledge=engine/data/trials/capture2.txt"),
    ("dynamic-komi", "+ dynamic komi (dynamic_komi=1: in an even game, the winning side's "
     "ratchet past move 15)", "--set dynamic_komi=1"))


def _candidates() -> list[Cell]:
    """The default engine with one option added (A) against the default (B), 9x9,
    ``CANDIDATE_PLAYOUTS`` a move each on one thread, resigning at 10%."""
    base = f"{DEFAULT} --playouts {CANDIDATE_PLAYOUTS} --threads 1"
    return [Cell(f"cand9-{name}", f"candidates, 9x9, {CANDIDATE_PLAYOUTS} playouts/move",
                 f"{label} vs default", None, f"{base} {settings}", base, GO9, 2, 40)
            for name, label, settings in _CANDIDATES]


def _cells() -> list[Cell]:
    out = [Cell("best-vs-gnugo10", "headline", "best (0.9 s/move) vs GNU Go level 10", None,
                f"{ENGINE} {PAPER} --size 9 --komi 7.5 --algo uct --time 0.9 " + BEST, GNUGO,
                GO9_CLEANUP, 0, 200)]
    out += _ablation("ablate", GO9, 2, 40, ("light-playouts", "no-prior", "no-rave",
                                           "ucb-c0.7", "plain-uct", "plus-tygem-priors",
                                           "plus-tygem-playouts"))
    out += [Cell("pachi9-1s", "Pachi", "default (1 s/move, 2 threads) vs Pachi =25000 threads=2",
                 None, f"{DEFAULT} --time 1", f"{PACHI} -t =25000 threads=2", GO9, 0, 100),
            Cell("pachi9-1s-hand", "Pachi", "the default with the hand priors of before (1 s/move, "
                 "2 threads) vs Pachi =25000 threads=2", None,
                 f"{DEFAULT} --time 1 --set priors=hand --set patterns=builtin",
                 f"{PACHI} -t =25000 threads=2", GO9, 0, 100),
            Cell("pachi9-fixed", "Pachi", "default (5,000 playouts, 1 thread) vs Pachi =5000 "
                 "threads=1", None, f"{DEFAULT} --playouts 5000 --threads 1",
                 f"{PACHI} -t =5000 threads=1", GO9, 0, 100),
            Cell("pachi9-fixed-ladders", "Pachi", "default + ladder reading in the playouts "
                 "(5,000 playouts, 1 thread) vs Pachi =5000 threads=1", None,
                 f"{DEFAULT} --playouts 5000 --threads 1 "
                 "--set knowledge=engine/data/trials/ladders.txt",
                 f"{PACHI} -t =5000 threads=1", GO9, 0, 100),
            Cell("pachi9-fixed-tactics", "Pachi", "default + the playout tactics of cand9-tactics "
                 "(5,000 playouts, 1 thread) vs Pachi =5000 threads=1", None,
                 f"{DEFAULT} --playouts 5000 --threads 1 "
                 "--set knowledge=engine/data/trials/tactics.txt",
                 f"{PACHI} -t =5000 threads=1", GO9, 0, 100),
            Cell("pachi9-fixed-tygem", "Pachi", "default + the Tygem priors of "
                 "cand9-tygem-priors (5,000 playouts, 1 thread) vs Pachi =5000 threads=1", None,
                 f"{DEFAULT} --playouts 5000 --threads 1 {TYGEM_PRIORS}",
                 f"{PACHI} -t =5000 threads=1", GO9, 0, 100)]
    # the default with no flags but its board, on the clock, every core (issue 41's goals)
    out += [Cell(f"gnugo{size}-{sec}s", "GNU Go", f"default ({sec} s/move, 2 threads) vs "
                 f"GNU Go level 10, {size}x{size}", None,
                 f"{ENGINE} --size {size} --komi 7.5 --seed {{seed}}", GNUGO,
                 _clock_setup(size, float(sec)), 0, games)
            for size, sec, games in ((9, 1, 100), (19, 1, 50), (19, 2, 50))]
    # issue 41's 19x19 Pachi goal: both engines on the same clock, each spending it its way
    out += [Cell("pachi19-2s", "Pachi", "default (2 s/move clock, 2 threads) vs Pachi threads=2 "
                 "on the same clock, 19x19", None, f"{ENGINE} --size 19 --komi 7.5 --seed {{seed}}",
                 f"{PACHI} threads=2", _clock_setup(19, 2.0), 0, 50)]
    # dynamic komi (issue 41): 9x9 with two handicap stones and komi 0.5 against GNU Go,
    # colours alternating, so ours gives the handicap in half the games and takes it in
    # the other half; 5,000 playouts a move on one thread
    handicap9 = GameSetup(game="go", size=9, komi=0.5, superko=True, cleanup=True,
                          handicap=2)
    fixed = "--size 9 --komi 0.5 --seed {seed} --playouts 5000 --threads 1"
    out += [Cell(f"handicap9-{name}", "dynamic komi, 9x9, 2 stones, 5000 playouts/move",
                 f"{label} vs GNU Go level 10", None, f"{ENGINE} {fixed}{flags}", GNUGO,
                 handicap9, 0, 40)
            for name, label, flags in (("dynamic-komi", "default + dynamic_komi=1",
                                        " --set dynamic_komi=1"),
                                       ("default", "default", ""))]
    out += _candidates()
    base19 = (f"{ENGINE} --size 19 --komi 7.5 --seed {{seed}} --playouts {CANDIDATE19_PLAYOUTS} "
              "--threads 1")
    out += [Cell("cand19-tygem-priors", f"priors, 19x19, {CANDIDATE19_PLAYOUTS} playouts/move",
                 "default + the Tygem priors vs default", None, f"{base19} {TYGEM_PRIORS}",
                 base19, GO19, 4, 40)]
    # 19x19 (issue 19): the default's components and the knowledge options built for
    # 19x19, with kgs cleanup so that a game that reaches the count is scored exactly
    out += _ablation("ablate19", GO19_CLEANUP, 0, 40,
                     ("light-playouts", "no-prior", "no-rave", "ucb-c0.7",
                      "plus-ladder-priors", "plus-elo-priors", "plus-elo-playouts"))
    return out


CELLS = _cells()


def main(argv=None) -> int:
    return cells.main(CELLS, OUT_ROOT, MASTER_SEED, __doc__, argv)

