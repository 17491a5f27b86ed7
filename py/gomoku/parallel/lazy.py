"""Scheme "lazy": the single engine on one worker, a plain search beside it, the deeper wins.

Lazy SMP without its shared table (workers share nothing but messages here):

- Worker 0 gets a ``think`` job: ``Engine.think`` exactly as one worker runs it (book,
  forced replies, our VCF/VCT, the defence against the opponent's threats, the search
  with the engine's own time rule, the check after the search). Its answer ends the
  search, so the move comes when one worker's would.
- Worker 1 gets a ``search`` job at the same moment: iterative deepening over the same
  root moves with no book and no threat stages, so it is already searching while
  worker 0 is in its threat stages (up to 45% of the soft time); it reports every
  finished iteration.
- When the think answers, its move is played unless the helper has finished a deeper
  iteration whose move the think's plan allows: when the opponent has no threat, any of
  the plan's root moves; against a threat only a move shown to stop it. A move from a
  stage before the search (book, forced, threat) and a winning score are never
  replaced, and without the plan (the think did not report one) nothing is.

So with a core per worker, two workers play the single engine's move, or the helper's
where it finished a deeper iteration first and the plan allows its move: a deeper search
of the same root, not a different engine. Workers beyond two stand by: a spare
takes over the think or the helper of a worker that fails. A failed thinker without a
spare is replaced by the helper once it is idle; until then the search ends at the
move's soft target with the deepest result known.

``abortable``: the driver can stop a running job (CPython processes can, pool.py; a Web
Worker cannot). The helper then searches until the think answers, and is cut there;
otherwise it follows the engine's own time rule from the move's soft target, so that it
ends about when the think does rather than running on into the next move.

Why not a split of one search per root move (young brothers wait, "ybw", which this
package had until the lab was split off): measured at 500 ms per move it lost to one
worker (41.5%, docs/benchmarks-history.md): its threat stages and first iterations ran on
one worker while the other waited, its split iterations searched slower per node than one
search (each worker's table missed what the other found), and it had no check after the
search. It was deleted; the git history keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gomoku.core.geometry import Point
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchResult
from gomoku.parallel.coordinator import MESSAGE_MARGIN, Coordinator, Jobs, Sent
from gomoku.parallel.jobs import Answer, as_point, is_win, limits_to_dict, ms, result_from_dict

MAX_DEPTH = 64  # the helper's depth limit when nothing else bounds it but the hard cap


@dataclass
class Found:
    """A finished iteration reported by a worker."""

    depth: int
    move: Point
    score: int
    pv: list[Point]
    thinker: bool  # from the think job (else the helper)


@dataclass
class Plan:
    """What the think's ``Engine.prepare`` left to its search."""

    root: set[Point]
    safe: set[Point]
    threat: str | None


