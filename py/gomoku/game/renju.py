"""Black's forbidden points in renju, fast enough to be asked inside the search.

The definitions are those of renju_reference.py (the slow, literal reference this module
is tested against): a black move that makes no five is forbidden when it makes an
overline, two fours (also two on one line, ``X.XXX.X``) or two threes, a three counting
only when its straight-four point is not forbidden itself (recursively).

Design: three levels, each cheaper than the next and run only when the one before can't
decide.

1. **Screen** on the board's cell summary (``Board.summary``: black's four direction
   classes as counters, kept up to date by make/unmake). A table over the 715 possible
   summaries says: not forbidden (almost every cell: one dict look-up), an overline (an
   OVERLINE class and no FIVE), a double four (two directions with a FOUR or OPEN_FOUR),
   or *check* (one OPEN_FOUR, which may be two fours on one line, or two OPEN_THREEs).
2. **Line facts** of the cell's line keys (``Board.keys``), memoised per key: how many
   fours the line makes (0, 1, 2) and the offsets of the points that would make it a
   straight four through the cell. They settle a double four.
3. **Recursion** for a double three: a three is real when one of its straight-four
   points is not forbidden once the cell's stone is on the board. The board is never
   touched: the extra stones of the recursion are added to the line keys on the fly, so
   the cost on make/unmake is nil. Exact results are cached per (stones, cell), with the
   Zobrist keys of the board's stones (the side to move left out) and of the extra stones.

API: ``forbidden(board, p)`` -> None | "overline" | "double four" | "double three" for an
empty cell index p of a renju board (None on other rules), ``forbidden_points(board)``
-> {cell: shape} over the board's candidate cells (every forbidden point has a black stone
within distance 2, so it is a candidate), ``is_forbidden`` and ``first_forbidden_move``
(a move list replayed with the check before each black move).
"""

from __future__ import annotations

from collections.abc import Sequence

from gomoku.core.errors import IllegalMoveError
from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule
from gomoku.core.zobrist import zobrist_keys
from gomoku.game.board import Board, Layout
from gomoku.patterns.tables import (
    BLACK,
    EMPTY,
    FIVE,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    OVERLINE,
    SIDE_MASK,
    WHITE,
    all_summaries,
    count_of,
    decode_key,
    neighbour_bit,
)

OVERLINE_SHAPE = "overline"
DOUBLE_FOUR_SHAPE = "double four"
DOUBLE_THREE_SHAPE = "double three"
SHAPES = (OVERLINE_SHAPE, DOUBLE_FOUR_SHAPE, DOUBLE_THREE_SHAPE)

_CHECK = "check"  # screen verdict: the line facts (and maybe the recursion) decide
CACHE_LIMIT = 200_000  # exact results kept per board size before the cache is cleared

# --- level 1: the screen over black's 4-direction summary --------------------------------


def screen(summary: int) -> str | None:
    """What black's one-side summary of a cell says: None (not forbidden), "overline",
    "double four", or "check" (the line facts must decide)."""
    if count_of(summary, FIVE):
        return None
    if count_of(summary, OVERLINE):
        return OVERLINE_SHAPE
    fours = count_of(summary, FOUR) + count_of(summary, OPEN_FOUR)
    if fours >= 2:
        return DOUBLE_FOUR_SHAPE
    if count_of(summary, OPEN_FOUR) or count_of(summary, OPEN_THREE) >= 2:
        return _CHECK
    return None


_SCREEN: dict[int, str] = {s: v for s in all_summaries() if (v := screen(s)) is not None}

# --- level 2: facts of one line key --------------------------------------------------------


def _run(line: list[int], i: int) -> tuple[int, int]:
    """(first, last) index of the unbroken black run through index i of ``line``."""
    lo = hi = i
    while lo > 0 and line[lo - 1] == BLACK:
        lo -= 1
    while hi < len(line) - 1 and line[hi + 1] == BLACK:
        hi += 1
    return lo, hi


def _five_points(line: list[int], c: int) -> list[int]:
    """Indices of the empty cells of ``line`` where black makes exactly five through c.

    A run that touches either end of the window is six or more long (the window reaches 5
    cells beyond the centre), so it is never taken for a five."""
    out = []
    for q in range(max(0, c - 4), min(len(line), c + 5)):
        if line[q] != EMPTY:
            continue
        line[q] = BLACK
        lo, hi = _run(line, q)
        line[q] = EMPTY
        if hi - lo == 4 and lo <= c <= hi and lo > 0 and hi < len(line) - 1:
            out.append(q)
    return out


def _straight_four(line: list[int], c: int) -> bool:
    """Four black in a row through c whose two ends both make a five (``.XXXX.``)."""
    lo, hi = _run(line, c)
    return hi - lo == 3 and _five_points(line, c) == [lo - 1, hi + 1]


def line_facts(key: int, half: int) -> tuple[int, tuple[int, ...]]:
    """(fours, straight-four offsets) of a black line key with black on its centre.

    fours: 0, 1 (one five point, or a straight four) or 2 (two fours on the line).
    Offsets (-4..4): the empty cells where one more black stone makes a straight four
    through the centre; empty when the line is a four already.
    """
    line = decode_key(key, half)
    line[half] = BLACK
    points = _five_points(line, half)
    if points:
        return (1 if _straight_four(line, half) else min(2, len(points))), ()
    fills = []
    for q in range(half - 4, half + 5):
        if line[q] != EMPTY:
            continue
        line[q] = BLACK
        lo, hi = _run(line, half)
        if lo <= q <= hi and _straight_four(line, half):
            fills.append(q - half)
        line[q] = EMPTY
    return 0, tuple(fills)


_FACTS: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}


