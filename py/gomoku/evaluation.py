"""Static evaluation from pattern counts, from the side to move's point of view.

The board keeps, per side, the sum of ``PATTERN_WEIGHT`` over every (empty cell,
direction) pair: the threats each side could make with one more stone. The side to
move's sum weighs a little more (it moves next). Scores are centi-units: 100 = 1.0.
"""

from __future__ import annotations

from .board import Board
from .patterns import EMPTY
from .weights import PATTERN_WEIGHT, TEMPO_DENOMINATOR, TEMPO_NUMERATOR

WIN_SCORE = 1_000_000
WIN_THRESHOLD = WIN_SCORE - 10_000  # scores beyond this are forced wins/losses


def evaluate(board: Board) -> int:
    """Score of the position for the side to move (incremental sums, O(1))."""
    own, _ = board.side_value(board.side)
    opp, _ = board.side_value(3 - board.side)
    return (own * TEMPO_NUMERATOR) // TEMPO_DENOMINATOR - opp


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
