"""The time manager: the stop rule (optimum scaled by stability, never past the maximum)
and the budgets of a move from the caller's limits."""

from __future__ import annotations

from hypothesis import example, given, settings
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


# --- the move's optimum and maximum: the old two-stage numbers -------------------------
#
# Before one function decided a move's time, a protocol's controls were made into Limits'
# soft target, hard cap and clock first (timeman.gomocup_limits / page_limits /
# node_limited, pbrain.compute_limits and node_limits, levels' min(SAFETY_MS, hard)), and
# Limits.budget (timeman.move_budget) spread the clock a second time. Now the raw controls
# go into Limits and one function (timeman.move_times) decides. Below, the old formulas,
# copied as they were (the slow, obvious reference), and the new answers for every way a
# move's limits are made.


def _old_gomocup_limits(turn, match=None, left=None, stones=0, cells=225):
    """timeman.gomocup_limits (= pbrain.compute_limits) before timeman.move_times."""
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


def _old_page_limits(max_ms):
    """timeman.page_limits before timeman.move_times: the page's maxMs."""
    return _old_gomocup_limits(max(1, max_ms - min(300, max_ms // 10)))


def _old_budget(soft, hard, left, fixed):
    """engine.Limits.budget (timeman.move_budget) before timeman.move_times."""
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


def examples_of(cases, modes):
    """Hypothesis @example for each case in each mode (the rules' corners, always run)."""

    def add(test):
        for case in cases:
            for mode in modes:
                test = example(*case, mode)(test)
        return test

    return add


TURNS = st.integers(0, 200_000)
MATCHES = st.sampled_from([None, 0, 180_000, 1_000_000])
LEFTS = st.one_of(st.none(), st.integers(0, 2_000_000), st.just(2**31 - 1))
CELLS = st.sampled_from([225, 400])


# Each rule binding at least once: the clock's quarter, its third (a short clock), the
# share over few moves to go against the 25th, timeout_turn 0, no match limit, "no clock".
GOMOCUP_CASES = [
    (200_000, 180_000, 100_000, 0, 225),
    (5000, 180_000, 300, 10, 225),
    (30_000, 1_000_000, 40_000, 200, 225),
    (30_000, 1_000_000, 3000, 220, 225),
    (0, 180_000, 50_000, 0, 225),
    (1000, 0, 10, 0, 400),
    (1000, None, 2**31 - 1, 0, 400),
]


@given(TURNS, MATCHES, LEFTS, st.integers(0, 400), CELLS, st.sampled_from(["time", "nodes"]))
@examples_of(GOMOCUP_CASES, ["time", "nodes"])
def test_a_gomocup_move_has_the_old_optimum_and_maximum(turn, match, left, stones, cells, mode):
    """INFO timeout_turn / timeout_match / time_left, timed or with INFO max_node: pbrain
    passes them on as they are, and the engine's optimum and maximum are the old ones."""
    from gomoku.engine.limits import Limits
    from gomoku.protocol.pbrain_limits import TimeSettings, node_limits, time_controls

    stones = min(stones, cells)
    old = _old_gomocup_limits(turn, match, left, stones, cells)
    controls = time_controls(TimeSettings(turn, match, left))
    if mode == "nodes":
        kwargs = node_limits(controls, 1000)
        want = _old_budget(None, old["hard_ms"], None, True)  # old node_limited: the cap
    else:
        kwargs = {"time_ms": None, **controls}
        want = _old_budget(old["time_ms"], old["hard_ms"], old["time_left_ms"], False)
    times = Limits(**kwargs).times(cells - stones)
    assert times.seconds() == want
    assert times.clock_ms == old["time_left_ms"]


@given(TURNS, MATCHES, LEFTS, st.integers(0, 400), st.sampled_from([5, 8, 10]))
def test_a_gomocup_level_has_the_old_safety_cap(turn, match, left, stones, number):
    """INFO level N: the level's limits with the controls (levels.Level.limits) have the
    old cap, min(SAFETY_MS, the Gomocup cap) less the margin, and no soft target."""
    from gomoku.engine.levels import SAFETY_MS, level
    from gomoku.protocol.pbrain_limits import TimeSettings, time_controls

    stones = min(stones, 225)
    old = _old_gomocup_limits(turn, match, left, stones, 225)
    lv = level(number)
    new = lv.limits(3, None, time_controls(TimeSettings(turn, match, left)))
    assert new.budget(225 - stones) == _old_budget(None, min(SAFETY_MS, old["hard_ms"]), None, True)
    assert (new.nodes, new.depth) == (lv.nodes, lv.depth)


@given(
    st.one_of(st.integers(1, 600_000), st.floats(0.5, 600_000)),
    st.sampled_from(["maxMs", "timeMs"]),
    st.one_of(st.none(), st.integers(1, 30)),
    st.one_of(st.none(), st.integers(1, 10**6)),
)
def test_a_page_move_has_the_old_optimum_and_maximum(ms, kind, depth, nodes):
    """The page's limits (webapi): timeMs, a soft target; maxMs, a promise; either with a
    depth or node limit. The same numbers as before, but for one combination changed on
    purpose: maxMs with a depth or node limit (the page never sends it) keeps only the
    promise's cap, no soft target, as Gomocup's max_node does (the depth or nodes decide)."""
    from gomoku.engine.limits import Limits
    from gomoku.protocol.webjson import read_limits as _parse_limits

    sent = {kind: ms, **({} if depth is None else {"depth": depth})}
    sent.update({} if nodes is None else {"nodes": nodes})
    fixed = depth is not None or nodes is not None
    if kind == "maxMs":
        old = _old_page_limits(max(1, int(ms)))
        soft = None if fixed else old["time_ms"]  # the change: a cap only
        want = _old_budget(soft, old["hard_ms"], None, fixed)
    else:
        want = _old_budget(max(1, int(ms)), None, None, fixed)
    limits = _parse_limits({"limits": sent})
    assert isinstance(limits, Limits) and limits.budget(200) == want


@given(
    st.one_of(st.none(), st.floats(0.001, 10**6)),
    st.one_of(st.none(), st.floats(0.001, 10**6)),
    st.one_of(st.none(), st.integers(1, 64)),
    st.one_of(st.none(), st.integers(1, 10**6)),
)
def test_the_engine_s_own_limits_have_the_old_budget(time_ms, hard_ms, depth, nodes):
    """A soft target, a hard cap, a depth and a node limit as the engine's own callers
    give them (levels, review, bench, the parallel helpers): the old budget."""
    from gomoku.engine.limits import Limits

    lim = Limits(time_ms=time_ms, hard_ms=hard_ms, depth=depth, nodes=nodes)
    want = _old_budget(time_ms, hard_ms, None, depth is not None or nodes is not None)
    assert lim.budget() == lim.budget(100) == want


@settings(max_examples=30, deadline=None)
@given(TURNS, MATCHES, LEFTS, st.sampled_from(["time", "nodes", "maxMs", "timeMs"]))
def test_a_parallel_think_job_has_the_old_budget(turn, match, left, mode):
    """The parallel search's think job (coordinator._think_limits, sent at the start):
    before, it got the first stage's soft target and clock and the coordinator's cap, and
    spread them again; now it gets the move's optimum and the cap. The same budget."""
    from gomoku.engine.limits import Limits
    from gomoku.parallel import limits_from_dict, new_coordinator
    from gomoku.parallel.coordinator import MESSAGE_MARGIN
    from gomoku.protocol.pbrain_limits import TimeSettings, node_limits, time_controls
    from gomoku.search.timeman import page_turn_ms

    moves = [(7, 7), (8, 8), (7, 8)]
    controls = time_controls(TimeSettings(turn, match, left))
    old = _old_gomocup_limits(turn, match, left, len(moves), 225)
    if mode == "time":
        kwargs, old_fixed = {"time_ms": None, **controls}, False
    elif mode == "nodes":
        kwargs, old_fixed = node_limits(controls, 5000), True
        old = {"time_ms": None, "hard_ms": old["hard_ms"], "time_left_ms": None}
    elif mode == "maxMs":
        kwargs, old_fixed = {"time_ms": None, "turn_ms": page_turn_ms(max(1, turn))}, False
        old = _old_page_limits(max(1, turn))
    else:
        kwargs, old_fixed = {"time_ms": max(1, turn)}, False
        old = {"time_ms": max(1, turn), "hard_ms": None, "time_left_ms": None}
    coord = new_coordinator(moves, 15, "freestyle", Limits(**kwargs), 2)
    job = limits_from_dict(coord._think_limits(0.0))
    soft, hard = _old_budget(old["time_ms"], old["hard_ms"], old["time_left_ms"], old_fixed)
    assert (coord.soft_cap, coord.hard_cap) == (soft, hard)
    worker_hard = max((hard - 2 * MESSAGE_MARGIN) * 1000, 1.0)
    want = _old_budget(old["time_ms"], worker_hard, old["time_left_ms"], old_fixed)
    assert job.budget(225 - len(moves)) == want


def test_a_node_limit_with_a_bare_clock_keeps_the_clock_s_third_as_its_cap():
    """Changed on purpose with timeman.move_times: a depth or node limit, no soft target and a clock
    has the safety cap Gomocup's max_node always had, a third of the clock less the margin;
    before, a clock without Gomocup's controls (no caller made one) gave a quarter."""
    from gomoku.engine.limits import Limits

    old = _old_budget(None, None, 8000, True)
    new = Limits(time_ms=None, time_left_ms=8000, depth=3).budget()
    assert old == (None, (2000 - 5) / 1000)
    assert new == (None, (8000 // 3 - (30 + int(8000 * 0.05 / 25)) - 5) / 1000)
