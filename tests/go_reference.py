"""A slow, plainly written Go board that the compiled rules are checked against.

Nothing here is incremental: every question is answered by flood-filling a flat list of
points, and every rule is written the way a rule book states it.

* A move places a stone, removes every adjacent enemy chain left without a liberty, and
  then is suicide when its own chain has no liberty.  Suicide is illegal; with
  ``suicide=True`` a chain of two or more stones may kill itself (its stones go to the
  opponent as captures), a lone stone still may not.
* Simple ko: a move may not recreate the board as it stood before the previous move (a
  pass or a setup in between lifts the ban).  That is the single-stone rule of
  ``engine.core.go_kernels``: only a lone stone that captured a lone stone can be taken
  back so that the earlier board reappears.
* Positional superko (``superko=True``): the board after a move may not equal any board
  seen earlier in the game, the starting one and those before a setup included.
* Area (Tromp-Taylor) scoring: stones plus empty regions that touch one colour only.
* Eyes: ``is_eye`` restates the docstring of ``go_kernels.is_eye`` in words of rows and
  columns.

Points are the padded indices of ``engine.game.coords`` so answers compare directly with
``GoState``; inside, a board is a tuple of ``n*n`` colours in row-major order.
"""

from engine.game.coords import PASS, point, row_col

EMPTY, BLACK, WHITE = 0, 1, 2


