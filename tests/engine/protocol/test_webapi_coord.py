"""gomoku.protocol.webapi's "coord" messages: the coordinator of a parallel search, driven as the
page drives it (jobs relayed to search workers that run gomoku.parallel.run_job_json)."""

from __future__ import annotations

import json

import pytest

from gomoku import parallel
from gomoku.core.rules import Rule
from gomoku.protocol.webapi import WebApi
from gomoku.search.score import Score, scale_of

MOVES = [[7, 7], [8, 8], [6, 7], [8, 6]]


class Workers:
    """Search workers in this process, each with its own state (TT, searcher). Their
    progress answers are relayed before the final one, as the page relays them."""

    def __init__(self, n: int) -> None:
        self.states = [parallel.WorkerState() for _ in range(n)]

    def run(self, w: int, job: dict) -> list[dict]:
        sent: list[str] = []
        final = parallel.run_job_json(json.dumps(job), sent.append, self.states[w])
        return [json.loads(text) for text in [*sent, final]]


def drive(api: WebApi, start: dict, workers: int, fail: int | None = None) -> tuple[dict, list]:
    """Relay jobs one at a time until done; worker `fail` dies on its first job."""
    pool = Workers(workers)
    infos: list[dict] = []
    queue: list[tuple] = []

    def handle(message: dict) -> dict:
        reply = api.handle(message)
        assert reply["type"] == "coord", reply
        json.dumps(reply)
        infos.extend(reply["infos"])
        queue.extend(tuple(j) for j in reply["jobs"])
        return reply

    reply = handle({"type": "coord", "id": "s", "op": "start", **start, "workers": workers})
    steps = 0
    while not reply["done"]:
        steps += 1
        assert steps < 5000
        if not queue:
            reply = handle({"type": "coord", "id": steps, "op": "tick"})
            continue
        w, job = queue.pop(0)
        assert job["sid"] == reply["sid"]
        if w == fail:
            queue[:] = [q for q in queue if q[0] != w]
            reply = handle({"type": "coord", "id": steps, "op": "failure", "worker": w})
            continue
        for result in pool.run(w, job):  # progress answers first, then the final one
            reply = handle(
                {"type": "coord", "id": steps, "op": "result", "worker": w, "result": result}
            )
            if reply["done"]:
                break
    return reply, infos


LIMITS = {"depth": 5, "book": False, "threats": False}


@pytest.mark.parametrize("scheme", [None, *parallel.SCHEMES])
def test_parallel_search_gives_a_legal_result(scheme):
    api = WebApi()
    start = {"moves": MOVES, "limits": LIMITS}
    if scheme is not None:
        start["scheme"] = scheme
    reply, infos = drive(api, start, 2)
    result = reply["result"]
    assert result["type"] == "result" and result["id"] == reply["id"]
    x, y = result["move"]
    assert 0 <= x < 15 and 0 <= y < 15 and [x, y] not in MOVES
    assert result["depth"] == 5
    assert result["winner"] == 0
    assert infos and all(i["type"] == "info" for i in infos)
    for report in (result, *infos):  # scores as data; black to move after four moves
        chance = Score.from_dict(report["score"]).chance(scale_of(Rule.FREESTYLE))
        assert report["black"] == round(chance, 4) and "score_text" not in report
    assert "moveText" not in result
    assert [i["depth"] for i in infos] == sorted(i["depth"] for i in infos)
    # the coordinator is forgotten once done
    late = api.handle({"type": "coord", "id": "x", "op": "tick"})
    assert late["type"] == "error" and "no parallel search" in late["message"]


def test_a_failed_worker_is_dropped_and_the_search_goes_on():
    api = WebApi()
    reply, _ = drive(api, {"moves": MOVES, "limits": LIMITS}, 2, fail=0)
    x, y = reply["result"]["move"]
    assert [x, y] not in MOVES and 0 <= x < 15 and 0 <= y < 15


