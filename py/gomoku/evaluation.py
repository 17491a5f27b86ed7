"""Static evaluation from pattern counts, from the side to move's point of view.

The board keeps, per side, the sum of ``PATTERN_WEIGHT`` over every (empty cell,
direction) pair: the threats each side could make with one more stone. The side to
move's sum weighs a little more (it moves next). Scores are centi-units: 100 = 1.0.
"""

from __future__ import annotations

from .board import Board
from .patterns import (
    EMPTY,
    SIDE_MASK,
    SIDE_SHIFT,
    T_DOUBLE_THREE,
    T_FOUR,
    T_FOUR_THREE,
    threat_class,
)
from .weights import (
    DOUBLE_THREE_BONUS,
    FOUR_THREE_BONUS,
    PATTERN_WEIGHT,
    TEMPO_DENOMINATOR,
    TEMPO_NUMERATOR,
)

WIN_SCORE = 1_000_000
WIN_THRESHOLD = WIN_SCORE - 10_000  # scores beyond this are forced wins/losses


def evaluate(board: Board) -> int:
    """Score of the position for the side to move (incremental sums, O(1))."""
    own, _ = board.side_value(board.side)
    opp, _ = board.side_value(3 - board.side)
    return (own * TEMPO_NUMERATOR) // TEMPO_DENOMINATOR - opp


# Per-side flags of an empty cell for leaf_evaluate: black's in bits 0-2, white's above.
CAN_FOUR, DOUBLE_THREE, FOUR_THREE = 1, 2, 4
_FLAG_BITS = 3
_LEAF_FLAGS: dict[int, int] = {}  # full cell summary -> flags (filled on demand)
LEAF_CACHE_LIMIT = 100_000


def _side_flags(side_summary: int) -> int:
    t = threat_class(side_summary)
    flags = CAN_FOUR if t >= T_FOUR else 0
    if t >= T_FOUR_THREE:  # four-three, open four or double four
        flags |= FOUR_THREE
    elif t == T_DOUBLE_THREE:
        flags |= DOUBLE_THREE
    return flags


def _leaf_flags(summary: int) -> int:
    flags = _side_flags(summary & SIDE_MASK) | (
        _side_flags((summary >> SIDE_SHIFT) & SIDE_MASK) << _FLAG_BITS
    )
    if len(_LEAF_FLAGS) >= LEAF_CACHE_LIMIT:
        _LEAF_FLAGS.clear()
    _LEAF_FLAGS[summary] = flags
    return flags


def leaf_evaluate(board: Board) -> int:
    """``evaluate`` plus what a side to move can do at once that the pattern sums miss:
    a cell making a four-three (or double four) or a double three, when the opponent
    cannot answer with a four, is close to a win (a VCT of two moves). Scans the
    candidate cells; the search uses it at its leaves."""
    score = evaluate(board)
    summary = board.summary
    flags = _LEAF_FLAGS
    seen = 0
    for q in board.candidates:
        s = summary[q]
        f = flags.get(s)
        seen |= _leaf_flags(s) if f is None else f
    if board.side == 1:
        mover, opponent = seen & 7, seen >> _FLAG_BITS
    else:
        mover, opponent = seen >> _FLAG_BITS, seen & 7
    if opponent & CAN_FOUR:
        return score
    if mover & FOUR_THREE:
        return score + FOUR_THREE_BONUS
    if mover & DOUBLE_THREE:
        return score + DOUBLE_THREE_BONUS
    return score


def evaluate_from_scratch(board: Board) -> int:
    """The same score recomputed from the stones: the slow reference for tests."""
    lay = board.layout
    sums = {1: 0, 2: 0}
    for p in lay.onboard:
        if board.cells[p] != EMPTY:
            continue
        for d in range(4):
            k = board.line_key(p, d)
            sums[1] += PATTERN_WEIGHT[lay.pattern_black[k]]
            sums[2] += PATTERN_WEIGHT[lay.pattern_white[k]]
    own, opp = sums[board.side], sums[3 - board.side]
    return (own * TEMPO_NUMERATOR) // TEMPO_DENOMINATOR - opp


def is_win_score(score: int) -> bool:
    return abs(score) >= WIN_THRESHOLD


def score_text(score: int) -> str:
    """ "+1.2" style text, or "win in N" / "loss in N" (N = moves of the winning side)."""
    if score >= WIN_THRESHOLD:
        plies = WIN_SCORE - score
        return f"win in {(plies + 1) // 2}"
    if score <= -WIN_THRESHOLD:
        plies = WIN_SCORE + score
        return f"loss in {(plies + 1) // 2}"
    return f"{score / 100:+.1f}"
