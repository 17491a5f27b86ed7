"""Layer 3, looking ahead: candidate moves (``movegen``), the alpha-beta search
(``alphabeta``), the threat search for VCF / VCT (``threats``) on its own light board of
lines (``threat_board``), the defence against the opponent's threats (``defence``), the
proof search (``prover``), the transposition table (``tt``) and the one module that
decides how long a move may take (``timeman``).

Imports only the layers below (core, patterns, game).
"""
