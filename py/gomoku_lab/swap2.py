"""Swap2 games between two Gomocup engines: the opening by Gomocup's ``SWAP2BOARD``, then
the game as usual (gomoku_lab.referee). ``python -m gomoku_lab.match --swap2`` plays them.

The first player (``spec.black``: game 2k is opened by engine1, game 2k+1 by engine2)
gets ``SWAP2BOARD`` / ``DONE`` and answers three stones; the second gets them and answers
``SWAP`` (it takes black), one move (it takes white: the 4th move) or two (the 4th and 5th
stones); after two more the first player gets the five and answers ``SWAP`` (it takes
black) or one move (it takes white: the 6th). The stones are sent one per line as
``x,y,f`` (f as in BOARD: 1 for the side to move's stones, 2 for the other's), the form
Rapfi reads (the protocol's examples write ``x,y``; our brain reads both). Every answer is
checked by the opening rule's state machine (gomoku.game.opening_rules) and timed like a
move (turn-ms plus the tolerance): an answer that is late, malformed or refused loses the
game for its engine ("time", "crash" or "illegal", reason beginning "swap2"). The game
then goes on from the opening's stones, each engine told the position with BOARD.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from gomoku.core.geometry import Point, moves_to_text
from gomoku.game import opening_rules as O
from gomoku_lab.processes import EngineError, EngineProcess, EngineTimeout
from gomoku_lab.referee import GameResult, GameSpec, MatchConfig, play_on, start_engines

_STONE_RE = re.compile(r"^(-?\d+)\s*,\s*(-?\d+)$")


@dataclass
class Swap2Opening:
    """How a swap2 opening went: engine indices (0 = engine1), the second player's
    choice ("black", "white" or "two"), the first player's after two ("black" / "white",
    else None), the stones (the opening's, and the 4th or 6th move a choice of white came
    with), and each answer's time."""

    opener: int
    asked: int | None = None  # the engine asked last (at fault when an answer is refused)
    stones: list[Point] = field(default_factory=list)
    choice: str | None = None
    final: str | None = None
    black: int | None = None
    times_ms: list[int] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)

    def to_dict(self, size: int) -> dict:
        return {
            "opener": f"engine{self.opener + 1}",
            "choice": self.choice,
            "final": self.final,
            "stones": moves_to_text(self.stones, size),
            "times_ms": self.times_ms,
            "messages": self.messages,
        }


