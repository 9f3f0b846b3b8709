"""Go positions drawn as text, for the tests that build fights by hand."""

from engine.game.board_text import parse
from engine.game.go_state import GoState
from engine.game.rules import GoRules


def board(rows: list[str]) -> GoState:
    """A position from square text rows (X black, O white, . empty), top row first."""
    n, black, white = parse("\n".join(" ".join(row.replace(" ", "")) for row in rows))
    state = GoState(GoRules(size=n))
    state.setup(black=black, white=white)
    return state
