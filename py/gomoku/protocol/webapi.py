"""Message handler for the web worker: plain Python, testable in CPython.

The worker script (web/engine/worker.js) passes every message from the page to `handle_json`
and posts whatever comes back. Nothing here imports `js` or `pyodide`. This module only
translates: JSON in, calls on the engine's play session (gomoku.engine.Session: the
position, its rules' checks, the levels, a think that always answers a legal move) and
the JSON of its answers out (gomoku.protocol.webjson).

docs/PROTOCOL.md is the protocol's reference: every message in both directions, its fields
(camelCase) and its errors. In short, every message is an object with `type` (one of
HANDLERS) and `id` (a string or an integer, echoed by the replies); its other fields are
webjson.REQUEST_KEYS[type], and any other field is refused:

    init      -> ready {version, protocol}
    status    -> status {sideToMove, winner, winningLine, isOver, moveCount}
    think     -> info* (while the search runs, through `emit`), then result {move, score,
                 black, depth, nodes, nps, pv, source, timeMs, top, winner, winningLine,
                 guard?}; limits {timeMs | maxMs, depth, nodes, book, threats, multiPv,
                 matchMs, timeLeftMs} or {level, seed, matchMs?, timeLeftMs?}
                 (webjson.read_limits: the engine's Limits or a LevelRequest)
    threats   -> threats: the coach's marks (gomoku.engine.coach), no search
    opening   -> opening: the engine's turn in an opening rule (webopening)
    review    -> review: one step of a game review (webreview)
    judge     -> judge: a puzzle move judged by the position (webjudge)
    bench     -> bench: the engine's benchmarks (webbench)
    coord     -> coord: a parallel search's coordinator (webcoord)

size defaults to 15, rule to "freestyle" ("freestyle", "standard", "renju" or their codes
0, 1, 2). Under renju black moves first, and a move list whose black player plays a
forbidden point is refused with an error naming it; the engine's state is left as it was.
The engine's own answer is checked too: a forbidden point it chose for black is replaced by
the strongest allowed candidate (gomoku.engine.renju_guard; the result's source is then
"guard"). When the search fails (an internal error), the session's fallback move is played
(source "fallback"; the error goes to stderr, the page's console). The engine and its
transposition table are kept from message to message (a game in progress profits); reset:
true starts afresh.

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
    REQUEST_KEYS,
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

PROTOCOL = 2  # the wire's version (docs/PROTOCOL.md); the ready reply names it

Handler = Callable[["WebApi", Message, "str | int", "Emit | None"], Message]


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
        if not isinstance(kind, str):
            raise BadMessage("missing or invalid type")
        handler = HANDLERS.get(kind)
        if handler is None:
            raise BadMessage(f"unknown message type {kind!r}")
        check_keys(message, REQUEST_KEYS[kind], kind)
        return handler(self, message, mid, emit)

    def _init(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        return {"type": "ready", "id": mid, "version": __version__, "protocol": PROTOCOL}

    def _status(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        game = self._position(message)
        return {
            "type": "status",
            "id": mid,
            "sideToMove": int(game.side_to_move),
            "isOver": bool(game.is_over),
            "moveCount": len(game.moves),
            **status_fields(game),
        }

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

    def _threats(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        """The coach's marks of a position: each colour's immediate threats, no search;
        the engine's state is not touched."""
        size = read_size(message)
        rule = read_rule(message)
        moves = read_moves(message, size)
        first = read_search_first(message)  # "black" under renju
        if parse_rule(rule).has_forbidden_points:
            checked_board(moves, size, parse_rule(rule))  # forbidden moves refused
        coaching = threats(moves, size, rule, first)
        return {"type": "threats", "id": mid, **coaching.to_dict()}

    # The opening, the review, the judge, the benchmarks and the parallel search load on
    # their first message: their modules would add 15-25 ms (CPython, python -X importtime,
    # 2 busy cores; Pyodide is slower) to the worker's start-up, which needs only status
    # and think.

    def _opening(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        from gomoku.protocol import webopening

        if self.session is None:
            self.session = Session(read_size(message), read_rule(message))
        return webopening.answer(self.session, message, mid)

    def _review(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        from gomoku.protocol.webreview import Reviews

        self._reviews = self._reviews or Reviews()
        return self._reviews.answer(message, mid)

    def _judge(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        from gomoku.protocol.webjudge import judge

        return judge(message, mid)

    def _bench(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        from gomoku.protocol.webbench import bench

        return bench(message, mid)

    def _coord(self, message: Message, mid: str | int, emit: Emit | None) -> Message:
        """One step of a parallel search (gomoku.protocol.webcoord)."""
        from gomoku.protocol import webcoord

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


# The message types the worker answers, each with its handler (its fields:
# webjson.REQUEST_KEYS; docs/PROTOCOL.md describes each,
# tests/engine/protocol/test_protocol_doc.py checks).
HANDLERS: dict[str, Handler] = {
    "init": WebApi._init,
    "status": WebApi._status,
    "think": WebApi._think,
    "threats": WebApi._threats,
    "opening": WebApi._opening,
    "review": WebApi._review,
    "judge": WebApi._judge,
    "bench": WebApi._bench,
    "coord": WebApi._coord,
}


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