class Swap2Fault(Exception):
    """An answer the opening cannot take; kind as GameResult's ("illegal", "time",
    "crash")."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


def parse_reply(text: str, size: int) -> str | list[Point]:
    """A SWAP2BOARD answer: "SWAP", or stones "x,y x,y ..." (on the board); Swap2Fault
    ("illegal") for anything else."""
    words = text.split()
    if [w.upper() for w in words] == ["SWAP"]:
        return "SWAP"
    stones = []
    for word in words:
        m = _STONE_RE.match(word)
        if not m or not (0 <= int(m[1]) < size and 0 <= int(m[2]) < size):
            raise Swap2Fault("illegal", f"swap2: bad answer {text.strip()[:80]!r}")
        stones.append((int(m[1]), int(m[2])))
    if not stones:
        raise Swap2Fault("illegal", "swap2: an empty answer")
    return stones


def ask(
    engines: Sequence[EngineProcess],
    idx: int,
    stones: Sequence[Point],
    cfg: MatchConfig,
    log: Swap2Opening,
) -> str | list[Point]:
    """Send engine ``idx`` SWAP2BOARD with the stones; its answer (parse_reply).
    Swap2Fault on a late answer or a crash (the engine is killed) or a malformed one."""
    engine = engines[idx]
    log.asked = idx
    to_move = len(stones) % 2  # 0: black's stones are the side to move's
    lines = ["SWAP2BOARD"]
    lines += [f"{x},{y},{1 if i % 2 == to_move else 2}" for i, (x, y) in enumerate(stones)]
    lines.append("DONE")
    allowed_ms = cfg.turn_ms_of(idx) + cfg.tolerance_ms
    engine.last_message = ""
    t0 = time.perf_counter()
    try:
        engine.drain()
        engine.send(*lines)
        answer = engine.read_answer(allowed_ms / 1000.0)
    except EngineTimeout:
        engine.kill()
        raise Swap2Fault("time", f"swap2: no answer within {allowed_ms:.0f} ms") from None
    except EngineError as exc:
        engine.kill()
        raise Swap2Fault("crash", f"swap2: {exc}") from None
    log.times_ms.append(round((time.perf_counter() - t0) * 1000))
    log.messages.append(engine.last_message)
    return parse_reply(answer, cfg.size)


def _apply(state: O.OpeningState, actions: list[O.Action]) -> O.OpeningState:
    try:
        return O.replay(state, actions)
    except O.OpeningError as exc:
        raise Swap2Fault("illegal", f"swap2: {exc}") from None


def _white_move(state: O.OpeningState, stones: list[Point], log: Swap2Opening) -> None:
    """A choice of white that came with the next move: checked (one empty point)."""
    if len(stones) != 1:
        raise Swap2Fault("illegal", f"swap2: {len(stones)} stones where one move or SWAP goes")
    if stones[0] in state.stones:
        raise Swap2Fault("illegal", f"swap2: the move {stones[0][0]},{stones[0][1]} is taken")
    log.stones = [*state.stones, stones[0]]


def play_opening(engines: Sequence[EngineProcess], log: Swap2Opening, cfg: MatchConfig) -> None:
    """The opening between started engines, engine ``log.opener`` first, written into
    ``log``. Swap2Fault for an answer the opening cannot take: the fault is engine
    ``log.asked``'s."""
    opener = log.opener
    second = 1 - opener
    state = O.start(O.SWAP2, cfg.size, cfg.rule)
    reply = ask(engines, opener, [], cfg, log)
    if reply == "SWAP" or len(reply) != 3:
        raise Swap2Fault("illegal", "swap2: the first player must answer three stones")
    state = _apply(state, [O.Action(O.PLACE, p) for p in reply])
    log.stones = list(state.stones)
    reply = ask(engines, second, state.stones, cfg, log)
    if reply == "SWAP":
        log.choice, log.black = O.BLACK, second
        return
    if len(reply) == 1:
        log.choice, log.black = O.WHITE, opener
        _white_move(state, reply, log)
        return
    if len(reply) != 2:
        raise Swap2Fault("illegal", f"swap2: {len(reply)} stones where SWAP, one or two go")
    log.choice = O.TWO
    state = _apply(state, [O.Action(O.TWO), *(O.Action(O.PLACE, p) for p in reply)])
    log.stones = list(state.stones)
    reply = ask(engines, opener, state.stones, cfg, log)
    if reply == "SWAP":
        log.final, log.black = O.BLACK, opener
        return
    log.final, log.black = O.WHITE, second
    _white_move(state, reply, log)


def play_swap2_game(
    engines: Sequence[EngineProcess], spec: GameSpec, cfg: MatchConfig
) -> GameResult:
    """One swap2 game: engine ``spec.black`` opens (spec.opening is ignored). The result's
    spec is the game as played (its opening the opening's stones, its black the engine
    that took black); ``swap2`` says how the opening went."""
    failed = start_engines(engines, spec, cfg)
    if failed is not None:
        return failed
    log = Swap2Opening(spec.black)
    try:
        play_opening(engines, log, cfg)
    except Swap2Fault as exc:
        asked = log.asked if log.asked is not None else log.opener
        res = GameResult(spec, 1 - asked, exc.kind, f"{engines[asked].label} {exc}")
        res.swap2 = {**log.to_dict(cfg.size), "fault": str(exc)}
        return res
    assert log.black is not None
    played = GameSpec(spec.index, spec.opening_index, log.stones, log.black)
    result = play_on(engines, played, cfg)
    result.swap2 = log.to_dict(cfg.size)
    return result
