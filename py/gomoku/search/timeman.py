"""When to stop deepening: an optimum and a maximum time per move, as chess engines do.

The search calls ``iteration_done`` after each completed iteration of its iterative
deepening. The manager stops the search once the time spent passes the optimum scaled
by how settled the result looks:

- the best move changed in recent iterations (a decaying count of changes): go on
  longer, the last iteration may have been the first to see a problem;
- the score fell since the iteration before the last (same parity: a Gomoku score swings
  between odd and even depths): go on longer; it rose: stop sooner;
- the best move has stood for several iterations with a steady score: stop sooner.

The maximum is the hard cap, enforced inside the search (it unwinds mid-iteration and
plays the best move found so far); the manager never asks for more than that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gomoku.game.evaluation import WIN_THRESHOLD

STABLE_FACTOR = 0.6  # share of the optimum spent on a move that never changed
CHANGE_WEIGHT = 1.0  # added to the factor per (decayed) change of the best move
CHANGE_DECAY = 0.5  # a change counts half as much one iteration later
FALLING_SCALE = 200  # centi-units of score drop that add 1.0 to the falling factor
FALLING_RANGE = (0.7, 1.6)
FACTOR_RANGE = (0.5, 2.0)


def clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


@dataclass
class TimeManager:
    """Stop rule for one search. ``optimum`` and ``maximum`` are seconds from the start
    (None: no time limit of that kind)."""

    optimum: float | None
    maximum: float | None
    changes: float = 0.0
    last_move: int | None = None
    scores: list[int] = field(default_factory=list)

    def factor(self, score: int) -> float:
        """The multiple of the optimum this search may use, given the latest score."""
        falling = 1.0
        before = self.scores[-2] if len(self.scores) >= 2 else None
        if before is not None and abs(score) < WIN_THRESHOLD and abs(before) < WIN_THRESHOLD:
            falling = clamp(1.0 + (before - score) / FALLING_SCALE, *FALLING_RANGE)
        return clamp((STABLE_FACTOR + CHANGE_WEIGHT * self.changes) * falling, *FACTOR_RANGE)

    def iteration_done(self, elapsed: float, move: int, score: int) -> bool:
        """Record a completed iteration; True when the search should stop now."""
        self.changes *= CHANGE_DECAY
        if self.last_move is not None and move != self.last_move:
            self.changes += 1.0
        factor = self.factor(score)
        self.last_move = move
        self.scores.append(score)
        if self.optimum is None:
            return False
        limit = self.optimum * factor
        if self.maximum is not None:
            limit = min(limit, self.maximum)
        return elapsed >= limit
