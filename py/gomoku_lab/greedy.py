"""The reference player at the bottom of the level ladder: one ply, greedy.

It looks at each empty cell near the stones once, never at a reply, and plays, in order:

1. a cell that makes its own five;
2. a cell that blocks the opponent's five (the opponent has a four);
3. a cell that stops the opponent's open four (the opponent has an open three);
4. otherwise the cell with the best immediate line score for both sides: what the cell
   makes for itself (attack) plus what it takes from the opponent (defence), from the
   pattern classes of its four lines (``gomoku.search.movegen.INFO``: the same per-class
   attack and defence weights the engine orders its moves by).

Ties are broken by the game's seed (``INFO seed``), so games from the same opening can
differ. Under renju black never plays a forbidden point. This is roughly how a newcomer
plays: they see a five, a four and an open three, and otherwise extend their best line.

The first-games player (``first_games_move``) is weaker still, the way people play their
very first games: it makes its five and blocks a four, and otherwise only builds its own
lines (the cell with the best attack score), never stopping an open three on purpose.

``python -m gomoku_lab.greedy [--first-games]`` speaks the Gomocup protocol (through
gomoku's brain), so the match runner plays either like any engine.
"""

from __future__ import annotations

import random
import sys

from gomoku.core.rules import Rule
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchResult
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.order_weights import OrderWeights
from gomoku.patterns.tables import BLACK, SIDE_MASK, SIDE_SHIFT, T_FIVE, T_OPEN_FOUR
from gomoku.patterns.weights import SUMMARY_INDEX
from gomoku.search.movegen import INFO

# The greedy player keeps the hand-typed ordering tables (the engine's are fitted and
# may change; the ladder's bottom anchor should not).
_CLASSIC = OrderWeights.classic(Rule.FREESTYLE)


def cell_classes(board: Board, q: int) -> tuple[int, int, int]:
    """(own threat class, opponent's threat class, attack + defence score) of cell q for
    the side to move."""
    s = board.summary[q]
    black, white = s & SIDE_MASK, (s >> SIDE_SHIFT) & SIDE_MASK
    own, opp = (black, white) if board.side == BLACK else (white, black)
    score = _CLASSIC.own[SUMMARY_INDEX[own]] + _CLASSIC.opp[SUMMARY_INDEX[opp]]
    return INFO[own][0], INFO[opp][0], score


def greedy_move(board: Board, rng: random.Random | None = None) -> int:
    """The greedy player's cell (see the module doc). The board must have an empty cell."""
    cells = sorted(q for q in board.candidates if board.cells[q] == 0)
    if board.rule is Rule.RENJU and board.side == BLACK:
        cells = [q for q in cells if forbidden(board, q) is None] or cells
    if not cells:  # an empty board (or nothing near the stones): the centre or any cell
        c = board.size // 2
        centre = board.layout.index(c, c)
        if board.cells[centre] == 0:
            return centre
        cells = [q for q in board.layout.onboard if board.cells[q] == 0]
    rng = rng or random.Random(0)
    scored = []
    for q in cells:
        own, opp, score = cell_classes(board, q)
        if own == T_FIVE:
            rank = 3
        elif opp == T_FIVE:
            rank = 2
        elif opp == T_OPEN_FOUR:
            rank = 1
        else:
            rank = 0
        scored.append((rank, score, rng.random(), q))
    return max(scored)[3]


def first_games_move(board: Board, rng: random.Random | None = None) -> int:
    """The first-games player's cell (see the module doc): its five, else a block of the
    opponent's five, else its best own attack (ties by ``rng``)."""
    cells = sorted(q for q in board.candidates if board.cells[q] == 0)
    if board.rule is Rule.RENJU and board.side == BLACK:
        cells = [q for q in cells if forbidden(board, q) is None] or cells
    if not cells:
        return greedy_move(board, rng)  # the empty board's centre, or any cell
    rng = rng or random.Random(0)
    scored = []
    for q in cells:
        s = board.summary[q]
        black, white = s & SIDE_MASK, (s >> SIDE_SHIFT) & SIDE_MASK
        own, opp = (black, white) if board.side == BLACK else (white, black)
        own_class, opp_class = INFO[own][0], INFO[opp][0]
        rank = 2 if own_class == T_FIVE else 1 if opp_class == T_FIVE else 0
        scored.append((rank, _CLASSIC.own[SUMMARY_INDEX[own]], rng.random(), q))
    return max(scored)[3]


class GreedyEngine(Engine):
    """An Engine whose think is the greedy player's move (for the Gomocup brain)."""

    seed = 0
    chooser = staticmethod(greedy_move)

    def think(self, limits: Limits | None = None, on_info=None) -> SearchResult:
        rng = random.Random(self.seed * 1_000_003 + len(self.board.history))
        q = self.chooser(self.board, rng)
        return SearchResult(self.board.point(q), 0, 1, len(self.board.candidates), 0,
                            [self.board.point(q)], "greedy")  # fmt: skip


class FirstGamesEngine(GreedyEngine):
    """An Engine whose think is the first-games player's move."""

    chooser = staticmethod(first_games_move)


def main(argv: list[str] | None = None) -> int:
    """``python -m gomoku_lab.greedy [--first-games]``: the greedy player (or the
    first-games player) as a Gomocup brain."""
    from gomoku.protocol.pbrain import Brain, run

    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--first-games"]):
        sys.stderr.write("usage: python -m gomoku_lab.greedy [--first-games]\n")
        return 2
    factory = FirstGamesEngine if args else GreedyEngine

    def write(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    class GreedyBrain(Brain):
        def _think_and_answer(self) -> None:
            self.engine.seed = self.seed  # INFO seed, read by the brain
            self.level = None  # the greedy player has no levels
            super()._think_and_answer()

    brain = GreedyBrain(write, engine_factory=factory)
    return run(sys.stdin, sys.stdout, brain)


if __name__ == "__main__":
    raise SystemExit(main())
