"""Scores as data (gomoku.search.score): the meaning of the search's integer, its data and
text forms, and the one winning-chance curve (black's chance: the page's bar and the
review's graph)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.rules import Rule
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.patterns.weights import load_weights
from gomoku.search.score import Score, black_chance, chance, scale_of, score_data

# every integer a search can report: evaluations and forced fives either way
SCORES = st.integers(-WIN_SCORE + 1, WIN_SCORE - 1)
RULES = st.sampled_from(list(Rule))


def test_the_search_integer_becomes_an_evaluation_a_win_or_a_loss():
    assert Score.of(120) == Score("cp", 120)
    assert Score.of(-4) == Score("cp", -4)
    assert Score.of(WIN_THRESHOLD - 1) == Score("cp", WIN_THRESHOLD - 1)
    # n: the moves of the side that makes five (the side to move's on a win)
    assert Score.of(WIN_SCORE - 1) == Score("win", 1)  # five on this move
    assert Score.of(WIN_SCORE - 3) == Score("win", 2)
    assert Score.of(WIN_SCORE - 9) == Score("win", 5)
    assert Score.of(-(WIN_SCORE - 2)) == Score("loss", 1)  # the opponent's five next move
    assert Score.of(-(WIN_SCORE - 4)) == Score("loss", 2)
    assert Score.of(WIN_THRESHOLD).kind == "win" and Score.of(-WIN_THRESHOLD).kind == "loss"
    assert Score.of(WIN_SCORE - 9).decisive and not Score.of(WIN_THRESHOLD - 1).decisive


def test_data_and_text():
    assert Score.of(120).to_dict() == {"cp": 120}
    assert Score.of(WIN_SCORE - 9).to_dict() == {"win": 5}
    assert Score.of(-(WIN_SCORE - 8)).to_dict() == {"loss": 4}
    assert [Score.of(v).text() for v in (120, -50, 0, -4, 1234)] == [
        "+1.2", "-0.5", "+0.0", "-0.0", "+12.3"
    ]  # fmt: skip
    assert Score.of(WIN_SCORE - 9).text() == "win in 5"
    assert Score.of(-(WIN_SCORE - 8)).text() == "loss in 4"


@given(SCORES)
def test_data_reads_back_and_the_other_side_sees_the_mirror(value: int):
    s = Score.of(value)
    assert Score.from_dict(s.to_dict()) == s
    mirror = {"cp": ("cp", -s.value), "win": ("loss", s.value), "loss": ("win", s.value)}
    assert Score.of(-value) == Score(*mirror[s.kind])


@pytest.mark.parametrize(
    "bad",
    [None, [], {}, {"cp": 1, "win": 2}, {"mate": 3}, {"win": 0}, {"loss": -2}, {"cp": 1.5},
     {"cp": True}, {"cp": "12"}],
)  # fmt: skip
def test_bad_score_data_is_refused(bad: object):
    with pytest.raises(ValueError):
        Score.from_dict(bad)


def test_the_curve_is_the_evaluations_own_logistic():
    # the scale the evaluation was fitted with, per rule (renju has freestyle's weights)
    assert scale_of(Rule.FREESTYLE) == 200 == load_weights(Rule.FREESTYLE).scale
    assert scale_of("standard") == load_weights(Rule.STANDARD).scale == 155
    assert scale_of(Rule.RENJU) == scale_of(Rule.FREESTYLE)
    assert chance(0, Rule.FREESTYLE) == 0.5
    # one logit unit per `scale` centi-units: +2.0 is 73 % in freestyle (not 62 %, the 400 curve)
    assert math.isclose(chance(200, Rule.FREESTYLE), 1 / (1 + math.exp(-1)))
    assert round(chance(200, Rule.FREESTYLE), 2) == 0.73
    assert math.isclose(chance(155, Rule.STANDARD), 1 / (1 + math.exp(-1)))


def test_forced_fives_are_certain():
    for rule in Rule:
        assert chance(WIN_SCORE - 9, rule) == 1.0 and chance(-(WIN_SCORE - 8), rule) == 0.0
        assert black_chance(WIN_SCORE - 1, True, rule) == 1.0
        assert black_chance(WIN_SCORE - 1, False, rule) == 0.0  # white to move makes five
        assert black_chance(-(WIN_SCORE - 2), True, rule) == 0.0
        assert black_chance(-(WIN_SCORE - 2), False, rule) == 1.0


@given(SCORES, SCORES, RULES)
def test_the_curve_is_monotone_and_symmetric_between_the_colours(a: int, b: int, rule: Rule):
    lo, hi = sorted((a, b))
    assert chance(lo, rule) <= chance(hi, rule)
    assert 0.0 <= chance(a, rule) <= 1.0
    # the side to move's chance and the other's add up to 1
    assert math.isclose(chance(a, rule) + chance(-a, rule), 1.0)
    # black's chance of a position + white's (its score from white's view: -a) = 1
    assert math.isclose(black_chance(a, True, rule) + chance(-a, rule), 1.0)
    assert math.isclose(black_chance(a, False, rule) + chance(a, rule), 1.0)
    # the colours swapped (the same score, the other colour to move): black gets white's
    assert math.isclose(black_chance(a, True, rule) + black_chance(a, False, rule), 1.0)


def test_score_data_is_what_the_web_api_sends():
    report = {
        "move": [7, 7],
        "score": 200,
        "depth": 3,
        "top": [
            {"move": [7, 7], "score": 200, "pv": [[7, 7]]},
            {"move": [8, 8], "score": -(WIN_SCORE - 4), "pv": [[8, 8]]},
        ],
    }
    sent = score_data(report, black_to_move=False, rule=Rule.FREESTYLE)
    assert sent["score"] == {"cp": 200} and sent["move"] == [7, 7] and sent["depth"] == 3
    assert sent["black"] == round(1 - 1 / (1 + math.exp(-1)), 4) == 0.2689  # white's +2.0
    assert [t["score"] for t in sent["top"]] == [{"cp": 200}, {"loss": 2}]
    assert [t["move"] for t in sent["top"]] == [[7, 7], [8, 8]]
    assert report["score"] == 200 and report["top"][1]["score"] == -(WIN_SCORE - 4)  # a copy
    won = score_data({"score": WIN_SCORE - 1}, black_to_move=True, rule="renju")
    assert won == {"score": {"win": 1}, "black": 1.0}
