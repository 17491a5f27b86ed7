"""The last line of defence under renju: black never plays a forbidden point.

The engine never generates black's forbidden points (movegen.generate), but a move that
does not come from the search (an opening book entry, a fallback after an internal error)
is not checked there. So the adapters that send a move out (the Gomocup brain, the web
worker's handler) pass it through ``safe_move`` first: a forbidden choice is replaced by
the strongest candidate black may play, in the engine's own move ordering
(``movegen.generate`` over all candidates, forced replies first), else by the allowed
empty point nearest the last move. Under freestyle and standard, and for white, nothing
is checked.

``replacement`` checks a move on a Board in the position (the play session's own, which
the search never touches); ``safe_move`` rebuilds the position from a move list (black
first) first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gomoku.core.geometry import Point, to_text
from gomoku.core.rules import Rule, check_size, parse_rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK, EMPTY
from gomoku.search.movegen import generate


@dataclass(frozen=True)
class Replacement:
    """The engine chose ``forbidden`` (forbidden for black as ``shape``); play ``move``."""

    move: Point
    forbidden: Point
    shape: str

    def message(self, size: int) -> str:
        fx, fy = self.forbidden
        x, y = self.move
        return (
            f"renju: the engine chose {to_text(fx, fy, size)}, forbidden for black "
            f"({self.shape}); playing {to_text(x, y, size)} instead"
        )


def _board(moves: Sequence[Point], size: int, rule: Rule) -> Board:
    board = Board(size, rule)
    for x, y in moves:
        board.play(int(x), int(y))
    return board


def _nearest_first(board: Board, moves: Sequence[Point]) -> list[int]:
    """Every empty cell, nearest the last move (or the centre) first."""
    size = board.size
    cx, cy = moves[-1] if moves else (size // 2, size // 2)
    cells = [
        (max(abs(x - cx), abs(y - cy)), abs(x - cx) + abs(y - cy), y, x)
        for y in range(size)
        for x in range(size)
        if board.cells[board.index(x, y)] == EMPTY
    ]
    return [board.index(x, y) for _, _, y, x in sorted(cells)]


def safe_move(
    moves: Sequence[Point], size: int, rule: str | int | Rule, move: Point
) -> Replacement | None:
    """None when ``move`` may be played after ``moves`` (black first) under ``rule``;
    else the Replacement to play (``replacement`` on the position rebuilt)."""
    rule = parse_rule(rule)
    size = check_size(size)
    if not rule.has_forbidden_points or len(moves) % 2 == 1:
        return None
    return replacement(_board(moves, size, rule), move)


def replacement(board: Board, move: Point) -> Replacement | None:
    """None when ``move`` may be played on ``board``; else the Replacement to play. Only
    a black move under renju can be forbidden. The board is left as it was.

    When every empty point is forbidden for black (a practically full board) there is
    nothing better to play, and None is returned."""
    if not board.rule.has_forbidden_points or board.side != BLACK:
        return None
    p = board.index(int(move[0]), int(move[1]))
    if board.cells[p] != EMPTY or board.winner:
        return None  # not black's move to make (the caller's play reports an illegal one)
    shape = forbidden(board, p)
    if shape is None:
        return None
    seen: set[int] = set()
    for q in [*generate(board, None), *_nearest_first(board, board.moves)]:
        if q in seen:
            continue
        seen.add(q)
        if board.cells[q] == EMPTY and forbidden(board, q) is None:
            return Replacement(board.point(q), (int(move[0]), int(move[1])), shape)
    return None
