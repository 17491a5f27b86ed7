"""Renju positions shared by the tests: the classic cases (hand-made, each answer checked
by the slow reference), seeded random positions, and the JSON fixture that the page's
renju.js is tested against (``python tests/engine/game/renju_cases.py`` rewrites it; a test checks
that the committed file is what the reference says now)."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "py"))

from gomoku.core.geometry import to_text  # noqa: E402
from gomoku.core.rules import Rule  # noqa: E402
from gomoku.game.board import Board  # noqa: E402
from gomoku_lab import renju_reference as R  # noqa: E402
from gomoku_lab.renju_bench import board_with  # noqa: E402

FIXTURE = ROOT / "tests" / "page" / "node" / "fixtures" / "renju.json"
SIZE = 15

Point = tuple[int, int]


@dataclass(frozen=True)
class Case:
    """A position (a diagram put on the board with its top-left corner at ``at``) and the
    answer for black on the point marked ``*``."""

    name: str
    diagram: str
    expected: str | None
    at: Point = (4, 4)

    def grid_and_target(self) -> tuple[R.Grid, Point]:
        grid = R.empty_grid(SIZE)
        target = None
        rows = [r.replace(" ", "") for r in self.diagram.strip().splitlines()]
        for j, row in enumerate(rows):
            for i, c in enumerate(row):
                x, y = self.at[0] + i, self.at[1] + j
                if c in "XO":
                    grid[y][x] = R.BLACK if c == "X" else R.WHITE
                elif c == "*":
                    target = (x, y)
                elif c != ".":
                    raise ValueError(f"{self.name}: bad character {c!r}")
        if target is None:
            raise ValueError(f"{self.name}: no * in the diagram")
        return grid, target


# fmt: off
CLASSIC = [
    Case("double three", """
        . . . . . .
        . . * X X .
        . . X . . .
        . . X . . .
        . . . . . .
    """, R.DOUBLE_THREE),
    Case("split three and three", """
        . . . . . . .
        . X . * X . .
        . . . X . . .
        . . . X . . .
        . . . . . . .
    """, R.DOUBLE_THREE),
    Case("double three on the diagonals", """
        . . . . . . .
        . X . . . X .
        . . X . X . .
        . . . * . . .
        . . . . . . .
        . . . . . . .
    """, R.DOUBLE_THREE),
    Case("four-three is allowed", """
        . . . . . . .
        . O X X * . .
        . . . . X . .
        . . . . X . .
        . . . . . . .
    """, None),
    Case("straight four and three is allowed", """
        . . . . . . . .
        . X X X * . . .
        . . . . X . . .
        . . . . X . . .
        . . . . . . . .
    """, None),
    Case("four and two threes (4-3-3) is a double three", """
        . . . . . . . .
        . . . . . . . .
        . O X X * X . .
        . . . . X X . .
        . . . . X . X .
        . . . . . . . .
        . . . . . . . .
    """, R.DOUBLE_THREE, (3, 3)),
    Case("double four", """
        . . . . . . .
        . O X X X * .
        . . . . . X .
        . . . . . X .
        . . . . . X .
        . . . . . O .
    """, R.DOUBLE_FOUR),
    Case("straight four and four", """
        . . . . . . .
        . X X X * . .
        . . . . X . .
        . . . . X . .
        . . . . X . .
        . . . . O . .
    """, R.DOUBLE_FOUR),
    Case("double four in one line X.X*X.X", ". X . X * X . X .", R.DOUBLE_FOUR, (3, 7)),
    Case("double four in one line XX.X*.XX", ". X X . X * . X X .", R.DOUBLE_FOUR, (2, 7)),
    Case("double four in one line X.XX*.X", ". X . X X * . X .", R.DOUBLE_FOUR, (3, 7)),
    Case("double four in one line on a diagonal", """
        X . . . . . .
        . . . . . . .
        . . X . . . .
        . . . * . . .
        . . . . X . .
        . . . . . . .
        . . . . . . X
    """, R.DOUBLE_FOUR),
    Case("a straight four alone is one four", ". . X X * X . .", None, (3, 7)),
    Case("overline", ". X X X * X X .", R.OVERLINE, (3, 7)),
    Case("overline beside a four", ". . X X X X * X .", R.OVERLINE, (2, 7)),
    Case("five at the other end of that four", ". * X X X X . X .", None, (2, 7)),
    Case("overline and a four", """
        . . . . . . . .
        . X X * X X X .
        . . . X . . . .
        . . . X . . . .
        . . . X . . . .
        . . . . . . . .
    """, R.OVERLINE),
    Case("five on a double four point wins", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X X * . . . .
        . . . . X X . . .
        . . . . X . X . .
        . . . . X . . X .
        . . . . . . . . .
    """, None, (3, 3)),
    Case("the same without the five is a double four", """
        . . . . . . . . .
        . . . . * . . . .
        . . . . X X . . .
        . . . . X . X . .
        . . . . X . . X .
        . . . . . . . . .
    """, R.DOUBLE_FOUR, (3, 6)),
    Case("five on an overline point wins", """
        . . . . . . . .
        . . . . X . . .
        . . . . X . . .
        . . . . X . . .
        X X X X * . . .
        . . . . X . . .
        . . . . X . . .
        . . . . . . . .
    """, None, (3, 3)),
    Case("five on a double three point wins", """
        . . . . . . . .
        . X X X X * . .
        . . . . X X . .
        . . . X . X . .
        . . . . . . . .
    """, None, (3, 3)),
    Case("false double three: the only straight-four point is an overline", """
        . . . . . . . .
        . . . . . X . .
        . . . . . X . .
        . . . . . X . .
        O . X * X . . .
        . . . X . X . .
        . . . X . X . .
        . . . . . . . .
        . . . . . . . .
    """, None, (4, 3)),
    Case("the same without the overline column is a double three", """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        O . X * X . . .
        . . . X . . . .
        . . . X . . . .
        . . . . . . . .
    """, R.DOUBLE_THREE, (4, 3)),
    Case("a straight-four point that also makes five is not forbidden", """
        . . . . . . . .
        . . . . . . . .
        . . . . . X . .
        . . . . . X . .
        O . X * X . . .
        . . . X . X . .
        . . . X . X . .
        . . . . . . . .
    """, R.DOUBLE_THREE, (4, 3)),
    Case("false double three: the straight-four point is a double four", """
        . . . . . . . .
        . . . . . X . .
        . . . . . X . .
        . . . . . X . .
        O . X * X . . .
        . . . X . . . .
        . . . X . . . .
        . . . . . . . .
    """, None, (4, 3)),
    Case("three at the edge is no three", """
        * X X . .
        X . . . .
        X . . . .
        . . . . .
    """, None, (0, 6)),
    Case("double three one point in from the edge", """
        . * X X . .
        . X . . . .
        . X . . . .
        . . . . . .
    """, R.DOUBLE_THREE, (0, 6)),
    Case("on the edge only the line along it can be a three", """
        . . . . .
        . . X . .
        . X . . .
        * . . . .
        X . . . .
        X . . . .
        . . . . .
    """, None, (0, 4)),
    Case("double three in the corner region", """
        . . . . . .
        . * X X . .
        . X . . . .
        . X . . . .
        . . . . . .
    """, R.DOUBLE_THREE, (0, 0)),
    Case("a three blocked at its end is no three", """
        . . . . . . . .
        . O X X * . . .
        . . . . X . . .
        . . . . X . . .
        . . . . . . . .
    """, None),
    Case("a three blocked one point further is still a three", """
        . . . . . . . .
        O . X * X . . .
        . . . X . . . .
        . . . X . . . .
        . . . . . . . .
    """, R.DOUBLE_THREE, (4, 3)),
    Case("a three blocked one point further on both sides is no three", """
        . . . . . . .
        O . X * X . O
        . . . X . . .
        . . . X . . .
        . . . . . . .
    """, None, (4, 3)),
    Case("a three whose fours all end in an overline is no three", """
        . . . . . . . . .
        X . . X X * . . X
        . . . . . X . . .
        . . . . . X . . .
        . . . . . . . . .
    """, None, (2, 3)),
    Case("white stones are not black's", """
        . . . . . .
        . . * O O .
        . . O . . .
        . . O . . .
        . . . . . .
    """, None),
]

