"""The engine under renju: black's forbidden points are never played nor counted as
black's threats, and white may win by a four whose block is forbidden to black.

Every forbidden point asserted here is confirmed by the slow reference
(renju_reference.py), which follows the definition on a plain grid.
"""

from __future__ import annotations

import random

from gomoku.core.geometry import from_text, moves_from_text
from gomoku.core.rules import Rule
from gomoku.engine.facade import Engine, Limits
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_THRESHOLD
from gomoku.search.alphabeta import Searcher, five_cell, quick_result
from gomoku.search.movegen import generate
from gomoku_lab.renju_reference import forbidden as reference_forbidden

# White to move; white's four at d5 leaves black a single block, e5, a double four.
WHITE_WINS_BY_A_FORBIDDEN_BLOCK = (
    "h8 f8 g10 f12 i6 g8 d12 b14 f6 h4 e12 h11 i11 j3 d4 d8 k10 j8 i13 h5 k3 c5 k7 a5 e9 "
    "b5 e11 c12 b2"
)
# Black to move; white threatens five at e10, and e10 is a double four for black.
BLACK_CANNOT_BLOCK = (
    "h8 f10 e9 e12 f9 d8 c10 h10 e7 f14 g14 b10 h13 i6 j11 b8 d11 f11 g9 a10 a9 b12 l9 "
    "g10 e11 g6 i4 h15 g8 d10"
)


def grid(board: Board) -> list[list[int]]:
    return [[board.at(x, y) for x in range(board.size)] for y in range(board.size)]


def test_white_wins_with_a_four_whose_block_is_forbidden() -> None:
    moves = moves_from_text(WHITE_WINS_BY_A_FORBIDDEN_BLOCK, 15)
    renju = Board.from_moves(moves, 15, Rule.RENJU)
    outcome = Searcher(renju).search(max_depth=2)
    assert outcome.score >= WIN_THRESHOLD
    # the same stones under "exactly five" for both: no win seen at that depth
    standard = Board.from_moves(moves, 15, Rule.STANDARD)
    assert Searcher(standard).search(max_depth=2).score < WIN_THRESHOLD
    # the reason, by the reference: after the four, black's only block is forbidden
    renju.play(*from_text("d5", 15))
    block = five_cell(renju, 2)
    assert reference_forbidden(grid(renju), *renju.point(block))


def test_black_whose_only_block_is_forbidden_has_lost() -> None:
    board = Board.from_moves(moves_from_text(BLACK_CANNOT_BLOCK, 15), 15, Rule.RENJU)
    block = five_cell(board, 2)
    assert reference_forbidden(grid(board), *board.point(block))
    assert generate(board) == []  # no move that is not lost, nor forbidden
    score = quick_result(board, 0)
    assert score is not None and score <= -WIN_THRESHOLD
    move = Searcher(board).search(max_depth=2).move  # it still answers something legal
    assert board.cells[move] == 0 and not reference_forbidden(grid(board), *board.point(move))


def test_engine_never_plays_a_forbidden_point() -> None:
    """Random renju positions with forbidden points among black's candidates: the engine's
    move for black is never one of them (reference check)."""
    rng = random.Random(13)
    tried = 0
    while tried < 12:
        board = Board(15, Rule.RENJU)
        board.make(board.layout.index(7, 7))
        for _ in range(rng.randrange(10, 50)):
            if board.winner:
                break
            q = rng.choice(sorted(board.candidates))
            if board.side == 1 and reference_forbidden(grid(board), *board.point(q)):
                continue
            board.make(q)
        if board.winner or board.side != 1:
            continue
        cells = grid(board)
        forbidden_here = [
            q for q in board.candidates if reference_forbidden(cells, *board.point(q))
        ]
        if not forbidden_here:
            continue
        tried += 1
        engine = Engine(15, Rule.RENJU)
        engine.set_position(board.moves)
        result = engine.think(Limits(time_ms=None, nodes=600, use_book=False))
        assert not reference_forbidden(cells, *result.move), (board.moves, result.move)
        assert all(not reference_forbidden(cells, *board.point(q)) for q in generate(board, None))


def test_search_rate_benchmark_compares_both_rules_on_the_same_positions() -> None:
    from gomoku_lab.renju_bench import search_rates

    lines: list[str] = []
    res = search_rates(depth=2, out=lines.append)
    assert res["positions"] >= 1 and len(lines) == 7
    assert res["nodes_freestyle"] > 0 and res["nodes_renju"] > 0
    assert res["renju_over_freestyle"] > 0


def test_forbidden_in_games_finds_a_win_by_a_forbidden_block() -> None:
    """White's four at (7,7), black's double-three point: black cannot block and loses."""
    from gomoku.core.geometry import moves_to_text
    from gomoku_lab.renju_bench import forbidden_in_games

    moves = [(5, 7), (4, 4), (6, 7), (5, 5), (7, 5), (6, 6), (7, 6), (8, 8), (12, 1), (7, 7)]
    base = {"rule": "renju", "size": 15, "opening": moves_to_text(moves[:2], 15)}
    lost = dict(
        base,
        moves=moves_to_text(moves, 15),
        black="engine2",
        white="engine1",
        winner="engine1",
        reason="engine1 made five",
    )
    forbidden = dict(
        base,
        moves=moves_to_text(moves[:8] + [(7, 7)], 15),
        black="engine1",
        white="engine2",
        winner="engine2",
        reason="engine1 played a forbidden point",
    )
    freestyle = dict(lost, rule="freestyle")
    res = forbidden_in_games([lost, forbidden, freestyle], out=lambda *_: None)
    assert res["games"] == 2 and res["white_wins"] == 2 and res["forbidden_moves_played"] == 1
    assert res["white_wins_by_a_forbidden_block"] == 1
    # black's turns after the opening: 4 in each game; (7,7) is forbidden from black's
    # 4th move on (two stones in each line), i.e. at the last turn of each
    assert res["black_turns"] == 8 and res["black_turns_with_forbidden_point"] == 2
