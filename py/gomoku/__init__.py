"""A Gomoku (five in a row) engine: generated pattern tables, alpha-beta search, VCF/VCT.

Layers import only downward:
rules/geometry -> patterns -> zobrist -> board -> lines/evaluation/movegen -> tt/threats
-> search -> engine -> adapters (pbrain, webapi, match, bench, book_build).
The opening book's lookup (book) sits below the search: the engine imports it, it imports
nothing that imports the engine.
"""

__version__ = "0.1.0"
