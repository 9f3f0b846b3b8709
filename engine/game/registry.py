"""The games by name, and the one place where a game's name becomes rules and a position.

``GAMES`` maps a name (``go``, ``gobang``) to its rules value type, its state class, the
board a new session gets when none is asked for and the marker that picks its compiled
kernels (``engine.core.game``: a session compiles only its own game's).  ``GameConfig``
is the flat description that command lines, GTP sessions and match set-ups share (game,
size, komi, Gobang rule, superko); ``rules()`` and ``new_state()`` turn it into values.
Sessions (``engine.gtp.context.Settings``) and matches (``engine.match.referee.GameSetup``)
extend it with what only they need.
"""

from dataclasses import dataclass

from ..core.game import GO, GOBANG
from .gobang_state import GobangState
from .go_state import GoState
from .rules import GobangRules, GoRules
from .state import GameState


@dataclass(frozen=True)
class Game:
    name: str
    rules: type            # the frozen dataclass of its rules
    state: type            # its GameState subclass
    default_size: int      # a new session's board when none is asked for
    kernels: tuple         # the marker its compiled kernels take (``engine.core.game``)


GAMES = {g.name: g for g in (Game("go", GoRules, GoState, 19, GO),
                             Game("gobang", GobangRules, GobangState, 15, GOBANG))}


def names() -> tuple[str, ...]:
    return tuple(GAMES)


def game(name: str) -> Game:
    """The game called ``name``; ValueError naming the known ones otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def of_rules(rules) -> Game:
    """The game whose rules ``rules`` is a value of."""
    for g in GAMES.values():
        if isinstance(rules, g.rules):
            return g
    raise TypeError(f"not the rules of a game: {rules!r}")


def kernels(state) -> tuple:
    """The marker that picks ``state``'s game in the compiled kernels."""
    return of_rules(state.rules).kernels


def new_state(rules) -> GameState:
    """An empty board under ``rules``."""
    return of_rules(rules).state(rules)


@dataclass(frozen=True)
class GameConfig:
    """``size`` None: the game's default board; ``komi`` and ``superko`` apply to Go,
    ``rule`` (the variant) to Gobang."""
    game: str = "go"
    size: int | None = None
    komi: float = 7.5
    rule: str = "freestyle"
    superko: bool = True

    def rules(self, size: int | None = None, komi: float | None = None):
        """The rules value (``size``/``komi`` override the configured ones); ValueError when
        the game, the size or the variant is not allowed."""
        g = game(self.game)
        size = self.size if size is None else size
        size = g.default_size if size is None else size
        komi = self.komi if komi is None else komi
        if g.rules is GoRules:
            return GoRules(size=size, komi=komi, superko=self.superko)
        return GobangRules(size=size, variant=self.rule)

    def new_state(self) -> GameState:
        return new_state(self.rules())
