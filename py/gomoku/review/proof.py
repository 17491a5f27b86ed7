"""The review's proofs: deeper threat searches asked about one position at a time.

A review's first pass scores each position at a fixed budget; what it flags is then
checked here with the threat search at higher limits (THREAT_LIMITS), node-capped and
without a clock, so each answer is a function of the position and the limits alone:

- ``forced_win``: does the side to move win by VCF or VCT? A known winning line from a
  later position (and the moves played up to it) is tried first: that is how the walk
  back finds where a loss began (review.py, Reviewer._walk_back);
- ``loses_after``: does the opponent win by force after a move (a better move to offer
  must not)?

"No win found" means none within the limits: a proof of a win is a proof, its absence
is not.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.core.geometry import Point
from gomoku.engine.facade import Engine, renju_checked
from gomoku.search.threats import ThreatSearch


@dataclass(frozen=True)
class ThreatLimits:
    """How far a proof looks: VCF and VCT depths (attacker moves) and a node cap per
    question (VCF and VCT each)."""

    vcf_depth: int = 16
    vct_depth: int = 8
    nodes: int = 20000


THREAT_LIMITS = ThreatLimits()  # the second pass's (the engine plays with VCF 12, VCT 6)


def forced_win(
    engine: Engine,
    moves: list[Point],
    limits: ThreatLimits = THREAT_LIMITS,
    first: list[Point] | None = None,
) -> list[Point] | None:
    """The winning line of the side to move after ``moves`` (VCF, else VCT), trying the
    points ``first`` first where they are threats; None when none is found or the game
    is over."""
    engine.set_position(list(moves))
    if engine.is_over:
        return None
    board = engine.board
    search = ThreatSearch(board, cache={})  # a fresh cache: the answer is the position's
    if first:
        search.first = tuple(board.layout.index(x, y) for x, y in first)
    line = renju_checked(board, search.vcf(limits.vcf_depth, None, limits.nodes))
    if line is None:
        line = renju_checked(board, search.vct(limits.vct_depth, None, limits.nodes))
    return None if line is None else [board.point(q) for q in line]


def loses_after(
    engine: Engine, moves: list[Point], move: Point, limits: ThreatLimits = THREAT_LIMITS
) -> list[Point] | None:
    """The opponent's winning line after ``move`` is played following ``moves`` (None: it
    has none within the limits, or ``move`` ends the game)."""
    return forced_win(engine, [*moves, tuple(move)], limits)
