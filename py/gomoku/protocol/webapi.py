"""Message handler for the web worker: plain Python, testable in CPython.

The worker script (web/worker.js) passes every message from the page to `handle_json`
and posts whatever comes back. Nothing here imports `js` or `pyodide`.

Messages (every one carries `id`, a string or integer that the replies echo):

    {type: "init", id}
        -> {type: "ready", id, version, protocol}
    {type: "think", id, size?, rule?, first?, moves: [[x, y], ...],
     limits: {timeMs? | maxMs?, depth?, nodes?, book?, threats?, multiPv?} | {level, seed?},
     reset?}
        -> zero or more {type: "info", id, depth, score, black, nodes, nps, pv, time_ms, top}
           (through `emit`, while the search runs)
        -> {type: "result", id, move: [x, y], score, black, depth, nodes, nps, pv, source,
            time_ms, top, winner, winningLine, guard?}
           score: {cp: n} | {win: n} | {loss: n}, the side to move's (gomoku.search.score:
           centi-units, or a five on the n-th move of the side to move / of the other);
           black: black's winning chance (0..1, the curve of the page's bar and the
           review), the colours named by `first` ("black" or "white", the colour of the
           first move, default "black").
           top: [{move: [x, y], score, pv}, ...], best first: with
           limits.multiPv = K (1..MAX_MULTIPV) the best K root moves of one search, each
           with its exact score (the side to move's view) and line; the first is `move`.
           Otherwise (or when the book, a forced reply or the threat search decided) the
           move alone.
    {type: "status", id, size?, rule?, moves}
        -> {type: "status", id, sideToMove, winner, winningLine, isOver, moveCount}
    {type: "bench", id, what: "core" | "search" | "threats" | "multipv" | "interp",
     seconds?, depth?, lines?}
        -> {type: "bench", id, what, results, lines}   (gomoku.bench, for CPython/Pyodide;
           "multipv": bench_multipv(depth, lines), a multi-PV search of `lines` best moves
           against a plain one to the same depth, default depth 6, 3 lines; "interp":
           gomoku.bench_interp, ns per interpreter primitive)
    {type: "review", id, size?, rule?, moves, first?, index, nodes?, fixed?}
        -> {type: "review", id, index, total, position, move, revised, summary?}
           One step of a game review (gomoku.review): the position after `index` moves
           evaluated at `nodes` nodes (default gomoku.review.DEFAULT_NODES) with the
           threat search: position = {index, to_move, black (black's chance), score,
           second (score data, as think's), best, line, source, over, proof, ...}; move =
           the review of move `index` (null for 0): {index, player, move, class, mark,
           before, after, drop, better, line, proof ("proven" | "judged" for a flagged
           move, else null), noBetter (flagged, and every better move tried loses by
           force)}; revised = what this step changed before `index` (a walk back from a
           proven win judges earlier moves again): {positions: [{index, black}], moves:
           [move, ...]}; with index = total the summary {black:
           {inaccuracy, mistake, blunder, missed_win, only_move}, white: ...}. `first`
           ("black" or "white") is the colour of the first move; `fixed` (default 0) the
           number of opening moves fixed by a rule or a record (class "opening", not
           judged). Positions are reviewed in order (a request for a later index reviews
           the ones before it first); the reviewer is kept between messages; each answer
           depends on the game, the index, the budget and `fixed` alone.
    {type: "threats", id, size?, rule?, moves, first?}
        -> {type: "threats", id, toMove, black: [threat, ...], white: [threat, ...]}
           The coach (gomoku.engine.coach): each colour's immediate threats after
           `moves`, read off the pattern tables, no search (a few ms in CPython):
           threat = {kind, points: [[x, y], ...], blocks: [[x, y], ...]}, kind one of
           "four" (points: where it makes five), "three" (an open three, straight or
           split; points: where it makes an open four), "double-four", "four-three",
           "double-three" (points: the one cell where it would make it); blocks: where
           the other colour stops it. Under renju no point black is offered is
           forbidden. `first` ("black" or "white") is the colour of the first move;
           toMove the colour to move. The engine's state is not touched.
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

size defaults to 15, rule to "freestyle" ("freestyle", "standard", "renju" or their codes
0, 1, 2). Under renju black moves first, and a move list whose black player plays a
forbidden point (overline, double four, double three) is refused with an error naming it;
the engine's state is left as it was. The engine's own answer is checked too: a forbidden
point it chose for black is replaced by the strongest allowed candidate (gomoku.engine.renju_guard),
and the result then carries guard: {forbidden: [x, y], shape, message}, pv is the new move
alone and source is "guard". limits {level: N, seed: S} plays node-limited level N of
gomoku.engine.levels with the game's seed S (0..2^31-1, default 0): the same move for the
same position, level and seed everywhere (source "level" when its random choice took
another move than the search's best). Otherwise limits needs at least one of timeMs, maxMs,
depth, nodes; without timeMs or maxMs the search is bounded by depth / nodes alone, with
maxMs too they decide, within its cap (no soft target). timeMs is
a soft target (the engine may go on up to 2.5x it to finish: analysis and Unlimited's
slices); maxMs is a promise, "at most this long" (a timed level's move, a hint): the time
manager makes it its hard cap with a soft target below it (gomoku.search.timeman
move_times), so the answer comes within maxMs plus the messages' overhead. limits.book
(true or false, default true) says whether the opening book may answer; the page's
analysis turns it off so that it shows a real search. limits.threats (default true)
likewise for the threat searches before the alpha-beta search (benchmarks of a fixed
depth turn it off).
The engine and its transposition table are kept from message to message (a game in
progress profits); reset: true starts afresh.

Anything malformed gets {type: "error", id, message} (id is null when the message had no
usable id). `handle` never raises.

Coordinates are the engine's: (x, y), 0-based, x from the left, y from the TOP row.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from gomoku import __version__
from gomoku.core.errors import GomokuError
from gomoku.core.rules import DEFAULT_SIZE

PROTOCOL = 1
MAX_ID_LENGTH = 128
MAX_TIME_MS = 600_000
MAX_DEPTH = 100
MAX_NODES = 10**10
MAX_WORKERS = 16
MAX_REVIEW_NODES = 1_000_000
DEFAULT_RULE = "freestyle"
COORD_START_KEYS = frozenset(
    ("type", "id", "op", "size", "rule", "first", "moves", "limits", "reset", "workers", "scheme")
)

Message = dict[str, Any]
Emit = Callable[[Message], None]


class BadMessage(ValueError):
    """The message does not follow the protocol; the text goes back to the page."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)  # type: ignore[arg-type]


