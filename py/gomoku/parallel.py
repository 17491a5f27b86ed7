"""Parallel root search over workers that share nothing but messages.

Workers are separate processes (CPython) or separate Web Workers, each with its own
Pyodide (browser). They share no memory and no transposition table: everything goes
through JSON-serialisable *job* and *result* dicts. Three pieces:

- ``run_job(job) -> result``: the worker side. Sets up an Engine/Board from the job,
  searches, answers. It keeps its Engine (and TT) between jobs, and its searcher
  (board, killers, history) between the jobs of one search (same ``sid``).
- ``Coordinator``: pure logic, no clock, no I/O. ``start(now)``, ``on_result(worker,
  result, now)``, ``on_failure(worker, now)`` and ``on_tick(now)`` each return the jobs
  to send as ``[(worker, job), ...]``; ``done`` says when to stop and ``result(now)``
  gives the SearchResult. ``now`` is seconds since the search started, read by the
  driver.
- ``parallel_think(moves, size, rule, limits, workers=N)``: the CPython driver over a
  pool of processes (``WorkerPool``, forkserver or spawn), honouring the deadlines.

Scheme ("ybw", measured in BENCHMARKS.md, section "Parallel search"): one worker runs
the engine's own pre-search stages (book, forced replies, threat searches) and the
first iterations (1..``seed_depth``) over all root moves, and reports the ordered root
moves. From then on, each iteration d is split into one job per root move ("search
move m to depth d with window (alpha, beta)"). The first (PV) move is searched with
the aspiration window; meanwhile the other workers search the other moves with a null
window at the aspiration's lower bound (a speculative Young-Brothers-Wait). Once the
PV score is known it is alpha: moves proven <= alpha are done (a finished subtree
tightens its parent's bound), fail-highs are re-searched with a window starting at
their proven lower bound (the parent's bound tightens the child's window). What the
coordinator knows is a (lower, upper) bound per (depth, move), so every answer is
useful, whatever window it had: an idle worker may start the next iteration before
the current one is finished, and a straggling job may be duplicated on an idle worker
(which also gets around a hung one). Jobs of a worker stick to the moves it searched
before, so its private TT keeps helping. With one worker the job is simply
``Engine.think``: the result is the single engine's, move for move.

The other scheme measured ("slices": each worker runs its own iterative deepening
over an interleaved slice of the root moves; the coordinator takes the best at the
deepest depth all slices reached) is kept as ``scheme="slices"`` for comparison.

Driving it from the browser (main.js), later. JSON text in and out, so that no Python
object crosses into JS: ``run_job_json`` and ``JsonCoordinator``. The search workers
are N Web Workers, each with its own Pyodide and ``gomoku`` loaded, whose onmessage is

    postMessage(JSON.parse(run_job_json(JSON.stringify(event.data))))

The coordinator lives in one more Pyodide (the existing engine worker is fine: its
calls take well under a millisecond and never block), and main.js only relays:

    c = JsonCoordinator(moves_json, size, rule, limits_json, workers=N)
    send(c.start(now))             // '[[worker, job], ...]': postMessage each job
    worker k's message r:          send(c.on_result(k, JSON.stringify(r), now))
    worker k's error event:        send(c.on_failure(k, now)); replace worker k later
    every 50 ms (or c.wait_time):  send(c.on_tick(now))   // deadlines, hung jobs
    when c.done:                   show JSON.parse(c.result(now)); post
                                   {kind: "abort", sid: c.sid} to c.busy_workers()

``now`` is ``(performance.now() - t0) / 1000``. A worker may be sent up to 3 jobs
before it answers the first (this hides the relay's latency); it answers them in
order, which a Web Worker's message queue does by itself. A job's time budget
(``hard_ms``) counts from when the worker starts it, so no clocks need to agree.
Answers of an earlier search are ignored by sid. Without SharedArrayBuffer a running
job cannot be interrupted: it stops itself at its own ``hard_ms``. A worker that
queues messages itself before running them (as ``_worker_main`` does) can honour
"abort" and skip the queued jobs of a finished search; otherwise they just run to
their budget, or main.js terminate()s a worker still busy when the next search starts.
"""

from __future__ import annotations

import argparse
import atexit
import json
import multiprocessing
import os
import sys
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from multiprocessing.connection import Connection, wait

from .board import Board, layout
from .engine import Engine, Limits, SearchInfo, SearchResult
from .errors import IllegalMoveError
from .evaluation import WIN_SCORE, WIN_THRESHOLD, score_text
from .geometry import Point
from .movegen import generate
from .rules import DEFAULT_SIZE, Rule, parse_rule
from .search import (
    ASPIRATION,
    NEXT_ITERATION_FRACTION,
    ROOT_MAX_MOVES,
    Progress,
    Searcher,
    SearchStopped,
)

INF = WIN_SCORE + 1  # a window bound beyond every score (JSON has no infinity)
SEED_DEPTH = 4  # iterations 1..SEED_DEPTH run in one worker: too small to split
SCHEMES = ("ybw", "slices")
MAX_TRIES = 4  # searches of one (depth, move) before its last score is taken as exact
MESSAGE_MARGIN = 0.010  # s kept between a job's budget and the coordinator's deadline
HANG_GRACE = 1.0  # s past its own budget after which a silent job counts as hung
BACKUP_MIN = 1.0  # s a job must have run before an idle worker duplicates it
BACKUP_FACTOR = 3.0  # ... and this many times the longest finished job of the search


# --- worker side ------------------------------------------------------------------------


class RootSearcher(Searcher):
    """A Searcher that can also search one root move with a given window."""

    def search_move(
        self,
        move: int,
        depth: int,
        alpha: int,
        beta: int,
        hard_time: float | None = None,
        max_nodes: int | None = None,
    ) -> tuple[bool, int, list[int]]:
        """(finished, score, pv) of root ``move`` at ``depth`` in window (alpha, beta).

        The score is from the root side's view and fail-soft: <= alpha is an upper
        bound, >= beta a lower bound, else exact. Killers, history and TT persist
        between calls; the board is restored. Not finished when a limit stopped it.
        """
        board = self.board
        self.nodes = 0
        now = time.perf_counter()
        self.hard_deadline = now + hard_time if hard_time is not None else float("inf")
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        plies = len(board.history)
        try:
            board.make(move)
            if board.winner:
                score = WIN_SCORE - 1
            else:
                score = -self._negamax(depth - 1, -beta, -alpha, 1)
        except SearchStopped:
            while len(board.history) > plies:
                board.unmake()
            return False, 0, []
        board.unmake()
        return True, score, self.pv_line(move)


def limits_to_dict(limits: Limits) -> dict:
    """Limits as a JSON-ready dict."""
    return asdict(limits)


def limits_from_dict(d: dict | None) -> Limits:
    """Limits from a dict (unknown keys ignored, missing ones default)."""
    names = {f.name for f in fields(Limits)}
    return Limits(**{k: v for k, v in (d or {}).items() if k in names})


def _points(board: Board, cells: list[int]) -> list[list[int]]:
    return [list(board.point(p)) for p in cells]


def _result_from_dict(d: dict) -> SearchResult:
    return SearchResult(
        tuple(d["move"]),
        int(d["score"]),
        d.get("score_text") or score_text(int(d["score"])),
        int(d["depth"]),
        int(d["nodes"]),
        int(d.get("nps", 0)),
        [tuple(p) for p in d.get("pv", [])],
        d.get("source", "search"),
        float(d.get("time_ms", 0.0)),
    )


