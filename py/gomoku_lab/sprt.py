"""Sequential probability ratio test (SPRT) on colour-swapped game pairs.

The test engine projects use to accept or reject a change (Stockfish's fishtest, Rapfi's
tests), written here from its published definition:

- **Hypotheses** in logistic Elo: H0 "engine1 is elo0 stronger", H1 "it is elo1
  stronger" (elo0 < elo1), i.e. an expected score per game of s0 = L(elo0) or
  s1 = L(elo1), with L(e) = 1 / (1 + 10^(-e/400)).
- **Model**: the match is a sequence of independent game pairs (an opening played twice
  with colours swapped), each scoring engine1 0, 1/2, 1, 3/2 or 2 points, with unknown
  probabilities p (five numbers) except for the mean: the pentanomial model. H0 and H1
  constrain only the mean per game, sum_i p_i * v_i with v_i = pair score / 2, to s0 or
  s1.
- **Generalised log-likelihood ratio**: the likelihood of the counts n_i under each
  hypothesis is maximised over the distributions that satisfy it, and
  LLR = sum_i n_i * (log q1_i - log q0_i), q0 and q1 being the two maximisers.
  For an empirical distribution p = n / N and a mean s, the maximiser is
  q_i = p_i / (1 + x * (v_i - s)) with x the root of sum_i p_i (v_i - s) / (1 + x (v_i - s))
  = 0 in the interval where every denominator is positive (Lagrange multipliers; the
  function is decreasing there, so the root is unique).
- **Regularisation**: a count of 0 is replaced by 1e-3 before the computation (as fishtest
  does), so that the extremes 0 and 2 always have some mass and the MLE exists for every
  s in (0, 1).
- **Stopping rule** (Wald): stop and accept H1 once LLR >= log((1 - beta) / alpha), accept
  H0 once LLR <= log(beta / (1 - alpha)); alpha = beta = 0.05 gives bounds -/+ 2.944.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gomoku_lab.stats import PAIR_SCORES, Pentanomial, score_from_elo

DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
REGULARIZATION = 1e-3
"""A pentanomial count of 0 is replaced by this before computing the LLR."""

PAIR_VALUES = tuple(s / 2.0 for s in PAIR_SCORES)
"""Per-game score of each pentanomial outcome: 0, 1/4, 1/2, 3/4, 1."""

H1_ACCEPTED = "H1 accepted"
H0_ACCEPTED = "H0 accepted"
UNDECIDED = "undecided"


def llr_bounds(alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> tuple[float, float]:
    """Wald's stopping bounds (lower, upper) = (log(beta/(1-alpha)), log((1-beta)/alpha)).

    alpha is the probability of accepting H1 when H0 holds, beta of accepting H0 when H1
    holds; both must be in (0, 1) with alpha + beta < 1.
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta and alpha + beta < 1, got {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def constrained_mle(probs: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution q over ``values`` that maximises sum_i probs_i * log q_i subject
    to sum_i q_i * values_i = ``mean`` (the maximum-likelihood distribution with that
    mean, for observed frequencies ``probs``, which must sum to 1).

    q_i = probs_i / (1 + x * (values_i - mean)), x the root of the secular equation
    sum_i probs_i * d_i / (1 + x * d_i) = 0 with d_i = values_i - mean, found by Newton
    steps kept inside a shrinking bracket (bisection when a step leaves it). Raises
    ValueError unless ``mean`` lies strictly between the smallest and the largest value
    that has a positive probability.
    """
    support = [(p, v - mean) for p, v in zip(probs, values, strict=True) if p > 0.0]
    if not support:
        raise ValueError("no positive probability")
    d_min = min(d for _, d in support)
    d_max = max(d for _, d in support)
    if not d_min < 0.0 < d_max:
        raise ValueError(f"mean {mean} is not strictly inside the support of the distribution")
    # Every 1 + x d_i > 0 exactly for x in (lo, hi); f(x) falls from +inf to -inf there.
    lo, hi = -1.0 / d_max, -1.0 / d_min

    def f_and_slope(x: float) -> tuple[float, float]:
        f = slope = 0.0
        for p, d in support:
            t = d / (1.0 + x * d)
            f += p * t
            slope -= p * t * t
        return f, slope

    x = 0.0
    for _ in range(200):
        f, slope = f_and_slope(x)
        if f == 0.0:
            break
        if f > 0.0:
            lo = x
        else:
            hi = x
        step = x - f / slope
        x_next = step if lo < step < hi else 0.5 * (lo + hi)
        if x_next == x or hi - lo <= 1e-15 * max(1.0, abs(x)):
            break
        x = x_next
    q = [p / (1.0 + x * (v - mean)) if p > 0.0 else 0.0 for p, v in zip(probs, values, strict=True)]
    total = sum(q)
    return [qi / total for qi in q]


def regularized(counts: Sequence[int | float]) -> list[float]:
    """The counts with every 0 replaced by REGULARIZATION."""
    return [float(c) if c > 0 else REGULARIZATION for c in counts]


def llr(counts: Pentanomial | Sequence[int], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (elo1) against H0 (elo0) for pentanomial
    pair counts (see the module docstring). 0.0 when there are no pairs."""
    raw = counts.counts if isinstance(counts, Pentanomial) else tuple(counts)
    if len(raw) != 5:
        raise ValueError(f"five pentanomial counts expected, got {len(raw)}")
    if sum(raw) == 0:
        return 0.0
    n = regularized(raw)
    total = sum(n)
    probs = [c / total for c in n]
    q0 = constrained_mle(probs, PAIR_VALUES, score_from_elo(elo0))
    q1 = constrained_mle(probs, PAIR_VALUES, score_from_elo(elo1))
    return sum(c * (math.log(b) - math.log(a)) for c, a, b in zip(n, q0, q1, strict=True))


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0: elo0 against H1: elo1 (logistic Elo, elo0 < elo1) with error
    probabilities alpha and beta, on pentanomial pair counts."""

    elo0: float
    elo1: float
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got {self.elo0} and {self.elo1}")
        llr_bounds(self.alpha, self.beta)  # validates alpha and beta

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return llr_bounds(self.alpha, self.beta)

    def llr(self, counts: Pentanomial | Sequence[int]) -> float:
        """The LLR of these counts (see ``llr``)."""
        return llr(counts, self.elo0, self.elo1)

    def decision(self, value: float) -> str:
        """H1_ACCEPTED at or above the upper bound, H0_ACCEPTED at or below the lower one,
        else UNDECIDED."""
        lower, upper = self.bounds
        if value >= upper:
            return H1_ACCEPTED
        if value <= lower:
            return H0_ACCEPTED
        return UNDECIDED

    def status(self, counts: Pentanomial | Sequence[int]) -> str:
        """One line: "LLR 1.23 [-2.94, 2.94] (SPRT elo0 0 elo1 20)", plus the decision
        when there is one."""
        value = self.llr(counts)
        lower, upper = self.bounds
        text = (
            f"LLR {value:.2f} [{lower:.2f}, {upper:.2f}] "
            f"(SPRT elo0 {self.elo0:g} elo1 {self.elo1:g}, alpha {self.alpha:g} beta "
            f"{self.beta:g})"
        )
        verdict = self.decision(value)
        return text if verdict == UNDECIDED else f"{text}: {verdict}"
