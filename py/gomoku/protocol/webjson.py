"""The web worker's JSON: a message's fields read and checked (BadMessage says what is
wrong, in words the page can show), and the replies built from the session's answers.
Pure translation: gomoku.protocol.webapi and its message modules use it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gomoku.core.rules import DEFAULT_SIZE, parse_rule
from gomoku.engine import (
    MAX_MULTIPV,
    ForbiddenMoveError,
    Level,
    LevelError,
    Limits,
    Played,
    Session,
    node_level,
)
from gomoku.search.score import score_data
from gomoku.search.timeman import page_turn_ms

MAX_ID_LENGTH = 128
MAX_TIME_MS = 600_000
MAX_CLOCK_MS = 6 * 3600 * 1000  # a game clock's starting time and time left: at most 6 hours
CLOCK_KEYS = frozenset({"matchMs", "timeLeftMs"})
# a think's limits: the engine's own (the search-worker jobs' limits use the same names,
# gomoku.parallel.jobs), or a level with the game's seed
LIMIT_KEYS = CLOCK_KEYS | {"timeMs", "maxMs", "depth", "nodes", "book", "threats", "multiPv"}
LEVEL_KEYS = frozenset({"level", "seed"})
# Every field each request may carry (anything else is refused: check_keys). A "coord"
# message's fields depend on its op: COORD_START_KEYS for "start", COORD_STEP_KEYS else.
POSITION_KEYS = frozenset({"type", "id", "size", "rule", "moves"})
COORD_START_KEYS = POSITION_KEYS | {"op", "first", "limits", "reset", "workers", "scheme"}
COORD_STEP_KEYS = frozenset({"type", "id", "op", "worker", "result"})
REQUEST_KEYS: dict[str, frozenset[str]] = {
    "init": frozenset({"type", "id"}),
    "status": POSITION_KEYS | {"reset"},
    "think": POSITION_KEYS | {"reset", "limits", "first"},
    "threats": POSITION_KEYS | {"first"},
    "opening": POSITION_KEYS | {"opening", "choices", "offers", "seed", "nodes"},
    "review": POSITION_KEYS | {"first", "index", "nodes", "fixed"},
    "judge": POSITION_KEYS | {"move", "theme", "movesLeft", "nodes"},
    "bench": frozenset({"type", "id", "what", "seconds", "depth", "lines"}),
    "coord": COORD_START_KEYS | COORD_STEP_KEYS,
}
MAX_DEPTH = 100
MAX_NODES = 10**10
DEFAULT_RULE = "freestyle"

Message = dict[str, Any]
Emit = Callable[[Message], None]


class BadMessage(ValueError):
    """The message does not follow the protocol; the text goes back to the page."""


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: object) -> bool:
    return (is_int(v) or isinstance(v, float)) and math.isfinite(v)  # type: ignore[arg-type]


def message_id(message: object) -> str | int | None:
    """The id to echo, or None when the message has no usable one."""
    if not isinstance(message, dict):
        return None
    mid = message.get("id")
    if isinstance(mid, str) and 0 < len(mid) <= MAX_ID_LENGTH:
        return mid
    if is_int(mid) and abs(mid) < 2**53:
        return mid
    return None


def check_keys(obj: dict, allowed: set[str] | frozenset[str], what: str) -> None:
    extra = sorted(str(k) for k in obj if k not in allowed)
    if extra:
        raise BadMessage(f"unknown field(s) in {what}: {', '.join(extra)}")


def read_size(message: Message) -> int:
    size = message.get("size", DEFAULT_SIZE)
    if not is_int(size):
        raise BadMessage(f"size must be an integer, got {size!r}")
    return size


def read_rule(message: Message) -> str | int:
    rule = message.get("rule", DEFAULT_RULE)
    if not (isinstance(rule, str) or is_int(rule)):
        raise BadMessage(f"rule must be a name or a number, got {rule!r}")
    return rule


def read_moves(message: Message, size: int) -> list[tuple[int, int]]:
    if "moves" not in message:
        raise BadMessage("missing field: moves")
    moves = message["moves"]
    if not isinstance(moves, list):
        raise BadMessage("moves must be a list of [x, y] pairs")
    if len(moves) > size * size:
        raise BadMessage(f"too many moves for a {size}x{size} board ({len(moves)})")
    out = []
    for i, mv in enumerate(moves):
        if not (isinstance(mv, list | tuple) and len(mv) == 2 and all(map(is_int, mv))):
            raise BadMessage(f"moves[{i}] must be a pair of integers [x, y], got {mv!r}")
        x, y = mv
        if not (0 <= x < size and 0 <= y < size):
            raise BadMessage(f"moves[{i}] = [{x}, {y}] is off the {size}x{size} board")
        out.append((x, y))
    return out


def read_first(message: Message) -> str:
    """The colour of the first move, "black" (the default) or "white"."""
    first = message.get("first", "black")
    if first not in ("black", "white"):
        raise BadMessage(f"first must be 'black' or 'white', got {first!r}")
    return first


def read_search_first(message: Message) -> str:
    """A search's `first` (it names the colours of its scores): "black" under renju."""
    first = read_first(message)
    if first != "black" and parse_rule(read_rule(message)).has_forbidden_points:
        raise BadMessage("under renju black moves first")
    return first


