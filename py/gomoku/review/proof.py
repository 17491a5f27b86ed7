"""The review's proofs: the threat prover asked about one position at a time.

A review's first pass scores each position at a fixed budget; what it flags is then
checked here with the proof-number threat prover (gomoku.search.prover) under a node
cap and no clock (PROOF_LIMITS), so each answer is a function of the position and the
limits alone:

- ``forced_win``: does the side to move win by force (by threats: fours, open threes,
  and quiet blocks of the opponent's threats)? Cells of a known winning line from a
  later position (and the moves played up to it) are tried first: that is how the walk
  back finds where a loss began (review.py, Reviewer._walk_back);
- ``after_move``: after a move, does the opponent win by force (WIN), is there proven
  to be no such win within the prover's threat space (NO_WIN), or did the limits run
  out (UNKNOWN)? A better move is offered only on NO_WIN.

"No win" is a claim with limits: no win by threats within ``PROOF_LIMITS.quiet`` quiet
moves per line. A quiet attacking move beyond that may still win.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.core.geometry import Point
from gomoku.engine.facade import Engine
from gomoku.search.prover import NO_WIN, UNKNOWN, WIN, Proof, prove

__all__ = ["NO_WIN", "PROOF_LIMITS", "UNKNOWN", "WIN", "ProofLimits", "after_move", "forced_win"]


@dataclass(frozen=True)
class ProofLimits:
    """How far a proof looks: the prover's nodes per question and its quiet moves per
    line (see gomoku.search.prover.Prover)."""

    nodes: int = 30_000
    quiet: int = 2


PROOF_LIMITS = ProofLimits()


def _prove(engine: Engine, moves: list[Point], limits: ProofLimits, first: list[Point]) -> Proof:
    engine.set_position(list(moves))
    board = engine.board
    prefer = [board.layout.index(x, y) for x, y in first]
    return prove(board, max_nodes=limits.nodes, quiet=limits.quiet, prefer=prefer)


def forced_win(
    engine: Engine,
    moves: list[Point],
    limits: ProofLimits = PROOF_LIMITS,
    first: list[Point] | None = None,
) -> list[Point] | None:
    """The winning line of the side to move after ``moves`` (its principal line: the
    defender's longest resistance), trying the points ``first`` first where they are
    threats; None when none is found within the limits or the game is over."""
    proof = _prove(engine, moves, limits, first or [])
    if not proof.win:
        return None
    board = engine.board
    return [board.point(q) for q in proof.line]


def after_move(
    engine: Engine, moves: list[Point], move: Point, limits: ProofLimits = PROOF_LIMITS
) -> str:
    """After ``move`` is played following ``moves``: WIN (the opponent wins by force),
    NO_WIN (proven: no win by threats within the limits' quiet moves) or UNKNOWN (the
    node cap ran out). A move that ends the game is NO_WIN for the opponent."""
    return _prove(engine, [*moves, tuple(move)], limits, []).status
