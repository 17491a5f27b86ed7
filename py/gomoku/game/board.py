"""The board: stones, side to move, make/unmake with incremental pattern state.

Cells are indices into a padded square (``pad`` = the pattern half length), so every
on-board cell has all its line neighbours in the array; padding cells hold WALL.

Kept up to date on every make/unmake, touching only the cells within reach on the 4
lines through the move (and its 5x5 neighbourhood for the candidate area):

- ``keys[d * cells + q]``: line key (patterns.py) of empty cell q in direction d;
- ``summary[q]``: both sides' direction classes of empty cell q as counters
  (black in the low ``SIDE_SHIFT`` bits, white above);
- ``cell_value[q]``: the packed evaluation terms of empty cell q (``CellValues``: its
  table values for both sides as the side to move and as the other side, and one count
  per side in the field of its threat class), read from a table by its summary;
- ``packed``: the sum of ``cell_value`` over the empty cells, from which the evaluation
  and the threat counts (``threat_count``, ``fives``, ``open_fours``) are read in O(1);
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

from gomoku.core import shipped
from gomoku.core.errors import IllegalMoveError
from gomoku.core.geometry import Point, check_point
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from gomoku.core.zobrist import zobrist_keys
from gomoku.patterns.tables import (
    BLACK,
    COUNT_BITS,
    EMPTY,
    FIVE,
    SIDE_MASK,
    SIDE_SHIFT,
    T_FIVE,
    T_OPEN_FOUR,
    WALL,
    WHITE,
    neighbour_bit,
    pattern_table,
)
from gomoku.patterns.weights import SUMMARY_INDEX, SUMMARY_THREAT, EvalWeights, load_weights

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (dx, dy): row, column, two diagonals

# Packed cell values (CellValues): per side, 11 count fields of THREAT_BITS bits, one per
# threat class (patterns.T_*), black's from bit 0 and white's from WHITE_THREAT_SHIFT; above
# VALUE_SHIFT, four signed EVAL_BITS fields: the mover and other tables for black's
# summary, then for white's. Count fields hold at most 400 (20 x 20 cells), so the low
# part of a sum never carries into the signed part and reads back with a mask.
THREAT_BITS = 9
THREAT_FIELD = (1 << THREAT_BITS) - 1
WHITE_THREAT_SHIFT = THREAT_BITS * 11
VALUE_SHIFT = 2 * WHITE_THREAT_SHIFT
EVAL_BITS = 32
EVAL_HALF = 1 << (EVAL_BITS - 1)
EVAL_MASK = (1 << EVAL_BITS) - 1
COUNT_MASK = (1 << (2 * SIDE_SHIFT)) - 1

NEAR1 = 256  # near[] unit for a stone at distance 1 (distance 2 counts 1)

FIVE_SHIFT_BLACK = COUNT_BITS * FIVE
FIVE_SHIFT_WHITE = SIDE_SHIFT + COUNT_BITS * FIVE
_T_FIVE_BLACK = THREAT_BITS * T_FIVE
_T_FIVE_WHITE = WHITE_THREAT_SHIFT + THREAT_BITS * T_FIVE
_T_OPEN_FOUR_BLACK = THREAT_BITS * T_OPEN_FOUR
_T_OPEN_FOUR_WHITE = WHITE_THREAT_SHIFT + THREAT_BITS * T_OPEN_FOUR


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
    # per cell p: the slice of the rows from 2 above p to 2 below it (all of near_updates[p])
    near_band: tuple[slice, ...]
    # per cell p: the on-board cells on the 4 lines through p within 4 cells of it
    line_neighbours: tuple[frozenset[int], ...]
    # per key: packed summary counters (both sides) of its (black, white) class pair
    count_table: list[int]
    pattern_black: bytes
    pattern_white: bytes

    def index(self, x: int, y: int) -> int:
        return (y + self.pad) * self.width + x + self.pad

    def point(self, p: int) -> Point:
        y, x = divmod(p, self.width)
        return x - self.pad, y - self.pad


LAYOUT_VERSION = 1  # bump when layout_parts changes what it builds (shipped tables)


def layout_shipped_name(size: int, pad: int) -> tuple[str, str]:
    """The shipped table's name and inputs for layout_parts(size, pad)."""
    return f"layout-{size}-{pad}", f"layout-v{LAYOUT_VERSION}:{size}:{pad}"


@cache
def layout(size: int, rule: Rule) -> Layout:
    table = pattern_table(rule)
    pad = table.half
    width = size + 2 * pad
    cells = width * width
    deltas = tuple(dx + dy * width for dx, dy in DIRECTIONS)
    parts = shipped.load(*layout_shipped_name(size, pad)) or layout_parts(size, pad)
    onboard, ub, uw, nu, band, ln = parts
    return Layout(
        size, rule, pad, width, cells, deltas, onboard, ub, uw, nu, band, ln,
        _key_tables(rule), table.black, table.white,
    )  # fmt: skip


