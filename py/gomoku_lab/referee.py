"""The referee of a game between two Gomocup engines: ``play_game``.

It keeps its own board, checks every answer and decides the result:

- a five ends the game (rule "freestyle": five or more in a row; "standard": exactly five,
  an overline does not win; "renju": exactly five for black, five or more for white); a
  full board is a draw;
- under renju, black loses on playing a forbidden point (overline, double four, double
  three; judged by gomoku_lab.renju_reference), as in Gomocup;
- an engine loses when it answers late (after turn-ms + tolerance, or after its match clock
  when a match time is given), crashes, answers something that is not a move "x,y", or
  plays off the board or on an occupied cell.

A match clock may have a Fischer increment (``inc_ms``): added to an engine's clock after
each of its moves. Gomocup's protocol has no field for it: the engine sees it only in the
``time_left`` it is sent before each move.

Each engine first receives the settings (``INFO``: time controls, rule, and
``max_node N`` when it has a node budget), then the position with ``BOARD ... DONE``
(``BEGIN`` on an empty board), then ``TURN x,y`` for every opponent move.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from gomoku.core.rules import DEFAULT_SIZE, Rule
from gomoku_lab.processes import EngineError, EngineProcess, EngineTimeout
from gomoku_lab.renju_reference import forbidden as renju_forbidden

Point = tuple[int, int]

DEFAULT_TOLERANCE_MS = 200
START_TIMEOUT_S = 30.0
_MOVE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def find_five(board: Sequence[Sequence[int]], x: int, y: int, rule: Rule) -> list[Point] | None:
    """The winning line through the stone at (x, y), or None.

    ``board[y][x]`` holds 0 (empty), 1 or 2. Freestyle: a run of five or more wins; standard:
    a run of exactly five. Returns the whole run (sorted along its direction).
    """
    size = len(board)
    colour = board[y][x]
    if colour == 0:
        return None
    for dx, dy in _DIRECTIONS:
        run = [(x, y)]
        for sgn in (1, -1):
            cx, cy = x + sgn * dx, y + sgn * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == colour:
                run.append((cx, cy))
                cx, cy = cx + sgn * dx, cy + sgn * dy
        if len(run) == 5 or (len(run) > 5 and rule.overline_wins_for(colour)):
            return sorted(run)
    return None


def parse_move_answer(text: str, size: int) -> Point:
    """Parse an engine's move answer "x,y" -> (x, y); ValueError when malformed or off board."""
    m = _MOVE_RE.match(text)
    if not m:
        raise ValueError(f"not a move: {text.strip()[:80]!r}")
    x, y = int(m.group(1)), int(m.group(2))
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"move {x},{y} is off the {size}x{size} board")
    return x, y


@dataclass
class MatchConfig:
    """Settings of a match (times in milliseconds).

    engine1 / engine2 are command lines; env1 / env2 extra environment variables for
    them (None: none). nodes1 / nodes2: the engine's node budget per move, sent as
    ``INFO max_node`` (None: no node limit; the time limits hold either way).
    turn_ms1 / turn_ms2: the engine's own time per move (None: ``turn_ms``), for
    matches of one engine at two time controls. level1 / level2: the engine's level
    (gomoku.engine.levels), sent as ``INFO level`` with ``INFO seed`` (the pair's number,
    so both games of a colour-swapped pair share it); None: none sent. swap2: each game's
    opening is played by the engines under swap2 (gomoku_lab.swap2).
    """

    engine1: str
    engine2: str
    games: int = 2
    turn_ms: int = 1000
    size: int = DEFAULT_SIZE
    rule: Rule = Rule.FREESTYLE
    match_ms: int | None = None
    inc_ms: int = 0  # Fischer increment: added to an engine's match clock after its move
    tolerance_ms: int = DEFAULT_TOLERANCE_MS
    concurrency: int = 1
    seed: int | None = None
    verbose: bool = False
    nodes1: int | None = None
    nodes2: int | None = None
    env1: dict[str, str] | None = None
    env2: dict[str, str] | None = None
    turn_ms1: int | None = None
    turn_ms2: int | None = None
    level1: int | None = None
    level2: int | None = None
    swap2: bool = False  # the opening by SWAP2BOARD (gomoku_lab.swap2), not from a file

    def turn_ms_of(self, engine: int) -> int:
        """The time per move of engine 0 (engine1) or 1 (engine2), in ms."""
        own = self.turn_ms1 if engine == 0 else self.turn_ms2
        return self.turn_ms if own is None else own

    def nodes_of(self, engine: int) -> int | None:
        """The node budget of engine 0 (engine1) or 1 (engine2)."""
        return self.nodes1 if engine == 0 else self.nodes2

    def level_of(self, engine: int) -> int | None:
        """The level of engine 0 (engine1) or 1 (engine2)."""
        return self.level1 if engine == 0 else self.level2


