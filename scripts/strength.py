"""Playing strength: our engine against GNU Go and Pachi, and the ablations of its
knowledge (the cells: ``engine/match/strength.py``; docs/strength.md).

    python scripts/strength.py --list
    python scripts/strength.py --only pachi9-fixed --games 8 --workers 1
"""

import sys
from pathlib import Path

# this checkout's engine, not an installed one: a worktree's games record its own commit
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.match.strength import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
