"""Engine-vs-engine matches over the Gomocup protocol: ``python -m gomoku.match``.

Plays two Gomocup (pbrain) engines, given as shell-like command lines, against each other
from a file of balanced openings. Each opening is played twice with colours swapped. This
module is the referee: it keeps its own board, checks every answer and decides results:

- a five ends the game (rule "freestyle": five or more in a row; "standard": exactly five,
  an overline does not win; "renju": exactly five for black, five or more for white); a
  full board is a draw;
- under renju, black loses on playing a forbidden point (overline, double four, double
  three; judged by gomoku.renju_reference), as in Gomocup;
- an engine loses when it answers late (after turn-ms + tolerance, or after its match clock
  when --match-ms is given), crashes, answers something that is not a move "x,y", or plays
  off the board or on an occupied cell.

Each engine first receives the position with ``BOARD ... DONE`` (``BEGIN`` on an empty
board), then ``TURN x,y`` for every opponent move. At the end the score of engine1 is
printed with an Elo difference and its 95% error bar (logistic model; standard error of
the mean score over games from the trinomial win/draw/loss variance).

Example::

    python -m gomoku.match --engine1 "python -m gomoku.pbrain" \\
        --engine2 "python -m gomoku.pbrain" --games 20 --turn-ms 100

Engine processes are kept across games (new game with ``RESTART``, or ``START`` when an
engine refuses RESTART) and restarted after a crash or a timeout. ``--concurrency K`` plays
K games at once, each with its own pair of processes. Only the engine to move thinks
(there is no pondering), so K games keep K engines busy: with K equal to the number of
cores the engines already compete with everything else on the machine (the referee, the
OS, other jobs), and K above it divides the CPU, so the think time no longer buys the
same depth. The summary's "reported search depth" shows the effect.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .errors import GomokuError
from .geometry import moves_from_text, moves_to_text
from .renju_reference import forbidden as renju_forbidden
from .rules import DEFAULT_SIZE, Rule, check_size, parse_rule

Point = tuple[int, int]

OPENING_SIZE = 15  # opening files are written for 15x15 and centred on larger boards
DEFAULT_OPENINGS = Path(__file__).resolve().parents[2] / "openings" / "balanced.txt"
DEFAULT_TOLERANCE_MS = 200
START_TIMEOUT_S = 30.0
ABOUT_TIMEOUT_S = 5.0
_MOVE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_NAME_RE = re.compile(r'name\s*=\s*"([^"]*)"', re.IGNORECASE)
_QUIET_PREFIXES = ("MESSAGE", "DEBUG")
_DEPTH_RE = re.compile(r"\bdepth\s+(\d+)", re.IGNORECASE)

# --------------------------------------------------------------------------------------
# Statistics


def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in [0, 1] (logistic model, 400 scale).

    Returns -inf for 0 and +inf for 1.
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_stats(wins: int, losses: int, draws: int) -> tuple[float, float]:
    """Mean score per game and its standard error -> (score, stderr).

    The per-game variance is the trinomial one: sum over outcomes (1, 1/2, 0) of
    frequency * (outcome - score)^2; stderr = sqrt(variance / games). Raises ValueError
    when there are no games.
    """
    n = wins + losses + draws
    if n <= 0:
        raise ValueError("no games")
    score = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    return score, math.sqrt(var / n)


def elo_with_error(wins: int, losses: int, draws: int, z: float = 1.96) -> tuple[float, float]:
    """Elo difference and the half-width of its confidence interval -> (elo, error).

    The interval is the Elo of score -/+ z * stderr (z = 1.96: 95%); the error is half
    its width and is inf when a bound reaches a score of 0 or 1 (or the score is 0 or 1).
    """
    score, se = score_stats(wins, losses, draws)
    if score in (0.0, 1.0):
        return elo_from_score(score), math.inf
    lo = elo_from_score(score - z * se)
    hi = elo_from_score(score + z * se)
    return elo_from_score(score), (hi - lo) / 2.0


def format_elo(elo: float, error: float) -> str:
    """ "+35.2 +/- 80.1" (inf shown as "inf")."""

    def fmt(v: float, sign: bool) -> str:
        if math.isinf(v):
            text = "inf"
            return ("+" if v > 0 else "-") + text if sign else text
        v = round(v, 1) + 0.0  # no "-0.0"
        return f"{v:+.1f}" if sign else f"{v:.1f}"

    return f"{fmt(elo, True)} +/- {fmt(error, False)}"


# --------------------------------------------------------------------------------------
# Referee


_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def find_five(board: Sequence[Sequence[int]], x: int, y: int, rule: Rule) -> list[Point] | None:
    """The winning line through the stone at (x, y), or None.

    ``board[y][x]`` holds 0 (empty), 1 or 2. Freestyle: a run of five or more wins; standard:
    a run of exactly five; renju: exactly five for black (1), five or more for white (2).
    Returns the whole run (sorted along its direction).
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