def layout_parts(size: int, pad: int) -> tuple:
    """The layout's index tables for a size x size board padded by ``pad`` cells (they
    depend on nothing else): (onboard, updates_black, updates_white, near_updates,
    near_band, line_neighbours), as Layout holds them."""
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
    ln: list[frozenset[int]] = [frozenset()] * cells
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
        ln[p] = frozenset(
            idx(x + k * dx, y + k * dy)
            for dx, dy in DIRECTIONS
            for k in range(-4, 5)
            if k and 0 <= x + k * dx < size and 0 <= y + k * dy < size
        )

    return (
        onboard,
        tuple(ub),
        tuple(uw),
        tuple(nu),
        tuple(slice(p - 2 * width - 2, p + 2 * width + 3) for p in range(cells)),
        tuple(ln),
    )


@cache
def _key_tables(rule: Rule) -> list[int]:
    """Per line key: the summary counters of its (black, white) class pair.

    They depend only on the class pair, so each of the 100 pairs is computed once and the
    per-key list is filled by index (shared by all sizes).
    """
    table = pattern_table(rule)
    pair_counts = [
        (1 << (COUNT_BITS * b)) + (1 << (SIDE_SHIFT + COUNT_BITS * w))
        for b in range(10)
        for w in range(10)
    ]
    pairs = (
        np.frombuffer(table.black, dtype=np.uint8).astype(np.int32) * 10
        + np.frombuffer(table.white, dtype=np.uint8)
    ).tolist()
    return [pair_counts[i] for i in pairs]


class CellValues(dict):
    """Full cell summary -> packed cell value (see THREAT_BITS), filled on first use.

    One per rule (its weights): the values depend only on the summary."""

    LIMIT = 300_000  # distinct summaries kept (far more than a game meets)

    def __init__(self, weights: EvalWeights) -> None:
        super().__init__()
        self.weights = weights
        # the four terms: black's summary as the mover's / the other side's, then white's
        # (tables by colour when the weights have them: EvalWeights.cell_tables)
        self.black_mover, self.black_other, self.white_mover, self.white_other = (
            weights.cell_tables()
        )
        # per side to move (index 1 black, 2 white): threat table and tempo
        _, _, tb, eb = weights.for_side(BLACK)
        _, _, tw, ew = weights.for_side(WHITE)
        self.threat = (None, tb, tw)
        self.tempo = (0, eb, ew)

    def __missing__(self, s: int) -> int:
        b = SUMMARY_INDEX[s & SIDE_MASK]
        w = SUMMARY_INDEX[(s >> SIDE_SHIFT) & SIDE_MASK]
        v = (1 << (THREAT_BITS * SUMMARY_THREAT[b])) + (
            1 << (WHITE_THREAT_SHIFT + THREAT_BITS * SUMMARY_THREAT[w])
        )
        v += (
            self.black_mover[b]
            + (self.black_other[b] << EVAL_BITS)
            + (self.white_mover[w] << (2 * EVAL_BITS))
            + (self.white_other[w] << (3 * EVAL_BITS))
        ) << VALUE_SHIFT
        if len(self) >= self.LIMIT:
            self.clear()
        self[s] = v
        return v


@cache
def cell_values(rule: Rule) -> CellValues:
    return CellValues(load_weights(rule))


# Added to packed >> VALUE_SHIFT, makes every signed EVAL_BITS field non-negative (each
# holds its value + EVAL_HALF), so one field reads back with a shift and a mask alone
# (no borrow from the fields below it).
EVAL_BIAS = sum(EVAL_HALF << (EVAL_BITS * j) for j in range(4))


def unpack_eval(packed: int) -> tuple[int, int, int, int]:
    """The four signed sums of a packed total: (black as mover, black as other, white as
    mover, white as other)."""
    v = packed >> VALUE_SHIFT
    out = []
    for _ in range(4):
        f = ((v + EVAL_HALF) & EVAL_MASK) - EVAL_HALF
        out.append(f)
        v = (v - f) >> EVAL_BITS
    return out[0], out[1], out[2], out[3]


