"""Running a search: pick the scheme's coordinator, drive it over worker processes.

``parallel_think`` is ``Engine.think`` on N processes (the Gomocup brain's ``INFO
thread_num``); the page drives the same coordinators through gomoku.protocol.webapi instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchInfo, SearchResult
from gomoku.parallel.coordinator import Coordinator, Jobs
from gomoku.parallel.lazy import LazyCoordinator

if TYPE_CHECKING:
    from gomoku.engine import Engine, Session
    from gomoku.parallel.pool import WorkerPool

SCHEMES: dict[str, type[Coordinator]] = {"lazy": LazyCoordinator}
DEFAULT_SCHEME = "lazy"


def new_coordinator(
    moves: list[Point] | list[list[int]],
    size: int = DEFAULT_SIZE,
    rule: str | int | Rule = Rule.FREESTYLE,
    limits: Limits | None = None,
    workers: int = 2,
    *,
    scheme: str = DEFAULT_SCHEME,
    **options,
) -> Coordinator:
    """The coordinator of one search (coordinator.py's contract) under ``scheme``.

    ``options``: ``fresh``, ``sid``, ``on_info`` (every scheme), and the schemes' own
    (lazy: ``abortable``), each passed only to the scheme that takes it. With one worker
    every scheme is a think job, i.e. ``Engine.think`` in that worker."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r} (one of {', '.join(SCHEMES)})")
    known = {"fresh", "sid", "on_info"}.union(*(c.options for c in SCHEMES.values()))
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r}")
    cls = SCHEMES[scheme] if workers > 1 else LazyCoordinator
    mine = {
        k: v for k, v in options.items() if k in ("fresh", "sid", "on_info") or k in cls.options
    }
    return cls(moves, size, rule, limits, workers, **mine)


def drive(coord: Coordinator, pool: WorkerPool, clock_start: float | None = None) -> SearchResult:
    """Run ``coord`` over ``pool`` until done; returns its result. The pool must have at
    least ``coord.workers`` idle workers (``pool.ready()``). Workers the coordinator
    drops are terminated (restarted by the next ``ready``); when the search is done the
    busy ones are told to abort it."""
    from multiprocessing.connection import wait  # CPython's pool only, never in the page

    t0 = time.perf_counter() if clock_start is None else clock_start

    def now() -> float:
        return time.perf_counter() - t0

    def send(jobs: Jobs) -> None:
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
                pool.procs[w].terminate()  # restarted by the next ready()
    for w in coord.busy_workers():
        if w not in coord.dropped:
            pool.abort(w, coord.sid)
    return coord.result(now())


class GameSearch:
    """``parallel_think`` for a protocol that plays games, on ``threads`` processes of a
    kept pool, started at once (off any move's clock). The workers' tables are cleared at
    the first search after ``new_game``, as a single engine's new_game clears its own."""

    def __init__(self, threads: int) -> None:
        from gomoku.parallel.pool import default_pool  # processes: not in a Web Worker

        self.threads = threads
        self.fresh = True
        default_pool(threads).ready()

    def new_game(self) -> None:
        self.fresh = True

    def think(
        self,
        game: Engine | Session,
        limits: Limits,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """``parallel_think`` on the position of ``game`` (its moves, size and rule)."""
        result = parallel_think(
            game.moves, game.size, game.rule, limits, self.threads, fresh=self.fresh,
            on_info=on_info,
        )  # fmt: skip
        self.fresh = False
        return result


def parallel_think(
    moves: list[Point] | list[list[int]],
    size: int = DEFAULT_SIZE,
    rule: str | int | Rule = Rule.FREESTYLE,
    limits: Limits | None = None,
    workers: int = 2,
    *,
    scheme: str = DEFAULT_SCHEME,
    pool: WorkerPool | None = None,
    fresh: bool = False,
    on_info: Callable[[SearchInfo], None] | None = None,
    **options,
) -> SearchResult:
    """``Engine.think`` for the position ``moves`` on ``workers`` processes.

    Same limits and result as Engine.think (docs/ENGINE_API.md); with workers=1 the
    result is Engine.think's in a worker process. The hard limit holds even if workers
    hang; a worker that fails or hangs is dropped and restarted for the next call; the
    move is always legal. ``pool`` defaults to a kept pool of ``workers`` processes;
    ``fresh`` clears the workers' tables first (a new game); ``options`` go to the
    scheme (``new_coordinator``). Starting worker processes takes a fraction of a
    second, counted in the time limit: make the pool beforehand
    (``default_pool(n).ready()``) when the first move's time matters.
    """
    t0 = time.perf_counter()
    options.setdefault("abortable", True)  # the pool stops a running job on "abort"
    coord = new_coordinator(
        moves, size, rule, limits, workers, scheme=scheme, fresh=fresh, on_info=on_info, **options
    )
    if pool is None:
        from gomoku.parallel.pool import default_pool  # processes: not in a Web Worker

        pool = default_pool(workers)
    if pool.size < workers:
        raise ValueError(f"the pool has {pool.size} workers, {workers} asked for")
    hard = coord.hard_cap
    pool.ready(start_s=30.0 if hard is None else hard / 2)
    return drive(coord, pool, t0)
