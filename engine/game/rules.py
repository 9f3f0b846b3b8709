"""Rules as plain values: what game, what size, which variant.  Nothing here runs a game."""

from dataclasses import dataclass

from .coords import MAX_SIZE

GO_MIN_SIZE = 2
GOBANG_MIN_SIZE = 5
GOBANG_VARIANTS = ("freestyle", "exact5", "renju")


@dataclass(frozen=True)
class GoRules:
    """Area scoring (Tromp-Taylor counting) with komi.  ``superko``: positional superko
    (otherwise simple ko only); ``suicide``: multi-stone suicide allowed."""
    size: int = 9
    komi: float = 7.5
    superko: bool = True
    suicide: bool = False

    def __post_init__(self):
        if not GO_MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"Go board size must be {GO_MIN_SIZE}..{MAX_SIZE}, not {self.size}")


@dataclass(frozen=True)
class GobangRules:
    """``freestyle``: five or more in a row wins; ``exact5`` (Gomocup's "standard"): exactly
    five wins, an overline of six or more does not; ``renju``: black wins with exactly five
    and may not make an overline, a double four or a double three, white wins with five or
    more.  A full board without a win is a draw."""
    size: int = 15
    variant: str = "freestyle"

    def __post_init__(self):
        if not GOBANG_MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(
                f"Gobang board size must be {GOBANG_MIN_SIZE}..{MAX_SIZE}, not {self.size}")
        if self.variant not in GOBANG_VARIANTS:
            raise ValueError(f"Gobang rule must be one of {', '.join(GOBANG_VARIANTS)}")
