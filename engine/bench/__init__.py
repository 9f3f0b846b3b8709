"""``nakade bench``: the speed benchmarks, one module each -- ``playouts`` (raw playouts a
second), ``search`` (full searches, threads), ``startup`` (process start to the first move,
cold and warm numba cache) and ``deadline`` (the clock kept while kernels compile).  Each
prints a markdown table, or JSON lines with ``--json``.  Figures are claims: they go in
the README and docs with the command that made them, never into timed tests.
"""

import importlib
import sys
from pathlib import Path

KINDS = {
    "playouts": "raw playouts a second from the empty board, single-threaded",
    "search": "full searches a second by back end, game and threads",
    "startup": "process start to the first genmove, cold and warm numba cache",
    "deadline": "reply times on a clock while the kernels compile",
}
# the folder holding the ``engine`` package, for the engines the benchmarks start
SOURCE_ROOT = Path(__file__).resolve().parents[2]


def engine_command() -> list[str]:
    """The GTP engine as a benchmark starts it: this interpreter, ``-m engine gtp``."""
    return [sys.executable, "-m", "engine", "gtp"]


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] not in KINDS:
        rows = "\n".join(f"  {k:<9} {v}" for k, v in KINDS.items())
        print(f"usage: nakade bench {{{','.join(KINDS)}}} [options]\n\n{rows}",
              file=sys.stderr if args and args[0] not in ("-h", "--help") else sys.stdout)
        return 0 if not args or args[0] in ("-h", "--help") else 2
    module = importlib.import_module(f"{__name__}.{args[0]}")
    return module.main(args[1:]) or 0
