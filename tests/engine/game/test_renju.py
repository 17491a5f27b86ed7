"""Renju: black's forbidden points, the fast detector (gomoku.game.renju) against the slow
reference (gomoku_lab.renju_reference) on the classic cases and on 4,000 random positions,
and the rule's win conditions on the board."""

from __future__ import annotations

import random

import numpy as np
import pytest
from renju_cases import (
    CLASSIC,
    DEEP,
    FIXTURE,
    Case,
    board_from_stones,
    fixture_text,
    grid_of,
    grid_stones,
    random_position,
)

from gomoku.core.rules import Rule
from gomoku.game import renju
from gomoku.game.board import Board
from gomoku.patterns.tables import BLACK, COUNT_BITS, FIVE, FOUR, OPEN_FOUR, OPEN_THREE, OVERLINE
from gomoku_lab import renju_reference as R


def fast_points(board: Board) -> dict[tuple[int, int], str]:
    return {board.point(p): s for p, s in renju.forbidden_points(board).items()}


def maybe_forbidden_cells(grid: R.Grid) -> list[tuple[int, int]]:
    """Empty cells that pass a necessary condition for being forbidden, from counts of
    black stones near them on each line: an overline needs 5 black stones within 5 cells
    on one line, two fours on one line 4 within 4, and a four or a three through the cell
    2 within 3 (the cell, the three or four other stones of a four or straight four and
    its completing point lie in 5 cells, at most one of them 4 cells away)."""
    size = len(grid)
    pad = 5
    black = np.zeros((size + 2 * pad, size + 2 * pad), dtype=np.int8)
    black[pad:-pad, pad:-pad] = np.array(grid) == R.BLACK
    lines_with_two = np.zeros((size, size), dtype=np.int8)
    strong = np.zeros((size, size), dtype=bool)
    for dx, dy in R.DIRECTIONS:
        within = {}
        for reach in (3, 4, 5):
            total = np.zeros((size, size), dtype=np.int8)
            for k in range(-reach, reach + 1):
                if k:
                    y0, x0 = pad + k * dy, pad + k * dx
                    total += black[y0 : y0 + size, x0 : x0 + size]
            within[reach] = total
        lines_with_two += within[3] >= 2
        strong |= (within[5] >= 5) | (within[4] >= 4)
    empty = np.array(grid) == R.EMPTY
    ys, xs = np.nonzero(empty & (strong | (lines_with_two >= 2)))
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


# --- the classic cases ---------------------------------------------------------------------


@pytest.mark.parametrize("case", CLASSIC + DEEP, ids=lambda c: c.name)
def test_classic_case(case: Case) -> None:
    """The reference gives the expected answer on the marked point, the fast detector
    agrees there and on every other point of the position."""
    grid, (x, y) = case.grid_and_target()
    assert R.forbidden(grid, x, y) == case.expected
    board = board_from_stones(*grid_stones(grid))
    assert renju.forbidden(board, board.layout.index(x, y)) == case.expected
    assert fast_points(board) == R.forbidden_points(grid)


def test_classic_cases_cover_every_shape() -> None:
    answers = {c.expected for c in CLASSIC}
    assert answers == {None, *renju.SHAPES}


def test_five_is_never_forbidden_and_overline_always_is() -> None:
    """Over every black summary: a FIVE in some direction screens out, an OVERLINE without
    a FIVE is an overline, two fours in two directions a double four."""
    from gomoku.patterns.tables import all_summaries, count_of

    for s in all_summaries():
        verdict = renju.screen(s)
        if count_of(s, FIVE):
            assert verdict is None
        elif count_of(s, OVERLINE):
            assert verdict == renju.OVERLINE_SHAPE
        elif count_of(s, FOUR) + count_of(s, OPEN_FOUR) >= 2:
            assert verdict == renju.DOUBLE_FOUR_SHAPE
        elif count_of(s, OPEN_FOUR) or count_of(s, OPEN_THREE) >= 2:
            assert verdict == "check"
        else:
            assert verdict is None
    assert renju.screen(2 << (COUNT_BITS * OPEN_THREE)) == "check"


@pytest.mark.parametrize(
    ("line", "fours", "fills"),
    [
        ("X.X*X.X....", 2, ()),
        ("XX.X*.XX...", 2, ()),
        ("..XX*X.....", 1, ()),  # a straight four: two five points, one four
        ("O.XX*......", 0, (1,)),
        ("..X*X......", 0, (-2, 2)),
        ("..X.*X.....", 0, (-1,)),  # split three: only the gap makes a straight four
        ("O.X*X.O....", 0, ()),
        ("X..XX*..X..", 0, ()),  # every straight four would end in an overline
    ],
)
def test_line_facts(line: str, fours: int, fills: tuple[int, ...]) -> None:
    """Written with the centre (*) at index 4 of 11 cells; '#' would be off the board."""
    from gomoku.patterns.tables import encode_key

    states = {".": 0, "X": 1, "O": 2, "#": 3, "*": 0}
    cells = [states[c] for c in line]
    centre = line.index("*")
    half = 5
    window = [3] * (half - centre) + cells
    window = (window + [3] * 11)[:11]
    assert renju.line_facts(encode_key(window, half), half) == (fours, fills)


# --- random positions ----------------------------------------------------------------------


