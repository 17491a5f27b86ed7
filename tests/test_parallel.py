"""Parallel root search (gomoku.parallel): the coordinator's logic on scripted answers,
the worker's jobs in-process, and the process driver on real positions.

Timing assertions use generous bounds: they hold on a slow or busy machine.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time

import pytest

from gomoku.bench import BENCH_POSITIONS
from gomoku.engine import Engine, Limits
from gomoku.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.geometry import moves_from_text
from gomoku.parallel import (
    INF,
    Coordinator,
    JsonCoordinator,
    WorkerPool,
    _worker_main,
    drive,
    limits_from_dict,
    limits_to_dict,
    parallel_think,
    run_job,
    run_job_json,
    simulate,
)

# Clear best moves (15x15 freestyle). Found by the pre-search stages: black wins at l8
# (its four is blocked at g8); white must block that four at l8.
WIN_IN_ONE = "h8 g8 i8 a1 j8 a2 k8 a3"
BLOCK_FOUR = "h8 g8 i8 a1 j8 a2 k8"
# Found by the alpha-beta search itself (threat search off): black wins in 4 by i10,
# resp. by g5 (positions from test_search.VCF_POSITIONS).
WIN_IN_4 = "h8 i8 i7 j7 g9 f10 j6 k5 h9 h10 i9 j9 g7 f6 k11 j10 e9 f9 f8"
WIN_IN_4B = "h8 h7 g7 g6 j10 k11 f6 i9 j9 j8 d4 e5 h10 f5 d3 i8 e4 i11 i12"
BENCH_0 = "h8 i9 g9 i7 i8 g7"

FIXED = Limits(time_ms=None, depth=4, use_book=False, use_threats=False)


def legal(moves: list[tuple[int, int]], move: tuple[int, int], size: int = 15) -> bool:
    x, y = move
    return 0 <= x < size and 0 <= y < size and (x, y) not in set(moves)


def rt(obj: dict) -> dict:
    """JSON round trip: what a real transport does."""
    return json.loads(json.dumps(obj))


# --- the coordinator on scripted answers ------------------------------------------------

POSITION = [(7, 7), (7, 8)]
A, B, C, D = [7, 6], [8, 8], [6, 6], [8, 6]  # root moves, in movegen order


def prepare_answer(job: dict, prev: int = 10, max_depth: int = 5) -> dict:
    return rt(
        {
            "kind": "prepare",
            "sid": job["sid"],
            "jid": job["jid"],
            "status": "ok",
            "nodes": 100,
            "order": [A, B, C, D],
            "iterations": [
                {"depth": d, "move": A, "score": prev, "pv": [A], "nodes": 25} for d in (1, 2, 3, 4)
            ],
            "max_depth": max_depth,
            "soft_ms": None,
            "hard_ms": None,
            "max_nodes": None,
            "seed_ms": 5.0,
        }
    )


def move_answer(job: dict, score: int, nodes: int = 10, status: str = "ok") -> dict:
    return rt(
        {
            "kind": "move",
            "sid": job["sid"],
            "jid": job["jid"],
            "status": status,
            "score": score,
            "pv": [job["move"]],
            "nodes": nodes,
        }
    )


def started(workers: int = 2, **kw) -> tuple[Coordinator, list[tuple[int, dict]]]:
    kw.setdefault("pipeline", 1)
    coord = Coordinator(POSITION, 15, "freestyle", FIXED, workers, seed_depth=4, **kw)
    jobs = coord.start(0.0)
    assert [(w, j["kind"]) for w, j in jobs] == [(0, "prepare")]
    assert rt(jobs[0][1]) == jobs[0][1]  # JSON-ready
    return coord, coord.on_result(0, prepare_answer(jobs[0][1]), 0.1)


def by_worker(jobs: list[tuple[int, dict]]) -> dict[int, dict]:
    out = {w: j for w, j in jobs}
    assert len(out) == len(jobs), "one job per worker at a time"
    for j in out.values():
        assert rt(j) == j
    return out


def test_one_worker_is_a_think_job() -> None:
    coord = Coordinator(POSITION, limits=FIXED, workers=1)
    ((w, job),) = coord.start(0.0)
    assert w == 0 and job["kind"] == "think"
    assert limits_from_dict(job["limits"]) == FIXED
    answer = {"move": [8, 8], "score": 42, "score_text": "+0.4", "depth": 4, "nodes": 99}
    result = rt({"sid": job["sid"], "jid": job["jid"], "status": "ok", "result": answer})
    assert coord.on_result(0, result, 0.5) == []
    assert coord.done
    r = coord.result(0.5)
    assert (r.move, r.score, r.depth, r.nodes) == ((8, 8), 42, 4, 99)


def test_ybw_merge_bounds_into_one_result() -> None:
    coord, jobs = started()
    jobs = by_worker(jobs)
    # the PV move with the aspiration window around the seed's score; the other
    # worker speculates with a null window at the aspiration's lower bound
    assert (jobs[0]["move"], jobs[0]["depth"], jobs[0]["alpha"], jobs[0]["beta"]) == (A, 5, -50, 70)
    assert (jobs[1]["move"], jobs[1]["alpha"], jobs[1]["beta"]) == (B, -50, -49)

    nxt = by_worker(coord.on_result(1, move_answer(jobs[1], -80), 0.2))  # B <= -80
    assert (nxt[1]["move"], nxt[1]["alpha"]) == (C, -50)
    jobs.update(nxt)

    nxt = by_worker(coord.on_result(0, move_answer(jobs[0], 20), 0.3))  # A = 20 exactly
    # alpha is now 20: B (<= -80) is done; D gets a null window at the new alpha
    assert (nxt[0]["move"], nxt[0]["alpha"], nxt[0]["beta"]) == (D, 20, 21)
    jobs.update(nxt)

    nxt = by_worker(coord.on_result(1, move_answer(jobs[1], -40), 0.4))  # C >= -40 at -50
    assert (nxt[1]["move"], nxt[1]["alpha"], nxt[1]["beta"]) == (C, 20, 21)
    jobs.update(nxt)

    nxt = by_worker(coord.on_result(0, move_answer(jobs[0], 30), 0.5))  # D fails high
    assert (nxt[0]["move"], nxt[0]["alpha"], nxt[0]["beta"]) == (D, 29, INF)
    jobs.update(nxt)

    assert coord.on_result(1, move_answer(jobs[1], 15), 0.6) == []  # C <= 15: done
    assert not coord.done
    assert coord.on_result(0, move_answer(jobs[0], 35), 0.7) == []  # D = 35 exactly
    assert coord.done
    r = coord.result(0.8)
    assert (r.move, r.score, r.depth, r.source) == (tuple(D), 35, 5, "search")
    assert r.nodes == 100 + 6 * 10


def test_failed_worker_is_dropped_and_its_job_redone() -> None:
    coord, jobs = started()
    jobs = by_worker(jobs)
    # worker 1 dies while searching B: nobody gets a job now (worker 0 is busy)
    assert coord.on_failure(1, 0.2, "killed") == []
    assert coord.dropped == {1}
    nxt = by_worker(coord.on_result(0, move_answer(jobs[0], 20), 0.3))
    assert list(nxt) == [0] and nxt[0]["move"] == B  # B is searched again, by worker 0
    seen = [B]
    while not coord.done:
        job = nxt[0]
        nxt = by_worker(coord.on_result(0, move_answer(job, 0), 0.4))
        if nxt:
            seen.append(nxt[0]["move"])
    assert sorted(seen) == sorted([B, C, D])
    r = coord.result(0.5)
    assert (r.move, r.score, r.depth) == (tuple(A), 20, 5)


def test_error_answer_counts_as_a_failure_and_all_failed_still_gives_a_move() -> None:
    coord, jobs = started()
    jobs = by_worker(jobs)
    err = {"sid": jobs[1]["sid"], "jid": jobs[1]["jid"], "status": "error", "error": "boom"}
    coord.on_result(1, err, 0.2)
    assert coord.dropped == {1} and "boom" in coord.errors
    assert coord.on_failure(0, 0.3) == []
    assert coord.done
    r = coord.result(0.3)
    assert r.move == tuple(A) and r.depth == 4  # the seed's answer


def test_first_step_restarts_on_another_worker_and_nothing_left_falls_back() -> None:
    coord = Coordinator(POSITION, limits=FIXED, workers=2)
    ((w, job),) = coord.start(0.0)
    ((w2, job2),) = coord.on_failure(0, 0.1)
    assert (w2, job2["kind"]) == (1, "prepare")
    assert coord.on_failure(1, 0.2) == [] and coord.done
    r = coord.result(0.2)
    assert legal(POSITION, r.move) and r.depth == 0


def test_stale_answers_and_deadlines() -> None:
    limits = Limits(time_ms=200, hard_ms=400, use_book=False, use_threats=False)
    coord = Coordinator(POSITION, limits=limits, workers=2)
    ((w, job),) = coord.start(0.0)
    stale = {**prepare_answer(job), "sid": "someone-else"}
    assert coord.on_result(0, stale, 0.05) == []
    assert not coord.done and coord.busy_workers() == [0]
    assert coord.wait_time(0.05) is not None and coord.wait_time(0.05) <= 0.4
    assert coord.on_tick(0.39) == [] and not coord.done
    coord.on_tick(0.5)  # past the hard limit: stop with what there is
    assert coord.done
    assert legal(POSITION, coord.result(0.5).move)


def test_proven_win_stops_the_iterations() -> None:
    coord = Coordinator(POSITION, limits=FIXED, workers=2, seed_depth=4)
    ((w, job),) = coord.start(0.0)
    ans = prepare_answer(job, prev=WIN_SCORE - 3, max_depth=9)  # a win in 2 within depth 4
    assert coord.on_result(0, ans, 0.1) == [] and coord.done
    assert coord.result(0.1).score == WIN_SCORE - 3


def test_limits_round_trip() -> None:
    lim = Limits(time_ms=250.0, hard_ms=None, depth=7, nodes=None, use_book=False, seed=3)
    assert limits_from_dict(rt(limits_to_dict(lim))) == lim
    assert limits_from_dict({"depth": 3, "unknown": 1}).depth == 3


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Coordinator(POSITION, limits=Limits(time_ms=None), workers=2)
    with pytest.raises(ValueError):
        Coordinator(POSITION, limits=FIXED, workers=0)
    with pytest.raises(ValueError):
        Coordinator(POSITION, limits=FIXED, scheme="nope")


# --- worker jobs in this process --------------------------------------------------------


def test_run_job_move_agrees_with_its_window() -> None:
    moves = moves_from_text(BENCH_0, 15)
    base = {"sid": "t-move", "size": 15, "rule": 0, "moves": [list(m) for m in moves]}
    job = {**base, "kind": "move", "jid": 1, "move": [7, 8], "depth": 3}
    exact = run_job(rt({**job, "alpha": -INF, "beta": INF}))
    assert exact["status"] == "ok" and exact["nodes"] > 0 and exact["pv"][0] == [7, 8]
    s = exact["score"]
    low = run_job(rt({**job, "jid": 2, "alpha": s, "beta": s + 1}))  # null window at s
    assert low["score"] <= s
    high = run_job(rt({**job, "jid": 3, "alpha": s - 1, "beta": s}))
    assert high["score"] >= s
    assert rt(exact) == exact


def test_run_job_think_is_engine_think_and_errors_are_answers() -> None:
    moves = moves_from_text(BENCH_0, 15)
    eng = Engine()
    eng.set_position(moves)
    ref = eng.think(FIXED)
    job = {"kind": "think", "sid": "t-think", "jid": 0, "size": 15, "rule": 0, "fresh": True}
    got = run_job(rt({**job, "moves": [list(m) for m in moves], "limits": limits_to_dict(FIXED)}))
    assert got["status"] == "ok"
    r = got["result"]
    assert (tuple(r["move"]), r["score"], r["depth"]) == (ref.move, ref.score, ref.depth)
    bad = run_job({**job, "sid": "t-bad", "moves": [[7, 7], [7, 7]], "limits": {}})
    assert bad["status"] == "error" and "IllegalMoveError" in bad["error"]
    assert run_job({"kind": "nope"})["status"] == "error"


def test_worker_loop_skips_the_jobs_of_an_aborted_search() -> None:
    """The process main loop, run in a thread over a pipe: jobs still waiting when an
    abort for their search arrives are answered "aborted" without being searched."""
    parent, child = multiprocessing.Pipe()
    moves = [list(m) for m in moves_from_text(BENCH_0, 15)]
    job = {"kind": "move", "size": 15, "rule": 0, "moves": moves, "move": [7, 8], "depth": 3}
    job.update(alpha=-INF, beta=INF)
    for jid in (1, 2):
        parent.send_bytes(json.dumps({**job, "sid": "old", "jid": jid}).encode())
    parent.send_bytes(json.dumps({"kind": "abort", "sid": "old"}).encode())
    parent.send_bytes(json.dumps({**job, "sid": "new", "jid": 3}).encode())
    worker = threading.Thread(target=_worker_main, args=(child,), daemon=True)
    worker.start()
    hello = json.loads(parent.recv_bytes())
    assert hello["kind"] == "hello"  # sent once its tables are built
    answers = [json.loads(parent.recv_bytes()) for _ in range(3)]
    parent.send_bytes(b"")  # stop
    worker.join(10)
    assert not worker.is_alive()
    assert [(a["sid"], a["jid"], a["status"]) for a in answers] == [
        ("old", 1, "aborted"),
        ("old", 2, "aborted"),
        ("new", 3, "ok"),
    ]
    assert answers[2]["nodes"] > 0


def test_json_only_relay_like_the_browser() -> None:
    """JS's view: strings in, strings out; jobs run in order, one queue per worker."""
    moves = moves_from_text(WIN_IN_4, 15)
    limits = Limits(time_ms=None, depth=5, use_book=False, use_threats=False)
    c = JsonCoordinator(json.dumps(moves), 15, "freestyle", json.dumps(limits_to_dict(limits)), 2)
    queues: dict[int, list[dict]] = {0: [], 1: []}
    for w, job in json.loads(c.start(0.0)):
        queues[w].append(job)
    now = 0.0
    while not c.done:
        w = max(queues, key=lambda k: len(queues[k]))
        assert queues[w], "work left while not done"
        answer = run_job_json(json.dumps(queues[w].pop(0)))
        now += 0.01
        for w2, job in json.loads(c.on_result(w, answer, now)):
            queues[w2].append(job)
    got = json.loads(c.result(now))
    eng = Engine()
    eng.set_position(moves)
    ref = eng.think(limits)
    assert (tuple(got["move"]), got["depth"]) == (ref.move, ref.depth)
    assert json.loads(c.busy_workers()) == [w for w in (0, 1) if queues[w]]


