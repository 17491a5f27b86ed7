"""How long a move may take: every such decision of the engine, in one place.

Callers pass their limits in and ask here; nothing else in the engine computes a time.

1. **A protocol's time controls -> the move's limits.** ``gomocup_limits`` turns Gomocup's
   ``timeout_turn`` / ``timeout_match`` / ``time_left`` into a soft target, a hard cap
   and the game clock (process overhead kept back); ``node_limited`` keeps only the hard
   cap as a safety cap when a node budget decides the move. The web page's timed level
   promises a maximum per move ("10 s a move"), the same promise as Gomocup's
   ``timeout_turn``: ``page_limits`` turns it into the same soft target and hard cap.
   (Analysis slices and Unlimited's slices pass a soft target, ``Limits.time_ms``.)
2. **The move's limits -> optimum and maximum.** ``move_budget`` gives the soft target
   (optimum) and the hard cap (maximum) in seconds from ``Limits``' time, hard cap, game
   clock and whether a node or depth limit decides instead.
3. **Within the move.** The threat stages before the search each get a share of the
   optimum (``stage_deadline``); the alpha-beta search may overrun the optimum up to
   ``OVERRUN_FACTOR`` times it, never the maximum (``search_times``); a defence check
   after the search keeps a reserve (``check_deadline``).
4. **When to stop deepening** (``TimeManager``), as chess engines do: the search calls
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

from gomoku.game.evaluation import WIN_THRESHOLD

# --- 1. Gomocup time controls (ms) -------------------------------------------------------

OVERHEAD_MS = 30  # kept back from timeout_turn for the process and pipes ...
OVERHEAD_FRACTION = 0.05  # ... plus this share of it,
MAX_OVERHEAD_MS = 300  # ... at most this much
SOFT_SHARE_NUM, SOFT_SHARE_DEN = 4, 5  # soft target (optimum) = this share of the hard cap
INSTANT_HARD_MS = 50  # timeout_turn 0 ("as fast as possible"): the hard cap
NO_LIMIT_SENTINEL = 2**31 - 1  # a time_left this large means "no clock"
GOMOCUP_MAX_MOVES_TO_GO = 25  # a match clock is spread over at most this many of our moves
GOMOCUP_MIN_MOVES_TO_GO = 5  # ... and at least this many
CLOCK_HARD_DIVISOR = 3  # the hard cap never exceeds this fraction of the clock


def gomocup_limits(
    timeout_turn: int,
    timeout_match: int | None = None,
    time_left: int | None = None,
    stones: int = 0,
    cells: int = 225,
) -> dict[str, int | None]:
    """Turn Gomocup time controls into keyword arguments for ``Limits``.

    Returns {"time_ms": soft target, "hard_ms": cap, "time_left_ms": clock or None}, with
    1 <= time_ms <= hard_ms. The hard cap is timeout_turn minus a safety margin for process
    overhead (30 ms + 5%, at most 300 ms); the soft target is 4/5 of it (the engine may run
    past its soft target to finish a move, never past the cap). timeout_turn 0 means "as
    fast as possible" (soft 1 ms, hard 50 ms). When a match clock is known (time_left
    given and timeout_match not 0) both are clamped: soft to time_left divided by an
    estimate of our remaining moves, hard to a third of time_left minus the margin
    (``move_budget`` then spreads the clock once more: see there).
    """
    if timeout_turn <= 0:
        soft, hard = 1, INSTANT_HARD_MS
    else:
        margin = min(MAX_OVERHEAD_MS, OVERHEAD_MS + int(timeout_turn * OVERHEAD_FRACTION))
        hard = max(1, timeout_turn - margin)
        soft = max(1, hard * SOFT_SHARE_NUM // SOFT_SHARE_DEN)
    clock: int | None = None
    if time_left is not None and timeout_match != 0 and time_left < NO_LIMIT_SENTINEL:
        clock = max(0, time_left)
        moves_to_go = min(
            GOMOCUP_MAX_MOVES_TO_GO, max(GOMOCUP_MIN_MOVES_TO_GO, (cells - stones) // 2)
        )
        margin = OVERHEAD_MS + int(clock * OVERHEAD_FRACTION / moves_to_go)
        hard = min(hard, max(1, clock // CLOCK_HARD_DIVISOR - margin))
        soft = min(soft, max(1, clock // moves_to_go - margin))
    soft = max(1, min(soft, hard))
    return {"time_ms": soft, "hard_ms": hard, "time_left_ms": clock}


PAGE_OVERHEAD_MS = 300  # the page's own part of a reply: worker messages, Pyodide, drawing
PAGE_OVERHEAD_SHARE = 10  # ... at most this share (1/10) of the promise


def page_limits(max_ms: int) -> dict[str, int | None]:
    """The web page's "at most max_ms a move" (a timed level, a hint) as keywords for
    ``Limits``: the page's own overhead (PAGE_OVERHEAD_MS, at most a tenth) is kept back,
    then the rest is a Gomocup timeout_turn (``gomocup_limits``; no game clock): the hard
    cap is it less the process margin and the soft target 4/5 of that. So the player sees
    the stone within max_ms (BENCHMARKS.md, "Expert keeps its 10 s"), never after the
    2.5x that a soft target alone allows (``move_budget``'s HARD_FACTOR)."""
    if max_ms <= 0:
        raise ValueError(f"max_ms must be positive, got {max_ms}")
    return gomocup_limits(max(1, max_ms - min(PAGE_OVERHEAD_MS, max_ms // PAGE_OVERHEAD_SHARE)))


def node_limited(limits: dict[str, int | None]) -> dict[str, int | None]:
    """The time part of a node-limited move's ``Limits`` keywords: only the hard cap of
    ``limits`` (``gomocup_limits``' answer) is kept, as a safety cap (no soft target, no
    clock share), so that the node limit alone decides the move."""
    return {"time_ms": None, "hard_ms": limits["hard_ms"], "time_left_ms": None}


# --- 2. A move's optimum and maximum -----------------------------------------------------

HARD_FACTOR = 2.5  # without a hard cap from the caller: the cap is this many times the soft
SAFETY_MS = 5.0  # the hard cap is kept this far from the caller's limit
MOVES_TO_GO = 25  # a game clock is spread over this many moves
CLOCK_CAP_DIVISOR = 4  # no move takes more than this fraction of the game clock


def move_budget(
    time_ms: float | None,
    hard_ms: float | None = None,
    time_left_ms: float | None = None,
    fixed_work: bool = False,
) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for one move from its limits (None: no limit of that kind).

    ``fixed_work``: a node or depth limit decides the move. Then, with no time_ms, the hard
    cap (hard_ms, or the clock's share) is a safety cap only: there is no soft target
    (None), so no stage gets a share of the time and the search does not stop early; the
    node or depth limit decides the move, the same whatever the machine load, unless the
    cap is reached.
    """
    soft = time_ms
    hard = hard_ms
    if soft is not None and hard is None:
        hard = soft * HARD_FACTOR
    safety_cap_only = soft is None and fixed_work
    if time_left_ms is not None:
        cap = max(time_left_ms / CLOCK_CAP_DIVISOR, 1.0)
        hard = cap if hard is None else min(hard, cap)
        if not safety_cap_only:
            share = max(time_left_ms / MOVES_TO_GO, 1.0)
            soft = share if soft is None else min(soft, share)
    if hard is not None:
        hard = max(hard - SAFETY_MS, 1.0)
        if not safety_cap_only:
            soft = hard if soft is None else min(soft, hard)
    return (None if soft is None else soft / 1000, None if hard is None else hard / 1000)


# --- 3. Within the move -------------------------------------------------------------------

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


# --- 4. When to stop deepening ------------------------------------------------------------

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
