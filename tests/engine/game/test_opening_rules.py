"""The opening rules' state machine (gomoku.game.opening_rules): swap2 and Soosõrv-8, every
phase and choice, every refusal with its sentence, the records, and the page's fixture."""

from __future__ import annotations

import pytest
from opening_cases import FIXTURE, SCENARIOS, fixture_text

from gomoku.core.geometry import from_text
from gomoku.core.rules import Rule
from gomoku.game import opening_rules as O


def play(rule: str, words: str, size: int = 15, game_rule: str = "") -> O.OpeningState:
    game_rule = game_rule or ("renju" if rule == O.SOOSORV8 else "freestyle")
    state = O.start(rule, size, game_rule)
    for word in words.split():
        state = O.apply(state, O.action_from_text(state, word))
    return state


def refused(rule: str, words: str, size: int = 15) -> O.OpeningError:
    *before, last = words.split()
    state = play(rule, " ".join(before), size)
    with pytest.raises(O.OpeningError) as caught:
        O.apply(state, O.action_from_text(state, last))
    return caught.value


def pts(text: str, size: int = 15) -> tuple:
    return tuple(from_text(t, size) for t in text.split())


# --- starting ------------------------------------------------------------------------------


def test_start_refuses_a_rule_a_game_rule_or_a_size_it_is_not_for():
    with pytest.raises(O.OpeningError, match="swap2 is not an opening rule of renju") as e:
        O.start("swap2", 15, "renju")
    assert e.value.code == "rule"
    with pytest.raises(O.OpeningError, match="not an opening rule of standard"):
        O.start("soosorv8", 15, Rule.STANDARD)
    with pytest.raises(O.OpeningError, match="15x15 board, not 16x16") as e:
        O.start("soosorv8", 16, "renju")
    assert e.value.code == "size"
    with pytest.raises(O.OpeningError, match="unknown opening rule") as e:
        O.start("pro", 15, "freestyle")
    assert e.value.code == "unknown"


def test_the_first_player_places_first():
    s = O.start("swap2", 19, "standard")
    assert (s.phase, s.actor, s.black, s.stones, s.options) == ("open", 1, 1, (), ("place",))
    assert s.next_colour == 1 and not s.done and s.white == 2
    assert "three stones" in s.asks()


# --- swap2 ------------------------------------------------------------------------------------


def test_swap2_stones_alternate_and_the_second_player_chooses():
    s = play("swap2", "h8 h9")
    assert s.phase == "open" and s.next_colour == 1 and s.stones == pts("h8 h9")
    s = play("swap2", "h8 h9 j10")
    assert (s.phase, s.actor, s.options) == ("choose", 2, ("black", "white", "two"))


@pytest.mark.parametrize(("choice", "black"), [("black", 2), ("white", 1)])
def test_swap2_a_colour_taken_ends_the_opening(choice, black):
    s = play("swap2", f"h8 h9 j10 {choice}")
    assert (s.phase, s.actor, s.black, s.white, s.done) == ("done", None, black, 3 - black, True)
    assert s.stones == pts("h8 h9 j10") and s.options == ()


@pytest.mark.parametrize(("choice", "black"), [("black", 1), ("white", 2)])
def test_swap2_two_more_stones_and_the_first_player_chooses(choice, black):
    s = play("swap2", "h8 h9 j10 two")
    assert (s.phase, s.actor, s.next_colour) == ("two", 2, 2)
    s = play("swap2", "h8 h9 j10 two i9")
    assert (s.phase, s.next_colour) == ("two", 1)
    s = play("swap2", "h8 h9 j10 two i9 k8")
    assert (s.phase, s.actor, s.options) == ("final", 1, ("black", "white"))
    s = play("swap2", f"h8 h9 j10 two i9 k8 {choice}")
    assert s.done and s.black == black and s.stones == pts("h8 h9 j10 i9 k8")


def test_swap2_stones_go_anywhere_on_any_size():
    s = play("swap2", "a1 t20 j10 two k11 a20 white", size=20)
    assert s.done and s.black == 2 and s.stones[1] == (19, 0)


@pytest.mark.parametrize(
    ("words", "code", "says"),
    [
        ("h8 h8", "taken", "h8 is taken"),
        ("h8 h9 black", "not-now", "three stones"),
        ("h8 h9 j10 k11", "not-now", "takes black, takes white, or places two more"),
        ("h8 h9 j10 3", "not-now", "takes black"),
        ("h8 h9 j10 two i9 white", "not-now", "two more stones"),
        ("h8 h9 j10 two i9 k8 two", "not-now", "takes black or white"),
        ("h8 h9 j10 black k11", "over", "the opening is over"),
    ],
)
def test_swap2_refusals_say_what_the_opening_waits_for(words, code, says):
    err = refused("swap2", words)
    assert err.code == code and says in str(err)


def test_a_refused_action_leaves_the_state_as_it_was():
    s = play("swap2", "h8 h9")
    with pytest.raises(O.OpeningError):
        O.apply(s, O.Action("place", (7, 7)))
    assert s.stones == pts("h8 h9")