def _facts(key: int, half: int) -> tuple[int, tuple[int, ...]]:
    f = _FACTS.get((key, half))
    if f is None:
        f = _FACTS[key, half] = line_facts(key, half)
    return f


# --- level 3: the exact check with extra black stones --------------------------------------


class _Geometry:
    """Per board size: where an extra stone lands in a cell's line keys, and the caches."""

    def __init__(self, lay: Layout) -> None:
        self.cells = lay.cells
        self.half = lay.pad
        self.deltas = lay.deltas
        self.pattern = lay.pattern_black
        # cell difference s - p -> (direction, bits of a black stone at that offset)
        self.offsets: dict[int, tuple[int, int]] = {}
        for d, delta in enumerate(lay.deltas):
            for off in range(-lay.pad, lay.pad + 1):
                if off:
                    self.offsets[off * delta] = (d, BLACK << neighbour_bit(off, lay.pad))
        self.zblack, _, self.zside = zobrist_keys(lay.cells)
        self.cache: dict[tuple[int, int], str | None] = {}


_GEOMETRY: dict[int, _Geometry] = {}


def _geometry(board: Board) -> _Geometry:
    g = _GEOMETRY.get(board.layout.cells)
    if g is None:
        g = _GEOMETRY[board.layout.cells] = _Geometry(board.layout)
    return g


def _exact(board: Board, geo: _Geometry, p: int, extra: tuple[int, ...], h: int) -> str | None:
    """Forbidden shape of empty cell p with the ``extra`` black stones added to the board
    (their cells empty on the board); h is the Zobrist key of the stones so placed."""
    cache = geo.cache
    hit = cache.get((h, p), cache)
    if hit is not cache:
        return hit  # type: ignore[return-value]
    keys = board.keys
    n = geo.cells
    ks = [keys[p], keys[n + p], keys[2 * n + p], keys[3 * n + p]]
    offsets = geo.offsets
    for s in extra:
        o = offsets.get(s - p)
        if o is not None:
            ks[o[0]] |= o[1]
    pattern = geo.pattern
    classes = [pattern[k] for k in ks]
    result: str | None = None
    if FIVE in classes:
        result = None
    elif OVERLINE in classes:
        result = OVERLINE_SHAPE
    else:
        half = geo.half
        fours = 0
        threes = []
        for d in range(4):
            c = classes[d]
            if c == FOUR:
                fours += 1
            elif c == OPEN_FOUR:
                fours += _facts(ks[d], half)[0]
            elif c == OPEN_THREE:
                threes.append(d)
        if fours >= 2:
            result = DOUBLE_FOUR_SHAPE
        elif len(threes) >= 2:
            result = _double_three(board, geo, p, extra, h, ks, threes)
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[h, p] = result
    return result


def _double_three(
    board: Board,
    geo: _Geometry,
    p: int,
    extra: tuple[int, ...],
    h: int,
    ks: list[int],
    threes: list[int],
) -> str | None:
    """DOUBLE_THREE_SHAPE when two of the candidate directions are real threes."""
    deeper = (*extra, p)
    hp = h ^ geo.zblack[p]
    real = 0
    for i, d in enumerate(threes):
        if real + len(threes) - i < 2:
            break
        delta = geo.deltas[d]
        for off in _facts(ks[d], geo.half)[1]:
            if _exact(board, geo, p + off * delta, deeper, hp) is None:
                real += 1
                break
        if real >= 2:
            return DOUBLE_THREE_SHAPE
    return None


# --- the API -------------------------------------------------------------------------------


def stones_hash(board: Board) -> int:
    """The board's Zobrist key without the side to move (forbidden points depend only on
    the stones)."""
    h = board.hash
    return h ^ _geometry(board).zside if board.side == WHITE else h


def forbidden(board: Board, p: int) -> str | None:
    """Why black may not play empty cell p of a renju board ("overline", "double four",
    "double three"), or None when it may (always None under other rules). Whoever is to
    move: the answer depends on the stones only."""
    if board.rule is not Rule.RENJU:
        return None
    verdict = _SCREEN.get(board.summary[p] & SIDE_MASK)
    if verdict is not _CHECK:
        return verdict
    return _exact(board, _geometry(board), p, (), stones_hash(board))


def is_forbidden(board: Board, p: int) -> bool:
    """True when black may not play empty cell p (renju only)."""
    return forbidden(board, p) is not None


def forbidden_points(board: Board) -> dict[int, str]:
    """{cell: shape} of black's forbidden points on a renju board ({} under other rules)."""
    if board.rule is not Rule.RENJU:
        return {}
    summary = board.summary
    out: dict[int, str] = {}
    geo = None
    h = 0
    for p in board.candidates:
        verdict = _SCREEN.get(summary[p] & SIDE_MASK)
        if verdict is None:
            continue
        if verdict is _CHECK:
            if geo is None:
                geo, h = _geometry(board), stones_hash(board)
            verdict = _exact(board, geo, p, (), h)
            if verdict is None:
                continue
        out[p] = verdict
    return out


def first_forbidden_move(
    moves: Sequence[Point], size: int = DEFAULT_SIZE
) -> tuple[int, str] | None:
    """Replay ``moves`` (black first) under renju: (index, shape) of the first black move
    played on a forbidden point, or None. Moves must be on the board and on empty points
    (raises GomokuError otherwise), but may go on after a five."""
    board = Board(size, Rule.RENJU)
    for i, (x, y) in enumerate(moves):
        p = board.index(x, y)
        if board.cells[p] != EMPTY:
            raise IllegalMoveError(f"({x}, {y}) is occupied")
        if board.side == BLACK:
            shape = forbidden(board, p)
            if shape:
                return i, shape
        board.make(p)
    return None