def _message_id(message: object) -> str | int | None:
    """The id to echo, or None when the message has no usable one."""
    if not isinstance(message, dict):
        return None
    mid = message.get("id")
    if isinstance(mid, str) and 0 < len(mid) <= MAX_ID_LENGTH:
        return mid
    if _is_int(mid) and abs(mid) < 2**53:
        return mid
    return None


def _check_keys(obj: dict, allowed: set[str] | frozenset[str], what: str) -> None:
    extra = sorted(str(k) for k in obj if k not in allowed)
    if extra:
        raise BadMessage(f"unknown field(s) in {what}: {', '.join(extra)}")


def _parse_size(message: Message) -> int:
    size = message.get("size", DEFAULT_SIZE)
    if not _is_int(size):
        raise BadMessage(f"size must be an integer, got {size!r}")
    return size


def _parse_rule(message: Message) -> str | int:
    rule = message.get("rule", DEFAULT_RULE)
    if not (isinstance(rule, str) or _is_int(rule)):
        raise BadMessage(f"rule must be a name or a number, got {rule!r}")
    return rule


def _parse_moves(message: Message, size: int) -> list[tuple[int, int]]:
    if "moves" not in message:
        raise BadMessage("missing field: moves")
    moves = message["moves"]
    if not isinstance(moves, list):
        raise BadMessage("moves must be a list of [x, y] pairs")
    if len(moves) > size * size:
        raise BadMessage(f"too many moves for a {size}x{size} board ({len(moves)})")
    out = []
    for i, mv in enumerate(moves):
        if not (isinstance(mv, list | tuple) and len(mv) == 2 and all(map(_is_int, mv))):
            raise BadMessage(f"moves[{i}] must be a pair of integers [x, y], got {mv!r}")
        x, y = mv
        if not (0 <= x < size and 0 <= y < size):
            raise BadMessage(f"moves[{i}] = [{x}, {y}] is off the {size}x{size} board")
        out.append((x, y))
    return out


