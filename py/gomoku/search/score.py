"""Scores as data: what a search's score means, and black's winning chance.

The search scores a position with one integer from the side to move's view
(gomoku.game.evaluation): an evaluation in centi-units, or beyond WIN_THRESHOLD a forced
five WIN_SCORE - plies away. What leaves the engine is made from that integer here, once:

- ``Score.of(value)``: ``cp`` (the evaluation in centi-units, 100 a stone's worth), or
  ``win`` n (the side to move makes five on its n-th move from here, n >= 1), or ``loss`` n
  (the opponent makes five on its n-th move). Always the side to move's view, as UCI's
  scores: n counts the moves of the side that makes the five.
- ``Score.to_dict()``: {"cp": n} | {"win": n} | {"loss": n}, what the web API sends (the
  page makes the words, web/model/score.js); ``Score.text()``: "+1.2", "win in 5", "loss in 4",
  the English of the Gomocup brain's MESSAGE lines and of the command-line tools.
- ``chance`` / ``black_chance``: the winning chance, the one curve behind the page's
  evaluation bar and the review's graph and classes: the side to move's chance
  1 / (1 + exp(-cp / scale)), a win 1 and a loss 0. ``scale`` is the rule's evaluation
  scale (centi-units per logit unit, patterns.weights: 200 for freestyle and renju, 155
  for standard): the evaluation was fitted to games' results with exactly this logistic
  (gomoku_lab.tune), so the chance is the fitted one, and the review's thresholds (a drop
  of 0.10 / 0.20 / 0.30) were set on it. (The page's bar used 400 before, half as steep:
  +2.0 showed 62 % there and 73 % in the review.)

Layer 3 (search): imports the layers below only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gomoku.core.rules import Rule, parse_rule
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.patterns.weights import load_weights

KINDS = ("cp", "win", "loss")
CHANCE_DIGITS = 4  # black's chance as sent: 0.6931


@dataclass(frozen=True)
class Score:
    """A search's score from the side to move's view: ``kind`` "cp" (``value`` centi-units)
    or "win" / "loss" (``value``: moves of the side that makes five, at least 1)."""

    kind: str
    value: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a score is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind != "cp" and self.value < 1:
            raise ValueError(f"a {self.kind} is at least 1 move away, got {self.value}")

    @classmethod
    def of(cls, value: int) -> Score:
        """The meaning of the search's integer ``value``."""
        value = int(value)
        if value >= WIN_THRESHOLD:
            return cls("win", max(1, (WIN_SCORE - value + 1) // 2))
        if value <= -WIN_THRESHOLD:
            return cls("loss", max(1, (WIN_SCORE + value + 1) // 2))
        return cls("cp", value)

    @classmethod
    def from_dict(cls, data: object) -> Score:
        """The score of its ``to_dict()`` form; ValueError for anything else."""
        if not (isinstance(data, dict) and len(data) == 1):
            raise ValueError(f"score data is one of {{cp: n}}, {{win: n}}, {{loss: n}}: {data!r}")
        ((kind, value),) = data.items()
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"a score's value is an integer, got {value!r}")
        return cls(kind, value)

    @property
    def decisive(self) -> bool:
        """A forced win or loss."""
        return self.kind != "cp"

    def to_dict(self) -> dict[str, int]:
        """{"cp": n}, {"win": n} or {"loss": n}."""
        return {self.kind: self.value}

    def text(self) -> str:
        """English text for the edges that speak it: "+1.2", "win in 5", "loss in 4"."""
        if self.kind == "cp":
            return f"{self.value / 100:+.1f}"
        return f"{self.kind} in {self.value}"

    def chance(self, scale: float) -> float:
        """The side to move's winning chance on the logistic of ``scale`` (see the module
        doc)."""
        if self.kind == "win":
            return 1.0
        if self.kind == "loss":
            return 0.0
        x = max(-700.0, min(700.0, self.value / scale))  # exp stays finite
        return 1.0 / (1.0 + math.exp(-x))


def scale_of(rule: Rule | str | int) -> float:
    """The rule's evaluation scale: centi-units per logit unit of the chance."""
    return float(load_weights(parse_rule(rule)).scale)


def chance(value: int, rule: Rule | str | int) -> float:
    """The side to move's winning chance of the search's integer ``value`` (the curve)."""
    return Score.of(value).chance(scale_of(rule))


def black_chance(value: int, black_to_move: bool, rule: Rule | str | int) -> float:
    """Black's winning chance of a position whose side to move (black or not) has the
    search's integer ``value``: the one function the page's bar and the review share."""
    own = chance(value, rule)
    return own if black_to_move else 1.0 - own


def score_data(report: dict[str, Any], black_to_move: bool, rule: Rule | str | int) -> dict:
    """A search report (SearchInfo / SearchResult ``to_dict()``: ``score`` the search's
    integer) as the web API sends it: ``score`` and each ``top`` move's score as
    ``Score.to_dict()``, and ``black``, black's chance (rounded to CHANCE_DIGITS)."""
    out = dict(report)
    value = int(report["score"])
    out["score"] = Score.of(value).to_dict()
    out["black"] = round(black_chance(value, black_to_move, rule), CHANCE_DIGITS)
    if "top" in report:
        out["top"] = [{**t, "score": Score.of(int(t["score"])).to_dict()} for t in report["top"]]
    return out
