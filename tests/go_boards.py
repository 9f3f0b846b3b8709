"""Go positions drawn as text, for the tests that build fights by hand."""

from engine.core.layout import BLACK, M_LAST, M_TO_PLAY
from engine.game.board_text import parse
from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules


def board(rows: list[str]) -> GoState:
    """A position from square text rows (X black, O white, . empty), top row first."""
    n, black, white = parse("\n".join(" ".join(row.replace(" ", "")) for row in rows))
    state = GoState(GoRules(size=n))
    state.setup(black=black, white=white)
    return state


def black_to_answer(picture: str, last: str) -> GoState:
    """The position of ``picture`` (``board_text``'s form) with Black to move after
    White's last move at ``last``, the move a playout policy answers."""
    n, black, white = parse(picture)
    state = GoState(GoRules(size=n, komi=0.5, superko=False))
    state.setup(black=black, white=white)
    state.meta[M_LAST] = from_gtp(last, n)
    state.meta[M_TO_PLAY] = BLACK
    return state
