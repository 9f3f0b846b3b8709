"""``nakade``: one command line with a subcommand per job, the way ``git`` and ``katago``
work.  Each subcommand is the ``main(argv)`` of the module that owns the job, imported only
when it is asked for, so ``nakade --help`` and a GUI's start of ``nakade gtp`` load nothing
else.  ``nakade-gtp``, ``nakade-pbrain`` and ``python gtp_main.py`` stay as aliases of
``nakade gtp`` and ``nakade pbrain``.
"""

import importlib
import sys

# name -> (module, one line of help); every module has a ``main(argv=None)``
SUBCOMMANDS = {
    "gtp": ("engine.gtp", "the Go and Gobang GTP engine (Sabaki, GoGui, Lizzie, twogtp)"),
    "pbrain": ("engine.pbrain", "the Gomocup brain on stdin/stdout (Gomoku managers)"),
    "solve": ("engine.tsumego.cli", "the tsumego harness: solve problem files, sweep budgets"),
    "match": ("engine.match.cli", "a match between two GTP engines or two brains"),
    "bench": ("engine.bench", "speed benchmarks: playouts, search, start-up, deadline"),
    "mdp": ("engine.mdp.cli", "the continuous-MDP lab: an episode, or a sweep of methods"),
    "reproduce": ("engine.reproduce.cli", "rerun the published tables: games, plots, "
                  "verdicts"),
}

USAGE = "usage: nakade {" + ",".join(SUBCOMMANDS) + "} [options]   (nakade SUBCOMMAND --help)"


def _help() -> str:
    width = max(map(len, SUBCOMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {text}" for name, (_, text) in SUBCOMMANDS.items())
    return (f"{USAGE}\n\nnakade: a Go and Gobang engine for Monte Carlo Tree Search research."
            f"\n\nsubcommands:\n{rows}\n\nnakade with no subcommand prints this; "
            f"`nakade gtp` is what a GUI runs.")


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_help())
        return 0
    if args[0] in ("-V", "--version"):
        from . import NAME, __version__
        print(f"{NAME} {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"{USAGE}\nnakade: unknown subcommand {name!r}", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    sys.argv[0] = f"nakade {name}"     # what argparse names in its usage line
    return module.main(rest) or 0


def run():
    """The console script's entry: the subcommand's status is the process's."""
    sys.exit(main())