class LazyCoordinator(Coordinator):
    """The "lazy" scheme (see the module doc); with one worker it is ``Engine.think``."""

    scheme = "lazy"
    options = frozenset({"abortable"})

    def __init__(self, *args, abortable: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.abortable = abortable
        self.plan: Plan | None = None
        self.found: list[Found] = []
        self.helped = False  # the helper answered (its own limits ended it)

    # --- jobs ---------------------------------------------------------------------------

    def _first_jobs(self, now: float) -> Jobs:
        out = [self._think(0, now)]
        if self.workers > 1:
            out.append(self._help(1, now))
        return out

    def _think(self, worker: int, now: float) -> tuple[int, dict]:
        job = {"kind": "think", "limits": self._think_limits(now)}
        return worker, self._send(worker, job, now, self._left(now))

    def _help(self, worker: int, now: float) -> tuple[int, dict]:
        job = {"kind": "search", "limits": self._help_limits(now)}
        return worker, self._send(worker, job, now, self._left(now))

    def _help_limits(self, now: float) -> dict:
        """The helper's limits: no book, no threat stages; until the hard cap when it can
        be aborted, else the engine's own time rule from the soft target."""
        lim = self.limits
        soft = None
        if not self.abortable and self.soft_cap is not None:
            soft = max(self.soft_cap - now, 0.001)
        hard = None
        if self.hard_cap is not None:
            hard = max(self.hard_cap - now - 2 * MESSAGE_MARGIN, 0.001)
        depth = lim.depth
        if soft is None and depth is None and lim.nodes is None:
            depth = MAX_DEPTH  # the hard cap alone bounds it
        helper = Limits(
            time_ms=ms(soft),
            hard_ms=ms(hard),
            depth=depth,
            nodes=lim.nodes,
            use_book=False,
            use_threats=False,
        )
        return limits_to_dict(helper)

    def _next_jobs(self, now: float) -> Jobs:
        kinds = {rec.job["kind"] for rec in self.jobs.values()}
        idle = self._idle()
        out = []
        if "think" not in kinds:  # its worker was lost (the think's answer ends the search)
            if idle:
                out.append(self._think(idle.pop(0), now))
            elif self.stop_at is None:
                self.stop_at = self.soft_cap if self.soft_cap is not None else self.hard_cap
                if self.stop_at is not None and now >= self.stop_at:
                    self.done = True
                    return []
        if "search" not in kinds and not self.helped and idle:
            out.append(self._help(idle.pop(0), now))
        return out

    # --- answers ------------------------------------------------------------------------

    def _on_progress(self, rec: Sent, answer: Answer, now: float) -> None:
        thinker = rec.job["kind"] == "think"
        if thinker and answer.get("plan"):
            self._take_plan(answer["plan"])
        if answer.get("iteration"):
            self._take_iteration(answer["iteration"], thinker, now)

    def _on_answer(self, rec: Sent, answer: Answer, now: float) -> None:
        if rec.job["kind"] == "search":
            self.helped = True
            if answer.get("best"):
                self._take_iteration(answer["best"], False, now)
            return
        if answer.get("plan"):
            self._take_plan(answer["plan"])
        if "result" in answer:  # (an aborted think has none: _next_jobs sends another)
            self.final = self._choose(result_from_dict(answer["result"]), now)
            self.done = True

    def _take_plan(self, plan: dict) -> None:
        self.plan = Plan(
            {as_point(p) for p in plan.get("root") or []},
            {as_point(p) for p in plan.get("safe") or []},
            plan.get("threat"),
        )

    def _take_iteration(self, it: dict, thinker: bool, now: float) -> None:
        pv = [as_point(p) for p in it.get("pv") or [it["move"]]]
        found = Found(int(it["depth"]), as_point(it["move"]), int(it["score"]), pv, thinker)
        self.found.append(found)
        self._report(found.depth, found.score, found.pv, now)

    # --- the move -----------------------------------------------------------------------

    def allows(self, move: Point, strict: bool = True) -> bool:
        """May the helper's ``move`` be played, by the think's plan? Without a plan:
        ``not strict`` (strict when the think answered without reporting one)."""
        plan = self.plan
        if plan is None:
            return not strict
        if plan.threat:
            return move in plan.safe
        return move in plan.root

    def _choose(self, thought: SearchResult, now: float) -> SearchResult:
        """The think's result, or the helper's deeper iteration where the plan allows."""
        if thought.source == "search" and not is_win(thought.score):
            deeper = [
                f
                for f in self.found
                if not f.thinker and f.depth > thought.depth and self.allows(f.move)
            ]
            if deeper:
                f = max(deeper, key=lambda f: f.depth)
                return self.make_result(f.move, f.score, f.depth, f.pv, now)
        nodes = self.total_nodes()
        return replace(
            thought,
            nodes=nodes,
            nps=int(nodes / now) if now > 0 else 0,
            time_ms=round(now * 1000, 2),
        )

    def _best(self, now: float) -> SearchResult | None:
        """Before the think answered (hard cap, its worker lost): the deepest iteration
        known, the think's own or an allowed one of the helper's."""
        usable = [f for f in self.found if f.thinker or self.allows(f.move, strict=False)]
        if not usable:
            return None
        f = max(usable, key=lambda f: (f.depth, f.thinker))
        return self.make_result(f.move, f.score, f.depth, f.pv, now)
