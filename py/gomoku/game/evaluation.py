"""Static evaluation, from the side to move's point of view, in centi-units.

A logistic model of the side to move's result fitted to games (gomoku_lab.tune, weights.py):
per empty cell a value for its one-side summary as the side to move's cell and as the
other side's, plus a value for the threat situation (each side's strongest threat class)
and a tempo term (under renju the tables may differ with the colour to move:
EvalWeights.for_side). The board keeps the per-cell sums up to date (Board.packed), so the
evaluation is O(1). The tables are in 1/FINE centi-units (summed, then divided), and
``weights.scale`` centi-units make one logit unit.
"""

from __future__ import annotations

from gomoku.game.board import (
    BLACK,
    EVAL_BIAS,
    EVAL_BITS,
    EVAL_HALF,
    EVAL_MASK,
    THREAT_BITS,
    VALUE_SHIFT,
    WHITE,
    WHITE_THREAT_SHIFT,
    Board,
    CellValues,
)
from gomoku.patterns.weights import (
    FINE,
    SUMMARY_INDEX,
    SUMMARY_THREAT,
    THREAT_CLASSES,
    load_weights,
)

WIN_SCORE = 1_000_000
WIN_THRESHOLD = WIN_SCORE - 10_000  # scores beyond this are forced wins/losses
# (what a score means, as data and as text: gomoku.search.score)


def evaluate(board: Board) -> int:
    """Score of the position for the side to move (incremental sums, O(1))."""
    return evaluate_packed(board.values, board.packed, board.side)


def evaluate_packed(values: CellValues, packed: int, side: int) -> int:
    """evaluate's score from what it depends on: the rule's cell values, Board.packed and
    the side to move (the search also scores a position it has not made this way).

    The two sums it needs are read straight off the packed total (EVAL_BIAS) and the
    strongest threat classes from its count fields (as Board.best_threats): the search
    evaluates at most nodes, so this avoids unpack_eval's loop and two calls."""
    u = (packed >> VALUE_SHIFT) + EVAL_BIAS  # field j: (its sum + EVAL_HALF) << EVAL_BITS * j
    low = packed & _THREATS_MASK
    tb = ((low & _BLACK_THREATS_MASK).bit_length() - 1) // THREAT_BITS
    tw = ((low >> WHITE_THREAT_SHIFT).bit_length() - 1) // THREAT_BITS
    if side == BLACK:
        # black as the mover (field 0) and white as the other side (field 3)
        fine = (u & EVAL_MASK) + (u >> 3 * EVAL_BITS) - 2 * EVAL_HALF
        return (fine + values.threat[BLACK][tb * THREAT_CLASSES + tw] + values.tempo[BLACK]) // FINE
    # white as the mover (field 2) and black as the other side (field 1)
    fine = ((u >> 2 * EVAL_BITS) & EVAL_MASK) + ((u >> EVAL_BITS) & EVAL_MASK) - 2 * EVAL_HALF
    return (fine + values.threat[WHITE][tw * THREAT_CLASSES + tb] + values.tempo[WHITE]) // FINE


_THREATS_MASK = (1 << VALUE_SHIFT) - 1
_BLACK_THREATS_MASK = (1 << WHITE_THREAT_SHIFT) - 1


def evaluate_from_scratch(board: Board) -> int:
    """The same score recomputed from the stones (line keys, pattern tables and the
    weights read directly): the slow reference for tests."""
    w_mover, w_other, w_threat, w_tempo = load_weights(board.rule).for_side(board.side)
    lay = board.layout
    mover, other = board.side, 3 - board.side
    score = w_tempo
    best = {1: 0, 2: 0}
    for p in lay.onboard:
        if board.cells[p]:
            continue
        summary = {1: 0, 2: 0}
        for d in range(4):
            k = board.line_key(p, d)
            summary[1] += 1 << (3 * lay.pattern_black[k])
            summary[2] += 1 << (3 * lay.pattern_white[k])
        for side in (1, 2):
            i = SUMMARY_INDEX[summary[side]]
            score += w_mover[i] if side == mover else w_other[i]
            best[side] = max(best[side], SUMMARY_THREAT[i])
    return (score + w_threat[best[mover] * THREAT_CLASSES + best[other]]) // FINE


def is_win_score(score: int) -> bool:
    return abs(score) >= WIN_THRESHOLD