def test_necessary_condition_misses_no_forbidden_point() -> None:
    """The cheap filter used below never drops a point the reference calls forbidden."""
    rng = random.Random(11)
    found = 0
    for _ in range(150):
        grid = grid_of(*random_position(rng))
        every = R.forbidden_points(grid)
        kept = set(maybe_forbidden_cells(grid))
        assert set(every) <= kept
        found += len(every)
    assert found > 100


POSITIONS, PARTS = 4_000, 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_fast_detector_equals_reference_on_4000_random_positions(part: int) -> None:
    """4,000 seeded random positions, sparse to dense: the fast detector's forbidden
    points are exactly the reference's (the reference asked on every point that passes
    the necessary condition, the fast detector on all its candidates). In 4 parts of
    1,000 (one seeded sequence, each part checks its quarter), so that pytest-xdist's
    workers share the 16 s."""
    rng = random.Random(20240601)
    shapes = {s: 0 for s in renju.SHAPES}
    recursive = 0  # cells the screen could not decide and that are not forbidden
    per_part = POSITIONS // PARTS
    for i in range(per_part * (part + 1)):
        black, white = random_position(rng)
        if i < per_part * part:
            continue  # another part's position
        grid = grid_of(black, white)
        want = {}
        for x, y in maybe_forbidden_cells(grid):
            shape = R.forbidden(grid, x, y)
            if shape:
                want[x, y] = shape
        board = board_from_stones(black, white)
        got = fast_points(board)
        assert got == want, (i, black, white)
        for p in board.candidates:
            if renju.screen(board.side_summary(p, BLACK)) == "check" and p not in got:
                recursive += 1
        for shape in got.values():
            shapes[shape] += 1
    assert min(shapes.values()) > per_part // 10, shapes  # every shape met many times
    assert recursive > per_part // 10


def test_cache_follows_make_and_unmake() -> None:
    """One board through random games, forward and back: at every ply its forbidden points
    are the reference's for the same stones (no stale cached answer)."""
    rng = random.Random(5)
    board = Board(15, Rule.RENJU)
    checked = 0

    def check() -> None:
        nonlocal checked
        black = [board.point(q) for q in board.history[0::2]]
        white = [board.point(q) for q in board.history[1::2]]
        grid = grid_of(black, white)
        want = {(x, y): s for x, y in maybe_forbidden_cells(grid) if (s := R.forbidden(grid, x, y))}
        assert fast_points(board) == want
        checked += len(want)

    for _ in range(4):
        cells = [board.layout.index(x, y) for x in range(4, 11) for y in range(4, 11)]
        rng.shuffle(cells)
        for p in cells[:40]:
            board.make(p)
            check()
        for _ in range(40):
            board.unmake()
            check()
    assert checked > 50


# --- the rule on the board and in move lists -----------------------------------------------


def test_black_wins_only_with_exactly_five_white_with_five_or_more() -> None:
    black_six = [(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (4, 0), (3, 7), (5, 0), (9, 9)]
    board = Board.from_moves(black_six, rule="renju")
    board.play(3, 0)  # a1..f1: six in a row
    assert board.winner == 0
    white_six = [(0, 5), (0, 0), (1, 5), (1, 0), (2, 7), (2, 0), (3, 7), (4, 0), (3, 8), (5, 0)]
    board = Board.from_moves(white_six, rule="renju")
    board.play(4, 9)
    board.play(3, 0)
    assert board.winner == 2
    board = Board.from_moves([(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (3, 0), (3, 5)])
    board = Board.from_moves(board.moves, rule="renju")
    board.play(4, 0)
    assert board.winner == 1


def test_first_forbidden_move() -> None:
    # black h8 i8 h9 ... then a double three at j10? build from the classic double three
    grid, (x, y) = CLASSIC[0].grid_and_target()
    black, white = grid_stones(grid)
    filler = [(0, 14), (2, 14), (4, 14), (6, 14)]  # white stones far away
    moves = [m for pair in zip(black, filler, strict=True) for m in pair]
    assert renju.first_forbidden_move(moves) is None
    assert renju.first_forbidden_move([*moves, (x, y)]) == (len(moves), R.DOUBLE_THREE)
    # white may play there
    assert renju.first_forbidden_move([*moves[:-1], (x, y)]) is None
    with pytest.raises(Exception, match="occupied"):
        renju.first_forbidden_move([(7, 7), (7, 7)])


def test_other_rules_have_no_forbidden_points() -> None:
    grid, (x, y) = CLASSIC[0].grid_and_target()
    black, white = grid_stones(grid)
    for rule in (Rule.FREESTYLE, Rule.STANDARD):
        board = Board(15, rule)
        for p in black:
            board.make(board.layout.index(*p))
            board.pass_move()
        assert renju.forbidden(board, board.layout.index(x, y)) is None
        assert renju.forbidden_points(board) == {}


def test_js_fixture_is_what_the_reference_says() -> None:
    """tests/page/node/fixtures/renju.json (what web/model/renju.js is tested against) is current;
    regenerate it with `python tests/engine/game/renju_cases.py`."""
    assert FIXTURE.read_text() == fixture_text()


def test_renju_bench_runs_and_verifies() -> None:
    from gomoku_lab import renju_bench

    lines: list[str] = []
    res = renju_bench.bench_renju(0.02, out=lines.append)
    assert res["forbidden_points"] > 10 and res["screened_to_exact_check"] > 10
    assert res["forbidden_per_s_warm"] > res["reference_checks_per_s"]
    assert len(lines) == len(res)
    assert renju_bench.verify(15, seed=2, out=lines.append) == 0
    assert "0 disagree" in lines[-1]
