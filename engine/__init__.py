"""nakade: a Go and Gobang engine for Monte Carlo Tree Search research.

Rules and playouts are numba kernels over flat arrays (``engine.core``); the Python
state classes (``engine.game.go_state``, ``engine.game.gobang_state``) orchestrate them; search
back ends live in ``engine.search`` and the GTP front end in ``engine.gtp``.
"""

NAME = "nakade"
# Lizzie parses the minor number and refuses anything below 15 (docs/gtp.md, section 2).
__version__ = "0.16.0"

# before any kernel is defined: numba must have somewhere to cache them
from pathlib import Path as _Path   # noqa: E402
from .numba_cache import stamp_kernels_with_the_package as _stamp   # noqa: E402
from .numba_cache import use_writable_cache_dir as _use_writable_cache_dir   # noqa: E402
from .compile_lock import compile_kernels_once as _compile_kernels_once   # noqa: E402

_use_writable_cache_dir(_Path(__file__).parent)
_stamp()
_compile_kernels_once()
