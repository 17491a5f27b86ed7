"""The play session behind both protocols (py/gomoku/engine/session.py): its checks of
the moves it is given, the renju refusal and guard, the think that always answers a legal
move, the levels and the multi-PV bound the protocols share."""

from __future__ import annotations

from typing import Any

import pytest

from gomoku.core.errors import CoordinateError, IllegalMoveError
from gomoku.core.rules import Rule
from gomoku.engine import session as session_module
from gomoku.engine.facade import Engine
from gomoku.engine.levels import LevelError
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchPlan, SearchResult
from gomoku.engine.session import (
    MAX_MULTIPV,
    ForbiddenMoveError,
    Session,
    fallback_move,
    node_level,
)
from gomoku.protocol import webapi
from gomoku.protocol.pbrain import Brain

# Black on 7,5 8,5 6,6 6,7 makes 6,5 (g10) a double three; white far away
# (tests/engine/game/renju_cases.py, as tests/engine/protocol/test_pbrain.py uses it).
BLACK = [(7, 5), (8, 5), (6, 6), (6, 7)]
WHITE = [(0, 0), (0, 2), (0, 4), (0, 6)]
QUIET = [m for pair in zip(BLACK, WHITE, strict=True) for m in pair]  # black to move
G10 = (6, 5)
DEPTH_2 = Limits(time_ms=None, depth=2, use_book=False)


def plain_engine(size: int, rule: Rule) -> Engine:
    return Engine(size=size, rule=rule)  # no warm-up: the tests need no book


def new_session(rule: str = "freestyle", moves: list | None = None) -> Session:
    game = Session(15, rule, plain_engine)
    if moves:
        game.set_position(moves)
    return game


def state(game: Session) -> tuple:
    return game.size, game.rule, list(game.moves), list(game.engine.moves)


def test_moves_off_the_board_or_on_a_stone_are_refused_and_change_nothing() -> None:
    game = new_session(moves=[(7, 7), (8, 8)])
    before = state(game)
    with pytest.raises(CoordinateError):
        game.play(15, 3)
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.play(8, 8)
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.set_position([(7, 7), (8, 8), (9, 9), (9, 9)])  # a continuation, then a taken point
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.set_position([(1, 1), (1, 1)])  # another game
    with pytest.raises(CoordinateError):
        game.set_position([(7, 7), (-1, 0)])
    assert state(game) == before
    game.set_position([(7, 7), (8, 8), (9, 9)])  # and a good continuation goes on
    assert game.moves == game.engine.moves == [(7, 7), (8, 8), (9, 9)]


def test_a_move_after_the_win_is_refused() -> None:
    won = [(x, 7 + dy) for x in range(5) for dy in (0, 3)][:9]
    game = new_session(moves=won)
    assert game.winner == 1 and game.is_over and len(game.winning_line) == 5
    with pytest.raises(IllegalMoveError, match="over"):
        game.play(14, 14)
    with pytest.raises(IllegalMoveError, match="over"):
        game.think(DEPTH_2)
    assert len(game.moves) == 9


def test_renju_forbidden_points_are_refused_with_the_shape_and_change_nothing() -> None:
    game = new_session("renju", QUIET)
    before = state(game)
    with pytest.raises(ForbiddenMoveError) as played:
        game.play(*G10)
    assert (played.value.index, played.value.point, played.value.shape) == (8, G10, "double three")
    assert "move 9 (g10) is forbidden for black (double three)" in str(played.value)
    for moves in ([*QUIET, G10], [*QUIET[:2], (3, 3), (4, 4), *QUIET[2:], G10]):
        with pytest.raises(ForbiddenMoveError) as listed:
            game.set_position(moves)  # a continuation, then another game
        assert listed.value.point == G10 and listed.value.index == len(moves) - 1
        assert state(game) == before
    game.set_position([*QUIET[:-1], G10])  # white may play there
    game.set_position([*QUIET, G10], rule="freestyle")  # and black, under freestyle
    assert game.rule == Rule.FREESTYLE and game.engine.rule == Rule.FREESTYLE


