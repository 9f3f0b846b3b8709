"""Rerun every published table (``engine.reproduce``; ``nakade reproduce`` is the same):

    python scripts/reproduce.py [--only TABLE ...] [--dask ADDRESS] [--workers N] [--report]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's engine

from engine.reproduce.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.argv[0] = "python scripts/reproduce.py"
    sys.exit(main())
