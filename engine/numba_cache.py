"""Where numba may keep the compiled kernels.  numba caches a ``cache=True`` kernel next to
its module (``__pycache__``), else in the user's cache folder (``~/.cache/numba``), and
refuses to even define the kernel -- so the package cannot be imported -- when neither can
be written: a read-only install run with a read-only HOME (a container, a shared system
install).  ``use_writable_cache_dir``, run when ``engine`` is imported, then points numba
at a per-user folder under the system's temporary directory, with a one-line warning.  An
explicit ``NUMBA_CACHE_DIR`` is always left alone.

numba judges a cached kernel fresh when its own source file is unchanged, but our kernels
call and inline kernels of other modules: after an edit or an upgrade of ``game.py`` a
search kernel of ``tree_search.py`` would load with the old rules compiled into it.
``stamp_kernels_with_the_package`` makes the freshness stamp of every kernel of the
package its own file's stamp plus the digest of the package (``engine.source_digest``)
less its front ends, so a change of any code a kernel may compile in recompiles every
kernel, in the same folders numba would have chosen, while an edit of the GTP layer costs
no compile.
"""

import os
import sys
import tempfile
from pathlib import Path

from numba.core import caching

from .source_digest import PACKAGE, package_digest

KERNEL_PACKAGES = ("core", "search", "bandits", "mdp")   # the folders holding cache=True kernels
# subpackages that hold no kernel and that no kernel imports a value from (a test checks
# the first half)
FRONT_ENDS = ("gtp", "pbrain", "match", "tsumego")


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def user_cache_dir(environ) -> Path:
    """numba's user-wide cache folder (its ``appdirs`` rule on Linux)."""
    base = environ.get("XDG_CACHE_HOME") or os.path.join(environ.get("HOME", "~"), ".cache")
    return Path(os.path.expanduser(base)) / "numba"


def fallback_cache_dir(package: Path, environ=os.environ) -> Path | None:
    """The folder to use instead of numba's choices, or None when they work."""
    if environ.get("NUMBA_CACHE_DIR"):
        return None
    kernels = [package / name for name in KERNEL_PACKAGES if (package / name).is_dir()]
    if all(_writable(folder / "__pycache__") for folder in kernels or [package]):
        return None
    if _writable(user_cache_dir(environ)):
        return None
    return Path(tempfile.gettempdir()) / f"nakade-numba-cache-{os.getuid()}"


def use_writable_cache_dir(package: Path, environ=os.environ):
    folder = fallback_cache_dir(package, environ)
    if folder is None:
        return
    environ["NUMBA_CACHE_DIR"] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:   # numba already imported: its config read the env
        numba_config.CACHE_DIR = str(folder)
    try:
        print(f"nakade: warning: neither the package folder nor {user_cache_dir(environ)} "
              f"is writable; compiled kernels are cached in {folder} (set NUMBA_CACHE_DIR "
              f"to choose)", file=sys.stderr)
    except Exception:  # noqa: BLE001 -- stderr closed: the warning is lost, not the import
        pass


# numba's implementation of ``cache=True`` (named ``_CacheImpl`` before numba 0.61): the
# locators it tries, in order, for a kernel's cache folder and freshness stamp
_PACKAGE_PATH = PACKAGE.resolve()
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")


class PackageStampLocator(caching._CacheLocator):
    """The locator numba would use for a kernel of the package, its freshness stamp widened
    to the whole package.  numba documents a stamp as any picklable object and treats an
    index with another stamp as empty, to be overwritten."""

    _fallbacks: tuple = ()   # numba's own locators, set when this one is installed

    def __init__(self, inner):
        self._inner = inner
        self._py_file = inner._py_file   # numba's warnings name the kernel's file by it

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_PACKAGE_PATH):
            return None
        for fallback in cls._fallbacks:
            inner = fallback.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), package_digest(FRONT_ENDS))

    def get_disambiguator(self):
        return self._inner.get_disambiguator()


def stamp_kernels_with_the_package():
    """Put ``PackageStampLocator`` first in numba's list, once."""
    standard = [c for c in _CACHE_IMPL._locator_classes if c is not PackageStampLocator]
    PackageStampLocator._fallbacks = tuple(standard)
    _CACHE_IMPL._locator_classes = [PackageStampLocator, *standard]
