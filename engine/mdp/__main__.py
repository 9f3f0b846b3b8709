"""Watch one method play one episode: every decision with its root statistics.

    python -m engine.mdp --problem trap --method dpw --budget 1000 --seed 1
    python -m engine.mdp --problem treasure --param D=5 --method tree --ms 50
    python -m engine.mdp curling ...     (digital curling: engine/curling/cli.py)
"""

import argparse
import math
import sys

from ..search.base import Budget
from .methods import METHODS, make_method, run_episode, warm_up
from .problems import PROBLEMS, make_problem, parse_params


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m engine.mdp", description=__doc__.split("\n\n")[0])
    ap.add_argument("--problem", choices=sorted(PROBLEMS), default="trap")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--method", choices=METHODS, default="dpw")
    ap.add_argument("--budget", type=int, default=None, help="playouts per decision")
    ap.add_argument("--ms", type=float, default=None, help="milliseconds per decision")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.budget is None and args.ms is None:
        args.budget = 1000
    try:
        args.budget_obj = Budget(playouts=args.budget,
                                 seconds=None if args.ms is None else args.ms / 1000)
        args.problem_obj = make_problem(args.problem, parse_params(args.param))
    except ValueError as exc:
        ap.error(str(exc))
    return args


def _action_text(problem, a: float) -> str:
    if problem.name == "treasure":
        return f"heading {math.degrees(a):6.1f} deg"
    return f"a={a:.4f}"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "curling":
        from ..curling.cli import main as curling
        return curling(argv[1:])
    args = parse_args(argv)
    problem = args.problem_obj
    print(f"{problem.name} {problem.params}  method {args.method}  seed {args.seed}")

    def show(step):
        d = step.decision
        top = sorted(d.visits.items(), key=lambda kv: -kv[1])[:4]
        counts = " ".join(f"{a:.3f}:{n}"
                          for a, n in top)
        print(f"{problem.describe(step.state):<26} -> {_action_text(problem, d.action)} "
              f"(value {d.value:+.3f}, {d.playouts} playouts, {1000 * d.seconds:.1f} ms; "
              f"root visits {counts})  reward {step.reward:+.3f}  now "
              f"{problem.describe(step.next_state)}")

    if args.ms is not None:
        warm_up(problem)      # the first decision would pay for loading the kernels
    total = run_episode(problem, make_method(args.method, problem), args.budget_obj,
                        args.seed, on_step=show)
    print(f"return {total:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