class ReferenceGo:
    def __init__(self, n, komi=7.5, superko=True, suicide=False):
        self.n = n
        self._neighbours = self._neighbour_lists(n)
        self.komi = komi
        self.superko = superko
        self.suicide = suicide
        self.board = (EMPTY,) * (n * n)
        self.to_play = BLACK
        self.captures = {BLACK: 0, WHITE: 0}  # stones captured BY each colour
        self.seen = [self.board]  # every board of the game, in order
        self.before_previous = None  # the board before the previous move, for simple ko
        self.passes = 0
        self._stack = []

    # -- geometry --------------------------------------------------------------------
    def index(self, p):
        r, c = row_col(p, self.n)
        if not (0 <= r < self.n and 0 <= c < self.n):
            raise ValueError(f"point {p} is off the {self.n}x{self.n} board")
        return r * self.n + c

    def padded(self, i):
        return point(i // self.n, i % self.n, self.n)

    def neighbours(self, i):
        return self._neighbours[i]

    @staticmethod
    def _neighbour_lists(n):
        out = []
        for i in range(n * n):
            r, c = divmod(i, n)
            out.append([rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                        if 0 <= rr < n and 0 <= cc < n])
        return out

    def chain(self, board, i):
        """The stones connected to stone i, and their liberties."""
        color = board[i]
        stones, libs, todo = {i}, set(), [i]
        while todo:
            j = todo.pop()
            for k in self.neighbours(j):
                if board[k] == EMPTY:
                    libs.add(k)
                elif board[k] == color and k not in stones:
                    stones.add(k)
                    todo.append(k)
        return stones, libs

    # -- moves -----------------------------------------------------------------------
    def outcome(self, p, color):
        """What placing ``color`` at ``p`` does, ko aside: (board after, stones captured,
        own stones lost to suicide), or None when the point is taken or the move is an
        illegal suicide."""
        i = self.index(p)
        if self.board[i] != EMPTY:
            return None
        board = list(self.board)
        board[i] = color
        captured = 0
        for k in self.neighbours(i):
            if board[k] == 3 - color:
                stones, libs = self.chain(board, k)
                if not libs:
                    for j in stones:
                        board[j] = EMPTY
                    captured += len(stones)
        lost = 0
        stones, libs = self.chain(board, i)
        if not libs:
            if not self.suicide or len(stones) == 1:
                return None
            for j in stones:
                board[j] = EMPTY
            lost = len(stones)
        return tuple(board), captured, lost

    def why_illegal(self, p, color=None, superko=None):
        color = self.to_play if color is None else color
        superko = self.superko if superko is None else superko
        if p == PASS:
            return None
        result = self.outcome(p, color)
        if result is None:
            return "occupied" if self.board[self.index(p)] != EMPTY else "suicide"
        after = result[0]
        if after == self.before_previous:
            return "ko"
        if superko and after in self.seen:
            return "positional superko"
        return None

    def is_legal(self, p, color=None, superko=None):
        return self.why_illegal(p, color, superko) is None

    def empty_points(self):
        return [self.padded(i) for i, c in enumerate(self.board) if c == EMPTY]

    def legal_moves(self, color=None, superko=None):
        return sorted(p for p in self.empty_points() if self.is_legal(p, color, superko))

    def play(self, p, color=None):
        """Play a move (or PASS); returns (captured, lost).  ValueError when illegal."""
        color = self.to_play if color is None else color
        why = self.why_illegal(p, color)
        if why is not None:
            raise ValueError(f"illegal move {p}: {why}")
        self._stack.append((self.board, self.to_play, dict(self.captures), len(self.seen),
                            self.before_previous, self.passes))
        self.before_previous = self.board
        self.to_play = 3 - color
        if p == PASS:
            self.passes += 1
            return 0, 0
        self.passes = 0
        self.board, captured, lost = self.outcome(p, color)
        self.captures[color] += captured
        self.captures[3 - color] += lost
        self.seen.append(self.board)
        return captured, lost

    def setup(self, black=(), white=()):
        """Add stones without captures (the position must leave every chain a liberty)."""
        self._stack.append((self.board, self.to_play, dict(self.captures), len(self.seen),
                            self.before_previous, self.passes))
        board = list(self.board)
        for color, pts in ((BLACK, black), (WHITE, white)):
            for p in pts:
                board[self.index(p)] = color
        self.board = tuple(board)
        self.before_previous = None
        self.seen.append(self.board)

    def undo(self):
        (self.board, self.to_play, self.captures, n_seen, self.before_previous,
         self.passes) = self._stack.pop()
        del self.seen[n_seen:]

    # -- judgements ------------------------------------------------------------------
    def grid(self):
        """Rows of colours, top row first (the shape of ``GoState.board()``)."""
        n = self.n
        return [list(self.board[r * n:(r + 1) * n]) for r in range(n)]

    def chains(self):
        """Every chain as (colour, stones, liberties), stones and liberties as index sets."""
        out, done = [], set()
        for i, c in enumerate(self.board):
            if c != EMPTY and i not in done:
                stones, libs = self.chain(self.board, i)
                done |= stones
                out.append((c, stones, libs))
        return out

    def empty_regions(self):
        """Every maximal connected set of empty points, as (points, colours bordering it)."""
        out, done = [], set()
        for i, c in enumerate(self.board):
            if c == EMPTY and i not in done:
                region, borders, todo = {i}, set(), [i]
                while todo:
                    j = todo.pop()
                    for k in self.neighbours(j):
                        if self.board[k] == EMPTY:
                            if k not in region:
                                region.add(k)
                                todo.append(k)
                        else:
                            borders.add(self.board[k])
                done |= region
                out.append((region, borders))
        return out

    def area(self):
        """(black area, white area): stones plus empty regions bordering one colour only."""
        counts = {BLACK: 0, WHITE: 0}
        for c in self.board:
            if c != EMPTY:
                counts[c] += 1
        for region, borders in self.empty_regions():
            if len(borders) == 1:
                counts[next(iter(borders))] += len(region)
        return counts[BLACK], counts[WHITE]

    def score(self):
        b, w = self.area()
        return b - w - self.komi

    def is_eye(self, p, color):
        """Every neighbour is ``color`` (or the edge), and the opponent holds at most one
        diagonal point, none when ``p`` lies on the edge."""
        r, c = row_col(p, self.n)
        n = self.n
        for i in self.neighbours(r * n + c):
            if self.board[i] != color:
                return False
        on_edge = r in (0, n - 1) or c in (0, n - 1)
        enemy_diagonals = 0
        for dr in (-1, 1):
            for dc in (-1, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and self.board[rr * n + cc] == 3 - color:
                    enemy_diagonals += 1
        return enemy_diagonals <= (0 if on_edge else 1)