# --------------------------------------------------------------------------------------
# Openings


def parse_openings(text: str, size: int = DEFAULT_SIZE) -> list[list[Point]]:
    """Parse an openings file: one opening per line as "h8 i9 j10" (black first).

    Blank lines and text after '#' are ignored. Moves are read on a 15x15 board and
    shifted to the centre of a larger one. Raises ValueError (with the line number) on a
    malformed move, a repeated cell or a position that already has a five.
    """
    check_size(size)
    shift = (size - OPENING_SIZE) // 2
    openings = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            moves = [(x + shift, y + shift) for x, y in moves_from_text(line, OPENING_SIZE)]
        except GomokuError as exc:
            raise ValueError(f"line {lineno}: {exc}") from None
        if len(set(moves)) != len(moves):
            raise ValueError(f"line {lineno}: a cell is played twice")
        board = [[0] * size for _ in range(size)]
        for i, (x, y) in enumerate(moves):
            board[y][x] = 1 + i % 2
            if find_five(board, x, y, Rule.FREESTYLE):
                raise ValueError(f"line {lineno}: the opening already contains a five")
        openings.append(moves)
    return openings


def load_openings(path: str | Path, size: int = DEFAULT_SIZE) -> list[list[Point]]:
    """Read and parse an openings file (see parse_openings); ValueError if it has none."""
    openings = parse_openings(Path(path).read_text(encoding="utf-8"), size)
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


# --------------------------------------------------------------------------------------
# Engine processes


class EngineError(Exception):
    """The engine process failed: crashed, timed out or could not be started."""