def _refuse_forbidden(moves: list[tuple[int, int]], size: int, rule: str | int) -> None:
    """Under renju, BadMessage naming the first black move (black moves first) on a
    point forbidden when it was played. Bad sizes, rules and moves raise GomokuError."""
    from gomoku.core.geometry import to_text
    from gomoku.core.rules import check_size, parse_rule

    if not parse_rule(rule).has_forbidden_points:
        return
    from gomoku.game.renju import first_forbidden_move

    found = first_forbidden_move(moves, check_size(size))
    if found:
        i, shape = found
        x, y = moves[i]
        raise BadMessage(
            f"moves[{i}] = [{x}, {y}] ({to_text(x, y, size)}) is forbidden for black ({shape})"
        )


MAX_MULTIPV = 8


def _parse_first(message: Message) -> str:
    """The colour of the first move, "black" (the default) or "white"."""
    first = message.get("first", "black")
    if first not in ("black", "white"):
        raise BadMessage(f"first must be 'black' or 'white', got {first!r}")
    return first


def _parse_search_first(message: Message) -> str:
    """A search's `first` (the colours of its scores), "black" under renju."""
    from gomoku.core.rules import parse_rule

    first = _parse_first(message)
    if first != "black" and parse_rule(_parse_rule(message)).has_forbidden_points:
        raise BadMessage("under renju black moves first")
    return first


def _parse_limits(message: Message) -> dict[str, int | bool | None]:
    limits = message.get("limits")
    if not isinstance(limits, dict):
        raise BadMessage("limits must be an object like {timeMs: 1000}")
    _check_keys(
        limits,
        {"timeMs", "maxMs", "depth", "nodes", "book", "threats", "multiPv", "level", "seed"},
        "limits",
    )
    if "level" in limits or "seed" in limits:
        return _parse_level(limits)
    out: dict[str, int | bool | None] = {}
    t = limits.get("timeMs")
    if t is not None:
        if not _is_number(t) or not 0 < t <= MAX_TIME_MS:
            raise BadMessage(f"limits.timeMs must be a number in (0, {MAX_TIME_MS}], got {t!r}")
        out["time_ms"] = max(1, int(t))
    cap = limits.get("maxMs")
    if cap is not None:
        if t is not None:
            raise BadMessage("limits.timeMs and limits.maxMs do not go together")
        if not _is_number(cap) or not 0 < cap <= MAX_TIME_MS:
            raise BadMessage(f"limits.maxMs must be a number in (0, {MAX_TIME_MS}], got {cap!r}")
        out["max_ms"] = max(1, int(cap))  # the time manager makes it optimum and maximum
    d = limits.get("depth")
    if d is not None:
        if not _is_int(d) or not 1 <= d <= MAX_DEPTH:
            raise BadMessage(f"limits.depth must be an integer in 1..{MAX_DEPTH}, got {d!r}")
        out["depth"] = d
    n = limits.get("nodes")
    if n is not None:
        if not _is_int(n) or not 1 <= n <= MAX_NODES:
            raise BadMessage(f"limits.nodes must be a positive integer, got {n!r}")
        out["nodes"] = n
    if not out:
        raise BadMessage("limits needs at least one of timeMs, maxMs, depth, nodes")
    out.setdefault("time_ms", None)  # no timeMs: bounded by depth / nodes alone
    book = limits.get("book", True)
    if not isinstance(book, bool):
        raise BadMessage(f"limits.book must be true or false, got {book!r}")
    out["use_book"] = book
    threats = limits.get("threats", True)
    if not isinstance(threats, bool):
        raise BadMessage(f"limits.threats must be true or false, got {threats!r}")
    if not threats:
        out["use_threats"] = False
    k = limits.get("multiPv", 1)
    if not _is_int(k) or not 1 <= k <= MAX_MULTIPV:
        raise BadMessage(f"limits.multiPv must be an integer in 1..{MAX_MULTIPV}, got {k!r}")
    if k > 1:
        out["multipv"] = k
    return out