def scored(report: Message, game: Session, moves_before: int, first: str) -> Message:
    """A search report (SearchInfo / SearchResult ``to_dict()``) as sent: its scores as
    data and black's chance (gomoku.search.score.score_data), for the position after
    ``moves_before`` moves of a game whose first move was ``first``'s."""
    black_to_move = (moves_before % 2 == 0) == (first == "black")
    return camel_keys(jsonable(score_data(report, black_to_move, game.rule)))


@dataclass(frozen=True)
class LevelRequest:
    """limits {level, seed, matchMs?, timeLeftMs?}: node-limited level ``level`` of
    gomoku.engine.levels played with the game's ``seed``; ``clock`` (the game clock, as
    Limits, or None) only caps its time: the level's nodes decide."""

    level: Level
    seed: int
    clock: Limits | None


def read_limits(message: Message) -> Limits | LevelRequest:
    """A think's (or a parallel search's) ``limits``: the engine's Limits, or a level
    request when they name a level (see gomoku.protocol.webapi for their meaning)."""
    limits = message.get("limits")
    if not isinstance(limits, dict):
        raise BadMessage("limits must be an object like {timeMs: 1000}")
    check_keys(limits, LIMIT_KEYS | LEVEL_KEYS, "limits")
    if "level" in limits or "seed" in limits:
        return read_level(limits)
    clock = read_clock(limits)
    t = limits.get("timeMs")
    if t is not None and (not is_number(t) or not 0 < t <= MAX_TIME_MS):
        raise BadMessage(f"limits.timeMs must be a number in (0, {MAX_TIME_MS}], got {t!r}")
    cap = limits.get("maxMs")
    if cap is not None:
        if t is not None:
            raise BadMessage("limits.timeMs and limits.maxMs do not go together")
        if not is_number(cap) or not 0 < cap <= MAX_TIME_MS:
            raise BadMessage(f"limits.maxMs must be a number in (0, {MAX_TIME_MS}], got {cap!r}")
    d = limits.get("depth")
    if d is not None and (not is_int(d) or not 1 <= d <= MAX_DEPTH):
        raise BadMessage(f"limits.depth must be an integer in 1..{MAX_DEPTH}, got {d!r}")
    n = limits.get("nodes")
    if n is not None and (not is_int(n) or not 1 <= n <= MAX_NODES):
        raise BadMessage(f"limits.nodes must be a positive integer, got {n!r}")
    if t is None and cap is None and d is None and n is None and clock is None:
        raise BadMessage("limits needs at least one of timeMs, maxMs, depth, nodes, timeLeftMs")
    book, threats = limits.get("book", True), limits.get("threats", True)
    for name, flag in (("book", book), ("threats", threats)):
        if not isinstance(flag, bool):
            raise BadMessage(f"limits.{name} must be true or false, got {flag!r}")
    k = limits.get("multiPv", 1)
    if not is_int(k) or not 1 <= k <= MAX_MULTIPV:
        raise BadMessage(f"limits.multiPv must be an integer in 1..{MAX_MULTIPV}, got {k!r}")
    return Limits(
        time_ms=None if t is None else max(1, int(t)),  # None: depth, nodes or a cap bound it
        turn_ms=None if cap is None else page_turn_ms(max(1, int(cap))),  # the engine's promise
        depth=d,
        nodes=n,
        use_book=book,
        use_threats=threats,
        multipv=k,
        **(clock or {}),
    )


