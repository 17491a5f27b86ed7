"""Renju forbidden points, the slow and obvious way: the reference that the fast detector
(renju.py), the match referee and the page's renju.js are checked against.

Everything here works on a plain grid ``grid[y][x]`` of 0 (empty), 1 (black), 2 (white)
and follows the RIF definitions literally, one direction at a time, by putting stones on
the grid and measuring runs:

- a **five** for black is a run of exactly five; six or more is an **overline**;
- a black **four** through a stone is a line on which one more black stone makes a five
  containing that stone; the points doing it are the line's *five points*. One five point
  is one four; two five points are one four when they are the two ends of four stones in a
  row (a *straight four*, ``.XXXX.``), otherwise two fours on one line (``X.XXX.X``);
- a black **three** through a stone is a line that is not a four and on which one more
  black stone makes a straight four through that stone, where that stone's point is not
  itself forbidden (with the first stone on the board: the recursion);
- a black move is **forbidden** when it does not make a five and makes an overline, two or
  more fours (double four) or two or more threes (double three). A move that makes a five
  is never forbidden, whatever else it makes.

Each call of ``forbidden`` works on its own copy of the grid (``with_stone``) with the
stone asked about on it; the five-point and straight-four tests put one more stone on that
copy and take it away again. Nothing is cached: this module is
meant to be read, not to be fast.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = "overline", "double four", "double three"

Grid = list[list[int]]
Point = tuple[int, int]


def empty_grid(size: int) -> Grid:
    """A size x size grid with no stones."""
    return [[EMPTY] * size for _ in range(size)]


def grid_from_moves(moves: list[Point], size: int) -> Grid:
    """The grid after ``moves`` (black first, then alternating)."""
    grid = empty_grid(size)
    for i, (x, y) in enumerate(moves):
        grid[y][x] = BLACK if i % 2 == 0 else WHITE
    return grid


def with_stone(grid: Grid, x: int, y: int, colour: int) -> Grid:
    """A copy of ``grid`` with a ``colour`` stone on (x, y)."""
    copy = [row[:] for row in grid]
    copy[y][x] = colour
    return copy


def run_cells(grid: Grid, x: int, y: int, dx: int, dy: int) -> list[Point]:
    """The unbroken row of stones of (x, y)'s colour through (x, y) along (dx, dy)."""
    behind, ahead = run_extent(grid, x, y, dx, dy)
    return [(x + k * dx, y + k * dy) for k in range(-behind, ahead + 1)]


def run_extent(grid: Grid, x: int, y: int, dx: int, dy: int) -> tuple[int, int]:
    """How many stones of (x, y)'s colour follow (x, y) without a break, backwards (along
    -(dx, dy)) and forwards (along (dx, dy)): the row through (x, y) runs from offset
    -behind to offset +ahead."""
    colour = grid[y][x]
    size = len(grid)
    counts = []
    for sign in (-1, 1):
        n = 0
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == colour:
            n += 1
            cx, cy = cx + sign * dx, cy + sign * dy
        counts.append(n)
    return counts[0], counts[1]


def line_offsets(grid: Grid, x: int, y: int, dx: int, dy: int, reach: int) -> list[int]:
    """The offsets k in -reach..reach, k != 0, of the on-board points (x, y) + k (dx, dy)."""
    size = len(grid)
    return [
        k
        for k in range(-reach, reach + 1)
        if k and 0 <= x + k * dx < size and 0 <= y + k * dy < size
    ]


def five_points(grid: Grid, x: int, y: int, dx: int, dy: int) -> list[Point]:
    """Empty points where one more black stone makes a run of exactly five through the
    black stone on (x, y), along (dx, dy)."""
    out = []
    for k in line_offsets(grid, x, y, dx, dy, 4):
        qx, qy = x + k * dx, y + k * dy
        if grid[qy][qx] != EMPTY:
            continue
        grid[qy][qx] = BLACK
        behind, ahead = run_extent(grid, qx, qy, dx, dy)
        grid[qy][qx] = EMPTY
        # the row through q spans offsets k - behind .. k + ahead from (x, y)
        if behind + 1 + ahead == 5 and k - behind <= 0 <= k + ahead:
            out.append((qx, qy))
    return out


