"""Gomocup (Piskvork) brain protocol on stdin/stdout: ``python -m gomoku.pbrain``.

This module is a thin text layer over the engine's play session (gomoku.engine.Session,
docs/ENGINE_API.md), in the spirit of a chess engine's UCI layer: pure functions parse
commands and format answers (gomoku.protocol.pbrain_text), and :class:`Brain` keeps the
protocol's state (time controls, threads, node limit, level) and calls the session.

The commands, answers and errors: gomoku.protocol.pbrain_text.

SWAP2BOARD (Gomocup's swap2 opening) is answered from gomoku.engine.opening_play: the
opening stones from the sets the lab judged balanced (the n-th opening of a process drawn
with the INFO seed and n, so that consecutive games differ), the choices from small
searches of the position from each side.

Differences from the letter of the spec: unknown commands get ``ERROR`` (not ``UNKNOWN``);
TAKEBACK only undoes the last move; there is no pondering and no interruption of a search
(the time budget alone bounds it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from gomoku.core.errors import GomokuError
from gomoku.core.rules import MAX_SIZE, MIN_SIZE, Rule
from gomoku.engine import (
    MAX_MULTIPV,
    Engine,
    ForbiddenMoveError,
    Level,
    Limits,
    SearchInfo,
    SearchResult,
    Session,
    new_engine,
    node_level,
)
from gomoku.engine.opening_play import CANDIDATES, decide, engine_evaluator
from gomoku.game import opening_rules
from gomoku.parallel import parallel_think
from gomoku.parallel.pool import default_pool
from gomoku.protocol.pbrain_text import (
    ProtocolError,
    format_about,
    format_move,
    format_search_info,
    format_stones,
    format_top_move,
    order_board_stones,
    parse_board_line,
    parse_command,
    parse_int,
    parse_point,
    parse_swap2_line,
    rule_from_info,
)

DEFAULT_TIMEOUT_TURN_MS = 5000
# Under INFO max_node the book chooses among close replies with this seed (determinism).
NODE_LIMIT_SEED = 0
MAX_THREADS = 8  # INFO thread_num is clamped to 1..MAX_THREADS

# A swap2 choice's searches share the turn: white's best moves, then black's replies to
# each of them (gomoku.engine.opening_play), and the move after it.
SWAP2_SEARCHES = CANDIDATES + 2
# Under a node limit each search gets this fraction of it: an answer is then worth about
# three moves' nodes (the match runner's turn cap holds it), and the choices are not as
# blind as at a sixth (BENCHMARKS.md, "Swap2 against Rapfi").
SWAP2_NODE_SHARE = 2
SWAP2_MIN_NODES = 1000  # the least a search of a swap2 choice gets under a node limit

# Commands that need a game started with START.
_GAME_COMMANDS = {"RESTART", "BEGIN", "TURN", "BOARD", "TAKEBACK", "SWAP2BOARD"}
_KNOWN_COMMANDS = _GAME_COMMANDS | {"START", "INFO", "ABOUT", "END", "DONE"}

LimitKeywords = dict[str, int | None]


@dataclass
class TimeSettings:
    """Time controls received through INFO (milliseconds; None = not given)."""

    timeout_turn: int = DEFAULT_TIMEOUT_TURN_MS
    timeout_match: int | None = None
    time_left: int | None = None


def time_controls(settings: TimeSettings) -> LimitKeywords:
    """The time controls received so far as ``Limits`` keywords, as they are: the time
    manager (gomoku.search.timeman.move_times) makes the move's optimum and maximum."""
    return {
        "turn_ms": settings.timeout_turn,
        "match_ms": settings.timeout_match,
        "time_left_ms": settings.time_left,
    }


def node_limits(controls: LimitKeywords, max_nodes: int) -> LimitKeywords:
    """Limits keyword arguments for a node-limited move (``INFO max_node``): the node limit,
    the time controls (with no soft target the time manager keeps only a safety cap of
    them) and the book's fixed seed NODE_LIMIT_SEED."""
    if max_nodes <= 0:
        raise ValueError(f"max_nodes must be positive, got {max_nodes}")
    return {**controls, "time_ms": None, "nodes": max_nodes, "seed": NODE_LIMIT_SEED}


def _make_limits(kwargs: LimitKeywords) -> Limits:
    return Limits(**kwargs)