def test_off_the_board_is_refused_even_when_given_as_a_point():
    s = play("swap2", "h8")
    with pytest.raises(O.OpeningError, match="not a point of the 15x15 board") as e:
        O.apply(s, O.Action("place", (15, 3)))
    assert e.value.code == "off"
    with pytest.raises(O.OpeningError) as e:
        O.apply(s, O.Action("place", None))
    assert e.value.code == "off"


# --- Soosõrv-8 ---------------------------------------------------------------------------------


def test_soosorv_the_26_openings_area():
    assert refused("soosorv8", "h9").code == "centre"
    assert "on the centre, h8" in str(refused("soosorv8", "h9"))
    assert refused("soosorv8", "h8 h10").code == "near-centre"
    assert refused("soosorv8", "h8 h9 h11").code == "central-5x5"
    for second in "g7 g8 g9 h7 h9 i7 i8 i9".split():
        assert play("soosorv8", f"h8 {second}").phase == "open"
    for third in "f6 f10 j6 j10 h6 f8".split():
        assert play("soosorv8", f"h8 i9 {third}").phase == "swap"


def test_soosorv_stay_stay_three_offers_and_the_choice():
    s = play("soosorv8", "h8 h9 j10")
    assert (s.phase, s.actor, s.options) == ("swap", 2, ("black", "white"))
    s = play("soosorv8", "h8 h9 j10 white")
    assert (s.phase, s.actor, s.black) == ("fourth", 2, 1)
    s = play("soosorv8", "h8 h9 j10 white i7")
    assert (s.phase, s.actor, s.options, len(s.stones)) == ("declare", 2, ("declare",), 4)
    s = play("soosorv8", "h8 h9 j10 white i7 3")
    assert (s.phase, s.actor, s.n) == ("second-swap", 1, 3)
    s = play("soosorv8", "h8 h9 j10 white i7 3 black")
    assert (s.phase, s.actor, s.next_colour) == ("offer", 1, 1)
    s = play("soosorv8", "h8 h9 j10 white i7 3 black j8 g8")
    assert s.phase == "offer" and s.offers == pts("j8 g8") and len(s.stones) == 4
    s = play("soosorv8", "h8 h9 j10 white i7 3 black j8 g8 k11")
    assert (s.phase, s.actor, s.options) == ("select", 2, ("select",))
    s = play("soosorv8", "h8 h9 j10 white i7 3 black j8 g8 k11 g8")
    assert s.done and s.stones == pts("h8 h9 j10 i7 g8") and s.black == 1


def test_soosorv_swaps_change_who_acts():
    s = play("soosorv8", "h8 i9 j8 black")  # the second player swaps: black now
    assert (s.black, s.phase, s.actor) == (2, "fourth", 1)  # the first player is white
    s = play("soosorv8", "h8 i9 j8 black g9 1 white")  # black (player 2) swaps back
    assert (s.black, s.phase, s.actor) == (1, "offer", 1)
    s = play("soosorv8", "h8 i9 j8 black g9 1 white k10")  # one offer: white chooses
    assert (s.phase, s.actor) == ("select", 2)


@pytest.mark.parametrize("n", ["0", "9"])
def test_soosorv_declares_one_to_eight(n):
    err = refused("soosorv8", f"h8 h9 j10 white i7 {n}")
    assert err.code == "count" and "1 to 8" in str(err)
    with pytest.raises(O.OpeningError, match="not True"):
        O.apply(play("soosorv8", "h8 h9 j10 white i7"), O.Action("declare", n=True))


def test_soosorv_eight_offers():
    s = play("soosorv8", "h8 i9 h10 white j7 8 black f8 g6 k9 j11 l8 e11 m12 d4")
    assert s.phase == "select" and len(s.offers) == 8


@pytest.mark.parametrize(
    ("words", "code", "says"),
    [
        ("h8 h9 h10 white h6 2 black g7 i7", "symmetric", "i7 is symmetrical to the offer g7"),
        ("h8 h9 j10 white i7 3 black j8 j8", "offered", "j8 is offered already"),
        ("h8 h9 j10 white i7 3 black h9", "taken", "h9 is taken"),
        ("h8 h9 j10 white i7 2 black j8 g8 k11", "not-offered", "k11 is not one of the offered"),
        ("h8 h9 j10 white i7 i6", "not-now", "declares how many"),
        ("h8 h9 j10 two", "not-now", "takes black (swaps) or white"),
    ],
)
def test_soosorv_refusals(words, code, says):
    err = refused("soosorv8", words)
    assert err.code == code and says in str(err)


def test_a_selection_off_the_board_is_named_as_given():
    s = play("soosorv8", "h8 h9 j10 white i7 1 black j8")
    with pytest.raises(O.OpeningError, match=r"\(20, 20\) is not one of the offered") as e:
        O.apply(s, O.Action("select", (20, 20)))
    assert e.value.code == "not-offered"


def test_offers_symmetrical_only_under_the_position_s_own_symmetries():
    # no symmetry keeps h8 h9 j10 i7: mirrored points may both be offered
    s = play("soosorv8", "h8 h9 j10 white i7 2 black g7 i7".replace("i7 2", "i6 2"))
    assert s.phase == "select"


