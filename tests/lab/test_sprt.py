"""Tests of the match statistics: the pentanomial model (stats.py) and the SPRT (sprt.py).

The LLR is checked against a slow, obvious computation (the two constrained likelihood
maxima found by a generic Newton ascent on the constraint set), and the stopping rule on
synthetic streams of game pairs."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gomoku_lab.sprt import (
    H0_ACCEPTED,
    H1_ACCEPTED,
    PAIR_VALUES,
    REGULARIZATION,
    UNDECIDED,
    Sprt,
    constrained_mle,
    llr,
    llr_bounds,
)
from gomoku_lab.stats import Pentanomial, elo_with_error, pair_index, score_from_elo, score_stats

# ----------------------------------------------------------------------------------------
# A slow, obvious LLR: maximise sum n_i log q_i over {q >= 0, sum q = 1, sum q v = s}
# directly, by damped Newton steps in coordinates of that 3-dimensional plane.


def _max_log_likelihood(counts: list[float], mean: float) -> float:
    n = np.array(counts, dtype=float)
    v = np.array(PAIR_VALUES)
    # a feasible interior start: the uniform distribution moved towards the mean by
    # mixing in the point mass at 0 or at 1
    q = np.full(5, 0.2)
    end = np.zeros(5)
    end[4 if mean > 0.5 else 0] = 1.0
    t = (mean - 0.5) / ((1.0 if mean > 0.5 else 0.0) - 0.5)
    q = (1 - t) * q + t * end
    assert abs(q @ v - mean) < 1e-12 and (q > 0).all()
    # directions that keep sum q and sum q v: the null space of [1; v]
    basis = np.linalg.svd(np.vstack([np.ones(5), v]))[2][2:].T  # 5 x 3

    def objective(x: np.ndarray) -> float:
        return float(n @ np.log(x))

    for _ in range(200):
        grad = basis.T @ (n / q)
        hess = -basis.T @ np.diag(n / q**2) @ basis
        step = basis @ np.linalg.solve(hess, -grad)
        size = 1.0
        while (q + size * step <= 0).any() or objective(q + size * step) < objective(q):
            size /= 2
            if size < 1e-12:
                break
        if size < 1e-12:
            break
        q = q + size * step
        if np.abs(size * step).max() < 1e-15:
            break
    return objective(q)


def _slow_llr(counts: list[int], elo0: float, elo1: float) -> float:
    n = [c if c > 0 else REGULARIZATION for c in counts]
    return _max_log_likelihood(n, score_from_elo(elo1)) - _max_log_likelihood(
        n, score_from_elo(elo0)
    )


@pytest.mark.parametrize(
    "counts,elo0,elo1",
    [
        ((10, 50, 200, 60, 15), 0, 20),
        ((3, 20, 41, 25, 6), 0, 10),
        ((0, 4, 11, 9, 0), 0, 20),
        ((7, 0, 0, 0, 1), -10, 30),
        ((1, 2, 3, 4, 5), 0, 50),
        ((40, 80, 100, 30, 5), -5, 5),
        ((0, 0, 2, 0, 0), 0, 20),
    ],
)
def test_llr_equals_direct_maximisation(counts: tuple[int, ...], elo0: float, elo1: float) -> None:
    fast = llr(counts, elo0, elo1)
    slow = _slow_llr(list(counts), elo0, elo1)
    assert fast == pytest.approx(slow, rel=1e-7, abs=1e-9)


def test_constrained_mle_meets_its_constraints() -> None:
    probs = [0.1, 0.2, 0.4, 0.2, 0.1]
    for mean in (0.05, 0.3, 0.5, 0.62, 0.97):
        q = constrained_mle(probs, PAIR_VALUES, mean)
        assert sum(q) == pytest.approx(1.0, abs=1e-12)
        assert sum(a * b for a, b in zip(q, PAIR_VALUES, strict=True)) == pytest.approx(mean)
        assert all(x > 0 for x in q)
    # at the empirical mean the MLE is the empirical distribution itself
    assert constrained_mle(probs, PAIR_VALUES, 0.5) == pytest.approx(probs)
    # a zero probability stays zero; a mean outside the support cannot be met
    q = constrained_mle([0.5, 0.0, 0.0, 0.0, 0.5], PAIR_VALUES, 0.6)
    assert q[1:4] == [0.0, 0.0, 0.0] and q[4] == pytest.approx(0.6)
    with pytest.raises(ValueError):
        constrained_mle([0.0, 0.5, 0.5, 0.0, 0.0], PAIR_VALUES, 0.9)


def test_llr_properties() -> None:
    counts = (12, 40, 90, 55, 20)
    base = llr(counts, 0, 20)
    assert llr((0, 0, 0, 0, 0), 0, 20) == 0.0
    # swapping the hypotheses negates it
    assert llr(counts, 20, 0) == pytest.approx(-base)
    # swapping the engines (counts reversed, Elo negated) describes the same evidence
    assert llr(counts[::-1], -20, 0) == pytest.approx(-base)
    # N times the same frequencies: N times the LLR (no count is zero: no regularisation)
    assert llr(tuple(3 * c for c in counts), 0, 20) == pytest.approx(3 * base)
    # moving one pair to a better outcome raises it
    assert llr((12, 40, 89, 56, 20), 0, 20) > base
    assert llr((12, 41, 89, 55, 20), 0, 20) < base
    # sign: evidence above H1's score favours H1, below H0's favours H0
    strong = Pentanomial((2, 10, 40, 30, 18))
    weak = Pentanomial((18, 30, 40, 10, 2))
    assert strong.score_stats()[0] > score_from_elo(20) and llr(strong, 0, 20) > 0
    assert weak.score_stats()[0] < score_from_elo(0) and llr(weak, 0, 20) < 0
    # close to the normal approximation N (s1-s0)(2m-s0-s1) / (2 var) for many pairs
    big = (120, 400, 900, 550, 200)
    p = [c / sum(big) for c in big]
    m = sum(a * b for a, b in zip(p, PAIR_VALUES, strict=True))
    var = sum(a * (b - m) ** 2 for a, b in zip(p, PAIR_VALUES, strict=True))
    s0, s1 = score_from_elo(0), score_from_elo(20)
    approx = sum(big) * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
    assert llr(big, 0, 20) == pytest.approx(approx, rel=0.05)


def test_bounds_and_decisions() -> None:
    lower, upper = llr_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944438979) and upper == pytest.approx(2.944438979)
    lower, upper = llr_bounds(0.05, 0.10)
    assert lower == pytest.approx(math.log(0.10 / 0.95)) and upper == pytest.approx(
        math.log(0.90 / 0.05)
    )
    test = Sprt(0, 20)
    assert test.decision(3.0) == H1_ACCEPTED and test.decision(upper := test.bounds[1]) == (
        H1_ACCEPTED
    )
    assert test.decision(-3.0) == H0_ACCEPTED and test.decision(upper - 0.01) == UNDECIDED
    for bad in ((20, 0), (5, 5)):
        with pytest.raises(ValueError):
            Sprt(*bad)
    with pytest.raises(ValueError):
        Sprt(0, 20, alpha=0.6, beta=0.5)
    assert "LLR" in test.status((1, 2, 3, 2, 1)) and "[-2.94, 2.94]" in test.status((0,) * 5)


# ----------------------------------------------------------------------------------------
# The stopping rule on synthetic streams


def _game(rng: random.Random, elo: float, draw: float) -> float:
    """One game's score for engine1 at this Elo difference with this draw rate."""
    s = score_from_elo(elo)
    win = s - draw / 2
    u = rng.random()
    return 1.0 if u < win else 0.5 if u < win + draw else 0.0