def test_first_names_the_colours_of_the_parallel_scores():
    """With white moving first, the side to move after four moves is white: black's chance
    is the rest of its own."""
    limits = {"depth": 3, "book": False, "threats": False}
    reply, infos = drive(WebApi(), {"moves": MOVES, "limits": limits, "first": "white"}, 2)
    assert infos
    for report in (reply["result"], *infos):
        chance = Score.from_dict(report["score"]).chance(scale_of(Rule.FREESTYLE))
        assert report["black"] == round(1 - chance, 4)


def test_finish_answers_at_once_with_a_legal_move():
    api = WebApi()
    start = {"type": "coord", "id": 1, "op": "start", "moves": MOVES, "workers": 2}
    reply = api.handle({**start, "limits": {"timeMs": 5000}})
    assert reply["jobs"] and not reply["done"] and reply["wait"] is not None
    done = api.handle({"type": "coord", "id": 2, "op": "finish"})
    assert done["done"] and done["jobs"] == []
    x, y = done["result"]["move"]
    assert [x, y] not in MOVES


def test_max_ms_reaches_both_jobs_as_the_page_limits():
    """A timed level's parallel move ({maxMs}): the think job gets the time manager's soft
    target and hard cap (timeman.move_times), the helper neither more time nor a later cap,
    and the coordinator's own deadline is that hard cap (not 2.5x a soft target)."""
    from gomoku.engine.limits import Limits
    from gomoku.search.timeman import page_turn_ms

    times = Limits(time_ms=None, turn_ms=page_turn_ms(6000)).times()
    page = {"timeMs": times.optimum_ms, "hardMs": times.maximum_ms}
    api = WebApi()
    start = {"type": "coord", "id": 1, "op": "start", "moves": MOVES, "workers": 2}
    reply = api.handle({**start, "limits": {"maxMs": 6000}})
    jobs = {job["kind"]: job["limits"] for _, job in reply["jobs"]}
    assert set(jobs) == {"think", "search"}
    assert jobs["think"]["timeMs"] == page["timeMs"]
    assert page["hardMs"] - 100 < jobs["think"]["hardMs"] <= page["hardMs"]
    assert 0 < jobs["search"]["timeMs"] <= page["timeMs"]
    assert 0 < jobs["search"]["hardMs"] <= jobs["think"]["hardMs"]
    assert 0 < reply["wait"] <= page["hardMs"] / 1000
    api.handle({"type": "coord", "id": 2, "op": "finish"})


@pytest.mark.parametrize(
    "message, text",
    [
        ({"op": "start", "moves": MOVES, "limits": LIMITS, "workers": 0}, "workers"),
        (
            {"op": "start", "moves": MOVES, "limits": {"depth": 3, "threats": 1}, "workers": 2},
            "threats",
        ),
        ({"op": "start", "moves": MOVES, "limits": LIMITS}, "workers"),
        ({"op": "start", "moves": MOVES, "limits": LIMITS, "workers": 2, "scheme": "x"}, "scheme"),
        ({"op": "start", "moves": MOVES, "limits": LIMITS, "workers": 2, "scheme": []}, "scheme"),
        ({"op": "start", "moves": MOVES, "limits": LIMITS, "workers": 2, "first": 1}, "first"),
        (
            {"op": "start", "moves": MOVES, "limits": LIMITS, "workers": 2, "rule": "renju",
             "first": "white"},
            "under renju black moves first",
        ),  # fmt: skip
        ({"op": "tick"}, "no parallel search"),
        ({"op": "jump"}, "coord.op"),
        ({"op": "tick", "extra": 1}, "unknown field"),
    ],
)
def test_bad_coord_messages(message, text):
    reply = WebApi().handle({"type": "coord", "id": 7, **message})
    assert reply["type"] == "error" and reply["id"] == 7 and text in reply["message"]


def test_bad_worker_index():
    api = WebApi()
    api.handle(
        {"type": "coord", "id": 1, "op": "start", "moves": MOVES, "limits": LIMITS, "workers": 2}
    )
    reply = api.handle({"type": "coord", "id": 2, "op": "failure", "worker": 2})
    assert reply["type"] == "error" and "worker" in reply["message"]


def test_threats_off_reaches_think():
    api = WebApi()
    reply = api.handle({"type": "think", "id": 1, "moves": MOVES, "limits": LIMITS})
    assert reply["type"] == "result" and reply["depth"] == 5
