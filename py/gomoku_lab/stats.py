"""Match statistics: Elo differences and their error bars, per game and per game pair.

Scores are engine1's: 1 for a win, 1/2 for a draw, 0 for a loss. Elo uses the logistic
model on the 400 scale: an expected score s is ``-400 * log10(1/s - 1)`` Elo.

Two error models:

- **trinomial** (per game): games are independent draws from {0, 1/2, 1}; the variance of
  the mean score is the games' variance over their number.
- **pentanomial** (per colour-swapped pair): a match plays each opening twice with the
  colours swapped, and the two games of a pair are not independent (an opening that
  favours black favours whoever has black). The unit is the pair, whose score for engine1
  is 0, 1/2, 1, 3/2 or 2: a match is five counts (``Pentanomial``). The per-game score is
  the mean of (pair score / 2), its variance the pairs' variance over the number of pairs.
  When the two games of a pair are independent this gives the trinomial error again; when
  the opening decides much of the result (a pair of a win and a loss is common) it is
  smaller, and it is the honest one for paired games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""The five possible scores of a game pair (two games), in the order of the counts."""

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in [0, 1] (logistic model, 400 scale).

    Returns -inf for 0 and +inf for 1.
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference (the inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_stats(wins: int, losses: int, draws: int) -> tuple[float, float]:
    """Mean score per game and its standard error -> (score, stderr).

    The per-game variance is the trinomial one: sum over outcomes (1, 1/2, 0) of
    frequency * (outcome - score)^2; stderr = sqrt(variance / games). Raises ValueError
    when there are no games.
    """
    n = wins + losses + draws
    if n <= 0:
        raise ValueError("no games")
    score = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    return score, math.sqrt(var / n)


def elo_interval(score: float, stderr: float, z: float = 1.96) -> tuple[float, float]:
    """Elo of ``score`` and the half-width of its interval score -/+ z * stderr.

    The error is inf when the score is 0 or 1 or a bound reaches a score of 0 or 1.
    """
    if score in (0.0, 1.0):
        return elo_from_score(score), math.inf
    lo = elo_from_score(score - z * stderr)
    hi = elo_from_score(score + z * stderr)
    return elo_from_score(score), (hi - lo) / 2.0


def elo_with_error(wins: int, losses: int, draws: int, z: float = 1.96) -> tuple[float, float]:
    """Elo difference and the half-width of its confidence interval -> (elo, error).

    The interval is the Elo of score -/+ z * stderr (z = 1.96: 95%, trinomial stderr); the
    error is half its width and is inf when a bound reaches a score of 0 or 1 (or the
    score is 0 or 1).
    """
    score, se = score_stats(wins, losses, draws)
    return elo_interval(score, se, z)


def format_elo(elo: float, error: float) -> str:
    """ "+35.2 +/- 80.1" (inf shown as "inf")."""

    def fmt(v: float, sign: bool) -> str:
        if math.isinf(v):
            text = "inf"
            return ("+" if v > 0 else "-") + text if sign else text
        v = round(v, 1) + 0.0  # no "-0.0"
        return f"{v:+.1f}" if sign else f"{v:.1f}"

    return f"{fmt(elo, True)} +/- {fmt(error, False)}"


# --------------------------------------------------------------------------------------
# Pentanomial: colour-swapped pairs


def pair_index(pair_score: float) -> int:
    """The position of a pair score (0, 0.5, 1, 1.5 or 2) in the pentanomial counts.

    Raises ValueError for any other value.
    """
    doubled = pair_score * 2.0
    index = round(doubled)
    if abs(doubled - index) > 1e-9 or not 0 <= index <= 4:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2, not {pair_score!r}")
    return index


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by engine1's pair score: ``counts[i]`` pairs scored
    ``PAIR_SCORES[i]`` (0, 1/2, 1, 3/2, 2), i.e. LL, LD, (WL or DD), WD, WW."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.counts) != 5 or any(c < 0 for c in self.counts):
            raise ValueError(f"five non-negative counts expected, got {self.counts!r}")

    @classmethod
    def from_pair_scores(cls, pair_scores: Iterable[float]) -> Pentanomial:
        """Count pair scores (each 0, 0.5, 1, 1.5 or 2)."""
        counts = [0] * 5
        for s in pair_scores:
            counts[pair_index(s)] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    def plus(self, pair_score: float) -> Pentanomial:
        """These counts with one more pair of the given score."""
        counts = list(self.counts)
        counts[pair_index(pair_score)] += 1
        return Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def score_stats(self) -> tuple[float, float]:
        """Mean score per game and its standard error from the pairs' variance ->
        (score, stderr). A pair's per-game score is its pair score / 2; stderr is
        sqrt(variance of those / pairs). Raises ValueError when there are no pairs."""
        n = self.pairs
        if n <= 0:
            raise ValueError("no pairs")
        values = [s / 2.0 for s in PAIR_SCORES]
        mean = sum(c * v for c, v in zip(self.counts, values, strict=True)) / n
        var = sum(c * (v - mean) ** 2 for c, v in zip(self.counts, values, strict=True)) / n
        return mean, math.sqrt(var / n)

    def elo_with_error(self, z: float = 1.96) -> tuple[float, float]:
        """Elo and the half-width of its z-interval (z = 1.96: 95%) with the pentanomial
        standard error (see elo_with_error for the edge cases)."""
        score, se = self.score_stats()
        return elo_interval(score, se, z)

    def text(self) -> str:
        """The counts as "[LL LD WL+DD WD WW]" text, e.g. "[1 4 10 3 2]"."""
        return "[" + " ".join(str(c) for c in self.counts) + "]"