class _WorkerState:
    """What a worker keeps between jobs: one Engine (its TT) per (size, rule), and the
    searcher of the current search."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.sid: str | None = None
        self.searcher: RootSearcher | None = None

    def engine_for(self, job: dict) -> Engine:
        size, rule = int(job["size"]), parse_rule(job["rule"])
        new_search = job.get("sid") != self.sid
        eng = self.engine
        if eng is None or eng.size != size or eng.rule != rule:
            eng = self.engine = Engine(size, rule)
        elif job.get("fresh") and new_search:
            eng.new_game(size, rule)
        return eng

    def searcher_for(self, job: dict) -> RootSearcher:
        if job["sid"] == self.sid and self.searcher is not None:
            return self.searcher
        eng = self.engine_for(job)
        board = Board.from_moves([tuple(m) for m in job["moves"]], eng.size, eng.rule)
        self.searcher = RootSearcher(board, eng.tt)
        self.sid = job["sid"]
        eng.tt.new_search()
        return self.searcher


_STATE = _WorkerState()


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


def _iteration_recorder(board: Board, order: list[int], out: list[dict]):
    def record(p: Progress) -> None:
        move = p.pv[0]
        order.remove(move)  # Searcher.search moves each iteration's best to the front
        order.insert(0, move)
        out.append(
            {
                "depth": p.depth,
                "move": list(board.point(move)),
                "score": p.score,
                "pv": _points(board, p.pv),
                "nodes": p.nodes,
            }
        )

    return record


def run_job(job: dict) -> dict:
    """Do one job (see ``Coordinator`` for the kinds) and return its result dict.

    Every result has kind, sid, jid, status ("ok", "stopped" or "error"), nodes, ms
    (time spent in the worker) and cpu_ms (CPU time of it). Never raises: an exception
    becomes status "error" with its text in "error".
    """
    start, cpu = time.perf_counter(), time.process_time()
    out: dict = {"kind": job.get("kind"), "sid": job.get("sid"), "jid": job.get("jid")}
    try:
        out.update(_run(job))
    except Exception as e:  # reported, the coordinator drops the worker
        out.update(status="error", error=f"{type(e).__name__}: {e}", nodes=0)
    out["ms"] = round((time.perf_counter() - start) * 1000, 3)
    out["cpu_ms"] = round((time.process_time() - cpu) * 1000, 3)
    return out


def run_job_json(text: str) -> str:
    """``run_job`` on JSON text: what a Web Worker calls from JS."""
    return json.dumps(run_job(json.loads(text)))


def _run(job: dict) -> dict:
    kind = job["kind"]
    state = _STATE
    if kind == "think":
        eng = state.engine_for(job)
        state.sid, state.searcher = job["sid"], None
        eng.set_position([tuple(m) for m in job["moves"]])
        r = eng.think(limits_from_dict(job.get("limits")))
        return {"status": "ok", "result": r.to_dict(), "nodes": r.nodes}
    if kind == "prepare":
        eng = state.engine_for(job)
        state.sid, state.searcher = job["sid"], None
        eng.set_position([tuple(m) for m in job["moves"]])
        plan = eng.prepare(limits_from_dict(job.get("limits")))
        if isinstance(plan, SearchResult):
            return {"status": "ok", "result": plan.to_dict(), "nodes": plan.nodes}
        board = eng.board
        root = list(plan.root_moves)
        searcher = RootSearcher(board, eng.tt)
        order, iterations = list(root), []
        t0 = time.perf_counter()
        seed = searcher.search(
            max_depth=min(int(job.get("seed_depth", SEED_DEPTH)), plan.max_depth),
            soft_time=plan.soft_time,
            hard_time=plan.hard_time,
            max_nodes=plan.max_nodes,
            root_moves=root,
            on_progress=_iteration_recorder(board, order, iterations),
        )
        state.sid, state.searcher = job["sid"], searcher
        return {
            "status": "ok",
            "nodes": seed.nodes,
            "order": _points(board, order),
            "iterations": iterations,
            "max_depth": plan.max_depth,
            "soft_ms": _ms(plan.soft_time),
            "hard_ms": _ms(plan.hard_time),
            "max_nodes": plan.max_nodes,
            "seed_ms": (time.perf_counter() - t0) * 1000,
        }
    if kind == "move":
        searcher = state.searcher_for(job)
        board = searcher.board
        x, y = job["move"]
        hard = job.get("hard_ms")
        done, score, pv = searcher.search_move(
            board.layout.index(x, y),
            int(job["depth"]),
            int(job["alpha"]),
            int(job["beta"]),
            None if hard is None else hard / 1000,
            job.get("max_nodes"),
        )
        return {
            "status": "ok" if done else "stopped",
            "score": score,
            "pv": _points(board, pv),
            "nodes": searcher.nodes,
        }
    if kind == "slice":
        searcher = state.searcher_for(job)
        board = searcher.board
        root = [board.layout.index(x, y) for x, y in job["root_moves"]]
        order, iterations = list(root), []
        soft, hard = job.get("soft_ms"), job.get("hard_ms")
        r = searcher.search(
            max_depth=int(job["max_depth"]),
            soft_time=None if soft is None else soft / 1000,
            hard_time=None if hard is None else hard / 1000,
            max_nodes=job.get("max_nodes"),
            root_moves=root,
            on_progress=_iteration_recorder(board, order, iterations),
        )
        return {"status": "ok", "iterations": iterations, "nodes": r.nodes}
    raise ValueError(f"unknown job kind {kind!r}")


# --- coordinator ------------------------------------------------------------------------


@dataclass
class _Bounds:
    """What is known of one root move's score at one depth."""

    lower: int = -INF
    upper: int = INF
    tries: int = 0
    pv: list[Point] = field(default_factory=list)
    running: set[int] = field(default_factory=set)

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


@dataclass
class _Job:
    worker: int
    job: dict
    sent: float
    budget: float | None  # seconds the job may run (None: no limit)
    started: float | None = None  # when the worker began it (None: still queued)


def _is_win(score: int) -> bool:
    return abs(score) >= WIN_THRESHOLD