class Brain:
    """Protocol state machine. Feed it lines with :meth:`handle`; it writes answers
    through ``write`` (one call per output line, without newline).

    ``engine_factory(size, rule)`` builds the session's engine (default: a warmed-up
    Engine); ``make_limits(kwargs)`` builds the Limits passed to ``think``.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        engine_factory: Callable[[int, Rule], Engine] = new_engine,
        make_limits: Callable[[LimitKeywords], Limits] = _make_limits,
    ) -> None:
        self.write = write
        self.engine_factory = engine_factory
        self.make_limits = make_limits
        self.session: Session | None = None  # the game, from START on
        self.rule: Rule = Rule.FREESTYLE  # INFO rule: the session follows it before a move
        self.times = TimeSettings()
        self.info: dict[str, str] = {}
        self.board_lines: list[str] | None = None  # collecting BOARD (or SWAP2BOARD) ... DONE
        self.collecting = "BOARD"  # which of the two is collecting
        self.openings_made = 0  # swap2 openings proposed by this process (their seeds)
        self.finished = False
        self.threads = 1  # INFO thread_num: >= 2 searches on that many processes
        self.clear_workers = True  # the next parallel search clears the workers' tables
        self.max_nodes: int | None = None  # INFO max_node: node limit per move, None = none
        self.multipv = 1  # INFO multipv: root moves reported per iteration (analysis)
        self.level: Level | None = None  # INFO level: a node-limited level, None = off
        self.seed = 0  # INFO seed: the game's seed for a level's random choices

    @property
    def engine(self) -> Engine | None:
        """The session's engine (None before START)."""
        return None if self.session is None else self.session.engine

    def _game(self) -> Session:
        if self.session is None:
            raise ProtocolError("no game: START first")
        return self.session

    # -- helpers --------------------------------------------------------------------
    def _error(self, reason: str) -> None:
        self.write("ERROR " + " ".join(reason.split()))

    def _message(self, text: str) -> None:
        self.write("MESSAGE " + " ".join(text.split()))

    def _sync_rule(self) -> None:
        """The session goes on under the rule INFO asked for (its moves kept if they
        stand under it)."""
        if self.session is not None:
            dropped = self.session.set_rule(self.rule)
            if dropped:
                self._message(dropped)

    def _think_and_answer(self) -> None:
        game = self._game()
        size = game.size
        controls = time_controls(self.times)
        budget: LimitKeywords = {"time_ms": None, **controls}
        empty = size * size - len(game.moves)
        if self.level is not None:
            lv = self.level
            self.write(f"DEBUG limits level {lv.number} nodes {lv.nodes} seed {self.seed}")
        elif self.max_nodes is not None:
            budget = node_limits(controls, self.max_nodes)
            times = Limits(**budget).times(empty)  # for DEBUG: what the engine will make of it
            self.write(f"DEBUG limits nodes {self.max_nodes} hard {times.maximum_ms:.0f} ms")
        else:
            times = Limits(**budget).times(empty)  # for DEBUG: what the engine will make of it
            self.write(
                f"DEBUG limits soft {times.optimum_ms:.0f} ms hard {times.maximum_ms:.0f} ms"
                + (f" clock {times.clock_ms:.0f} ms" if times.clock_ms is not None else "")
            )
        if self.multipv > 1:
            budget = {**budget, "multipv": self.multipv}
        search = self._parallel_search if self.threads > 1 else None
        played = game.think(
            self.make_limits(budget), self._on_info, level=self.level, seed=self.seed,
            search=search,
        )  # fmt: skip
        if played.failure:
            self._message(played.failure)
            for line in played.trace.splitlines()[-6:]:
                self.write("DEBUG " + line)
        else:
            self.write(format_search_info(played.result, size))  # the move's totals and source
        if played.guard is not None:
            self._message(played.guard.message(size))
        self.write(format_move(played.move))

    def _on_info(self, info: SearchInfo) -> None:
        size = self._game().size
        self.write(format_search_info(info, size))
        if len(info.top) > 1:
            for rank, line in enumerate(info.top, 1):
                self.write(format_top_move(rank, line, size))

    def _parallel_search(
        self, limits: Limits, on_info: Callable[[SearchInfo], None] | None
    ) -> SearchResult:
        """The search on ``threads`` processes (gomoku.parallel), in place of the
        engine's think."""
        game = self._game()
        result = parallel_think(
            game.moves, game.size, game.rule, limits, self.threads,
            fresh=self.clear_workers,  # as the single engine's new_game clears its own
            on_info=on_info,
        )  # fmt: skip
        self.clear_workers = False
        return result

    # -- commands -------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one input line. Returns False once END was received."""
        if self.finished:
            return False
        try:
            self._dispatch(line)
        except ForbiddenMoveError as exc:
            self._error(f"{format_move(exc.point)} is forbidden for black ({exc.shape})")
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
        if self.session is None:
            raise ProtocolError(f"{cmd} before START")
        getattr(self, "_cmd_" + cmd.lower())(arg)

    def _start(self, arg: str) -> None:
        size = parse_int(arg, "board size") if arg else -1
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported board size {arg!r} (use {MIN_SIZE}..{MAX_SIZE})")
        if self.session is None:
            self.session = Session(size, self.rule, self.engine_factory)
        else:
            self.session.new_game(size, self.rule)
        self.clear_workers = True
        self.write("OK")

    def _cmd_restart(self, arg: str) -> None:
        self._game().new_game(rule=self.rule)
        self.clear_workers = True
        self.write("OK")

    def _cmd_begin(self, arg: str) -> None:
        if self._game().moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        self._sync_rule()
        self._think_and_answer()

    def _cmd_turn(self, arg: str) -> None:
        game = self._game()
        point = parse_point(arg, game.size)
        self._sync_rule()
        game.play(*point)  # checked (occupied, renju); on an error the game is unchanged
        self._think_and_answer()

    def _cmd_takeback(self, arg: str) -> None:
        game = self._game()
        point = parse_point(arg, game.size)
        moves = game.moves
        if not moves or tuple(moves[-1]) != point:
            raise ProtocolError(f"TAKEBACK {arg}: not the last move")
        game.undo()
        self.write("OK")

    def _cmd_board(self, arg: str) -> None:
        self.board_lines = []
        self.collecting = "BOARD"

    def _cmd_swap2board(self, arg: str) -> None:
        self.board_lines = []
        self.collecting = "SWAP2BOARD"

    def _board_line(self, line: str) -> None:
        assert self.board_lines is not None
        cmd, _ = parse_command(line)
        if cmd == "END":
            self.board_lines = None
            self.finished = True
        elif cmd == "DONE":
            lines, self.board_lines = self.board_lines, None
            if self.collecting == "SWAP2BOARD":
                self._swap2_done(lines)
            else:
                self._board_done(lines)
        elif cmd:
            self.board_lines.append(line.strip())

    def _board_done(self, lines: list[str]) -> None:
        game = self._game()
        stones = [parse_board_line(text, game.size) for text in lines]
        moves, _colour = order_board_stones(stones)
        skipped = sum(1 for s in stones if s[2] == 3)
        if skipped:
            self._message(f"{skipped} continuous-game stone(s) ignored")
        self._sync_rule()
        game.set_position(moves)  # checked and atomic; GomokuError -> ERROR
        self._think_and_answer()

    def _swap2_done(self, lines: list[str]) -> None:
        """Answer a SWAP2BOARD (see gomoku.protocol.pbrain_text)."""
        game = self._game()
        stones = [parse_swap2_line(text, game.size) for text in lines]
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD takes 0, 3 or 5 stones, got {len(stones)}")
        self._sync_rule()
        state = opening_rules.start(opening_rules.SWAP2, game.size, self.rule)
        steps = [opening_rules.Action("place", p) for p in stones]
        if len(stones) == 5:
            steps.insert(3, opening_rules.Action("two"))
        try:
            state = opening_rules.replay(state, steps)
        except opening_rules.OpeningError as exc:
            raise ProtocolError(f"SWAP2BOARD: {exc}") from None
        game.set_position(stones)  # checked; the engine gets a fresh look at them
        limits = self._opening_limits()
        seed = self.seed * 1_000_003 + self.openings_made
        notes: list[str] = []
        actions = decide(state, engine_evaluator(game.engine, limits), seed, notes=notes)
        game.set_position(stones)  # where the searches left the engine: the stones again
        if not stones:
            self.openings_made += 1
        self._message("swap2 " + ("; ".join(notes) or "opening stones from the balanced set"))
        kinds = [a.kind for a in actions]
        if kinds == ["black"]:
            self.write("SWAP")
        elif kinds == ["white"]:
            self._think_and_answer()  # our 4th (or 6th) move as white
        else:  # three opening stones, or "two" and its two stones
            self.write(format_stones(a.point for a in actions if a.point is not None))

    def _opening_limits(self) -> Limits:
        """Each swap2 search's limits: under a node limit (INFO max_node) its
        1 / SWAP2_NODE_SHARE (at least SWAP2_MIN_NODES), else a share of the turn's time
        (SWAP2_SEARCHES searches in one answer)."""
        controls = time_controls(self.times)
        if self.max_nodes is not None:
            share = max(SWAP2_MIN_NODES, self.max_nodes // SWAP2_NODE_SHARE)
            return Limits(**node_limits(controls, share))
        share = max(1, self.times.timeout_turn // SWAP2_SEARCHES)
        return Limits(time_ms=None, turn_ms=share, seed=NODE_LIMIT_SEED)

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
                default_pool(threads).ready()  # start the processes now, off the clock
            self.threads = threads
        elif key == "max_node":
            nodes = parse_int(value, key)
            self.max_nodes = nodes if nodes > 0 else None
        elif key == "multipv":
            self.multipv = min(max(parse_int(value, key), 1), MAX_MULTIPV)
        elif key == "level":
            # 0 and the timed levels: the full engine on the manager's clock
            number = parse_int(value, key)
            self.level = None if number == 0 else node_level(number)
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
