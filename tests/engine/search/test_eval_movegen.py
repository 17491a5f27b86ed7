"""Evaluation and candidate ranking: symmetric, and forced replies where the rules force them."""

from __future__ import annotations

import random

import pytest

from gomoku.core.geometry import from_text, transform
from gomoku.game.board import Board
from gomoku.game.evaluation import evaluate
from gomoku.search.movegen import cell_threats, generate, ranked


def random_position(seed: int, plies: int, size: int = 15) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    board = Board(size)
    for _ in range(plies):
        moves = sorted(board.candidates) or [board.layout.index(size // 2, size // 2)]
        board.make(rng.choice(moves))
        if board.winner:
            board.unmake()
            break
    return board.moves


@pytest.mark.parametrize("seed", range(8))
def test_eval_and_ranking_invariant_under_symmetries(seed: int) -> None:
    size = 15
    moves = random_position(seed, 10 + 3 * seed, size)
    base = Board.from_moves(moves, size)
    base_rank = {base.point(q): key for key, q in ranked(base)}
    for k in range(8):
        moved = Board.from_moves([transform(k, x, y, size) for x, y in moves], size)
        assert evaluate(moved) == evaluate(base)
        rank = {moved.point(q): key for key, q in ranked(moved)}
        assert rank == {transform(k, x, y, size): key for (x, y), key in base_rank.items()}
        # forced/pruned generation: the same set of moves up to the symmetry
        got_cells, want_cells = generate(moved, None), generate(base, None)
        if len(want_cells) == 1 and len(got_cells) == 1:
            # a single forcing move (win, open four): any of the equivalent cells will do
            assert cell_threats(moved, got_cells[0])[0] == cell_threats(base, want_cells[0])[0]
            continue
        got = sorted(moved.point(q) for q in got_cells)
        want = sorted(transform(k, *base.point(q), size) for q in want_cells)
        assert got == want


def board_of(text: str) -> Board:
    return Board.from_moves([from_text(t, 15) for t in text.split()])


def texts(board: Board, cells: list[int]) -> set[str]:
    from gomoku.core.geometry import to_text

    return {to_text(*board.point(q), 15) for q in cells}


def test_empty_board_gives_centre() -> None:
    board = Board()
    assert [board.point(q) for q in generate(board)] == [(7, 7)]


def test_win_in_one_is_the_only_move() -> None:
    # black h8 i8 j8 k8, white h9 i9 j9: black to move wins at g8 or l8
    board = board_of("h8 h9 i8 i9 j8 j9 k8 a1")
    assert texts(board, generate(board)) <= {"g8", "l8"}
    assert len(generate(board)) == 1


def test_must_block_five() -> None:
    # white has four a1..a4 (blocked by nothing above a5): black must block a5
    board = board_of("h8 a1 h9 a2 j10 a3 k12 a4")
    assert texts(board, generate(board)) == {"a5"}


def test_open_three_forces_block_or_four() -> None:
    # white open three f10 g10 h10 with black to move and no black four available
    board = board_of("h8 f10 i7 g10 b2 h10")
    moves = texts(board, generate(board))
    # black has no four to make: only the cells next to the three and its far ends
    assert moves == {"d10", "e10", "i10", "j10"}


def test_pruning_keeps_best_n() -> None:
    board = Board.from_moves(random_position(5, 20))
    full = generate(board, None)
    assert generate(board, 5) == full[:5] or len(full) <= 5


def test_far_mask_is_the_far_flag() -> None:
    """generate's quiet case reads F_FAR_OK off the summary bits (movegen._FAR_MASK): the
    flag is the mover's threat class T_OPEN_TWO or better or the opponent's T_FOUR or
    better, each read off its own side's bits."""
    from gomoku.patterns.tables import SIDE_SHIFT, T_FOUR, T_OPEN_TWO, all_summaries, threat_class
    from gomoku.search import movegen

    for side, own_shift, opp_shift in ((1, 0, SIDE_SHIFT), (2, SIDE_SHIFT, 0)):
        mask = movegen._FAR_MASK[side]
        for s in all_summaries():
            assert bool((s << own_shift) & mask) == (threat_class(s) >= T_OPEN_TWO)
            assert bool((s << opp_shift) & mask) == (threat_class(s) >= T_FOUR)
    quiet = next(s for s in all_summaries() if threat_class(s) == 0)
    for s in all_summaries():
        for full, side in ((s | (quiet << SIDE_SHIFT), 1), (quiet | (s << SIDE_SHIFT), 1)):
            want = bool(movegen.cell_key(full)[1] & movegen.F_FAR_OK)
            assert bool(full & movegen._FAR_MASK[side]) == want


def test_forcing_mask_is_the_forcing_flag() -> None:
    """generate's open-four-threat case reads F_FORCING_OK off the summary bits
    (movegen._FORCING_MASK): the same cells as the flag, for every pair of one-side
    summaries (the flag depends on the mover's threat class and the opponent's line
    four only, so each side is checked on its own)."""
    from gomoku.patterns.tables import SIDE_SHIFT, T_FOUR, all_summaries, threat_class
    from gomoku.search import movegen

    black = movegen._FORCING_MASK[1]
    for s in all_summaries():
        assert bool(s & black) == (threat_class(s) >= T_FOUR)  # black to move: its cell
        assert bool((s << SIDE_SHIFT) & black) == movegen.INFO[s][3]  # white's line four
    quiet = next(s for s in all_summaries() if threat_class(s) < T_FOUR and not movegen.INFO[s][3])
    for own in all_summaries():
        for opp in (quiet, next(s for s in all_summaries() if movegen.INFO[s][3])):
            full = own | (opp << SIDE_SHIFT)
            want = bool(movegen.cell_key(full)[1] & movegen.F_FORCING_OK)
            assert bool(full & black) == want
            swapped = opp | (own << SIDE_SHIFT)  # white to move
            assert bool(swapped & movegen._FORCING_MASK[2]) == want
