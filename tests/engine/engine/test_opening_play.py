"""The engine's part in the opening rules (gomoku.engine.opening_play): the sets it draws
its stones from, and each decision on a scripted evaluation (every branch), then on the
real engine's small search."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gomoku.core.geometry import from_text, to_text
from gomoku.core.rules import Rule
from gomoku.engine import Engine, Limits
from gomoku.engine import opening_play as P
from gomoku.game import opening_rules as O

WIN = 10**6  # beyond any evaluation: a forced win's score


def pts(text: str) -> list:
    return [from_text(t, 15) for t in text.split()]


def state_of(rule: str, words: str) -> O.OpeningState:
    state = O.start(rule, 15, "renju" if rule == O.SOOSORV8 else "freestyle")
    for word in words.split():
        state = O.apply(state, O.action_from_text(state, word))
    return state


class Scripted:
    """An Evaluator from a table: position (its moves as text) -> [(move, score)], the
    side to move's view; positions not in the table get FILLER moves scored 0. Records
    what was asked."""

    FILLER = "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1"

    def __init__(self, table: dict[str, list[tuple[str, int]]]) -> None:
        self.table = table
        self.asked: list[tuple[str, int]] = []

    def __call__(self, moves: Sequence, k: int) -> list:
        key = " ".join(to_text(x, y, 15) for x, y in moves)
        self.asked.append((key, k))
        rows = self.table.get(key, [(m, 0) for m in self.FILLER.split()])
        return [(from_text(m, 15), s) for m, s in rows[:k]]


def words(actions: list[O.Action]) -> str:
    return " ".join(a.text(15) for a in actions)


# --- the sets --------------------------------------------------------------------------------


SETS_TEXT = """# a comment
freestyle h8 h9 j10 # Eval -12
freestyle h8 i7 f5

