"""Layer 0, the game's vocabulary: rules (freestyle, standard, renju) and board sizes,
points and their text (``h8``), the 8 board symmetries, Zobrist keys, the errors.

Imports nothing else of the engine.
"""
