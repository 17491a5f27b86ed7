"""The threat search's lean board (search/threat_board.py's LineBoard) against the full Board,
move by move."""

from __future__ import annotations

import random

import pytest

from gomoku.game.board import COUNT_MASK, Board
from gomoku.patterns.tables import COUNT_BITS, FIVE, FOUR, OPEN_FOUR, OPEN_THREE, SIDE_SHIFT
from gomoku.search.threat_board import ANY, FIVES, FOURS, THREES, LineBoard


def _has(summary: int, side: int, classes: tuple[int, ...]) -> bool:
    shift = 0 if side == 1 else SIDE_SHIFT
    return any((summary >> (shift + COUNT_BITS * c)) & 7 for c in classes)


def assert_same(board: Board, lines: LineBoard) -> None:
    """Every fact the line board gives equals the one read off the Board's summaries."""
    assert (lines.hash, lines.side, lines.winner) == (board.hash, board.side, board.winner)
    empty = [q for q in board.layout.onboard if board.cells[q] == 0]
    for q in empty:
        assert lines.summary(q) == board.summary[q] & COUNT_MASK, board.point(q)
    kinds = {FIVES: (FIVE,), FOURS: (FOUR, OPEN_FOUR), THREES: (OPEN_THREE,)}
    for side in (1, 2):
        shift = 0 if side == 1 else SIDE_SHIFT
        entries = {
            c: sum((board.summary[q] >> (shift + COUNT_BITS * c)) & 7 for q in empty)
            for c in (FIVE, OPEN_FOUR)
        }
        assert lines.fives(side) == entries[FIVE]
        assert lines.open_four_entries(side) == entries[OPEN_FOUR]
        assert (lines.fives(side) > 0) == (board.fives(side) > 0)
        for kind, classes in kinds.items():
            want = {q: board.summary[q] & COUNT_MASK for q in empty}
            want = {q: s for q, s in want.items() if _has(s, side, classes)}
            assert lines.cells_of(kind, side) == want
            # threat cells are always in the Board's candidate area
            assert set(want) <= board.candidates
        assert lines.five_cells(side) == sorted(lines.cells_of(FIVES, side))
    either = {
        q
        for q in empty
        if any(_has(board.summary[q], s, (OPEN_THREE, FOUR, OPEN_FOUR, FIVE)) for s in (1, 2))
    }
    assert set(lines.cells_of(ANY)) == either


@pytest.mark.parametrize("size,rule", [(15, "freestyle"), (15, "standard"), (20, "freestyle")])
def test_line_board_matches_board_through_make_unmake_and_pass(size: int, rule: str) -> None:
    rng = random.Random(size * 7 + len(rule))
    games = 0
    for _ in range(12):
        board = Board(size, rule)
        lines = LineBoard(board)
        for _ in range(rng.randrange(10, 90)):
            if board.winner:
                break
            cells = sorted(board.candidates) or [board.layout.index(size // 2, size // 2)]
            # Prefer threat cells now and then so fours, fives and wins happen.
            hot = sorted(lines.cells_of(ANY))
            p = rng.choice(hot if hot and rng.random() < 0.4 else cells)
            board.make(p)
            lines.make(p)
            assert_same(board, lines)
        games += bool(board.winner)
        assert_same(board, LineBoard(board))  # built from the Board at once
        board.pass_move()
        lines.pass_move()
        assert_same(board, lines)
        board.pass_move()
        lines.pass_move()
        for _ in range(rng.randrange(len(lines.history) + 1)):
            board.unmake()
            lines.unmake()
            assert_same(board, lines)
    assert games > 0  # the walk reached won positions too


def test_line_board_leaves_the_board_alone() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (7, 8), (8, 7)])
    before = (list(board.cells), board.hash, list(board.history))
    lines = LineBoard(board)
    lines.make(board.index(7, 9))
    lines.make(board.index(9, 9))
    assert (list(board.cells), board.hash, list(board.history)) == before
    assert lines.history == [board.index(7, 9), board.index(9, 9)]
