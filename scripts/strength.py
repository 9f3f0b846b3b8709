"""Playing strength: our engine against GNU Go and Pachi, and the ablations of its
knowledge (the cells: ``engine/match/strength.py``; docs/strength.md).

    python scripts/strength.py --list
    python scripts/strength.py --only pachi9-fixed --games 8 --workers 1
"""

import sys

from engine.match.strength import main

if __name__ == "__main__":
    sys.exit(main())
