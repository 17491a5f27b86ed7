"""The proof-number threat prover (gomoku.search.prover): its proofs hold move by move on
the full board with literal rules, its answers agree with the depth-limited ThreatSearch
and with a brute-force search on small positions, under all 8 symmetries, and under
renju's forbidden points."""

from __future__ import annotations

import random
from functools import cache

import pytest
from test_search import MIXED_VCT_POSITIONS, VCF_POSITIONS, VCT_THREATS

from gomoku.core.geometry import moves_from_text, transform
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.search.prover import (
    NO_WIN,
    UNKNOWN,
    WIN,
    ProofError,
    check_proof,
    proof_depth,
    prove,
)
from gomoku.search.threats import ThreatSearch
from gomoku_lab.renju_bench import board_with

NODES = 200_000  # every position below is settled well within this
CHECKED = 1_000  # proofs found within this many nodes are replayed in full (check_proof
# walks the proof as a tree: transpositions make a large proof's walk long)

POSITIONS = [*VCF_POSITIONS.values(), *MIXED_VCT_POSITIONS, *VCT_THREATS]


def board_of(text: str, rule: Rule = Rule.FREESTYLE, size: int = 15) -> Board:
    return Board.from_moves(moves_from_text(text, size), size, rule)


def game_positions(rule: Rule, games: int, seed: int, plies: int = 40) -> list[Board]:
    """Positions of seeded games of a one-ply greedy player with random noise: many
    threats for both sides, some wins by force."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = Board(15, rule)
        board.make(board.index(7, 7))
        while board.ply < plies and not board.winner:
            side = board.side
            cells = [q for q in board.candidates if board.cells[q] == 0]
            if rule is Rule.RENJU and side == 1:
                from gomoku.game.renju import is_forbidden

                cells = [q for q in cells if not is_forbidden(board, q)]
            if not cells:
                break
            scored = sorted(
                cells,
                key=lambda q: -(board.side_summary(q, side) + board.side_summary(q, 3 - side) // 2),
            )
            board.make(scored[0] if rng.random() < 0.6 else rng.choice(scored[:6]))
            if not board.winner:
                out.append(board.copy())
    return out


def test_the_vcf_positions_are_proved_and_the_proofs_hold() -> None:
    for text in VCF_POSITIONS.values():
        board = board_of(text)
        proof = prove(board, max_nodes=NODES, vcf=True)
        assert proof.status == WIN
        assert check_proof(board, proof.tree) >= 1
        # the principal line ends in the attacker's five
        for q in proof.line:
            board.make(q)
        assert board.winner == proof.attacker
        for _ in proof.line:
            board.unmake()
        assert board.moves == moves_from_text(text, 15)  # the board is restored


@pytest.mark.parametrize("text", sorted(MIXED_VCT_POSITIONS))
def test_mixed_vcts_are_proved_and_every_reply_is_answered(text: str) -> None:
    board = board_of(text)
    proof = prove(board, max_nodes=NODES, quiet=0)
    assert proof.status == WIN
    check_proof(board, proof.tree)
    assert proof_depth(proof.tree) == len(proof.line)


def test_a_broken_proof_is_refused() -> None:
    board = board_of(sorted(MIXED_VCT_POSITIONS)[0])
    proof = prove(board, max_nodes=NODES, quiet=0)
    # drop the first defender answer that is not lost at once
    ((move, answers),) = proof.tree.items()
    assert len(answers) > 1
    broken = {move: {r: sub for r, sub in list(answers.items())[1:]}}
    with pytest.raises(ProofError):
        check_proof(board, broken)
    illegal = {board.history[0]: {}}  # an occupied cell
    with pytest.raises(ProofError):
        check_proof(board, illegal)


@cache
def _judged_positions() -> list[Board]:
    """Freestyle and standard positions of seeded noisy games (a few hundred)."""
    return [
        *game_positions(Rule.FREESTYLE, 12, seed=1),
        *game_positions(Rule.STANDARD, 6, seed=2),
    ]


def test_agrees_with_threat_search() -> None:
    """ThreatSearch's wins (VCF, VCT to depth 4) lie inside the prover's threat space:
    where it finds one the prover proves one; where the prover (no quiet moves) proves
    there is none, ThreatSearch finds none either."""
    wins = no_wins = 0
    for board in _judged_positions()[::6]:
        proof = prove(board, max_nodes=NODES, quiet=0)
        assert proof.status != UNKNOWN
        ts = ThreatSearch(board, cache={})
        line = ts.vcf(12) or ts.vct(4, max_nodes=40_000)
        if line is not None:
            assert proof.status == WIN, board.moves
        if proof.status == NO_WIN:
            assert line is None
            no_wins += 1
        else:
            wins += 1
            if proof.nodes <= CHECKED:
                check_proof(board, proof.tree)
    assert wins >= 5 and no_wins >= 5  # the sample has both kinds


def _brute_force_win(board: Board, attacker_moves: int) -> bool:
    """Does the side to move win with at most ``attacker_moves`` moves, whatever the other
    side answers? Every cell within 4 of a stone is tried for both sides (a move farther
    away changes no line a short win uses: it is tried once, as a pass); the last two
    plies are read off the full board's own counters (a five now; or an open four or
    double four to make, no five for the other side). Freestyle only."""
    side = board.side
    if board.fives(side):
        return True
    if attacker_moves <= 1:
        return False
    if attacker_moves == 2:
        return not board.fives(3 - side) and board.open_fours(side) > 0
    for a in _near_cells(board):
        board.make(a)
        try:
            if board.winner:
                return True
            ok = True
            for r in [*_near_cells(board), None]:
                if r is None:
                    board.pass_move()
                else:
                    board.make(r)
                try:
                    ok = not board.winner and _brute_force_win(board, attacker_moves - 1)
                finally:
                    if r is None:
                        board.pass_move()
                    else:
                        board.unmake()
                if not ok:
                    break
            if ok:
                return True
        finally:
            board.unmake()
    return False


def _near_cells(board: Board) -> list[int]:
    stones = [p for p in board.layout.onboard if board.cells[p]]
    size = board.size
    out = set()
    for p in stones:
        x, y = board.point(p)
        for dx in range(-4, 5):
            for dy in range(-4, 5):
                if 0 <= x + dx < size and 0 <= y + dy < size:
                    q = board.index(x + dx, y + dy)
                    if board.cells[q] == 0:
                        out.add(q)
    return sorted(out)


SMALL = [
    # few stones, so that every reply can be tried: black to move
    "h8 a1 i8 a15 j9 o1 j10 o15",  # j8 makes two open threes: a win in three moves
    "h8 a1 i8 a15 j8 o1 h9 o15 i9",  # an open three already: a win in two
    "h8 a1 i8 a15 k10 o1 f12 o15",  # one open three to make: no win in three
    "h8 h9 i8 i9 j9 g8 k10 a1",  # white's threats too
]


def test_agrees_with_brute_force_on_small_positions() -> None:
    """Wins within three attacker moves are threat wins: the prover finds one exactly
    when trying every reply finds one, and proves it no longer than it is."""
    kinds = set()
    for text in SMALL:
        board = board_of(text)
        proof = prove(board, max_nodes=NODES, quiet=0)
        assert proof.status != UNKNOWN
        shortest = next((m for m in (1, 2, 3) if _brute_force_win(board, m)), None)
        kinds.add(shortest)
        if shortest is not None:
            assert proof.status == WIN, text
        elif proof.status == WIN:
            assert proof_depth(proof.tree) > 5, text
        if proof.status == WIN:
            check_proof(board, proof.tree)
    assert {2, 3, None} <= kinds  # the positions cover a win in two, in three, and none


def _transformed(board: Board, sym: int) -> Board:
    other = Board(board.size, board.rule)
    for p in board.history:
        x, y = transform(sym, *board.point(p), board.size)
        other.make(other.index(x, y))
    return other


def test_all_eight_symmetries_give_the_same_answer() -> None:
    positions = [board_of(t) for t in (*MIXED_VCT_POSITIONS, *VCT_THREATS)]
    positions += _judged_positions()[1::17][:2]
    for board in positions:
        answers = set()
        for sym in range(8):
            image = _transformed(board, sym)
            proof = prove(image, max_nodes=NODES, quiet=0)
            answers.add(proof.status)
            if proof.status == WIN:  # (the proofs are replayed in full elsewhere)
                assert proof_depth(proof.tree) == len(proof.line), board.moves
        assert len(answers) == 1 and UNKNOWN not in answers, board.moves


def test_quiet_blocks_extend_the_wins() -> None:
    """With quiet moves allowed (blocking a four or an open three without a threat, the
    defender then free), the prover proves what it proves without (where it settles the
    position), and more; each such proof's principal line is a legal win. (The defender's
    free move is answered by the proof after a pass wherever it lies outside the pass's
    zone: a move there that prepares a counter-four later in the line is not tried, so
    a quiet proof is not always a proof: ``check_proof`` finds those.)"""
    more = 0
    for board in _judged_positions()[::3][:20]:
        plain = prove(board, max_nodes=50_000, quiet=0)
        quiet = prove(board, max_nodes=50_000, quiet=2)
        if plain.status == WIN and quiet.status != UNKNOWN:
            assert quiet.status == WIN
        if quiet.status == WIN and plain.status != WIN:
            more += 1
            for q in quiet.line:
                assert board.cells[q] == 0
                board.make(q)
            assert board.winner == quiet.attacker
            for _ in quiet.line:
                board.unmake()
    assert more >= 1


# --- renju ------------------------------------------------------------------------------


def test_renju_a_white_four_whose_block_is_forbidden_wins() -> None:
    """White makes a four whose only five point is a black double three: black cannot
    block there, so under renju the four wins at once; under freestyle black blocks
    there (making its own two threes) and the four is gone."""
    p = (7, 7)
    black = [(5, 7), (6, 7), (7, 5), (7, 6), (10, 10)]  # two twos through p; (10, 10)
    white = [(6, 6), (8, 8), (9, 9), (1, 13)]  # closes the diagonal's far end
    renju = board_with(black, white, Rule.RENJU)
    assert renju.side == 2  # white to move
    from gomoku.game.renju import forbidden

    assert forbidden(renju, renju.index(*p)) == "double three"
    proof = prove(renju, max_nodes=NODES, quiet=0)
    assert proof.status == WIN
    assert proof_depth(proof.tree) == 3  # the four (5, 5), no block, the five on p
    assert proof.line[-1] == renju.index(*p)
    check_proof(renju, proof.tree)
    free = board_with(black, white, Rule.FREESTYLE)
    free_proof = prove(free, max_nodes=NODES, quiet=0)
    assert free_proof.status != WIN or proof_depth(free_proof.tree) > 3


def test_renju_proofs_never_play_black_on_a_forbidden_point() -> None:
    """Renju positions of noisy games: each proof holds under the literal check, which
    refuses a black move (attack or answer) on a forbidden point and tries every legal
    black answer."""
    proved = 0
    for board in game_positions(Rule.RENJU, 10, seed=3)[::8]:
        proof = prove(board, max_nodes=NODES, quiet=0)
        assert proof.status != UNKNOWN
        if proof.status == WIN:
            if proof.nodes <= CHECKED:
                check_proof(board, proof.tree)
            proved += 1
    assert proved >= 3
