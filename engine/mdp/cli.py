"""``nakade mdp``: the continuous-MDP lab's command line.  ``nakade mdp sweep ...`` runs
the experiments (``engine.mdp.experiments``: mean return against budget, with intervals);
``nakade mdp curling play|match|summary|connect`` the thesis's digital curling
(``engine.curling``); anything else watches one method play one episode (``python -m
engine.mdp``)."""

import sys

from . import __main__ as episode
from . import experiments


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "sweep":
        return experiments.main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip() + "\n\n`nakade mdp sweep --help`, `nakade mdp curling "
              "play --help` and `nakade mdp episode --help` give each one's options.")
        return 0
    return episode.main(args[1:] if args and args[0] == "episode" else args)