def _parse_level(limits: dict) -> dict[str, int | bool | None]:
    """limits {level, seed}: a node-limited level of gomoku.engine.levels (nothing else
    may be given with it: the level decides the search)."""
    from gomoku.engine.levels import LevelError, level

    extra = sorted(k for k in limits if k not in ("level", "seed"))
    if extra:
        raise BadMessage(f"limits.level goes alone with limits.seed, not with {extra[0]}")
    number, seed = limits.get("level"), limits.get("seed", 0)
    try:
        lv = level(number)
    except LevelError as exc:
        raise BadMessage(f"limits.level: {exc}") from None
    if lv.timed:
        raise BadMessage(f"limits.level {number} is timed: send timeMs instead")
    if not _is_int(seed) or not 0 <= seed < 2**31:
        raise BadMessage(f"limits.seed must be an integer in 0..2147483647, got {seed!r}")
    return {"level": lv.number, "seed": seed}


def _jsonable(value: Any) -> Any:
    """Tuples -> lists, numpy scalars -> Python numbers, recursively."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, bool | str) or value is None:
        return value
    if hasattr(value, "item") and callable(value.item):  # numpy scalar
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _scored(eng: Any, report: dict, first: str) -> Message:
    """A search report (SearchInfo / SearchResult ``to_dict()``) as sent: its scores as
    data and black's chance (gomoku.search.score.score_data), for the position of `eng`
    (searched, not yet played) whose first move was `first`'s."""
    from gomoku.search.score import score_data

    black_to_move = (int(eng.side_to_move) == 1) == (first == "black")
    return _jsonable(score_data(report, black_to_move, eng.rule))


