"""Tuning the heavy playouts' ``[playout]`` values for reading Go problems: coordinate
ascent on the mean rank score of ``engine.tsumego.playout_reading`` (how the playouts
alone rank each problem's answers among its moves).  Each round tries, value by value,
every parameter of ``GRID`` with the others held, and keeps a value when it raises the
score; every file tried is written to the output folder (``trial-NNN.txt``: the knowledge
loader keeps files by path) and the best to ``best.txt``.  The research driver is
``scripts/research/tune_playouts.py``.
"""

import re
from pathlib import Path

from ..go_knowledge import load
from .playout_reading import means, read_problems

# the values tried for each [playout] entry
GRID = {
    "atari": (0.25, 0.5, 0.75, 0.9, 1.0),
    "pattern": (0.0, 0.25, 0.5, 0.75, 0.9, 1.0),
    "selfatari": (0.5, 0.75, 0.9, 1.0),
    "selfatari_stones": (1, 2, 3),
    "nakade": (0.0, 0.5, 1.0),
    "eye_reply": (0.0, 0.5, 1.0),
    "own_space": (0.0, 0.5, 1.0),
}


def with_values(text: str, values: dict) -> str:
    """The knowledge file ``text`` with the ``[playout]`` entries of ``values`` set (the
    ``[prior]`` section has names of its own that are left alone)."""
    start = text.find("[playout]")
    if start < 0:
        raise ValueError("the start file has no [playout] section")
    end = text.find("\n[", start)
    end = len(text) if end < 0 else end
    section = text[start:end]
    for name, value in values.items():
        line = re.compile(rf"^{name}\s+\S+", re.M)
        if not line.search(section):
            raise ValueError(f"the start file has no [playout] entry {name}")
        section = line.sub(f"{name} {value}", section, count=1)
    return text[:start] + section + text[end:]


class Tuner:
    def __init__(self, problems, start: str, out: Path, playouts: int, seed: int):
        self.problems, self.out, self.playouts, self.seed = problems, out, playouts, seed
        self.text = Path(load(start).path).read_text()
        self.values: dict = {}
        self.trials: list = []

    def score(self, values: dict) -> tuple[float, int]:
        """(mean rank score, answers on top) of the start file with ``values`` set; a
        set of values already tried is not read again."""
        for tried, result in self.trials:
            if tried == values:
                return result
        path = self.out / f"trial-{len(self.trials):03d}.txt"
        path.write_text(with_values(self.text, values))
        m = means(read_problems(self.problems, str(path), self.playouts, self.seed))
        result = (m.rank_score, m.on_top)
        self.trials.append((dict(values), result))
        return result

    def run(self, rounds: int) -> tuple[dict, tuple[float, int]]:
        best = self.score({})
        for _ in range(rounds):
            for name, grid in GRID.items():
                for value in grid:
                    trial = {**self.values, name: value}
                    if trial == self.values:
                        continue
                    result = self.score(trial)
                    if result > best:
                        best, self.values = result, trial
        (self.out / "best.txt").write_text(with_values(self.text, self.values))
        return self.values, best
