"""The worker side: do one job (jobs.py) and answer it.

A worker is a process of the CPython pool (pool.py) or a Web Worker with its own Pyodide
(web/engine/worker.js calls ``run_job_json``). What it keeps between jobs is a ``WorkerState``:
one Engine (its transposition table and threat cache survive from move to move, as the
single engine's do).

``WorkerState.abort(sid)`` may be called from another thread while a job runs (the pool's
reader thread does): the running search of that sid stops within a few hundred nodes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gomoku.core.rules import DEFAULT_SIZE, Rule, parse_rule
from gomoku.engine.facade import Engine
from gomoku.engine.results import SearchInfo, SearchPlan, SearchResult
from gomoku.game.board import layout
from gomoku.parallel.jobs import (
    JOB_KEYS,
    Answer,
    Job,
    iteration_dict,
    limits_from_dict,
    plan_dict,
    result_to_dict,
    shell,
)
from gomoku.search.alphabeta import Progress, Searcher

ABORTED_KEPT = 32  # sids of aborted searches remembered

Emit = Callable[[Answer], None]


class Aborted(Exception):
    """Raised from a search's progress callback once its search is aborted."""


def stop_searcher(searcher: Searcher) -> None:
    """Make a running search unwind at its next limit check (SearchStopped)."""
    searcher.max_nodes = -1
    searcher.hard_deadline = float("-inf")


class WorkerState:
    """What a worker keeps between jobs."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.fresh_sid: str | None = None  # the search that last cleared the engine
        self.aborted: dict[str, None] = {}  # sids of aborted searches, oldest first
        self.running: tuple[str, Searcher] | None = None  # (sid, searcher) searching now

    def engine_for(self, job: Job) -> Engine:
        """The engine for the job's size and rule, cleared if the job says ``fresh``."""
        size, rule = int(job["size"]), parse_rule(job["rule"])
        eng = self.engine
        if eng is None or eng.size != size or eng.rule != rule:
            eng = self.engine = Engine(size, rule)
            self.fresh_sid = job.get("sid")
        elif job.get("fresh") and job.get("sid") != self.fresh_sid:
            eng.new_game(size, rule)
            self.fresh_sid = job.get("sid")
        return eng

    def abort(self, sid: object) -> None:
        """Search ``sid`` is over: its queued jobs are skipped, its running one stopped."""
        if not isinstance(sid, str):
            return
        self.aborted[sid] = None
        while len(self.aborted) > ABORTED_KEPT:
            del self.aborted[next(iter(self.aborted))]
        running = self.running
        if running is not None and running[0] == sid:
            stop_searcher(running[1])

    def is_aborted(self, sid: object) -> bool:
        return isinstance(sid, str) and sid in self.aborted

    @contextmanager
    def searching(self, sid: str, searcher: Searcher) -> Iterator[None]:
        """Mark ``searcher`` as the running search of ``sid`` (abort can stop it)."""
        self.running = (sid, searcher)
        try:
            if self.is_aborted(sid):
                stop_searcher(searcher)
            yield
        finally:
            self.running = None


STATE = WorkerState()  # this process's worker state


def warm_up(state: WorkerState = STATE) -> None:
    """Build the common tables and load the opening book now, not in a move's time."""
    layout(DEFAULT_SIZE, Rule.FREESTYLE)
    state.engine = Engine(DEFAULT_SIZE, Rule.FREESTYLE)
    state.engine.warm_up()


