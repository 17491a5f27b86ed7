"""Pure geometry on stone sets: canonical forms of positions and the symmetries of a position.

A position is a set of black stones, a set of white stones and the side to move (1 = black,
2 = white; by default derived from the counts: black to move when both colours have as many
stones). Points are Gomocup (x, y) pairs, see geometry.py.

Two kinds of canonical form are used by the opening book (book.py):

* **Absolute** (`translate=False`): the position under the 8 symmetries of the square board
  (geometry.transform). Two positions have the same absolute key iff one is mapped onto the
  other by a board symmetry; the key contains the board size.
* **Relative** (`translate=True`): the position under the 8 symmetries *and* translation: the
  shape is moved so that the smallest x and the smallest y over all its stones are 0. Two
  positions have the same relative key iff the same shape (same colours, same side to move)
  appears in both, wherever it sits and on whatever board size.

"Far enough from the edge" (when the relative key may be used) is defined precisely by
`far_from_edge`: every stone has at least EDGE_MARGIN = 5 empty-able cells between it and each
edge, i.e. ``min(x, y, size-1-x, size-1-y) >= 5``. Then every 6-cell segment of a line through
any stone lies entirely on the board, so every pattern the evaluation sees around those stones
(fives need 5 cells, open fours and the overline check of the standard rule need 6) is the
same as on an unbounded board. On a 15x15 board this is the 5x5 square around the centre,
on 20x20 the central 10x10 square. The book applies it to the position *and* the reply.

The canonical form is the lexicographically smallest (black, white) pair of sorted point
tuples over the allowed maps. `Canonical` remembers every map that reaches the key (several
when the shape is symmetric), so a point stored in the canonical frame can be mapped back to
the real board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gomoku.core.geometry import SYMMETRY_COUNT, Point, inverse, transform

EDGE_MARGIN = 5
"""Minimum number of cells between a stone and every edge for translation to be allowed."""

BLACK = 1
WHITE = 2

Key = tuple
"""A hashable canonical key (see `canonical`)."""

# Composition table of the 8 symmetries: _INV[k] undoes k. Computed once from geometry.
_INV = [inverse(k) for k in range(SYMMETRY_COUNT)]


def edge_distance(x: int, y: int, size: int) -> int:
    """Number of cells between (x, y) and the nearest edge of a size x size board."""
    return min(x, y, size - 1 - x, size - 1 - y)


def far_from_edge(points: Iterable[Point], size: int, margin: int = EDGE_MARGIN) -> bool:
    """True when every point has at least `margin` cells between it and every edge.

    Vacuously true for no points. This is the condition under which positions are matched
    under translation (see the module docstring for why 5).
    """
    return all(edge_distance(x, y, size) >= margin for x, y in points)


def split_moves(moves: Sequence[Point]) -> tuple[list[Point], list[Point]]:
    """Black stones (moves 1, 3, 5, ...) and white stones (moves 2, 4, ...) of a move list."""
    return list(moves[0::2]), list(moves[1::2])


def _side(black: Sequence[Point], white: Sequence[Point], side_to_move: int | None) -> int:
    if side_to_move is None:
        return BLACK if len(black) == len(white) else WHITE
    if side_to_move not in (BLACK, WHITE):
        raise ValueError(f"side_to_move must be 1 (black) or 2 (white), got {side_to_move!r}")
    return side_to_move


@dataclass(frozen=True)
class Canonical:
    """A canonical key and the maps from the real board into its frame.

    frames: every (k, (dx, dy)) with ``key`` = position mapped by ``p -> transform(k, p) -
    (dx, dy)``; the first is used by `to_frame` / `from_frame`. More than one frame means
    the position is symmetric (for translated keys: the *shape* is symmetric).
    For the empty position under translation the frame origin is the board centre
    (size // 2, size // 2), so a stored point (0, 0) means "the centre".
    """

    key: Key
    size: int
    translated: bool
    frames: tuple[tuple[int, Point], ...]

    def to_frame(self, x: int, y: int) -> Point:
        """Real board point -> canonical frame (first frame)."""
        k, (dx, dy) = self.frames[0]
        tx, ty = transform(k, x, y, self.size)
        return tx - dx, ty - dy

    def from_frame(self, cx: int, cy: int) -> Point:
        """Canonical frame point -> real board point (first frame). May be off the board."""
        return self._back(self.frames[0], cx, cy)

    def from_frame_all(self, cx: int, cy: int) -> list[Point]:
        """The canonical point mapped back through every frame (distinct, in frame order).

        For a symmetric position these are the symmetric images of one reply; all are
        equally good answers. Points may be off the board.
        """
        out: list[Point] = []
        for frame in self.frames:
            p = self._back(frame, cx, cy)
            if p not in out:
                out.append(p)
        return out

    def _back(self, frame: tuple[int, Point], cx: int, cy: int) -> Point:
        k, (dx, dy) = frame
        # transform(k) is affine: transform(k, p) = A p + b(size). Its inverse is transform
        # (inverse(k)), valid for any integer point, on the board or not.
        return transform(_INV[k], cx + dx, cy + dy, self.size)


def _images(
    black: Sequence[Point], white: Sequence[Point], size: int, k: int, translate: bool
) -> tuple[tuple[Point, ...], tuple[Point, ...], Point]:
    tb = [transform(k, x, y, size) for x, y in black]
    tw = [transform(k, x, y, size) for x, y in white]
    if translate:
        pts = tb + tw
        if pts:
            dx = min(p[0] for p in pts)
            dy = min(p[1] for p in pts)
        else:
            # the centre is not fixed by every k on even boards; use the image of the
            # centre so that from_frame((0, 0)) is the centre for every frame.
            dx, dy = transform(k, size // 2, size // 2, size)
        tb = [(x - dx, y - dy) for x, y in tb]
        tw = [(x - dx, y - dy) for x, y in tw]
        return tuple(sorted(tb)), tuple(sorted(tw)), (dx, dy)
    return tuple(sorted(tb)), tuple(sorted(tw)), (0, 0)


def canonical(
    black: Iterable[Point],
    white: Iterable[Point],
    size: int,
    translate: bool,
    side_to_move: int | None = None,
) -> Canonical:
    """The canonical form of a position.

    translate=False: key ``("abs", size, side, black, white)``, minimal over the 8 board
    symmetries. translate=True: key ``("rel", side, black, white)`` with coordinates relative
    to the shape's bounding box, minimal over the 8 symmetries; independent of the board size
    and of where the shape sits. black/white in the key are sorted tuples of points; the
    minimum is taken over the pair (black, white) in Python's tuple order. The caller decides
    whether translation is legitimate (see `far_from_edge`). Duplicate points are an error.
    """
    b = list(black)
    w = list(white)
    if len(set(b) | set(w)) != len(b) + len(w):
        raise ValueError("a point appears twice in the position")
    side = _side(b, w, side_to_move)
    best: tuple[tuple[Point, ...], tuple[Point, ...]] | None = None
    frames: list[tuple[int, Point]] = []
    for k in range(SYMMETRY_COUNT):
        tb, tw, off = _images(b, w, size, k, translate)
        cand = (tb, tw)
        if best is None or cand < best:
            best = cand
            frames = [(k, off)]
        elif cand == best:
            frames.append((k, off))
    assert best is not None
    key: Key = ("rel", side, *best) if translate else ("abs", size, side, *best)
    return Canonical(key=key, size=size, translated=translate, frames=tuple(frames))


def position_symmetries(black: Iterable[Point], white: Iterable[Point], size: int) -> list[int]:
    """The board symmetries k (0..7, see geometry.transform) that map the position onto itself.

    Black stones must map onto black stones and white onto white. Always contains 0. Only
    symmetries of the whole board count (not of the shape alone): moves related by one of
    these are truly equivalent, edges included.
    """
    bs = frozenset(black)
    ws = frozenset(white)
    out = []
    for k in range(SYMMETRY_COUNT):
        if all(transform(k, x, y, size) in bs for x, y in bs) and all(
            transform(k, x, y, size) in ws for x, y in ws
        ):
            out.append(k)
    return out


def unique_moves(
    moves: Iterable[Point], black: Iterable[Point], white: Iterable[Point], size: int
) -> list[Point]:
    """`moves` without the symmetric duplicates of earlier moves, order kept.

    A move is dropped when some symmetry of the position (`position_symmetries`) maps it onto
    a move kept before it. When the position has no symmetry but the identity, only exact
    repeats are dropped, so the list is returned unchanged for distinct moves. Used at the
    root of the search, where equivalent moves have equal values.
    """
    syms = position_symmetries(black, white, size)
    seen: set[Point] = set()
    out: list[Point] = []
    for x, y in moves:
        p = (x, y)
        if p in seen:
            continue
        out.append(p)
        seen.update(transform(k, x, y, size) for k in syms)
    return out
