"""Wins and losses read off the board's threat counts, and the cells of fives and fours.

The search asks these at every node, so they read the counts straight off
``Board.packed`` (a shift and a mask per count) rather than through a Board method call
per count: ``quick_result`` (a won or lost score, or None), ``quick_counts`` (the same
from a packed total alone, for a position the search has not made), ``threatened`` (must
the side to move answer a threat?), ``five_cell`` and ``four_cells``.
"""

from __future__ import annotations

from gomoku.core.rules import Rule
from gomoku.game.board import BLACK, THREAT_BITS, THREAT_FIELD, WHITE, WHITE_THREAT_SHIFT, Board
from gomoku.game.evaluation import WIN_SCORE
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import (
    COUNT_BITS,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    SIDE_SHIFT,
    T_DOUBLE_THREE,
    T_FIVE,
    T_FOUR,
    T_FOUR_THREE,
    T_OPEN_FOUR,
)


def threatened(board: Board, side: int) -> bool:
    """Does the opponent of ``side`` threaten something the side must answer: a five to
    make, an open four to make (an open three), or a four-three to make?"""
    packed, field = board.packed, FIELDS[3 - side]
    return bool(
        (packed >> field[T_FIVE]) & THREAT_FIELD
        or (packed >> field[T_OPEN_FOUR]) & THREAT_FIELD
        or (packed >> field[T_FOUR_THREE]) & THREAT_FIELD
    )


def four_capable(board: Board, side: int) -> int:
    """How many empty cells give ``side`` a four or better (a move the other must answer)."""
    return _four_capable(board.packed, side)


def _four_capable(packed: int, side: int) -> int:
    field = FIELDS[side]
    return (
        ((packed >> field[T_FOUR]) & THREAT_FIELD)
        + ((packed >> field[T_FOUR_THREE]) & THREAT_FIELD)
        + ((packed >> field[T_OPEN_FOUR]) & THREAT_FIELD)
        + ((packed >> field[T_FIVE]) & THREAT_FIELD)
    )


def _threat_fields(side: int) -> tuple[int, ...]:
    """Per threat class: the shift of ``side``'s count field in Board.packed (as
    Board.threat_count reads it)."""
    return tuple(
        (WHITE_THREAT_SHIFT if side == WHITE else 0) + THREAT_BITS * t for t in range(T_FIVE + 1)
    )


# by side, per threat class: the shift of the side's count field in Board.packed
FIELDS = ((), _threat_fields(BLACK), _threat_fields(WHITE))

# by side: the summary bits of a cell where the side makes a four or open four on a line
LINE_FOUR = (
    0,
    (7 << (COUNT_BITS * FOUR)) | (7 << (COUNT_BITS * OPEN_FOUR)),
    ((7 << (COUNT_BITS * FOUR)) | (7 << (COUNT_BITS * OPEN_FOUR))) << SIDE_SHIFT,
)

# quick_counts' answer when only the board can tell: is renju black's block forbidden?
NEEDS_BOARD = object()


def quick_result(board: Board, ply: int) -> int | None:
    """A won or lost score read off the threat counts, or None.

    Two fives of the opponent's to stop: lost in 2 plies. An open four (or double four)
    with no five of the opponent's: won in 3. A four-three, or a double three, against an
    opponent with no cell making a four (nor an open four): won in 5 (the four's block
    or one block of the two threes leaves an open four to make). Under renju black
    also loses when its only block is forbidden, and black's wins are left to the search
    (their cells may be forbidden)."""
    side = board.side
    quick = quick_counts(board.packed, side, ply, side == BLACK and board.rule is Rule.RENJU)
    if quick is NEEDS_BOARD:  # renju: black's only block of a five, lost if forbidden
        return -(WIN_SCORE - ply - 2) if forbidden(board, five_cell(board, 3 - side)) else None
    return quick


def quick_counts(packed: int, side: int, ply: int, renju_black: bool) -> int | object | None:
    """quick_result from Board.packed and the side to move, or NEEDS_BOARD when under
    renju black's only block of a five has to be checked for being forbidden."""
    mine = FIELDS[side]
    if (packed >> mine[T_FIVE]) & THREAT_FIELD:
        return WIN_SCORE - ply - 1  # we make five next move
    opp = 3 - side
    opp_fives = (packed >> FIELDS[opp][T_FIVE]) & THREAT_FIELD
    if opp_fives:
        if opp_fives >= 2:
            return -(WIN_SCORE - ply - 2)  # two to stop
        return NEEDS_BOARD if renju_black else None
    if renju_black:
        return None  # black's open fours and double threats may sit on forbidden points
    if (packed >> mine[T_OPEN_FOUR]) & THREAT_FIELD:
        return WIN_SCORE - ply - 3  # open four now, five next: nothing stops both ends
    if (
        (packed >> mine[T_FOUR_THREE]) & THREAT_FIELD
        or (packed >> mine[T_DOUBLE_THREE]) & THREAT_FIELD
    ) and not _four_capable(packed, opp):
        return WIN_SCORE - ply - 5
    return None


_FIVE_SHIFT = (0, COUNT_BITS * 9, SIDE_SHIFT + COUNT_BITS * 9)
_FOUR_SHIFT = (0, COUNT_BITS * FOUR, SIDE_SHIFT + COUNT_BITS * FOUR)


def five_cell(board: Board, side: int) -> int:
    """An empty cell where ``side`` makes five (-1 if none)."""
    shift = _FIVE_SHIFT[side]
    summary = board.summary
    if board.fives(side) == 1 and board.history:
        # the only one is usually on a line through the last stone: look there first
        for q in board.layout.line_neighbours[board.history[-1]] & board.candidates:
            if (summary[q] >> shift) & 7:
                return q
    for q in board.candidates:
        if (summary[q] >> shift) & 7:
            return q
    return -1


def four_cells(board: Board, side: int) -> list[int]:
    """Cells where ``side`` makes a four, near its last stone when it has one (on a line
    through it within 4 cells, Layout.line_neighbours), four-threes first."""
    shift = _FOUR_SHIFT[side]
    three_shift = shift + COUNT_BITS * (OPEN_THREE - FOUR)
    summary = board.summary
    history = board.history
    cells = board.candidates
    if len(history) >= 2:  # the candidates near our last stone (a C-level intersection)
        cells = board.layout.line_neighbours[history[-2]] & cells
    out = []
    renju_black = side == BLACK and board.rule is Rule.RENJU
    for q in cells:
        s = summary[q]
        if (s >> shift) & 7:
            if renju_black and forbidden(board, q):
                continue
            out.append(((s >> three_shift) & 7, q))
    out.sort(reverse=True)
    return [q for _, q in out]