def read_clock(limits: dict) -> dict[str, int] | None:
    """A game clock's limits, {matchMs, timeLeftMs}: the game's starting time and what is
    left on the engine's clock (ms), the page's form of Gomocup's timeout_match and
    time_left, as ``Limits`` keywords (match_ms, time_left_ms; the time manager spreads
    the clock: gomoku.search.timeman move_times). None when the limits carry no clock."""
    if not CLOCK_KEYS & set(limits):
        return None
    match, left = limits.get("matchMs"), limits.get("timeLeftMs")
    if not is_int(match) or not 0 < match <= MAX_CLOCK_MS:
        raise BadMessage(f"limits.matchMs must be an integer in 1..{MAX_CLOCK_MS}, got {match!r}")
    if not is_number(left) or not 0 <= left <= MAX_CLOCK_MS:
        raise BadMessage(
            f"limits.timeLeftMs must be a number in 0..{MAX_CLOCK_MS} (with matchMs), got {left!r}"
        )
    return {"match_ms": match, "time_left_ms": max(0, int(left))}


def read_level(limits: dict) -> LevelRequest:
    """limits {level, seed, matchMs?, timeLeftMs?}: a node-limited level of
    gomoku.engine.levels (nothing else may be given with it: the level decides the
    search; a game clock only caps its time, read_clock)."""
    extra = sorted(k for k in limits if k not in LEVEL_KEYS | CLOCK_KEYS)
    if extra:
        raise BadMessage(f"limits.level goes alone with limits.seed, not with {extra[0]}")
    number, seed = limits.get("level"), limits.get("seed", 0)
    try:
        lv = node_level(number)
    except LevelError as exc:
        raise BadMessage(f"limits.level: {exc}") from None
    if lv is None:
        raise BadMessage(f"limits.level {number} is timed: send timeMs instead")
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise BadMessage(f"limits.seed must be an integer in 0..2147483647, got {seed!r}")
    clock = read_clock(limits)
    return LevelRequest(lv, seed, None if clock is None else Limits(time_ms=None, **clock))


def camel(name: str) -> str:
    """A Python name as the wire spells it: ``time_ms`` -> ``timeMs``."""
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def camel_keys(value: Any) -> Any:
    """``value`` with every object key, at any depth, spelt as the wire spells it."""
    if isinstance(value, dict):
        return {camel(str(k)): camel_keys(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [camel_keys(v) for v in value]
    return value


def jsonable(value: Any) -> Any:
    """Tuples -> lists, numpy scalars -> Python numbers, recursively."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, bool | str) or value is None:
        return value
    if hasattr(value, "item") and callable(value.item):  # numpy scalar
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def forbidden_text(exc: ForbiddenMoveError) -> str:
    """A forbidden move of a message's moves, named as the page gave it."""
    x, y = exc.point
    return f"moves[{exc.index}] = [{x}, {y}] ({exc.text}) is forbidden for black ({exc.shape})"


def status_fields(game: Session) -> Message:
    return {
        "winner": int(game.winner),
        "winningLine": [[int(x), int(y)] for x, y in game.winning_line],
    }


def result_reply(played: Played, game: Session, mid: str | int, first: str = "black") -> Message:
    """The "result" message for the session's move (``game`` after it; ``first`` the
    colour of the game's first move, which names the scores' colours). Under renju a
    forbidden black move replaced by the guard is named in `guard`; the line is then the
    new move alone and the source "guard"."""
    searched = len(game.moves) - 1  # the position the search was in: before the move
    data = scored(played.result.to_dict(), game, searched, first)
    reply: Message = {"type": "result", "id": mid, **data}
    x, y = played.move
    guard = played.guard
    if guard is not None:
        fx, fy = guard.forbidden
        reply["pv"] = [[x, y]]
        reply["top"] = [
            {"move": [x, y], "score": reply["score"], "pv": [[x, y]]}
        ]
        reply["source"] = "guard"
        reply["guard"] = {
            "forbidden": [fx, fy],
            "shape": guard.shape,
            "message": guard.message(game.size),
        }
    reply["move"] = [x, y]
    reply.update(status_fields(game))
    return reply
