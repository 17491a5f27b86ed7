"""The time manager: the stop rule (optimum scaled by stability, never past the maximum)
and the budgets of a move from the caller's limits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gomoku.search.timeman import FACTOR_RANGE, STABLE_FACTOR, TimeManager


def run(manager: TimeManager, iterations: list[tuple[float, int, int]]) -> int | None:
    """Feed (elapsed, move, score) iterations; the index of the one that stops, or None."""
    for i, (elapsed, move, score) in enumerate(iterations):
        if manager.iteration_done(elapsed, move, score):
            return i
    return None


def test_stable_move_stops_at_a_share_of_the_optimum() -> None:
    steps = [(0.1 * k, 7, 50) for k in range(1, 20)]
    stop = run(TimeManager(1.0, 2.0), steps)
    assert stop is not None
    assert steps[stop][0] >= STABLE_FACTOR * 1.0 > steps[stop - 1][0]


def test_changing_best_move_searches_longer_than_a_stable_one() -> None:
    stable = [(0.1 * k, 7, 50) for k in range(1, 30)]
    changing = [(0.1 * k, 7 + k % 2, 50) for k in range(1, 30)]
    s = run(TimeManager(1.0, 10.0), stable)
    c = run(TimeManager(1.0, 10.0), changing)
    assert s is not None and c is not None and changing[c][0] > stable[s][0]


def test_falling_score_searches_longer_and_rising_stops_sooner() -> None:
    def steps(slope: int) -> list[tuple[float, int, int]]:
        return [(0.1 * k, 7, 100 + slope * k) for k in range(1, 30)]

    flat = run(TimeManager(1.0, 10.0), steps(0))
    falling = run(TimeManager(1.0, 10.0), steps(-40))
    rising = run(TimeManager(1.0, 10.0), steps(40))
    assert rising < flat < falling


def test_never_past_the_maximum_and_no_limit_without_an_optimum() -> None:
    changing = [(0.1 * k, k, 50 - 30 * k) for k in range(1, 40)]
    stop = run(TimeManager(1.0, 1.2), changing)
    assert stop is not None and changing[stop][0] <= 1.2 + 1e-9
    assert changing[stop][0] <= FACTOR_RANGE[1] * 1.0
    assert run(TimeManager(None, None), changing) is None


# --- the move's budget from Gomocup time controls: the numbers before issue 21 ---------


def _old_compute_limits(turn, match, left, stones, cells):
    """pbrain.compute_limits as it was before the time decisions moved into timeman."""
    if turn <= 0:
        soft, hard = 1, 50
    else:
        margin = min(300, 30 + int(turn * 0.05))
        hard = max(1, turn - margin)
        soft = max(1, hard * 4 // 5)
    clock = None
    if left is not None and match != 0 and left < 2**31 - 1:
        clock = max(0, left)
        moves_to_go = min(25, max(5, (cells - stones) // 2))
        margin = 30 + int(clock * 0.05 / moves_to_go)
        hard = min(hard, max(1, clock // 3 - margin))
        soft = min(soft, max(1, clock // moves_to_go - margin))
    soft = max(1, min(soft, hard))
    return {"time_ms": soft, "hard_ms": hard, "time_left_ms": clock}


def _old_budget(soft, hard, left, fixed):
    """engine.Limits.budget as it was before issue 21."""
    if soft is not None and hard is None:
        hard = soft * 2.5
    cap_only = soft is None and fixed
    if left is not None:
        cap = max(left / 4, 1.0)
        hard = cap if hard is None else min(hard, cap)
        if not cap_only:
            share = max(left / 25, 1.0)
            soft = share if soft is None else min(soft, share)
    if hard is not None:
        hard = max(hard - 5.0, 1.0)
        if not cap_only:
            soft = hard if soft is None else min(soft, hard)
    return (None if soft is None else soft / 1000, None if hard is None else hard / 1000)


@given(
    st.integers(0, 200_000),
    st.sampled_from([None, 0, 180_000, 1_000_000]),
    st.one_of(st.none(), st.integers(0, 2_000_000), st.just(2**31 - 1)),
    st.integers(0, 400),
    st.sampled_from([225, 400]),
    st.booleans(),
)
def test_gomocup_budget_is_what_it_was_before_the_move(turn, match, left, stones, cells, nodes):
    from gomoku.engine.facade import Limits
    from gomoku.protocol.pbrain import TimeSettings, compute_limits, node_limits

    stones = min(stones, cells)
    old = _old_compute_limits(turn, match, left, stones, cells)
    new = compute_limits(TimeSettings(turn, match, left), stones, cells)
    assert new == old
    if nodes:
        new = node_limits(new, 1000)
        old = {"time_ms": None, "hard_ms": old["hard_ms"], "time_left_ms": None}
    limits = Limits(**new)
    want = _old_budget(old["time_ms"], old["hard_ms"], old["time_left_ms"], nodes)
    assert limits.budget() == want