@pytest.mark.parametrize("scheme", ["ybw", "slices"])
def test_simulated_parallel_search_agrees_with_the_engine(scheme: str) -> None:
    """The whole protocol in one process (virtual workers, own TTs each). On a quiet
    position the move may differ from the engine's (no shared TT: scores of close
    moves differ a little); on a clear one it may not."""
    limits = Limits(time_ms=None, depth=5, use_book=False, use_threats=False)
    for text in (BENCH_0, WIN_IN_4):
        moves = moves_from_text(text, 15)
        eng = Engine()
        eng.set_position(moves)
        ref = eng.think(limits)
        coord = Coordinator(moves, limits=limits, workers=2, scheme=scheme, fresh=True)
        r, seconds = simulate(coord, nps=20000.0)
        assert legal(moves, r.move) and r.depth == ref.depth and seconds > 0
        if text == WIN_IN_4:
            assert (r.move, r.score) == (ref.move, ref.score)
        else:
            kinds = {t[3] for t in coord.trace}
            assert kinds == ({"prepare", "move"} if scheme == "ybw" else {"prepare", "slice"})
            assert {t[2] for t in coord.trace} == {0, 1}  # both workers did something


# --- processes --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        p.ready()  # started: the tests' time limits are about searching
        yield p


def test_one_process_equals_the_single_engine(pool: WorkerPool) -> None:
    for text in (BENCH_0, WIN_IN_4, BENCH_POSITIONS[1]):
        moves = moves_from_text(text, 15)
        eng = Engine()
        eng.set_position(moves)
        ref = eng.think(FIXED)
        r = parallel_think(moves, limits=FIXED, workers=1, pool=pool, fresh=True)
        assert (r.move, r.score, r.depth) == (ref.move, ref.score, ref.depth)


