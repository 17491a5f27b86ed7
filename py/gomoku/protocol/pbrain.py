"""Gomocup (Piskvork) brain protocol on stdin/stdout: ``python -m gomoku.pbrain`` (and
the ``gomoku-pbrain`` script) runs ``main``.

This module is a thin text layer over the engine's play session (gomoku.engine.Session,
docs/ENGINE_API.md), in the spirit of a chess engine's UCI layer: pure functions parse
commands and format answers (gomoku.protocol.pbrain_text, which lists the commands,
answers, errors and the command-line options), the limits of a move come from what INFO
set (gomoku.protocol.pbrain_limits), SWAP2BOARD's answer from
gomoku.protocol.pbrain_swap2, and :class:`Brain` keeps the protocol's state (time
controls, threads, node limit, level) and calls the session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
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
    Session,
    new_engine,
    node_level,
)
from gomoku.parallel import GameSearch
from gomoku.protocol import pbrain_text as gomocup
from gomoku.protocol.pbrain_limits import (
    LimitKeywords,
    TimeSettings,
    move_limits,
    swap2_limits,
)
from gomoku.protocol.pbrain_swap2 import swap2_choice
from gomoku.protocol.pbrain_text import ProtocolError

MAX_THREADS = 8  # INFO thread_num is clamped to 1..MAX_THREADS

# Commands that need a game started with START.
_GAME_COMMANDS = {"RESTART", "BEGIN", "TURN", "BOARD", "TAKEBACK", "SWAP2BOARD"}
_KNOWN_COMMANDS = _GAME_COMMANDS | {"START", "INFO", "ABOUT", "END", "DONE"}


class Brain:
    """Protocol state machine. Feed it lines with :meth:`handle`; it writes answers
    through ``write`` (one call per output line, without newline).

    ``engine_factory(size, rule)`` builds the session's engine (default: a warmed-up
    Engine); ``make_limits(kwargs)`` builds the Limits passed to ``think``; ``threads``
    as INFO thread_num would set it.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        engine_factory: Callable[[int, Rule], Engine] = new_engine,
        make_limits: Callable[[LimitKeywords], Limits] | None = None,
        threads: int = 1,
    ) -> None:
        self.write = write
        self.engine_factory = engine_factory
        self.make_limits = make_limits or (lambda kwargs: Limits(**kwargs))
        self.session: Session | None = None  # the game, from START on
        self.rule: Rule = Rule.FREESTYLE  # INFO rule: the session follows it before a move
        self.times = TimeSettings()
        self.info: dict[str, str] = {}
        self.board_lines: list[str] | None = None  # collecting BOARD (or SWAP2BOARD) ... DONE
        self.collecting = "BOARD"  # which of the two is collecting
        self.openings_made = 0  # swap2 openings proposed by this process (their seeds)
        self.finished = False
        self.threads = 1  # INFO thread_num: >= 2 searches on that many processes ...
        self.processes: GameSearch | None = None  # ... these
        self.max_nodes: int | None = None  # INFO max_node: node limit per move, None = none
        self.multipv = 1  # INFO multipv: root moves reported per iteration (analysis)
        self.level: Level | None = None  # INFO level: a node-limited level, None = off
        self.seed = 0  # INFO seed: the game's seed for a level's random choices
        self._set_threads(threads)

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

    def _set_threads(self, threads: int) -> None:
        """Search on ``threads`` processes (clamped to 1..MAX_THREADS) from the next move;
        the processes start now, off the clock."""
        threads = min(max(threads, 1), MAX_THREADS)
        if threads != self.threads:
            self.processes = GameSearch(threads) if threads > 1 else None
        self.threads = threads

    def _new_game(self) -> None:
        if self.processes is not None:
            self.processes.new_game()
        self.write("OK")

    def _think_and_answer(self) -> None:
        game = self._game()
        size = game.size
        empty = size * size - len(game.moves)
        nodes = self.max_nodes if self.level is None else None  # a level has its own
        budget, said = move_limits(self.times, nodes, self.multipv, empty)
        if self.level is not None:
            said = f"level {self.level.number} nodes {self.level.nodes} seed {self.seed}"
        self.write("DEBUG limits " + said)
        search = None if self.processes is None else partial(self.processes.think, game)
        played = game.think(
            self.make_limits(budget), self._on_info, level=self.level, seed=self.seed,
            search=search,
        )  # fmt: skip
        if played.failure:
            self._message(played.failure)
            for line in played.trace.splitlines()[-6:]:
                self.write("DEBUG " + line)
        else:
            self.write(gomocup.format_search_info(played.result, size))  # totals, source
        if played.guard is not None:
            self._message(played.guard.message(size))
        self.write(gomocup.format_move(played.move))

    def _on_info(self, info: SearchInfo) -> None:
        size = self._game().size
        self.write(gomocup.format_search_info(info, size))
        if len(info.top) > 1:
            for rank, line in enumerate(info.top, 1):
                self.write(gomocup.format_top_move(rank, line, size))

    # -- commands -------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one input line. Returns False once END was received."""
        if self.finished:
            return False
        try:
            self._dispatch(line)
        except ForbiddenMoveError as exc:
            self._error(f"{gomocup.format_move(exc.point)} is forbidden for black ({exc.shape})")
        except GomokuError as exc:
            self._error(str(exc))
        except Exception as exc:  # keep running whatever happens
            self._error(f"internal error: {type(exc).__name__}: {exc}")
        return not self.finished

    def _dispatch(self, line: str) -> None:
        if self.board_lines is not None:
            self._board_line(line)
            return
        cmd, arg = gomocup.parse_command(line)
        if not cmd:
            return
        if cmd not in _KNOWN_COMMANDS:
            raise ProtocolError(f"unknown command {cmd!r}")
        if cmd in _GAME_COMMANDS and self.session is None:
            raise ProtocolError(f"{cmd} before START")
        getattr(self, "_cmd_" + cmd.lower())(arg)

    def _cmd_end(self, arg: str) -> None:
        self.finished = True

    def _cmd_about(self, arg: str) -> None:
        self.write(gomocup.format_about())

    def _cmd_done(self, arg: str) -> None:
        raise ProtocolError("DONE without BOARD")

    def _cmd_start(self, arg: str) -> None:
        size = gomocup.parse_int(arg, "board size") if arg else -1
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported board size {arg!r} (use {MIN_SIZE}..{MAX_SIZE})")
        if self.session is None:
            self.session = Session(size, self.rule, self.engine_factory)
        else:
            self.session.new_game(size, self.rule)
        self._new_game()

    def _cmd_restart(self, arg: str) -> None:
        self._game().new_game(rule=self.rule)
        self._new_game()

    def _cmd_begin(self, arg: str) -> None:
        if self._game().moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        self._sync_rule()
        self._think_and_answer()

    def _cmd_turn(self, arg: str) -> None:
        game = self._game()
        point = gomocup.parse_point(arg, game.size)
        self._sync_rule()
        game.play(*point)  # checked (occupied, renju); on an error the game is unchanged
        self._think_and_answer()

    def _cmd_takeback(self, arg: str) -> None:
        game = self._game()
        point = gomocup.parse_point(arg, game.size)
        moves = game.moves
        if not moves or tuple(moves[-1]) != point:
            raise ProtocolError(f"TAKEBACK {arg}: not the last move")
        game.undo()
        self.write("OK")

    def _cmd_board(self, arg: str, collecting: str = "BOARD") -> None:
        self.board_lines, self.collecting = [], collecting

    def _cmd_swap2board(self, arg: str) -> None:
        self._cmd_board(arg, "SWAP2BOARD")

    def _board_line(self, line: str) -> None:
        assert self.board_lines is not None
        cmd, _ = gomocup.parse_command(line)
        if cmd == "END":
            self.board_lines = None
            self.finished = True
        elif cmd == "DONE":
            lines, self.board_lines = self.board_lines, None
            getattr(self, f"_{self.collecting.lower()}_done")(lines)  # BOARD or SWAP2BOARD
        elif cmd:
            self.board_lines.append(line.strip())

    def _board_done(self, lines: list[str]) -> None:
        game = self._game()
        stones = [gomocup.parse_board_line(text, game.size) for text in lines]
        moves, _colour = gomocup.order_board_stones(stones)
        skipped = sum(1 for s in stones if s[2] == 3)
        if skipped:
            self._message(f"{skipped} continuous-game stone(s) ignored")
        self._sync_rule()
        game.set_position(moves)  # checked and atomic; GomokuError -> ERROR
        self._think_and_answer()

    def _swap2board_done(self, lines: list[str]) -> None:
        """Answer a SWAP2BOARD (see gomoku.protocol.pbrain_text)."""
        game = self._game()
        stones = [gomocup.parse_swap2_line(line, game.size) for line in lines]
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(f"SWAP2BOARD takes 0, 3 or 5 stones, got {len(stones)}")
        self._sync_rule()
        limits = swap2_limits(self.times, self.max_nodes)
        seed = self.seed * 1_000_003 + self.openings_made
        actions, notes = swap2_choice(game, stones, self.rule, limits, seed)
        if not stones:
            self.openings_made += 1
        self._message("swap2 " + ("; ".join(notes) or "opening stones from the balanced set"))
        kinds = [a.kind for a in actions]
        if kinds == ["black"]:
            self.write("SWAP")
        elif kinds == ["white"]:
            self._think_and_answer()  # our 4th (or 6th) move as white
        else:  # three opening stones, or "two" and its two stones
            self.write(gomocup.format_stones(a.point for a in actions if a.point is not None))

    def _cmd_info(self, arg: str) -> None:
        key, _, value = arg.partition(" ")
        key = key.lower()
        value = value.strip()
        if not key:
            raise ProtocolError("INFO without a key")
        self.info[key] = value
        if key in ("timeout_turn", "timeout_match", "time_left"):
            self.times.set(key, gomocup.parse_int(value, key))
        elif key == "rule":
            rule, warning = gomocup.rule_from_info(gomocup.parse_int(value, "rule"))
            if warning:
                self._message(warning)
            self.rule = rule
            self._sync_rule()  # pay any table set-up now, not on the clock of a move
        elif key == "thread_num":
            self._set_threads(gomocup.parse_int(value, key))
        elif key == "max_node":
            nodes = gomocup.parse_int(value, key)
            self.max_nodes = nodes if nodes > 0 else None
        elif key == "multipv":
            self.multipv = min(max(gomocup.parse_int(value, key), 1), MAX_MULTIPV)
        elif key == "level":
            # 0 and the timed levels: the full engine on the manager's clock
            number = gomocup.parse_int(value, key)
            self.level = None if number == 0 else node_level(number)
        elif key == "seed":
            self.seed = gomocup.parse_int(value, key)
        elif key in ("max_memory", "game_type"):
            gomocup.parse_int(value, key)
        # folder, evaluate and unknown keys: stored, otherwise ignored (as the spec says)


def line_writer(stdout: TextIO) -> Callable[[str], None]:
    """Write one answer line to ``stdout`` and flush it (the manager waits for it)."""

    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    return write


def run(stdin: TextIO, stdout: TextIO, brain: Brain | None = None) -> int:
    """Serve the protocol: read commands from ``stdin`` until END or end of input."""
    if brain is None:
        brain = Brain(line_writer(stdout))
    for line in iter(stdin.readline, ""):
        if not brain.handle(line):
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m gomoku.pbrain [options]``: the brain on stdin/stdout, with the options
    of gomoku.protocol.pbrain_text (``--help`` prints them)."""
    try:
        options = gomocup.command_line_options(sys.argv[1:] if argv is None else argv)
    except ProtocolError as exc:
        print(exc, file=sys.stderr)
        return 2
    if options.help:
        print(__doc__)
        print(gomocup.__doc__)
        return 0
    overrides = options.overrides

    def make_limits(kwargs: LimitKeywords) -> Limits:
        return Limits(**{**kwargs, **overrides})

    brain = Brain(line_writer(sys.stdout), make_limits=make_limits, threads=options.threads)
    return run(sys.stdin, sys.stdout, brain)
