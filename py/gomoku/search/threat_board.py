"""A lean board for the threat search: one integer per line, line facts from a memo.

The threat search (threats.py) asks few questions of a position: where each side makes
a five, a four or an open three, and the 4-direction summary of those cells. The full
Board answers them, but keeps much more up to date on every move (every line key within
reach, the evaluation sums, the candidate area): most of the threat search's time went
into Board.make/unmake. Here a move changes 4 integers.

Each line of the board (every row, column and diagonal, however short) is an integer
of 2-bit fields, ``half`` wall fields (3) at each end around the cells (0 empty, 1
black, 2 white). The facts of a line depend only on that integer, so they are computed
once per distinct line state and kept in a memo shared by all boards of a rule:

- per cell of the line, its contribution to the cell's summary: both sides' pattern
  class on this line as counters, exactly as Board.summary counts them;
- the positions where either side makes an open three or better (the "threat" cells);
- per side, how many (cell, direction) entries make a five or an open four.

A cell's summary is the sum of its 4 lines' contributions, so it matches Board.summary
(the counter part) by construction; tests check it against a Board move by move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gomoku.core.rules import Rule
from gomoku.game.board import Board, layout
from gomoku.patterns.tables import (
    BLACK,
    COUNT_BITS,
    FIVE,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    SIDE_SHIFT,
    WALL,
    WHITE,
    pattern_table,
)

# Packed per-line (and whole-board) counts of (cell, direction) entries, 12 bits each
# (a 20x20 board has 1,600 entries: no field can overflow into the next).
_COUNT_FIELD = 12
_COUNT_MASK = (1 << _COUNT_FIELD) - 1
FIVES_SHIFT = (0, 0, _COUNT_FIELD)  # indexed by side (1 black, 2 white)
OPEN_FOURS_SHIFT = (0, 2 * _COUNT_FIELD, 3 * _COUNT_FIELD)

_FIVE_BITS = (0, 7 << (COUNT_BITS * FIVE), 7 << (SIDE_SHIFT + COUNT_BITS * FIVE))

MEMO_LIMIT = 400_000  # line states kept; the memo is cleared past this

# Facts of one line state: (packed counts, per-position summary contributions, positions
# where either side makes an open three or better, then per side (black, white) the
# positions where it makes a five, a four or open four, an open three).
LineFacts = tuple
ANY, FIVES, FOURS, THREES = 2, 3, 5, 7  # indices into LineFacts (per side: + side - 1)


@dataclass(frozen=True)
class LineLayout:
    """The lines of one (size, rule) board, in Board cell indices."""

    line_cells: tuple[tuple[int, ...], ...]  # per line: its cells in order
    cell_lines: tuple[tuple[int, ...], ...]  # per cell: (line, position) x 4 directions
    add_black: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (line, +value) x 4
    add_white: tuple[tuple[tuple[int, int], ...], ...]
    empty_lines: tuple[int, ...]  # line integers of the empty board


@cache
def line_layout(size: int, rule: Rule) -> LineLayout:
    lay = layout(size, rule)
    half = lay.pad
    onboard = set(lay.onboard)
    line_cells: list[tuple[int, ...]] = []
    where: dict[tuple[int, int], tuple[int, int]] = {}  # (cell, direction) -> (line, pos)
    for d, delta in enumerate(lay.deltas):
        for p in lay.onboard:
            if p - delta in onboard:
                continue  # not the first cell of its line
            cells = []
            q = p
            while q in onboard:
                where[q, d] = (len(line_cells), len(cells))
                cells.append(q)
                q += delta
            line_cells.append(tuple(cells))
    cell_lines: list[tuple[int, ...]] = [()] * lay.cells
    add_black: list[tuple] = [()] * lay.cells
    add_white: list[tuple] = [()] * lay.cells
    for p in lay.onboard:
        entries = [where[p, d] for d in range(4)]
        cell_lines[p] = tuple(x for e in entries for x in e)
        add_black[p] = tuple((line, BLACK << (2 * (pos + half))) for line, pos in entries)
        add_white[p] = tuple((line, WHITE << (2 * (pos + half))) for line, pos in entries)
    empty_lines = []
    for cells in line_cells:
        v = 0
        for f in range(half):
            v |= WALL << (2 * f)
            v |= WALL << (2 * (len(cells) + half + f))
        empty_lines.append(v)
    return LineLayout(
        tuple(line_cells),
        tuple(cell_lines),
        tuple(add_black),
        tuple(add_white),
        tuple(empty_lines),
    )


class LineMemo:
    """Facts per line integer for one rule (see the module doc)."""

    def __init__(self, rule: Rule) -> None:
        table = pattern_table(rule)
        self.half = table.half
        self.black = table.black
        self.white = table.white
        self.facts: dict[int, LineFacts] = {}

    def get(self, v: int) -> LineFacts:
        facts = self.facts.get(v)
        if facts is None:
            facts = self.classify(v)
            if len(self.facts) >= MEMO_LIMIT:
                self.facts.clear()
            self.facts[v] = facts
        return facts

    def classify(self, v: int) -> LineFacts:
        """The facts of line integer ``v``, from the pattern tables."""
        half = self.half
        window = (1 << (2 * (2 * half + 1))) - 1
        low = (1 << (2 * half)) - 1
        black, white = self.black, self.white
        counts = 0
        contrib = []
        threats = []
        per_side: list[list[int]] = [[] for _ in range(6)]  # fives, fours, threes x 2
        j = 0
        while (v >> (2 * (j + half))) & 3 != WALL:
            if (v >> (2 * (j + half))) & 3:
                contrib.append(0)  # occupied: no summary
            else:
                w = (v >> (2 * j)) & window
                key = (w & low) | ((w >> (2 * half + 2)) << (2 * half))
                cb, cw = black[key], white[key]
                contrib.append((1 << (COUNT_BITS * cb)) + (1 << (SIDE_SHIFT + COUNT_BITS * cw)))
                if cb >= OPEN_THREE or cw >= OPEN_THREE:
                    threats.append(j)
                    for side, c in ((0, cb), (1, cw)):
                        if c == FIVE:
                            per_side[side].append(j)
                        elif c >= FOUR:
                            per_side[2 + side].append(j)
                        elif c == OPEN_THREE:
                            per_side[4 + side].append(j)
                    counts += (
                        ((cb == FIVE) << FIVES_SHIFT[1])
                        + ((cw == FIVE) << FIVES_SHIFT[2])
                        + ((cb == OPEN_FOUR) << OPEN_FOURS_SHIFT[1])
                        + ((cw == OPEN_FOUR) << OPEN_FOURS_SHIFT[2])
                    )
            j += 1
        return (counts, tuple(contrib), tuple(threats), *map(tuple, per_side))


@cache
def line_memo(rule: Rule) -> LineMemo:
    return LineMemo(rule)


class LineBoard:
    """The stones, side to move and Zobrist hash of a Board, with line facts.

    Built from a Board (which it never changes); ``make``/``unmake`` are unchecked (empty
    cells, LIFO). The hash is the Board's: same keys, same side-to-move term, so caches
    keyed by Board.hash (the engine's threat cache) are shared.
    """

    def __init__(self, board: Board) -> None:
        self.layout = lines = line_layout(board.size, board.rule)
        self.memo = memo = line_memo(board.rule)
        self.cells = list(board.cells)
        self.lines = list(lines.empty_lines)
        empty_facts = [memo.get(v) for v in self.lines]
        self.facts = empty_facts
        self.counts = sum(f[0] for f in empty_facts)
        self.hot = {i for i, f in enumerate(empty_facts) if f[2]}
        self._zb, self._zw, self._zside = board._zb, board._zw, board._zside
        self.hash = 0
        for p in board.history:
            self._stone(p, board.cells[p], 1)
        self.hash = board.hash  # the Board's, side-to-move term included
        self.side = board.side
        self.winner = board.winner
        self.history: list[int] = []  # moves made on this board (not the Board's)

    # --- moves ------------------------------------------------------------------------

    def make(self, p: int) -> None:
        """Place the side to move's stone on empty cell p (no checks)."""
        side = self.side
        if (self.counts >> FIVES_SHIFT[side]) & _COUNT_MASK and self.summary(p) & _FIVE_BITS[side]:
            self.winner = side
        self.cells[p] = side
        self._stone(p, side, 1)
        self.history.append(p)
        self.side = 3 - side

    def unmake(self) -> None:
        """Take back the last move made on this board (no checks)."""
        p = self.history.pop()
        side = 3 - self.side
        self.side = side
        self.cells[p] = 0
        self._stone(p, side, -1)
        self.winner = 0

    def _stone(self, p: int, side: int, sign: int) -> None:
        """Add (sign 1) or remove (-1) ``side``'s stone at p in the 4 lines and the hash."""
        lines, facts, memo, hot = self.lines, self.facts, self.memo, self.hot
        counts = self.counts
        for line, a in (self.layout.add_black if side == BLACK else self.layout.add_white)[p]:
            v = lines[line] + sign * a
            lines[line] = v
            new = memo.facts.get(v) or memo.get(v)
            counts += new[0] - facts[line][0]
            facts[line] = new
            if new[2]:
                hot.add(line)
            else:
                hot.discard(line)
        self.counts = counts
        self.hash ^= (self._zb if side == BLACK else self._zw)[p] ^ self._zside

    def open_four_entries_after(self, p: int, side: int, threatener: int) -> int:
        """``open_four_entries(threatener)`` were ``side``'s stone on empty cell p: the
        board is not changed (the 4 lines through p are looked up with the stone)."""
        lines, facts, memo = self.lines, self.facts, self.memo
        counts = self.counts
        for line, a in (self.layout.add_black if side == BLACK else self.layout.add_white)[p]:
            v = lines[line] + a
            counts += (memo.facts.get(v) or memo.get(v))[0] - facts[line][0]
        return (counts >> OPEN_FOURS_SHIFT[threatener]) & _COUNT_MASK

    def pass_move(self) -> None:
        """Hand the move to the other side (as Board.pass_move); a second call undoes it."""
        self.side = 3 - self.side
        self.hash ^= self._zside

    # --- queries ----------------------------------------------------------------------

    def summary(self, p: int) -> int:
        """Both sides' direction-class counters of empty cell p (Board.summary's counter
        part: black in the low SIDE_SHIFT bits, white above)."""
        c = self.layout.cell_lines[p]
        f = self.facts
        return f[c[0]][1][c[1]] + f[c[2]][1][c[3]] + f[c[4]][1][c[5]] + f[c[6]][1][c[7]]

    def fives(self, side: int) -> int:
        """How many (empty cell, direction) entries make a five for ``side``."""
        return (self.counts >> FIVES_SHIFT[side]) & _COUNT_MASK

    def open_four_entries(self, side: int) -> int:
        """How many (empty cell, direction) entries make an open four for ``side``."""
        return (self.counts >> OPEN_FOURS_SHIFT[side]) & _COUNT_MASK

    def cells_of(self, kind: int, side: int = 0) -> dict[int, int]:
        """Empty cells of one kind (FIVES, FOURS, THREES for ``side``, or ANY: either side
        makes an open three or better), with their summaries."""
        index = kind + side - 1 if side else kind
        facts = self.facts
        line_cells = self.layout.line_cells
        out: dict[int, int] = {}
        for line in self.hot:
            positions = facts[line][index]
            if positions:
                cells = line_cells[line]
                for j in positions:
                    q = cells[j]
                    if q not in out:
                        out[q] = self.summary(q)
        return out

    def five_cells(self, side: int) -> list[int]:
        """Empty cells where ``side`` makes a five, in cell order."""
        if not (self.counts >> FIVES_SHIFT[side]) & _COUNT_MASK:
            return []
        facts = self.facts
        line_cells = self.layout.line_cells
        index = FIVES + side - 1
        found = set()
        for line in self.hot:
            positions = facts[line][index]
            if positions:
                cells = line_cells[line]
                found.update(cells[j] for j in positions)
        return sorted(found)