@dataclass
class GameSpec:
    """One scheduled game: which opening, and which engine (0 or 1) plays black."""

    index: int
    opening_index: int
    opening: list[Point]
    black: int


@dataclass
class GameResult:
    """Outcome of a game. winner: 0 = engine1, 1 = engine2, None = draw.

    kind is one of "five", "full" (draw), "time", "crash", "illegal", "forbidden" (black
    on a forbidden point under renju), "start".
    """

    spec: GameSpec
    winner: int | None
    kind: str
    reason: str
    moves: list[Point] = field(default_factory=list)
    times_ms: list[int] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)  # last MESSAGE before each answer
    line: list[Point] = field(default_factory=list)
    swap2: dict | None = None  # a swap2 game's opening (gomoku_lab.swap2)

    @property
    def score1(self) -> float:
        """engine1's score: 1, 0.5 or 0."""
        return 0.5 if self.winner is None else (1.0 if self.winner == 0 else 0.0)

    @property
    def result_text(self) -> str:
        """From black's point of view: "1-0", "0-1" or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == self.spec.black else "0-1"


# Gomocup's INFO rule value for each rule (bit 1 exactly five, bit 4 renju).
INFO_RULE_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}


def new_game(
    engine: EngineProcess,
    cfg: MatchConfig,
    nodes: int | None = None,
    turn_ms: int | None = None,
    level: int | None = None,
    seed: int = 0,
) -> None:
    """Bring an engine to a fresh game with this match's settings (EngineError on failure).

    The INFO settings go first, so that an engine can prepare for the rule while it
    answers START/RESTART (which has a generous timeout) rather than during its first move.
    ``nodes`` is sent as ``INFO max_node`` (nothing is sent for None); ``turn_ms`` as
    ``INFO timeout_turn`` (None: ``cfg.turn_ms``); ``level`` as ``INFO level`` followed by
    ``INFO seed seed`` (nothing for None).
    """
    if not engine.alive:
        engine.start()
    else:
        engine.drain()
    engine.send(
        f"INFO timeout_turn {cfg.turn_ms if turn_ms is None else turn_ms}",
        f"INFO timeout_match {cfg.match_ms or 0}",
        f"INFO time_left {cfg.match_ms or 2147483647}",
        "INFO max_memory 0",
        "INFO game_type 1",
        f"INFO rule {INFO_RULE_BITS[cfg.rule]}",
        *([f"INFO max_node {nodes}"] if nodes is not None else []),
        *([f"INFO level {level}", f"INFO seed {seed}"] if level is not None else []),
    )
    if engine.fresh:
        engine.request_ok(f"START {cfg.size}", START_TIMEOUT_S)
        if engine.name is None:
            engine.name = engine.about()
    else:
        try:
            engine.request_ok("RESTART", START_TIMEOUT_S)
        except EngineTimeout:
            raise
        except EngineError:
            engine.request_ok(f"START {cfg.size}", START_TIMEOUT_S)
    engine.fresh = False


def play_game(engines: Sequence[EngineProcess], spec: GameSpec, cfg: MatchConfig) -> GameResult:
    """Play one game between engines[0] (engine1) and engines[1] (engine2)."""
    failed = start_engines(engines, spec, cfg)
    return failed if failed is not None else play_on(engines, spec, cfg)


def start_engines(
    engines: Sequence[EngineProcess], spec: GameSpec, cfg: MatchConfig
) -> GameResult | None:
    """Both engines brought to a fresh game (new_game); the loss of the one that fails,
    or None."""
    for idx in (0, 1):
        try:
            new_game(
                engines[idx],
                cfg,
                cfg.nodes_of(idx),
                cfg.turn_ms_of(idx),
                cfg.level_of(idx),
                seed=spec.index // 2,
            )
        except EngineError as exc:
            engines[idx].kill()
            label = f"{engines[idx].label} failed to start a game: {exc}"
            return GameResult(spec, 1 - idx, "start", label, list(spec.opening))
    return None


def play_on(engines: Sequence[EngineProcess], spec: GameSpec, cfg: MatchConfig) -> GameResult:
    """The game from ``spec.opening`` on (both engines started): each engine is told the
    position with BOARD at its first turn, then the opponent's moves with TURN."""
    size = cfg.size
    board = [[0] * size for _ in range(size)]
    moves = list(spec.opening)
    for i, (x, y) in enumerate(moves):
        board[y][x] = 1 + i % 2
    colour_engine = {1: spec.black, 2: 1 - spec.black}
    clock: dict[int, float | None] = {0: cfg.match_ms, 1: cfg.match_ms}
    known: dict[int, int | None] = {0: None, 1: None}  # moves each engine has been told
    times: list[int] = []
    infos: list[str] = []

    def lose(idx: int, kind: str, reason: str) -> GameResult:
        label = f"{engines[idx].label} {reason}"
        return GameResult(spec, 1 - idx, kind, label, moves, times, infos)

    while True:
        if len(moves) >= size * size:
            return GameResult(spec, None, "full", "board full", moves, times, infos)
        colour = 1 + len(moves) % 2
        idx = colour_engine[colour]
        eng = engines[idx]
        commands = []
        if clock[idx] is not None:
            commands.append(f"INFO time_left {max(0, int(clock[idx]))}")
        if known[idx] is None:
            if not moves:
                commands.append("BEGIN")
            else:
                commands.append("BOARD")
                for i, (x, y) in enumerate(moves):
                    commands.append(f"{x},{y},{1 if 1 + i % 2 == colour else 2}")
                commands.append("DONE")
        else:
            assert known[idx] == len(moves) - 1
            x, y = moves[-1]
            commands.append(f"TURN {x},{y}")
        allowed_ms = cfg.turn_ms_of(idx) + cfg.tolerance_ms
        if clock[idx] is not None:
            allowed_ms = min(allowed_ms, max(0.0, clock[idx]) + cfg.tolerance_ms)
        eng.last_message = ""
        t0 = time.perf_counter()
        try:
            eng.drain()
            eng.send(*commands)
            answer = eng.read_answer(allowed_ms / 1000.0)
        except EngineTimeout:
            eng.kill()
            return lose(idx, "time", f"lost on time (no move within {allowed_ms:.0f} ms)")
        except EngineError as exc:
            eng.kill()
            return lose(idx, "crash", str(exc))
        elapsed = (time.perf_counter() - t0) * 1000.0
        times.append(round(elapsed))
        infos.append(eng.last_message)
        if clock[idx] is not None:
            clock[idx] = clock[idx] - elapsed  # type: ignore[operator]
            if clock[idx] < -cfg.tolerance_ms:  # type: ignore[operator]
                return lose(idx, "time", "lost on time (match clock)")
            clock[idx] = clock[idx] + cfg.inc_ms  # type: ignore[operator]
        try:
            x, y = parse_move_answer(answer, size)
        except ValueError as exc:
            return lose(idx, "illegal", f"bad answer: {exc}")
        if board[y][x]:
            return lose(idx, "illegal", f"illegal move {x},{y} (occupied)")
        if cfg.rule is Rule.RENJU and colour == 1:
            shape = renju_forbidden(board, x, y)
            if shape:
                moves.append((x, y))
                return lose(idx, "forbidden", f"played the forbidden point {x},{y} ({shape})")
        board[y][x] = colour
        moves.append((x, y))
        known[idx] = len(moves)
        line = find_five(board, x, y, cfg.rule)
        if line:
            res = GameResult(spec, idx, "five", f"{eng.label} made five", moves, times, infos)
            res.line = line
            return res