def run_job(job: Job, emit: Emit | None = None, state: WorkerState | None = None) -> Answer:
    """Do one job (jobs.py) and return its final answer; progress answers go to
    ``emit`` while it runs (dropped without one). ``state`` defaults to this process's.

    Never raises: an exception becomes status "error" with its text in "error". A job
    whose search was aborted before or while it ran is answered "aborted"."""
    state = STATE if state is None else state
    start, cpu = time.perf_counter(), time.process_time()
    out = shell(job)
    sid = job.get("sid")
    if state.is_aborted(sid):
        return {**out, "status": "aborted", "nodes": 0, "ms": 0.0, "cpuMs": 0.0}
    handler = HANDLERS.get(str(job.get("kind")))
    try:
        if handler is None:
            raise ValueError(f"unknown job kind {job.get('kind')!r}")
        unknown = sorted(str(k) for k in job if k not in JOB_KEYS[str(job["kind"])])
        if unknown:
            raise ValueError(f"unknown field(s) in a {job['kind']} job: {', '.join(unknown)}")

        def progress(fields: dict[str, Any]) -> None:
            if emit is not None:
                emit({**out, "status": "progress", **fields})
            if state.is_aborted(sid):
                raise Aborted

        out.update(handler(state, job, progress))
    except Aborted:
        out.update(status="aborted", nodes=out.get("nodes", 0))
    except Exception as e:  # reported; the coordinator drops the worker
        out.update(status="error", error=f"{type(e).__name__}: {e}", nodes=0)
    if state.is_aborted(sid) and out["status"] in ("ok", "stopped"):
        out["status"] = "aborted"
    out["ms"] = round((time.perf_counter() - start) * 1000, 3)
    out["cpuMs"] = round((time.process_time() - cpu) * 1000, 3)
    return out


def run_job_json(
    text: str, emit: Callable[[str], None] | None = None, state: WorkerState | None = None
) -> str:
    """``run_job`` on JSON text (what a Web Worker calls from JS); progress answers go
    to ``emit`` as JSON text."""
    on_progress = None if emit is None else (lambda answer: emit(json.dumps(answer)))
    return json.dumps(run_job(json.loads(text), on_progress, state))


# --- the jobs ---------------------------------------------------------------------------

Progressed = Callable[[dict[str, Any]], None]


def _think(state: WorkerState, job: Job, progress: Progressed) -> dict:
    eng = state.engine_for(job)
    eng.set_position([tuple(m) for m in job["moves"]])
    board = eng.board
    plan: dict[str, Any] = {}

    def prepared(outcome: SearchResult | SearchPlan) -> None:
        if not isinstance(outcome, SearchResult):
            plan.update(plan_dict(board, outcome))
            progress({"plan": dict(plan), "nodes": int(outcome.nodes)})

    def info(i: SearchInfo) -> None:
        it = {"depth": i.depth, "move": list(i.pv[0]), "score": i.score, "nodes": i.nodes}
        progress({"iteration": {**it, "pv": [list(p) for p in i.pv]}, "nodes": i.nodes})

    # the plan (root moves, the opponent's threat, the moves shown to stop it) is
    # reported while the search goes on: the lazy scheme needs it to take a helper's move
    r = eng.think(limits_from_dict(job.get("limits")), info, on_plan=prepared)
    return {"status": "ok", "result": result_to_dict(r), "plan": plan or None, "nodes": r.nodes}


def _search(state: WorkerState, job: Job, progress: Progressed) -> dict:
    eng = state.engine_for(job)
    eng.set_position([tuple(m) for m in job["moves"]])
    board = eng.board
    plan = eng.prepare(limits_from_dict(job.get("limits")))
    if isinstance(plan, SearchResult):  # a forced reply: nothing to search
        p = board.layout.index(*plan.move)
        best = iteration_dict(board, plan.depth, plan.score, [p], plan.nodes)
        return {"status": "ok", "best": best, "nodes": plan.nodes}
    searcher = Searcher(board, eng.tt)
    found: list[dict] = []

    def on_progress(p: Progress) -> None:
        found.append(iteration_dict(board, p.depth, p.score, p.pv, plan.nodes + p.nodes))
        progress({"iteration": found[-1], "nodes": plan.nodes + p.nodes})

    with state.searching(job["sid"], searcher):
        try:
            searcher.search(
                max_depth=plan.max_depth,
                soft_time=plan.soft_time,
                hard_time=plan.hard_time,
                max_nodes=plan.max_nodes,
                root_moves=plan.root_moves,
                on_progress=on_progress,
            )
        except Aborted:
            pass
    best = found[-1] if found else None
    return {"status": "ok", "best": best, "nodes": plan.nodes + searcher.nodes}


HANDLERS: dict[str, Callable[[WorkerState, Job, Progressed], dict]] = {
    "think": _think,
    "search": _search,
}
