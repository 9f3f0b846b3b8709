"""Threat-space search at the root, in front of any back end: in a Gobang position, a win by
continuous fours for the side to move (``engine.core.gobang_vcf``, an immediate five
included) is played at once, without a playout; otherwise the back end searches as usual.

Options (``ThreatOptions``), accepted beside every back end's own:
  vcf        0/1: look for a VCF before searching (default 0, the plain back end of the
             papers; the ``strong`` preset turns it on for Gobang; Go ignores it)
  vcf_depth  the most fours in a line (default 12)
  vcf_nodes  the most fours tried in all (default 20000: a few milliseconds on 15x15)
The answer carries the line as its principal variation and ``proven = 1``.
"""

import time
from dataclasses import dataclass, fields

import numpy as np

from ..core.gobang_vcf import find_vcf
from .base import Candidate, SearchResult
from .options import as_dict, option, set_option


@dataclass
class ThreatOptions:
    vcf: bool = option(False)
    vcf_depth: int = option(12, 1, 100)
    vcf_nodes: int = option(20_000, 1, 100_000_000)


OPTION_NAMES = frozenset(f.name for f in fields(ThreatOptions))


def vcf_line(state, depth: int, nodes: int) -> list[int]:
    """The shortest VCF of the side to move in a Gobang ``state`` (``gobang_vcf.find_vcf``'s
    line), or [] when none is proven within ``depth`` fours and ``nodes`` fours tried in
    all.  Iterative deepening: the shortest win is the surest to play and costs little
    more, each depth trying a small multiple of the fours of the one before."""
    line = np.zeros(2 * depth + 3, dtype=np.int32)
    left = nodes
    for d in range(1, depth + 1):
        move, length, tried = find_vcf(state.s, state.meta, state.to_play, d, left, line)
        if move >= 0:
            return [int(p) for p in line[:length]]
        left -= tried
        if left <= 0:
            break
    return []


class ThreatsFirst:
    """A back end (``inner``) with the root VCF of the module docstring in front of it;
    everything else is the back end's."""

    def __init__(self, inner, options: dict[str, str] | None = None):
        self.inner = inner
        self.threat_params = ThreatOptions()
        for key, value in (options or {}).items():
            set_option(self.threat_params, inner.name, key, value)

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def set_option(self, key: str, value: str):
        if key in OPTION_NAMES:
            set_option(self.threat_params, self.inner.name, key, value)
        else:
            self.inner.set_option(key, value)

    def options(self) -> dict:
        return {**self.inner.options(), **as_dict(self.threat_params)}

    def search(self, state, budget, stop=None, progress=None, allowed=None,
               **extra) -> SearchResult:
        """``extra``: what the back end's own search takes beyond the contract (a
        tsumego's ``target`` for the back ends that read fights), passed on."""
        if self.threat_params.vcf and state.game == "gobang" and not state.is_terminal():
            t0 = time.perf_counter()
            line = vcf_line(state, self.threat_params.vcf_depth, self.threat_params.vcf_nodes)
            if line and (allowed is None or allowed[line[0]]):
                return SearchResult(move=line[0], winrate=1.0, playouts=0,
                                    seconds=time.perf_counter() - t0,
                                    candidates=[Candidate(move=line[0], visits=0, winrate=1.0,
                                                          pv=line, proven=1)])
        return self.inner.search(state, budget, stop=stop, progress=progress, allowed=allowed,
                                 **extra)
