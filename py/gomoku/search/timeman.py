"""How long a move may take: every such decision of the engine, in one place.

Callers pass the time controls they received into ``Limits`` as they are, and ask here;
nothing else in the engine computes a time.

1. **The controls -> the move's optimum and maximum, once** (``move_times``, the shape of
   Rapfi's ``TimeControl::init`` and Stockfish's ``TimeManagement::init``): from the raw
   controls of ``Limits`` (a soft target ``time_ms``; the engine's hard cap ``hard_ms``; a
   promise of a reply within ``turn_ms``, Gomocup's timeout_turn or the page's maxMs less
   the page's own part of a reply, ``page_turn_ms``; the match clock ``time_left_ms`` with
   Gomocup's ``match_ms``; whether a node or depth limit decides) and the number of
   empty cells. The optimum is the soft target the stop rule scales, the maximum the hard
   cap the search never passes.
2. **Within the move.** The threat stages before the search each get a share of the
   optimum (``stage_deadline``); the alpha-beta search may overrun the optimum up to
   ``OVERRUN_FACTOR`` times it, never the maximum (``search_times``); a defence check
   after the search keeps a reserve (``check_deadline``).
3. **When to stop deepening** (``TimeManager``), as chess engines do: the search calls
   ``iteration_done`` after each completed iteration of its iterative deepening. The
   manager stops the search once the time spent passes the optimum scaled by how settled
   the result looks:

   - the best move changed in recent iterations (a decaying count of changes): go on
     longer, the last iteration may have been the first to see a problem;
   - the score fell since the iteration before the last (same parity: a Gomoku score
     swings between odd and even depths): go on longer; it rose: stop sooner;
   - the best move has stood for several iterations with a steady score: stop sooner.

   The maximum is the hard cap, enforced inside the search (it unwinds mid-iteration and
   plays the best move found so far); the manager never asks for more than that.

Times are seconds unless a name says ms. No clock is read here: callers pass ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from gomoku.game.evaluation import WIN_THRESHOLD

# --- 1. The controls -> the move's optimum and maximum (ms) -----------------------------

# A promise of at most so long a move (Gomocup's timeout_turn, the page's maxMs):
OVERHEAD_MS = 30  # kept back from it for the process and pipes ...
OVERHEAD_FRACTION = 0.05  # ... plus this share of it,
MAX_OVERHEAD_MS = 300  # ... at most this much: the rest is the promise's cap
SOFT_SHARE_NUM, SOFT_SHARE_DEN = 4, 5  # its soft target = this share of its cap
INSTANT_HARD_MS = 50  # timeout_turn 0 ("as fast as possible"): the cap (soft target 1 ms)
PAGE_OVERHEAD_MS = 300  # the page's maxMs: its own part of a reply kept back first (worker
PAGE_OVERHEAD_SHARE = 10  # messages, Pyodide, drawing), at most this share (1/10) of it
# A match clock (Gomocup's time_left, unless timeout_match is 0 or time_left says "none"):
NO_LIMIT_SENTINEL = 2**31 - 1  # a time_left this large means "no clock"
GOMOCUP_MAX_MOVES_TO_GO = 25  # our moves still to play: half the empty cells, at most
GOMOCUP_MIN_MOVES_TO_GO = 5  # ... this many and at least this many
CLOCK_HARD_DIVISOR = 3  # no move takes more than a third of the clock less the margin ...
CLOCK_CAP_DIVISOR = 4  # ... nor, when the clock paces the move, more than a quarter,
MOVES_TO_GO = 25  # and the soft target is at most the clock over this many moves
# The maximum, whatever set it:
HARD_FACTOR = 2.5  # a soft target alone (no cap, no promise): the cap is this many times it
SAFETY_MS = 5.0  # the maximum is kept this far from the tightest cap


class TimeControls(Protocol):
    """The raw time controls of one move, as the caller received them (ms; None: not
    given). ``gomoku.engine.facade.Limits`` is one; this module reads only these."""

    time_ms: float | None  # soft target: the move may run past it (page timeMs, slices)
    hard_ms: float | None  # the engine's cap, never passed (a level's safety cap, a worker's
    # share): nothing is kept back from it
    turn_ms: int | None  # a promise of a reply within so long (Gomocup timeout_turn, 0: at
    # once; the page's maxMs as page_turn_ms makes it): a margin is kept back from it
    match_ms: int | None  # Gomocup timeout_match (0: no match limit, time_left ignored)
    time_left_ms: float | None  # the match clock (Gomocup time_left)
    depth: int | None  # a depth or node limit: with no soft target it decides the
    nodes: int | None  # move and time gives only a safety cap


@dataclass(frozen=True)
class MoveTimes:
    """A move's optimum (the soft target the stop rule scales) and maximum (the hard cap),
    ms from the move's start (None: no limit of that kind), and the match clock they were
    spread from (None: none)."""

    optimum_ms: float | None
    maximum_ms: float | None
    clock_ms: float | None = None

    def seconds(self) -> tuple[float | None, float | None]:
        """(optimum, maximum) in seconds."""
        opt, cap = self.optimum_ms, self.maximum_ms
        return (None if opt is None else opt / 1000, None if cap is None else cap / 1000)


def page_turn_ms(max_ms: int) -> int:
    """The engine's promise (``turn_ms``) for the page's maxMs: maxMs less the page's own
    part of a reply (PAGE_OVERHEAD_MS, at most a tenth). So the player sees the stone
    within maxMs (docs/benchmarks-history.md, "Expert's 10 s as a hard cap")."""
    if max_ms <= 0:
        raise ValueError(f"max_ms must be positive, got {max_ms}")
    return max(1, max_ms - min(PAGE_OVERHEAD_MS, max_ms // PAGE_OVERHEAD_SHARE))


def match_clock(controls: TimeControls) -> float | None:
    """The match clock in effect: time_left (at least 0), unless timeout_match is 0 (no
    match limit) or time_left is Gomocup's "no limit" NO_LIMIT_SENTINEL."""
    left = controls.time_left_ms
    if left is None or controls.match_ms == 0 or left >= NO_LIMIT_SENTINEL:
        return None
    return max(0, left)


