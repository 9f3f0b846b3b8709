"""A read-only install with a read-only HOME still imports (engine.numba_cache): numba is
pointed at a temporary cache folder, with a warning."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from engine.numba_cache import fallback_cache_dir, use_writable_cache_dir

ROOT = Path(__file__).resolve().parent.parent


def read_only_copy(tmp_path: Path) -> Path:
    """A copy of the package where no ``__pycache__`` can be made (a file sits there:
    the tests run as any user, root included, so permissions cannot be relied on)."""
    copy = tmp_path / "install"
    shutil.copytree(ROOT / "engine", copy / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    for folder in [copy / "engine", *(p for p in (copy / "engine").rglob("*") if p.is_dir())]:
        (folder / "__pycache__").write_text("")
    return copy


def test_the_fallback_is_chosen_only_when_nothing_else_is_writable(tmp_path):
    copy = read_only_copy(tmp_path)
    (tmp_path / "home").write_text("")       # a HOME where nothing can be made
    blocked = {"HOME": str(tmp_path / "home")}
    assert fallback_cache_dir(copy / "engine", blocked).name.startswith("nakade-numba-cache-")
    assert fallback_cache_dir(copy / "engine", {"HOME": str(tmp_path)}) is None
    assert fallback_cache_dir(ROOT / "engine", blocked) is None
    assert fallback_cache_dir(copy / "engine", {**blocked, "NUMBA_CACHE_DIR": "/x"}) is None
    environ = dict(blocked)
    use_writable_cache_dir(copy / "engine", environ)
    assert environ["NUMBA_CACHE_DIR"].startswith(os.path.join(os.sep, "tmp")) or \
        "nakade-numba-cache-" in environ["NUMBA_CACHE_DIR"]


def test_a_read_only_install_with_a_read_only_home_imports_with_a_warning(tmp_path):
    copy = read_only_copy(tmp_path)
    (tmp_path / "home").write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",
                                                            "XDG_CACHE_HOME")}
    env.update(HOME=str(tmp_path / "home"), PYTHONPATH=str(copy),
               PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", "import engine.search.uct; print('ok')"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert "nakade: warning: neither the package folder nor" in done.stderr


PROBE_CALLEE = "from numba import njit\n\n\n@njit(cache=True)\ndef value():\n    return {}\n"
PROBE_CALLER = """from numba import njit

from ._probe_callee import value


@njit(cache=True)
def outer():
    return value() + 10
"""
PROBE_RUN = """from engine.core._probe_caller import outer
print(outer(), outer.stats.cache_hits.most_common(1) != [])
"""


def test_a_kernel_is_recompiled_when_a_kernel_it_calls_in_another_module_changes(tmp_path):
    """numba alone would load ``outer`` from its cache with the old ``value`` inlined."""
    copy = tmp_path / "install"
    shutil.copytree(ROOT / "engine", copy / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    core = copy / "engine" / "core"
    (core / "_probe_caller.py").write_text(PROBE_CALLER)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(copy)

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", PROBE_RUN], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    (core / "_probe_callee.py").write_text(PROBE_CALLEE.format(1))
    assert run() == "11 False"      # compiled
    assert run() == "11 True"       # loaded from the cache
    (core / "_probe_callee.py").write_text(PROBE_CALLEE.format(2))
    assert run() == "12 False"      # the caller's own file is unchanged, yet recompiled


def test_the_front_ends_left_out_of_the_kernels_stamp_hold_no_kernel():
    from engine.numba_cache import FRONT_ENDS
    for name in FRONT_ENDS:
        for path in (ROOT / "engine" / name).rglob("*.py"):
            assert not re.search(r"^\s*(from numba|import numba|@njit)", path.read_text(),
                                 re.MULTILINE), path
