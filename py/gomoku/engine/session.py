"""One game played through a protocol: the position, its rules' checks, and a think that
always answers a legal move.

The Gomocup brain (gomoku.protocol.pbrain) and the web worker (gomoku.protocol.webapi)
translate text or JSON into calls on a ``Session`` and its answers back; what a game
needs beyond the Engine's search lives here, once:

- the position with its rule and size, on a Board of the session's own that the search
  never touches: every move given is checked on it (on the board, empty, the game not
  over, and under renju not a point forbidden for black: ``ForbiddenMoveError`` names
  the move and the shape), and a list of moves is taken whole or not at all;
- the engine (an ``Engine`` built and warmed up by ``new_engine``: the opening book and
  the tables are loaded when the session starts, not on the first move's clock), told
  every position the session takes;
- ``think``: the engine's move (or a level's, or a search the caller passes in, such as
  the parallel search), checked: under renju a forbidden point for black is replaced by
  the strongest allowed candidate (gomoku.engine.renju_guard), and an internal error or
  an illegal answer gives way to ``fallback_move``; the move is played and returned as
  ``Played``;
- the levels a protocol may ask for (``node_level``: gomoku.engine.levels) and the most
  best moves it may ask to see (``MAX_MULTIPV``).

A list of moves the caller sets is replayed once, on the session's board, checked as it
goes (a list that continues the game is only played forward); the engine replays it on
a fresh board of its own (``Engine.set_position``), so that what it answers depends on
the position and not on the searches before it (the levels' promise).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gomoku.core.errors import GomokuError, IllegalMoveError
from gomoku.core.geometry import Point, to_text
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from gomoku.engine.facade import Engine, PositionFacts
from gomoku.engine.levels import Level, level, play
from gomoku.engine.limits import Limits
from gomoku.engine.renju_guard import Replacement, replacement
from gomoku.engine.results import SearchInfo, SearchResult
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK, EMPTY

MAX_MULTIPV = 8  # the most best root moves a protocol may ask to see (Limits.multipv)

OnInfo = Callable[[SearchInfo], None]
# A search in place of the engine's think (the parallel search): (limits, on_info) -> result
Search = Callable[[Limits, OnInfo | None], SearchResult]
EngineFactory = Callable[[int, Rule], Engine]


class ForbiddenMoveError(IllegalMoveError):
    """Under renju, black's move ``index`` (0-based, black first) at ``point`` is on a
    point forbidden for black (``shape``: "overline", "double four", "double three")."""

    def __init__(self, index: int, point: Point, shape: str, size: int) -> None:
        self.index, self.point, self.shape = index, point, shape
        self.text = to_text(point[0], point[1], size)
        super().__init__(f"move {index + 1} ({self.text}) is forbidden for black ({shape})")


def new_engine(size: int, rule: Rule) -> Engine:
    """The session's default engine: the opening book and the tables loaded now (a
    worker's start, a brain's START), not on a move's clock."""
    engine = Engine(size=size, rule=rule)
    engine.warm_up()
    return engine


def node_level(number: object) -> Level | None:
    """Level ``number`` of the ladder when it is node-limited (the session's think plays
    it), None when it is timed (the full engine on a clock the protocol gives);
    LevelError for an unknown one."""
    lv = level(number)
    return None if lv.timed else lv


