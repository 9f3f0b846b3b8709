"""The Gomocup brain protocol as text: input lines become ``Command`` values, replies become
lines.  Knows nothing of the game or the search (``engine.pbrain.brain`` does the work).

The manager sends one command a line (CR LF or LF), upper case by convention (any case is
taken here); coordinates are ``x,y``, x the column and y the row, from 0.  Commands:

=====================  ============================================  ====================
command                meaning                                       reply
=====================  ============================================  ====================
``START n``            new game on an n x n board                    ``OK`` / ``ERROR``
``RECTSTART w,h``      new game on a w x h board                     ``OK`` / ``ERROR``
``RESTART``            new game on the same board                    ``OK``
``BEGIN``              play the first move                           ``x,y``
``TURN x,y``           the opponent played x,y; play a move          ``x,y``
``BOARD`` .. ``DONE``  a whole position, one ``x,y,field`` a line    ``x,y``
``INFO key value``     a limit or a setting                          (none)
``TAKEBACK x,y``       take back the last move, at x,y               ``OK``
``PLAY x,y``           the manager's answer to ``SUGGEST``: play it  ``x,y``
``ABOUT``              who the brain is                              ``name="..", ...``
``END``                exit                                          (none)
=====================  ============================================  ====================

``BOARD`` fields: 1 the brain's own stone, 2 the opponent's, 3 a stone of the winning line
or a forbidden point in a continuous game.  Besides a reply the brain may write ``MESSAGE``
(for the user) and ``DEBUG`` (for its author) lines first; ``UNKNOWN`` answers a command it
does not know, ``ERROR`` one it knows but cannot do.  INFO gets no reply at all: the manager
does not read one, so a stray line would be taken as the answer to the next command.
"""

from dataclasses import dataclass

# commands and how many comma-separated integers their argument holds
POINT_COMMANDS = ("TURN", "TAKEBACK", "PLAY")
BARE_COMMANDS = ("BEGIN", "BOARD", "RESTART", "ABOUT", "END")
BOARD_END = "DONE"
FIELDS = (1, 2, 3)          # own stone, opponent's stone, continuous-game marker


class ProtocolError(ValueError):
    """A known command with arguments that cannot be read: the reply is ``ERROR``."""


class UnknownCommand(ValueError):
    """Not a command of the protocol (or one this brain does not implement): ``UNKNOWN``."""


@dataclass(frozen=True)
class Command:
    name: str               # upper case
    args: tuple = ()        # START: (n,); RECTSTART: (w, h); TURN etc.: (x, y);
                            # INFO: (key in lower case, value text)


def parse_ints(text: str, count: int, what: str) -> tuple[int, ...]:
    """``count`` comma-separated non-negative integers (spaces allowed around them)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != count or not all(p.isdigit() and p.isascii() for p in parts):
        example = ",".join(["7"] * count)
        raise ProtocolError(f"{what} needs {count} comma-separated numbers like {example}, "
                            f"not {text.strip()!r}")
    return tuple(int(p) for p in parts)


def parse_line(line: str) -> Command | None:
    """The command of one input line; None for an empty line.  ProtocolError for bad
    arguments, UnknownCommand for a command that is not in the table above."""
    text = line.strip()
    if not text:
        return None
    word, _, rest = text.partition(" ")
    name, rest = word.upper(), rest.strip()
    if name == "START":
        return Command(name, parse_ints(rest, 1, "START"))
    if name == "RECTSTART":
        return Command(name, parse_ints(rest, 2, "RECTSTART"))
    if name in POINT_COMMANDS:
        return Command(name, parse_ints(rest, 2, name))
    if name == "INFO":
        key, _, value = rest.partition(" ")
        if not key:
            raise ProtocolError("INFO needs a key and a value")
        return Command(name, (key.lower(), value.strip()))
    if name in BARE_COMMANDS:
        if rest:
            raise ProtocolError(f"{name} takes no arguments, not {rest!r}")
        return Command(name)
    raise UnknownCommand(f"{word[:40]!r} is not a command this brain knows")


def is_board_end(line: str) -> bool:
    return line.strip().upper() == BOARD_END


def parse_board_line(line: str) -> tuple[int, int, int]:
    """One ``x,y,field`` line of a BOARD block; ProtocolError when it is not one."""
    x, y, field = parse_ints(line, 3, "a BOARD line")
    if field not in FIELDS:
        raise ProtocolError(f"BOARD field must be 1, 2 or 3, not {field}")
    return x, y, field


# -- replies ----------------------------------------------------------------------------
def _one_line(text: str) -> str:
    """No line breaks inside a reply: the manager reads one line per reply."""
    return " ".join(text.split())


def move(x: int, y: int) -> str:
    return f"{x},{y}"


def ok() -> str:
    return "OK"


def error(reason: str) -> str:
    return _one_line(f"ERROR {reason}")


def unknown(reason: str) -> str:
    return _one_line(f"UNKNOWN {reason}")


def message(text: str) -> list[str]:
    """A MESSAGE line for each line of ``text``."""
    return [f"MESSAGE {_one_line(t)}" for t in text.splitlines() if t.strip()]


def debug(text: str) -> list[str]:
    return [f"DEBUG {_one_line(t)}" for t in text.splitlines() if t.strip()]


def about(fields: dict[str, str]) -> str:
    """``key="value"`` pairs, comma separated (quotes inside a value become apostrophes)."""
    return ", ".join(f'{k}="{_one_line(v).replace(chr(34), chr(39))}"'
                     for k, v in fields.items())
