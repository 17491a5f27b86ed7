"""The engine under renju: black's forbidden points are never played nor counted as
black's threats, and white may win by a four whose block is forbidden to black.

Every forbidden point asserted here is confirmed by the slow reference
(renju_reference.py), which follows the definition on a plain grid.
"""

from __future__ import annotations

import random

from gomoku.core.geometry import from_text, moves_from_text
from gomoku.core.rules import Rule
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_THRESHOLD
from gomoku.search.alphabeta import Searcher
from gomoku.search.movegen import generate
from gomoku.search.quick import five_cell, quick_result
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


# A self-play game (seed 201) at ply 224: one empty cell, i7, an overline for black, who
# is to move. The search used to raise StopIteration looking for an allowed cell.
ONLY_CELL_FORBIDDEN = (
    "i9 i11 k11 j10 k9 h10 k10 k8 l10 j12 k13 k12 h12 g9 f8 j9 j11 i10 h11 i12 f10 l12 m12 "
    "l7 m6 j8 i13 g11 j7 i8 h8 m8 l8 k6 j5 o10 n9 f9 m11 n11 g8 e9 d9 e8 k4 d7 c6 e10 e7 "
    "i6 o13 n12 l5 j3 n7 o8 n6 n8 m7 o5 i5 h5 m5 k5 j6 h4 m4 m3 o9 m9 l13 m13 h13 j13 h3 "
    "k3 l3 i4 m2 n1 k2 g6 f7 f5 h7 n5 j4 e11 e12 l4 g7 h6 e6 n2 o1 n4 n3 l2 k1 d5 e5 f6 d6 "
    "e3 c5 b4 f4 c7 b6 a6 h2 g3 f12 d11 c11 d12 f14 d13 d14 i14 h15 h14 c12 j14 f13 f11 "
    "k14 c13 e13 g13 g12 a15 b14 d15 l11 f3 e2 n13 n14 d3 c3 c2 e4 g2 e14 c14 b13 g1 d4 c4 "
    "l14 j2 g5 b2 o14 m14 i1 a7 a8 b11 b8 b3 b1 c10 l1 j1 j15 b9 e1 o15 a10 d1 a11 a12 a2 "
    "k15 o7 o2 a3 a1 o3 m1 l9 f15 n15 e15 c15 c9 h1 f1 c1 a5 i2 l6 f2 b7 d2 d8 i3 h9 o4 "
    "n10 g4 g10 a4 b10 b5 o6 a13 k7 a14 c8 l15 a9 b15 m10 d10 o11 o12 b12 g14 m15 i15 g15"
)


def test_black_whose_only_cell_is_forbidden_gets_an_answer() -> None:
    """No allowed move exists: the engine answers the one empty cell (which loses) in its
    budget instead of failing, by node limit and by time."""
    moves = moves_from_text(ONLY_CELL_FORBIDDEN, 15)
    board = Board.from_moves(moves, 15, Rule.RENJU)
    (empty,) = [q for q in board.layout.onboard if board.cells[q] == 0]
    assert board.side == 1 and reference_forbidden(grid(board), *board.point(empty))
    for limits in (Limits(nodes=1000, use_book=False), Limits(time_ms=300)):
        eng = Engine(15, Rule.RENJU)
        eng.set_position(moves)
        result = eng.think(limits)
        assert result.move == board.point(empty)
        assert result.time_ms < 300 + 200


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
