"""Coordinates: (x, y) <-> "h8" text, and the 8 symmetries of the square board.

(x, y) are the Gomocup protocol's 0-based coordinates: x is the column from the left,
y the row from the top. Text is a column letter a..t and a row number 1..size counted
from the bottom, so the centre of a 15x15 board is (7, 7) = "h8".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gomoku.core.errors import CoordinateError

COLUMNS = "abcdefghijklmnopqrst"
_TEXT_RE = re.compile(r"^([a-t])([1-9][0-9]?)$")

Point = tuple[int, int]


def on_board(x: int, y: int, size: int) -> bool:
    return 0 <= x < size and 0 <= y < size


def check_point(x: object, y: object, size: int) -> Point:
    """Return (x, y) if both are ints on the board, else raise CoordinateError."""
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int):
            raise CoordinateError(f"coordinates must be integers, got ({x!r}, {y!r})")
    if not on_board(x, y, size):  # type: ignore[arg-type]
        raise CoordinateError(f"({x}, {y}) is off the {size}x{size} board")
    return x, y  # type: ignore[return-value]


def to_text(x: int, y: int, size: int) -> str:
    """(x, y) -> "h8" style text."""
    check_point(x, y, size)
    return f"{COLUMNS[x]}{size - y}"


def from_text(text: str, size: int) -> Point:
    """ "h8" style text (case-insensitive, surrounding spaces ignored) -> (x, y)."""
    if not isinstance(text, str):
        raise CoordinateError(f"move text must be a string, got {text!r}")
    m = _TEXT_RE.match(text.strip().lower())
    if not m:
        raise CoordinateError(
            f"malformed move {text!r} (expected a column letter and a row, like h8)"
        )
    x = COLUMNS.index(m.group(1))
    row = int(m.group(2))
    if x >= size or not 1 <= row <= size:
        raise CoordinateError(f"move {text!r} is off the {size}x{size} board")
    return x, size - row


def moves_to_text(moves: Iterable[Point], size: int) -> str:
    return " ".join(to_text(x, y, size) for x, y in moves)


def moves_from_text(text: str, size: int) -> list[Point]:
    """Parse a move list like "h8 i9 j10" (spaces or commas between moves)."""
    if not isinstance(text, str):
        raise CoordinateError(f"move list must be a string, got {text!r}")
    return [from_text(t, size) for t in re.split(r"[\s,;]+", text.strip()) if t]


# The dihedral group of the square: 4 rotations x optional mirror. Transform k maps a
# point of an n x n board to another point of the same board.
SYMMETRY_COUNT = 8


def transform(k: int, x: int, y: int, size: int) -> Point:
    """Apply symmetry k (0..7, 0 = identity) to (x, y) on a size x size board."""
    m = size - 1
    if k & 4:
        x = m - x
    r = k & 3
    for _ in range(r):
        x, y = m - y, x
    return x, y


def inverse(k: int) -> int:
    """The symmetry that undoes k."""
    for j in range(SYMMETRY_COUNT):
        if all(
            transform(j, *transform(k, x, y, 5), 5) == (x, y) for x in range(5) for y in range(5)
        ):
            return j
    raise AssertionError("unreachable")


def transforms(size: int) -> list[Callable[[int, int], Point]]:
    """The 8 symmetries as functions of (x, y) for one board size."""
    return [lambda x, y, k=k: transform(k, x, y, size) for k in range(SYMMETRY_COUNT)]
