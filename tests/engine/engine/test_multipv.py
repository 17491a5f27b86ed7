"""Multi-PV: the best K root moves of one search, through the engine, the worker handler
and the brain."""

from __future__ import annotations

import pytest

from gomoku.bench import BENCH_POSITIONS, bench_boards
from gomoku.core.geometry import moves_from_text
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.board import Board
from gomoku.protocol import webapi
from gomoku.protocol.pbrain import Brain
from gomoku.search.alphabeta import Searcher


@pytest.mark.parametrize("depth", [3, 5])
def test_first_move_and_score_equal_a_plain_search_at_equal_depth(depth: int) -> None:
    for board in bench_boards():
        plain = Searcher(board).search(max_depth=depth)
        multi = Searcher(board).search(max_depth=depth, multipv=3)
        assert (multi.move, multi.score, multi.depth) == (plain.move, plain.score, depth)
        assert multi.top[0].move == multi.move and multi.top[0].score == multi.score


def test_top_moves_are_distinct_legal_and_ranked() -> None:
    for board in bench_boards()[:4]:
        before = list(board.history)
        out = Searcher(board).search(max_depth=4, multipv=4)
        moves = [t.move for t in out.top]
        assert len(moves) == 4 == len(set(moves))
        assert all(board.cells[q] == 0 for q in moves)
        others = [t.score for t in out.top[1:]]
        assert others == sorted(others, reverse=True)
        assert all(t.pv and t.pv[0] == t.move for t in out.top)
        assert board.history == before  # the board is restored


def test_engine_and_worker_report_top_moves() -> None:
    eng = Engine()
    eng.set_position([(7, 7), (8, 8), (6, 8)])
    result = eng.think(Limits(time_ms=None, depth=4, use_book=False, multipv=3))
    assert len(result.top) == 3 and result.top[0].move == result.move
    api = webapi.WebApi()
    infos: list[dict] = []
    reply = api.handle(
        {
            "type": "think",
            "id": 1,
            "moves": [[7, 7], [8, 8], [6, 8]],
            "limits": {"depth": 4, "book": False, "multiPv": 3},
        },
        infos.append,
    )
    assert reply["type"] == "result" and len(reply["top"]) == 3
    assert reply["top"][0]["move"] == reply["move"]
    assert all(len(i["top"]) == 3 for i in infos)
    board = Board.from_moves([(7, 7), (8, 8), (6, 8)])
    assert all(board.at(*t["move"]) == 0 for t in reply["top"])
    bad = api.handle(
        {"type": "think", "id": 2, "moves": [[7, 7]], "limits": {"depth": 2, "multiPv": 0}}
    )
    assert bad["type"] == "error" and "multiPv" in bad["message"]


def test_brain_writes_one_message_per_top_move() -> None:
    out: list[str] = []
    brain = Brain(out.append)
    # a middle-game position (the book is silent): own (black) stones 1, white's 2
    moves = moves_from_text(BENCH_POSITIONS[1], 15)
    stones = [f"{x},{y},{1 + i % 2}" for i, (x, y) in enumerate(moves)]
    for line in ("START 15", "INFO max_node 3000", "INFO multipv 3", "BOARD", *stones):
        brain.handle(line)
    out.clear()
    brain.handle("DONE")
    tops = [s for s in out if s.startswith("MESSAGE multipv")]
    assert tops and len(tops) % 3 == 0
    assert [s.split()[2] for s in tops[-3:]] == ["1", "2", "3"]
