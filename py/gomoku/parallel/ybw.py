"""Scheme "ybw": one search split per root move across the workers.

Measured in BENCHMARKS.md ("Parallel search"): 1.5-1.6x faster to depth 6 with 2
workers (a core each, threat stages off); weaker in play at 500 ms per move (41.5%
against one worker), which is why "lazy" (lazy.py) is the default.

- One worker gets a ``prepare`` job: the engine's stages before the search (book,
  forced replies, threat searches), then iterations 1..``seed_depth`` over all root
  moves; it answers with the ordered root moves.
- From then on each iteration d is split into ``move`` jobs, one per root move ("search
  move m to depth d with window (alpha, beta)"). The first (PV) move is searched with the
  aspiration window; meanwhile the other workers search the other moves with a null
  window at the aspiration's lower bound (a speculative Young-Brothers-Wait). Once the
  PV score is known it is alpha: moves proven <= alpha are done, fail-highs are searched
  again with a window starting at their proven lower bound.
- What the coordinator knows is a (lower, upper) bound per (depth, move), so every
  answer is useful whatever window it had: an idle worker may start the next iteration
  before the current one is finished, and a straggling job may be duplicated on an idle
  worker (which also gets around a hung one). A move goes back to the worker that
  searched it before, so that its private table keeps helping.
- The coordinator decides when to start another iteration (``ITERATION_SHARE`` of the
  soft time), as the engine's search did before its time manager; it does not run the
  engine's check after the search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..evaluation import WIN_SCORE
from ..geometry import Point
from ..search import ASPIRATION
from .coordinator import Coordinator, Jobs, Sent
from .protocol import INF, Answer, as_point, is_win, result_from_dict
from .worker import SEED_DEPTH

MAX_TRIES = 4  # searches of one (depth, move) before its last score is taken as exact
BACKUP_MIN = 1.0  # s a job must have run before an idle worker duplicates it
BACKUP_FACTOR = 3.0  # ... and this many times the longest finished job of the search
ITERATION_SHARE = 0.45  # start another iteration only before this share of the soft time


@dataclass
class Bounds:
    """What is known of one root move's score at one depth."""

    lower: int = -INF
    upper: int = INF
    tries: int = 0
    pv: list[Point] = field(default_factory=list)
    running: set[int] = field(default_factory=set)

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


