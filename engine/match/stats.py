"""The statistics of a match: win rate with a Wilson score interval, the Elo difference with
its interval, per-colour tallies, and the summary of a results file.

Win rate counts a draw as half a win.  The Elo difference of a score rate ``p`` is
``400 log10(p / (1 - p))`` (the logistic model); its interval is the Wilson interval of ``p``
mapped through the same curve (monotone, so the bounds map to bounds).  A rate of 0 or 1
gives an infinite Elo difference: the games do not bound it.

``summarise`` reads result rows as the runner writes them (dicts): ``black`` and ``white``
are the labels ``"a"``/``"b"`` of the engines, ``winner`` is ``"a"``, ``"b"``, ``"draw"`` or
None (a void game, left out of the rates), ``reason`` how it ended, ``moves`` the game's
length, and ``seconds``, ``genmoves``, ``playouts`` per label (``playouts`` None when an
engine does not report them).
"""

import math
from collections import Counter
from dataclasses import dataclass, field

Z95 = 1.959963984540054   # two-sided 95% normal quantile
LABELS = ("a", "b")


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate; (0, 1) when there are no trials."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # at 0 and n successes the end is exactly 0 or 1; rounding would leave a crumb
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def elo_difference(rate: float) -> float:
    """Elo difference that makes ``rate`` the expected score; +-inf at 1 and 0."""
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return 400.0 * math.log10(rate / (1.0 - rate))


def elo_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(Elo difference, low, high) of a score of ``successes`` in ``n`` games."""
    low, high = wilson_interval(successes, n, z)
    rate = successes / n if n else 0.5
    return elo_difference(rate), elo_difference(low), elo_difference(high)


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws

    def add(self, other: "Tally") -> "Tally":
        return Tally(self.wins + other.wins, self.losses + other.losses,
                     self.draws + other.draws)

    def __str__(self) -> str:
        return f"{self.wins} W / {self.losses} L / {self.draws} D"


@dataclass
class EngineUsage:
    """One engine's effort over the match."""
    seconds: float = 0.0
    genmoves: int = 0
    playouts: int = 0
    playout_moves: int = 0   # genmoves whose playouts were reported

    @property
    def seconds_per_move(self) -> float | None:
        return self.seconds / self.genmoves if self.genmoves else None

    @property
    def playouts_per_move(self) -> float | None:
        return self.playouts / self.playout_moves if self.playout_moves else None


@dataclass
class Summary:
    """Engine A's results against engine B."""
    names: dict                                         # label -> display name
    as_black: Tally = field(default_factory=Tally)      # A's games with black
    as_white: Tally = field(default_factory=Tally)      # A's games with white
    void: int = 0
    reasons: Counter = field(default_factory=Counter)
    moves: int = 0                                      # moves of the counted games
    usage: dict = field(default_factory=lambda: {k: EngineUsage() for k in LABELS})

    @property
    def total(self) -> Tally:
        return self.as_black.add(self.as_white)

    @property
    def win_rate(self) -> float | None:
        t = self.total
        return t.score / t.games if t.games else None

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.total.score, self.total.games)

    def elo(self) -> tuple[float, float, float]:
        return elo_interval(self.total.score, self.total.games)


def summarise(rows, names: dict) -> Summary:
    """The Summary of result rows (see the module docstring); ``names`` maps the labels
    "a" and "b" to display names."""
    s = Summary(names=dict(names))
    for row in rows:
        s.reasons[row["reason"]] += 1
        if row["winner"] is None:
            s.void += 1
            continue
        tally = s.as_black if row["black"] == "a" else s.as_white
        if row["winner"] == "draw":
            tally.draws += 1
        elif row["winner"] == "a":
            tally.wins += 1
        else:
            tally.losses += 1
        s.moves += row["moves"]
        for label in LABELS:
            u = s.usage[label]
            u.seconds += row["seconds"][label]
            u.genmoves += row["genmoves"][label]
            if row["playouts"][label] is not None:
                u.playouts += row["playouts"][label]
                u.playout_moves += row["genmoves"][label]
    return s


def _elo_text(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def format_summary(s: Summary) -> str:
    """A plain-text report of ``s``."""
    a, b = s.names["a"], s.names["b"]
    t = s.total
    lines = [f"A = {a}", f"B = {b}",
             f"games: {t.games} counted, {s.void} void"]
    if t.games:
        low, high = s.interval()
        elo, elo_low, elo_high = s.elo()
        lines += [
            f"A as black: {s.as_black}    A as white: {s.as_white}    total: {t}",
            f"A win rate: {100 * s.win_rate:.1f}%  (95% Wilson interval "
            f"{100 * low:.1f}% .. {100 * high:.1f}%; a draw counts half)",
            f"Elo A - B: {_elo_text(elo)}  (95% interval {_elo_text(elo_low)} .. "
            f"{_elo_text(elo_high)})",
            f"black won {s.as_black.wins + s.as_white.losses}, white won "
            f"{s.as_white.wins + s.as_black.losses}, drawn {t.draws}",
            f"average game length: {s.moves / t.games:.1f} moves"]
    if s.reasons:
        lines.append("endings: " + ", ".join(f"{r} {n}" for r, n in sorted(s.reasons.items())))
    for label, name in (("a", "A"), ("b", "B")):
        u = s.usage[label]
        if u.genmoves:
            text = f"{name}: {u.seconds_per_move:.3f} s per move over {u.genmoves} moves"
            if u.playouts_per_move is not None:
                text += f", {u.playouts_per_move:.0f} playouts per move"
            lines.append(text)
    return "\n".join(lines)
