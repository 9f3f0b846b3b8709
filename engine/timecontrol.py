"""Game clocks and how much of them one move may spend.  Knows nothing of GTP: the front end
feeds it the settings and the clock readings it is told, and asks ``allocate`` for a
per-move budget in seconds.

Settings (``TimeSettings``), the four kinds of KGS's ``kgs-time_settings``:

* none: no limit (all zero; also GTP's ``byo_yomi > 0`` with ``stones == 0``);
* absolute: ``main`` seconds for the whole game (sudden death);
* canadian: ``main`` seconds, then periods of ``byo_yomi`` seconds in which ``stones``
  moves must be played (GTP ``time_settings``);
* byoyomi (Japanese): ``main`` seconds, then ``periods`` periods of ``byo_yomi`` seconds;
  a move played within a period keeps it, a move that overruns one uses it up.

A ``Clock`` holds one player's reading as GTP ``time_left`` gives it: ``seconds`` left and
``stones``, with ``stones == 0`` meaning main time; in Canadian byo-yomi ``stones`` is the
stones owed in the current period and ``seconds`` what is left of it; in Japanese byo-yomi
``stones`` is the periods left (KGS's convention) and ``seconds`` what is left of the
current period.

Allocation (``allocate``): in main time, the clock over the moves still expected
(``expected_moves_left``: by board size and move number), weighted by the phase of the
game (``phase_weight``: less in the opening, most in the middle game, where moves decide
games), plus, when byo-yomi follows, ``BYO_YOMI_SHARE`` of one stone's share of a period (a
move that overruns main time by that much still leaves the period's other stones their full
share).  In byo-yomi: an equal share of the period over the stones still owed (Canadian),
or one period (Japanese: spending it fully costs nothing, overrunning it costs a period, so
the spare periods are kept as a reserve, never planned with).  Every answer keeps a safety
margin back for reply and scheduling overhead -- a fixed part plus a fraction -- so the
engine answers in time even when a search overshoots its deadline slightly.
"""

from dataclasses import dataclass

FIXED_MARGIN = 0.1        # seconds held back from every allocation (reply, pipes, load)
RELATIVE_MARGIN = 0.05    # and this fraction of the time available for the move
MIN_SECONDS = 0.05        # the least a move is ever given, however late
MIN_MOVES_LEFT = 12       # never plan as if the game ended sooner than this
# A game's length in moves (both players) grows with the board: about 75 moves on 9x9,
# 140 on 13x13, 270 on 19x19, in line with engine games played to the end (area scoring).
GAME_MOVES_PER_POINT = 0.7
GAME_MOVES_FIXED = 20
# Games run past their typical length often enough that a player always plans for at
# least this fraction of its typical number of moves still to come.
TAIL_FRACTION = 0.25
# The weight of a move's share by the phase of the game (moves played / typical length),
# linear between these points: light in the opening (joseki-like, many good moves), heavy
# in the middle game, back below average in the endgame (fewer, smaller decisions).
PHASE_WEIGHTS = ((0.0, 0.6), (0.15, 1.0), (0.25, 1.4), (0.55, 1.4), (0.8, 0.8), (1.0, 0.7))
BYO_YOMI_SHARE = 0.8      # the part of one stone's byo-yomi share main-time moves lean on


@dataclass(frozen=True)
class TimeSettings:
    main: float = 0.0
    byo_yomi: float = 0.0
    stones: int = 0       # Canadian: stones per period
    periods: int = 0      # Japanese: number of periods (one stone each); 0 = Canadian

    def __post_init__(self):
        if min(self.main, self.byo_yomi, self.stones, self.periods) < 0:
            raise ValueError("time settings must not be negative")
        if self.periods and self.byo_yomi <= 0:
            raise ValueError("Japanese byo-yomi needs a positive period")

    @classmethod
    def absolute(cls, main: float) -> "TimeSettings":
        return cls(main=main)

    @classmethod
    def canadian(cls, main: float, period: float, stones: int) -> "TimeSettings":
        if stones < 1:
            raise ValueError("Canadian byo-yomi needs at least one stone per period")
        return cls(main, period, stones)

    @classmethod
    def japanese(cls, main: float, period: float, periods: int) -> "TimeSettings":
        if periods < 1 or period <= 0:
            raise ValueError("Japanese byo-yomi needs at least one period of positive time")
        return cls(main, period, 1, periods)

    @property
    def japanese_byo_yomi(self) -> bool:
        return self.periods > 0

    @property
    def unlimited(self) -> bool:
        if self.japanese_byo_yomi:
            return False
        return (self.byo_yomi > 0 and self.stones == 0) or (
            self.main == 0 and self.byo_yomi == 0)

    def fresh_clock(self) -> "Clock":
        """A player's clock at the start of a game."""
        if self.main == 0 and self.japanese_byo_yomi:
            return Clock(self.byo_yomi, self.periods)
        if self.main == 0 and self.stones > 0:
            return Clock(self.byo_yomi, self.stones)
        return Clock(self.main, 0)


