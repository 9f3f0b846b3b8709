"""The learned pattern weights file (``engine/data/go_patterns.txt`` by default): read,
write (``save`` takes any model with the attributes of ``engine.patterns.mm.Model``) and turn
into the vector the kernels take (``core.elo_policy``).

Format (text; a ``#`` standing alone as a word starts a comment): ``version 1``;
``prior_games N`` and ``prior_scale S`` (a tree prior's even games and the scale of its won
games, ``engine.search.go_priors``); ``ladder_nodes N`` (the ladder reading cap); then
``[groups]`` with one line per feature group, ``NAME GAMMA...`` (level 1 first, as
``core.move_features``; a group the file lacks has gammas 1), then ``[patterns]`` with
``PATTERN GAMMA`` lines, a pattern written as its three rows joined by ``/`` from the mover's
view (``X`` the mover, ``O`` the opponent, ``#`` off the board), any one of its 8 orientations. A pattern missing from the file has gamma 1.
An optional ``[spatial]`` section follows with ``HASH GAMMA`` lines: a large diamond
pattern by its hash (``core.spatial``, 16 hex digits); a move takes the gamma of the
largest of its diamonds listed (none listed: gamma 1).
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.elo_policy import (E_LADDER_NODES, E_PAT, E_PRIOR_GAMES, E_PRIOR_SCALE, ELO_LEN,
                               GROUP_AT, Elo)
from ..core.layout import BLACK, OFFBOARD, WHITE
from ..core.move_features import GROUP_NAMES, LEVELS
from ..core.patterns3 import N_CODES
from .symmetry import CANON

BUILTIN = "builtin"
DEFAULT_PATH = Path(__file__).parent.parent / "data" / "go_patterns.txt"
# weights shipped with the package, by name: fitted on GNU Go self-play, on tsumego answers,
# and on the Tygem 9-dan games (19x19)
NAMED = {BUILTIN: DEFAULT_PATH, "tsumego": DEFAULT_PATH.with_name("tsumego_patterns.txt"),
         "tygem": DEFAULT_PATH.with_name("tygem_patterns.txt")}
VERSION = 1
# a file's priors when it names none: Pachi's on 9x9 (its even 14 games, pattern 210)
PRIOR_GAMES, PRIOR_SCALE = 14.0, 210.0
_CH = ".XO#"
_COMMENT = re.compile(r"(?:^|\s)#(?:\s|$)")   # a lone ``#``: ``###`` is a pattern's edge
_ORDER = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


class WeightsError(ValueError):
    pass


@dataclass(frozen=True)
class EloWeights:
    path: str
    prior_games: float
    prior_scale: float
    ladder_nodes: int
    groups: tuple            # one float64 array of gammas per group
    patterns: dict           # canonical mover code -> gamma
    spatial: dict            # diamond hash (int64) -> gamma


def pattern_text(c: int) -> str:
    grid = [["."] * 3 for _ in range(3)]
    for i, (r, col) in enumerate(_ORDER):
        grid[r][col] = _CH[(c >> (2 * i)) & 3]
    return "/".join("".join(row) for row in grid)


def pattern_code(text: str) -> int:
    rows = text.split("/")
    if len(rows) != 3 or any(len(r) != 3 for r in rows) or rows[1][1] != "." or \
            any(ch not in _CH for r in rows for ch in r):
        raise ValueError(f"not a 3x3 pattern: {text!r}")
    return sum(_CH.index(rows[r][col]) << (2 * i) for i, (r, col) in enumerate(_ORDER))


def save(path, model, prior_games: float, prior_scale: float, ladder_nodes: int,
         header: str) -> None:
    lines = [f"# {h}" for h in header.splitlines()]
    lines += [f"version {VERSION}", f"prior_games {prior_games:g}",
              f"prior_scale {prior_scale:g}", f"ladder_nodes {ladder_nodes}", "", "[groups]"]
    for name, g in zip(GROUP_NAMES, model.groups):
        lines.append(f"{name} " + " ".join(f"{x:.4g}" for x in g))
    lines += ["", "[patterns]"]
    order = np.argsort(-model.pattern_gamma)
    lines += [f"{pattern_text(int(model.codes[i]))} {model.pattern_gamma[i]:.4g}"
              for i in order]
    if len(model.spatial_keys):
        lines += ["", "[spatial]"]
        lines += [f"{int(h) & (2**64 - 1):016x} {g:.4g}"
                  for h, g in zip(model.spatial_keys, model.spatial_gamma)]
    Path(path).write_text("\n".join(lines) + "\n")


def hash_of(text: str) -> int:
    """A ``[spatial]`` line's hash as the int64 the kernels compute."""
    h = int(text, 16)
    if len(text) != 16 or not 0 <= h < 2**64:
        raise ValueError(f"not a 16-digit hash: {text!r}")
    return h - 2**64 if h >= 2**63 else h


