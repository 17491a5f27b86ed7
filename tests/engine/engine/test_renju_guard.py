"""Renju's last line of defence (gomoku.engine.renju_guard) and where it is used: the brain and
the web worker's handler never send a forbidden black move of the engine's; the handler
refuses a forbidden black move sent to it and keeps its state; the opening book never
answers with a forbidden point and is silent under renju."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gomoku.core.rules import Rule
from gomoku.engine.book import Book, BookEntry, default_book
from gomoku.engine.renju_guard import Replacement, safe_move
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.protocol import webapi
from gomoku.protocol.pbrain import Brain

# Black h10 i10 g9 g8 (7,5 8,5 6,6 6,7): g10 (6,5) is a double three. The engine, which
# does not know renju yet, plays it (its threat search sees a win there).
BLACK = [(7, 5), (8, 5), (6, 6), (6, 7)]
FAR_WHITE = [(14, 14), (12, 14), (14, 12), (10, 14)]
G10 = (6, 5)


def interleave(black: list, white: list) -> list[tuple[int, int]]:
    return [m for pair in zip(black, white, strict=True) for m in pair]


QUIET = interleave(BLACK, FAR_WHITE)
# White a15 a14 a13 a12 (a four down the a-file): black must block at a11 (0, 4).
WHITE_FOUR = interleave(BLACK, [(0, 0), (0, 1), (0, 2), (0, 3)])


def is_forbidden_after(moves: list, move: tuple[int, int], size: int = 15) -> bool:
    board = Board(size, Rule.RENJU)
    for x, y in moves:
        board.play(x, y)
    return forbidden(board, board.index(*move)) is not None


# ---- the guard itself ---------------------------------------------------------------


def test_a_forbidden_black_move_is_replaced_by_an_allowed_candidate() -> None:
    rep = safe_move(QUIET, 15, "renju", G10)
    assert isinstance(rep, Replacement)
    assert rep.forbidden == G10 and rep.shape == "double three"
    assert rep.move != G10 and rep.move not in QUIET
    assert not is_forbidden_after(QUIET, rep.move)
    # near the action: a candidate of the engine's ordering, not a far corner
    assert max(abs(rep.move[0] - 7), abs(rep.move[1] - 6)) <= 3
    assert rep.message(15) == (
        "renju: the engine chose g10, forbidden for black (double three); "
        f"playing {'abcdefghijklmno'[rep.move[0]]}{15 - rep.move[1]} instead"
    )


def test_the_replacement_is_the_forced_block_when_there_is_one() -> None:
    rep = safe_move(WHITE_FOUR, 15, "renju", G10)
    assert rep is not None and rep.move == (0, 4)


def test_allowed_moves_other_rules_and_white_are_left_alone() -> None:
    assert safe_move(QUIET, 15, "renju", (5, 5)) is None  # an allowed point
    assert safe_move(QUIET, 15, "freestyle", G10) is None
    assert safe_move(QUIET, 15, Rule.STANDARD, G10) is None
    assert safe_move(QUIET[:-1], 15, "renju", G10) is None  # white to move
    # black's exact five is never forbidden
    five = interleave([(0, 14), (1, 14), (2, 14), (3, 14)], FAR_WHITE[:3] + [(9, 9)])
    assert safe_move(five, 15, "renju", (4, 14)) is None


def test_on_every_size_the_replacement_is_on_the_board_and_allowed() -> None:
    for size in (15, 17, 20):
        e = size - 1
        moves = interleave(BLACK, [(e, e), (e - 2, e), (e, e - 2), (e - 4, e)])
        rep = safe_move(moves, size, "renju", G10)
        assert rep is not None
        x, y = rep.move
        assert 0 <= x < size and 0 <= y < size and (x, y) not in moves
        assert not is_forbidden_after(moves, rep.move, size)


# ---- the web worker's handler -------------------------------------------------------


def _think(api: webapi.WebApi, moves: list, **extra: Any) -> dict:
    msg = {"type": "think", "id": "r", "rule": "renju", "moves": [list(m) for m in moves]}
    return api.handle({**msg, "limits": {"timeMs": 300}, **extra})


def test_webapi_accepts_renju_and_never_answers_a_forbidden_point() -> None:
    api = webapi.WebApi()
    reply = _think(api, QUIET)
    assert reply["type"] == "result", reply
    assert tuple(reply["move"]) != G10
    assert not is_forbidden_after(QUIET, tuple(reply["move"]))
    assert api._engine.rule == Rule.RENJU
    # the engine itself knows renju now: it never chose g10, so no guard was needed
    assert reply["source"] != "guard" and "guard" not in reply
    assert api._engine.moves == [*QUIET, tuple(reply["move"])]


def test_webapi_guards_whatever_the_engine_answers(monkeypatch) -> None:
    api = webapi.WebApi()
    assert _think(api, [(7, 7)])["type"] == "result"  # builds the engine
    eng = api._engine
    forced = SimpleNamespace(
        move=G10,
        to_dict=lambda: {
            "move": list(G10),
            "score": 0,
            "depth": 1,
            "nodes": 1,
            "nps": 1,
            "pv": [list(G10)],
            "source": "book",
            "time_ms": 0.0,
        },
    )
    monkeypatch.setattr(eng, "think", lambda limits, on_info=None: forced)
    reply = _think(api, WHITE_FOUR)
    assert reply["move"] == [0, 4] and reply["source"] == "guard"
    # the new move alone, with the search's score as data (black to move: 0 is even)
    assert reply["pv"] == [[0, 4]] and reply["score"] == {"cp": 0} and reply["black"] == 0.5
    assert reply["top"] == [{"move": [0, 4], "score": {"cp": 0}, "pv": [[0, 4]]}]
    # under freestyle the same answer is played as it is
    reply = _think(api, WHITE_FOUR, rule="freestyle")
    assert reply["move"] == [6, 5] and "guard" not in reply


@pytest.mark.parametrize("kind", ["think", "status", "coord"])
def test_webapi_refuses_a_forbidden_black_move_and_keeps_its_state(kind: str) -> None:
    api = webapi.WebApi()
    assert _think(api, [(7, 7), (8, 8)], rule="standard", size=17)["type"] == "result"
    eng = api._engine
    before = (eng.size, eng.rule, list(eng.moves))
    msg: dict[str, Any] = {
        "type": kind,
        "id": "bad",
        "rule": "renju",
        "size": 15,
        "moves": [list(m) for m in [*QUIET, G10]],
    }
    if kind != "status":
        msg["limits"] = {"timeMs": 200}
    if kind == "coord":
        msg.update(op="start", workers=2)
    reply = api.handle(msg)
    assert reply["type"] == "error" and reply["id"] == "bad"
    assert reply["message"] == "moves[8] = [6, 5] (g10) is forbidden for black (double three)"
    assert api._engine is eng and (eng.size, eng.rule, list(eng.moves)) == before
    # the same moves are fine under freestyle, and white may take g10 under renju
    ok = {**msg, "rule": "freestyle", "id": "ok"}
    assert api.handle(ok)["type"] != "error"
    api.handle({"type": "coord", "id": "f", "op": "finish"})  # ends a coord start
    white_g10 = [list(m) for m in [*QUIET[:-1], G10]]
    assert api.handle({**msg, "moves": white_g10, "id": "w"})["type"] != "error"


# ---- the brain ------------------------------------------------------------------------


class ForbiddenChooser:
    """An engine stand-in (the facade's part the brain uses) that always answers g10."""

    def __init__(self, size: int, rule: Rule) -> None:
        self.new_game(size, rule)

    def new_game(self, size: int = 15, rule: Any = Rule.FREESTYLE) -> None:
        self.size, self.rule, self.moves = size, Rule(rule), []

    def play(self, x: int, y: int) -> None:
        self.moves.append((x, y))

    def set_position(self, moves: list) -> None:
        self.moves = list(moves)

    @property
    def is_over(self) -> bool:
        return False

    def think(self, limits: Any, on_info: Any = None) -> Any:
        return SimpleNamespace(move=G10, source="search")


def _board_lines(moves: list, we_are_black: bool) -> list[str]:
    """BOARD lines for `moves` (black first); 1 marks our stones."""
    ours = 0 if we_are_black else 1
    return [f"{x},{y},{1 if i % 2 == ours else 2}" for i, (x, y) in enumerate(moves)]


@pytest.mark.parametrize("rule_bits", [4, 5])
def test_the_brain_never_sends_its_own_forbidden_move(rule_bits: int) -> None:
    out: list[str] = []
    brain = Brain(out.append, engine_factory=ForbiddenChooser, make_limits=lambda kw: kw)
    for line in (f"INFO rule {rule_bits}", "START 15", "BOARD", *_board_lines(WHITE_FOUR, True)):
        brain.handle(line)
    out.clear()
    brain.handle("DONE")
    answers = [s for s in out if not s.startswith(("MESSAGE", "DEBUG"))]
    assert answers == ["0,4"]
    assert (
        "MESSAGE renju: the engine chose g10, forbidden for black (double three); "
        "playing a11 instead"
    ) in out
    assert brain.engine.moves[-1] == (0, 4)
    # as white, or under freestyle, the engine's choice stands
    for line in ("INFO rule 0", "BOARD", *_board_lines(WHITE_FOUR, True)):
        brain.handle(line)
    out.clear()
    brain.handle("DONE")
    assert [s for s in out if not s.startswith(("MESSAGE", "DEBUG"))] == ["6,5"]


def test_the_real_brain_under_renju_does_not_play_the_double_three() -> None:
    out: list[str] = []
    brain = Brain(out.append)
    for line in (
        "INFO rule 4",
        "INFO timeout_turn 500",
        "START 15",
        "BOARD",
        *_board_lines(QUIET, True),
    ):
        brain.handle(line)
    out.clear()
    brain.handle("DONE")
    answers = [s for s in out if not s.startswith(("MESSAGE", "DEBUG"))]
    assert len(answers) == 1 and answers[0] != "6,5"
    move = tuple(int(v) for v in answers[0].split(","))
    assert not is_forbidden_after(QUIET, move)
    # the engine's search avoids forbidden points itself: the guard had nothing to replace
    assert not any(s.startswith("MESSAGE renju: the engine chose") for s in out)


# ---- the opening book ------------------------------------------------------------------


def test_the_shipped_book_is_silent_under_renju() -> None:
    book = default_book()
    assert book.lookup([], 15, "freestyle") is not None  # it does answer freestyle
    for moves in ([], [(7, 7)], [(7, 7), (8, 6)], [(7, 7), (8, 6), (8, 8)]):
        assert book.lookup(moves, 15, "renju") is None
        assert book.candidates(moves, 15, Rule.RENJU) == []


def test_a_renju_book_never_answers_a_forbidden_point() -> None:
    entries = [
        BookEntry(Rule.RENJU, 15, tuple(QUIET), G10, 500, "forbidden"),
        BookEntry(Rule.RENJU, 15, tuple(QUIET), (5, 5), 0, "allowed"),
    ]
    book = Book(entries, tolerance=1000)
    cands = book.candidates(QUIET, 15, "renju")
    assert [c.move for c in cands] == [(5, 5)]
    for seed in range(10):
        assert book.lookup(QUIET, 15, "renju", seed).move == (5, 5)
    only_bad = Book(entries[:1])
    assert only_bad.lookup(QUIET, 15, "renju") is None
    # white to move may have g10 from a book
    white = Book([BookEntry(Rule.RENJU, 15, tuple(QUIET[:-1]), G10, 0, "")])
    assert white.lookup(QUIET[:-1], 15, "renju").move == G10
