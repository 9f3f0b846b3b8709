"""What the manager's INFO lines say, and what follows from it: the rule, the seconds one
move may take, and how many search nodes fit in the memory limit.  No I/O here.

Time (milliseconds on the wire): ``timeout_turn`` bounds every move (0: play as fast as
possible), ``timeout_match`` the whole game (0: no limit), ``time_left`` is what remains of
it, sent before every move (2147483647: no limit).  A move's budget is the smaller of the
turn limit and a share of the match time, each less ``engine.timecontrol``'s safety margin
for the reply and scheduling (``with_margin``).  The share is the time left over
``own_moves_left``: Gomoku games end in a few dozen moves, where ``timecontrol``'s
estimate, made for Go by board size, would plan for hundreds on 20x20 and leave most of the
match time unused.  Between two ``time_left`` readings the brain charges its own moves to
its estimate.  Without any time INFO a move gets ``DEFAULT_TURN_SECONDS``.  When the
margin leaves less than ``QUICK_BELOW`` seconds (a turn limit under about 0.2 s, a match
clock run out) the move is made without a search: a search that short would not pay for
the deadline guard's grace.

Rules (INFO ``rule``, a bit mask): 1 exactly five, 2 continuous game, 4 renju, 8 caro.
``RULE_VARIANTS`` maps the masks to Gobang variants of ``engine.game.rules``; a variant the
rules do not define (yet) is refused with a reason, so renju turns on by itself once
``GOBANG_VARIANTS`` has it.

Memory (``max_memory``, bytes, 0: no limit) is applied by ``engine.pbrain.memory``: the
node pool gets what the process does not already hold, less a headroom.
"""

from dataclasses import dataclass

from ..game.rules import GOBANG_VARIANTS
from ..timecontrol import Clock, TimeSettings, allocate

NO_MATCH_LIMIT = 2147483647        # time_left when the match time is unlimited
DEFAULT_TURN_SECONDS = 5.0         # a move's time when the manager gives no limits
QUICK_BELOW = 0.1                  # seconds under which a move is not searched
EXACT5, CONTINUOUS, RENJU, CARO = 1, 2, 4, 8
RULE_VARIANTS = {0: "freestyle", EXACT5: "exact5", RENJU: "renju", RENJU | EXACT5: "renju"}
RULE_NAMES = {EXACT5: "exactly five", CONTINUOUS: "continuous game", RENJU: "renju",
              CARO: "caro"}
GAME_OWN_MOVES = 35                # own moves a game is planned to last
MIN_OWN_MOVES_LEFT = 10            # past that, each move takes a tenth of what is left
TIME_KEYS = ("timeout_turn", "timeout_match", "time_left")
INT_KEYS = TIME_KEYS + ("max_memory", "game_type", "rule")
LIMIT_KEYS = INT_KEYS + ("folder",)   # the protocol's own keys; a back-end option never shadows one


def own_moves_left(stones: int, empty_points: int) -> float:
    """The brain's moves still expected in a game with ``stones`` on the board."""
    return max(MIN_OWN_MOVES_LEFT, min(empty_points / 2, GAME_OWN_MOVES - stones / 2))


def with_margin(seconds: float) -> float:
    """``seconds`` less ``timecontrol``'s safety margin: its allocation of a byo-yomi period
    of one stone."""
    return allocate(TimeSettings.canadian(0.0, seconds, 1), Clock(seconds, 1), 0, 0)


def rule_variant(mask: int) -> str:
    """The Gobang variant of an INFO rule mask; ValueError saying why it is not played."""
    variant = RULE_VARIANTS.get(mask)
    if variant is None:
        bits = [name for bit, name in RULE_NAMES.items() if mask & bit]
        unknown = mask & ~sum(RULE_NAMES)
        what = " + ".join(bits + ([f"bits {unknown}"] if unknown else []))
        raise ValueError(f"rule {mask} ({what}) is not supported; supported: 0 (freestyle), "
                         f"1 (exactly five)" + (", 4 (renju)" if "renju" in GOBANG_VARIANTS
                                                else ""))
    if variant not in GOBANG_VARIANTS:
        raise ValueError(f"rule {mask} ({variant}) is not supported yet")
    return variant


@dataclass
class Limits:
    """The INFO values received so far (None: not sent)."""
    timeout_turn: int | None = None
    timeout_match: int | None = None
    time_left: int | None = None
    max_memory: int | None = None
    game_type: int | None = None
    rule: int | None = None
    folder: str | None = None

    def set(self, key: str, text: str):
        """Take one INFO line; ValueError for a bad value of a known key (unknown keys are
        ignored, as the protocol asks: ``evaluate`` and future ones)."""
        if key == "folder":
            self.folder = text
            return
        if key not in INT_KEYS:
            return
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"INFO {key} needs an integer, not {text!r}") from None
        if value < 0 and key != "time_left":   # time_left runs negative when it is out
            raise ValueError(f"INFO {key} must not be negative, not {value}")
        if key == "timeout_match" and self.time_left is None and value > 0:
            self.time_left = value   # until the manager sends its own reading
        setattr(self, key, value)

    def spend(self, seconds: float):
        """Charge one of our moves to the match clock estimate."""
        if self.time_left is not None and self.time_left != NO_MATCH_LIMIT:
            self.time_left -= int(seconds * 1000)

    def match_seconds_left(self) -> float | None:
        if self.timeout_match == 0 or self.time_left in (None, NO_MATCH_LIMIT):
            return None
        return self.time_left / 1000.0

    def move_seconds(self, moves_left: float, fixed: float | None = None) -> float:
        """Seconds the next move may search (0.0: answer without searching, as
        ``timeout_turn 0`` asks), before the time already gone since the command came;
        ``moves_left``: ``own_moves_left``; ``fixed``: the command line's own cap."""
        if self.timeout_turn == 0:
            return 0.0
        limits = [] if fixed is None else [fixed]
        if self.timeout_turn is not None:
            limits.append(with_margin(self.timeout_turn / 1000.0))
        left = self.match_seconds_left()
        if left is not None:
            limits.append(0.0 if left <= 0 else with_margin(left / moves_left))
        if self.timeout_turn is None and left is None and fixed is None:
            limits.append(DEFAULT_TURN_SECONDS)
        seconds = min(limits)
        return seconds if seconds >= QUICK_BELOW else 0.0

