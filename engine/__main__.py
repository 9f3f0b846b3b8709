"""``python -m engine SUBCOMMAND``: the ``nakade`` command line (``engine.cli``)."""
from engine.cli import run

run()