standard h8 g9 k8
renju h8 h9 h10 # Kansei
"""


def test_the_sets_file_is_read_per_rule():
    sets = P.parse_opening_sets(SETS_TEXT)
    assert sets[Rule.FREESTYLE] == [tuple(pts("h8 h9 j10")), tuple(pts("h8 i7 f5"))]
    assert sets[Rule.STANDARD] == [tuple(pts("h8 g9 k8"))]
    assert sets[Rule.RENJU] == [tuple(pts("h8 h9 h10"))]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("freestyle h8 h9", "2 stones, not 3"),
        ("renju h8 h10 j10", "next to h8"),  # not one of the 26 openings
        ("freestyle h8 h8 i9", "h8 is taken"),
        ("gomoku h8 h9 h10", "unknown rule"),
        ("standard h8 z9 h10", "z9"),
    ],
)
def test_a_bad_line_is_named(line, says):
    with pytest.raises(ValueError, match=f"line 2: .*{says}"):
        P.parse_opening_sets("freestyle h8 h9 j10\n" + line)


def test_the_shipped_sets_cover_every_rule_and_are_legal():
    sets = P.opening_sets()
    assert set(sets) == {Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU}
    assert all(len(entries) >= 3 for entries in sets.values())


def test_proposed_stones_by_seed_symmetry_and_centre():
    sets = P.parse_opening_sets(SETS_TEXT)
    seen = {tuple(P.proposed_stones(Rule.FREESTYLE, 15, seed, sets)) for seed in range(40)}
    assert len(seen) > 8  # two entries, eight symmetries
    for stones in seen:
        O.replay(O.start("swap2", 15, "freestyle"), [O.Action("place", p) for p in stones])
    assert P.proposed_stones(Rule.FREESTYLE, 15, 7, sets) == P.proposed_stones(
        Rule.FREESTYLE, 15, 7, sets
    )
    on20 = P.proposed_stones(Rule.STANDARD, 20, 3, sets)
    assert on20[0] == (10, 10)  # h8 moved to the 20x20 board's centre
    renju = P.proposed_stones(Rule.RENJU, 15, 5, sets)
    O.replay(O.start("soosorv8", 15, "renju"), [O.Action("place", p) for p in renju])
    with pytest.raises(ValueError, match="no opening set for standard"):
        P.proposed_stones(Rule.STANDARD, 15, 0, {Rule.FREESTYLE: sets[Rule.FREESTYLE]})


# --- swap2 -------------------------------------------------------------------------------------


def test_swap2_the_engine_opens_with_a_set_s_stones():
    sets = P.parse_opening_sets(SETS_TEXT)
    acts = P.decide(O.start("swap2", 15, "freestyle"), Scripted({}), seed=4, sets=sets)
    assert [a.kind for a in acts] == ["place"] * 3
    assert [a.point for a in acts] == P.proposed_stones(Rule.FREESTYLE, 15, 4, sets)


@pytest.mark.parametrize(("score", "choice"), [(120, "white"), (-120, "black"), (WIN, "white")])
def test_swap2_the_second_player_takes_the_clearly_better_side(score, choice):
    state = state_of("swap2", "h8 h9 j10")
    assert words(P.decide(state, Scripted({"h8 h9 j10": [("i9", score)]}))) == choice


def test_swap2_the_second_player_places_the_pair_closest_to_even():
    table = {
        "h8 h9 j10": [("i9", 10), ("g7", 5)],  # white's chance about 1/2: even
        "h8 h9 j10 i9": [("k8", 300), ("g8", -200)],  # black's replies after i9
        "h8 h9 j10 g7": [("i7", 150), ("j9", 20)],  # ... after g7: j9 is nearly even
    }
    evaluate = Scripted(table)
    assert words(P.decide(state_of("swap2", "h8 h9 j10"), evaluate)) == "two g7 j9"
    assert ("h8 h9 j10", P.CANDIDATES) in evaluate.asked


def test_swap2_the_pair_when_two_was_chosen_elsewhere():
    table = {"h8 h9 j10 g7": [("i7", 150), ("j9", 20), ("k9", -90)]}
    assert words(P.decide(state_of("swap2", "h8 h9 j10 two g7"), Scripted(table))) == "j9"


@pytest.mark.parametrize(("score", "choice"), [(0, "white"), (40, "white"), (-40, "black")])
def test_swap2_the_first_player_takes_the_side_at_least_even(score, choice):
    state = state_of("swap2", "h8 h9 j10 two g7 j9")
    assert words(P.decide(state, Scripted({"h8 h9 j10 g7 j9": [("k10", score)]}))) == choice


# --- Soosõrv-8 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("score", "choice"), [(30, "white"), (-30, "black")])
def test_soosorv_the_first_swap_by_white_s_best_move(score, choice):
    # taking white leaves the 4th move to it: decide goes on to the stone and the count
    state = state_of("soosorv8", "h8 h9 j10")
    acts = P.decide(state, Scripted({"h8 h9 j10": [("i7", score)]}))
    assert acts[0].kind == choice
    if choice == "white":
        assert [a.kind for a in acts] == ["white", "place", "declare"]
    else:
        assert len(acts) == 1


def test_soosorv_white_places_the_fourth_and_the_count_closest_to_even():
    table = {
        "h8 h9 j10": [("i7", -50), ("g9", -80)],
        # black's 5th moves after i7: the 3rd best is nearly even
        "h8 h9 j10 i7": [("j8", 400), ("g8", 200), ("k11", 10), ("g7", -150)],
        # after g9 every 5th is far from even
        "h8 h9 j10 g9": [("j9", 600), ("i8", 500)],
    }
    acts = P.decide(state_of("soosorv8", "h8 h9 j10 white"), Scripted(table))
    assert words(acts) == "i7 3"


def test_soosorv_symmetrical_fifth_moves_count_once():
    # h8 h9 h10 h6 is mirror-symmetric: g7 and i7 are one 5th move
    table = {"h8 h9 h10 h6": [("g7", 500), ("i7", 500), ("h11", 20)]}
    acts = P.decide(state_of("soosorv8", "h8 h9 h10 white h6"), Scripted(table))
    assert words(acts) == "2"  # the second distinct one (h11) is the even one
    state = state_of("soosorv8", "h8 h9 h10 white h6 2")
    acts = P.decide(state, Scripted(table))
    assert words(acts) == "black g7 h11"  # worth h11 for black: 20, at least even


@pytest.mark.parametrize(("nth", "choice"), [(15, "black"), (-15, "white")])
def test_soosorv_the_second_swap_by_black_s_nth_best_fifth(nth, choice):
    table = {"h8 h9 j10 i7": [("j8", 400), ("g8", 200), ("k11", nth), ("g7", -150)]}
    state = state_of("soosorv8", "h8 h9 j10 white i7 3")
    acts = P.decide(state, Scripted(table))
    assert acts[0].kind == choice
    if choice == "black":  # black keeps black, then offers its best three
        assert words(acts) == "black j8 g8 k11"


def test_soosorv_offers_skip_symmetrical_ones_and_fill_from_near_cells():
    table = {"h8 h9 h10 h6": [("g7", 50), ("i7", 50)]}  # one distinct move only
    state = state_of("soosorv8", "h8 h9 h10 white h6 3 black")
    acts = P.decide(state, Scripted(table))
    offered = [a.point for a in acts]
    assert len(offered) == 3 and offered[0] == from_text("g7", 15)
    assert from_text("i7", 15) not in offered
    O.replay(state, acts)  # all three allowed by the rule


def test_soosorv_white_selects_the_offer_best_for_it():
    table = {
        "h8 h9 j10 i7 j8": [("k9", -100)],
        "h8 h9 j10 i7 g8": [("f9", 60)],
        "h8 h9 j10 i7 k11": [("l12", 60)],  # as good: the first offered wins the tie
    }
    state = state_of("soosorv8", "h8 h9 j10 white i7 3 black j8 g8 k11")
    assert words(P.decide(state, Scripted(table))) == "g8"


def test_soosorv_the_engine_opens_and_completes_an_opening_begun_elsewhere():
    state = state_of("soosorv8", "h8")
    # the search's first moves are outside the 26 openings' area: skipped
    table = {"h8": [("a1", 9), ("i9", 5)], "h8 i9": [("o15", 9), ("j10", 3)]}
    assert words(P.decide(state, Scripted(table))) == "i9 j10"
    with pytest.raises(ValueError, match="no opening stone"):
        P.decide(state, Scripted({"h8": [("a1", 9)]}))
    sets = P.parse_opening_sets(SETS_TEXT)
    acts = P.decide(O.start("soosorv8", 15, "renju"), Scripted({}), seed=1, sets=sets)
    assert words(acts) in {" ".join(to_text(x, y, 15) for x, y in P.proposed_stones(
        Rule.RENJU, 15, 1, sets))}  # fmt: skip


def test_nothing_to_decide_once_the_opening_is_over():
    with pytest.raises(ValueError, match="the opening is over"):
        P.decide(state_of("swap2", "h8 h9 j10 black"), Scripted({}))


# --- on the real engine ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def evaluate():
    return P.engine_evaluator(Engine(15, "freestyle"), Limits(time_ms=None, nodes=2000, seed=0))


def test_the_engine_evaluator_gives_k_scored_moves(evaluate):
    top = evaluate(pts("h8 h9 j10"), 3)
    assert 1 <= len(top) <= 3
    assert all(isinstance(s, int) and m not in pts("h8 h9 j10") for m, s in top)


def test_real_decisions_are_allowed_by_the_rule(evaluate):
    for words_ in ("h8 h9 j10", "h8 h9 j10 two", "h8 h9 j10 two i9 k8"):
        state = state_of("swap2", words_)
        O.replay(state, P.decide(state, evaluate, seed=3))
    renju = P.engine_evaluator(Engine(15, "renju"), Limits(time_ms=None, nodes=1500, seed=0))
    state = O.start("soosorv8", 15, "renju")
    while not state.done:  # the engine plays both players through the whole opening
        state = O.replay(state, P.decide(state, renju, seed=2))
    assert len(state.stones) == 5 and len(state.offers) == state.n
