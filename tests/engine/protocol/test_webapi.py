"""The worker's message handler (py/gomoku/protocol/webapi.py), in CPython."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku import __version__
from gomoku.core.rules import Rule
from gomoku.protocol import webapi, webjson
from gomoku.search.score import Score, scale_of

ROOT = Path(__file__).resolve().parents[3]
FAST = {"timeMs": 300}


def think(moves, limits=None, **extra):
    msg = {"type": "think", "id": "t1", "moves": moves, "limits": limits or FAST, **extra}
    infos: list[dict] = []
    reply = webapi.handle(msg, infos.append)
    return reply, infos


def assert_score_data(report: dict, black_to_move: bool, rule=Rule.FREESTYLE) -> Score:
    """A report's score is data (no text), and its black chance is the curve's of it."""
    score = Score.from_dict(report["score"])
    own = score.chance(scale_of(rule))
    assert report["black"] == round(own if black_to_move else 1 - own, 4)
    assert not {"score_text", "moveText"} & set(report)
    for t in report.get("top", []):
        Score.from_dict(t["score"])
        assert set(t) == {"move", "score", "pv"}
    return score


def assert_error(reply, mid, *words):
    assert reply["type"] == "error", reply
    assert reply["id"] == mid
    assert isinstance(reply["message"], str) and reply["message"]
    for w in words:
        assert w in reply["message"], reply["message"]


# ---- valid messages ------------------------------------------------------------------


def test_init_reports_version():
    reply = webapi.handle({"type": "init", "id": 1})
    assert reply == {"type": "ready", "id": 1, "version": __version__, "protocol": webapi.PROTOCOL}


def test_think_returns_a_legal_move_and_echoes_id():
    moves = [[7, 7], [8, 8], [6, 7]]
    reply, infos = think(moves)
    assert reply["type"] == "result" and reply["id"] == "t1"
    x, y = reply["move"]
    assert 0 <= x < 15 and 0 <= y < 15 and [x, y] not in moves
    assert reply["winner"] == 0 and reply["winningLine"] == []
    for key in ("score", "black", "depth", "nodes", "source"):
        assert key in reply
    assert_score_data(reply, black_to_move=False)  # white to move after three moves
    json.dumps(reply)  # JSON-ready
    for info in infos:
        assert info["type"] == "info" and info["id"] == "t1"
        assert_score_data(info, black_to_move=False)
        json.dumps(info)


def test_scores_name_the_colours_of_first():
    """black is black's chance: with white moving first the side to move's colours swap."""
    moves = [[7, 7], [8, 8], [6, 7]]
    limits = {"depth": 2, "book": False, "threats": False}
    as_black, infos = think(moves, limits, reset=True)
    as_white, white_infos = think(moves, limits, reset=True, first="white")
    assert infos and len(infos) == len(white_infos)
    for info, white in zip(infos, white_infos, strict=True):
        assert math.isclose(info["black"], 1 - white["black"]) and info["score"] == white["score"]
    for info in infos:
        assert_score_data(info, black_to_move=False)
    assert as_black["score"] == as_white["score"] and as_black["move"] == as_white["move"]
    assert_score_data(as_black, black_to_move=False)
    assert_score_data(as_white, black_to_move=True)  # white moved first: black is to move
    assert as_black["score"]["cp"] and math.isclose(as_black["black"] + as_white["black"], 1.0)
    # a decided position: the side to move's five is black's 1.0 or 0.0
    four = [[5, 7], [0, 0], [6, 7], [0, 2], [7, 7], [0, 4], [8, 7], [0, 14]]
    assert think(four)[0]["black"] == 1.0
    assert think(four, first="white")[0]["black"] == 0.0
    renju = think(moves, rule="renju", first="white")[0]
    assert_error(renju, "t1", "under renju black moves first")


def test_think_on_empty_board():
    reply, _ = think([])
    assert reply["type"] == "result"
    x, y = reply["move"]
    assert 0 <= x < 15 and 0 <= y < 15


def test_think_completes_an_open_four_and_reports_the_win():
    # black: f8 g8 h8 i8 (y = 7), white elsewhere; black to move wins at e8 or j8
    moves = [[5, 7], [0, 0], [6, 7], [0, 2], [7, 7], [0, 4], [8, 7], [0, 14]]
    reply, _ = think(moves)
    assert reply["type"] == "result"
    assert reply["move"] in ([4, 7], [9, 7])
    assert reply["score"] == {"win": 1} and reply["black"] == 1.0
    assert reply["winner"] == 1
    line = reply["winningLine"]
    assert len(line) >= 5 and all(y == 7 for _, y in line)


def test_think_blocks_a_four():
    # white must stop black's four h4..h7 (x = 7, y = 8..11): h3 = (7, 12) or h8 = (7, 7)
    moves = [[7, 8], [0, 0], [7, 9], [14, 0], [7, 10], [0, 14], [7, 11]]
    reply, _ = think(moves)
    assert reply["move"] in ([7, 12], [7, 7])


def test_depth_and_node_limits_are_accepted():
    reply, _ = think([[7, 7]], {"depth": 2})
    assert reply["type"] == "result"
    reply, _ = think([[7, 7]], {"nodes": 500, "timeMs": 2000})
    assert reply["type"] == "result"


def test_book_flag_turns_the_opening_book_off():
    # h8 g9: a position the opening book answers (the page's first test game starts so)
    with_book, _ = think([[7, 7], [6, 6]], {"timeMs": 300})
    without, _ = think([[7, 7], [6, 6]], {"timeMs": 300, "book": False})
    assert with_book["source"] == "book"
    assert without["type"] == "result" and without["source"] != "book" and without["depth"] >= 1


def test_status_message():
    moves = [[x, 7] for x in range(5)]
    moves = [m for pair in zip(moves, [[x, 0] for x in range(5)], strict=True) for m in pair][:-1]
    reply = webapi.handle({"type": "status", "id": "s", "moves": moves})
    assert reply["type"] == "status" and reply["id"] == "s"
    assert reply["winner"] == 1 and reply["isOver"] is True
    assert sorted(map(tuple, reply["winningLine"])) == [(x, 7) for x in range(5)]
    reply = webapi.handle({"type": "status", "id": "s2", "moves": [[7, 7]]})
    assert reply["sideToMove"] == 2 and reply["winner"] == 0 and reply["moveCount"] == 1


def test_engine_is_kept_between_messages_unless_reset():
    api = webapi.WebApi()
    msg = {"type": "think", "id": 1, "moves": [[7, 7], [8, 8]], "limits": {"nodes": 300}}
    assert api.handle(msg)["type"] == "result"
    engine = api._engine
    assert api.handle({**msg, "moves": [[7, 7]]})["type"] == "result"
    assert api._engine is engine
    assert api.handle({**msg, "reset": True})["type"] == "result"
    assert api.handle({**msg, "size": 17})["type"] == "result"
    assert api._engine.size == 17


def test_node_limit_alone_bounds_the_search():
    msg = {"type": "think", "id": 1, "moves": [[7, 7], [8, 8]], "limits": {"nodes": 400}}
    reply = webapi.WebApi().handle(msg)
    assert reply["type"] == "result"
    assert reply["nodes"] <= 400 + 50


def test_bench_message_runs_gomoku_bench():
    reply = webapi.handle({"type": "bench", "id": "b", "what": "search", "seconds": 0.05})
    assert reply["type"] == "bench" and reply["id"] == "b" and reply["what"] == "search"
    res = reply["results"]
    assert res["nodes"] > 0 and res["signatureDepth"] == 4 and len(res["signature"]) == 12
    assert any("nodes/s" in line for line in reply["lines"])
    json.dumps(reply)


def test_bench_message_runs_the_threat_bench():
    reply = webapi.handle({"type": "bench", "id": "t", "what": "threats", "depth": 3})
    res = reply["results"]
    assert reply["what"] == "threats" and res["positions"] == 8 and res["nodes"] > 0
    assert any("VCT depth 3" in line for line in reply["lines"])


def test_bench_message_runs_the_multipv_bench():
    reply = webapi.handle({"type": "bench", "id": "m", "what": "multipv", "depth": 2, "lines": 4})
    res = reply["results"]
    assert reply["what"] == "multipv" and res["depth"] == 2 and res["lines"] == 4
    assert res["plainS"] > 0 and res["multiS"] > 0
    assert res["ratio"] == pytest.approx(res["multiS"] / res["plainS"], rel=0.02)
    assert res["sameFirst"] == 8  # the first move is the plain search's
    assert any("depth 2, 4 lines" in line for line in reply["lines"])


def test_bench_message_runs_the_interpreter_primitives():
    from gomoku.bench_interp import OPERATIONS

    reply = webapi.handle({"type": "bench", "id": "i", "what": "interp"})
    res = reply["results"]
    assert reply["what"] == "interp" and set(res) == set(OPERATIONS)
    assert all(isinstance(ns, float) and 0 < ns < 1e6 for ns in res.values())
    assert len(reply["lines"]) == len(OPERATIONS) and "ns" in reply["lines"][0]


def test_other_board_size():
    reply, _ = think([[9, 9]], size=19)
    assert reply["type"] == "result"
    x, y = reply["move"]
    assert 0 <= x < 19 and 0 <= y < 19


def test_handle_json_round_trip():
    emitted: list[str] = []
    text = json.dumps({"type": "think", "id": 5, "moves": [[7, 7]], "limits": FAST})
    reply = json.loads(webapi.handle_json(text, emitted.append))
    assert reply["type"] == "result" and reply["id"] == 5
    for e in emitted:
        assert json.loads(e)["id"] == 5


# ---- malformed messages ----------------------------------------------------------------


@pytest.mark.parametrize(
    "message, mid, words",
    [
        ("think", None, ["object"]),
        ([1, 2], None, ["object"]),
        (None, None, ["object"]),
        ({"type": "init"}, None, ["id"]),
        ({"type": "init", "id": True}, None, ["id"]),
        ({"type": "init", "id": 1.5}, None, ["id"]),
        ({"type": "init", "id": ""}, None, ["id"]),
        ({"type": "init", "id": "x" * 200}, None, ["id"]),
        ({"type": "init", "id": [1]}, None, ["id"]),
        ({"id": 1}, 1, ["type"]),
        ({"id": 1, "type": 3}, 1, ["type"]),
        ({"id": 1, "type": "shout"}, 1, ["unknown message type"]),
        ({"id": 1, "type": "init", "extra": 1}, 1, ["extra"]),
        ({"id": 2, "type": "think", "limits": FAST}, 2, ["moves"]),
        ({"id": 2, "type": "think", "moves": "h8 i9", "limits": FAST}, 2, ["moves"]),
        ({"id": 2, "type": "think", "moves": [[7]], "limits": FAST}, 2, ["moves[0]"]),
        ({"id": 2, "type": "think", "moves": [[7, 7, 1]], "limits": FAST}, 2, ["moves[0]"]),
        ({"id": 2, "type": "think", "moves": [[7, "7"]], "limits": FAST}, 2, ["moves[0]"]),
        ({"id": 2, "type": "think", "moves": [[7, True]], "limits": FAST}, 2, ["moves[0]"]),
        ({"id": 2, "type": "think", "moves": [[7.0, 7]], "limits": FAST}, 2, ["moves[0]"]),
        ({"id": 2, "type": "think", "moves": [[15, 0]], "limits": FAST}, 2, ["off the"]),
        ({"id": 2, "type": "think", "moves": [[-1, 0]], "limits": FAST}, 2, ["off the"]),
        ({"id": 2, "type": "think", "moves": [[0, 0]] * 300, "limits": FAST}, 2, ["too many"]),
        ({"id": 3, "type": "think", "moves": []}, 3, ["limits"]),
        ({"id": 3, "type": "think", "moves": [], "limits": 100}, 3, ["limits"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {}}, 3, ["limits"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeMs": 0}}, 3, ["timeMs"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeMs": -5}}, 3, ["timeMs"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeMs": "1s"}}, 3, ["timeMs"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeMs": 10**9}}, 3, ["timeMs"]),
        (
            {"id": 3, "type": "think", "moves": [], "limits": {"timeMs": float("nan")}},
            3,
            ["timeMs"],
        ),
        ({"id": 3, "type": "think", "moves": [], "limits": {"maxMs": 0}}, 3, ["maxMs"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"maxMs": "10s"}}, 3, ["maxMs"]),
        (
            {"id": 3, "type": "think", "moves": [], "limits": {"maxMs": 900, "timeMs": 300}},
            3,
            ["timeMs", "maxMs"],
        ),
        ({"id": 3, "type": "think", "moves": [], "limits": {"matchMs": 60000}}, 3, ["timeLeftMs"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeLeftMs": 900}}, 3, ["matchMs"]),
        (
            {"id": 3, "type": "think", "moves": [], "limits": {"matchMs": 60000, "timeLeftMs": -1}},
            3,
            ["timeLeftMs"],
        ),
        (
            {"id": 3, "type": "think", "moves": [], "limits": {"matchMs": 0, "timeLeftMs": 5}},
            3,
            ["matchMs"],
        ),
        (
            {"id": 3, "type": "think", "moves": [], "limits": {"level": 5, "maxMs": 900}},
            3,
            ["level", "maxMs"],
        ),
        ({"id": 3, "type": "think", "moves": [], "limits": {"depth": 0}}, 3, ["depth"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"nodes": -1}}, 3, ["nodes"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"time": 100}}, 3, ["time"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"timeMs": 9, "book": 0}}, 3, ["book"]),
        ({"id": 3, "type": "think", "moves": [], "limits": {"book": False}}, 3, ["limits"]),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "size": "15"}, 4, ["size"]),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "size": 3}, 4, []),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "size": 99}, 4, []),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "rule": "chess"}, 4, []),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "rule": [1]}, 4, ["rule"]),
        ({"id": 4, "type": "think", "moves": [], "limits": FAST, "first": "red"}, 4, ["first"]),
        ({"id": "s", "type": "status"}, "s", ["moves"]),
        ({"id": "s", "type": "status", "moves": [], "reset": 1}, "s", ["reset"]),
        ({"id": "b", "type": "bench", "what": "everything"}, "b", ["what"]),
        ({"id": "b", "type": "bench", "seconds": 1000}, "b", ["seconds"]),
        ({"id": "b", "type": "bench", "depth": 9}, "b", ["depth"]),
        ({"id": "b", "type": "bench", "what": "threats", "depth": 9}, "b", ["depth", "1..8"]),
        ({"id": "b", "type": "bench", "what": "multipv", "depth": 8}, "b", ["depth", "1..7"]),
        ({"id": "b", "type": "bench", "what": "multipv", "lines": 1}, "b", ["lines", "2..8"]),
        ({"id": "b", "type": "bench", "what": "multipv", "lines": 9}, "b", ["lines", "2..8"]),
        ({"id": "b", "type": "bench", "what": "multipv", "lines": "3"}, "b", ["lines"]),
        ({"id": "b", "type": "bench", "what": "core", "lines": 3}, "b", ["lines", "multipv"]),
    ],
)
def test_malformed_messages_get_errors(message, mid, words):
    assert_error(webapi.handle(message), mid, *words)


def test_occupied_cell_is_an_error():
    reply, infos = think([[7, 7], [7, 7]])
    assert_error(reply, "t1")
    assert infos == []


def test_finished_game_is_an_error():
    moves = [[0, 7], [0, 0], [1, 7], [1, 0], [2, 7], [2, 0], [3, 7], [3, 0], [4, 7]]
    assert_error(think(moves)[0], "t1", "over")
    # ... and a move after the win is refused as a position
    assert_error(think([*moves, [9, 9]])[0], "t1")


def test_handle_json_rejects_bad_json():
    reply = json.loads(webapi.handle_json("{not json"))
    assert_error(reply, None, "JSON")


def test_error_then_valid_message_still_works():
    assert think([[7, 7], [7, 7]])[0]["type"] == "error"
    assert think([[7, 7]])[0]["type"] == "result"


json_scalars = st.none() | st.booleans() | st.integers(-20, 20) | st.floats() | st.text(max_size=6)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
small_limits = st.dictionaries(
    st.sampled_from(["timeMs", "depth", "nodes", "other"]),
    st.one_of(st.integers(-3, 3), st.floats(allow_nan=True), st.text(max_size=3), st.none()),
    max_size=3,
)
fuzz_messages = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["think", "status", "init", "stop", "", 5]),
            "id": st.one_of(st.integers(), st.text(max_size=5), st.booleans(), st.none()),
            "moves": st.one_of(
                json_values, st.lists(st.lists(st.integers(-2, 16), max_size=3), max_size=6)
            ),
            "limits": st.one_of(small_limits, json_values),
            "size": st.one_of(st.integers(10, 22), json_values),
            "rule": st.one_of(
                st.sampled_from(["freestyle", "standard", "renju", 0, 1, 7]), json_values
            ),
        },
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fuzz_messages)
def test_any_message_gets_one_well_formed_reply(message):
    emitted: list[dict] = []
    reply = webapi.handle(message, emitted.append)
    assert reply["type"] in {"error", "ready", "status", "result"}
    json.dumps(reply)
    if reply["type"] == "error":
        assert isinstance(reply["message"], str) and reply["message"]
        assert not reply["message"].startswith("internal error"), reply["message"]
    else:
        assert reply["id"] == message["id"]
    assert all(e["type"] == "info" for e in emitted)


def test_webapi_needs_neither_js_nor_pyodide():
    code = (
        "import sys; sys.modules['js'] = None; sys.modules['pyodide'] = None\n"
        "import json; from gomoku.protocol import webapi\n"
        "r = json.loads(webapi.handle_json(json.dumps("
        "{'type': 'think', 'id': 1, 'moves': [[7, 7]], 'limits': {'timeMs': 200}})))\n"
        "assert r['type'] == 'result', r\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "py"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


# ---- a timed level's promise: maxMs is the hard cap ------------------------------------


def test_max_ms_is_the_hard_cap_with_a_soft_target_below_it():
    """The page's "10 s a move" reaches the time manager as its promise, which makes it a
    hard cap (one place decides: timeman.move_times), never as a soft target that may
    grow to 2.5x."""
    from gomoku.engine.limits import Limits
    from gomoku.search.timeman import page_turn_ms

    for max_ms in (300, 2000, 10_000):
        limits = webjson.read_limits({"limits": {"maxMs": max_ms}})
        assert isinstance(limits, Limits)
        assert limits.turn_ms == page_turn_ms(max_ms) < max_ms and limits.time_ms is None
        soft, hard = limits.budget()
        assert hard is not None and hard * 1000 < max_ms
        assert soft is not None and soft < hard
    # a soft target alone (analysis, Unlimited's slices) keeps its 2.5x hard cap
    soft, hard = webjson.read_limits({"limits": {"timeMs": 1000}}).budget()
    assert hard is not None and hard > 2.0


def test_a_think_with_max_ms_answers_within_a_generous_bound():
    import time

    t0 = time.perf_counter()
    reply, _ = think([[7, 7], [8, 8], [6, 8]], {"maxMs": 400, "book": False})
    elapsed = time.perf_counter() - t0
    assert reply["type"] == "result", reply
    assert reply["timeMs"] <= 400 * 3  # the engine's own clock: well under, even loaded
    assert elapsed < 10


# ---- a game clock: the page's matchMs / timeLeftMs take the brain's path --------------


def test_a_game_clock_reaches_the_time_manager_as_the_brains_match_clock():
    """{matchMs, timeLeftMs} become Limits' match_ms / time_left_ms, Gomocup's
    timeout_match / time_left: the time manager spreads the clock as it does the brain's
    (the same move_times), and a promise given with it (maxMs) still caps the move."""
    from gomoku.engine.limits import Limits
    from gomoku.search.timeman import move_times

    limits = webjson.read_limits({"limits": {"matchMs": 300_000, "timeLeftMs": 120_000}})
    assert limits == Limits(time_ms=None, match_ms=300_000, time_left_ms=120_000)
    times = limits.times(200)
    brain = move_times(Limits(time_ms=None, match_ms=300_000, time_left_ms=120_000), 200)
    assert times == brain and times.clock_ms == 120_000
    assert times.maximum_ms is not None and times.maximum_ms < 120_000 / 3
    # a fuller clock gives a longer move; an empty one a move at once
    fuller = (webjson.read_limits({"limits": {"matchMs": 300_000, "timeLeftMs": 240_000}}))
    assert fuller.times(200).optimum_ms > times.optimum_ms
    empty = (webjson.read_limits({"limits": {"matchMs": 300_000, "timeLeftMs": 0}}))
    assert empty.times(200).maximum_ms == 1.0
    # Expert's promise with the clock: the tighter bound wins
    clock = {"matchMs": 300_000, "timeLeftMs": 240_000}
    capped = (webjson.read_limits({"limits": {"maxMs": 2000, **clock}}))
    assert capped.times(200).maximum_ms < 2000 < fuller.times(200).maximum_ms


def test_a_level_under_a_game_clock_keeps_its_nodes_and_caps_its_time():
    """A node-limited level with a clock: the clock is read with the level (a LevelRequest
    whose clock is the brain's match_ms / time_left_ms) and only caps its time (the
    brain's rule for a node limit: a safety cap of a third of the clock). With a full
    clock the move is the level's own; with 0.3 s left the search stops long before its
    nodes."""
    short_clock = {"matchMs": 60_000, "timeLeftMs": 300}
    from gomoku.engine import Limits, node_level

    limits = webjson.read_limits({"limits": {"level": 10, "seed": 3, **short_clock}})
    clock = Limits(time_ms=None, match_ms=60_000, time_left_ms=300)
    assert limits == webjson.LevelRequest(node_level(10), 3, clock)
    alone = webjson.read_limits({"limits": {"level": 10}})
    assert alone == webjson.LevelRequest(node_level(10), 0, None)
    moves = [[7, 7], [8, 8], [6, 8], [8, 6], [8, 7]]
    plain, _ = think(moves, {"level": 10, "seed": 3}, reset=True)
    full_clock = {"matchMs": 3_600_000, "timeLeftMs": 3_600_000}
    full, _ = think(moves, {"level": 10, "seed": 3, **full_clock}, reset=True)
    assert plain["type"] == full["type"] == "result", (plain, full)
    assert full["move"] == plain["move"]  # the clock far away: the level's own move
    short, _ = think(moves, {"level": 10, "seed": 3, **short_clock}, reset=True)
    assert short["type"] == "result", short
    assert short["nodes"] < plain["nodes"]  # stopped by the clock's cap (about 65 ms)


def test_a_think_by_the_clock_alone_answers():
    """A timed level under a clock sends the clock alone (no timeMs / maxMs): a legal move,
    well within the clock's cap."""
    clock = {"matchMs": 60_000, "timeLeftMs": 900}
    reply, _ = think([[7, 7], [8, 8], [6, 8]], {**clock, "book": False})
    assert reply["type"] == "result", reply
    assert reply["timeMs"] <= 900  # the engine's own clock: a third of it, less margins
