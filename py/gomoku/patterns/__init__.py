"""Layer 1, what a line of cells is and what it is worth.

- ``tables``: the pattern class (five, open four, four, open three, ...) a side makes at a
  cell in one direction, for every line key of a rule; the tables are generated at
  start-up (and cached under ``gomoku/data``); threat classes of a cell's 4 classes.
- ``weights``: the evaluation's and the move ordering's values of those classes, fitted
  to game results (data in ``gomoku/data/eval-<rule>.json``).

Imports only ``gomoku.core``.
"""
