"""Worker processes for CPython: JSON jobs down a pipe, JSON answers back.

Each process runs ``worker_main``: it builds its tables and loads the opening book, says
``{"kind": "hello"}``, then answers jobs in order. A reader thread takes every message
as it arrives, so that an ``{"kind": "abort", sid}`` reaches the process while a job of
that search runs: the job stops within a few hundred nodes (answered "aborted") and the
search's queued jobs are skipped. Without this a search's last jobs would run on into
the opponent's time, or into our next move.
"""

from __future__ import annotations

import atexit
import json
import multiprocessing
import os
import queue
import threading
import time
from multiprocessing.connection import Connection

from gomoku.parallel.jobs import Answer, Job, shell
from gomoku.parallel.worker import STATE, run_job, warm_up


def worker_main(conn: Connection) -> None:
    """A worker process's loop, until an empty message or the end of the pipe."""

    def send(message: Answer) -> None:
        conn.send_bytes(json.dumps(message).encode())

    warm_up(STATE)
    send({"kind": "hello", "pid": os.getpid()})
    inbox: queue.SimpleQueue[Job | None] = queue.SimpleQueue()

    def read() -> None:
        try:
            while True:
                data = conn.recv_bytes()
                if not data:
                    break
                message = json.loads(data)
                if message.get("kind") == "abort":
                    STATE.abort(message.get("sid"))  # stops the running job at once
                else:
                    inbox.put(message)
        except (EOFError, OSError, ValueError):
            pass
        inbox.put(None)

    threading.Thread(target=read, name="gomoku-reader", daemon=True).start()
    while (job := inbox.get()) is not None:
        if STATE.is_aborted(job.get("sid")):
            send({**shell(job), "status": "aborted", "nodes": 0})
        else:
            send(run_job(job, send, STATE))


class WorkerPool:
    """Worker processes numbered 0..n-1, fed through pipes.

    A dead, hung or stale worker is ended (killed) and started again at the next
    ``ready``. Use as a context manager or call ``close``.
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
        self.outstanding = [0] * workers  # final answers due (the hello counts as one)
        self.starting = [False] * workers
        for i in range(workers):
            self._spawn(i)

    def _spawn(self, i: int) -> None:
        parent, child = self.ctx.Pipe()
        p = self.ctx.Process(target=worker_main, args=(child,), daemon=True, name=f"gomoku-{i}")
        p.start()
        child.close()
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
        """End worker i's process and start a new one."""
        self._end(i)
        self._spawn(i)

    def send(self, i: int, job: Job) -> None:
        self.conns[i].send_bytes(json.dumps(job).encode())
        self.outstanding[i] += 1

    def abort(self, i: int, sid: str) -> None:
        """Worker i: search ``sid`` is over (its running job stops, its queued ones are
        answered "aborted")."""
        try:
            self.conns[i].send_bytes(json.dumps({"kind": "abort", "sid": sid}).encode())
        except (OSError, AttributeError):
            pass

    def recv(self, i: int) -> Answer:
        """The next message of worker i: a job's answer (final or progress) or its
        start-up hello."""
        message = json.loads(self.conns[i].recv_bytes())
        if message.get("status") != "progress":
            self.outstanding[i] -= 1
        if message.get("kind") == "hello":
            self.starting[i] = False
        return message

    def ready(self, wait_s: float = 0.05, start_s: float = 30.0) -> None:
        """Make every worker idle: read stale answers for up to ``wait_s``, restart the
        workers still busy or dead, then wait up to ``start_s`` for the ones starting up
        (one not up by then is left to answer late)."""
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
