"""The time manager's stop rule: optimum scaled by stability, never past the maximum."""

from __future__ import annotations

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
