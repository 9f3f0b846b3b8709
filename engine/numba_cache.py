"""Where numba may keep the compiled kernels.  numba caches a ``cache=True`` kernel next to
its module (``__pycache__``), else in the user's cache folder (``~/.cache/numba``), and
refuses to even define the kernel -- so the package cannot be imported -- when neither can
be written: a read-only install run with a read-only HOME (a container, a shared system
install).  ``use_writable_cache_dir``, run when ``engine`` is imported, then points numba
at a per-user folder under the system's temporary directory, with a one-line warning.  An
explicit ``NUMBA_CACHE_DIR`` is always left alone.
"""

import os
import sys
import tempfile
from pathlib import Path

KERNEL_PACKAGES = ("core", "search", "bandits")   # the folders holding cache=True kernels


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
