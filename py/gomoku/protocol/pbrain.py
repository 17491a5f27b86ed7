"""Gomocup (Piskvork) brain protocol on stdin/stdout: ``python -m gomoku.pbrain``.

This module is a thin text layer over the Engine facade (docs/ENGINE_API.md), in the spirit
of a chess engine's UCI layer: small pure functions parse commands and format answers, and
:class:`Brain` keeps the protocol state and calls the engine.

Supported commands (case-insensitive command words, one per line):

- ``START n``        new game on an n x n board (15..20); answers ``OK`` or ``ERROR ...``.
- ``RESTART``        new game, same size; answers ``OK``.
- ``BEGIN``          we play the first move; answers ``x,y``.
- ``TURN x,y``       the opponent played (x, y); answers our move ``x,y``.
- ``BOARD`` ... ``DONE``  sets the whole position: lines ``x,y,f`` with f = 1 own stone,
                     2 opponent stone, 3 continuous-game stone (ignored with a MESSAGE).
                     The move order is rebuilt by alternating the two colours in the given
                     order: equal counts -> we are black, one opponent stone more -> we are
                     white, anything else is an error. Answers our move.
- ``TAKEBACK x,y``   undoes the last move if it is (x, y); answers ``OK``.
- ``INFO key value`` timeout_turn, timeout_match, time_left (ms), max_memory, game_type,
                     rule (bit field: 1 = exactly five; 2 = continuous (ignored); 4 = renju,
                     whatever the other bits; 8 = caro is not supported: we fall back to
                     "exactly five", or renju when bit 4 is set, with a MESSAGE),
                     thread_num, max_node (see below), multipv (1..8: after each
                     search depth, one ``MESSAGE multipv K move h8 score +0.4 pv ...``
                     per best root move, for analysis), folder, evaluate. No answer;
                     unknown keys ignored.
- ``ABOUT``          answers ``name="...", version="...", author="...", country="..."``.
- ``END``            exits.

Anything malformed or illegal (unknown command, bad coordinates, occupied cell, a move
command before START, ...) is answered by one line ``ERROR <reason>`` and the brain keeps
running. Under renju that includes a black stone on a forbidden point, in TURN or in a
BOARD position (checked in the order given), e.g. ``ERROR 7,7 is forbidden for black
(double three)``; the position is left as it was. Our own moves are checked too: should
the engine choose a forbidden point for black, the strongest allowed candidate is played
instead, with a ``MESSAGE renju: the engine chose ...`` line (gomoku.engine.renju_guard).
running. While searching, ``MESSAGE`` lines report depth, score, nodes, nps and the
principal variation in "h8" notation, and one more ``MESSAGE`` just before the move gives
the result: the total nodes of the move (threat stages included) and its ``source``
(book, forced, threat, search). A ``DEBUG`` line before each search gives the budget
(soft target and hard cap, or the node limit and the cap). Every line written is flushed.

Node limits (``INFO max_node N``, the key Rapfi accepts; N <= 0 removes the limit): each
move is searched with ``nodes=N`` in the engine's Limits (the threat stages get N // 4
each, the alpha-beta search the rest) and no soft time target, so the move and the node
count depend only on the position and the game so far, never on the machine's load: the
opening book picks among close replies with the fixed seed ``NODE_LIMIT_SEED``. The time
controls still apply, as a safety cap only (the hard cap computed from timeout_turn and
the clock): send a generous timeout_turn (``python -m gomoku_lab.match --nodes`` does), or a
slow machine may reach the cap and cut the search short. This holds with one search
thread; with thread_num >= 2 the parallel search is not deterministic (which worker's
result is played, and how deep the workers get, depends on timing).

Differences from the letter of the spec: unknown commands get ``ERROR`` (not ``UNKNOWN``);
TAKEBACK only undoes the last move; there is no pondering and no interruption of a search
(the time budget alone bounds it).
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from gomoku import __version__
from gomoku.core.errors import GomokuError
from gomoku.core.geometry import to_text
from gomoku.core.rules import MAX_SIZE, MIN_SIZE, Rule
from gomoku.search.score import Score

Point = tuple[int, int]

BRAIN_NAME = "gomoku-py"
BRAIN_AUTHOR = "gomoku-engine project"
BRAIN_COUNTRY = "-"

DEFAULT_TIMEOUT_TURN_MS = 5000
# Under INFO max_node the book chooses among close replies with this seed (determinism).
NODE_LIMIT_SEED = 0

# INFO rule bits (Gomocup).
RULE_EXACT_FIVE = 1
RULE_CONTINUOUS = 2
RULE_RENJU = 4
RULE_CARO = 8

# Commands that need a game started with START.
_GAME_COMMANDS = {"RESTART", "BEGIN", "TURN", "BOARD", "TAKEBACK"}
_KNOWN_COMMANDS = _GAME_COMMANDS | {"START", "INFO", "ABOUT", "END", "DONE"}
_INT_RE = re.compile(r"^[+-]?\d+$")


class ProtocolError(GomokuError):
    """A malformed command or argument; the message becomes ``ERROR <message>``."""


# --------------------------------------------------------------------------------------
# Pure parsing / formatting helpers


def parse_command(line: str) -> tuple[str, str]:
    """Split a protocol line into (COMMAND in upper case, rest of the line stripped).

    Surrounding whitespace and a trailing CR are ignored; an empty line gives ("", "").
    """
    text = line.strip()
    if not text:
        return "", ""
    parts = text.split(None, 1)
    return parts[0].upper(), parts[1].strip() if len(parts) > 1 else ""


def parse_int(text: str, what: str = "value") -> int:
    """Parse a decimal integer (optional sign); ProtocolError if malformed."""
    t = text.strip()
    if not _INT_RE.match(t):
        raise ProtocolError(f"malformed {what} {text!r} (expected an integer)")
    return int(t)


def parse_point(text: str, size: int) -> Point:
    """Parse "x,y" (0-based, spaces allowed around the numbers) on a size x size board.

    Raises ProtocolError when malformed or off the board.
    """
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"malformed coordinates {text!r} (expected x,y)")
    x = parse_int(parts[0], "coordinate")
    y = parse_int(parts[1], "coordinate")
    if not (0 <= x < size and 0 <= y < size):
        raise ProtocolError(f"coordinates {x},{y} are off the {size}x{size} board")
    return x, y


def parse_board_line(text: str, size: int) -> tuple[int, int, int]:
    """Parse a BOARD line "x,y,f" (f in 1, 2, 3) -> (x, y, f); ProtocolError otherwise."""
    parts = text.strip().split(",")
    if len(parts) != 3:
        raise ProtocolError(f"malformed BOARD line {text.strip()!r} (expected x,y,field)")
    x, y = parse_point(f"{parts[0]},{parts[1]}", size)
    field = parse_int(parts[2], "BOARD field")
    if field not in (1, 2, 3):
        raise ProtocolError(f"BOARD field must be 1, 2 or 3, got {field}")
    return x, y, field


def order_board_stones(stones: Iterable[tuple[int, int, int]]) -> tuple[list[Point], int]:
    """Rebuild a move order from BOARD stones -> (moves black first, our colour 1|2).

    Own (field 1) and opponent (field 2) stones are interleaved in the order given; field 3
    stones are skipped. Equal counts: we are black (and to move); one opponent stone more:
    we are white. Any other count, or a cell given twice, raises ProtocolError.
    """
    own: list[Point] = []
    opp: list[Point] = []
    seen: set[Point] = set()
    for x, y, field in stones:
        if (x, y) in seen:
            raise ProtocolError(f"BOARD gives cell {x},{y} twice")
        seen.add((x, y))
        if field == 1:
            own.append((x, y))
        elif field == 2:
            opp.append((x, y))
    if len(own) == len(opp):
        first, second, colour = own, opp, 1
    elif len(opp) == len(own) + 1:
        first, second, colour = opp, own, 2
    else:
        raise ProtocolError(
            f"BOARD has {len(own)} own and {len(opp)} opponent stones: cannot tell whose turn"
        )
    moves: list[Point] = []
    for i, p in enumerate(first):
        moves.append(p)
        if i < len(second):
            moves.append(second[i])
    return moves, colour


def rule_from_info(bits: int) -> tuple[Rule, str | None]:
    """Map the INFO rule bit field to our Rule -> (rule, warning or None).

    Bit 4 (renju) -> RENJU, whatever the other bits (renju implies black's exact five).
    Otherwise bit 1 (exactly five) -> STANDARD, else FREESTYLE. Caro (8) is not
    supported: it falls back to STANDARD (overlines do not win), or RENJU with bit 4,
    with a warning. Bit 2 (continuous game) is accepted and ignored.
    """
    if bits < 0:
        raise ProtocolError(f"INFO rule must be >= 0, got {bits}")
    if bits & RULE_RENJU:
        rule = Rule.RENJU
    else:
        rule = Rule.STANDARD if bits & RULE_EXACT_FIVE else Rule.FREESTYLE
    if bits & RULE_CARO:
        fallback = rule if rule is Rule.RENJU else Rule.STANDARD
        return fallback, f"rule caro is not supported; playing {fallback.label}"
    return rule, None


@dataclass
class TimeSettings:
    """Time controls received through INFO (milliseconds; None = not given)."""

    timeout_turn: int = DEFAULT_TIMEOUT_TURN_MS
    timeout_match: int | None = None
    time_left: int | None = None


MAX_THREADS = 8  # INFO thread_num is clamped to 1..MAX_THREADS


def time_controls(settings: TimeSettings) -> dict[str, int | None]:
    """The time controls received so far as ``Limits`` keywords, as they are: the time
    manager (gomoku.search.timeman.move_times) makes the move's optimum and maximum."""
    return {
        "turn_ms": settings.timeout_turn,
        "match_ms": settings.timeout_match,
        "time_left_ms": settings.time_left,
    }


def node_limits(controls: dict[str, int | None], max_nodes: int) -> dict[str, int | None]:
    """Limits keyword arguments for a node-limited move (``INFO max_node``): the node limit,
    the time controls (with no soft target the time manager keeps only a safety cap of
    them) and the book's fixed seed NODE_LIMIT_SEED."""
    if max_nodes <= 0:
        raise ValueError(f"max_nodes must be positive, got {max_nodes}")
    return {**controls, "time_ms": None, "nodes": max_nodes, "seed": NODE_LIMIT_SEED}


def format_move(point: Point) -> str:
    """(x, y) -> "x,y"."""
    return f"{point[0]},{point[1]}"


def format_about(
    name: str = BRAIN_NAME,
    version: str = __version__,
    author: str = BRAIN_AUTHOR,
    country: str = BRAIN_COUNTRY,
) -> str:
    """The ABOUT answer: ``name="...", version="...", author="...", country="..."``."""
    fields = {"name": name, "version": version, "author": author, "country": country}
    return ", ".join(f'{k}="{v.replace(chr(34), chr(39))}"' for k, v in fields.items())


def format_pv(pv: Iterable[Point], size: int) -> str:
    """A principal variation as "h8 i9 ..." text (invalid points are skipped)."""
    out = []
    for p in pv:
        try:
            out.append(to_text(int(p[0]), int(p[1]), size))
        except (GomokuError, TypeError, ValueError, IndexError):
            continue
    return " ".join(out)


def format_search_info(info: Any, size: int) -> str:
    """A search progress object (SearchInfo or SearchResult) -> one MESSAGE line."""
    score = getattr(info, "score", None)
    parts = [
        f"depth {getattr(info, 'depth', '?')}",
        f"score {'?' if score is None else Score.of(score).text()}",
        f"nodes {getattr(info, 'nodes', '?')}",
        f"nps {int(getattr(info, 'nps', 0) or 0)}",
        f"time {int(getattr(info, 'time_ms', 0) or 0)}ms",
    ]
    source = getattr(info, "source", None)
    if source:
        parts.append(f"source {source}")
    pv = format_pv(getattr(info, "pv", None) or [], size)
    if pv:
        parts.append(f"pv {pv}")
    return "MESSAGE " + " ".join(parts)


MAX_MULTIPV = 8  # INFO multipv is clamped to 1..MAX_MULTIPV


def format_top_move(rank: int, line: Any, size: int) -> str:
    """One root move of a multi-PV search as a MESSAGE line:
    ``MESSAGE multipv 2 move i9 score +0.4 pv i9 h10 ...``."""
    x, y = line.move
    return (
        f"MESSAGE multipv {rank} move {to_text(int(x), int(y), size)} "
        f"score {Score.of(line.score).text()} pv {format_pv(line.pv, size)}"
    )


def fallback_move(moves: list[Point], size: int) -> Point:
    """A legal move when the search fails: the empty cell closest to the last move
    (or to the centre on an empty board). Raises ProtocolError on a full board."""
    occupied = set(moves)
    cx, cy = moves[-1] if moves else (size // 2, size // 2)
    best: Point | None = None
    best_d = None
    for y in range(size):
        for x in range(size):
            if (x, y) in occupied:
                continue
            d = (max(abs(x - cx), abs(y - cy)), abs(x - cx) + abs(y - cy))
            if best_d is None or d < best_d:
                best, best_d = (x, y), d
    if best is None:
        raise ProtocolError("the board is full")
    return best


# --------------------------------------------------------------------------------------
# The brain: protocol state on top of the engine


def _default_engine_factory(size: int, rule: Rule) -> Any:
    from gomoku.engine.facade import Engine  # imported lazily so the helpers above work without it

    engine = Engine(size=size, rule=rule)
    engine.warm_up()  # book and tables now, not on the first move's clock
    return engine


def _make_limits(kwargs: dict[str, int | None]) -> Any:
    from gomoku.engine.facade import Limits

    return Limits(**kwargs)


def _move_times(kwargs: dict[str, int | None], empty_cells: int) -> Any:
    """The optimum and maximum (ms) the engine will make of these limits (for DEBUG)."""
    return _make_limits(kwargs).times(empty_cells)


class Brain:
    """Protocol state machine. Feed it lines with :meth:`handle`; it writes answers
    through ``write`` (one call per output line, without newline).

    ``engine_factory(size, rule)`` builds the engine (default: gomoku.engine.facade.Engine);
    ``make_limits(kwargs)`` builds the Limits passed to ``think``.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        engine_factory: Callable[[int, Rule], Any] = _default_engine_factory,
        make_limits: Callable[[dict[str, int | None]], Any] = _make_limits,
    ) -> None:
        self.write = write
        self.engine_factory = engine_factory
        self.make_limits = make_limits
        self.engine: Any = None
        self.size: int | None = None
        self.rule: Rule = Rule.FREESTYLE
        self.times = TimeSettings()
        self.info: dict[str, str] = {}
        self.board_lines: list[str] | None = None  # collecting BOARD ... DONE
        self.finished = False
        self.threads = 1  # INFO thread_num: >= 2 searches on that many processes
        self.clear_workers = True  # the next parallel search clears the workers' tables
        self.max_nodes: int | None = None  # INFO max_node: node limit per move, None = none
        self.multipv = 1  # INFO multipv: root moves reported per iteration (analysis)
        self.level: int | None = None  # INFO level: a node-limited level (levels.py), None = off
        self.seed = 0  # INFO seed: the game's seed for a level's random choices

    # -- helpers --------------------------------------------------------------------
    def _error(self, reason: str) -> None:
        self.write("ERROR " + " ".join(reason.split()))

    def _message(self, text: str) -> None:
        self.write("MESSAGE " + " ".join(text.split()))

    def _sync_rule(self) -> None:
        """Rebuild the engine if the requested rule differs from the engine's."""
        if self.engine is None or self.engine.rule == self.rule:
            return
        moves = list(self.engine.moves)
        self.engine.new_game(size=self.size, rule=self.rule)
        try:
            self.engine.set_position(moves)
        except GomokuError as exc:
            self._message(f"position dropped after the rule change: {exc}")

    def _refuse_forbidden(self, moves: list[Point]) -> None:
        """Under renju, ProtocolError naming the shape when a black move of ``moves``
        (black first) is on a point forbidden when it is played."""
        if self.engine.rule != Rule.RENJU:
            return
        from gomoku.game.renju import first_forbidden_move

        found = first_forbidden_move(moves, self.size)
        if found:
            index, shape = found
            raise ProtocolError(f"{format_move(moves[index])} is forbidden for black ({shape})")

    @staticmethod
    def _parse_level(number: int) -> int | None:
        """INFO level N: None for 0 (the full engine) and for a timed level (the full
        engine on the manager's clock); a node-limited level's number; ProtocolError for
        an unknown one."""
        if number == 0:
            return None
        from gomoku.engine.levels import LevelError, level

        try:
            lv = level(number)
        except LevelError as exc:
            raise ProtocolError(str(exc)) from None
        return None if lv.timed else lv.number

    def _think_and_answer(self) -> None:
        eng = self.engine
        if eng.is_over:
            raise ProtocolError("the game is over: no move to make")
        size = eng.size
        controls = time_controls(self.times)
        budget = {"time_ms": None, **controls}
        if self.level is not None:
            from gomoku.engine.levels import level

            lv = level(self.level)
            self.write(f"DEBUG limits level {lv.number} nodes {lv.nodes} seed {self.seed}")
        elif self.max_nodes is not None:
            budget = node_limits(controls, self.max_nodes)
            times = _move_times(budget, size * size - len(eng.moves))
            self.write(f"DEBUG limits nodes {self.max_nodes} hard {times.maximum_ms:.0f} ms")
        else:
            times = _move_times(budget, size * size - len(eng.moves))
            self.write(
                f"DEBUG limits soft {times.optimum_ms:.0f} ms hard {times.maximum_ms:.0f} ms"
                + (f" clock {times.clock_ms:.0f} ms" if times.clock_ms is not None else "")
            )
        if self.multipv > 1:
            budget = {**budget, "multipv": self.multipv}
        limits = self.make_limits(budget)

        def on_info(info: Any) -> None:
            self.write(format_search_info(info, size))
            top = getattr(info, "top", None) or []
            if len(top) > 1:
                for rank, line in enumerate(top, 1):
                    self.write(format_top_move(rank, line, size))

        try:
            if self.level is not None:
                from gomoku.engine.levels import play

                result = play(eng, self.level, self.seed, controls=controls)
            elif self.threads > 1:
                from gomoku.parallel import parallel_think

                result = parallel_think(
                    list(eng.moves),
                    size,
                    eng.rule,
                    limits,
                    self.threads,
                    fresh=self.clear_workers,  # as the single engine's new_game clears its own
                    on_info=on_info,
                )
                self.clear_workers = False
            else:
                result = eng.think(limits, on_info=on_info)
            move = (int(result.move[0]), int(result.move[1]))
        except GomokuError:
            raise
        except Exception as exc:  # a bug in the search must not forfeit the game
            self._message(f"internal error in search: {type(exc).__name__}: {exc}")
            for line in traceback.format_exc().splitlines()[-6:]:
                self.write("DEBUG " + line)
            move = fallback_move(list(eng.moves), size)
        else:
            self.write(format_search_info(result, size))  # the move's totals and source
        move = self._renju_guard(move)
        eng.play(*move)
        self.write(format_move(move))

    def _renju_guard(self, move: Point) -> Point:
        """Our own move, unless it is black's on a forbidden point under renju: then the
        strongest allowed candidate (renju_guard), with a MESSAGE saying so."""
        from gomoku.engine.renju_guard import safe_move

        eng = self.engine
        replacement = safe_move(list(eng.moves), eng.size, eng.rule, move)
        if replacement is None:
            return move
        self._message(replacement.message(eng.size))
        return replacement.move

    # -- commands -------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one input line. Returns False once END was received."""
        if self.finished:
            return False
        try:
            self._dispatch(line)
        except GomokuError as exc:
            self._error(str(exc))
        except Exception as exc:  # keep running whatever happens
            self._error(f"internal error: {type(exc).__name__}: {exc}")
        return not self.finished

    def _dispatch(self, line: str) -> None:
        if self.board_lines is not None:
            self._board_line(line)
            return
        cmd, arg = parse_command(line)
        if not cmd:
            return
        if cmd not in _KNOWN_COMMANDS:
            raise ProtocolError(f"unknown command {cmd!r}")
        if cmd == "END":
            self.finished = True
            return
        if cmd == "ABOUT":
            self.write(format_about())
            return
        if cmd == "INFO":
            self._info(arg)
            return
        if cmd == "START":
            self._start(arg)
            return
        if cmd == "DONE":
            raise ProtocolError("DONE without BOARD")
        if self.engine is None:
            raise ProtocolError(f"{cmd} before START")
        getattr(self, "_cmd_" + cmd.lower())(arg)

    def _start(self, arg: str) -> None:
        size = parse_int(arg, "board size") if arg else -1
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported board size {arg!r} (use {MIN_SIZE}..{MAX_SIZE})")
        if self.engine is None:
            self.engine = self.engine_factory(size, self.rule)
        else:
            self.engine.new_game(size=size, rule=self.rule)
        self.size = size
        self.clear_workers = True
        self.write("OK")

    def _cmd_restart(self, arg: str) -> None:
        self.engine.new_game(size=self.size, rule=self.rule)
        self.clear_workers = True
        self.write("OK")

    def _cmd_begin(self, arg: str) -> None:
        if self.engine.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        self._sync_rule()
        self._think_and_answer()

    def _cmd_turn(self, arg: str) -> None:
        point = parse_point(arg, self.size)
        self._sync_rule()
        self._refuse_forbidden(list(self.engine.moves) + [point])
        self.engine.play(*point)  # IllegalMoveError -> ERROR, state unchanged
        self._think_and_answer()

    def _cmd_takeback(self, arg: str) -> None:
        point = parse_point(arg, self.size)
        moves = self.engine.moves
        if not moves or tuple(moves[-1]) != point:
            raise ProtocolError(f"TAKEBACK {arg}: not the last move")
        self.engine.undo()
        self.write("OK")

    def _cmd_board(self, arg: str) -> None:
        self.board_lines = []

    def _board_line(self, line: str) -> None:
        assert self.board_lines is not None
        cmd, _ = parse_command(line)
        if cmd == "END":
            self.board_lines = None
            self.finished = True
        elif cmd == "DONE":
            lines, self.board_lines = self.board_lines, None
            self._board_done(lines)
        elif cmd:
            self.board_lines.append(line.strip())

    def _board_done(self, lines: list[str]) -> None:
        stones = [parse_board_line(text, self.size) for text in lines]
        moves, _colour = order_board_stones(stones)
        skipped = sum(1 for s in stones if s[2] == 3)
        if skipped:
            self._message(f"{skipped} continuous-game stone(s) ignored")
        self._sync_rule()
        self._refuse_forbidden(moves)
        self.engine.set_position(moves)  # atomic; GomokuError -> ERROR
        self._think_and_answer()

    def _info(self, arg: str) -> None:
        key, _, value = arg.partition(" ")
        key = key.lower()
        value = value.strip()
        if not key:
            raise ProtocolError("INFO without a key")
        self.info[key] = value
        if key == "timeout_turn":
            self.times.timeout_turn = max(0, parse_int(value, "timeout_turn"))
        elif key == "timeout_match":
            self.times.timeout_match = max(0, parse_int(value, "timeout_match"))
        elif key == "time_left":
            self.times.time_left = parse_int(value, "time_left")
        elif key == "rule":
            rule, warning = rule_from_info(parse_int(value, "rule"))
            if warning:
                self._message(warning)
            self.rule = rule
            self._sync_rule()  # pay any table set-up now, not on the clock of a move
        elif key == "thread_num":
            threads = min(max(parse_int(value, key), 1), MAX_THREADS)
            if threads != self.threads and threads > 1:
                from gomoku.parallel.pool import default_pool

                default_pool(threads).ready()  # start the processes now, off the clock
            self.threads = threads
        elif key == "max_node":
            nodes = parse_int(value, key)
            self.max_nodes = nodes if nodes > 0 else None
        elif key == "multipv":
            self.multipv = min(max(parse_int(value, key), 1), MAX_MULTIPV)
        elif key == "level":
            self.level = self._parse_level(parse_int(value, key))
        elif key == "seed":
            self.seed = parse_int(value, key)
        elif key in ("max_memory", "game_type"):
            parse_int(value, key)
        # folder, evaluate and unknown keys: stored, otherwise ignored (as the spec says)


def run(stdin: TextIO, stdout: TextIO, brain: Brain | None = None) -> int:
    """Serve the protocol: read commands from ``stdin`` until END or end of input."""

    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    if brain is None:
        brain = Brain(write)
    for line in iter(stdin.readline, ""):
        if not brain.handle(line):
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``gomoku-pbrain`` / ``python -m gomoku.pbrain``.

    Options: ``--no-book`` (never answer from the opening book), ``--no-threats`` (no
    VCF/VCT at the root; for measuring the search alone), ``--threads N`` (as INFO
    thread_num N: search on N processes).
    """
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        print(main.__doc__)
        return 0
    threads = 1
    if "--threads" in args:
        i = args.index("--threads")
        try:
            threads = min(max(int(args[i + 1]), 1), MAX_THREADS)
        except (IndexError, ValueError):
            print("--threads needs a number", file=sys.stderr)
            return 2
        args = args[:i] + args[i + 2 :]
    unknown = [a for a in args if a not in ("--no-book", "--no-threats")]
    if unknown:
        print(f"unknown option {unknown[0]} (see --help)", file=sys.stderr)
        return 2
    overrides = {}
    if "--no-book" in args:
        overrides["use_book"] = False
    if "--no-threats" in args:
        overrides["use_threats"] = False
    if not overrides and threads == 1:
        return run(sys.stdin, sys.stdout)

    def make_limits(kwargs: dict[str, int | None]) -> Any:
        return _make_limits({**kwargs, **overrides})

    out = sys.stdout

    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    brain = Brain(write, make_limits=make_limits)
    if threads > 1:
        brain.handle(f"INFO thread_num {threads}")  # as if the manager had sent it
    return run(sys.stdin, out, brain)


if __name__ == "__main__":
    sys.exit(main())
