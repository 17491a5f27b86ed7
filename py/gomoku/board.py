"""The board: stones, side to move, make/unmake with incremental pattern state.

Cells are indices into a padded square (``pad`` = the pattern half length), so every
on-board cell has all its line neighbours in the array; padding cells hold WALL.

Kept up to date on every make/unmake, touching only the cells within reach on the 4
lines through the move (and its 5x5 neighbourhood for the candidate area):

- ``keys[d * cells + q]``: line key (patterns.py) of empty cell q in direction d;
- ``summary[q]``: both sides' direction classes of empty cell q as counters
  (black in the low ``SIDE_SHIFT`` bits, white above), and above ``CELL_VALUE_SHIFT``
  the cell's packed value (so one addition updates both, see ``Layout.cell_table``);
- ``value``: per side, the sum of ``PATTERN_WEIGHT`` over all empty (cell, direction)
  pairs plus counts of five- and open-four-making entries (see ``VALUE_*`` below);
- ``hash``: Zobrist key including the side to move;
- ``near[q]``: stones within Chebyshev distance 2 (low byte) and 1 (``NEAR1`` units);
- ``candidates``: empty cells with a stone within distance 2.

Keys and summaries of *occupied* cells are frozen while the cell is occupied (updates
skip them) and are correct again when the stone is taken back, because undo is LIFO.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .errors import IllegalMoveError
from .geometry import Point, check_point
from .patterns import (
    BLACK,
    COUNT_BITS,
    EMPTY,
    FIVE,
    OPEN_FOUR,
    SIDE_MASK,
    SIDE_SHIFT,
    WALL,
    WHITE,
    neighbour_bit,
    pattern_table,
)
from .rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from .weights import PATTERN_WEIGHT
from .zobrist import zobrist_keys

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (dx, dy): row, column, two diagonals

# Packed per-side value: weight sum in the low VALUE_FIVE_SHIFT bits, count of
# five-making (cell, direction) entries above; white's half sits VALUE_SIDE_SHIFT higher.
# Packed per-side value: weight sum in the low 22 bits, then 9-bit counts of the
# five-making and open-four-making (cell, direction) entries; white's half sits
# VALUE_SIDE_SHIFT higher. Counts can't reach 512 on a 20x20 board (at most 4 per cell).
VALUE_FIVE_SHIFT = 22
VALUE_OPEN_FOUR_SHIFT = 31
VALUE_SIDE_SHIFT = 40
VALUE_HALF_MASK = (1 << VALUE_SIDE_SHIFT) - 1
VALUE_WEIGHT_MASK = (1 << VALUE_FIVE_SHIFT) - 1
VALUE_COUNT_MASK = (1 << 9) - 1

# Cell summaries carry the cell's value above the counters. Counter sums over a whole
# board stay below 2**70 (< 900 cells x 2**60), so total >> CELL_VALUE_SHIFT is exact.
CELL_VALUE_SHIFT = 72
COUNT_MASK = (1 << (2 * SIDE_SHIFT)) - 1

NEAR1 = 256  # near[] unit for a stone at distance 1 (distance 2 counts 1)

FIVE_SHIFT_BLACK = COUNT_BITS * FIVE
FIVE_SHIFT_WHITE = SIDE_SHIFT + COUNT_BITS * FIVE


def opponent(side: int) -> int:
    return 3 - side


@dataclass(frozen=True)
class Layout:
    """Index arithmetic and precomputed update lists for one (size, rule)."""

    size: int
    rule: Rule
    pad: int
    width: int
    cells: int
    deltas: tuple[int, ...]
    onboard: tuple[int, ...]
    # per cell p: tuple of (q, key index, key delta) for a black (resp. white) stone at p
    updates_black: tuple[tuple[tuple[int, int, int], ...], ...]
    updates_white: tuple[tuple[tuple[int, int, int], ...], ...]
    # per cell p: tuple of (q, near increment) for on-board q within distance 2
    near_updates: tuple[tuple[tuple[int, int], ...], ...]
    # per key: packed summary counters (both sides) and packed value contribution
    count_table: list[int]
    value_table: list[int]
    # per key: count_table + (value_table << CELL_VALUE_SHIFT), the one table make uses
    cell_table: list[int]
    pattern_black: bytes
    pattern_white: bytes

    def index(self, x: int, y: int) -> int:
        return (y + self.pad) * self.width + x + self.pad

    def point(self, p: int) -> Point:
        y, x = divmod(p, self.width)
        return x - self.pad, y - self.pad


@cache
def layout(size: int, rule: Rule) -> Layout:
    table = pattern_table(rule)
    pad = table.half
    width = size + 2 * pad
    cells = width * width
    deltas = tuple(dx + dy * width for dx, dy in DIRECTIONS)

    def idx(x: int, y: int) -> int:
        return (y + pad) * width + x + pad

    onboard = tuple(idx(x, y) for y in range(size) for x in range(size))
    onboard_set = set(onboard)
    ub: list[tuple] = [()] * cells
    uw: list[tuple] = [()] * cells
    nu: list[tuple] = [()] * cells
    for p in onboard:
        lb, lw = [], []
        for d, delta in enumerate(deltas):
            for off in range(-pad, pad + 1):
                if off == 0:
                    continue
                q = p - off * delta  # p sits at offset `off` from q
                if q in onboard_set:
                    shift = neighbour_bit(off, pad)
                    lb.append((q, d * cells + q, BLACK << shift))
                    lw.append((q, d * cells + q, WHITE << shift))
        ub[p], uw[p] = tuple(lb), tuple(lw)
        x, y = p % width - pad, p // width - pad
        near = []
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                    inc = 1 + (NEAR1 if max(abs(dx), abs(dy)) == 1 else 0)
                    near.append((idx(x + dx, y + dy), inc))
        nu[p] = tuple(near)

    counts, values, cell_table = _key_tables(rule)
    return Layout(
        size,
        rule,
        pad,
        width,
        cells,
        deltas,
        onboard,
        tuple(ub),
        tuple(uw),
        tuple(nu),
        counts,
        values,
        cell_table,
        table.black,
        table.white,
    )


@cache
def _key_tables(rule: Rule) -> tuple[list[int], list[int], list[int]]:
    """Per line key: summary counters, packed value and their sum for the cell table.

    They depend only on the (black, white) class pair of a key, so each of the 100 pairs
    is computed once and the per-key lists are filled by index (shared by all sizes).
    """
    table = pattern_table(rule)
    weight = [
        PATTERN_WEIGHT[c]
        + ((1 << VALUE_FIVE_SHIFT) if c == FIVE else 0)
        + ((1 << VALUE_OPEN_FOUR_SHIFT) if c == OPEN_FOUR else 0)
        for c in range(10)
    ]
    pair_counts, pair_values, pair_cells = [], [], []
    for b in range(10):
        for w in range(10):
            c = (1 << (COUNT_BITS * b)) + (1 << (SIDE_SHIFT + COUNT_BITS * w))
            v = weight[b] + (weight[w] << VALUE_SIDE_SHIFT)
            pair_counts.append(c)
            pair_values.append(v)
            pair_cells.append(c + (v << CELL_VALUE_SHIFT))
    pairs = (
        np.frombuffer(table.black, dtype=np.uint8).astype(np.int32) * 10
        + np.frombuffer(table.white, dtype=np.uint8)
    ).tolist()
    return (
        [pair_counts[i] for i in pairs],
        [pair_values[i] for i in pairs],
        [pair_cells[i] for i in pairs],
    )


# Keys, summaries and value of the empty board per (size, rule): computed once by the
# slow obvious path, then copied by every new Board.
_EMPTY_STATE: dict[tuple[int, Rule], tuple[list[int], list[int], int]] = {}


def _empty_state(size: int, rule: Rule) -> tuple[list[int], list[int], int] | None:
    return _EMPTY_STATE.get((size, rule))


class Board:
    """A Gomoku position with incremental pattern state. Black (1) moves first.

    ``play``/``undo`` validate and raise; ``make``/``unmake`` are the unchecked fast path
    used by the search (cell indices, legal moves only, LIFO undo).
    """

    def __init__(self, size: int = DEFAULT_SIZE, rule: Rule | str | int = Rule.FREESTYLE) -> None:
        self.size = check_size(size)
        self.rule = parse_rule(rule)
        self.layout = lay = layout(self.size, self.rule)
        n = lay.cells
        self.cells = [WALL] * n
        for p in lay.onboard:
            self.cells[p] = EMPTY
        self.keys = [0] * (4 * n)
        self.summary = [0] * n
        self.near = [0] * n
        self.candidates: set[int] = set()
        self.history: list[int] = []
        self.side = BLACK
        self.winner = EMPTY
        self._zb, self._zw, self._zside = zobrist_keys(n)
        self.hash = 0
        self.total = 0  # sum of summary[q] over empty cells q
        empty = _empty_state(self.size, self.rule)
        if empty is None:
            self._init_keys()
            _EMPTY_STATE[self.size, self.rule] = (list(self.keys), list(self.summary), self.total)
        else:
            self.keys, self.summary, self.total = list(empty[0]), list(empty[1]), empty[2]

    # --- construction and from-scratch recomputation (also the tests' reference) -----

    def _init_keys(self) -> None:
        lay = self.layout
        table = lay.cell_table
        self.total = 0
        for p in lay.onboard:
            s = 0
            for d in range(4):
                k = self.line_key(p, d)
                self.keys[d * lay.cells + p] = k
                s += table[k]
            self.summary[p] = s
            self.total += s

    def line_key(self, p: int, d: int) -> int:
        """Line key of cell p in direction d computed from the stones (slow, obvious)."""
        lay = self.layout
        delta = lay.deltas[d]
        key = 0
        for off in range(-lay.pad, lay.pad + 1):
            if off:
                key |= self.cells[p + off * delta] << neighbour_bit(off, lay.pad)
        return key

    # --- coordinates ------------------------------------------------------------------

    def index(self, x: int, y: int) -> int:
        check_point(x, y, self.size)
        return self.layout.index(x, y)

    def point(self, p: int) -> Point:
        return self.layout.point(p)

    def at(self, x: int, y: int) -> int:
        """EMPTY, BLACK or WHITE at (x, y)."""
        return self.cells[self.index(x, y)]

    @property
    def moves(self) -> list[Point]:
        return [self.layout.point(p) for p in self.history]

    @property
    def ply(self) -> int:
        return len(self.history)

    def is_full(self) -> bool:
        return len(self.history) == self.size * self.size

    # --- checked moves ----------------------------------------------------------------

    def play(self, x: int, y: int) -> None:
        """Play (x, y) for the side to move. Raises and leaves the board unchanged if illegal."""
        p = self.index(x, y)
        if self.winner:
            raise IllegalMoveError("the game is over")
        if self.cells[p] != EMPTY:
            raise IllegalMoveError(f"({x}, {y}) is occupied")
        self.make(p)

    def undo(self) -> Point:
        """Take back the last move and return it. Raises on an empty board."""
        if not self.history:
            raise IllegalMoveError("no move to undo")
        p = self.history[-1]
        self.unmake()
        return self.layout.point(p)

    # --- fast path --------------------------------------------------------------------

    def wins_at(self, p: int, side: int) -> bool:
        """Would ``side`` playing empty cell p make a five?"""
        shift = FIVE_SHIFT_BLACK if side == BLACK else FIVE_SHIFT_WHITE
        return bool((self.summary[p] >> shift) & 7)

    def make(self, p: int) -> None:
        """Place the side to move's stone on empty cell p (no checks)."""
        side = self.side
        lay = self.layout
        cells = self.cells
        keys = self.keys
        summary = self.summary
        table = lay.cell_table
        if (summary[p] >> (FIVE_SHIFT_BLACK if side == BLACK else FIVE_SHIFT_WHITE)) & 7:
            self.winner = side
        total = self.total - summary[p]  # p is no longer an empty cell
        cells[p] = side
        for q, i, a in (lay.updates_black if side == BLACK else lay.updates_white)[p]:
            if cells[q]:
                continue
            k0 = keys[i]
            k1 = k0 + a
            keys[i] = k1
            d = table[k1] - table[k0]
            summary[q] += d
            total += d
        self.total = total
        near = self.near
        cand = self.candidates
        cand.discard(p)
        for q, inc in lay.near_updates[p]:
            if not near[q] and not cells[q]:
                cand.add(q)
            near[q] += inc
        self.hash ^= (self._zb if side == BLACK else self._zw)[p] ^ self._zside
        self.history.append(p)
        self.side = 3 - side

    def pass_move(self) -> None:
        """Hand the move to the other side without a stone (hash included); a second call
        undoes it. Used to ask what the opponent could do if it moved now."""
        self.side = 3 - self.side
        self.hash ^= self._zside

    def unmake(self) -> None:
        """Take back the last move (no checks)."""
        p = self.history.pop()
        side = 3 - self.side
        self.side = side
        lay = self.layout
        cells = self.cells
        keys = self.keys
        summary = self.summary
        table = lay.cell_table
        total = self.total
        for q, i, a in (lay.updates_black if side == BLACK else lay.updates_white)[p]:
            if cells[q]:
                continue
            k1 = keys[i]
            k0 = k1 - a
            keys[i] = k0
            d = table[k0] - table[k1]
            summary[q] += d
            total += d
        cells[p] = EMPTY
        self.total = total + summary[p]  # p's summary was frozen while it was occupied
        near = self.near
        cand = self.candidates
        for q, inc in lay.near_updates[p]:
            v = near[q] - inc
            near[q] = v
            if not v:
                cand.discard(q)
        if near[p]:
            cand.add(p)
        self.hash ^= (self._zb if side == BLACK else self._zw)[p] ^ self._zside
        self.winner = EMPTY

    # --- queries ----------------------------------------------------------------------

    def pattern(self, p: int, d: int, side: int) -> int:
        """Pattern class (patterns.py) for ``side`` playing empty cell p, direction d."""
        k = self.keys[d * self.layout.cells + p]
        return (self.layout.pattern_black if side == BLACK else self.layout.pattern_white)[k]

    def side_summary(self, p: int, side: int) -> int:
        """One side's 4-direction counters of empty cell p."""
        s = self.summary[p]
        return s & SIDE_MASK if side == BLACK else (s >> SIDE_SHIFT) & SIDE_MASK

    @property
    def value(self) -> int:
        """Both sides' packed values summed over the empty cells (see VALUE_*)."""
        return self.total >> CELL_VALUE_SHIFT

    def side_value(self, side: int) -> tuple[int, int]:
        """(weight sum, five-making entries) of one side over all empty cells."""
        shift = CELL_VALUE_SHIFT + (VALUE_SIDE_SHIFT if side == WHITE else 0)
        half = (self.total >> shift) & VALUE_HALF_MASK
        return half & VALUE_WEIGHT_MASK, (half >> VALUE_FIVE_SHIFT) & VALUE_COUNT_MASK

    def open_four_entries(self, side: int) -> int:
        """How many (empty cell, direction) entries let ``side`` make an open four."""
        half = self.total >> (CELL_VALUE_SHIFT + (VALUE_SIDE_SHIFT if side == WHITE else 0))
        return (half >> VALUE_OPEN_FOUR_SHIFT) & VALUE_COUNT_MASK

    def winning_line(self) -> list[Point]:
        """The cells of the winning row when the last move won, else []."""
        if not self.winner or not self.history:
            return []
        p = self.history[-1]
        side = self.cells[p]
        for delta in self.layout.deltas:
            run = [p]
            for sign in (-1, 1):
                q = p + sign * delta
                while self.cells[q] == side:
                    run.append(q)
                    q += sign * delta
            if len(run) >= 5:
                return sorted(self.layout.point(q) for q in run)
        return []

    def copy(self) -> Board:
        """An independent board with the same moves."""
        other = Board(self.size, self.rule)
        for p in self.history:
            other.make(p)
        other.winner = self.winner
        return other

    @classmethod
    def from_moves(
        cls, moves: list[Point], size: int = DEFAULT_SIZE, rule: Rule | str | int = Rule.FREESTYLE
    ) -> Board:
        """Replay a move list with full validation."""
        board = cls(size, rule)
        for x, y in moves:
            board.play(x, y)
        return board

    def __str__(self) -> str:
        rows = []
        for y in range(self.size):
            row = " ".join(".XO"[self.cells[self.layout.index(x, y)]] for x in range(self.size))
            rows.append(f"{self.size - y:2d} {row}")
        rows.append("   " + " ".join("abcdefghijklmnopqrst"[: self.size]))
        return "\n".join(rows)
