"""The worker's "opening" message (gomoku.protocol.webopening), in CPython: the engine's
turn in each phase of swap2 and Soosõrv-8, its actions allowed by the rule, the same for
the same seed, and a clear error for every malformed message."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku.core.geometry import from_text
from gomoku.game import opening_rules as O
from gomoku.protocol import webapi

NODES = 400


def cells(text: str) -> list[list[int]]:
    return [list(from_text(t, 15)) for t in text.split()]


def ask(**fields) -> dict:
    return webapi.handle({"type": "opening", "id": "o1", "nodes": NODES, **fields})


def replayed(rule: str, game_rule: str, moves, choices, offers, actions) -> O.OpeningState:
    """The opening with the engine's actions applied (raises if the rule refuses one)."""
    record = O.OpeningRecord(rule, tuple(choices), tuple(tuple(p) for p in offers))
    state, _ = O.from_record(record, [tuple(m) for m in moves], 15, game_rule)
    for a in actions:
        point = tuple(a["at"]) if "at" in a else None
        state = O.apply(state, O.Action(a["kind"], point, a.get("n")))
    return state


@pytest.mark.parametrize(
    ("rule", "game_rule", "moves", "choices", "offers"),
    [
        ("swap2", "freestyle", "", [], ""),  # the engine opens
        ("swap2", "standard", "h8 h9 j10", [], ""),  # it chooses
        ("swap2", "freestyle", "h8 h9 j10 i9", ["two"], ""),  # its black stone after two
        ("swap2", "freestyle", "h8 h9 j10 i9 k8", ["two"], ""),  # the first player's choice
        ("soosorv8", "renju", "", [], ""),
        ("soosorv8", "renju", "h8 h9 j10", [], ""),
        ("soosorv8", "renju", "h8 h9 j10", ["black"], ""),  # it is white: the 4th and count
        ("soosorv8", "renju", "h8 h9 j10 i7", ["white", "3"], ""),  # black's second swap
        ("soosorv8", "renju", "h8 h9 j10 i7", ["white", "3", "black"], "j8"),  # two more offers
        ("soosorv8", "renju", "h8 h9 j10 i7", ["white", "2", "black"], "j8 g8"),  # white selects
    ],
)
def test_the_engine_acts_in_every_phase_as_the_rule_allows(rule, game_rule, moves, choices, offers):
    reply = ask(
        rule=game_rule,
        opening=rule,
        moves=cells(moves),
        choices=choices,
        offers=cells(offers),
        seed=5,
    )
    assert reply["type"] == "opening" and reply["id"] == "o1", reply
    before = replayed(rule, game_rule, cells(moves), choices, cells(offers), [])
    after = replayed(rule, game_rule, cells(moves), choices, cells(offers), reply["actions"])
    assert reply["actions"] and (after.done or after.actor != before.actor)
    assert isinstance(reply["notes"], list)
    json.dumps(reply)


def test_the_same_seed_proposes_the_same_stones_and_another_seed_may_not():
    seen = {
        json.dumps(ask(opening="swap2", moves=[], seed=s)["actions"]) for s in (1, 1, 2, 3, 4, 5)
    }
    assert 2 <= len(seen) <= 5
    assert ask(opening="swap2", moves=[], seed=9) == ask(opening="swap2", moves=[], seed=9)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"opening": "pro", "moves": []}, "opening must be one of swap2, soosorv8"),
        ({"moves": []}, "opening must be one of"),
        ({"opening": "swap2", "moves": [], "choices": "two"}, "choices must be a list"),
        ({"opening": "swap2", "moves": [], "choices": [2]}, "choices must be a list"),
        ({"opening": "swap2", "moves": [], "seed": -1}, "seed must be an integer"),
        ({"opening": "swap2", "moves": [], "nodes": 0}, "nodes must be an integer"),
        ({"opening": "swap2", "moves": [], "nodes": True}, "nodes must be an integer"),
        ({"opening": "swap2", "moves": [], "extra": 1}, "unknown field(s) in opening: extra"),
        ({"opening": "swap2"}, "missing field: moves"),
        ({"opening": "swap2", "moves": [], "offers": [[99, 1]]}, "off the 15x15 board"),
        (
            {"opening": "swap2", "moves": cells("h8 h9 j10"), "choices": ["black"]},
            "the opening is over",
        ),
        ({"opening": "swap2", "moves": cells("h8 h8")}, "the opening: h8 is taken"),
        ({"opening": "swap2", "moves": cells("h8 h9 j10"), "choices": ["3"]}, "not now"),
        ({"opening": "soosorv8", "moves": [], "rule": "renju", "size": 17}, "15x15"),
        (
            {"opening": "soosorv8", "moves": [], "rule": "freestyle"},
            "not an opening rule of freestyle",
        ),
        ({"opening": "swap2", "moves": [], "size": 30}, "board size 30 not supported"),
    ],
)
def test_malformed_messages_get_an_error_naming_why(fields, says):
    reply = webapi.handle({"type": "opening", "id": "e", **fields})
    assert reply["type"] == "error" and reply["id"] == "e", reply
    assert says in reply["message"], reply["message"]


def test_the_message_goes_through_json():
    text = webapi.handle_json(
        json.dumps({"type": "opening", "id": 7, "opening": "swap2", "moves": [], "nodes": NODES})
    )
    reply = json.loads(text)
    assert reply["type"] == "opening" and len(reply["actions"]) == 3


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {"type": st.just("opening"), "id": st.just("f"), "nodes": st.just(200)},
        optional={
            "opening": st.sampled_from(["swap2", "soosorv8", "x", None]),
            "moves": st.one_of(
                st.lists(st.lists(st.integers(-1, 16), min_size=2, max_size=2), max_size=6),
                st.none(),
            ),
            "choices": st.lists(
                st.sampled_from(["black", "white", "two", "3", "9", "h8"]), max_size=3
            ),
            "offers": st.lists(st.lists(st.integers(0, 14), min_size=2, max_size=2), max_size=3),
            "rule": st.sampled_from(["freestyle", "standard", "renju", 7]),
            "seed": st.one_of(st.integers(-2, 5), st.text(max_size=2)),
        },
    )
)
def test_every_message_gets_one_well_formed_reply(message):
    reply = webapi.handle(message)
    assert reply["id"] == "f" and reply["type"] in ("opening", "error")
    if reply["type"] == "error":
        assert isinstance(reply["message"], str) and reply["message"]
        assert "internal error" not in reply["message"], reply["message"]
    else:
        assert reply["actions"]
    json.dumps(reply)