class Coordinator:
    """Drives one parallel search through job and result dicts (see the module doc).

    Jobs (all carry kind, sid, jid, size, rule, moves as [[x, y], ...], fresh):

    - ``think``   + limits: Engine.think, answers ``result`` (a SearchResult dict).
    - ``prepare`` + limits, seed_depth: the engine's pre-search stages, then iterations
      1..seed_depth; answers either ``result`` (book, forced, threat) or ``order``,
      ``iterations`` [{depth, move, score, pv, nodes}], max_depth, soft_ms, hard_ms,
      max_nodes, seed_ms.
    - ``move``    + move, depth, alpha, beta, hard_ms, max_nodes: one root move;
      answers ``score`` (fail-soft, root side's view) and ``pv``.
    - ``slice``   + root_moves, max_depth, soft_ms, hard_ms, max_nodes: iterative
      deepening over those root moves; answers ``iterations``.

    Contract: every job returned goes to the worker named with it, which answers its
    jobs in the order sent; every answer comes back through ``on_result``, a dead or
    erroring worker through ``on_failure`` (an "error" result counts as one; its jobs
    go to the others). Workers are numbered 0..workers-1. ``result`` always gives a
    legal move; ``done`` becomes true when the search is complete, a limit is reached
    or no worker is left.

    Parameters beyond Engine.think's: ``scheme`` ("ybw" or "slices"), ``seed_depth``
    (iterations done by one worker before splitting), ``pipeline`` (jobs a worker may
    have queued; 3 hides a relay latency of several ms), ``warm`` (every worker runs
    the first step, to fill its TT; measured no better), ``fresh`` (workers clear their
    TTs: a new game), ``sid`` (search id; random by default) and ``on_info`` (called
    per finished iteration, like Engine.think's; not with one worker).
    """

    def __init__(
        self,
        moves: list[Point] | list[list[int]],
        size: int = DEFAULT_SIZE,
        rule: str | int | Rule = Rule.FREESTYLE,
        limits: Limits | None = None,
        workers: int = 2,
        *,
        scheme: str = "ybw",
        seed_depth: int = SEED_DEPTH,
        warm: bool = False,
        pipeline: int = 3,
        fresh: bool = False,
        sid: str | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> None:
        if scheme not in SCHEMES:
            raise ValueError(f"unknown scheme {scheme!r} (one of {', '.join(SCHEMES)})")
        if workers < 1:
            raise ValueError("at least one worker is needed")
        board = Board.from_moves([tuple(m) for m in moves], size, rule)
        if board.winner or board.is_full():
            raise IllegalMoveError("the game is over")
        self.limits = limits or Limits()
        soft, hard = self.limits.budget()
        if soft is None and self.limits.depth is None and self.limits.nodes is None:
            raise ValueError("think needs a time, depth or node limit")
        self.hard_cap = hard  # seconds from the start; never exceeded
        self.board = board
        self.fallback = board.point(generate(board, ROOT_MAX_MOVES)[0])
        self.base = {
            "sid": sid or uuid.uuid4().hex[:12],
            "size": board.size,
            "rule": int(board.rule),
            "moves": [list(m) for m in board.moves],
            "fresh": bool(fresh),
        }
        self.sid = self.base["sid"]
        self.workers = workers
        self.scheme = scheme
        self.seed_depth = max(1, seed_depth)
        self.warm = warm
        self.spec_margin = ASPIRATION
        self.on_info = on_info
        self.live: set[int] = set(range(workers))
        self.dropped: set[int] = set()  # workers given up on (the driver ends them)
        self.queue: dict[int, list[int]] = {}  # worker -> jids sent, oldest first
        self.pipeline = max(1, pipeline)
        self.jobs: dict[int, _Job] = {}
        self.next_jid = 0
        self.nodes = 0
        self.done = False
        self.phase = "think" if workers == 1 else "prepare"
        self.final: SearchResult | None = None
        self.errors: list[str] = []
        self.trace: list[tuple] = []  # per answered job: sent, answered, worker, kind, ...
        # the search phase (set from the prepare answer)
        self.order: list[Point] = []
        self.best: dict | None = None  # deepest finished iteration: move, score, depth, pv
        self.cur = 0  # the iteration being finished
        self.max_depth = 64
        self.max_nodes: int | None = None
        self.search_start = 0.0
        self.soft_left: float | None = None
        self.stop_at: float | None = None
        self.known: dict[int, dict[Point, _Bounds]] = {}
        self.owner: dict[Point, int] = {}
        self.longest_job = 0.0
        self.slices: list[list[Point]] = []  # slices scheme: root moves per slice
        self.slice_results: dict[int, list[dict]] = {}  # slice index -> iterations
        self.slice_of: dict[int, int] = {}  # jid -> slice index

    # --- the driver's calls -------------------------------------------------------------

    def start(self, now: float = 0.0) -> list[tuple[int, dict]]:
        """The first jobs: ``think`` (one worker) or ``prepare`` to every worker (the
        first answer is used; the others have warmed their TTs meanwhile)."""
        if self.phase == "think" or not self.warm:
            return [(0, self._first_job(0, now))]
        return [(w, self._first_job(w, now)) for w in range(self.workers)]

    def _first_job(self, worker: int, now: float) -> dict:
        limits = limits_to_dict(self.limits if now <= 0 else self._remaining_limits(now))
        if self.hard_cap is not None:  # the answer must be back before the hard limit
            limits["hard_ms"] = max((self.hard_cap - now - 2 * MESSAGE_MARGIN) * 1000, 1.0)
        job = {"kind": self.phase, "limits": limits}
        if self.phase == "prepare":
            job["seed_depth"] = self.seed_depth
        left = None if self.hard_cap is None else self.hard_cap - now
        return self._send(worker, job, now, left)

    def on_result(self, worker: int, result: dict, now: float) -> list[tuple[int, dict]]:
        """Take one answer; returns the jobs to send next."""
        if result.get("sid") != self.sid or self.done:
            # an earlier search's answer: this worker still has our job queued
            return self._after(now)
        jid = result.get("jid")
        queue = self.queue.get(worker, [])
        rec = self.jobs.pop(jid, None)
        if rec is None or jid not in queue:
            return self._after(now)
        queue.remove(jid)
        if queue:
            self.jobs[queue[0]].started = now  # the worker goes on with its next job
        self.nodes += int(result.get("nodes") or 0)
        if result.get("status") == "error":
            self.errors.append(str(result.get("error")))
            self.jobs[jid] = rec  # back, to be handed out again
            queue.insert(0, jid)
            self._lose(worker)
            return self._after(now)
        self.longest_job = max(self.longest_job, now - rec.started)
        job = rec.job
        self.trace.append(
            (
                round(rec.started, 3),
                round(now, 3),
                worker,
                job["kind"],
                job.get("depth"),
                job.get("move"),
                job.get("alpha"),
                job.get("beta"),
                result.get("score"),
                result.get("nodes"),
                result.get("ms"),
                result.get("cpu_ms"),
            )
        )
        kind = rec.job["kind"]
        if kind == "think":
            self.final = _result_from_dict(result["result"])
            self.done = True
        elif kind == "prepare":
            self._prepared(result, now)
        elif kind == "move":
            self._moved(rec, result, now)
        elif kind == "slice":
            self._sliced(rec, result, now)
        return self._after(now)

    def on_failure(self, worker: int, now: float, reason: str = "") -> list[tuple[int, dict]]:
        """A worker died or stopped answering: drop it and go on with the others."""
        if reason:
            self.errors.append(reason)
        self._lose(worker)
        return self._after(now)

    def on_tick(self, now: float) -> list[tuple[int, dict]]:
        """Check the deadlines and hung jobs; call it at least every ``wait_time``."""
        for w, queue in list(self.queue.items()):
            rec = self.jobs.get(queue[0]) if queue else None
            if rec is not None and rec.budget is not None:
                if now > rec.started + rec.budget + HANG_GRACE:
                    self.errors.append(f"worker {w} hung")
                    self._lose(w)
        return self._after(now)

    def wait_time(self, now: float) -> float | None:
        """Seconds the driver may wait for answers before calling ``on_tick``."""
        times = [t for t in (self.stop_at, self.hard_cap) if t is not None]
        for queue in self.queue.values():
            if queue:
                rec = self.jobs[queue[0]]
                if rec.budget is not None:
                    times.append(rec.started + rec.budget + HANG_GRACE)
                times.append(rec.started + max(BACKUP_MIN, BACKUP_FACTOR * self.longest_job))
        if not times:
            return None
        return max(min(times) - now, 0.0)

    def busy_workers(self) -> list[int]:
        """Workers with a job of this search still out."""
        return sorted(w for w, q in self.queue.items() if q)

    def _idle(self) -> list[int]:
        return sorted(w for w in self.live if not self.queue.get(w))

    def result(self, now: float) -> SearchResult:
        """The answer: the final one when done, else the best so far. Always legal."""
        if self.final is not None:
            return self.final
        best = self.best
        if best is None:
            move, score, depth, pv = self.fallback, 0, 0, [self.fallback]
        else:
            move, score, depth, pv = best["move"], best["score"], best["depth"], best["pv"]
            better = self._partial_better(score)
            if better is not None:
                move, pv = better, [better]
        return SearchResult(
            move,
            score,
            score_text(score),
            depth,
            self.nodes,
            int(self.nodes / now) if now > 0 else 0,
            list(pv),
            "search",
            round(now * 1000, 2),
        )

    # --- bookkeeping --------------------------------------------------------------------

    def _send(self, worker: int, job: dict, now: float, budget: float | None) -> dict:
        jid = self.next_jid
        self.next_jid += 1
        full = {**self.base, **job, "jid": jid}
        queue = self.queue.setdefault(worker, [])
        self.jobs[jid] = _Job(worker, full, now, budget, now if not queue else None)
        queue.append(jid)
        return full

    def _lose(self, worker: int) -> None:
        """Drop a worker; its jobs go back to the others."""
        self.live.discard(worker)
        self.dropped.add(worker)
        for jid in self.queue.pop(worker, []):
            job = self.jobs.pop(jid).job
            if job["kind"] == "move":
                b = self.known.get(job["depth"], {}).get(tuple(job["move"]))
                if b is not None:
                    b.running.discard(worker)
            elif job["kind"] == "slice":
                self.slice_of.pop(job["jid"], None)

    def _after(self, now: float) -> list[tuple[int, dict]]:
        """Stop when it is time, else hand out work to the idle workers."""
        if self.done:
            return []
        if not self.live:
            return self._finish()
        if self.hard_cap is not None and now >= self.hard_cap:
            return self._finish()
        if self.stop_at is not None and now >= self.stop_at:
            return self._finish()
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return self._finish()
        out: list[tuple[int, dict]] = []
        if self.phase in ("think", "prepare"):
            if not self.busy_workers():  # the first step's worker failed: another one
                w = min(self.live)
                out.append((w, self._first_job(w, now)))
            return out
        if self.phase == "ybw":
            # idle workers first, then queue one more job behind a running one, so that a
            # worker need not wait for the coordinator between jobs
            for slots in range(1, self.pipeline + 1):
                for w in sorted(self.live):
                    queue = self.queue.get(w, [])
                    if len(queue) < slots and not (queue and self._long(queue[-1])):
                        job = self._ybw_job(w, now, idle=slots == 1)
                        if job is None:
                            break
                        out.append((w, job))
                else:
                    continue
                break
        elif self.phase == "slices":
            out.extend(self._slice_jobs(now))
        if not self.busy_workers() and not out and self.phase in ("ybw", "slices"):
            return self._finish()  # nothing left to do
        return out

    def _remaining_limits(self, now: float) -> Limits:
        """The limits less the time already spent (for a restarted first step)."""
        d = limits_to_dict(self.limits)
        for key in ("time_ms", "hard_ms", "time_left_ms"):
            if d[key] is not None:
                d[key] = max(d[key] - now * 1000, 1.0)
        return limits_from_dict(d)

    def _budget(self, now: float) -> float | None:
        """Seconds a job sent now may run."""
        ends = [t for t in (self.stop_at, self.hard_cap) if t is not None]
        return None if not ends else max(min(ends) - now - MESSAGE_MARGIN, 0.001)

    def _finish(self) -> list[tuple[int, dict]]:
        self.done = True
        return []

    # --- after the prepare job ----------------------------------------------------------

    def _prepared(self, result: dict, now: float) -> None:
        if self.phase != "prepare":
            return  # a warm-up answer after the first one
        if "result" in result:
            self.final = _result_from_dict(result["result"])
            self.done = True
            return
        self.order = [tuple(m) for m in result["order"]]
        self.max_depth = int(result["max_depth"])
        self.max_nodes = result.get("max_nodes")
        seed_s = float(result.get("seed_ms") or 0.0) / 1000
        self.search_start = now - seed_s
        soft_ms, hard_ms = result.get("soft_ms"), result.get("hard_ms")
        self.soft_left = None if soft_ms is None else soft_ms / 1000
        self.stop_at = None if hard_ms is None else self.search_start + hard_ms / 1000
        iterations = result.get("iterations") or []
        for it in iterations:
            self._iteration_done(
                int(it["depth"]), tuple(it["move"]), int(it["score"]), it["pv"], now
            )
        seed_to = min(self.seed_depth, self.max_depth)
        last = iterations[-1] if iterations else None
        if (
            last is None
            or len(self.order) == 1
            or int(last["depth"]) < seed_to  # the seed stopped on time or proved a win
            or self._stop_after(int(last["depth"]), int(last["score"]), now)
        ):
            self.done = True
            return
        self.cur = int(last["depth"]) + 1
        if self.scheme == "slices" and len(self.order) >= 4 and len(self.live) > 1:
            self.phase = "slices"
            n = min(len(self.live), len(self.order) // 2)
            self.slices = [self.order[i::n] for i in range(n)]
        else:
            self.phase = "ybw"

    def _stop_after(self, depth: int, score: int, now: float) -> bool:
        """Searcher.search's reasons not to start the next iteration."""
        if _is_win(score) and WIN_SCORE - abs(score) <= depth:
            return True  # proven within the horizon
        if depth >= self.max_depth:
            return True
        return self.soft_left is not None and (
            now - self.search_start > self.soft_left * NEXT_ITERATION_FRACTION
        )

    def _iteration_done(self, depth: int, move: Point, score: int, pv: list, now: float) -> None:
        self.best = {"move": move, "score": score, "depth": depth, "pv": [tuple(p) for p in pv]}
        if move in self.order:
            self.order.remove(move)
            self.order.insert(0, move)
        if self.on_info is not None:
            elapsed = max(now, 1e-9)
            self.on_info(
                SearchInfo(
                    depth,
                    score,
                    score_text(score),
                    self.nodes,
                    int(self.nodes / elapsed),
                    list(self.best["pv"]),
                    round(now * 1000, 2),
                )
            )

    # --- ybw ----------------------------------------------------------------------------

    def _table(self, depth: int) -> dict[Point, _Bounds]:
        t = self.known.get(depth)
        if t is None:
            t = self.known[depth] = {m: _Bounds() for m in self.order}
        return t

    @staticmethod
    def _alpha(table: dict[Point, _Bounds], order: list[Point]) -> tuple[int | None, Point | None]:
        """Best exact score at a depth and its move (the first in order on ties)."""
        best, move = None, None
        for m in order:
            b = table[m]
            if b.exact and (best is None or b.lower > best):
                best, move = b.lower, m
        return best, move

    def _candidates(self, depth: int, order: list[Point], prev: int) -> list[tuple]:
        """(priority, move, alpha, beta) of the searches that depth still needs."""
        table = self._table(depth)
        alpha, _ = self._alpha(table, order)
        out = []
        if alpha is None:
            pv = order[0]
            b = table[pv]
            if not b.running and not b.exact:
                if b.tries == 0 and depth >= 3 and not _is_win(prev):
                    window = (prev - ASPIRATION, prev + ASPIRATION)
                else:
                    window = (
                        b.lower - 1 if b.lower > -INF else -INF,
                        b.upper + 1 if b.upper < INF else INF,
                    )
                out.append((0, pv, *window))
            spec = prev - 1 if _is_win(prev) else prev - self.spec_margin
            for m in order[1:]:
                b = table[m]
                if not b.running and b.tries == 0:
                    out.append((3, m, spec, spec + 1))
            return out
        for m in order:
            b = table[m]
            if b.running or b.exact or b.upper <= alpha:
                continue
            if b.lower > alpha:
                out.append((1, m, b.lower - 1, b.upper + 1 if b.upper < INF else INF))
            else:
                out.append((2, m, alpha, alpha + 1))
        return out

    def _complete(self, depth: int) -> tuple[Point, int] | None:
        table = self.known.get(depth)
        if table is None:
            return None
        alpha, move = self._alpha(table, self.order)
        if alpha is None:
            return None
        for m, b in table.items():
            if m != move and not b.exact and b.upper > alpha:
                return None
        return move, alpha

    def _lookahead(self, now: float) -> tuple[int, list[Point], int] | None:
        """The next iteration, provisionally ordered, if it may start already."""
        depth = self.cur + 1
        best = self.best
        if best is None or depth > self.max_depth:
            return None
        if self.soft_left is not None and (
            now - self.search_start > self.soft_left * NEXT_ITERATION_FRACTION
        ):
            return None  # the next iteration would not be started
        alpha, move = self._alpha(self._table(self.cur), self.order)
        order = list(self.order)
        if move is not None:
            order.remove(move)
            order.insert(0, move)
        return depth, order, best["score"] if alpha is None else alpha

    def _long(self, jid: int) -> bool:
        """Is that job likely long (a search for an exact score)? Nothing is queued
        behind it, so that another worker may take what would wait."""
        job = self.jobs[jid].job
        return job["kind"] != "move" or job["beta"] - job["alpha"] > 1

    def _ybw_job(self, worker: int, now: float, idle: bool = True) -> dict | None:
        depth, order, prev = self.cur, self.order, self.best["score"]
        cands = self._candidates(depth, order, prev)
        if not cands:
            ahead = self._lookahead(now)
            if ahead is not None:
                depth, order, prev = ahead
                cands = self._candidates(depth, order, prev)
        if cands:
            top = min(c[0] for c in cands)
            group = [c for c in cands if c[0] == top]
            # a move goes back to the worker that searched it before (its TT knows it)
            mine = (c for c in group if self.owner.get(c[1], worker) in (worker, *self.dropped))
            pick = next(mine, group[0])
            _, move, alpha, beta = pick
        else:
            backup = self._backup(now) if idle else None
            if backup is None:
                return None
            depth, move, alpha, beta = backup
        b = self._table(depth)[move]
        b.running.add(worker)
        self.owner[move] = worker
        budget = self._budget(now)
        max_nodes = None
        if self.max_nodes is not None:
            max_nodes = max((self.max_nodes - self.nodes) // max(len(self.live), 1), 1)
        job = {
            "kind": "move",
            "move": list(move),
            "depth": depth,
            "alpha": alpha,
            "beta": beta,
            "hard_ms": None if budget is None else round(budget * 1000, 3),
            "max_nodes": max_nodes,
        }
        return self._send(worker, job, now, budget)

    def _backup(self, now: float) -> tuple[int, Point, int, int] | None:
        """A straggling job to duplicate on an idle worker (a hung worker's job too)."""
        wait = max(BACKUP_MIN, BACKUP_FACTOR * self.longest_job)
        for rec in sorted(self.jobs.values(), key=lambda r: r.sent):
            job = rec.job
            if job["kind"] != "move" or rec.started is None or now - rec.started < wait:
                continue
            b = self._table(job["depth"])[tuple(job["move"])]
            if len(b.running) == 1:
                return job["depth"], tuple(job["move"]), job["alpha"], job["beta"]
        return None

    def _moved(self, rec: _Job, result: dict, now: float) -> None:
        job = rec.job
        depth, move = job["depth"], tuple(job["move"])
        b = self._table(depth)[move]
        b.running.discard(rec.worker)
        if result.get("status") != "ok":
            return  # stopped by a limit: nothing learnt
        s, a, beta = int(result["score"]), job["alpha"], job["beta"]
        lo, up = (-INF, s) if s <= a else (s, INF) if s >= beta else (s, s)
        b.tries += 1
        new_lo, new_up = max(b.lower, lo), min(b.upper, up)
        if new_lo > new_up:  # search instability: believe the newest answer
            new_lo, new_up = lo, up
        if b.tries >= MAX_TRIES and new_lo != new_up:
            new_lo = new_up = s
        b.lower, b.upper = new_lo, new_up
        if (s > a and s < beta) or not b.pv:
            b.pv = [tuple(p) for p in result.get("pv") or [move]]
        # finish as many iterations as are complete (the lookahead one may be too)
        while not self.done:
            complete = self._complete(self.cur)
            if complete is None:
                break
            best_move, score = complete
            pv = self.known[self.cur][best_move].pv or [best_move]
            self._iteration_done(self.cur, best_move, score, pv, now)
            if self._stop_after(self.cur, score, now):
                self.done = True
                break
            self.cur += 1

    def _partial_better(self, score: int) -> Point | None:
        """A move of an unfinished iteration proven better than the last result."""
        best, move = score, None
        for depth in (self.cur, self.cur + 1):
            for m, b in self.known.get(depth, {}).items():
                if b.lower > best and b.lower > -INF:
                    best, move = b.lower, m
        return move

    # --- slices -------------------------------------------------------------------------

    def _slice_jobs(self, now: float) -> list[tuple[int, dict]]:
        out = []
        running = set(self.slice_of.values())
        todo = [i for i in range(len(self.slices)) if i not in self.slice_results]
        todo = [i for i in todo if i not in running]
        idle = self._idle()
        for i, w in zip(todo, idle, strict=False):
            soft = None
            if self.soft_left is not None:
                soft = max(self.soft_left - (now - self.search_start), 0.001)
            hard = self._budget(now)
            max_nodes = None
            if self.max_nodes is not None:
                max_nodes = max((self.max_nodes - self.nodes) // len(self.slices), 1)
            job = {
                "kind": "slice",
                "root_moves": [list(m) for m in self.slices[i]],
                "max_depth": self.max_depth,
                "soft_ms": None if soft is None else soft * 1000,
                "hard_ms": None if hard is None else hard * 1000,
                "max_nodes": max_nodes,
            }
            sent = self._send(w, job, now, hard)
            self.slice_of[sent["jid"]] = i
            out.append((w, sent))
        return out

    def _sliced(self, rec: _Job, result: dict, now: float) -> None:
        i = self.slice_of.pop(rec.job["jid"], None)
        if i is None:
            return
        self.slice_results[i] = result.get("iterations") or []
        if len(self.slice_results) < len(self.slices):
            return
        # the deepest depth every slice reached (a proven win holds at any depth)
        reach = []
        for its in self.slice_results.values():
            if not its:
                reach.append(0)
                continue
            last = its[-1]
            proven = _is_win(last["score"]) and WIN_SCORE - abs(last["score"]) <= last["depth"]
            reach.append(self.max_depth if proven else last["depth"])
        depth = min(reach)
        if self.best is not None and depth <= self.best["depth"]:
            self.done = True
            return
        cands = []
        for its in self.slice_results.values():
            at = [it for it in its if it["depth"] <= depth]
            if at:
                it = at[-1]
                cands.append((it["score"], -self.order.index(tuple(it["move"])), it))
        if cands:
            it = max(cands, key=lambda c: (c[0], c[1]))[2]
            self._iteration_done(depth, tuple(it["move"]), int(it["score"]), it["pv"], now)
        self.done = True


class JsonCoordinator:
    """The Coordinator behind JSON text, for JS (main.js) to drive: every method takes
    and returns plain strings and numbers. Jobs come as '[[worker, job], ...]'."""

    def __init__(
        self,
        moves_json: str,
        size: int = DEFAULT_SIZE,
        rule: str | int = "freestyle",
        limits_json: str = "{}",
        workers: int = 2,
    ) -> None:
        limits = limits_from_dict(json.loads(limits_json))
        self.coord = Coordinator(json.loads(moves_json), size, rule, limits, workers)
        self.sid = self.coord.sid

    @staticmethod
    def _jobs(jobs: list[tuple[int, dict]]) -> str:
        return json.dumps([[w, job] for w, job in jobs])

    def start(self, now: float) -> str:
        return self._jobs(self.coord.start(now))

    def on_result(self, worker: int, result_json: str, now: float) -> str:
        return self._jobs(self.coord.on_result(worker, json.loads(result_json), now))

    def on_failure(self, worker: int, now: float) -> str:
        return self._jobs(self.coord.on_failure(worker, now, f"worker {worker} failed"))

    def on_tick(self, now: float) -> str:
        return self._jobs(self.coord.on_tick(now))

    @property
    def done(self) -> bool:
        return self.coord.done

    def wait_time(self, now: float) -> float | None:
        return self.coord.wait_time(now)

    def busy_workers(self) -> str:
        return json.dumps(self.coord.busy_workers())

    def result(self, now: float) -> str:
        """The SearchResult as JSON (docs/ENGINE_API.md's to_dict)."""
        return json.dumps(self.coord.result(now).to_dict())


# --- CPython driver ---------------------------------------------------------------------


def _worker_main(conn: Connection) -> None:
    """A worker process: JSON jobs in, JSON results out, until an empty message or EOF.
    It first sends ``{"kind": "hello"}`` once its tables are built.

    Before each job it reads every message already waiting; an ``{"kind": "abort",
    "sid": ...}`` message makes it answer the waiting jobs of that search with status
    "aborted" instead of doing them (the driver sends one when a search ends)."""
    layout(DEFAULT_SIZE, Rule.FREESTYLE)  # build the common tables before the first job
    conn.send_bytes(json.dumps({"kind": "hello", "pid": os.getpid()}).encode())
    pending: deque[dict] = deque()
    while True:
        try:
            while not pending or conn.poll():
                data = conn.recv_bytes()
                if not data:
                    return
                pending.append(json.loads(data))
        except (EOFError, OSError):
            return
        aborted = {m.get("sid") for m in pending if m.get("kind") == "abort"}
        if aborted:
            for m in pending:
                if m.get("kind") != "abort" and m.get("sid") in aborted:
                    answer = {"kind": m.get("kind"), "sid": m.get("sid"), "jid": m.get("jid")}
                    conn.send_bytes(json.dumps({**answer, "status": "aborted"}).encode())
            pending = deque(m for m in pending if m.get("sid") not in aborted)
            continue
        conn.send_bytes(json.dumps(run_job(pending.popleft())).encode())


class WorkerPool:
    """Worker processes fed through pipes with JSON job/result dicts.

    Slots 0..n-1; a dead, hung or stale slot is ended (terminate, then kill) and
    respawned at the next ``ready``. Use as a context manager or call ``close``.
    """

    def __init__(self, workers: int, start_method: str | None = None) -> None:
        if workers < 1:
            raise ValueError("at least one worker is needed")
        methods = multiprocessing.get_all_start_methods()
        if start_method is None:
            start_method = "forkserver" if "forkserver" in methods else "spawn"
        self.ctx = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self.ctx.set_forkserver_preload(["gomoku.parallel"])
        self.size = workers
        self.procs: list = [None] * workers
        self.conns: list[Connection | None] = [None] * workers
        self.outstanding = [0] * workers
        self.starting = [False] * workers
        for i in range(workers):
            self._spawn(i)

    def _spawn(self, i: int) -> None:
        parent, child = self.ctx.Pipe()
        p = self.ctx.Process(target=_worker_main, args=(child,), daemon=True, name=f"gomoku-{i}")
        p.start()
        child.close()
        # the worker says hello once its tables are built: counted as an answer due
        self.procs[i], self.conns[i], self.outstanding[i] = p, parent, 1
        self.starting[i] = True

    def _end(self, i: int) -> None:
        p, conn = self.procs[i], self.conns[i]
        if conn is not None:
            conn.close()
        if p is not None and p.is_alive():
            p.kill()  # nothing to clean up in a worker; works on a stopped one too
            p.join(1.0)
        self.procs[i] = self.conns[i] = None

    def restart(self, i: int) -> None:
        """End slot i's process and start a new one."""
        self._end(i)
        self._spawn(i)

    def send(self, i: int, job: dict) -> None:
        self.conns[i].send_bytes(json.dumps(job).encode())
        self.outstanding[i] += 1

    def abort(self, i: int, sid: str) -> None:
        """Have slot i skip the jobs of search ``sid`` it has not started (they are
        answered with status "aborted")."""
        try:
            self.conns[i].send_bytes(json.dumps({"kind": "abort", "sid": sid}).encode())
        except (OSError, AttributeError):
            pass

    def recv(self, i: int) -> dict:
        """The next message of slot i (a job's answer, or its start-up hello)."""
        data = self.conns[i].recv_bytes()
        self.outstanding[i] -= 1
        msg = json.loads(data)
        if msg.get("kind") == "hello":
            self.starting[i] = False
        return msg

    def ready(self, wait_s: float = 0.05, start_s: float = 30.0) -> None:
        """Make every slot idle: read stale answers for up to ``wait_s``, restart the
        slots still busy or dead, then wait up to ``start_s`` for the slots starting up
        (a slot not up by then is left to answer late)."""
        end = time.perf_counter() + wait_s
        for i in range(self.size):
            p = self.procs[i]
            if p is None or not p.is_alive():
                self.restart(i)
                continue
            if self.starting[i]:
                continue
            self._drain(i, end)
            if self.outstanding[i] > 0 or not self.procs[i].is_alive():
                self.restart(i)
        end = time.perf_counter() + start_s
        for i in range(self.size):
            if self.starting[i]:
                self._drain(i, end)

    def _drain(self, i: int, end: float) -> None:
        try:
            while self.outstanding[i] > 0:
                left = end - time.perf_counter()
                if left <= 0 or not self.conns[i].poll(left):
                    break
                self.recv(i)
        except (EOFError, OSError):
            pass

    def close(self) -> None:
        for i in range(self.size):
            conn = self.conns[i]
            if conn is not None and self.outstanding[i] == 0:
                try:
                    conn.send_bytes(b"")
                except OSError:
                    pass
        for i in range(self.size):
            p = self.procs[i]
            if p is not None:
                p.join(0.2)
            self._end(i)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_POOLS: dict[int, WorkerPool] = {}


def default_pool(workers: int) -> WorkerPool:
    """A pool of ``workers`` processes kept for later calls (closed at exit)."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = WorkerPool(workers)
    return pool


@atexit.register
def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.close()
    _POOLS.clear()


def drive(coord: Coordinator, pool: WorkerPool, clock_start: float | None = None) -> SearchResult:
    """Run ``coord`` over ``pool`` until done; returns its result. The pool must have at
    least ``coord.workers`` idle slots (``pool.ready()``)."""
    t0 = time.perf_counter() if clock_start is None else clock_start

    def now() -> float:
        return time.perf_counter() - t0

    def send(jobs: list[tuple[int, dict]]) -> None:
        for w, job in jobs:
            try:
                pool.send(w, job)
            except (OSError, ValueError, AttributeError):
                send(coord.on_failure(w, now(), f"worker {w}: send failed"))

    send(coord.start(now()))
    while not coord.done:
        waiting = {}
        for w in coord.busy_workers():
            conn, proc = pool.conns[w], pool.procs[w]
            if conn is None or proc is None:
                send(coord.on_failure(w, now(), f"worker {w} gone"))
                continue
            waiting[conn] = w
            waiting[proc.sentinel] = w
        if coord.done:
            break
        timeout = coord.wait_time(now())
        ready = wait(list(waiting), timeout) if waiting else []
        for obj in ready:
            w = waiting[obj]
            if w not in coord.busy_workers():
                continue
            conn = pool.conns[w]
            try:
                if obj is conn or conn.poll():
                    send(coord.on_result(w, pool.recv(w), now()))
                else:
                    send(coord.on_failure(w, now(), f"worker {w} died"))
            except (EOFError, OSError):
                send(coord.on_failure(w, now(), f"worker {w} died"))
        send(coord.on_tick(now()))
        for w in list(coord.dropped):
            if pool.procs[w] is not None and pool.procs[w].is_alive():
                pool.procs[w].terminate()  # respawned by the next ready()
    for w in coord.busy_workers():
        if w not in coord.dropped:
            pool.abort(w, coord.sid)  # the search is over: skip its queued jobs
    return coord.result(now())


def parallel_think(
    moves: list[Point] | list[list[int]],
    size: int = DEFAULT_SIZE,
    rule: str | int | Rule = Rule.FREESTYLE,
    limits: Limits | None = None,
    workers: int = 2,
    *,
    scheme: str = "ybw",
    seed_depth: int = SEED_DEPTH,
    pool: WorkerPool | None = None,
    fresh: bool = False,
    on_info: Callable[[SearchInfo], None] | None = None,
) -> SearchResult:
    """Engine.think for the position ``moves`` on ``workers`` processes.

    Same limits and result as Engine.think (docs/ENGINE_API.md); with workers=1 the
    result is Engine.think's in a worker process. The hard limit holds even if workers
    hang; a worker that fails or hangs is dropped and restarted for the next call;
    the move is always legal. ``pool`` defaults to a kept pool of ``workers``
    processes; ``fresh`` clears the workers' TTs first (a new game). Starting worker
    processes takes a fraction of a second, counted in the time limit: make the pool
    beforehand (``default_pool(n).ready()``) when the first move's time matters.
    """
    t0 = time.perf_counter()
    coord = Coordinator(
        moves,
        size,
        rule,
        limits,
        workers,
        scheme=scheme,
        seed_depth=seed_depth,
        fresh=fresh,
        on_info=on_info,
    )
    pool = pool or default_pool(workers)
    if pool.size < workers:
        raise ValueError(f"the pool has {pool.size} workers, {workers} asked for")
    hard = coord.hard_cap
    pool.ready(start_s=30.0 if hard is None else hard / 2)
    return drive(coord, pool, t0)


# --- simulation -------------------------------------------------------------------------


def simulate(
    coord: Coordinator, latency: float = 0.0005, nps: float | None = None
) -> tuple[SearchResult, float]:
    """Run ``coord`` in this process, one job at a time, each worker with its own state
    (TT, searcher) as if it were a separate process, on a virtual clock: a job takes
    the CPU time it used here (or, given ``nps``, its nodes / nps: deterministic) plus
    ``latency`` each way. Returns the result and the virtual seconds, i.e. the wall
    time the search would take with one dedicated core per worker, whatever the load
    on this machine. Deadlines are checked against the virtual clock; a job's own
    hard_ms against the real one (use no time limits)."""
    global _STATE
    import heapq

    states = [_WorkerState() for _ in range(coord.workers)]
    free = [0.0] * coord.workers  # when each worker is done with what it was given
    events: list[tuple[float, int, int, dict]] = []
    seq = 0
    saved = _STATE

    def schedule(jobs: list[tuple[int, dict]], at: float) -> None:
        nonlocal seq
        global _STATE
        for w, job in jobs:
            _STATE = states[w]
            c0 = time.process_time()
            res = json.loads(json.dumps(run_job(json.loads(json.dumps(job)))))
            took = time.process_time() - c0
            if nps is not None:
                took = (res.get("nodes") or 0) / nps
            free[w] = max(free[w], at + latency) + took
            heapq.heappush(events, (free[w] + latency, seq, w, res))
            seq += 1

    try:
        now = 0.0
        schedule(coord.start(now), now)
        while not coord.done and events:
            now, _, w, res = heapq.heappop(events)
            schedule(coord.on_result(w, res, now), now)
    finally:
        _STATE = saved
    return coord.result(now), now


# --- benchmark and command line ---------------------------------------------------------


def _configs(workers: list[int], schemes: list[str]) -> list[tuple[int, str]]:
    out = []
    for n in workers:
        for s in schemes if n > 1 else ["ybw"]:
            if (n, s) not in out:
                out.append((n, s))
    return out


def bench(
    depth: int = 6,
    workers: list[int] | None = None,
    schemes: list[str] | None = None,
    repeat: int = 1,
    positions: list[int] | None = None,
    *,
    seed_depth: int = SEED_DEPTH,
    pipeline: int = 3,
    simulated: bool = False,
    nps: float | None = None,
    latency: float = 0.0005,
    time_ms: float | None = None,
    out: Callable[[str], None] = print,
) -> dict:
    """Time to finish a fixed depth on the bench positions (threats and book off, fresh
    TTs), per (workers, scheme). Real processes: configurations alternate per position
    so that a change of machine load hits them alike. ``simulated``: the in-process
    simulator's virtual time instead (``simulate``; ``nps`` makes it deterministic).
    Returns per configuration the total seconds, nodes, speedup (total and geometric
    mean of the per-position ratios), the busiest worker's CPU time (what the wall time
    would be with a core per worker and no waiting: comparable on a loaded machine) and
    how often the move equals 1 worker's. With ``time_ms``: a timed search instead (as
    in play: threat search on, book off), also reporting the mean depth reached."""
    import math

    from .bench import BENCH_POSITIONS
    from .geometry import moves_from_text

    workers = workers or [1, 2]
    schemes = schemes or ["ybw"]
    configs = _configs(workers, schemes)
    if (1, "ybw") not in configs:
        configs.insert(0, (1, "ybw"))
    base = (1, "ybw")
    pools = {} if simulated else {n: WorkerPool(n) for n in sorted({n for n, _ in configs})}
    limits = Limits(time_ms=None, depth=depth, use_book=False, use_threats=False)
    if time_ms is not None:
        limits = Limits(time_ms=time_ms, use_book=False)
    idx = positions if positions is not None else list(range(len(BENCH_POSITIONS)))
    times = {c: 0.0 for c in configs}
    nodes = {c: 0 for c in configs}
    same = {c: 0 for c in configs}
    logs = {c: 0.0 for c in configs}
    cpu = {c: 0.0 for c in configs}  # CPU time of the busiest worker
    depths = {c: 0 for c in configs}
    try:
        for n, pool in pools.items():  # warm up: imports and tables in every worker
            warm = Limits(time_ms=None, depth=5, use_book=False, use_threats=False)
            parallel_think(
                moves_from_text(BENCH_POSITIONS[0], 15), limits=warm, workers=n, pool=pool
            )
        for rep in range(repeat):
            for i in idx:
                moves = moves_from_text(BENCH_POSITIONS[i], 15)
                got = {}
                for c in configs if rep % 2 == 0 else configs[::-1]:
                    n, scheme = c
                    coord = Coordinator(
                        moves,
                        limits=limits,
                        workers=n,
                        scheme=scheme,
                        seed_depth=seed_depth,
                        pipeline=pipeline,
                        fresh=True,
                    )
                    if simulated:
                        r, dt = simulate(coord, latency=latency, nps=nps)
                    else:
                        pools[n].ready(2.0)
                        t = time.perf_counter()
                        r = drive(coord, pools[n], t)
                        dt = time.perf_counter() - t
                    per: dict[int, float] = {}
                    for t in coord.trace:  # (..., worker at 2, ..., cpu_ms last)
                        per[t[2]] = per.get(t[2], 0.0) + (t[-1] or 0.0) / 1000
                    got[c] = (dt, r, max(per.values(), default=0.0))
                ref_t, ref, _ = got[base]
                cells = []
                for c in configs:
                    dt, r, busiest = got[c]
                    times[c] += dt
                    cpu[c] += busiest
                    depths[c] += r.depth
                    nodes[c] += r.nodes
                    same[c] += r.move == ref.move
                    logs[c] += math.log(ref_t / dt)
                    n, scheme = c
                    cells.append(
                        f"{n}{scheme[0]} {dt:5.2f}s cpu {busiest:5.2f}s {r.nodes:6d}n d{r.depth} "
                        f"{r.move}{'' if r.move == ref.move else '*'} {r.score_text}"
                    )
                out(f"pos {i}: " + "  ".join(cells))
    finally:
        for pool in pools.values():
            pool.close()
    summary = {}
    runs = len(idx) * repeat
    for c in configs:
        n, s = c
        key = f"{n}w-{s}" if n > 1 else "1w"
        summary[key] = row = {
            "seconds": round(times[c], 2),
            "nodes": nodes[c],
            "speedup": round(times[base] / times[c], 2) if times[c] else None,
            "geomean_speedup": round(math.exp(logs[c] / runs), 2),
            "node_ratio": round(nodes[c] / nodes[base], 2) if nodes[base] else None,
            "busiest_cpu_s": round(cpu[c], 2),
            "cpu_speedup": round(cpu[base] / cpu[c], 2) if cpu[c] else None,
            "same_move": f"{same[c]}/{runs}",
            "mean_depth": round(depths[c] / runs, 2),
        }
        out(
            f"{key:10s} total {times[c]:7.2f} s  nodes {nodes[c]:8d}  speedup "
            f"x{row['speedup']:.2f} (geomean x{row['geomean_speedup']:.2f})  busiest worker's "
            f"CPU {cpu[c]:.2f} s (x{row['cpu_speedup']:.2f})  nodes x{row['node_ratio']:.2f}  "
            f"same move {row['same_move']}"
            + (f"  mean depth {row['mean_depth']:.2f}" if time_ms is not None else "")
        )
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m gomoku.parallel", description=__doc__.split("\n")[0]
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bench", help="time to a fixed depth, 1 vs N workers")
    b.add_argument("--depth", type=int, default=6)
    b.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    b.add_argument("--schemes", default="ybw", help="comma-separated: " + ",".join(SCHEMES))
    b.add_argument("--repeat", type=int, default=1)
    b.add_argument("--positions", default=None, help="comma-separated bench position indices")
    b.add_argument("--seed-depth", type=int, default=SEED_DEPTH)
    b.add_argument("--pipeline", type=int, default=3, help="jobs queued per worker")
    b.add_argument("--simulate", action="store_true", help="virtual time, one process")
    b.add_argument("--nps", type=float, default=None, help="simulate: nodes/s clock")
    b.add_argument("--latency", type=float, default=0.5, help="simulate: ms each way")
    b.add_argument("--time", type=float, default=None, help="ms per move instead of --depth")
    b.add_argument("--json", action="store_true", help="print one JSON line at the end")
    t = sub.add_parser("think", help="search one position")
    t.add_argument("moves", help='moves as text, e.g. "h8 i9 g9"')
    t.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    t.add_argument("--time", type=float, default=1000.0, help="soft time in ms")
    t.add_argument("--depth", type=int, default=None)
    t.add_argument("--scheme", default="ybw", choices=SCHEMES)
    args = ap.parse_args(argv)
    # Worker processes re-run this module as __mp_main__ when it was started with -m;
    # runpy then warns that it is already imported. Harmless: keep their stderr quiet.
    os.environ.setdefault("PYTHONWARNINGS", "ignore::RuntimeWarning:runpy")
    if args.cmd == "bench":
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        what = f"depth {args.depth}" if args.time is None else f"{args.time:g} ms per move"
        if args.simulate:
            what += " (simulated)"
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {load:.1f}, {what}")
        summary = bench(
            args.depth,
            [int(x) for x in args.workers.split(",")],
            args.schemes.split(","),
            args.repeat,
            None if args.positions is None else [int(x) for x in args.positions.split(",")],
            seed_depth=args.seed_depth,
            pipeline=args.pipeline,
            simulated=args.simulate,
            nps=args.nps,
            latency=args.latency / 1000,
            time_ms=args.time,
        )
        if args.json:
            print(json.dumps(summary))
        return 0
    from .geometry import moves_from_text, to_text

    moves = moves_from_text(args.moves, 15)
    limits = Limits(time_ms=None if args.depth else args.time, depth=args.depth)

    def info(i: SearchInfo) -> None:
        print(f"depth {i.depth} score {i.score_text} nodes {i.nodes} time {i.time_ms} ms")

    r = parallel_think(moves, limits=limits, workers=args.workers, scheme=args.scheme, on_info=info)
    print(f"move {to_text(*r.move, 15)} {r.to_dict()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
