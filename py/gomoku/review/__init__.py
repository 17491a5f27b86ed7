"""Game review (``python -m gomoku.review FILE``): a game's positions evaluated at a fixed
node budget with the threat search, black's winning chance move by move, and each move
classified by how much it cost its mover (inaccuracy, mistake, blunder, missed win, only
move), with the engine's better move and its line.

- ``records``: the game records it reads (.psq, move lists, share links);
- ``review``: the evaluation of positions, the classes, the summary (plain data: the
  page, the command line and the tests read the same thing);
- ``__main__``: the command line (a table, or ``--json``).

Layer 5: imports the engine and the layers below it.
"""

from gomoku.review.records import GameRecord, RecordError, read_record
from gomoku.review.review import DEFAULT_NODES, MoveReview, PositionEval, Reviewer, classify

__all__ = [
    "DEFAULT_NODES",
    "GameRecord",
    "MoveReview",
    "PositionEval",
    "RecordError",
    "Reviewer",
    "classify",
    "read_record",
]
