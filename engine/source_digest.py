"""A digest of the ``engine`` package's sources and data, computed once per process: what
results rows record as the code that made them (``engine.results_store.code_version``) and
what numba's cache checks its compiled kernels against (``engine.numba_cache``)."""

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).parent
COMPILED = (".pyc", ".nbi", ".nbc")


@lru_cache(maxsize=2)
def package_digest(skip: tuple[str, ...] = ()) -> str:
    """12 hex digits over every file of the package but the compiled caches and the
    subpackages named in ``skip`` (a few ms)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        parts = path.relative_to(PACKAGE).parts
        if (path.is_file() and "__pycache__" not in parts and path.suffix not in COMPILED
                and parts[0] not in skip):
            digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
