"""Re-run the published SHOT and LinUCT tables (``docs/published-tables.md``; the
algorithms: ``docs/algorithms.md``) with our engine, through the match runner, and print
our figures beside the published ones.

    python scripts/reproduce_tables.py --list                # the cells and their commands
    python scripts/reproduce_tables.py --only 'shot-gobang10-p*' --games 40 --workers 2
    python scripts/reproduce_tables.py --report              # the markdown table, no games
    python scripts/reproduce_tables.py --only 'linuct-rave-uct-go9-*' 'linuct-plain*' \
        --games 100 --workers 16                             # table 5, light and heavy

Every cell is one match, engine A (the engine whose win rate the paper reports) against
engine B, colours alternating, in ``results/tables/<cell>/``.  Running a cell again resumes
it; a larger ``--games`` extends it (``engine/match/runner.py``).  Without ``--games`` a
cell is played up to its planned count (``Cell.games``: what the 2-core budget allowed,
see docs/published-tables.md).  The report reads only the results files, so it shows
exactly the games that were played.
"""

import sys
from pathlib import Path

from engine.match import cells
from engine.match.cells import Cell, engine
from engine.match.referee import GameSetup
from engine.timecontrol import TimeSettings

OUT_ROOT = Path("results/tables")
MASTER_SEED = 2015
# One random move each for Gobang, two (one each) for Go: games differ, openings stay sane.
GOBANG_OPENING = 2
GO_OPENING = 2
GAMES = 100          # every published cell: at least 100 games (issue 44)
UCT = "uct:c=0.41"   # the SHOT paper's UCT (tables 1-4)


def gobang(size: int, seconds: float | None = None) -> GameSetup:
    time = TimeSettings(0.0, seconds, 1) if seconds else None
    return GameSetup(game="gobang", size=size, rule="freestyle", time=time)


GO9 = GameSetup(game="go", size=9, komi=7.5, superko=True)


def listed(opts: str) -> str:
    """``:a=1:b=2`` as the cell descriptions write it: ``a=1, b=2``."""
    return opts.lstrip(":").replace(":", ", ")


