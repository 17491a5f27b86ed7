"""What bounds one move's thinking: ``Limits``, as a protocol received them.

The time fields are the controls as given (ms); gomoku.search.timeman.move_times turns
them into the move's optimum (a soft target) and maximum (a hard cap), once. Two of them
bound a move's time, in different ways:

- ``hard_ms`` is a cap on the engine's own thinking: the search never passes it and
  nothing is kept back from it (a level's safety cap, a parallel worker's share of the
  move, a benchmark's bound);
- ``turn_ms`` is a promise to someone waiting for the reply (Gomocup's timeout_turn; the
  page's maxMs, less the page's own part of a reply, gomoku.search.timeman.page_turn_ms):
  the process's margin is kept back from it to make the hard cap, and the soft target is
  a share of that.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.search.timeman import MoveTimes, move_times

# A protocol's time controls as ``Limits`` keywords (turn_ms, match_ms, time_left_ms).
TimeKeywords = dict[str, int | None]


@dataclass
class Limits:
    """Search limits; None means "no limit of this kind". The time fields are the controls
    as the caller received them (ms); ``times`` turns them into the move's optimum and
    maximum, once (gomoku.search.timeman.move_times says how)."""

    time_ms: float | None = 1000.0  # soft target: the move may run past it (up to 2.5x)
    hard_ms: float | None = None  # the engine's hard cap: never passed, nothing kept back
    depth: int | None = None
    nodes: int | None = None
    time_left_ms: float | None = None  # the match clock (Gomocup time_left)
    use_book: bool = True
    use_threats: bool = True
    seed: int | None = None  # picks among close book replies (None: the engine's own RNG)
    multipv: int = 1  # > 1: also report the best that many root moves (SearchResult.top)
    # The threat stages' reach (None: the engine's own, VCF_DEPTH / VCT_DEPTH; 0: the stage
    # is skipped) and whether the opponent's threats are looked for (the levels below the
    # full engine see shorter threats, and may not look at the opponent's: engine/levels.py).
    vcf_depth: int | None = None
    vct_depth: int | None = None
    defence: bool = True
    # A promise of a reply within so long (Gomocup's timeout_turn, 0: as fast as possible;
    # the page's maxMs as timeman.page_turn_ms makes it); Gomocup's timeout_match (0: no
    # match limit, time_left_ms is then ignored).
    turn_ms: int | None = None
    match_ms: int | None = None

    def controls(self) -> TimeKeywords:
        """The protocol's time controls alone (turn_ms, match_ms, time_left_ms), as
        ``Limits`` keywords: what a level's own limits keep of the caller's clock."""
        return {k: getattr(self, k) for k in CONTROL_FIELDS}

    def times(self, empty_cells: int | None = None) -> MoveTimes:
        """This move's optimum and maximum (ms) in a position with ``empty_cells`` empty
        cells (a match clock is spread over half of them; None: not known)."""
        return move_times(self, empty_cells)

    def budget(self, empty_cells: int | None = None) -> tuple[float | None, float | None]:
        """(optimum, maximum) seconds for this move: ``times`` in seconds."""
        return self.times(empty_cells).seconds()


CONTROL_FIELDS = ("turn_ms", "match_ms", "time_left_ms")  # a protocol's clock, as received
