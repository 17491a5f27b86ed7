"""The coordinator's common part: jobs out, answers in, deadlines, failures; no clock, no I/O.

A scheme (lazy.py) subclasses ``Coordinator`` and decides which jobs to hand
out and what the answers mean; this class keeps the books and holds the limits.

The driver's side of the contract (driver.py for processes, gomoku.protocol.webapi for the
page): ``start(now)``, ``on_result(worker, answer, now)``, ``on_failure(worker, now)``
and ``on_tick(now)`` each return the jobs to send, as ``[(worker, job), ...]``; every job
goes to the worker named with it, which answers its jobs in the order sent; every answer
(progress ones included) comes back through ``on_result``, a dead worker through
``on_failure`` (an "error" answer counts as one). ``now`` is seconds since the search
started, read by the driver; call ``on_tick`` at the latest after ``wait_time(now)``.
Once ``done``, ``result(now)`` is the move (always legal), and the driver sends
``{kind: "abort", sid}`` to the ``busy_workers()``. Workers in ``dropped`` (failed, hung,
erring) are the driver's to end and restart.

The hard limit (``Limits.budget``) is never passed: at ``hard_cap`` the search ends with
the best move known, whatever the workers are doing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace

from gomoku.core.errors import IllegalMoveError
from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchInfo, SearchResult
from gomoku.game.board import Board
from gomoku.parallel.jobs import Answer, Job, limits_to_dict
from gomoku.search.movegen import generate

MESSAGE_MARGIN = 0.010  # s kept between a job's budget and the coordinator's deadline
HANG_GRACE = 1.0  # s past its own budget after which a silent job counts as hung

Jobs = list[tuple[int, Job]]


@dataclass
class Sent:
    """A job handed out and not answered yet."""

    worker: int
    job: Job
    sent: float
    budget: float | None  # seconds the job may run (None: no limit)
    started: float | None = None  # when the worker began it (None: still queued)


class Coordinator:
    """One parallel search over ``workers`` workers numbered 0..workers-1 (see the
    module doc for the driver's contract).

    ``fresh``: the workers clear their tables first (a new game); ``sid``: the search
    id (random by default); ``on_info``: called with a SearchInfo each time the search
    knows a deeper finished iteration (like Engine.think's)."""

    scheme = ""
    options: frozenset[str] = frozenset()  # the scheme's own keyword arguments

    def __init__(
        self,
        moves: list[Point] | list[list[int]],
        size: int = DEFAULT_SIZE,
        rule: str | int | Rule = Rule.FREESTYLE,
        limits: Limits | None = None,
        workers: int = 2,
        *,
        fresh: bool = False,
        sid: str | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("at least one worker is needed")
        board = Board.from_moves([tuple(m) for m in moves], size, rule)
        if board.winner or board.is_full():
            raise IllegalMoveError("the game is over")
        self.limits = limits or Limits()
        self.times = self.limits.times(board.size * board.size - board.ply)
        soft, hard = self.times.seconds()
        if soft is None and self.limits.depth is None and self.limits.nodes is None:
            raise ValueError("think needs a time, depth or node limit")
        self.soft_cap = soft  # seconds from the start: the move's soft target
        self.hard_cap = hard  # never exceeded
        self.board = board
        self.fallback = board.point(generate(board, None)[0])
        self.base = {
            "sid": sid or uuid.uuid4().hex[:12],
            "size": board.size,
            "rule": int(board.rule),
            "moves": [list(m) for m in board.moves],
            "fresh": bool(fresh),
        }
        self.sid: str = self.base["sid"]
        self.workers = workers
        self.on_info = on_info
        self.live: set[int] = set(range(workers))
        self.dropped: set[int] = set()  # workers given up on (the driver ends them)
        self.queue: dict[int, list[int]] = {}  # worker -> jids sent, oldest first
        self.jobs: dict[int, Sent] = {}
        self.next_jid = 0
        self.nodes = 0  # nodes of answered jobs
        self.running_nodes: dict[int, int] = {}  # jid -> nodes its progress reported
        self.done = False
        self.final: SearchResult | None = None
        self.errors: list[str] = []
        self.trace: list[tuple] = []  # per answered job: started, answered, worker, kind, ...
        self.stop_at: float | None = None  # the scheme's own deadline (seconds)
        self.max_nodes: int | None = None  # node budget the coordinator enforces
        self.reported = 0  # deepest iteration passed to on_info

    # --- the driver's calls -------------------------------------------------------------

    def start(self, now: float = 0.0) -> Jobs:
        """The first jobs."""
        return self._first_jobs(now)

    def on_result(self, worker: int, answer: Answer, now: float) -> Jobs:
        """Take one answer (final or progress); returns the jobs to send next."""
        if answer.get("sid") != self.sid or self.done:
            return self._after(now)  # an earlier search's answer, or too late
        jid = answer.get("jid")
        queue = self.queue.get(worker, [])
        rec = self.jobs.get(jid) if isinstance(jid, int) else None
        if rec is None or jid not in queue:
            return self._after(now)
        if answer.get("status") == "progress":
            if rec.started is None:
                rec.started = now
            self.running_nodes[jid] = int(answer.get("nodes") or 0)
            self._on_progress(rec, answer, now)
            return self._after(now)
        del self.jobs[jid]
        queue.remove(jid)
        self.running_nodes.pop(jid, None)
        if queue:
            self.jobs[queue[0]].started = now  # the worker goes on with its next job
        self.nodes += int(answer.get("nodes") or 0)
        if answer.get("status") == "error":
            self.errors.append(str(answer.get("error")))
            self.jobs[jid] = rec  # back, so that the scheme hands it out again
            queue.insert(0, jid)
            self._lose(worker)
            return self._after(now)
        job = rec.job
        self.trace.append(
            (
                round(rec.started if rec.started is not None else rec.sent, 3),
                round(now, 3),
                worker,
                job["kind"],
                job.get("depth"),
                job.get("move"),
                job.get("alpha"),
                job.get("beta"),
                answer.get("score"),
                answer.get("nodes"),
                answer.get("ms"),
                answer.get("cpuMs"),
            )
        )
        self._on_answer(rec, answer, now)
        return self._after(now)

    def on_failure(self, worker: int, now: float, reason: str = "") -> Jobs:
        """A worker died or stopped answering: drop it and go on with the others."""
        if reason:
            self.errors.append(reason)
        self._lose(worker)
        return self._after(now)

    def on_tick(self, now: float) -> Jobs:
        """Check the deadlines and hung jobs; call it at least every ``wait_time``."""
        for w, queue in list(self.queue.items()):
            rec = self.jobs.get(queue[0]) if queue else None
            if rec is not None and rec.budget is not None and rec.started is not None:
                if now > rec.started + rec.budget + HANG_GRACE:
                    self.errors.append(f"worker {w} hung")
                    self._lose(w)
        return self._after(now)

    def wait_time(self, now: float) -> float | None:
        """Seconds the driver may wait for answers before calling ``on_tick``."""
        times = [t for t in (self.stop_at, self.hard_cap) if t is not None]
        for queue in self.queue.values():
            rec = self.jobs[queue[0]] if queue else None
            if rec is not None and rec.budget is not None and rec.started is not None:
                times.append(rec.started + rec.budget + HANG_GRACE)
        times += self._wake_times(now)
        if not times:
            return None
        return max(min(times) - now, 0.0)

    def busy_workers(self) -> list[int]:
        """Workers with a job of this search still out."""
        return sorted(w for w, q in self.queue.items() if q)

    def stop(self) -> None:
        """End the search now (the driver's deadline): ``result`` gives the best so far."""
        self.done = True

    def result(self, now: float) -> SearchResult:
        """The answer: the final one when done, else the best so far. Always legal."""
        if self.final is not None:
            return self.final
        best = self._best(now)
        if best is not None:
            return best
        return self.make_result(self.fallback, 0, 0, [self.fallback], now)

    def total_nodes(self) -> int:
        """Nodes of answered jobs plus what the running ones reported."""
        return self.nodes + sum(self.running_nodes.values())

    def make_result(
        self, move: Point, score: int, depth: int, pv: list, now: float, source: str = "search"
    ) -> SearchResult:
        """A SearchResult with this search's node count and time."""
        nodes = self.total_nodes()
        return SearchResult(
            move,
            score,
            depth,
            nodes,
            int(nodes / now) if now > 0 else 0,
            [tuple(p) for p in pv],
            source,
            round(now * 1000, 2),
        )

    # --- for the schemes ----------------------------------------------------------------

    def _first_jobs(self, now: float) -> Jobs:
        raise NotImplementedError

    def _on_progress(self, rec: Sent, answer: Answer, now: float) -> None:
        """A progress answer of a running job."""

    def _on_answer(self, rec: Sent, answer: Answer, now: float) -> None:
        """The final answer of a job (not an error: those drop the worker)."""
        raise NotImplementedError

    def _on_lost(self, worker: int, recs: list[Sent]) -> None:
        """Worker dropped; ``recs`` are the jobs it had (they are no longer out)."""

    def _next_jobs(self, now: float) -> Jobs:
        """Jobs for the workers now (idle ones, or a queue behind a running job)."""
        return []

    def _wake_times(self, now: float) -> list[float]:
        """Extra times (seconds) at which the scheme wants an ``on_tick``."""
        return []

    def _best(self, now: float) -> SearchResult | None:
        """The best move known before the search is done (None: use the fallback)."""
        return None

    def _send(self, worker: int, job: Job, now: float, budget: float | None) -> Job:
        """Record ``job`` as sent to ``worker``; returns the full job to send."""
        jid = self.next_jid
        self.next_jid += 1
        full = {**self.base, **job, "jid": jid}
        queue = self.queue.setdefault(worker, [])
        self.jobs[jid] = Sent(worker, full, now, budget, now if not queue else None)
        queue.append(jid)
        return full

    def _idle(self) -> list[int]:
        return sorted(w for w in self.live if not self.queue.get(w))

    def _lose(self, worker: int) -> None:
        """Drop a worker; its jobs are handed to the scheme (``_on_lost``)."""
        self.live.discard(worker)
        self.dropped.add(worker)
        recs = []
        for jid in self.queue.pop(worker, []):
            recs.append(self.jobs.pop(jid))
            self.running_nodes.pop(jid, None)
        self._on_lost(worker, recs)

    def _after(self, now: float) -> Jobs:
        """Stop when it is time, else hand out work."""
        if self.done:
            return []
        if (
            not self.live
            or (self.hard_cap is not None and now >= self.hard_cap)
            or (self.stop_at is not None and now >= self.stop_at)
            or (self.max_nodes is not None and self.total_nodes() >= self.max_nodes)
        ):
            self.done = True
            return []
        out = self._next_jobs(now)
        if not out and not self.busy_workers():
            self.done = True  # nothing left to do
        return out

    def _left(self, now: float) -> float | None:
        """Seconds to the hard cap (None: no cap)."""
        return None if self.hard_cap is None else self.hard_cap - now

    def _budget(self, now: float) -> float | None:
        """Seconds a job sent now may run before the scheme's deadline or the hard cap."""
        ends = [t for t in (self.stop_at, self.hard_cap) if t is not None]
        return None if not ends else max(min(ends) - now - MESSAGE_MARGIN, 0.001)

    def _think_limits(self, now: float) -> dict:
        """The limits for a job that runs the engine's own stages (``think``, ``prepare``)
        sent at ``now``: what is left of the move's optimum and maximum (the controls they
        came from are not passed on: the clock is spread once, here), answering before the
        hard cap."""
        optimum = self.times.optimum_ms
        if optimum is not None and now > 0:
            optimum = max(optimum - now * 1000, 1.0)
        hard = None
        if self.hard_cap is not None:
            hard = max((self.hard_cap - now - 2 * MESSAGE_MARGIN) * 1000, 1.0)
        limits = replace(
            self.limits,
            time_ms=optimum,
            hard_ms=hard,
            **{control: None for control in self.limits.controls()},
        )
        return limits_to_dict(limits)

    def _report(self, depth: int, score: int, pv: list, now: float) -> None:
        """Pass a finished iteration to on_info if it is deeper than any reported."""
        if self.on_info is None or depth <= self.reported or not pv:
            return
        self.reported = depth
        nodes = self.total_nodes()
        self.on_info(
            SearchInfo(
                depth,
                score,
                nodes,
                int(nodes / max(now, 1e-9)),
                [tuple(p) for p in pv],
                round(now * 1000, 2),
            )
        )