@functools.lru_cache(maxsize=4)
def load(path: str | None = None) -> EloWeights:
    file = DEFAULT_PATH if path in (None, "") else NAMED.get(path, Path(path))
    try:
        text = file.read_text()
    except OSError as e:
        raise WeightsError(f"cannot read pattern weights {file}: {e.strerror}") from None
    head: dict = {}
    groups: dict = {}
    patterns: dict = {}
    spatial: dict = {}
    section = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.split(raw, 1)[0].strip()
        if not line:
            continue
        where = f"{file}:{number}"
        if line in ("[groups]", "[patterns]", "[spatial]"):
            section = line
            continue
        words = line.split()
        try:
            if section is None and len(words) == 2:
                head[words[0]] = float(words[1])
            elif section == "[groups]" and words[0] in GROUP_NAMES:
                groups[words[0]] = np.array([float(x) for x in words[1:]])
            elif section == "[patterns]" and len(words) == 2:
                patterns[int(CANON[pattern_code(words[0])])] = float(words[1])
            elif section == "[spatial]" and len(words) == 2:
                spatial[hash_of(words[0])] = float(words[1])
            else:
                raise ValueError(f"cannot read {line!r}")
        except ValueError as e:
            raise WeightsError(f"{where}: {e}") from None
    if head.get("version") != VERSION:
        raise WeightsError(f"{file}: version {VERSION} expected")
    for name, levels in zip(GROUP_NAMES, LEVELS):
        groups.setdefault(name, np.ones(levels))   # a group newer than the file: gamma 1
        if len(groups[name]) != levels:
            raise WeightsError(f"{file}: group {name} needs {levels} gammas")
    values = ([g for gs in groups.values() for g in gs] + list(patterns.values())
              + list(spatial.values()))
    if not all(np.isfinite(v) and v > 0 for v in values):
        raise WeightsError(f"{file}: every gamma must be a finite number > 0")
    return EloWeights(str(file), head.get("prior_games", PRIOR_GAMES),
                      head.get("prior_scale", PRIOR_SCALE),
                      int(head.get("ladder_nodes", 100)),
                      tuple(groups[n] for n in GROUP_NAMES), patterns, spatial)


@functools.lru_cache(maxsize=4)
def policy_vector(path: str | None = None) -> np.ndarray:
    """The float64 vector of ``core.elo_policy`` for the weights at ``path``."""
    wt = load(path)
    v = np.ones(ELO_LEN)
    v[E_PRIOR_GAMES] = wt.prior_games
    v[E_PRIOR_SCALE] = wt.prior_scale
    v[E_LADDER_NODES] = wt.ladder_nodes
    for k, g in enumerate(wt.groups):
        v[GROUP_AT[k]:GROUP_AT[k] + len(g)] = g
    gamma = np.ones(N_CODES)
    for c, g in wt.patterns.items():
        gamma[c] = g
    codes = np.arange(N_CODES)
    v[E_PAT:E_PAT + N_CODES] = gamma[CANON[codes]]
    cells = [(codes >> (2 * i)) & 3 for i in range(8)]
    white = sum(np.where((c == 1) | (c == 2), 3 - c, c) << (2 * i)
                for i, c in enumerate(cells))   # ``move_features.mover_code`` for WHITE
    v[E_PAT + N_CODES:] = gamma[CANON[white]]
    # the mover's own eyes (``go_kernels.is_eye`` reads only the 3x3) are never drawn
    for colour, at in ((BLACK, E_PAT), (WHITE, E_PAT + N_CODES)):
        v[at:at + N_CODES][_own_eye(cells, colour)] = 0.0
    return v


@functools.lru_cache(maxsize=4)
def elo(path: str | None = None) -> Elo:
    """The weights at ``path`` as the kernels take them: the vector of ``policy_vector``
    and the diamonds, hashes sorted."""
    wt = load(path)
    keys = np.array(sorted(wt.spatial), dtype=np.int64)
    return Elo(policy_vector(path), keys, np.array([wt.spatial[int(h)] for h in keys]))


def _own_eye(cells, colour) -> np.ndarray:
    sides = np.all([(cells[i] == colour) | (cells[i] == OFFBOARD) for i in (1, 3, 4, 6)],
                   axis=0)
    bad = sum((cells[i] == 3 - colour).astype(int) for i in (0, 2, 5, 7))
    edge = np.any([cells[i] == OFFBOARD for i in (0, 2, 5, 7)], axis=0)
    return sides & (bad + edge < 2)
