"""Parallel search over workers that share nothing but messages.

Workers are separate processes (CPython) or separate Web Workers, each with its own
Pyodide (the page; GitHub Pages gives no SharedArrayBuffer). They share no memory and
no transposition table: everything goes through JSON-ready *jobs* and *answers*. The
parts, each readable alone:

- ``jobs.py``: the jobs and answers, and their conversions (limits, results).
- ``worker.py``: the worker side: ``run_job(job)`` / ``run_job_json(text)`` do one job
  and answer it; a worker keeps its Engine (tables, caches) from job to job.
- ``coordinator.py``: what every scheme's coordinator does: pure logic, no clock, no
  I/O; the driver calls ``start``, ``on_result``, ``on_failure``, ``on_tick`` and sends
  the jobs they return; ``done`` and ``result`` give the move.
- ``lazy.py``: the scheme: ``Engine.think`` on one worker, a plain iterative deepening
  beside it from the first millisecond, the deeper result (where the think's plan allows
  its move) is played.
- ``driver.py``: ``new_coordinator``, ``drive``, ``parallel_think`` and ``GameSearch``
  (the Gomocup brain's ``INFO thread_num``); ``pool.py``: worker processes for CPython,
  imported only by what starts processes (``from gomoku.parallel.pool import
  default_pool``), so a Web Worker never loads multiprocessing or threading.

The simulator and benchmark of parallel search are in the lab
(``python -m gomoku_lab.parallel_cli bench``).

The page (web/engine/parallel-client.js) keeps the coordinator in its engine worker
(gomoku.protocol.webapi's "coord" messages) and relays jobs and answers to N search workers
(web/engine/worker.js?role=search, which answer with ``run_job_json``).
"""

from gomoku.parallel.coordinator import HANG_GRACE, MESSAGE_MARGIN, Coordinator, Jobs
from gomoku.parallel.driver import (
    DEFAULT_SCHEME,
    SCHEMES,
    GameSearch,
    drive,
    new_coordinator,
    parallel_think,
)
from gomoku.parallel.jobs import INF, limits_from_dict, limits_to_dict, result_from_dict
from gomoku.parallel.lazy import LazyCoordinator
from gomoku.parallel.worker import WorkerState, run_job, run_job_json

__all__ = [
    "DEFAULT_SCHEME",
    "HANG_GRACE",
    "INF",
    "Jobs",
    "MESSAGE_MARGIN",
    "SCHEMES",
    "Coordinator",
    "GameSearch",
    "LazyCoordinator",
    "WorkerState",
    "drive",
    "limits_from_dict",
    "limits_to_dict",
    "new_coordinator",
    "parallel_think",
    "result_from_dict",
    "run_job",
    "run_job_json",
]
