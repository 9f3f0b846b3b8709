"""Game clocks and how much of them one move may spend.  Knows nothing of GTP: the front end
feeds it the settings and the clock readings it is told, and asks ``allocate`` for a
per-move budget in seconds.

Model (GTP v2, Canadian byo-yomi): ``main`` seconds of main time, then periods of
``byo_yomi`` seconds in which ``stones`` moves must be played; ``byo_yomi > 0`` with
``stones == 0`` means no limit, and so does an all-zero setting.  A ``Clock`` holds one
player's reading: ``seconds`` left and ``stones`` left in the current byo-yomi period, with
``stones == 0`` meaning main time (the GTP ``time_left`` convention).

Allocation: in main time, an equal share of what is left over the moves still expected,
plus, when byo-yomi follows, ``BYO_YOMI_SHARE`` of one stone's share of a period (a move
that overruns main time by that much still leaves the period's other stones their full
share); in byo-yomi, an equal share of the period over the stones still owed.  Every
answer keeps a safety margin back for process start, reply and scheduling overhead -- a
fixed part plus a fraction -- so the engine answers in time even when a search overshoots
its deadline slightly.
"""

from dataclasses import dataclass

FIXED_MARGIN = 0.25       # seconds held back from every allocation
RELATIVE_MARGIN = 0.05    # and this fraction of the time available for the move
MIN_SECONDS = 0.05        # the least a move is ever given, however late
MIN_MOVES_LEFT = 12       # never plan as if the game ended sooner than this
MOVES_PER_EMPTY_POINT = 0.4   # own moves still expected per empty point (about a game's
                              # length from the empty board, fewer as the board fills)
BYO_YOMI_SHARE = 0.8      # the part of one stone's byo-yomi share main-time moves lean on


@dataclass(frozen=True)
class TimeSettings:
    main: float = 0.0
    byo_yomi: float = 0.0
    stones: int = 0

    def __post_init__(self):
        if self.main < 0 or self.byo_yomi < 0 or self.stones < 0:
            raise ValueError("time settings must not be negative")

    @property
    def unlimited(self) -> bool:
        return (self.byo_yomi > 0 and self.stones == 0) or (
            self.main == 0 and self.byo_yomi == 0)

    def fresh_clock(self) -> "Clock":
        """A player's clock at the start of a game."""
        if self.main == 0 and self.stones > 0:
            return Clock(self.byo_yomi, self.stones)
        return Clock(self.main, 0)


@dataclass
class Clock:
    seconds: float
    stones: int = 0   # stones owed in the current byo-yomi period; 0 = main time

    def spend(self, elapsed: float, settings: TimeSettings):
        """Account for one move that took ``elapsed`` seconds (between ``time_left``
        readings, which overwrite whatever this estimated)."""
        if settings.unlimited:
            return
        self.seconds -= elapsed
        if self.stones == 0:
            if self.seconds > 0 or settings.stones == 0:
                return
            # main time ran out during the move: the overrun is charged to the first period
            self.seconds += settings.byo_yomi
            self.stones = settings.stones
        self.stones -= 1
        if self.stones == 0 and self.seconds > 0:
            self.seconds, self.stones = settings.byo_yomi, settings.stones


def expected_moves_left(empty_points: int) -> float:
    """How many more moves one player expects to make, from the empty points left."""
    return max(MIN_MOVES_LEFT, MOVES_PER_EMPTY_POINT * empty_points)


def _keep_margin(available: float) -> float:
    return max(MIN_SECONDS, available - FIXED_MARGIN - RELATIVE_MARGIN * available)


def allocate(settings: TimeSettings, clock: Clock, moves_left: float) -> float | None:
    """Seconds to spend on the next move, or None when time is unlimited."""
    if settings.unlimited:
        return None
    if clock.stones > 0:
        return _keep_margin(clock.seconds / clock.stones)
    byo = settings.byo_yomi / settings.stones if settings.stones > 0 else 0.0
    share = clock.seconds / max(moves_left, 1.0) + BYO_YOMI_SHARE * byo
    # never plan to use more than the clock shows plus what a period would cover
    return _keep_margin(min(share, clock.seconds + BYO_YOMI_SHARE * byo))