# Positions found by a search of random positions for answers that need the recursion two
# levels deep (the straight-four point is forbidden only if its own threes are checked
# naively); the answer at * is the reference's.
DEEP = [
    Case("natural false double three", """
        . . . . . . . . . . . . . . .
        O X O . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . . O . . . . . . . . . . .
        O . X X X . . . . . . . . . .
        O O O . * . . . . . . . . . .
        . . O . . X X . . . . . . . .
        X O . O X X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
    """, None, (0, 0)),
    Case("double three that needs the recursion two levels deep", """
        X . X X . X . X X . X . . X .
        . . O O X X . . X . X . . O .
        . . X X X . X . . . . X . O .
        . O . O . O X X . X . . . X O
        O . . . X . O . X . O O . O X
        X . . O . . X X O O . . . . X
        . . X O . . . . . . . O . X .
        . O X X . O X . . X . X X . .
        . O . . . X . X * . . . . X .
        . . O . . . X . . . . . . . .
        . . . . . . X . X O . . . . .
        O . . . X . . X X . . . . . .
        . X . X . . . . . X X X O . .
        . . O . O . . . . O X . O . .
        . X X X X O X . . . X . . . O
    """, R.DOUBLE_THREE, (0, 0)),
    Case("another double three two levels deep", """
        . . X X O . O . X X . . O . .
        . . O . . X O . . . . X . . O
        O . . O O X X . . . . X X . .
        X X . X O . X O . X . . O X .
        . . X . X . . . X . X X . X O
        . . X . X . . O . . X X . O X
        . . X . . . . . . . . . . . .
        . . . * O X . . . . . O . . X
        X . . X . X . . O . . . . X X
        X . . . . X . . X X X . . X .
        . X X X . O . . . O . . . . .
        . . X . O O . O . . . X X X X
        . X . O . O . X X X X . O . .
        . . . . . X . . . X X . . X .
        X . O . O X . . X . . . . X .
    """, R.DOUBLE_THREE, (0, 0)),
]
# fmt: on