def is_straight_four(grid: Grid, x: int, y: int, dx: int, dy: int) -> bool:
    """Four black stones in a row through (x, y), both ends empty and each end making a
    five (``.XXXX.``)."""
    behind, ahead = run_extent(grid, x, y, dx, dy)
    if behind + 1 + ahead != 4:
        return False
    ends = [
        (x - (behind + 1) * dx, y - (behind + 1) * dy),
        (x + (ahead + 1) * dx, y + (ahead + 1) * dy),
    ]
    return sorted(ends) == sorted(five_points(grid, x, y, dx, dy))


def fours_in_direction(grid: Grid, x: int, y: int, dx: int, dy: int) -> int:
    """How many fours the black stone on (x, y) is part of along (dx, dy): 0, 1 or 2."""
    points = five_points(grid, x, y, dx, dy)
    if len(points) >= 2 and is_straight_four(grid, x, y, dx, dy):
        return 1
    return min(len(points), 2)


def is_three(grid: Grid, x: int, y: int, dx: int, dy: int) -> bool:
    """Is the black stone on (x, y) part of a three along (dx, dy)? Not a four, and some
    empty point makes a straight four through (x, y) and is not forbidden itself."""
    if five_points(grid, x, y, dx, dy):
        return False
    for k in line_offsets(grid, x, y, dx, dy, 4):
        qx, qy = x + k * dx, y + k * dy
        if grid[qy][qx] != EMPTY:
            continue
        grid[qy][qx] = BLACK
        behind, ahead = run_extent(grid, x, y, dx, dy)
        straight = -behind <= k <= ahead and is_straight_four(grid, x, y, dx, dy)
        grid[qy][qx] = EMPTY
        if straight and forbidden(grid, qx, qy) is None:  # the recursion
            return True
    return False


def forbidden(grid: Grid, x: int, y: int) -> str | None:
    """Why a black stone on empty (x, y) is forbidden ("overline", "double four",
    "double three"), or None when black may play it. Raises ValueError if occupied."""
    if grid[y][x] != EMPTY:
        raise ValueError(f"({x}, {y}) is occupied")
    after = with_stone(grid, x, y, BLACK)
    runs = [sum(run_extent(after, x, y, dx, dy)) + 1 for dx, dy in DIRECTIONS]
    if 5 in runs:
        return None
    if max(runs) >= 6:
        return OVERLINE
    fours = [fours_in_direction(after, x, y, dx, dy) for dx, dy in DIRECTIONS]
    if sum(fours) >= 2:
        return DOUBLE_FOUR
    threes = 0
    for (dx, dy), four in zip(DIRECTIONS, fours, strict=True):
        threes += not four and is_three(after, x, y, dx, dy)
        if threes == 2:
            return DOUBLE_THREE
    return None


def forbidden_points(grid: Grid) -> dict[Point, str]:
    """Every forbidden point of the grid for black, with its shape."""
    out = {}
    for y, row in enumerate(grid):
        for x, cell in enumerate(row):
            if cell == EMPTY:
                shape = forbidden(grid, x, y)
                if shape:
                    out[x, y] = shape
    return out


def black_wins(grid: Grid, x: int, y: int) -> bool:
    """Does the black stone on (x, y) make a five (exactly five in some direction)?"""
    return any(len(run_cells(grid, x, y, dx, dy)) == 5 for dx, dy in DIRECTIONS)


def white_wins(grid: Grid, x: int, y: int) -> bool:
    """Does the white stone on (x, y) make five or more in a row?"""
    return any(len(run_cells(grid, x, y, dx, dy)) >= 5 for dx, dy in DIRECTIONS)
