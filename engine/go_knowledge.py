"""The Go knowledge file (``engine/data/go_knowledge.txt`` by default): the heavy playout
policy's probabilities, the tree's prior weights and the 3x3 patterns, read into the flat
arrays the kernels take.

Format: ``[playout]``, ``[prior]`` and ``[patterns]`` sections; a ``#`` standing alone as a
word starts a comment (``###`` is a pattern row: the edge of the board).
``[playout]`` lines are ``NAME VALUE`` (names: ``go_policy`` parameters), ``[prior]``
lines ``NAME GAMES WINS`` (names: ``go_priors`` features), ``[patterns]`` holds blocks of
``pattern NAME WEIGHT`` followed by three rows (``patterns3``).  Every name must be given
exactly once, except the playout values of ``_PLAYOUT_DEFAULTS``; a fault raises
``KnowledgeError`` with the file and line.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .core import go_policy, patterns3

BUILTIN = "builtin"
DEFAULT_PATH = Path(__file__).parent / "data" / "go_knowledge.txt"

# the prior features, in the order of the prior weights array (``search.go_priors``)
PRIOR_FEATURES = {name: i for i, name in enumerate(
    ("even", "capture", "capture_many", "escape", "pattern", "selfatari", "near1", "near2",
     "near3", "empty_low", "empty_third"))}
(EVEN, CAPTURE, CAPTURE_MANY, ESCAPE, PATTERN, SELFATARI, NEAR1, NEAR2, NEAR3, EMPTY_LOW,
 EMPTY_THIRD) = range(len(PRIOR_FEATURES))

_PLAYOUT = {"atari": go_policy.P_ATARI, "pattern": go_policy.P_PATTERN,
            "selfatari": go_policy.P_SELFATARI,
            "selfatari_stones": go_policy.SELFATARI_STONES,
            "ladder_nodes": go_policy.LADDER_NODES, "nakade": go_policy.P_NAKADE,
            "eye_reply": go_policy.P_EYE_REPLY, "own_space": go_policy.P_OWN_SPACE,
            "two_libs": go_policy.P_TWO_LIBS,
            "selfatari_nakade": go_policy.SELFATARI_NAKADE, "pattern2": go_policy.PATTERN2,
            "capture2": go_policy.P_CAPTURE2}
# playout values a file may leave out, with the value they then take (files written before
# the value existed read as they did)
_PLAYOUT_DEFAULTS = {"nakade": 0.0, "eye_reply": 0.0, "own_space": 0.0, "two_libs": 0.0,
                     "selfatari_nakade": 0.0, "pattern2": 0.0,
                     "capture2": 0.0}

_COMMENT = re.compile(r"(?:^|\s)#(?:\s|$)")


class KnowledgeError(ValueError):
    pass


@dataclass(frozen=True)
class GoKnowledge:
    path: str
    playout: np.ndarray     # float64[go_policy.N_PARAMS]
    prior: np.ndarray       # float64[2 * len(PRIOR_FEATURES)]: games, wins per feature
    patterns: np.ndarray    # uint8[patterns3.N_CODES]: weight of the matching pattern


def _lines(path: Path):
    try:
        text = path.read_text()
    except OSError as e:
        raise KnowledgeError(f"cannot read knowledge file {path}: {e.strerror}") from None
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.split(raw, 1)[0].strip()
        if line:
            yield number, line


def _number(where: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise KnowledgeError(f"{where}: {text!r} is not a number") from None
    if not np.isfinite(value) or value < 0:
        raise KnowledgeError(f"{where}: {text!r} must be a finite number >= 0")
    return value


@functools.lru_cache(maxsize=8)
def load(path: str | None = None) -> GoKnowledge:
    """Read and check a knowledge file (the built-in one for ``builtin`` or nothing)."""
    file = DEFAULT_PATH if path in (None, "", BUILTIN) else Path(path)
    playout = np.full(go_policy.N_PARAMS, np.nan)
    prior = np.full(2 * len(PRIOR_FEATURES), np.nan)
    patterns: list[tuple[list[str], int]] = []
    section = None
    pending: tuple[str, list[str], int] | None = None
    for number, line in _lines(file):
        where = f"{file}:{number}"
        if line.startswith("["):
            section = line.strip("[]")
            if section not in ("playout", "prior", "patterns"):
                raise KnowledgeError(f"{where}: unknown section {line}")
            continue
        words = line.split()
        if section == "playout" and len(words) == 2 and words[0] in _PLAYOUT:
            k = _PLAYOUT[words[0]]
            if not np.isnan(playout[k]):
                raise KnowledgeError(f"{where}: {words[0]} given twice")
            playout[k] = _number(where, words[1])
        elif section == "prior" and len(words) == 3 and words[0] in PRIOR_FEATURES:
            k = PRIOR_FEATURES[words[0]]
            games, wins = _number(where, words[1]), _number(where, words[2])
            if wins > games:
                raise KnowledgeError(f"{where}: {words[0]} has more wins than games")
            if not np.isnan(prior[2 * k]):
                raise KnowledgeError(f"{where}: {words[0]} given twice")
            prior[2 * k], prior[2 * k + 1] = games, wins
        elif section == "patterns" and words[0] == "pattern" and pending is None:
            if len(words) != 3 or not words[2].isdigit():
                raise KnowledgeError(f"{where}: expected 'pattern NAME WEIGHT'")
            pending = (where, [], int(words[2]))
        elif section == "patterns" and pending is not None:
            pending[1].append(line)
            if len(pending[1]) == 3:
                patterns.append((pending[1], pending[2]))
                try:
                    patterns3.parse(pending[1])
                except ValueError as e:
                    raise KnowledgeError(f"{pending[0]}: {e}") from None
                pending = None
        else:
            raise KnowledgeError(f"{where}: cannot read {line!r} in section [{section}]")
    if pending is not None:
        raise KnowledgeError(f"{pending[0]}: the pattern has fewer than 3 rows")
    for name, value in _PLAYOUT_DEFAULTS.items():
        if np.isnan(playout[_PLAYOUT[name]]):
            playout[_PLAYOUT[name]] = value
    missing = [n for n, k in _PLAYOUT.items() if np.isnan(playout[k])]
    missing += [n for n, k in PRIOR_FEATURES.items() if np.isnan(prior[2 * k])]
    if missing:
        raise KnowledgeError(f"{file}: missing {', '.join(missing)}")
    for name in ("atari", "pattern", "selfatari", "nakade", "eye_reply", "own_space",
                 "two_libs", "capture2"):
        if playout[_PLAYOUT[name]] > 1:
            raise KnowledgeError(f"{file}: {name} is a probability, at most 1")
    try:
        table = patterns3.expand(patterns)
    except ValueError as e:
        raise KnowledgeError(f"{file}: {e}") from None
    return GoKnowledge(str(file), playout, prior, table)
