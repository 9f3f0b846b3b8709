"""The games as Python values: rules (``rules``), coordinates (``coords``), positions
(``state``, ``go_state``, ``gobang_state``), the games registry (``registry``), board text,
fixed handicap and SGF.  Built on the numba kernels of ``engine.core``; knows nothing of
search or GTP."""