def moves_to_go(empty_cells: int | None) -> int:
    """Our moves still to play, as a match clock is spread: half the empty cells, within
    GOMOCUP_MIN_MOVES_TO_GO..GOMOCUP_MAX_MOVES_TO_GO (the most when not known)."""
    if empty_cells is None:
        return GOMOCUP_MAX_MOVES_TO_GO
    return min(GOMOCUP_MAX_MOVES_TO_GO, max(GOMOCUP_MIN_MOVES_TO_GO, empty_cells // 2))


def move_times(controls: TimeControls, empty_cells: int | None = None) -> MoveTimes:
    """The move's optimum and maximum from its raw controls: every bound below that is
    given, the tightest of each kind wins.

    maximum (the hard cap), then SAFETY_MS less (at least 1 ms):
      - ``hard_ms``;
      - the promise's (``turn_ms``) cap: it less the process margin (OVERHEAD_MS + 5%, at most
        MAX_OVERHEAD_MS); INSTANT_HARD_MS for timeout_turn 0;
      - HARD_FACTOR x ``time_ms`` when neither of those is given;
      - the match clock: a third of it less the margin (OVERHEAD_MS + 5% of the clock's
        share); and, unless time only keeps a safety cap, a quarter of it.
    optimum (the soft target), at most the maximum:
      - ``time_ms``;
      - the promise's: SOFT_SHARE_NUM/SOFT_SHARE_DEN of its cap (1 ms for timeout_turn 0);
      - the match clock: over the moves to go (``moves_to_go``) less the margin, and over
        MOVES_TO_GO moves; with no other bound the optimum is the maximum.

    A node or depth limit with no ``time_ms``: that limit decides the move, the same
    whatever the machine's load. Time then keeps only a safety cap (the maximum above
    without the clock's quarter) and no optimum: no stage gets a share of the time and the
    search does not stop early, unless the cap is reached (Gomocup's max_node, the levels).
    """
    fixed_work = controls.nodes is not None or controls.depth is not None
    cap_only = fixed_work and controls.time_ms is None
    soft: list[float] = [] if controls.time_ms is None else [controls.time_ms]
    hard: list[float] = [] if controls.hard_ms is None else [controls.hard_ms]
    turn = controls.turn_ms
    if turn is not None:
        if turn <= 0:
            cap, share = INSTANT_HARD_MS, 1
        else:
            cap = max(1, turn - min(MAX_OVERHEAD_MS, OVERHEAD_MS + int(turn * OVERHEAD_FRACTION)))
            share = max(1, cap * SOFT_SHARE_NUM // SOFT_SHARE_DEN)
        hard.append(cap)
        if not cap_only:
            soft.append(share)
    if not hard and controls.time_ms is not None:
        hard.append(controls.time_ms * HARD_FACTOR)
    clock = match_clock(controls)
    if clock is not None:
        to_go = moves_to_go(empty_cells)
        margin = OVERHEAD_MS + int(clock * OVERHEAD_FRACTION / to_go)
        hard.append(max(1, clock // CLOCK_HARD_DIVISOR - margin))
        if not cap_only:
            hard.append(max(clock / CLOCK_CAP_DIVISOR, 1.0))
            soft.append(max(1, clock // to_go - margin))
            soft.append(max(clock / MOVES_TO_GO, 1.0))
    maximum = max(min(hard) - SAFETY_MS, 1.0) if hard else None
    optimum = min(soft) if soft else None
    if maximum is not None and not cap_only:
        optimum = maximum if optimum is None else min(optimum, maximum)
    return MoveTimes(optimum, maximum, clock)


# --- 2. Within the move -------------------------------------------------------------------

VCF_SHARE = 0.10  # our VCF search before the alpha-beta search: this share of the soft time
VCT_SHARE = 0.15  # then our VCT search
DEFENCE_SHARE = 0.2  # then the search for the opponent's threat and the moves that stop it
OVERRUN_FACTOR = 2.0  # the alpha-beta search stops at this multiple of the soft time
POST_CHECK_RESERVE = 0.2  # share of the time left kept back when checking the chosen move


def stage_deadline(
    now: float, soft: float | None, share: float, hard_deadline: float | None
) -> float | None:
    """The deadline (a perf_counter time) of a threat stage starting at ``now`` that may use
    ``share`` of the soft time; without a soft target the hard cap is the only bound."""
    if soft is None:
        return hard_deadline
    return min(now + soft * share, hard_deadline if hard_deadline is not None else 1e300)


def search_times(
    soft: float | None, hard: float | None, elapsed: float
) -> tuple[float | None, float | None]:
    """(soft, hard) seconds left for the alpha-beta search after ``elapsed`` seconds of the
    move's stages: it may run past the soft target to finish, up to OVERRUN_FACTOR times it,
    never past the hard cap."""
    remaining_soft = None if soft is None else max(soft - elapsed, 0.001)
    stop = hard if soft is None else min(hard or 1e300, soft * OVERRUN_FACTOR)
    remaining_hard = None if stop is None else max(stop - elapsed, 0.001)
    return remaining_soft, remaining_hard


def check_deadline(hard_deadline: float | None, now: float) -> float | None:
    """The deadline of the defence check after the search: the hard deadline minus a
    reserve of POST_CHECK_RESERVE of the time left (to fall back on another move)."""
    if hard_deadline is None:
        return None
    return hard_deadline - (hard_deadline - now) * POST_CHECK_RESERVE


# --- 3. When to stop deepening ------------------------------------------------------------

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