def grid_stones(grid: R.Grid) -> tuple[list[Point], list[Point]]:
    """(black points, white points) of a grid, row by row."""
    black = [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == R.BLACK]
    white = [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == R.WHITE]
    return black, white


def board_from_stones(black: list[Point], white: list[Point], size: int = SIZE) -> Board:
    """A renju Board with these stones (move order does not matter to forbidden points)."""
    return board_with(black, white, Rule.RENJU, size)


def random_position(rng: random.Random, size: int = SIZE) -> tuple[list[Point], list[Point]]:
    """Random stones: sparse to dense (4..100 stones), over the whole board or packed in a
    random square window, black's share of them 40-70%."""
    n = rng.randint(4, 100)
    if rng.random() < 0.5:
        w = rng.randint(5, size)
        x0, y0 = rng.randint(0, size - w), rng.randint(0, size - w)
    else:
        w, x0, y0 = size, 0, 0
    cells = [(x0 + i, y0 + j) for i in range(w) for j in range(w)]
    rng.shuffle(cells)
    cells = cells[: min(n, len(cells) - 1)]
    share = rng.uniform(0.4, 0.7)
    black = [c for c in cells if rng.random() < share]
    chosen = set(black)
    white = [c for c in cells if c not in chosen]
    return black, white


def grid_of(black: list[Point], white: list[Point], size: int = SIZE) -> R.Grid:
    grid = R.empty_grid(size)
    for x, y in black:
        grid[y][x] = R.BLACK
    for x, y in white:
        grid[y][x] = R.WHITE
    return grid


def fixture() -> dict[str, object]:
    """Positions with every forbidden point per the reference (cells as "h8")."""
    positions = []

    def add(name: str, grid: R.Grid) -> None:
        black, white = grid_stones(grid)
        points = R.forbidden_points(grid)
        positions.append(
            {
                "name": name,
                "black": [to_text(x, y, SIZE) for x, y in black],
                "white": [to_text(x, y, SIZE) for x, y in white],
                "forbidden": {to_text(x, y, SIZE): s for (x, y), s in sorted(points.items())},
            }
        )

    for case in CLASSIC + DEEP:
        add(case.name, case.grid_and_target()[0])
    rng = random.Random(2024)
    for i in range(120):
        add(f"random {i}", grid_of(*random_position(rng)))
    return {
        "about": "renju forbidden points per renju_reference.py; regenerate with "
        "`python tests/engine/game/renju_cases.py`",
        "size": SIZE,
        "positions": positions,
    }


def fixture_text() -> str:
    return json.dumps(fixture(), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(fixture_text())
    print(FIXTURE)