@dataclass
class Clock:
    seconds: float
    stones: int = 0   # byo-yomi: Canadian stones owed, Japanese periods left; 0 = main time

    def spend(self, elapsed: float, settings: TimeSettings):
        """Account for one move that took ``elapsed`` seconds (between ``time_left``
        readings, which overwrite whatever this estimated).  A clock that ran out shows
        ``seconds <= 0``."""
        if settings.unlimited:
            return
        self.seconds -= elapsed
        if self.stones == 0:
            if self.seconds > 0 or settings.stones == 0:
                return
            # main time ran out during the move: the overrun is charged to byo-yomi
            overrun = -self.seconds
            self.seconds, self.stones = settings.byo_yomi, (
                settings.periods if settings.japanese_byo_yomi else settings.stones)
            self.seconds -= overrun
            if settings.japanese_byo_yomi:
                self._japanese_period_end(settings)
                return
        elif settings.japanese_byo_yomi:
            self._japanese_period_end(settings)
            return
        self.stones -= 1
        if self.stones == 0 and self.seconds > 0:
            self.seconds, self.stones = settings.byo_yomi, settings.stones

    def _japanese_period_end(self, settings: TimeSettings):
        """A move ended with ``seconds`` left of the current period (negative: overrun):
        every period overrun is gone; the one the move ended in is whole again."""
        while self.seconds <= 0 and self.stones > 0:
            self.stones -= 1
            if self.stones > 0:
                self.seconds += settings.byo_yomi
        if self.stones > 0:
            self.seconds = settings.byo_yomi


def typical_game_moves(board_points: int) -> float:
    """Moves of both players in a typical game on a board of ``board_points`` points."""
    return GAME_MOVES_PER_POINT * board_points + GAME_MOVES_FIXED


def expected_moves_left(board_points: int, moves_played: int) -> float:
    """How many more moves one player expects to make, ``moves_played`` moves (both
    players) into a game on ``board_points`` points."""
    own_total = typical_game_moves(board_points) / 2
    return max(MIN_MOVES_LEFT, own_total - moves_played / 2, TAIL_FRACTION * own_total)


def phase_weight(board_points: int, moves_played: int) -> float:
    """How much more (or less) than an equal share the move ``moves_played`` deserves."""
    phase = moves_played / typical_game_moves(board_points)
    for (x0, w0), (x1, w1) in zip(PHASE_WEIGHTS, PHASE_WEIGHTS[1:]):
        if phase <= x1:
            return w0 + (w1 - w0) * (phase - x0) / (x1 - x0)
    return PHASE_WEIGHTS[-1][1]


def _keep_margin(available: float) -> float:
    return max(MIN_SECONDS, available - FIXED_MARGIN - RELATIVE_MARGIN * available)


def time_saved_is_lost(settings: TimeSettings, clock: Clock) -> bool:
    """Whether seconds the next move leaves unspent are gone rather than kept for later
    moves: in a byo-yomi period that starts again after the move (Japanese, or Canadian
    with this the period's last stone)."""
    if settings.unlimited or clock.stones == 0:
        return False
    return settings.japanese_byo_yomi or clock.stones == 1


def allocate(settings: TimeSettings, clock: Clock, board_points: int,
             moves_played: int) -> float | None:
    """Seconds to spend on the next move, or None when time is unlimited."""
    if settings.unlimited:
        return None
    if clock.stones > 0:
        if settings.japanese_byo_yomi:
            return _keep_margin(clock.seconds)
        return _keep_margin(clock.seconds / clock.stones)
    stone = settings.byo_yomi / settings.stones if settings.stones > 0 else 0.0
    main = max(clock.seconds, 0.0)
    share = (main / expected_moves_left(board_points, moves_played)
             * phase_weight(board_points, moves_played))
    return _keep_margin(share + BYO_YOMI_SHARE * stone)
