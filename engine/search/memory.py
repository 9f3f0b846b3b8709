"""Memory a back end asks for, checked before it is asked: a node pool of ``max_nodes``
is allocated whole at the first search, and an option set too high (``max_nodes=1e8``:
about 12 GiB for LinUCT) should be a clear error when it is set, not an allocation that
fails, or swaps the machine to a halt, in the middle of a game.

The limit is the memory the system reports available now (``MemAvailable``), and the
process's address-space limit when one is set; where neither can be read, nothing is
refused.
"""

import resource

MEMORY_SHARE = 0.8    # of the available memory one pool may take: the rest is the process's


def available_bytes() -> int | None:
    limits = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    limits.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        limits.append(soft)
    return min(limits) if limits else None


def check_pool(backend: str, max_nodes: int, node_bytes: int):
    """ValueError when ``max_nodes`` nodes of ``node_bytes`` each would not fit."""
    need = max_nodes * node_bytes
    limit = available_bytes()
    if limit is not None and need > MEMORY_SHARE * limit:
        raise ValueError(f"option max_nodes {max_nodes} needs {need / 2**30:.1f} GiB for "
                         f"{backend}'s node pool, more than {MEMORY_SHARE:.0%} of the "
                         f"{limit / 2**30:.1f} GiB of memory available; lower max_nodes")
