"""The bottom rungs of the level ladder: a player who has just learnt the rules.

No search: one look at the pattern tables of the cells near the stones (what a stone
there would make for each side), the way a person new to the game looks at the board.
It sees its own lines first and the opponent's only sometimes:

1. it always makes a five when it has one;
2. once a move it decides whether it looks at the opponent's threats at all: with the
   chance ``miss_four`` it does not, and plays on as if the opponent's four were not
   there; with the chance ``miss_three`` (at least ``miss_four``) it does not stop an
   open three. Looking, it blocks the four, else stops the open three (of the cells that
   do, the one best for its own lines);
3. otherwise it builds its own lines. When ``sees_open_four`` it makes an open four from
   its three; else it ranks the cells by its own attack score plus a fraction
   (``defence``) of what the cell takes from the opponent (the hand-typed ordering scores,
   the same per-class weights as the lab's greedy player; what a cell takes counts up to
   ``DEFENCE_CAP``, what a quiet block is worth, so that a threat it chose not to see is
   not blocked by the back door), and walks down its ``width`` best: it takes each one
   with the chance ``pick``, else looks at the next (the last is taken). A good-looking
   move of its own, the best one most often, rarely a poor one.

Under renju black never plays a forbidden point. The random draws come from the
caller's ``random.Random`` (levels.move_rng: the game's seed and the move number), so
the move is a function of the position, the level and the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.order_weights import OrderWeights
from gomoku.patterns.tables import BLACK, SIDE_MASK, SIDE_SHIFT, T_FIVE, T_OPEN_FOUR
from gomoku.patterns.weights import SUMMARY_INDEX
from gomoku.search.movegen import INFO

# The hand-typed tables: the fitted ones may change with the engine; these rungs should not.
_CLASSIC = OrderWeights.classic(Rule.FREESTYLE)
# The most a cell's defence counts in the choice of its own lines: the weight of taking
# the opponent's open three away before it is made (a quiet block), not more.
DEFENCE_CAP = 100


@dataclass(frozen=True)
class Habits:
    """How a bottom rung is weak (see the module doc)."""

    miss_four: float  # the chance per move of not looking at the opponent's four
    miss_three: float  # ... at its open three (not looking at a four, it sees no three)
    defence: float  # the share of what a cell takes from the opponent in its worth
    pick: float  # the chance of taking each ranked cell in turn
    width: int  # how many ranked cells it considers
    sees_open_four: bool  # does it always make an open four from its three?


def _cells(board: Board) -> list[int]:
    """The empty cells a person would look at: near the stones (the centre on an empty
    board), no forbidden point for renju's black."""
    cells = sorted(q for q in board.candidates if board.cells[q] == 0)
    if board.rule is Rule.RENJU and board.side == BLACK:
        cells = [q for q in cells if forbidden(board, q) is None] or cells
    if not cells:
        c = board.size // 2
        centre = board.layout.index(c, c)
        if board.cells[centre] == 0:
            return [centre]
        cells = [q for q in board.layout.onboard if board.cells[q] == 0]
    return cells


def novice_move(board: Board, habits: Habits, rng: random.Random) -> int:
    """The cell this rung plays (see the module doc). The board must have an empty cell."""
    rows = []  # (cell, own class, opponent's class, own score, opponent's score)
    for q in _cells(board):
        s = board.summary[q]
        black, white = s & SIDE_MASK, (s >> SIDE_SHIFT) & SIDE_MASK
        own, opp = (black, white) if board.side == BLACK else (white, black)
        attack, defence = _CLASSIC.own[SUMMARY_INDEX[own]], _CLASSIC.opp[SUMMARY_INDEX[opp]]
        rows.append((q, INFO[own][0], INFO[opp][0], attack, defence))
    fives = [r for r in rows if r[1] == T_FIVE]
    if fives:
        return fives[0][0]
    look = rng.random()
    blocks = []
    if look >= habits.miss_four:
        blocks = [r for r in rows if r[2] == T_FIVE]
    if not blocks and look >= habits.miss_three:
        blocks = [r for r in rows if r[2] == T_OPEN_FOUR]
    if blocks:
        return max(blocks, key=lambda r: (r[3], -r[0]))[0]
    if habits.sees_open_four:
        wins = [r for r in rows if r[1] == T_OPEN_FOUR]
        if wins:
            return wins[0][0]
    ranked = sorted(rows, key=lambda r: (-(r[3] + habits.defence * min(r[4], DEFENCE_CAP)), r[0]))
    ranked = ranked[: max(1, habits.width)]
    for row in ranked[:-1]:
        if rng.random() < habits.pick:
            return row[0]
    return ranked[-1][0]