@pytest.mark.parametrize(
    "text, threats",
    [
        (WIN_IN_ONE, True),
        (BLOCK_FOUR, True),
        (WIN_IN_4, True),
        (WIN_IN_4, False),
        (WIN_IN_4B, False),
    ],
)
def test_two_processes_find_the_clear_move(pool: WorkerPool, text: str, threats: bool) -> None:
    moves = moves_from_text(text, 15)
    limits = Limits(time_ms=None, depth=5, use_book=False, use_threats=threats)
    one = parallel_think(moves, limits=limits, workers=1, pool=pool, fresh=True)
    two = parallel_think(moves, limits=limits, workers=2, pool=pool, fresh=True)
    assert legal(moves, two.move)
    assert (two.move, two.score) == (one.move, one.score), (text, one, two)
    if text in (WIN_IN_4, WIN_IN_4B):
        assert two.score >= WIN_THRESHOLD


def test_two_processes_search_and_return_a_legal_move(pool: WorkerPool) -> None:
    moves = moves_from_text(BENCH_0, 15)
    limits = Limits(time_ms=None, depth=6, use_book=False, use_threats=False)
    infos = []
    r = parallel_think(moves, limits=limits, workers=2, pool=pool, fresh=True, on_info=infos.append)
    assert legal(moves, r.move) and r.source == "search" and r.depth == 6 and r.nodes > 0
    assert [i.depth for i in infos] == list(range(1, 7))
    assert infos[-1].score == r.score and tuple(infos[-1].pv[0]) == r.move