def fallback_move(moves: Sequence[Point], size: int) -> Point:
    """A legal move when the search fails: the empty cell closest to the last move (or
    to the centre on an empty board). IllegalMoveError on a full board."""
    occupied = set(moves)
    cx, cy = moves[-1] if moves else (size // 2, size // 2)
    empty = [(x, y) for y in range(size) for x in range(size) if (x, y) not in occupied]
    if not empty:
        raise IllegalMoveError("the board is full")

    def distance(p: Point) -> tuple[int, int]:
        dx, dy = abs(p[0] - cx), abs(p[1] - cy)
        return max(dx, dy), dx + dy

    return min(empty, key=distance)


def play_checked(board: Board, x: int, y: int, index: int) -> None:
    """Play (x, y) as move ``index`` of the game on ``board``: CoordinateError off the
    board, IllegalMoveError on a stone or after the game is won, ForbiddenMoveError for
    black's forbidden point under renju. The board is unchanged when it raises."""
    p = board.index(x, y)
    if board.rule.has_forbidden_points and board.side == BLACK and board.cells[p] == EMPTY:
        shape = None if board.winner else forbidden(board, p)
        if shape:
            raise ForbiddenMoveError(index, (x, y), shape, board.size)
    board.play(x, y)


def checked_board(moves: Sequence[Sequence[int]], size: int, rule: Rule) -> Board:
    """The position after ``moves`` (black first), every move checked (play_checked)."""
    board = Board(size, rule)
    for i, (x, y) in enumerate(moves):
        play_checked(board, int(x), int(y), i)
    return board


@dataclass(frozen=True)
class Played:
    """The session's move: ``result`` is what the search answered (after a failure, a
    result naming the fallback move, source "fallback"), ``move`` what was played: the
    result's move, or the renju guard's ``guard.move`` in its place. ``failure`` says
    why the search's answer was not played (an internal error, with its ``trace``, or an
    illegal move)."""

    result: SearchResult
    move: Point
    guard: Replacement | None = None
    failure: str | None = None
    trace: str = ""


class Session(PositionFacts):
    """A game between a protocol's player and the engine (see the module doc)."""

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        rule: str | int | Rule = Rule.FREESTYLE,
        engine_factory: EngineFactory = new_engine,
    ) -> None:
        self.board = Board(check_size(size), parse_rule(rule))
        self.engine = engine_factory(self.board.size, self.board.rule)

    # --- the position -------------------------------------------------------------------

    def new_game(self, size: int | None = None, rule: str | int | Rule | None = None) -> None:
        """An empty board (the same size and rule unless given); the engine's tables
        and caches are cleared."""
        rule = self.rule if rule is None else parse_rule(rule)
        self.board = Board(check_size(size or self.size), rule)
        self.engine.new_game(size=self.size, rule=self.rule)

    def set_rule(self, rule: str | int | Rule) -> str | None:
        """Go on under ``rule``: the moves are kept when they stand under it, else the
        board is emptied and the reason returned (None: nothing dropped)."""
        rule = parse_rule(rule)
        if rule == self.rule:
            return None
        moves = self.moves
        self.new_game(rule=rule)
        try:
            self.set_position(moves)
        except GomokuError as exc:
            return f"position dropped after the rule change: {exc}"
        return None

    def play(self, x: int, y: int) -> None:
        """A move of the game (checked: play_checked); the engine plays it too."""
        play_checked(self.board, x, y, len(self.board.history))
        self.engine.play(x, y)

    def undo(self) -> Point:
        """Take back the last move (IllegalMoveError on an empty board)."""
        point = self.board.undo()
        self.engine.undo()
        return point

    def set_position(
        self,
        moves: Sequence[Sequence[int]],
        size: int | None = None,
        rule: str | int | Rule | None = None,
        fresh: bool = False,
    ) -> None:
        """The game becomes ``moves`` (black first) on a ``size`` board under ``rule``
        (default: the session's), each move checked (play_checked); atomic: on any error
        nothing changes. Another size or rule, or ``fresh``, is a new game for the engine
        (its tables cleared)."""
        size = self.size if size is None else check_size(size)
        rule = self.rule if rule is None else parse_rule(rule)
        moves = [(int(x), int(y)) for x, y in moves]
        same_game = (size, rule) == (self.size, self.rule)
        played = self.board.history
        board = self.board
        if same_game and len(moves) >= len(played) and moves[: len(played)] == self.moves:
            done = len(played)  # the game goes on: check only the new moves
            try:
                for i in range(done, len(moves)):
                    play_checked(board, *moves[i], i)
            except GomokuError:
                self.board = checked_board(moves[:done], size, rule)  # as it was
                raise
        else:
            board = checked_board(moves, size, rule)
        if fresh or not same_game:
            self.engine.new_game(size=size, rule=rule)
        self.board = board
        self.engine.set_position(moves)

    # --- thinking -----------------------------------------------------------------------

    def think(
        self,
        limits: Limits | None = None,
        on_info: OnInfo | None = None,
        *,
        level: Level | None = None,
        seed: int = 0,
        search: Search | None = None,
    ) -> Played:
        """The engine's move in the position, played: level ``level``'s with the game's
        ``seed`` (``limits.hard_ms`` and the time controls its safety cap), else
        ``search``'s (the parallel search), else the engine's think. Always a legal move
        (see Played); IllegalMoveError when the game is over."""
        if self.is_over:
            raise IllegalMoveError("the game is over: no move to make")
        try:
            if level is not None:
                hard_ms = None if limits is None else limits.hard_ms
                controls = None if limits is None else limits.controls()
                result = play(self.engine, level.number, seed, hard_ms=hard_ms, controls=controls)
            elif search is not None:
                result = search(limits, on_info)
            else:
                result = self.engine.think(limits, on_info=on_info)
            x, y = int(result.move[0]), int(result.move[1])
        except Exception as exc:  # a bug in the search must not cost the game
            failure = f"internal error in search: {type(exc).__name__}: {exc}"
            return self._fallback(failure, traceback.format_exc())
        return self.accept(result, (x, y))

    def accept(self, result: SearchResult, move: Point | None = None) -> Played:
        """Play a search's ``result`` (found here or elsewhere, e.g. the page's parallel
        search): under renju a forbidden black point is replaced (renju_guard); a move
        that is off the board or taken gives way to the fallback move."""
        x, y = move if move is not None else (int(result.move[0]), int(result.move[1]))
        board = self.board
        if not (0 <= x < self.size and 0 <= y < self.size) or board.at(x, y) != EMPTY:
            return self._fallback(f"the engine chose ({x}, {y}), which is not a legal move")
        guard = replacement(board, (x, y))
        if guard is not None:
            x, y = guard.move
        self.play(x, y)
        return Played(result, (x, y), guard)

    def _fallback(self, failure: str, trace: str = "") -> Played:
        move = fallback_move(self.moves, self.size)
        guard = replacement(self.board, move)
        if guard is not None:
            move = guard.move
        zero = SearchResult(move, 0, 0, 0, 0, [move], "fallback")
        self.play(*move)
        return Played(zero, move, guard, failure, trace)
