"""A plain-Python check that a move wins by force through fours, the oracle for
``engine.core.gobang_vcf`` and for the puzzles of ``problems/gomoku``.

It works on a grid (lists of rows: 0 empty, 1 black, 2 white) and tries *every* empty point
for the attacker, not only the ones the kernel generates, with its own five test and the
renju reference of ``renju_reference`` for black's legality.  A reply is examined in full
only when it is a legal block of the attacker's one winning point: any other reply leaves
a five to complete (the winning points of the attacker depend on its own stones and lose
only the point a defender stone fills), and a defender with a five of its own to play wins
first.  Whatever this proves is a forced win; what it does not prove inside ``depth``
attacker moves may still be one.
"""

from renju_reference import forbidden

LINES = ((0, 1), (1, 0), (1, 1), (1, -1))
BLACK, WHITE = 1, 2


def exact(rule: str, color: int) -> bool:
    return rule == "exact5" or (rule == "renju" and color == BLACK)


def makes_win(grid, r, c, color, rule):
    n = len(grid)
    for dr, dc in LINES:
        k = 1
        for s in (1, -1):
            rr, cc = r + s * dr, c + s * dc
            while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == color:
                k += 1
                rr, cc = rr + s * dr, cc + s * dc
        if k == 5 or (k > 5 and not exact(rule, color)):
            return True
    return False


def winning_points(grid, color, rule):
    n = len(grid)
    return [(r, c) for r in range(n) for c in range(n)
            if grid[r][c] == 0 and makes_win(grid, r, c, color, rule)]


def legal(grid, r, c, color, rule):
    return grid[r][c] == 0 and not (rule == "renju" and color == BLACK
                                    and forbidden(grid, r, c))


def forced_win(grid, attacker, rule, depth):
    """A first move with which ``attacker`` (to move) wins by continuous fours inside
    ``depth`` attacker moves (a winning point counts as one), or None."""
    mine = winning_points(grid, attacker, rule)
    if mine:
        return mine[0]
    if depth <= 1:
        return None
    defender = 3 - attacker
    theirs = winning_points(grid, defender, rule)
    if len(theirs) >= 2:
        return None
    n = len(grid)
    for r in range(n):
        for c in range(n):
            if theirs and (r, c) != theirs[0]:
                continue   # anything else lets the defender complete its five
            if not legal(grid, r, c, attacker, rule):
                continue
            grid[r][c] = attacker
            if wins_after(grid, attacker, rule, depth):
                grid[r][c] = 0
                return (r, c)
            grid[r][c] = 0
    return None


def wins_after(grid, attacker, rule, depth):
    """With the attacker's move on the board and the defender to move: whether every
    defender reply loses inside ``depth - 1`` more attacker moves."""
    threats = winning_points(grid, attacker, rule)
    if not threats:
        return False   # not forcing: beyond what this check proves
    defender = 3 - attacker
    blocks = [p for p in threats if legal(grid, *p, defender, rule)]
    if len(threats) >= 2 or not blocks:
        return True
    r, c = blocks[0]
    grid[r][c] = defender
    won = (not makes_win_at(grid, r, c, defender, rule)
           and forced_win(grid, attacker, rule, depth - 1) is not None)
    grid[r][c] = 0
    return won


def makes_win_at(grid, r, c, color, rule):
    """Whether the stone just placed at (r, c) made a winning line."""
    grid[r][c] = 0
    won = makes_win(grid, r, c, color, rule)
    grid[r][c] = color
    return won


def winning_first_moves(grid, attacker, rule, depth):
    """Every first move ``forced_win`` would accept."""
    n = len(grid)
    defender = 3 - attacker
    theirs = winning_points(grid, defender, rule)
    found = []
    for r in range(n):
        for c in range(n):
            if grid[r][c] == 0 and makes_win(grid, r, c, attacker, rule):
                found.append((r, c))   # a five is never a forbidden point
                continue
            if theirs and (r, c) != theirs[0]:
                continue
            if not legal(grid, r, c, attacker, rule):
                continue
            grid[r][c] = attacker
            if depth > 1 and len(theirs) < 2 and wins_after(grid, attacker, rule, depth):
                found.append((r, c))
            grid[r][c] = 0
    return found
