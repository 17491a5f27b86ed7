"""Layer 2, the position: stones on a board with their pattern classes and evaluation
terms kept up to date move by move (``board``), the static evaluation read off those
sums (``evaluation``), and renju's forbidden points for black (``renju``).

Imports only ``gomoku.core`` and ``gomoku.patterns``.
"""