def test_a_rule_change_keeps_the_moves_that_stand_and_drops_the_rest() -> None:
    game = new_session("freestyle", [*QUIET, G10])
    assert game.set_rule("standard") is None and len(game.moves) == 9
    dropped = game.set_rule("renju")
    assert dropped is not None and "forbidden for black" in dropped
    assert game.rule == game.engine.rule == Rule.RENJU and game.moves == game.engine.moves == []


def test_undo_and_new_game() -> None:
    game = new_session(moves=[(7, 7), (8, 8)])
    assert game.undo() == (8, 8) and game.engine.moves == [(7, 7)]
    game.new_game(size=17)
    assert (game.size, game.moves, game.engine.size) == (17, [], 17)
    with pytest.raises(IllegalMoveError):
        game.undo()


def test_think_plays_a_legal_move_in_both_boards() -> None:
    game = new_session(moves=[(7, 7), (8, 8)])
    played = game.think(DEPTH_2)
    assert played.failure is None and played.guard is None
    assert played.move == tuple(played.result.move) and played.result.depth == 2
    assert game.moves == game.engine.moves == [(7, 7), (8, 8), played.move]


def crashing(game: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    def think(limits: Any, on_info: Any = None) -> SearchResult:
        raise RuntimeError("boom")

    monkeypatch.setattr(game.engine, "think", think)


def test_a_crashing_search_gives_the_fallback_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_session(moves=[(7, 7)])
    crashing(game, monkeypatch)
    played = game.think(DEPTH_2)
    assert played.failure is not None and "RuntimeError: boom" in played.failure
    assert "boom" in played.trace and played.result.source == "fallback"
    assert played.move == fallback_move([(7, 7)], 15) and game.moves[-1] == played.move
    assert max(abs(played.move[0] - 7), abs(played.move[1] - 7)) == 1


def test_the_fallback_fills_the_last_empty_cell_and_a_full_board_has_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert fallback_move([], 15) == (7, 7)
    full = [(x, y) for x in range(15) for y in range(15)]
    with pytest.raises(IllegalMoveError, match="full"):
        fallback_move(full, 15)
    # a drawn-out board (no line longer than two stones anywhere) with one cell left
    cells = [(x, y) for y in range(15) for x in range(15)]
    black = [c for c in cells if (c[0] // 2 + c[1]) % 2 == 0]
    white = [c for c in cells if c not in black]
    last = black.pop()  # 112 stones each: black to move, one empty cell
    moves = [m for pair in zip(black, white, strict=True) for m in pair]
    game = Session(15, "standard", plain_engine)
    game.set_position(moves)
    assert game.winner == 0 and not game.is_over and game.side_to_move == 1
    crashing(game, monkeypatch)
    played = game.think(DEPTH_2)
    assert played.move == last and played.failure and game.is_over
    with pytest.raises(IllegalMoveError, match="over"):
        game.think(DEPTH_2)


def test_an_illegal_answer_gives_way_to_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_session(moves=[(7, 7), (8, 8)])
    taken = SearchResult((8, 8), 0, "0.0", 1, 1, 1, [(8, 8)])
    monkeypatch.setattr(game.engine, "think", lambda limits, on_info=None: taken)
    played = game.think(DEPTH_2)
    assert played.failure is not None and "not a legal move" in played.failure
    assert played.move not in [(7, 7), (8, 8)] and game.moves[-1] == played.move


def test_the_guard_replaces_a_forbidden_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_session("renju", QUIET)
    wrong = SearchResult(G10, 0, "0.0", 1, 1, 1, [G10], "book")
    monkeypatch.setattr(game.engine, "think", lambda limits, on_info=None: wrong)
    played = game.think(DEPTH_2)
    assert played.guard is not None and played.guard.forbidden == G10
    assert played.guard.shape == "double three" and played.move == played.guard.move != G10
    assert played.result is wrong and played.failure is None
    assert game.moves[-1] == played.move and game.engine.moves[-1] == played.move


def test_a_continued_game_is_checked_without_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's board replays a move list only when it does not continue the game;
    the engine's set_position replays it once (its board fresh for every search)."""
    calls = {"checked": 0, "engine": 0}
    checked = session_module.checked_board
    set_position = Engine.set_position

    def counting_checked(*args: Any) -> Any:
        calls["checked"] += 1
        return checked(*args)

    def counting_set(self: Engine, moves: Any) -> None:
        calls["engine"] += 1
        set_position(self, moves)

    monkeypatch.setattr(session_module, "checked_board", counting_checked)
    monkeypatch.setattr(Engine, "set_position", counting_set)
    api = webapi.WebApi()
    msg = {"type": "think", "id": 1, "rule": "renju", "limits": {"depth": 1, "book": False}}
    reply = api.handle({**msg, "moves": [list(m) for m in QUIET[:6]]})  # from the empty board
    assert reply["type"] == "result" and calls == {"checked": 0, "engine": 1}
    moves = [*QUIET[:6], reply["move"], [0, 14]]  # the engine's move and the player's
    assert api.handle({**msg, "moves": moves})["type"] == "result"
    assert calls == {"checked": 0, "engine": 2}
    assert api.handle({**msg, "moves": [[1, 1]]})["type"] == "result"  # another game
    assert calls == {"checked": 1, "engine": 3}


def test_levels_resolve_for_both_protocols() -> None:
    assert node_level(2).number == 2 and node_level(2).nodes == 0  # a bottom rung
    assert node_level(4).nodes > 0
    assert node_level(12) is None  # Unlimited: the full engine on the protocol's clock
    with pytest.raises(LevelError, match="unknown level 42"):
        node_level(42)
    out: list[str] = []
    brain = Brain(out.append, engine_factory=plain_engine)
    for line in ("START 15", "INFO level 12", "INFO level 5"):
        brain.handle(line)
    assert brain.level is not None and brain.level.number == 5
    reply = webapi.WebApi().handle({"type": "think", "id": 1, "moves": [], "limits": {"level": 12}})
    assert reply["type"] == "error" and "timed" in reply["message"]


def test_both_protocols_bound_multipv_by_the_sessions_constant() -> None:
    out: list[str] = []
    brain = Brain(out.append, engine_factory=plain_engine)
    brain.handle(f"INFO multipv {MAX_MULTIPV + 5}")
    assert brain.multipv == MAX_MULTIPV
    brain.handle("INFO multipv 0")
    assert brain.multipv == 1
    api = webapi.WebApi()
    think = {"type": "think", "id": 1, "moves": [[7, 7], [8, 8], [6, 8]]}
    many = api.handle({**think, "limits": {"depth": 2, "book": False, "multiPv": MAX_MULTIPV}})
    assert many["type"] == "result" and len(many["top"]) == MAX_MULTIPV
    too_many = api.handle({**think, "limits": {"depth": 2, "multiPv": MAX_MULTIPV + 1}})
    assert too_many["type"] == "error" and f"1..{MAX_MULTIPV}" in too_many["message"]
    bench = api.handle({"type": "bench", "id": 2, "what": "multipv", "lines": MAX_MULTIPV + 1})
    assert bench["type"] == "error" and f"2..{MAX_MULTIPV}" in bench["message"]


def test_think_reports_its_plan_before_the_search() -> None:
    engine = Engine()
    engine.set_position([(7, 7), (8, 8), (6, 8)])
    plans: list[Any] = []
    result = engine.think(DEPTH_2, on_plan=plans.append)
    assert len(plans) == 1 and isinstance(plans[0], SearchPlan)
    assert engine.board.layout.index(*result.move) in plans[0].root_moves
    engine.set_position([])
    book = engine.think(Limits(time_ms=None, depth=2), on_plan=plans.append)
    assert book.source == "book" and plans[-1] is book  # a stage decided: no plan