class WebApi:
    """Keeps one engine between messages, so its caches survive from move to move."""

    def __init__(self) -> None:
        self._engine: Any = None
        self._parallel: dict[str, Any] | None = None  # the coordinator of a parallel search
        self._reviewer: Any = None  # the game under review (its positions are kept)
        self._reviewer_key: Any = None

    def _engine_for(self, size: int, rule: str | int, reset: bool) -> Any:
        from gomoku.core.rules import check_size, parse_rule
        from gomoku.engine.facade import (
            Engine,  # deferred: `init` answers before the tables are built
        )

        if self._engine is None:
            self._engine = Engine(size=size, rule=rule)
            self._engine.warm_up()  # the book and tables now (worker start), not on a move
        elif (
            reset or self._engine.size != check_size(size) or self._engine.rule != parse_rule(rule)
        ):
            self._engine.new_game(size=size, rule=rule)  # also clears the search caches
        return self._engine

    def _position(self, message: Message) -> Any:
        size = _parse_size(message)
        rule = _parse_rule(message)
        moves = _parse_moves(message, size)
        reset = message.get("reset", False)
        if not isinstance(reset, bool):
            raise BadMessage(f"reset must be true or false, got {reset!r}")
        _refuse_forbidden(moves, size, rule)  # before the engine changes
        eng = self._engine_for(size, rule, reset)
        eng.set_position(moves)
        return eng

    @staticmethod
    def _status_fields(eng: Any) -> Message:
        return {
            "winner": int(eng.winner),
            "winningLine": [[int(x), int(y)] for x, y in (eng.winning_line or [])],
        }

    def handle(self, message: object, emit: Emit | None = None) -> Message:
        """Answer one message; progress goes to `emit`, the final reply is returned."""
        mid = _message_id(message)
        try:
            return self._dispatch(message, mid, emit)
        except (BadMessage, GomokuError) as exc:
            return {"type": "error", "id": mid, "message": str(exc)}
        except Exception as exc:  # a bug: report it instead of killing the worker
            return {"type": "error", "id": mid, "message": f"internal error: {exc!r}"}

    def _dispatch(self, message: object, mid: str | int | None, emit: Emit | None) -> Message:
        if not isinstance(message, dict):
            raise BadMessage(f"a message must be an object, got {type(message).__name__}")
        if mid is None:
            raise BadMessage("missing or invalid id (a non-empty string or an integer)")
        kind = message.get("type")
        if kind == "init":
            _check_keys(message, {"type", "id"}, "init")
            return {"type": "ready", "id": mid, "version": __version__, "protocol": PROTOCOL}
        if kind == "status":
            _check_keys(message, {"type", "id", "size", "rule", "moves", "reset"}, "status")
            eng = self._position(message)
            return {
                "type": "status",
                "id": mid,
                "sideToMove": int(eng.side_to_move),
                "isOver": bool(eng.is_over),
                "moveCount": len(eng.moves),
                **self._status_fields(eng),
            }
        if kind == "think":
            _check_keys(
                message,
                {"type", "id", "size", "rule", "first", "moves", "limits", "reset"},
                "think",
            )
            limits = _parse_limits(message)
            first = _parse_search_first(message)
            eng = self._position(message)
            if eng.is_over:
                raise BadMessage("the game is already over")
            return self._think(eng, limits, mid, emit, first)
        if kind == "bench":
            _check_keys(message, {"type", "id", "what", "seconds", "depth", "lines"}, "bench")
            return self._bench(message, mid)
        if kind == "coord":
            return self._coord(message, mid)
        if kind == "review":
            return self._review(message, mid)
        if kind == "threats":
            return self._threats(message, mid)
        if isinstance(kind, str):
            raise BadMessage(f"unknown message type {kind!r}")
        raise BadMessage("missing or invalid type")

    def _review(self, message: Message, mid: str | int) -> Message:
        """One step of a game review: position ``index`` evaluated (and the move that led
        to it classified; with the last index, the summary too). The reviewer of the game
        is kept between messages; every answer is a function of the game, the index and
        the node budget alone."""
        from gomoku.core.errors import GomokuError
        from gomoku.review.records import RecordError, checked
        from gomoku.review.review import DEFAULT_NODES, Reviewer, move_dict, position_dict

        _check_keys(
            message,
            {"type", "id", "size", "rule", "moves", "first", "index", "nodes", "fixed"},
            "review",
        )
        size = _parse_size(message)
        rule = _parse_rule(message)
        moves = _parse_moves(message, size)
        first = _parse_first(message)
        nodes = message.get("nodes", DEFAULT_NODES)
        if not _is_int(nodes) or not 1 <= nodes <= MAX_REVIEW_NODES:
            raise BadMessage(f"nodes must be an integer in 1..{MAX_REVIEW_NODES}, got {nodes!r}")
        index = message.get("index")
        if not _is_int(index) or not 0 <= index <= len(moves):
            raise BadMessage(f"index must be an integer in 0..{len(moves)}, got {index!r}")
        try:
            from gomoku.core.rules import parse_rule

            record = checked([tuple(m) for m in moves], size, parse_rule(rule), first)
        except (RecordError, GomokuError) as exc:
            raise BadMessage(f"the game cannot be reviewed: {exc}") from None
        fixed = message.get("fixed", 0)
        if not _is_int(fixed) or not 0 <= fixed <= len(moves):
            raise BadMessage(f"fixed must be an integer in 0..{len(moves)}, got {fixed!r}")
        key = (record, nodes, fixed)
        if self._reviewer is None or self._reviewer_key != key:
            self._reviewer = Reviewer(record, nodes, fixed)
            self._reviewer_key = key
        rv = self._reviewer
        positions, changed = rv.step(index)
        reply: Message = {
            "type": "review",
            "id": mid,
            "index": index,
            "total": len(moves),
            "position": position_dict(rv.effective(index)),
            "move": move_dict(rv.moves[index]) if index else None,
            "revised": {
                "positions": [{"index": j, "black": round(rv.chance(j), 4)} for j in positions],
                "moves": [move_dict(rv.moves[j]) for j in changed],
            },
        }
        if index == len(moves):
            reply["summary"] = rv.summary()
        return _jsonable(reply)

    @staticmethod
    def _threats(message: Message, mid: str | int) -> Message:
        """The coach's marks of a position (see the module doc, type "threats")."""
        from gomoku.engine.coach import threats

        _check_keys(message, {"type", "id", "size", "rule", "moves", "first"}, "threats")
        size = _parse_size(message)
        rule = _parse_rule(message)
        moves = _parse_moves(message, size)
        first = _parse_first(message)
        from gomoku.core.rules import parse_rule

        if parse_rule(rule).has_forbidden_points and first != "black":
            raise BadMessage("under renju black moves first")
        _refuse_forbidden(moves, size, rule)
        coaching = threats(moves, size, rule, first)
        return {"type": "threats", "id": mid, **coaching.to_dict()}

    @staticmethod
    def _bench(message: Message, mid: str | int) -> Message:
        """gomoku.bench's measurements, so that Pyodide and CPython can be compared."""
        what = message.get("what", "search")
        if what not in ("core", "search", "threats", "multipv", "interp"):
            raise BadMessage(
                "bench.what must be 'core', 'search', 'threats', 'multipv' or 'interp', "
                f"got {what!r}"
            )
        seconds = message.get("seconds", 1.0)
        if not _is_number(seconds) or not 0.01 <= seconds <= 30:
            raise BadMessage(f"bench.seconds must be a number in [0.01, 30], got {seconds!r}")
        # depth: the node signature's search depth, or for threats the VCT depth
        # (multipv: the depth of both searches)
        most = {"threats": 8, "multipv": 7}.get(what, 6)
        depth = message.get("depth", {"threats": 7, "multipv": 6}.get(what, 4))
        if not _is_int(depth) or not 1 <= depth <= most:
            raise BadMessage(f"bench.depth must be an integer in 1..{most}, got {depth!r}")
        if "lines" in message and what != "multipv":
            raise BadMessage(f"bench.lines is for what 'multipv' only, not {what!r}")
        n_lines = message.get("lines", 3)
        if not _is_int(n_lines) or not 2 <= n_lines <= MAX_MULTIPV:
            raise BadMessage(f"bench.lines must be an integer in 2..{MAX_MULTIPV}, got {n_lines!r}")
        from gomoku import bench

        lines: list[str] = []
        if what == "core":
            results = bench.bench_core(float(seconds), out=lines.append)
        elif what == "threats":
            results = bench.bench_threats(depth, out=lines.append)
        elif what == "multipv":
            results = bench.bench_multipv(depth, n_lines, out=lines.append)
        elif what == "interp":
            from gomoku.bench_interp import bench_interp

            results = bench_interp(out=lines.append)
        else:
            results = bench.bench_search(float(seconds), depth, out=lines.append)
        return {
            "type": "bench",
            "id": mid,
            "what": what,
            "results": _jsonable(results),
            "lines": lines,
        }

    def _coord(self, message: Message, mid: str | int) -> Message:
        """One step of a parallel search (see the module doc, type "coord")."""
        import time

        op = message.get("op")
        if op == "start":
            _check_keys(message, COORD_START_KEYS, "coord")
            workers = message.get("workers")
            if not _is_int(workers) or not 1 <= workers <= MAX_WORKERS:
                raise BadMessage(f"workers must be an integer in 1..{MAX_WORKERS}, got {workers!r}")
            from gomoku.parallel import DEFAULT_SCHEME, SCHEMES, new_coordinator

            scheme = message.get("scheme", DEFAULT_SCHEME)
            if not isinstance(scheme, str) or scheme not in SCHEMES:
                raise BadMessage(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
            limits = _parse_limits(message)
            if "level" in limits:
                raise BadMessage("a level plays on the engine worker alone: send it as a think")
            first = _parse_search_first(message)
            eng = self._position(message)
            if eng.is_over:
                raise BadMessage("the game is already over")
            from gomoku.engine.facade import Limits

            infos: list[Message] = []

            def on_info(info: Any) -> None:
                infos.append({"type": "info", **_scored(eng, info.to_dict(), first)})

            coord = new_coordinator(
                list(eng.moves),
                eng.size,
                eng.rule,
                Limits(**limits),
                workers,
                scheme=scheme,
                fresh=bool(message.get("reset", False)),
                on_info=on_info,
                abortable=False,  # a Web Worker cannot be interrupted
            )
            self._parallel = {"coord": coord, "t0": time.perf_counter(), "infos": infos}
            self._parallel["engine"], self._parallel["first"] = eng, first
            return self._coord_reply(mid, coord.start(0.0))
        if op not in ("result", "failure", "tick", "finish"):
            raise BadMessage(f"coord.op must be start, result, failure, tick or finish, got {op!r}")
        _check_keys(message, {"type", "id", "op", "worker", "result"}, "coord")
        par = self._parallel
        if par is None:
            raise BadMessage("no parallel search is running")
        coord = par["coord"]
        now = time.perf_counter() - par["t0"]
        if op in ("result", "failure"):
            worker = message.get("worker")
            if not _is_int(worker) or not 0 <= worker < coord.workers:
                raise BadMessage(f"worker must be an integer in 0..{coord.workers - 1}")
            if op == "failure":
                jobs = coord.on_failure(worker, now, f"worker {worker} failed")
                return self._coord_reply(mid, jobs)
            result = message.get("result")
            if not isinstance(result, dict):
                raise BadMessage("result must be an object (a search worker's answer)")
            return self._coord_reply(mid, coord.on_result(worker, result, now))
        if op == "finish":
            coord.stop()
            return self._coord_reply(mid, [])
        return self._coord_reply(mid, coord.on_tick(now))

    def _coord_reply(self, mid: str | int, jobs: list) -> Message:
        import time

        par = self._parallel
        assert par is not None
        coord = par["coord"]
        now = time.perf_counter() - par["t0"]
        infos = list(par["infos"])
        par["infos"].clear()
        reply: Message = {
            "type": "coord",
            "id": mid,
            "sid": coord.sid,
            "jobs": _jsonable([[w, job] for w, job in jobs]),
            "done": bool(coord.done),
            "wait": None if coord.done else coord.wait_time(now),
            "busy": list(coord.busy_workers()),
            "dropped": sorted(coord.dropped),
            "infos": [{**i, "id": mid} for i in infos],
        }
        if coord.done:
            self._parallel = None
            eng = par["engine"]
            result = coord.result(now)
            reply["result"] = self._result_reply(eng, result, mid, par["first"])
        return reply

    def _result_reply(self, eng: Any, result: Any, mid: str | int, first: str) -> Message:
        """The "result" message for `result` (a SearchResult); plays it on `eng`. Under
        renju a forbidden black move is replaced first (renju_guard): the reply then
        names it in `guard`, its line is the new move alone and its source "guard"."""
        from gomoku.engine.renju_guard import safe_move

        x, y = (int(v) for v in result.move)
        reply: Message = {"type": "result", "id": mid, **_scored(eng, result.to_dict(), first)}
        replacement = safe_move(eng.moves, eng.size, eng.rule, (x, y))
        if replacement is not None:
            x, y = replacement.move
            fx, fy = replacement.forbidden
            reply["pv"] = [[x, y]]
            reply["top"] = [
                {"move": [x, y], "score": reply["score"], "pv": [[x, y]]}
            ]
            reply["source"] = "guard"
            reply["guard"] = {
                "forbidden": [fx, fy],
                "shape": replacement.shape,
                "message": replacement.message(eng.size),
            }
        reply["move"] = [x, y]
        eng.play(x, y)
        reply.update(self._status_fields(eng))
        return reply

    def _think(
        self,
        eng: Any,
        limits: dict[str, int | bool | None],
        mid: str | int,
        emit: Emit | None,
        first: str,
    ) -> Message:
        from gomoku.engine.facade import Limits

        if "level" in limits:
            from gomoku.engine.levels import play

            result = play(eng, int(limits["level"]), int(limits["seed"] or 0))
            return self._result_reply(eng, result, mid, first)

        def on_info(info: Any) -> None:
            if emit is not None:
                emit({"type": "info", "id": mid, **_scored(eng, info.to_dict(), first)})

        result = eng.think(Limits(**limits), on_info=on_info)
        return self._result_reply(eng, result, mid, first)


_api = WebApi()


def handle(message: object, emit: Emit | None = None) -> Message:
    """Answer one message with the module's shared engine (see WebApi.handle)."""
    return _api.handle(message, emit)


def handle_json(text: str, emit_json: Callable[[str], None] | None = None) -> str:
    """The worker's entry point: a JSON message in, a JSON reply out.

    Progress messages go to `emit_json` as JSON strings.
    """
    try:
        message = json.loads(text)
    except (TypeError, ValueError) as exc:
        return json.dumps({"type": "error", "id": None, "message": f"invalid JSON: {exc}"})

    def emit(reply: Message) -> None:
        if emit_json is not None:
            emit_json(json.dumps(reply))

    return json.dumps(handle(message, emit))