# --- words ----------------------------------------------------------------------------------


def test_words_mean_by_phase():
    s = play("soosorv8", "h8 h9 j10 white i7 1 black j8")
    assert O.action_from_text(s, "j8") == O.Action("select", (9, 7))
    assert O.action_from_text(s, " White ") == O.Action("white")
    assert O.action_from_text(s, "two") == O.Action("two")
    assert O.action_from_text(s, "4") == O.Action("declare", n=4)
    assert O.action_from_text(O.start("swap2", 15, 0), "h8") == O.Action("place", (7, 7))
    with pytest.raises(O.OpeningError, match="'pass' is not a point") as e:
        O.action_from_text(s, "pass")
    assert e.value.code == "word"
    for action, text in [
        (O.Action("place", (7, 7)), "h8"),
        (O.Action("declare", n=3), "3"),
        (O.Action("black"), "black"),
        (O.Action("select", (0, 0)), "a15"),
    ]:
        assert action.text(15) == text


def test_the_state_as_plain_data():
    s = play("soosorv8", "h8 h9 j10 white i7 2 black j8")
    assert s.to_dict() == {
        "phase": "offer", "actor": 1, "black": 1, "stones": ["h8", "h9", "j10", "i7"],
        "offers": ["j8"], "n": 2, "options": ["place"],
    }  # fmt: skip


# --- records ----------------------------------------------------------------------------------


def actions_of(rule: str, words: str) -> tuple[O.OpeningState, list[O.Action]]:
    state = O.start(rule, 15, "renju" if rule == O.SOOSORV8 else "standard")
    actions = []
    for word in words.split():
        action = O.action_from_text(state, word)
        state = O.apply(state, action)
        actions.append(action)
    return state, actions


@pytest.mark.parametrize(
    ("rule", "words", "choices", "offers"),
    [
        ("swap2", "h8 h9 j10 two i9 k8 white", ("two", "white"), ()),
        ("swap2", "h8 h9 j10 black", ("black",), ()),
        ("swap2", "h8 h9", (), ()),
        (
            "soosorv8",
            "h8 h9 j10 white i7 3 black j8 g8 k11 g8",
            ("white", "3", "black"),
            "j8 g8 k11",
        ),
        ("soosorv8", "h8 h9 j10 white i7 3 black j8", ("white", "3", "black"), "j8"),
    ],
)
def test_a_record_keeps_the_choices_and_offers_and_gives_the_opening_back(
    rule, words, choices, offers
):
    state, actions = actions_of(rule, words)
    record = O.record_of(state, actions)
    assert record == O.OpeningRecord(rule, choices, pts(offers) if offers else ())
    later = [(0, 0), (14, 14)] if state.done else []
    back, again = O.from_record(record, [*state.stones, *later], 15, state.game_rule)
    assert back == state and again == actions


def test_a_record_that_does_not_fit_is_refused():
    moves = list(pts("h8 h9 j10"))
    with pytest.raises(O.OpeningError, match="did not use") as e:
        O.from_record(O.OpeningRecord("swap2", ("black", "white")), moves, 15, "freestyle")
    assert e.value.code == "unused"
    with pytest.raises(O.OpeningError) as e:
        O.from_record(O.OpeningRecord("swap2", (), pts("j8")), moves, 15, "freestyle")
    assert e.value.code == "unused"
    with pytest.raises(O.OpeningError, match="before the opening is over") as e:
        O.from_record(O.OpeningRecord("swap2"), [*moves, (0, 0)], 15, "freestyle")
    assert e.value.code == "unfinished"
    with pytest.raises(O.OpeningError) as e:  # the 5th move is not an offer
        O.from_record(
            O.OpeningRecord("soosorv8", ("white", "1", "black"), pts("j8")),
            [*moves, *pts("i7 k11")], 15, "renju",
        )  # fmt: skip
    assert e.value.code == "not-offered"
    with pytest.raises(O.OpeningError) as e:
        O.from_record(O.OpeningRecord("swap2", ("nine",)), moves, 15, "freestyle")
    assert e.value.code == "word"


# --- the page's fixture -------------------------------------------------------------------------


def test_the_page_fixture_is_current():
    assert FIXTURE.read_text(encoding="utf-8") == fixture_text(), (
        "tests/page/node/fixtures/opening.json is stale:"
        " run python tests/engine/game/opening_cases.py"
    )


def test_the_fixture_covers_every_phase_choice_and_refusal():
    import json

    data = json.loads(fixture_text())
    phases = {step["phase"] for case in data["cases"] for step in case["steps"]}
    assert phases == set(O.OPTIONS)
    errors = {case["error"] for case in data["cases"]} | {s["error"] for s in data["starts"]}
    assert errors >= {"taken", "not-now", "over", "word", "centre", "near-centre",
                      "central-5x5", "count", "symmetric", "offered", "not-offered",
                      "rule", "size", "unknown"}  # fmt: skip
    assert len(data["cases"]) == len(SCENARIOS)
