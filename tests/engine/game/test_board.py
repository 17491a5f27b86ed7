"""Board: incremental state equals a from-scratch recomputation; wins; bad input."""

from __future__ import annotations

import random

import pytest

from gomoku.core import geometry
from gomoku.core.errors import CoordinateError, IllegalMoveError, RuleError
from gomoku.core.rules import Rule
from gomoku.core.zobrist import zobrist_keys
from gomoku.game.board import COUNT_MASK, NEAR1, Board, unpack_eval
from gomoku.game.evaluation import evaluate, evaluate_from_scratch
from gomoku.patterns.tables import COUNT_BITS, EMPTY, SIDE_SHIFT, threat_class
from gomoku.patterns.weights import SUMMARY_INDEX, load_weights


def scratch_state(board: Board) -> dict:
    """Everything the board keeps incrementally, recomputed from the stones alone."""
    lay = board.layout
    keys, summary, near = {}, {}, {}
    tables = load_weights(board.rule).cell_tables()
    threats = {(side, t): 0 for side in (1, 2) for t in range(11)}
    sums = [0, 0, 0, 0]  # black as mover, black as other, white as mover, white as other
    zb, zw, zside = zobrist_keys(lay.cells)
    h = zside if board.side == 2 else 0
    for p in lay.onboard:
        x, y = lay.point(p)
        c = board.cells[p]
        if c == 1:
            h ^= zb[p]
        elif c == 2:
            h ^= zw[p]
        n = 0
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if (dx or dy) and geometry.on_board(x + dx, y + dy, board.size):
                    if board.cells[lay.index(x + dx, y + dy)] != EMPTY:
                        n += 1 + (NEAR1 if max(abs(dx), abs(dy)) == 1 else 0)
        near[p] = n
        if c != EMPTY:
            continue
        s = 0
        one = {1: 0, 2: 0}
        for d in range(4):
            k = board.line_key(p, d)
            keys[(d, p)] = k
            pb, pw = lay.pattern_black[k], lay.pattern_white[k]
            s += (1 << (COUNT_BITS * pb)) + (1 << (SIDE_SHIFT + COUNT_BITS * pw))
            one[1] += 1 << (COUNT_BITS * pb)
            one[2] += 1 << (COUNT_BITS * pw)
        summary[p] = s
        for side in (1, 2):
            threats[side, threat_class(one[side])] += 1
            i = SUMMARY_INDEX[one[side]]
            sums[2 * (side - 1)] += tables[2 * (side - 1)][i]
            sums[2 * (side - 1) + 1] += tables[2 * (side - 1) + 1][i]
    cands = {p for p in lay.onboard if board.cells[p] == EMPTY and near[p]}
    return {
        "keys": keys,
        "summary": summary,
        "near": near,
        "cands": cands,
        "hash": h,
        "threats": threats,
        "sums": tuple(sums),
    }


def incremental_state(board: Board) -> dict:
    lay = board.layout
    empty = [p for p in lay.onboard if board.cells[p] == EMPTY]
    return {
        "keys": {(d, p): board.keys[d * lay.cells + p] for p in empty for d in range(4)},
        "summary": {p: board.summary[p] & COUNT_MASK for p in empty},
        "near": {p: board.near[p] for p in lay.onboard},
        "cands": set(board.candidates),
        "hash": board.hash,
        "threats": {(side, t): board.threat_count(side, t) for side in (1, 2) for t in range(11)},
        "sums": unpack_eval(board.packed),
    }


def random_game(rng: random.Random, board: Board, plies: int, undo_rate: float = 0.25) -> None:
    """Random makes and unmakes, checking the incremental state after each step."""
    for _ in range(plies):
        if board.history and (board.winner or rng.random() < undo_rate):
            before = board.history[-1]
            assert board.undo() == board.point(before)
        else:
            empties = [p for p in board.layout.onboard if board.cells[p] == EMPTY]
            if not empties:
                break
            # mostly near the stones, sometimes anywhere (edges included)
            pool = list(board.candidates) if board.candidates and rng.random() < 0.8 else empties
            board.make(rng.choice(pool))
        assert incremental_state(board) == scratch_state(board)
        assert evaluate(board) == evaluate_from_scratch(board)