def test_time_limits_hold(pool: WorkerPool) -> None:
    moves = moves_from_text(BENCH_0, 15)
    for workers in (1, 2):
        t = time.perf_counter()
        limits = Limits(time_ms=300, hard_ms=600, use_book=False)
        r = parallel_think(moves, limits=limits, workers=workers, pool=pool)
        took = time.perf_counter() - t
        assert legal(moves, r.move) and r.depth >= 1
        assert took < 0.6 + 2.0, took  # the hard limit plus generous slack


def test_a_hung_worker_cannot_hold_the_search(pool: WorkerPool) -> None:
    """Worker 1 is frozen (SIGSTOP) before the search: the hard limit still holds, the
    move is legal, and the next search gets a fresh worker."""
    if not hasattr(signal, "SIGSTOP"):
        pytest.skip("needs SIGSTOP")
    moves = moves_from_text(BENCH_0, 15)
    pool.ready()
    frozen = pool.procs[1].pid
    os.kill(frozen, signal.SIGSTOP)
    try:
        limits = Limits(time_ms=400, hard_ms=800, use_book=False, use_threats=False)
        coord = Coordinator(moves, limits=limits, workers=2, seed_depth=2)
        t = time.perf_counter()
        r = drive(coord, pool, t)
        took = time.perf_counter() - t
        assert legal(moves, r.move) and r.depth >= 1
        assert took < 0.8 + 2.0, took
        assert pool.outstanding[1] >= 1  # it was given work and never answered
        pool.ready()  # the frozen worker is replaced
        assert pool.procs[1].pid != frozen
    finally:
        if pool.procs[1] is not None and pool.procs[1].pid == frozen:
            pool.restart(1)  # never leave a frozen worker to the next tests
    r = parallel_think(moves, limits=FIXED, workers=2, pool=pool)
    assert legal(moves, r.move) and r.depth == 4


def test_a_dead_worker_is_dropped(pool: WorkerPool) -> None:
    moves = moves_from_text(WIN_IN_4, 15)
    pool.ready()
    pool.procs[1].kill()
    pool.procs[1].join(2)
    limits = Limits(time_ms=None, depth=5, use_book=False, use_threats=False)
    coord = Coordinator(moves, limits=limits, workers=2, fresh=True)
    r = drive(coord, pool)
    eng = Engine()
    eng.set_position(moves)
    assert 1 in coord.dropped and r.depth == 5 and r.move == eng.think(limits).move
    pool.ready()
    assert pool.procs[1].is_alive()