# Keys, summaries and cell values of the empty board per (size, rule): computed once by
# the slow obvious path, then copied by every new Board.
_EMPTY_STATE: dict[tuple[int, Rule], tuple[list[int], list[int], list[int], int]] = {}


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
        # per move: packed and hash before it, (cell, key index, key, summary, value) before it
        # of each empty cell whose key it changed, near[] of its band, candidates it added
        self._undo: list[tuple[int, int, list, list, list]] = []
        self.side = BLACK
        self.winner = EMPTY
        self._zb, self._zw, self._zside = zobrist_keys(n)
        self.hash = 0
        self.values = cell_values(self.rule)
        self.cell_value = [0] * n
        self.packed = 0  # sum of cell_value[q] over empty cells q
        empty = _EMPTY_STATE.get((self.size, self.rule))
        if empty is None:
            self._init_keys()
            _EMPTY_STATE[self.size, self.rule] = (
                list(self.keys),
                list(self.summary),
                list(self.cell_value),
                self.packed,
            )
        else:
            self.keys, self.summary = list(empty[0]), list(empty[1])
            self.cell_value, self.packed = list(empty[2]), empty[3]

    # --- construction and from-scratch recomputation (also the tests' reference) -----

    def _init_keys(self) -> None:
        lay = self.layout
        table = lay.count_table
        self.packed = 0
        for p in lay.onboard:
            s = 0
            for d in range(4):
                k = self.line_key(p, d)
                self.keys[d * lay.cells + p] = k
                s += table[k]
            self.summary[p] = s
            self.cell_value[p] = v = self.values[s]
            self.packed += v

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
        cell_value = self.cell_value
        values = self.values
        table = lay.count_table
        if (summary[p] >> (FIVE_SHIFT_BLACK if side == BLACK else FIVE_SHIFT_WHITE)) & 7:
            self.winner = side
        before = self.packed
        packed = before - cell_value[p]  # p is no longer an empty cell
        cells[p] = side
        # Every empty cell whose key changes is recorded with its old key, summary and
        # value (almost all of them change class too), so unmake restores them in one
        # pass over the record instead of walking the update list again.
        changed = []
        for q, i, a in (lay.updates_black if side == BLACK else lay.updates_white)[p]:
            if cells[q]:
                continue
            k0 = keys[i]
            k1 = k0 + a
            keys[i] = k1
            s0 = summary[q]
            v0 = cell_value[q]
            changed.append((q, i, k0, s0, v0))
            d = table[k1] - table[k0]
            if d:  # the cell's classes changed
                s = s0 + d
                summary[q] = s
                v = values[s]
                packed += v - v0
                cell_value[q] = v
        self.packed = packed
        near = self.near
        # near[] is restored from a copy of the band of rows p's neighbourhood spans
        # (one slice copy is cheaper than a second walk), candidates by dropping the
        # cells this move added
        band = lay.near_band[p]
        added = []
        self._undo.append((before, self.hash, changed, near[band], added))
        cand = self.candidates
        cand.discard(p)
        for q, inc in lay.near_updates[p]:
            if not near[q] and not cells[q]:
                cand.add(q)
                added.append(q)
            near[q] += inc
        self.hash ^= (self._zb if side == BLACK else self._zw)[p] ^ self._zside
        self.history.append(p)
        self.side = 3 - side

    def packed_after(self, p: int) -> int:
        """``packed`` after the side to move plays p, with make's arithmetic but without
        changing anything: the evaluation and threat counts of the position after p
        (the search reads most leaves this way, without make and unmake)."""
        side = self.side
        lay = self.layout
        cells = self.cells
        keys = self.keys
        summary = self.summary
        cell_value = self.cell_value
        values = self.values
        table = lay.count_table
        packed = self.packed - cell_value[p]
        for q, i, a in (lay.updates_black if side == BLACK else lay.updates_white)[p]:
            if cells[q]:
                continue
            k0 = keys[i]
            d = table[k0 + a] - table[k0]
            if d:
                packed += values[summary[q] + d] - cell_value[q]
        return packed

    def hash_after(self, p: int) -> int:
        """The hash after the side to move plays p (as make would set it, without making)."""
        return self.hash ^ (self._zb if self.side == BLACK else self._zw)[p] ^ self._zside

    def pass_move(self) -> None:
        """Hand the move to the other side without a stone (hash included); a second call
        undoes it. Used to ask what the opponent could do if it moved now."""
        self.side = 3 - self.side
        self.hash ^= self._zside

    def unmake(self) -> None:
        """Take back the last move (no checks)."""
        p = self.history.pop()
        self.side = 3 - self.side
        keys = self.keys
        summary = self.summary
        cell_value = self.cell_value
        self.packed, self.hash, changed, near_before, added = self._undo.pop()
        for q, i, k0, s0, v0 in changed:
            keys[i] = k0
            summary[q] = s0
            cell_value[q] = v0
        self.cells[p] = EMPTY
        near = self.near
        near[self.layout.near_band[p]] = near_before
        cand = self.candidates
        if added:
            cand.difference_update(added)
        if near[p]:
            cand.add(p)
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

    def threat_count(self, side: int, threat: int) -> int:
        """How many empty cells give ``side`` the threat class ``threat`` (patterns.T_*)."""
        shift = (WHITE_THREAT_SHIFT if side == WHITE else 0) + THREAT_BITS * threat
        return (self.packed >> shift) & THREAT_FIELD

    def fives(self, side: int) -> int:
        """How many empty cells make a five for ``side``."""
        return (self.packed >> (_T_FIVE_WHITE if side == WHITE else _T_FIVE_BLACK)) & THREAT_FIELD

    def open_fours(self, side: int) -> int:
        """How many empty cells (none making five) give ``side`` an open four or a double
        four: a move after which two cells make five."""
        shift = _T_OPEN_FOUR_WHITE if side == WHITE else _T_OPEN_FOUR_BLACK
        return (self.packed >> shift) & THREAT_FIELD

    def best_threats(self) -> tuple[int, int]:
        """(black's, white's) strongest threat class over the empty cells."""
        low = self.packed & ((1 << VALUE_SHIFT) - 1)
        black = low & ((1 << WHITE_THREAT_SHIFT) - 1)
        white = low >> WHITE_THREAT_SHIFT
        return (black.bit_length() - 1) // THREAT_BITS, (white.bit_length() - 1) // THREAT_BITS

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