@pytest.mark.parametrize(
    ("size", "rule", "seed"),
    [
        (15, Rule.FREESTYLE, 1),
        (15, Rule.STANDARD, 2),
        (20, Rule.FREESTYLE, 3),
        (17, Rule.STANDARD, 4),
    ],
)
def test_incremental_equals_scratch(size: int, rule: Rule, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(size, rule)
    random_game(rng, board, 140)


@pytest.mark.parametrize(
    ("size", "rule", "seed"),
    [(15, Rule.FREESTYLE, 5), (15, Rule.STANDARD, 6), (20, Rule.RENJU, 7), (17, Rule.FREESTYLE, 8)],
)
def test_packed_and_hash_after_a_move_equal_make(size: int, rule: Rule, seed: int) -> None:
    """packed_after and hash_after (the search reads positions it does not make) give
    what make would leave, and change nothing."""
    rng = random.Random(seed)
    board = Board(size, rule)
    for _ in range(50):
        empties = [p for p in board.layout.onboard if board.cells[p] == EMPTY]
        before = incremental_state(board)
        for p in sorted(board.candidates) + rng.sample(empties, 3):
            after = (board.packed_after(p), board.hash_after(p))
            board.make(p)
            assert after == (board.packed, board.hash)
            board.unmake()
        assert incremental_state(board) == before
        pool = sorted(board.candidates) or empties
        board.make(rng.choice(pool))
        if board.winner:
            break


def test_undo_restores_exact_state() -> None:
    rng = random.Random(11)
    board = Board()
    for _ in range(60):
        board.make(
            rng.choice(sorted(board.candidates)) if board.candidates else board.layout.index(7, 7)
        )
        if board.winner:
            board.unmake()
            break
    snapshot = (
        list(board.keys),
        list(board.summary),
        list(board.near),
        set(board.candidates),
        board.hash,
        board.packed,
        board.side,
        list(board.history),
    )
    for _ in range(30):
        empties = sorted(board.candidates)
        board.make(rng.choice(empties))
        board.unmake()
    assert snapshot == (
        list(board.keys),
        list(board.summary),
        list(board.near),
        set(board.candidates),
        board.hash,
        board.packed,
        board.side,
        list(board.history),
    )


def test_hash_is_deterministic_and_order_independent() -> None:
    a = Board.from_moves([(7, 7), (8, 8), (6, 6), (9, 9)])
    b = Board.from_moves([(6, 6), (9, 9), (7, 7), (8, 8)])
    assert a.hash == b.hash
    assert a.hash != Board.from_moves([(7, 7), (8, 8), (6, 6)]).hash


def play_line(board: Board, black: list[tuple[int, int]], white: list[tuple[int, int]]) -> None:
    for i, b in enumerate(black):
        board.play(*b)
        if i < len(white):
            board.play(*white[i])


def test_five_wins_at_edge() -> None:
    board = Board()
    play_line(board, [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], [(5, 5), (6, 6), (7, 8), (9, 9)])
    assert board.winner == 1
    assert board.winning_line() == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    with pytest.raises(IllegalMoveError):
        board.play(10, 10)


def test_diagonal_five_to_corner() -> None:
    board = Board(20)
    play_line(
        board, [(15, 15), (16, 16), (17, 17), (18, 18), (19, 19)], [(0, 5), (0, 7), (0, 9), (0, 11)]
    )
    assert board.winner == 1


@pytest.mark.parametrize(("rule", "wins"), [(Rule.FREESTYLE, True), (Rule.STANDARD, False)])
def test_overline(rule: Rule, wins: bool) -> None:
    """X X X _ X X then filling the gap makes six: a win only in freestyle."""
    board = Board(15, rule)
    play_line(
        board,
        [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 7)],
        [(2, 0), (4, 0), (6, 0), (8, 0), (10, 0)],
    )
    assert board.winner == (1 if wins else 0)


def test_exact_five_in_standard_wins() -> None:
    board = Board(15, Rule.STANDARD)
    play_line(board, [(2, 7), (3, 7), (4, 7), (6, 7), (5, 7)], [(2, 0), (4, 0), (6, 0), (8, 0)])
    assert board.winner == 1


def test_bad_input_leaves_board_unchanged() -> None:
    board = Board.from_moves([(7, 7), (8, 8)])
    before = (board.hash, board.moves)
    with pytest.raises(IllegalMoveError):
        board.play(7, 7)
    with pytest.raises(CoordinateError):
        board.play(15, 0)
    with pytest.raises(CoordinateError):
        board.play(-1, 3)
    with pytest.raises(CoordinateError):
        board.play("h", 8)  # type: ignore[arg-type]
    assert (board.hash, board.moves) == before
    with pytest.raises(IllegalMoveError):
        Board().undo()
    for bad in (14, 21, "15", None):
        with pytest.raises(RuleError):
            Board(bad)  # type: ignore[arg-type]
    for bad in ("caro", "gomoku", 7, None):
        with pytest.raises(RuleError):
            Board(15, bad)  # type: ignore[arg-type]


def test_text_coordinates() -> None:
    assert geometry.to_text(7, 7, 15) == "h8"
    assert geometry.from_text(" H8 ", 15) == (7, 7)
    assert geometry.from_text("a1", 15) == (0, 14)
    assert geometry.from_text("t20", 20) == (19, 0)
    for size in (15, 20):
        for x in range(size):
            for y in range(size):
                assert geometry.from_text(geometry.to_text(x, y, size), size) == (x, y)
    for bad in ("", "h", "8h", "h0", "p8", "h16", "hh8", "h8.5", "z1", "h-1", None, 5):
        with pytest.raises(CoordinateError):
            geometry.from_text(bad, 15)  # type: ignore[arg-type]
    assert geometry.moves_from_text("h8 i9,j10", 15) == [(7, 7), (8, 6), (9, 5)]


def test_numpy_update_path_matches_python_path() -> None:
    """The numpy-vectorised per-move update (kept for the benchmark) agrees with make."""
    from gomoku.bench import NumpyUpdate

    rng = random.Random(5)
    board = Board.from_moves([(7, 7), (8, 8), (6, 7)])
    nu = NumpyUpdate(board)
    for _ in range(40):
        q = rng.choice(sorted(board.candidates))
        side = board.side
        board.make(q)
        nu.make(q, side)
        if board.winner:
            break
    assert nu.keys.tolist() == board.keys
    empties = [p for p in board.layout.onboard if board.cells[p] == EMPTY]
    assert [int(nu.summary[p]) for p in empties] == [board.summary[p] & COUNT_MASK for p in empties]
