"""The single reply extension: the block of a five costs no depth, so the search sees a
chain of fours, its own or the opponent's, past its nominal horizon.

The quiescence search (which also plays fours) is switched off here so that what the
test sees is the main search's doing; with the extension off the same searches fail,
which shows the test can."""

from __future__ import annotations

import pytest
from test_search import VCF_POSITIONS

from gomoku.core.geometry import moves_from_text
from gomoku.game.board import Board
from gomoku.search import alphabeta
from gomoku.search.alphabeta import WIN_THRESHOLD, Searcher
from gomoku.search.threats import ThreatSearch


def _vcf_found_at_depth_2(text: str) -> bool:
    board = Board.from_moves(moves_from_text(text, 15))
    result = Searcher(board).search(max_depth=2, max_nodes=400_000)
    return result.score >= WIN_THRESHOLD


def _defended_at_depth_2(text: str) -> bool:
    """The attacker's opponent to move (the attacker passes): does the depth-2 search's
    move leave the attacker without a VCF?"""
    board = Board.from_moves(moves_from_text(text, 15))
    board.side = 3 - board.side
    move = Searcher(board).search(max_depth=2, max_nodes=400_000).move
    board.make(move)
    return ThreatSearch(board).vcf(14) is None


@pytest.fixture
def no_quiescence_fours(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setattr(alphabeta, "QS_FOURS", 0)
    return monkeypatch


def test_a_depth_2_search_sees_vcfs_of_up_to_10_fours(no_quiescence_fours) -> None:
    assert alphabeta.SINGLE_REPLY_EXTENSION == 1
    assert all(_vcf_found_at_depth_2(text) for text in VCF_POSITIONS.values())
    no_quiescence_fours.setattr(alphabeta, "SINGLE_REPLY_EXTENSION", 0)
    missed = [n for n, text in VCF_POSITIONS.items() if not _vcf_found_at_depth_2(text)]
    assert len(missed) == len(VCF_POSITIONS)  # without it: none within depth 2


def test_the_only_defence_against_a_vcf_past_the_horizon(no_quiescence_fours) -> None:
    """The longest VCF of the suite (10 fours) threatens; a depth-2 search stops it."""
    text = VCF_POSITIONS[10]
    assert _defended_at_depth_2(text)
    no_quiescence_fours.setattr(alphabeta, "SINGLE_REPLY_EXTENSION", 0)
    assert not _defended_at_depth_2(text)
