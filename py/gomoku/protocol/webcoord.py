"""The web worker's side of a parallel search: the coordinator (gomoku.parallel) kept
between "coord" messages, the page relaying its jobs to the search workers:

    {type: "coord", id, op: "start", size?, rule?, first?, moves, limits, workers, reset?,
     scheme?}
    {type: "coord", id, op: "result", worker, result}   a search worker's answer (final
                                                        or progress)
    {type: "coord", id, op: "failure", worker}          a search worker died or erred
    {type: "coord", id, op: "tick"}                     deadlines, hung jobs
    {type: "coord", id, op: "finish"}                   stop now with the best so far
        -> {type: "coord", id, sid, jobs: [[worker, job], ...], done, wait, busy, dropped,
            infos, result?}
           The coordinator of a parallel search (gomoku.parallel.new_coordinator; scheme
           "lazy" unless `scheme` names another of gomoku.parallel.SCHEMES) kept here
           between messages; the page posts each job to search worker `worker` (which
           answers with gomoku.parallel.run_job_json) and relays the answers back. `wait`
           is the number of seconds after which to send a tick at the latest (null: no
           deadline), `busy` the workers with jobs out, `dropped` those given up on
           (failed, hung or erring: the page ends and later restarts them), `infos` the
           {type: "info", ...} of the iterations finished since the last reply. Once
           `done`, `result` is the move as a think would answer it ({type: "result",
           ...}); the coordinator is then forgotten. Its clock is this worker's: seconds
           since "start".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gomoku.engine import Limits, SearchInfo, Session
from gomoku.parallel import DEFAULT_SCHEME, SCHEMES, Coordinator, Jobs, new_coordinator
from gomoku.protocol.webjson import (
    COORD_START_KEYS,
    COORD_STEP_KEYS,
    BadMessage,
    Message,
    check_keys,
    is_int,
    jsonable,
    read_limits,
    read_search_first,
    result_reply,
    scored,
)

MAX_WORKERS = 16
COORD_OPS = ("start", "result", "failure", "tick", "finish")  # a "coord" message's op


@dataclass
class Search:
    """A parallel search under way: its coordinator, its clock's start (perf_counter),
    the iterations it reported since the last reply, and the session it plays in."""

    coord: Coordinator
    game: Session
    first: str  # the colour of the game's first move: it names the scores' colours
    t0: float = field(default_factory=time.perf_counter)
    infos: list[Message] = field(default_factory=list)


def start(message: Message, position: Callable[[Message], Session]) -> Search:
    """A new parallel search of the message's position (``position`` sets the session to
    it once the message's own fields are checked)."""
    check_keys(message, COORD_START_KEYS, "coord")
    workers = message.get("workers")
    if not is_int(workers) or not 1 <= workers <= MAX_WORKERS:
        raise BadMessage(f"workers must be an integer in 1..{MAX_WORKERS}, got {workers!r}")
    scheme = message.get("scheme", DEFAULT_SCHEME)
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise BadMessage(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
    limits = read_limits(message)
    if not isinstance(limits, Limits):
        raise BadMessage("a level plays on the engine worker alone: send it as a think")
    first = read_search_first(message)
    game = position(message)
    if game.is_over:
        raise BadMessage("the game is already over")
    infos: list[Message] = []
    searched = len(game.moves)

    def on_info(info: SearchInfo) -> None:
        infos.append({"type": "info", **scored(info.to_dict(), game, searched, first)})

    coord = new_coordinator(
        list(game.moves),
        game.size,
        game.rule,
        limits,
        workers,
        scheme=scheme,
        fresh=bool(message.get("reset", False)),
        on_info=on_info,
        abortable=False,  # a Web Worker cannot be interrupted
    )
    return Search(coord, game, first, infos=infos)


def step(search: Search | None, message: Message) -> Jobs:
    """The jobs of ``search`` after a "result", "failure", "tick" or "finish" message."""
    op = message.get("op")
    if op not in COORD_OPS[1:]:
        raise BadMessage(f"coord.op must be {', '.join(COORD_OPS)}, got {op!r}")
    check_keys(message, COORD_STEP_KEYS, "coord")
    if search is None:
        raise BadMessage("no parallel search is running")
    coord = search.coord
    now = time.perf_counter() - search.t0
    if op in ("result", "failure"):
        worker = message.get("worker")
        if not is_int(worker) or not 0 <= worker < coord.workers:
            raise BadMessage(f"worker must be an integer in 0..{coord.workers - 1}")
        if op == "failure":
            return coord.on_failure(worker, now, f"worker {worker} failed")
        result = message.get("result")
        if not isinstance(result, dict):
            raise BadMessage("result must be an object (a search worker's answer)")
        return coord.on_result(worker, result, now)
    if op == "finish":
        coord.stop()
        return []
    return coord.on_tick(now)


def reply(search: Search, mid: str | int, jobs: Jobs) -> Message:
    """The "coord" reply; once the search is done, its move played in the session."""
    coord = search.coord
    now = time.perf_counter() - search.t0
    infos = list(search.infos)
    search.infos.clear()
    out: Message = {
        "type": "coord",
        "id": mid,
        "sid": coord.sid,
        "jobs": jsonable([[w, job] for w, job in jobs]),
        "done": bool(coord.done),
        "wait": None if coord.done else coord.wait_time(now),
        "busy": list(coord.busy_workers()),
        "dropped": sorted(coord.dropped),
        "infos": [{**i, "id": mid} for i in infos],
    }
    if coord.done:
        played = search.game.accept(coord.result(now))
        out["result"] = result_reply(played, search.game, mid, search.first)
    return out