def _cells() -> list[Cell]:
    cells = []
    # Table 1: SHOT vs UCT, 10x10 Gobang, equal playouts.  The SHOT paper's UCT has
    # C = 0.41 in X + C sqrt(ln n / n_i) (its eq. 1; docs/published-tables.md quotes the
    # passage), which is our c: every UCT of tables 1-4 runs ``UCT`` below.
    for k, pub in ((10, 60.9), (20, 54.2), (30, 49.9), (40, 45.9), (50, 42.9)):
        n = 1000 * k
        cells.append(Cell(f"shot-uct-gobang10-p{k}k", "shot-t1",
                          f"SHOT {k}k vs UCT {k}k", pub,
                          engine("gobang", 10, "shot", n), engine("gobang", 10, UCT, n),
                          gobang(10), GOBANG_OPENING, GAMES))
    # Table 2: equal time per move, the times the paper's SHOT needed for 10k/20k/50k/100k
    # playouts, as printed (20x20: 0.216/0.434/1.078/2.146 s).
    for size, seconds, pub in ((10, 0.072, 85.6), (10, 0.142, 78.4), (10, 0.343, 67.4),
                               (10, 0.686, 45.3), (20, 0.216, 92.1), (20, 0.434, 93.7),
                               (20, 1.078, 95.8), (20, 2.146, 95.4)):
        ms = round(1000 * seconds)
        cells.append(Cell(f"shot-uct-gobang{size}-t{ms}ms", "shot-t2",
                          f"SHOT vs UCT, {size}x{size}, {seconds} s/move", pub,
                          engine("gobang", size, "shot", seconds=seconds),
                          engine("gobang", size, UCT, seconds=seconds),
                          gobang(size, seconds), GOBANG_OPENING, GAMES))
    # Table 3: against UCT with 41k playouts, 10x10 Gobang.
    ref = engine("gobang", 10, UCT, 41_000)
    for algo, k, pub in (("uct", 100, 47.7), ("uct", 150, 44.2), ("uct", 200, 47.9),
                         ("uct", 300, 47.6), ("shot", 60, 63.4), ("shot", 80, 68.9),
                         ("shot", 120, 70.7)):
        cells.append(Cell(f"{algo}{k}k-uct41k-gobang10", "shot-t3",
                          f"{algo.upper()} {k}k vs UCT 41k", pub,
                          engine("gobang", 10, UCT if algo == "uct" else algo, 1000 * k), ref,
                          gobang(10), GOBANG_OPENING, GAMES))
    # Table 4: SHOT vs UCT, 9x9 Go, equal playouts.
    for n, pub in ((500, 29), (1000, 46), (2000, 50), (5000, 40), (10000, 31)):
        cells.append(Cell(f"shot-uct-go9-p{n}", "shot-t4",
                          f"SHOT {n} vs UCT {n}", pub,
                          engine("go", 9, "shot", n), engine("go", 9, UCT, n),
                          GO9, GO_OPENING, GAMES))
    # Table 5: LinUCT, 9x9 Go.  LinUCT_RAVE with the paper's k = 1000 (our default is 10).
    for n, pub, games in ((4000, 39.1, 10), (8000, 17.4, 10)):
        cells.append(Cell(f"linuct-plain{n}-plain2000-go9", "5: LinUCT_PLAIN, Go 9x9",
                          f"LinUCT_PLAIN {n} vs LinUCT_PLAIN 2000", pub,
                          engine("go", 9, "linuct-plain", n),
                          engine("go", 9, "linuct-plain", 2000), GO9, GO_OPENING, games))
    for n, pub, games in ((1000, 43, 10), (2000, 53, 10), (4000, 45, 10), (8000, 49, 10)):
        cells.append(Cell(f"linuct-rave-uct-go9-p{n}", "5: LinUCT_RAVE vs UCT, Go 9x9",
                          f"LinUCT_RAVE {n} vs UCT {n}", pub,
                          engine("go", 9, "linuct-rave:rave_k=1000", n),
                          engine("go", 9, "uct", n),
                          GO9, GO_OPENING, games))
    # Table 5 again with both sides on the heavy playout policy (the paper's program had a
    # pattern playout policy on both sides), every option that matters pinned: the paper's
    # k = 1000, kappa = 1, expansion threshold 10, UCB1's c = 0.7 for both, no priors.
    linuct_heavy = ("linuct-rave:bandit=gd:kappa=1:rave_k=1000:expand_after=10:c=0.7"
                    ":playout=heavy:prior=0")
    uct_heavy = "uct:c=0.7:expand_after=10:rave=0:prior=0:playout=heavy"
    for n, pub in ((1000, 43), (2000, 53), (4000, 45), (8000, 49)):
        cells.append(Cell(f"linuct-rave-uct-go9-heavy-p{n}",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, heavy playouts",
                          f"LinUCT_RAVE {n} vs UCT {n}, both heavy", pub,
                          engine("go", 9, linuct_heavy, n), engine("go", 9, uct_heavy, n),
                          GO9, GO_OPENING, 100))
    # The same two pairings with LinUCT's rows in the mover's frame (``features=mover``:
    # bit 0 the mover's stone, bit 1 the opponent's, where the paper's words give the
    # stone's colour; docs/algorithms.md section 9), every other pin as above.
    for n, pub in ((1000, 43), (2000, 53)):
        cells.append(Cell(f"linuct-rave-uct-go9-mover-p{n}",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, mover features",
                          f"LinUCT_RAVE {n} (mover features) vs UCT {n}", pub,
                          engine("go", 9, "linuct-rave:rave_k=1000:features=mover", n),
                          engine("go", 9, "uct", n), GO9, GO_OPENING, 100))
        cells.append(Cell(f"linuct-rave-uct-go9-heavy-mover-p{n}",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, heavy playouts, mover features",
                          f"LinUCT_RAVE {n} (mover features) vs UCT {n}, both heavy", pub,
                          engine("go", 9, linuct_heavy + ":features=mover", n),
                          engine("go", 9, uct_heavy, n), GO9, GO_OPENING, 100))
    # The light mover cell with the exploration term's diagonal counted (``width=count``:
    # D_j = 1 / (1 + n_j), exact LinUCB's diagonal; docs/algorithms.md section 9), to
    # measure whether fLinUCB-GD's diagonal, whose width barely shrinks, is the gap.
    cells.append(Cell("linuct-rave-uct-go9-mover-count-p1000",
                      "5: LinUCT_RAVE vs UCT, Go 9x9, mover features, counted width",
                      "LinUCT_RAVE 1000 (mover features, width=count) vs UCT 1000", 43,
                      engine("go", 9, "linuct-rave:rave_k=1000:features=mover:width=count",
                             1000),
                      engine("go", 9, "uct", 1000), GO9, GO_OPENING, 100))
    # The same with kappa = 0.35 ~ 1 / sqrt(8) (a stone's 8 bits always appear together,
    # which the diagonal counts as 8 features: width^2 8 / (1 + n) where exact LinUCB's
    # is 8 / (1 + 8 n), so this scales the counted width back to exact LinUCB's size),
    # and with kappa = 2 (the other way)
    for kappa, tag in (("0.35", "k035"), ("2", "k2")):
        cells.append(Cell(f"linuct-rave-uct-go9-mover-count-{tag}-p1000",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, mover features, counted width",
                          f"LinUCT_RAVE 1000 (mover features, width=count, kappa={kappa}) "
                          "vs UCT 1000", 43,
                          engine("go", 9, "linuct-rave:rave_k=1000:features=mover"
                                 f":width=count:kappa={kappa}", 1000),
                          engine("go", 9, "uct", 1000), GO9, GO_OPENING, 100))
    # The light mover cells with a stable step for theta (``step``: normalised LMS,
    # gamma_t / m, or the paper's gamma_t capped at 1 / m; docs/algorithms.md section 9),
    # to measure whether theta's early overshoot on long rows is part of the gap: with the
    # counted width, and the normalised step with the paper's width too
    # In a game the model is kept from move to move, so t is in the thousands before rows
    # get long and the cap never acts (scripts/research/linuct_game_schedule.py); ``model=fresh``
    # starts a fresh model (t = 0) at every search: with the cap, and with the paper's step
    # fLinUCB-GD approximates exact LinUCB (its theta by a stochastic gradient, its width
    # by a diagonal here); exact LinUCB in its place (``bandit=exact``, alpha = 1, the
    # paper's kappa, a fresh model at every search) is the approximation's ceiling
    for opts, tag, what in ((":width=count:step=normalised", "count-norm", "stable step"),
                            (":width=count:step=capped", "count-capped", "stable step"),
                            (":step=normalised", "norm", "stable step"),
                            (":width=count:step=capped:model=fresh", "count-capped-fresh",
                             "stable step"),
                            (":width=count:model=fresh", "count-fresh", "stable step"),
                            (":bandit=exact:model=fresh", "exact-fresh", "exact LinUCB")):
        cells.append(Cell(f"linuct-rave-uct-go9-mover-{tag}-p1000",
                          f"5: LinUCT_RAVE vs UCT, Go 9x9, mover features, {what}",
                          f"LinUCT_RAVE 1000 (mover features{opts.replace(':', ', ')}) "
                          "vs UCT 1000", 43,
                          engine("go", 9, "linuct-rave:rave_k=1000:features=mover" + opts,
                                 1000),
                          engine("go", 9, "uct", 1000), GO9, GO_OPENING, 100))
    # The paper's UCB1 is X + sqrt(2 ln T / t), c = sqrt(2) in our mean + c sqrt(ln N / n),
    # where every cell above pins our 0.7 on both sides: the paper's constant on both
    # sides, with the printed method and with the best variant of the cells above
    best = ":features=mover:width=count:step=capped:model=fresh"
    for opts, tag, n, pub in (("", "c141", 1000, 43),
                              (best, "mover-count-capped-fresh-c141", 1000, 43),
                              (best, "mover-count-capped-fresh-c141", 2000, 53),
                              (best, "mover-count-capped-fresh-c141", 4000, 45),
                              (best, "mover-count-capped-fresh-c141", 8000, 49),
                              # which of the best variant's departures the constant needs:
                              # the paper's feature encoding, and the model kept
                              (":width=count:step=capped:model=fresh",
                               "count-capped-fresh-c141", 1000, 43),
                              (":features=mover:width=count", "mover-count-c141", 1000, 43),
                              # exact LinUCB (above) at the paper's constant
                              (":features=mover:bandit=exact:model=fresh",
                               "mover-exact-fresh-c141", 1000, 43)):
        cells.append(Cell(f"linuct-rave-uct-go9-{tag}-p{n}",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, the paper's UCB1 constant",
                          f"LinUCT_RAVE {n} ({listed(opts + ':c=1.4142')}) "
                          f"vs UCT {n} (c=1.4142)", pub,
                          engine("go", 9, f"linuct-rave:rave_k=1000{opts}:c=1.4142", n),
                          engine("go", 9, "uct:c=1.4142", n), GO9, GO_OPENING, 100))
    # Why the 8k cell (and the heavy 2k cell, below) fall below the paper's figures: what
    # doubling the playouts is worth to each side on its own (not in the paper)
    for n, policy, suffix in ((8000, "", ""), (4000, "", ""),
                              (2000, ":playout=heavy", "-heavy")):
        for algo, tag, name, opts in (("linuct-rave", f"linuct-rave{n}-rave{n // 2}",
                                       "LinUCT_RAVE", f":rave_k=1000{best}{policy}"),
                                      ("uct", f"uct{n}-uct{n // 2}", "UCT", policy)):
            cells.append(Cell(f"{tag}-go9{suffix}-c141",
                              "5: doubling the playouts, Go 9x9, the paper's UCB1 constant",
                              f"{name} {n} vs {name} {n // 2} "
                              f"({listed(opts + ':c=1.4142')})", None,
                              engine("go", 9, f"{algo}{opts}:c=1.4142", n),
                              engine("go", 9, f"{algo}{opts}:c=1.4142", n // 2), GO9,
                              GO_OPENING, 100))
    # ... and what the heavy policy is worth to each side on its own (the heavy cells below)
    for algo, tag, name, opts in (("linuct-rave", "linuct-rave", "LinUCT_RAVE",
                                   f":rave_k=1000{best}"), ("uct", "uct", "UCT", "")):
        cells.append(Cell(f"{tag}-heavy-light-go9-c141-p1000",
                          "5: the heavy policy, Go 9x9, the paper's UCB1 constant",
                          f"{name} 1000 heavy vs {name} 1000 light "
                          f"({listed(opts + ':c=1.4142')})", None,
                          engine("go", 9, f"{algo}{opts}:playout=heavy:c=1.4142", 1000),
                          engine("go", 9, f"{algo}{opts}:c=1.4142", 1000), GO9, GO_OPENING,
                          100))
    # The best variant at the paper's constant with the heavy policy on both sides
    for n, pub in ((1000, 43), (2000, 53)):
        cells.append(Cell(f"linuct-rave-uct-go9-heavy-mover-count-capped-fresh-c141-p{n}",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, heavy playouts, the paper's UCB1 "
                          "constant",
                          f"LinUCT_RAVE {n} (heavy, {listed(best)}, c=1.4142) "
                          f"vs UCT {n} (heavy, c=1.4142)", pub,
                          engine("go", 9, f"linuct-rave:rave_k=1000{best}:playout=heavy"
                                 ":c=1.4142", n),
                          engine("go", 9, "uct:playout=heavy:c=1.4142", n), GO9, GO_OPENING,
                          100))
    # Not in the paper: what the constant does to UCT alone (sqrt(2) against our 0.7)
    cells.append(Cell("uct-c141-uct-go9-p1000", "5: UCT's constant, Go 9x9",
                      "UCT 1000 (c=1.4142) vs UCT 1000 (c=0.7)", None,
                      engine("go", 9, "uct:c=1.4142", 1000), engine("go", 9, "uct", 1000),
                      GO9, GO_OPENING, 100))
    # The paper's program widened its tree progressively on both sides, its moves ranked
    # by its softmax playout policy (3x3 patterns, atari), and gave no virtual games.
    # Here: the same priors on both sides, first as UCT's progressive bias (``prior=1``),
    # without and with widening (``widen=1``, CrazyStone's schedule; engine.search.widening);
    # then as the paper had it, the learned softmax policy (``priors=elo``, ``playout=elo``)
    # ranking the moves and playing the playouts, without virtual games (``bias=0``)
    policy = ":prior=1:priors=elo:bias=0:widen=1:playout=elo"
    for tag, linuct, uct in (
            ("prior", ":prior=1", ":prior=1"),
            ("pw", ":prior=1:widen=1", ":prior=1:widen=1"),
            ("pw-mover-count-capped-fresh",
             ":prior=1:widen=1:features=mover:width=count:step=capped:model=fresh",
             ":prior=1:widen=1"),
            ("pw-policy", policy, policy),
            ("pw-policy-mover-count-capped-fresh",
             policy + ":features=mover:width=count:step=capped:model=fresh", policy)):
        cells.append(Cell(f"linuct-rave-uct-go9-{tag}-p1000",
                          "5: LinUCT_RAVE vs UCT, Go 9x9, priors or widening on both sides",
                          f"LinUCT_RAVE 1000 ({listed(linuct)}) vs UCT 1000 "
                          f"({listed(uct)})", 43,
                          engine("go", 9, "linuct-rave:rave_k=1000" + linuct, 1000),
                          engine("go", 9, "uct" + uct, 1000), GO9, GO_OPENING, 100))
    plain_heavy = "linuct-plain:bandit=gd:kappa=1:expand_after=10:playout=heavy"
    cells.append(Cell("linuct-plain8000-plain2000-go9-heavy",
                      "5: LinUCT_PLAIN, Go 9x9, heavy playouts",
                      "LinUCT_PLAIN 8000 vs LinUCT_PLAIN 2000, both heavy", 17.4,
                      engine("go", 9, plain_heavy, 8000), engine("go", 9, plain_heavy, 2000),
                      GO9, GO_OPENING, 100))
    # Not in the paper: the same with k = 10, to show what k does.
    for n, pub, games in ((1000, 43, 10), (2000, 53, 10)):
        cells.append(Cell(f"linuct-rave-k10-uct-go9-p{n}", "5: LinUCT_RAVE vs UCT, Go 9x9",
                          f"LinUCT_RAVE (k = 10) {n} vs UCT {n}", pub,
                          engine("go", 9, "linuct-rave:rave_k=10", n),
                          engine("go", 9, "uct", n),
                          GO9, GO_OPENING, games))
    return cells


CELLS = _cells()


def main(argv=None) -> int:
    return cells.main(CELLS, OUT_ROOT, MASTER_SEED, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
