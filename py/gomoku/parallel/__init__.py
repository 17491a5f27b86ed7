"""Parallel search over workers that share nothing but messages.

Workers are separate processes (CPython) or separate Web Workers, each with its own
Pyodide (the page; GitHub Pages gives no SharedArrayBuffer). They share no memory and
no transposition table: everything goes through JSON-ready *jobs* and *answers*. The
parts, each readable alone:

- ``protocol.py``: the jobs and answers, and their conversions (limits, results).
- ``worker.py``: the worker side: ``run_job(job)`` / ``run_job_json(text)`` do one job
  and answer it; a worker keeps its Engine (tables, caches) from job to job.
- ``coordinator.py``: what every scheme's coordinator does: pure logic, no clock, no
  I/O; the driver calls ``start``, ``on_result``, ``on_failure``, ``on_tick`` and sends
  the jobs they return; ``done`` and ``result`` give the move.
- ``lazy.py``: the default scheme: ``Engine.think`` on one worker, a plain iterative
  deepening beside it from the first millisecond, the deeper result (where the think's
  plan allows its move) is played.
- ``ybw.py``: one search split per root move (faster to a fixed depth; weaker in play
  at 500 ms per move, BENCHMARKS.md).
- ``pool.py``: worker processes for CPython; ``driver.py``: ``parallel_think`` (the
  Gomocup brain's ``INFO thread_num``), ``drive`` and ``new_coordinator``.
- ``bench.py``: a simulator (a core per worker, virtual time) and the benchmark behind
  ``python -m gomoku.parallel bench``.

The page (web/parallel-client.js) keeps the coordinator in its engine worker
(gomoku.webapi's "coord" messages) and relays jobs and answers to N search workers
(web/worker.js?role=search, which answer with ``run_job_json``).
"""

from .coordinator import HANG_GRACE, MESSAGE_MARGIN, Coordinator
from .driver import DEFAULT_SCHEME, SCHEMES, drive, new_coordinator, parallel_think
from .lazy import LazyCoordinator
from .pool import WorkerPool, default_pool, worker_main
from .protocol import INF, limits_from_dict, limits_to_dict, result_from_dict
from .worker import SEED_DEPTH, WorkerState, run_job, run_job_json
from .ybw import YbwCoordinator

__all__ = [
    "DEFAULT_SCHEME",
    "HANG_GRACE",
    "INF",
    "MESSAGE_MARGIN",
    "SCHEMES",
    "SEED_DEPTH",
    "Coordinator",
    "LazyCoordinator",
    "WorkerPool",
    "WorkerState",
    "YbwCoordinator",
    "default_pool",
    "drive",
    "limits_from_dict",
    "limits_to_dict",
    "new_coordinator",
    "parallel_think",
    "result_from_dict",
    "run_job",
    "run_job_json",
    "worker_main",
]
