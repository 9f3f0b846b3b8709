"""Our problem collection (``problems/go``, ``problems/gobang``) as compact definitions
(``spec`` says how one is drawn): ``go_shapes`` and ``go_problems`` the Go problems,
``gobang_problems`` the Gobang ones, ``verify`` the check of every answer against the
readers of ``engine.tsumego.oracle`` and ``gobang_oracle``.
``scripts/research/make_tsumego_problems.py`` is its command line."""

from pathlib import Path

from .go_problems import GO
from .gobang_problems import GOBANG
from .spec import write


def write_collection(root: Path, only: str | None = None):
    """Write the definitions whose name contains ``only`` (all without it) under ``root``:
    Go problems in ``go/NxN``, Gobang ones in ``gobang``.  Returns the Go files and the
    (definition, file) pairs of the Gobang ones."""
    names = [spec["name"] for spec in GO + GOBANG]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise ValueError(f"duplicate problem names: {sorted(dupes)}")
    go_files = []
    for spec in GO:
        if not only or only in spec["name"]:
            folder = root / "go" / f"{spec['size']}x{spec['size']}"
            folder.mkdir(parents=True, exist_ok=True)
            go_files.append(write(spec, folder))
    gobang_files = []
    for spec in GOBANG:
        if not only or only in spec["name"]:
            (root / "gobang").mkdir(parents=True, exist_ok=True)
            gobang_files.append((spec, write(spec, root / "gobang")))
    return go_files, gobang_files