def _run_sprt(rng: random.Random, elo: float, test: Sprt, max_pairs: int = 6000) -> str:
    counts = Pentanomial()
    for _ in range(max_pairs):
        counts = counts.plus(_game(rng, elo, 0.1) + _game(rng, elo, 0.1))
        verdict = test.decision(test.llr(counts))
        if verdict != UNDECIDED:
            return verdict
    return UNDECIDED


def test_sprt_accepts_h1_for_a_clearly_better_engine() -> None:
    rng = random.Random(20)
    test = Sprt(0, 20)
    verdicts = [_run_sprt(rng, 40.0, test) for _ in range(30)]
    assert verdicts.count(H1_ACCEPTED) >= 27, verdicts


def test_sprt_accepts_h0_for_an_equal_engine_most_of_the_time() -> None:
    rng = random.Random(7)
    test = Sprt(0, 20)
    verdicts = [_run_sprt(rng, 0.0, test) for _ in range(30)]
    assert verdicts.count(H0_ACCEPTED) >= 25, verdicts  # alpha = 0.05: about 28.5 of 30


# ----------------------------------------------------------------------------------------
# Pentanomial counts and errors


def test_pentanomial_counts_and_stats_by_hand() -> None:
    counts = Pentanomial.from_pair_scores([0, 0.5, 1, 1, 1.5, 2, 2, 2])
    assert counts.counts == (1, 1, 2, 1, 3) and counts.pairs == 8
    assert counts.plus(0.5).counts == (1, 2, 2, 1, 3)
    values = [0, 0.25, 0.5, 0.5, 0.75, 1, 1, 1]
    mean = sum(values) / 8
    var = sum((x - mean) ** 2 for x in values) / 8
    score, se = counts.score_stats()
    assert score == pytest.approx(mean) and se == pytest.approx(math.sqrt(var / 8))
    assert counts.text() == "[1 1 2 1 3]"
    assert [pair_index(s) for s in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    for bad in (0.25, 2.5, -0.5):
        with pytest.raises(ValueError):
            pair_index(bad)
    with pytest.raises(ValueError):
        Pentanomial().score_stats()
    assert Pentanomial((0, 0, 5, 0, 0)).elo_with_error() == (0.0, 0.0)


def _pair_errors(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """(pentanomial stderr, trinomial stderr) of the mean score of these game pairs."""
    counts = Pentanomial.from_pair_scores(a + b for a, b in pairs)
    games = [g for pair in pairs for g in pair]
    trinomial = score_stats(games.count(1.0), games.count(0.0), games.count(0.5))[1]
    return counts.score_stats()[1], trinomial


def test_pentanomial_error_equals_trinomial_on_independent_pairs() -> None:
    rng = random.Random(3)
    pairs = [(_game(rng, 30, 0.2), _game(rng, 30, 0.2)) for _ in range(20000)]
    penta, tri = _pair_errors(pairs)
    assert penta == pytest.approx(tri, rel=0.03)
    # and so do the Elo error bars
    counts = Pentanomial.from_pair_scores(a + b for a, b in pairs)
    games = [g for pair in pairs for g in pair]
    trinomial = elo_with_error(games.count(1.0), games.count(0.0), games.count(0.5))
    assert counts.elo_with_error()[0] == pytest.approx(trinomial[0])
    assert counts.elo_with_error()[1] == pytest.approx(trinomial[1], rel=0.03)


def test_pentanomial_error_is_smaller_when_the_opening_decides() -> None:
    """Pairs where one colour wins both games (a win and a loss for engine1) half the
    time: per game the results look like coin flips, per pair they are not."""
    rng = random.Random(4)
    pairs = []
    for _ in range(20000):
        if rng.random() < 0.5:
            pairs.append((1.0, 0.0) if rng.random() < 0.5 else (0.0, 1.0))
        else:
            pairs.append((_game(rng, 0, 0.0), _game(rng, 0, 0.0)))
    penta, tri = _pair_errors(pairs)
    assert penta < 0.8 * tri
