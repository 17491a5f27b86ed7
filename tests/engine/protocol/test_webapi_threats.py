"""The worker's "threats" message (the coach: gomoku.engine.coach), in CPython: its
answer, and a clear error for every malformed message, the engine untouched."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku.core.geometry import from_text
from gomoku.protocol import webapi


def cells(text: str) -> list[list[int]]:
    return [list(from_text(t, 15)) for t in text.split()]


def ask(**fields) -> dict:
    return webapi.handle({"type": "threats", "id": "c1", **fields})


def test_a_white_open_three_is_answered_with_its_points_and_blocks():
    # black a1 a3 a5, white f8 g8 h8: black to move
    moves = [m for pair in zip(cells("a1 a3 a5"), cells("f8 g8 h8"), strict=True) for m in pair]
    reply = ask(moves=moves)
    assert reply["type"] == "threats" and reply["id"] == "c1"
    assert reply["toMove"] == "black" and reply["black"] == []
    assert reply["white"] == [{"kind": "three", "points": cells("e8 i8"), "blocks": cells("e8 i8")}]
    json.dumps(reply)


def test_size_rule_and_first_are_read():
    moves = cells("a1 f8 a3 g8 a5 h8")  # white opened (a1 is white's)
    reply = ask(moves=moves, first="white", size=15, rule="standard")
    assert reply["toMove"] == "white" and reply["white"] == []
    assert [t["kind"] for t in reply["black"]] == ["three"]
    big = [[x + 2, y + 2] for x, y in moves]
    reply = ask(moves=big, first="white", size=19, rule=1)
    assert reply["black"][0]["points"] == [[x + 2, y + 2] for x, y in cells("e8 i8")]


def test_the_engine_is_left_as_it_was():
    before = webapi.handle({"type": "status", "id": "s", "moves": [[7, 7], [8, 8]]})
    ask(moves=cells("a1 f8 a3 g8"))
    think = webapi.handle(
        {"type": "think", "id": "t", "moves": [[7, 7], [8, 8]], "limits": {"depth": 1}}
    )
    assert before["type"] == "status" and think["type"] == "result"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({}, ["missing field: moves"]),
        ({"moves": "h8"}, ["moves must be a list"]),
        ({"moves": [[7, 7, 1]]}, ["moves[0]"]),
        ({"moves": [[15, 0]]}, ["off the 15x15 board"]),
        ({"moves": [[7, 7], [7, 7]]}, ["occupied"]),
        ({"moves": [], "size": 30}, ["size"]),
        ({"moves": [], "size": "15"}, ["size must be an integer"]),
        ({"moves": [], "rule": "go"}, ["unknown rule"]),
        ({"moves": [], "first": "red"}, ["first must be"]),
        ({"moves": [], "rule": "renju", "first": "white"}, ["black moves first"]),
        ({"moves": [], "depth": 3}, ["unknown field", "depth"]),
        (
            {"moves": cells("f8 a1 g8 a3 h6 a5 h7 a7 h8"), "rule": "renju"},
            ["moves[8]", "forbidden for black", "double three"],
        ),
        ({"moves": cells("f8 a1 g8 a3 h8 a5 i8 a7 j8 a9")}, ["game is over"]),
    ],
)
def test_malformed_messages_get_clear_errors(fields, words):
    reply = ask(**fields)
    assert reply["type"] == "error" and reply["id"] == "c1", reply
    for w in words:
        assert w in reply["message"], reply["message"]
    assert not reply["message"].startswith("internal error")


def test_no_id_is_an_error_with_a_null_id():
    reply = webapi.handle({"type": "threats", "moves": []})
    assert reply == {"type": "error", "id": None, "message": reply["message"]}
    assert "id" in reply["message"]


def test_through_json():
    text = webapi.handle_json(json.dumps({"type": "threats", "id": 7, "moves": [[7, 7]]}))
    assert json.loads(text) == {
        "type": "threats",
        "id": 7,
        "toMove": "white",
        "black": [],
        "white": [],
    }


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {"type": st.just("threats"), "id": st.just("f")},
        optional={
            "moves": st.one_of(
                st.lists(st.lists(st.integers(-1, 16), min_size=2, max_size=2), max_size=30),
                st.text(max_size=3),
                st.none(),
            ),
            "size": st.one_of(st.integers(14, 21), st.text(max_size=2), st.none()),
            "rule": st.sampled_from(["freestyle", "standard", "renju", 0, 2, 9, None]),
            "first": st.sampled_from(["black", "white", "", 1]),
        },
    )
)
def test_any_threats_message_gets_one_well_formed_reply(message):
    reply = webapi.handle(message)
    json.dumps(reply)
    assert reply["type"] in ("threats", "error"), reply
    if reply["type"] == "error":
        assert reply["message"] and not reply["message"].startswith("internal error"), reply
    else:
        assert set(reply) == {"type", "id", "toMove", "black", "white"}
