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

from gomoku.core.geometry import moves_from_text
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.search.alphabeta import Searcher
from gomoku.search.quick import quick_result
from gomoku.search.threats import ThreatSearch


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


# Positions from self-play games (side to move = defender) where the opponent threatens a
# four-three, or has an open three with a VCF/VCT behind it, and exactly one move holds.
ONLY_DEFENCE = {
    "four-three": "h9 i11 k9 h10 k11 i10 g10 k10 l10 i8 i9 j9 l11 g6 h7 j12 g9 l14 k13 g12 h11",
    "four-three, late": "i7 k9 k11 i9 j9 k7 k10 i8 i11 j11 h10 j12 i10 j10 k5 h11 j5 h8 g8 i5 "
    "j6 j7 j13 i6 h5 g10 l4 m3 f11 l8 k8 m7 n6 l7 n7 g7 f6 m5",
    "open three": "i8 i6 g9 h7 g8 g10 i9 f9 i11",
    "open three, VCF behind": "g9 f8 h11 e7 g7 i6 g10 g8 d8 f9 e10 h7 j5 i8",
}


def holding_moves(board: Board) -> list[int]:
    """The defender's moves after which the attacker has no VCF nor VCT (4 threats):
    brute force over every candidate, each checked by the threat search."""
    from gomoku.search.movegen import generate

    good = []
    for q in generate(board, None):
        board.make(q)
        ts = ThreatSearch(board)
        win = ts.vcf(10, max_nodes=20_000) or ts.vct(4, max_nodes=20_000)
        board.unmake()
        if win is None:
            good.append(q)
    return good


@pytest.mark.parametrize("name", sorted(ONLY_DEFENCE))
def test_tree_search_finds_the_only_defence(name: str) -> None:
    """The alpha-beta search alone (no root threat stages) plays the one move that holds."""
    board = Board.from_moves(moves_from_text(ONLY_DEFENCE[name], 15))
    good = holding_moves(board)
    assert len(good) == 1
    assert Searcher(board).search(max_depth=3).move == good[0]
