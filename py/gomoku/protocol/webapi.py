"""Message handler for the web worker: plain Python, testable in CPython.

The worker script (web/engine/worker.js) passes every message from the page to `handle_json`
and posts whatever comes back. Nothing here imports `js` or `pyodide`. This module only
translates: JSON in, calls on the engine's play session (gomoku.engine.Session: the
position, its rules' checks, the levels, a think that always answers a legal move) and
the JSON of its answers out (gomoku.protocol.webjson).

Messages (every one carries `id`, a string or integer that the replies echo):

    {type: "init", id}
        -> {type: "ready", id, version, protocol}
    {type: "think", id, size?, rule?, first?, moves: [[x, y], ...],
     limits: {timeMs? | maxMs?, depth?, nodes?, book?, threats?, multiPv?, matchMs?,
              timeLeftMs?} | {level, seed?, matchMs?, timeLeftMs?},
     reset?}
        -> zero or more {type: "info", id, depth, score, black, nodes, nps, pv, time_ms, top}
           (through `emit`, while the search runs)
        -> {type: "result", id, move: [x, y], score, black, depth, nodes, nps, pv, source,
            time_ms, top, winner, winningLine, guard?}
           score: {cp: n} | {win: n} | {loss: n}, the side to move's (gomoku.search.score:
           centi-units, or a five on the n-th move of the side to move / of the other);
           black: black's winning chance (0..1, the curve of the page's bar and the
           review), the colours named by `first` ("black" or "white", the colour of the
           first move, default "black"; "black" under renju).
           top: [{move: [x, y], score, pv}, ...], best first: with
           limits.multiPv = K (1..MAX_MULTIPV) the best K root moves of one search, each
           with its exact score (the side to move's view) and line; the first is `move`.
           Otherwise (or when the book, a forced reply or the threat search decided) the
           move alone.
    {type: "status", id, size?, rule?, moves}
        -> {type: "status", id, sideToMove, winner, winningLine, isOver, moveCount}
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
    {type: "opening", ...}  the engine's turn in an opening rule (swap2, Soosõrv-8):
                            gomoku.protocol.webopening
    {type: "review", ...}   one step of a game review: gomoku.protocol.webreview
    {type: "judge", ...}    a puzzle move judged by the position: gomoku.protocol.webjudge
    {type: "bench", ...}    the engine's benchmarks: gomoku.protocol.webbench
    {type: "coord", ...}    a parallel search's coordinator: gomoku.protocol.webcoord

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
depth, nodes or a game clock; without timeMs, maxMs or a clock the search is bounded by
depth / nodes alone, with maxMs too they decide, within its cap (no soft target). timeMs is
a soft target (the engine may go on up to 2.5x it to finish: analysis and Unlimited's
slices); maxMs is a promise, "at most this long" (a timed level's move, a hint): the time
manager makes it its hard cap with a soft target below it (gomoku.search.timeman
move_times), so the answer comes within maxMs plus the messages' overhead. A game clock
is matchMs (the game's starting time) with timeLeftMs (what is left on the engine's clock),
the page's form of Gomocup's timeout_match and time_left: the time manager spreads it as it
does the brain's (with maxMs, the tighter bound wins); with a level it only caps the time,
the level's nodes decide. limits.book
(true or false, default true) says whether the opening book may answer; the page's
analysis turns it off so that it shows a real search. limits.threats (default true)
likewise for the threat searches before the alpha-beta search (benchmarks of a fixed
depth turn it off).
When the search fails (an internal error), the session's fallback move is played: the
result's source is then "fallback" (the error goes to stderr, the page's console).
The engine and its transposition table are kept from message to message (a game in
progress profits); reset: true starts afresh.

Anything malformed gets {type: "error", id, message} (id is null when the message had no
usable id). `handle` never raises.

Coordinates are the engine's: (x, y), 0-based, x from the left, y from the TOP row.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gomoku import __version__
from gomoku.core.errors import GomokuError
from gomoku.core.rules import parse_rule
from gomoku.engine import (
    Engine,
    ForbiddenMoveError,
    SearchInfo,
    Session,
    checked_board,
)
from gomoku.engine.coach import threats
from gomoku.protocol.webjson import (
    BadMessage,
    Emit,
    LevelRequest,
    Message,
    check_keys,
    forbidden_text,
    message_id,
    read_limits,
    read_moves,
    read_rule,
    read_search_first,
    read_size,
    result_reply,
    scored,
    status_fields,
)

if TYPE_CHECKING:
    from gomoku.protocol.webcoord import Search
    from gomoku.protocol.webreview import Reviews

PROTOCOL = 2  # the wire's version: 2 spells every key camelCase
POSITION_KEYS = {"type", "id", "size", "rule", "moves", "reset"}


class WebApi:
    """Keeps one play session between messages, so its engine's caches survive from
    move to move."""

    def __init__(self) -> None:
        self.session: Session | None = None  # built (and its engine warmed up) on first use
        self._search: Search | None = None  # the parallel search under way
        self._reviews: Reviews | None = None  # the game under review

    @property
    def _engine(self) -> Engine | None:
        return None if self.session is None else self.session.engine

    def _position(self, message: Message) -> Session:
        """The session, set to the message's position (checked; on an error nothing
        changes)."""
        size = read_size(message)
        rule = read_rule(message)
        moves = read_moves(message, size)
        reset = message.get("reset", False)
        if not isinstance(reset, bool):
            raise BadMessage(f"reset must be true or false, got {reset!r}")
        if self.session is None:
            self.session = Session(size, rule)
        self.session.set_position(moves, size, rule, fresh=reset)
        return self.session

    def handle(self, message: object, emit: Emit | None = None) -> Message:
        """Answer one message; progress goes to `emit`, the final reply is returned."""
        mid = message_id(message)
        try:
            return self._dispatch(message, mid, emit)
        except ForbiddenMoveError as exc:
            return {"type": "error", "id": mid, "message": forbidden_text(exc)}
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
            check_keys(message, {"type", "id"}, "init")
            return {"type": "ready", "id": mid, "version": __version__, "protocol": PROTOCOL}
        if kind == "status":
            check_keys(message, POSITION_KEYS, "status")
            game = self._position(message)
            return {
                "type": "status",
                "id": mid,
                "sideToMove": int(game.side_to_move),
                "isOver": bool(game.is_over),
                "moveCount": len(game.moves),
                **status_fields(game),
            }
        if kind == "think":
            check_keys(message, POSITION_KEYS | {"limits", "first"}, "think")
            return self._think(message, mid, emit)
        if kind == "threats":
            return self._threats(message, mid)
        if kind == "opening":
            from gomoku.protocol import webopening  # on first use: see below

            if self.session is None:
                self.session = Session(read_size(message), read_rule(message))
            return webopening.answer(self.session, message, mid)
        # The review, the judge, the benchmarks and the parallel search load on their
        # first message: their modules would add 15-25 ms (CPython, python -X importtime,
        # 2 busy cores; Pyodide is slower) to the worker's start-up, which needs only
        # status and think.
        if kind == "review":
            from gomoku.protocol.webreview import Reviews

            self._reviews = self._reviews or Reviews()
            return self._reviews.answer(message, mid)
        if kind == "judge":
            from gomoku.protocol.webjudge import judge

            return judge(message, mid)
        if kind == "bench":
            from gomoku.protocol.webbench import bench

            return bench(message, mid)
        if kind == "coord":
            return self._coord(message, mid)
        if isinstance(kind, str):
            raise BadMessage(f"unknown message type {kind!r}")
        raise BadMessage("missing or invalid type")

    def _think(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        limits = read_limits(message)
        first = read_search_first(message)
        game = self._position(message)
        if game.is_over:
            raise BadMessage("the game is already over")
        searched = len(game.moves)

        def on_info(info: SearchInfo) -> None:
            if emit is not None:
                emit({"type": "info", "id": mid, **scored(info.to_dict(), game, searched, first)})

        if isinstance(limits, LevelRequest):  # its nodes decide; a game clock caps its time
            played = game.think(limits.clock, level=limits.level, seed=limits.seed)
        else:
            played = game.think(limits, on_info)
        if played.failure:
            print(f"{played.failure}\n{played.trace}", file=sys.stderr)
        return result_reply(played, game, mid, first)

    @staticmethod
    def _threats(message: Message, mid: str | int) -> Message:
        """The coach's marks of a position (see the module doc, type "threats")."""
        check_keys(message, {"type", "id", "size", "rule", "moves", "first"}, "threats")
        size = read_size(message)
        rule = read_rule(message)
        moves = read_moves(message, size)
        first = read_search_first(message)  # "black" under renju
        if parse_rule(rule).has_forbidden_points:
            checked_board(moves, size, parse_rule(rule))  # forbidden moves refused
        coaching = threats(moves, size, rule, first)
        return {"type": "threats", "id": mid, **coaching.to_dict()}

    def _coord(self, message: Message, mid: str | int) -> Message:
        """One step of a parallel search (gomoku.protocol.webcoord)."""
        from gomoku.protocol import webcoord  # on first use: see _dispatch

        if message.get("op") == "start":
            self._search = search = webcoord.start(message, self._position)
            jobs = search.coord.start(0.0)
        else:
            jobs = webcoord.step(self._search, message)
            search = self._search
            assert search is not None  # step raised otherwise
        reply = webcoord.reply(search, mid, jobs)
        if search.coord.done:
            self._search = None
        return reply


_api = WebApi()


def handle(message: object, emit: Emit | None = None) -> Message:
    """Answer one message with the module's shared session (see WebApi.handle)."""
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
