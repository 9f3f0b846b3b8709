"""Shared fixtures: Go positions drawn as text, and a GNU Go process for oracle tests.

Tests marked ``@pytest.mark.gnugo`` are skipped when the GNU Go binary is missing.
"""

import pytest

from engine.game.board_text import parse
from engine.core.layout import BLACK
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from gnugo_client import gnugo_available, start_gnugo


def pytest_collection_modifyitems(config, items):
    if gnugo_available():
        return
    skip = pytest.mark.skip(reason="GNU Go is not installed")
    for item in items:
        if "gnugo" in item.keywords:
            item.add_marker(skip)


def go_from_text(picture: str, to_play: int = BLACK, **rules) -> GoState:
    """A GoState holding the stones of an ASCII picture (``engine.game.board_text`` format);
    ``rules`` are GoRules fields other than the size, which the picture gives."""
    n, black, white = parse(picture)
    state = GoState(GoRules(size=n, **rules))
    state.setup(black=black, white=white)
    state.to_play = to_play
    return state


@pytest.fixture
def go_board():
    """The ``go_from_text`` factory."""
    return go_from_text


@pytest.fixture(scope="session")
def gnugo():
    """One GNU Go process (Chinese rules) for the whole run; each test sets its own board
    size, komi and position."""
    if not gnugo_available():
        pytest.skip("GNU Go is not installed")
    with start_gnugo("--chinese-rules") as engine:
        yield engine
