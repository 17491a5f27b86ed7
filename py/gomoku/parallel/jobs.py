"""What crosses between a coordinator and its workers: JSON-ready dicts, nothing else.

A *job* is a dict the coordinator hands to one worker; every job carries

    kind, sid (the search's id), jid (the job's number in that search), size, rule,
    moves ([[x, y], ...], black first), fresh (true: the worker starts a new game,
    clearing its transposition table, before the first job of this search)

plus what its kind needs (JOB_KEYS):

- ``think``   + limits: ``Engine.think`` (the single engine, every stage). Answers
  ``result`` (a SearchResult, ``result_to_dict``) and ``plan`` (what ``Engine.prepare``
  left to the search, see ``plan_dict``; null when a stage before the search decided).
- ``search``  + limits: ``Engine.prepare`` with book and threat stages off (the root moves,
  symmetric ones dropped), then ``Searcher.search`` over them. Answers ``best``, its
  deepest finished iteration (see ``iteration_dict``; null if none finished).

A worker answers its jobs one at a time, in the order received. The final answer of a
job has kind, sid, jid, status ("ok"; "stopped": a limit cut it short; "aborted": its
search was aborted; "error", with the text in ``error``), nodes, ms and cpuMs (time in
the worker). Before it, a ``think`` or ``search`` job may send any number of *progress*
answers: status "progress", nodes so far, and either ``iteration`` (a finished
iteration) or ``plan``.

One control message goes the other way: ``{kind: "abort", sid}`` tells a worker that
search ``sid`` is over: it skips that search's queued jobs (answering them "aborted") and,
where the transport allows it (CPython processes; a Web Worker cannot be interrupted),
stops the running one at once.

Times in jobs are budgets in ms counted from when the worker starts the job, so no
clocks need to agree. Keys are camelCase, as everywhere on the page's wire (a job's
limits: ``limits_to_dict``); a job with a key its kind does not know is answered "error".
docs/PROTOCOL.md lists them all.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from gomoku.core.geometry import Point
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchResult
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD

INF = WIN_SCORE + 1  # a window bound beyond every score (JSON has no infinity)

Job = dict[str, Any]
Answer = dict[str, Any]
JOB_KEYS = {
    kind: frozenset({"kind", "sid", "jid", "size", "rule", "moves", "fresh", "limits"})
    for kind in ("think", "search")
}


# Limits' fields as a job's limits name them: camelCase, and the page's own words where
# a think's limits have them (book, threats, multiPv: gomoku.protocol.webjson)
LIMIT_NAMES = {"use_book": "book", "use_threats": "threats", "multipv": "multiPv"}


def limit_key(name: str) -> str:
    """A Limits field's key in a job: ``time_ms`` -> ``timeMs``, ``use_book`` -> ``book``."""
    head, *rest = name.split("_")
    return LIMIT_NAMES.get(name, head + "".join(w.capitalize() for w in rest))


def limits_to_dict(limits: Limits) -> dict:
    """Limits as a job's JSON-ready limits (every field, keys as ``limit_key`` names them)."""
    return {limit_key(k): v for k, v in asdict(limits).items()}


def limits_from_dict(d: dict | None) -> Limits:
    """Limits from a job's limits (missing keys default); ValueError names an unknown key."""
    names = {limit_key(f.name): f.name for f in fields(Limits)}
    unknown = sorted(str(k) for k in (d or {}) if k not in names)
    if unknown:
        raise ValueError(f"unknown field(s) in a job's limits: {', '.join(unknown)}")
    return Limits(**{names[k]: v for k, v in (d or {}).items()})


def result_to_dict(result: SearchResult) -> dict:
    """A SearchResult as a job's answer carries it (``to_dict()``, its time as ``timeMs``)."""
    d = result.to_dict()
    d["timeMs"] = d.pop("time_ms")
    return d


def result_from_dict(d: dict) -> SearchResult:
    """A SearchResult from its ``result_to_dict`` form."""
    return SearchResult(
        tuple(d["move"]),
        int(d["score"]),
        int(d["depth"]),
        int(d["nodes"]),
        int(d.get("nps", 0)),
        [tuple(p) for p in d.get("pv", [])],
        d.get("source", "search"),
        float(d.get("timeMs", 0.0)),
    )


def points(board: Board, cells: list[int]) -> list[list[int]]:
    """Board cells as [x, y] lists."""
    return [list(board.point(p)) for p in cells]


def iteration_dict(
    board: Board, depth: int, score: int, pv: list[int], nodes: int
) -> dict[str, Any]:
    """A finished iteration: {depth, move, score, pv, nodes}, move = pv[0] as [x, y]."""
    line = points(board, pv)
    return {"depth": depth, "move": line[0], "score": score, "pv": line, "nodes": nodes}


def plan_dict(board: Board, plan: Any) -> dict[str, Any]:
    """What ``Engine.prepare`` left to the search (a SearchPlan), as {root, safe,
    threat}: the root moves, and against an opponent's threat (``threat`` "vcf" or
    "vct", else null) the root moves shown to stop it."""
    return {
        "root": points(board, list(plan.root_moves)),
        "safe": points(board, list(getattr(plan, "safe", []) or [])),
        "threat": getattr(plan, "threat_kind", None),
    }


def shell(job: Job) -> Answer:
    """The fields every answer to ``job`` starts with."""
    return {"kind": job.get("kind"), "sid": job.get("sid"), "jid": job.get("jid")}


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


def is_win(score: int) -> bool:
    """A won or lost score (a forced five within the search)."""
    return abs(score) >= WIN_THRESHOLD


def as_point(p: list[int] | tuple[int, int]) -> Point:
    return (int(p[0]), int(p[1]))
