"""Threat knowledge inside the tree: the quick win check and the VCF quiescence search.

The quick win check reads wins off the board's threat counts; each claim is checked
against the threat search (an independent solver that plays the moves out) on positions
of random games. The quiescence search must see VCF wins from the horizon: a depth-1
search of a position with a VCF scores it as won.
"""

from __future__ import annotations

import random

import pytest
from test_search import VCF_POSITIONS, referee_five_cells

from gomoku.board import Board
from gomoku.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.geometry import moves_from_text
from gomoku.rules import Rule
from gomoku.search import Searcher, quick_result
from gomoku.threats import ThreatSearch


def random_positions(seed: int, games: int, plies: int, rule: Rule = Rule.FREESTYLE):
    rng = random.Random(seed)
    for _ in range(games):
        board = Board(15, rule)
        board.make(board.layout.index(7, 7))
        for _ in range(plies):
            if board.winner:
                break
            yield board
            board.make(rng.choice(sorted(board.candidates)))


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.STANDARD])
def test_quick_wins_are_real_wins(rule: Rule) -> None:
    """Every win the quick check claims, the threat search proves (VCT, 6 attacker moves);
    every loss it claims is two fives of the opponent's (brute-force referee)."""
    claimed = {"win": 0, "loss": 0, "four-three or double three": 0}
    for board in random_positions(5 + rule, 25, 50, rule):
        score = quick_result(board, 0)
        if score is None or board.fives(board.side):
            continue
        if score > 0:
            claimed["win"] += 1
            if not board.open_fours(board.side):
                claimed["four-three or double three"] += 1
            assert ThreatSearch(board).vct(6, max_nodes=200_000) is not None, board.moves
            assert score == WIN_SCORE - (3 if board.open_fours(board.side) else 5)
        else:
            claimed["loss"] += 1
            cells = {m: 1 + i % 2 for i, m in enumerate(board.moves)}
            exact = rule is Rule.STANDARD
            assert len(referee_five_cells(cells, 3 - board.side, 15, exact)) >= 2
            assert not referee_five_cells(cells, board.side, 15, exact)
    assert all(claimed.values()), claimed  # each kind of claim was exercised


def test_no_quick_result_in_quiet_positions() -> None:
    """Without fours, open threes or double threes on either side, nothing is claimed."""
    board = Board.from_moves(moves_from_text("h8 i9 g9 j10", 15))
    assert quick_result(board, 0) is None


@pytest.mark.parametrize("length", [3, 5, 7, 9])
def test_quiescence_sees_vcf_from_the_horizon(length: int) -> None:
    board = Board.from_moves(moves_from_text(VCF_POSITIONS[length], 15))
    outcome = Searcher(board).search(max_depth=1)
    assert outcome.score >= WIN_THRESHOLD
    assert board.moves == moves_from_text(VCF_POSITIONS[length], 15)  # restored