class EngineCrash(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class EngineProcess:
    """One Gomocup engine run as a child process, talking line by line over pipes.

    A reader thread moves stdout lines into a queue so reads can time out. MESSAGE and
    DEBUG lines are skipped by :meth:`read_answer` (the last MESSAGE is kept).
    """

    def __init__(self, command: str, label: str, verbose: bool = False) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError(f"empty engine command for {label}")
        self.command = command
        self.label = label
        self.verbose = verbose
        self.name: str | None = None
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.last_message = ""
        self.fresh = True  # no game started since the process was launched

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Launch the process (EngineCrash if it cannot be started)."""
        self.kill()
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None if self.verbose else subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            self.proc = None
            raise EngineCrash(f"cannot start {self.command!r}: {exc}") from None
        self.lines = queue.Queue()
        self.fresh = True
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _reader(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def send(self, *commands: str) -> None:
        """Write command lines and flush (EngineCrash if the pipe is closed)."""
        if self.proc is None or self.proc.stdin is None:
            raise EngineCrash("not running")
        try:
            self.proc.stdin.write("".join(c + "\n" for c in commands))
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineCrash("crashed (pipe closed)") from None

    def drain(self) -> None:
        """Discard pending output (EngineCrash if the process has exited)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                raise EngineCrash("crashed (exited)")

    def read_answer(self, timeout_s: float) -> str:
        """The next line that is not MESSAGE/DEBUG, within timeout_s seconds.

        Raises EngineTimeout or EngineCrash (end of output).
        """
        deadline = time.perf_counter() + timeout_s
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise EngineTimeout(f"no answer within {timeout_s * 1000:.0f} ms")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                code = self.proc.wait(timeout=5) if self.proc else None
                raise EngineCrash(f"crashed (exit code {code})")
            word = line.split(None, 1)[0].upper() if line.strip() else ""
            if word in _QUIET_PREFIXES:
                if word == "MESSAGE":
                    self.last_message = line[len("MESSAGE") :].strip()
                continue
            if not word:
                continue
            return line

    def request_ok(self, command: str, timeout_s: float) -> None:
        """Send a command that must be answered OK (EngineError otherwise)."""
        self.send(command)
        answer = self.read_answer(timeout_s)
        if answer.strip().upper() != "OK":
            raise EngineError(f"{command.split()[0]} answered {answer.strip()[:80]!r}")

    def about(self) -> str:
        """The engine's name from ABOUT (falls back to the command's program name)."""
        fallback = Path(self.argv[0]).name if len(self.argv) == 1 else " ".join(self.argv[-2:])
        try:
            self.send("ABOUT")
            m = _NAME_RE.search(self.read_answer(ABOUT_TIMEOUT_S))
        except EngineError:
            return fallback
        return m.group(1) if m and m.group(1) else fallback

    def kill(self) -> None:
        """Kill the process if running."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    if stream:
                        stream.close()
                except OSError:
                    pass
        self.proc = None

    def stop(self) -> None:
        """Send END, give the engine a moment to exit, then kill it."""
        if self.alive:
            try:
                self.send("END")
                assert self.proc is not None
                self.proc.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()


# --------------------------------------------------------------------------------------
# Games


@dataclass
class MatchConfig:
    """Settings of a match (times in milliseconds)."""

    engine1: str
    engine2: str
    games: int = 2
    turn_ms: int = 1000
    size: int = DEFAULT_SIZE
    rule: Rule = Rule.FREESTYLE
    match_ms: int | None = None
    tolerance_ms: int = DEFAULT_TOLERANCE_MS
    concurrency: int = 1
    seed: int | None = None
    verbose: bool = False


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


def build_schedule(openings: list[list[Point]], games: int, seed: int | None) -> list[GameSpec]:
    """Games in pairs: each opening with engine1 as black, then as white. Openings are
    taken in file order (shuffled when a seed is given), cycling when games exceed twice
    their number."""
    order = list(range(len(openings)))
    if seed is not None:
        random.Random(seed).shuffle(order)
    specs: list[GameSpec] = []
    k = 0
    while len(specs) < games:
        oi = order[k % len(order)]
        k += 1
        for black in (0, 1):
            if len(specs) < games:
                specs.append(GameSpec(len(specs), oi, list(openings[oi]), black))
    return specs


# Gomocup's INFO rule value for each rule (bit 1 exactly five, bit 4 renju).
INFO_RULE_BITS = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}


def _new_game(engine: EngineProcess, cfg: MatchConfig) -> None:
    """Bring an engine to a fresh game with this match's settings (EngineError on failure).

    The INFO settings go first, so that an engine can prepare for the rule while it
    answers START/RESTART (which has a generous timeout) rather than during its first move.
    """
    if not engine.alive:
        engine.start()
    else:
        engine.drain()
    engine.send(
        f"INFO timeout_turn {cfg.turn_ms}",
        f"INFO timeout_match {cfg.match_ms or 0}",
        f"INFO time_left {cfg.match_ms or 2147483647}",
        "INFO max_memory 0",
        "INFO game_type 1",
        f"INFO rule {INFO_RULE_BITS[cfg.rule]}",
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

    for idx in (0, 1):
        try:
            _new_game(engines[idx], cfg)
        except EngineError as exc:
            engines[idx].kill()
            return lose(idx, "start", f"failed to start a game: {exc}")

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
        allowed_ms = cfg.turn_ms + cfg.tolerance_ms
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


# --------------------------------------------------------------------------------------
# Match


@dataclass
class MatchSummary:
    """Results of a match, in game order."""

    results: list[GameResult]
    names: list[str]

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.winner == 0)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.results if r.winner == 1)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    def lines(self) -> list[str]:
        """The final report as text lines (the first starts with "Result:")."""
        w, l, d = self.wins, self.losses, self.draws
        n = w + l + d
        out = []
        if n == 0:
            return ["Result: no games played"]
        score, se = score_stats(w, l, d)
        elo, err = elo_with_error(w, l, d)
        out.append(
            f"Result: engine1 {self.names[0]} vs engine2 {self.names[1]}: "
            f"+{w} -{l} ={d} of {n}, score {100 * score:.1f}% (+/- {196 * se:.1f}), "
            f"Elo {format_elo(elo, err)} (95%)"
        )
        by_colour = Counter()
        for r in self.results:
            side = "black" if r.spec.black == 0 else "white"
            by_colour[side, "w" if r.winner == 0 else "l" if r.winner == 1 else "d"] += 1
        for side in ("black", "white"):
            out.append(
                f"engine1 as {side}: +{by_colour[side, 'w']} -{by_colour[side, 'l']} "
                f"={by_colour[side, 'd']}"
            )
        colour_wins = Counter(r.result_text for r in self.results)
        out.append(
            f"black won {colour_wins['1-0']}, white won {colour_wins['0-1']}, "
            f"draws {colour_wins['1/2-1/2']}"
        )
        reasons = Counter(r.kind for r in self.results)
        out.append("endings: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
        moves = [len(r.moves) for r in self.results]
        times = [t for r in self.results for t in r.times_ms]
        out.append(
            f"moves per game: mean {sum(moves) / n:.1f}, max {max(moves)}; "
            f"answer time: mean {sum(times) / max(1, len(times)):.0f} ms, "
            f"max {max(times, default=0)} ms"
        )
        depths = [
            int(m.group(1))
            for r in self.results
            for info in r.infos
            if (m := _DEPTH_RE.search(info))
        ]
        if depths:
            out.append(
                f"reported search depth (last MESSAGE per move): mean "
                f"{sum(depths) / len(depths):.1f} over {len(depths)} moves"
            )
        return out


def game_record(result: GameResult, cfg: MatchConfig, names: list[str]) -> dict[str, object]:
    """A JSON-ready record of one game."""
    spec = result.spec
    return {
        "game": spec.index + 1,
        "size": cfg.size,
        "rule": cfg.rule.label,
        "turn_ms": cfg.turn_ms,
        "opening_index": spec.opening_index,
        "opening": moves_to_text(spec.opening, cfg.size),
        "black": f"engine{spec.black + 1}",
        "white": f"engine{2 - spec.black}",
        "black_name": names[spec.black],
        "white_name": names[1 - spec.black],
        "result": result.result_text,
        "winner": None if result.winner is None else f"engine{result.winner + 1}",
        "reason": result.reason,
        "moves": moves_to_text(result.moves, cfg.size),
        "five": moves_to_text(result.line, cfg.size),
        "times_ms": result.times_ms,
        "infos": result.infos,
    }


def run_match(
    cfg: MatchConfig,
    specs: list[GameSpec],
    out: TextIO | None = None,
    on_result: Callable[[GameResult, list[str]], None] | None = None,
) -> MatchSummary:
    """Play the scheduled games with cfg.concurrency workers; print a line per game
    to ``out`` (default sys.stdout).

    on_result(result, names) is called (under a lock) after each game, in finishing order.
    """
    stream = out if out is not None else sys.stdout
    results: list[GameResult | None] = [None] * len(specs)
    names = ["engine1", "engine2"]
    todo: queue.Queue[GameSpec] = queue.Queue()
    for s in specs:
        todo.put(s)
    lock = threading.Lock()
    errors: list[BaseException] = []
    tally = [0, 0, 0]  # engine1 wins, losses, draws

    def worker() -> None:
        engines = [
            EngineProcess(cfg.engine1, "engine1", cfg.verbose),
            EngineProcess(cfg.engine2, "engine2", cfg.verbose),
        ]
        try:
            while not errors:
                try:
                    spec = todo.get_nowait()
                except queue.Empty:
                    return
                res = play_game(engines, spec, cfg)
                with lock:
                    for i, e in enumerate(engines):
                        if e.name and names[i] == f"engine{i + 1}":
                            names[i] = e.name
                    results[spec.index] = res
                    tally[0 if res.winner == 0 else 1 if res.winner == 1 else 2] += 1
                    done = sum(tally)
                    black = f"engine{spec.black + 1}"
                    stream.write(
                        f"[{done}/{len(specs)}] game {spec.index + 1} "
                        f"(opening {spec.opening_index + 1}: "
                        f"{moves_to_text(spec.opening, cfg.size) or '-'}; black={black}): "
                        f"{res.result_text} {res.reason}, {len(res.moves)} moves | engine1 "
                        f"+{tally[0]} -{tally[1]} ={tally[2]}\n"
                    )
                    stream.flush()
                    if on_result:
                        on_result(res, names)
        except BaseException as exc:  # surfaced by the main thread
            errors.append(exc)
        finally:
            for e in engines:
                e.stop()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, cfg.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.2)
    if errors:
        raise errors[0]
    return MatchSummary([r for r in results if r is not None], names)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gomoku.match",
        description="Play two Gomocup engines against each other from balanced openings.",
    )
    p.add_argument("--engine1", required=True, help="command line of engine 1")
    p.add_argument("--engine2", required=True, help="command line of engine 2")
    p.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    p.add_argument("--turn-ms", type=int, required=True, help="time per move in ms")
    p.add_argument("--openings", default=None, help=f"openings file (default {DEFAULT_OPENINGS})")
    p.add_argument("--size", type=int, default=DEFAULT_SIZE, help="board size 15..20")
    p.add_argument("--rule", default="freestyle", choices=[r.label for r in Rule])
    p.add_argument("--match-ms", type=int, default=None, help="time per game per engine, ms")
    p.add_argument(
        "--tolerance-ms",
        type=int,
        default=DEFAULT_TOLERANCE_MS,
        help=f"grace added to every time limit (default {DEFAULT_TOLERANCE_MS})",
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle the openings with this seed")
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once (default 1). K games keep K engines thinking; on a "
        "2-core machine K=2 leaves no core for anything else and K>2 divides the CPU",
    )
    p.add_argument(
        "--records", "--pgn-out", dest="records", default=None, help="write JSON-lines records"
    )
    p.add_argument("--verbose", action="store_true", help="show the engines' stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status (2 on bad arguments)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        size = check_size(args.size)
        rule = parse_rule(args.rule)
    except GomokuError as exc:
        parser.error(str(exc))
    if args.games < 1 or args.turn_ms < 0 or args.concurrency < 1:
        parser.error("--games and --concurrency must be >= 1 and --turn-ms >= 0")
    path = Path(args.openings) if args.openings else DEFAULT_OPENINGS
    try:
        openings = load_openings(path, size)
    except (OSError, ValueError) as exc:
        parser.error(f"openings: {exc}")
    cfg = MatchConfig(
        engine1=args.engine1,
        engine2=args.engine2,
        games=args.games,
        turn_ms=args.turn_ms,
        size=size,
        rule=rule,
        match_ms=args.match_ms,
        tolerance_ms=args.tolerance_ms,
        concurrency=args.concurrency,
        seed=args.seed,
        verbose=args.verbose,
    )
    specs = build_schedule(openings, cfg.games, cfg.seed)
    print(
        f"Match: {cfg.games} games, {cfg.turn_ms} ms/move (+{cfg.tolerance_ms} ms grace)"
        f"{f', {cfg.match_ms} ms/game' if cfg.match_ms else ''}, {size}x{size} {rule.label}, "
        f"{len(openings)} openings from {path}, concurrency {cfg.concurrency}",
        flush=True,
    )
    print(f"engine1: {cfg.engine1}\nengine2: {cfg.engine2}", flush=True)
    t0 = time.perf_counter()
    records: TextIO | None = open(args.records, "w", encoding="utf-8") if args.records else None

    def write_record(result: GameResult, names: list[str]) -> None:
        if records:
            records.write(json.dumps(game_record(result, cfg, names)) + "\n")
            records.flush()

    try:
        summary = run_match(cfg, specs, on_result=write_record)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if records:
            records.close()
    for line in summary.lines():
        print(line)
    print(f"wall time {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