class YbwCoordinator(Coordinator):
    """The "ybw" scheme (see the module doc).

    ``seed_depth``: iterations done by one worker before splitting; ``pipeline``: jobs a
    worker may have queued (3 hides a relay latency of several ms)."""

    scheme = "ybw"
    options = frozenset({"seed_depth", "pipeline"})

    def __init__(self, *args, seed_depth: int = SEED_DEPTH, pipeline: int = 3, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seed_depth = max(1, seed_depth)
        self.pipeline = max(1, pipeline)
        self.split = False  # the prepare job answered: iterations are split
        self.order: list[Point] = []
        self.best: dict | None = None  # deepest finished iteration: move, score, depth, pv
        self.cur = 0  # the iteration being finished
        self.max_depth = 64
        self.search_start = 0.0
        self.soft_left: float | None = None
        self.known: dict[int, dict[Point, Bounds]] = {}
        self.owner: dict[Point, int] = {}
        self.longest_job = 0.0

    # --- the first step -----------------------------------------------------------------

    def _first_jobs(self, now: float) -> Jobs:
        return [self._prepare(0, now)]

    def _prepare(self, worker: int, now: float) -> tuple[int, dict]:
        job = {"kind": "prepare", "limits": self._think_limits(now), "seed_depth": self.seed_depth}
        return worker, self._send(worker, job, now, self._left(now))

    def _prepared(self, answer: Answer, now: float) -> None:
        if "result" in answer:  # a stage before the search decided
            self.final = result_from_dict(answer["result"])
            self.done = True
            return
        self.split = True
        self.order = [as_point(m) for m in answer["order"]]
        self.max_depth = int(answer["max_depth"])
        self.max_nodes = answer.get("max_nodes")  # the search's (seed included)
        self.search_start = now - float(answer.get("seed_ms") or 0.0) / 1000
        soft_ms, hard_ms = answer.get("soft_ms"), answer.get("hard_ms")
        self.soft_left = None if soft_ms is None else soft_ms / 1000
        self.stop_at = None if hard_ms is None else self.search_start + hard_ms / 1000
        iterations = answer.get("iterations") or []
        for it in iterations:
            self._iteration_done(
                int(it["depth"]), as_point(it["move"]), int(it["score"]), it["pv"], now
            )
        last = iterations[-1] if iterations else None
        if (
            last is None
            or len(self.order) == 1
            or int(last["depth"]) < min(self.seed_depth, self.max_depth)  # stopped early
            or self._stop_after(int(last["depth"]), int(last["score"]), now)
        ):
            self.done = True
            return
        self.cur = int(last["depth"]) + 1

    # --- the coordinator's hooks --------------------------------------------------------

    def _on_answer(self, rec: Sent, answer: Answer, now: float) -> None:
        if rec.started is not None:
            self.longest_job = max(self.longest_job, now - rec.started)
        kind = rec.job["kind"]
        if kind == "prepare" and not self.split:
            self._prepared(answer, now)
        elif kind == "move":
            self._moved(rec, answer, now)

    def _on_lost(self, worker: int, recs: list[Sent]) -> None:
        for rec in recs:
            job = rec.job
            if job["kind"] == "move":
                b = self.known.get(job["depth"], {}).get(as_point(job["move"]))
                if b is not None:
                    b.running.discard(worker)

    def _next_jobs(self, now: float) -> Jobs:
        if not self.split:
            if not self.busy_workers():  # the first step's worker failed: another one
                return [self._prepare(min(self.live), now)]
            return []
        # idle workers first, then one more job behind a running one, so that a worker
        # need not wait for the coordinator between jobs
        out: Jobs = []
        for slots in range(1, self.pipeline + 1):
            for w in sorted(self.live):
                queue = self.queue.get(w, [])
                if len(queue) < slots and not (queue and self._long(queue[-1])):
                    job = self._ybw_job(w, now, idle=slots == 1)
                    if job is None:
                        return out
                    out.append((w, job))
        return out

    def _wake_times(self, now: float) -> list[float]:
        wait = max(BACKUP_MIN, BACKUP_FACTOR * self.longest_job)
        return [
            self.jobs[q[0]].started + wait
            for q in self.queue.values()
            if q and self.jobs[q[0]].started is not None
        ]

    def _best(self, now: float):
        best = self.best
        if best is None:
            return None
        move, pv = best["move"], best["pv"]
        better = self._partial_better(best["score"])
        if better is not None:
            move, pv = better, [better]
        return self.make_result(move, best["score"], best["depth"], pv, now)

    # --- iterations ---------------------------------------------------------------------

    def _may_start(self, now: float) -> bool:
        """Is there soft time left to start another iteration?"""
        return self.soft_left is None or now - self.search_start <= self.soft_left * ITERATION_SHARE

    def _stop_after(self, depth: int, score: int, now: float) -> bool:
        """The reasons not to start the next iteration."""
        if is_win(score) and WIN_SCORE - abs(score) <= depth:
            return True  # proven within the horizon
        return depth >= self.max_depth or not self._may_start(now)

    def _iteration_done(self, depth: int, move: Point, score: int, pv: list, now: float) -> None:
        self.best = {"move": move, "score": score, "depth": depth, "pv": [as_point(p) for p in pv]}
        if move in self.order:
            self.order.remove(move)
            self.order.insert(0, move)
        self._report(depth, score, self.best["pv"], now)

    def _table(self, depth: int) -> dict[Point, Bounds]:
        t = self.known.get(depth)
        if t is None:
            t = self.known[depth] = {m: Bounds() for m in self.order}
        return t

    @staticmethod
    def _alpha(table: dict[Point, Bounds], order: list[Point]) -> tuple[int | None, Point | None]:
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
                if b.tries == 0 and depth >= 3 and not is_win(prev):
                    window = (prev - ASPIRATION, prev + ASPIRATION)
                else:
                    window = (
                        b.lower - 1 if b.lower > -INF else -INF,
                        b.upper + 1 if b.upper < INF else INF,
                    )
                out.append((0, pv, *window))
            spec = prev - 1 if is_win(prev) else prev - ASPIRATION
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
        if best is None or depth > self.max_depth or not self._may_start(now):
            return None
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
            _, move, alpha, beta = next(mine, group[0])
        else:
            backup = self._backup(now) if idle else None
            if backup is None:
                return None
            depth, move, alpha, beta = backup
        self._table(depth)[move].running.add(worker)
        self.owner[move] = worker
        budget = self._budget(now)
        max_nodes = None
        if self.max_nodes is not None:
            max_nodes = max((self.max_nodes - self.total_nodes()) // max(len(self.live), 1), 1)
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
            b = self._table(job["depth"])[as_point(job["move"])]
            if len(b.running) == 1:
                return job["depth"], as_point(job["move"]), job["alpha"], job["beta"]
        return None

    def _moved(self, rec: Sent, answer: Answer, now: float) -> None:
        job = rec.job
        depth, move = job["depth"], as_point(job["move"])
        b = self._table(depth)[move]
        b.running.discard(rec.worker)
        if answer.get("status") != "ok":
            return  # stopped by a limit: nothing learnt
        s, a, beta = int(answer["score"]), job["alpha"], job["beta"]
        lo, up = (-INF, s) if s <= a else (s, INF) if s >= beta else (s, s)
        b.tries += 1
        new_lo, new_up = max(b.lower, lo), min(b.upper, up)
        if new_lo > new_up:  # search instability: believe the newest answer
            new_lo, new_up = lo, up
        if b.tries >= MAX_TRIES and new_lo != new_up:
            new_lo = new_up = s
        b.lower, b.upper = new_lo, new_up
        if (a < s < beta) or not b.pv:
            b.pv = [as_point(p) for p in answer.get("pv") or [move]]
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
