"""Judging a puzzle move by the position (gomoku.puzzles.judge): every move that keeps the
win is accepted and the puzzle goes on, a refused move that wins otherwise is "also
wins", only a move after which the win is gone is lost, with the opponent's answer; the
same through the web worker's "judge" message."""

from __future__ import annotations

import json

import pytest

from gomoku.core.geometry import transform
from gomoku.game.board import Board
from gomoku.protocol.webapi import handle
from gomoku.puzzles import load
from gomoku.puzzles.judge import (
    CONTINUES,
    JUDGE_LIMITS,
    Budget,
    JudgeError,
    JudgeLimits,
    forced_win,
    judge_move,
)
from gomoku.puzzles.prove import Vcf, five_cells, makes_four, vcf_line, vct_after
from gomoku.search.threats import ThreatSearch

PUZZLES = {p.id: p for p in load()}
# "win by fours, 7 moves": the position where a player's open four after extra fours
# was once called "not a four"
ISSUE_VCF = PUZZLES["0bd7eb"]
# eight fours of black's on a longer road than the shortest (j9 j6 j8 j11 g8 g11 i8 e6),
# each keeping a VCF, after which h10 is an open four
EXTRA_FOURS = [(9, 6), (9, 9), (9, 7), (9, 4), (6, 7), (6, 4), (8, 7), (4, 9)]
H10 = (7, 5)


def cells(board: Board, side: int) -> set[tuple[int, int]]:
    return {board.point(q) for q in five_cells(board, side)}


def has_win(board: Board) -> bool:
    """The side to move wins by VCF or VCT, asked of the threat search directly."""
    search = ThreatSearch(board, cache={})
    return search.vcf(16) is not None or search.vct(6) is not None


def test_an_open_four_after_extra_fours_is_accepted_and_played_to_the_five() -> None:
    p = ISSUE_VCF
    board = p.board()
    attacker = board.side
    allowed = p.moves_to_win
    for i, four in enumerate(EXTRA_FOURS):
        before = board.hash
        v = judge_move(board, four, p.theme, max(1, allowed - i))
        assert board.hash == before  # the board is left as it was
        assert v.outcome in CONTINUES and v.by == "vcf", (four, v)
        board.play(*four)
        # the reply is the defender's only one: the block of the four just made
        assert cells(board, attacker) == {v.reply}
        board.play(*v.reply)
    assert len(EXTRA_FOURS) > allowed  # more moves than the puzzle needed
    v = judge_move(board, H10, p.theme, 1)
    assert v.outcome == "longer" and v.moves_to_win == 1
    board.play(*H10)
    fives = cells(board, attacker)
    assert fives == {(5, 3), (10, 8)}  # f12 and k7 both make five
    assert v.reply in fives
    board.play(*v.reply)
    (last,) = fives - {v.reply}
    assert judge_move(board, last, p.theme, 1).outcome == "solved"


def test_the_stored_line_is_accepted_move_by_move_within_the_moves_allowed() -> None:
    p = ISSUE_VCF
    board = p.board()
    left = p.moves_to_win
    for i in range(0, len(p.line), 2):
        v = judge_move(board, p.line[i], p.theme, left)
        if i + 1 < len(p.line):
            assert v.outcome == "wins", (i, v)
            board.play(*p.line[i])
            board.play(*v.reply)
            left -= 1
        else:
            assert v.outcome == "solved" and v.by == "five"


@pytest.mark.parametrize("move", [(10, 6), (10, 10)], ids=["k9", "k5"])
def test_a_refused_four_that_wins_by_threes_is_also_a_win_not_a_loss(move) -> None:
    p = ISSUE_VCF
    board = p.board()
    q = board.index(*move)
    assert move not in p.solutions and makes_four(board, q, board.side)
    assert Vcf(board).after(q, p.depth) is None  # not a win by fours
    v = judge_move(board, move, p.theme, p.moves_to_win)
    assert v.outcome == "other" and v.by == "vct"
    # the win it found is one: after the block, its next threat wins by threats
    board.play(*move)
    assert cells(board, 3 - board.side) == {v.reply}
    board.play(*v.reply)
    assert vct_after(board, board.index(*v.line[1]), 6) is not None


def test_a_quiet_move_after_which_the_defender_wins_is_lost_with_its_answer() -> None:
    p = ISSUE_VCF
    board = p.board()
    attacker = board.side
    move = (4, 9)  # e6: far from black's attack; white then wins by force
    v = judge_move(board, move, p.theme, p.moves_to_win)
    assert v.outcome == "lost" and v.reply is not None and v.line[0] == v.reply
    board.play(*move)
    board.play(*v.reply)
    # after the answer black has no win left (and it is black's move)
    assert board.side == attacker and not has_win(board)


def test_a_four_whose_block_ends_the_win_is_lost_and_the_answer_is_the_block() -> None:
    # standard-rule positions are not needed: a VCT puzzle's fours that are not
    # solutions, each answered by its block, after which the attacker has no win
    found = 0
    for p in (q for q in PUZZLES.values() if q.theme == "vct"):
        board = p.board()
        side = board.side
        for q in sorted(board.candidates):
            move = board.point(q)
            if move in p.solutions or not makes_four(board, q, side):
                continue
            v = judge_move(board, move, p.theme)
            if v.outcome != "lost":
                continue
            board.play(*move)
            assert cells(board, side) == {v.reply}
            board.play(*v.reply)
            assert not has_win(board), (p.id, move)
            board.undo()
            board.undo()
            found += 1
        if found >= 3:
            break
    assert found >= 3


def test_a_wrong_defence_is_lost_to_the_attackers_winning_line() -> None:
    p = next(q for q in PUZZLES.values() if q.theme == "defend" and q.rule.label == "freestyle")
    board = p.board()
    defender = board.side
    sol = judge_move(board, p.solutions[0], "defend")
    assert sol.outcome == "solved" and sol.reply is None
    wrong = next(
        board.point(q) for q in sorted(board.candidates)
        if board.point(q) not in p.solutions and not makes_four(board, q, defender)
    )
    v = judge_move(board, wrong, "defend")
    assert v.outcome == "lost" and v.by in ("vcf", "vct")
    # the attacker's line is played: its first move is the answer, legal on the board
    board.play(*wrong)
    assert v.reply == v.line[0] and not board.cells[board.index(*v.reply)]
    assert has_win(board)


def test_a_delaying_four_in_a_defence_is_answered_by_its_block() -> None:
    seen = 0
    for p in (q for q in PUZZLES.values() if q.theme == "defend"):
        board = p.board()
        side = board.side
        for q in sorted(board.candidates):
            if not makes_four(board, q, side):
                continue
            move = board.point(q)
            board.play(*move)
            has_five = bool(five_cells(board, 3 - side))
            block = cells(board, side)
            board.undo()
            if has_five:
                continue  # the attacker would make its own five instead
            v = judge_move(board, move, "defend")
            assert {v.reply} == block and v.line[0] == v.reply, (p.id, move, v)
            assert v.outcome in ("lost", "wins", "solved")
            seen += 1
        if seen >= 3:
            break
    assert seen >= 3


def test_a_renju_four_whose_block_is_forbidden_solves_with_the_trap_named() -> None:
    p = PUZZLES["10e853"]
    board = p.board()
    v = judge_move(board, p.line[0], p.theme, p.moves_to_win)
    assert v.outcome == "solved" and v.trap is not None
    board.play(*p.line[0])
    assert cells(board, 2) == {v.trap}


def test_a_node_cap_never_turns_into_a_loss() -> None:
    p = next(q for q in PUZZLES.values() if q.theme == "vct")
    board = p.board()
    tiny = JudgeLimits(nodes=3, search_nodes=1)
    for move in p.solutions:
        assert judge_move(board, move, "vct", limits=tiny).outcome == "unclear"
        assert judge_move(board, move, "vct", limits=tiny.scaled(10000)).outcome == "wins"


@pytest.mark.parametrize("k", range(1, 8))
def test_the_verdicts_are_the_same_under_the_symmetries(k) -> None:
    p = ISSUE_VCF
    size = p.size
    moved = [transform(k, *m, size) for m in p.moves]
    board = Board.from_moves(moved, size, p.rule)
    for move, expect in [((9, 6), "wins"), ((10, 10), "other"), ((4, 9), "lost")]:
        v = judge_move(board, transform(k, *move, size), p.theme, p.moves_to_win)
        assert v.outcome == expect, (k, move, v)
    v = judge_move(board, transform(k, 9, 6, size), p.theme, p.moves_to_win)
    assert v.reply == transform(k, 10, 6, size)


def test_moves_that_cannot_be_judged_are_refused_by_name() -> None:
    board = ISSUE_VCF.board()
    with pytest.raises(JudgeError, match="taken"):
        judge_move(board, ISSUE_VCF.moves[0], "vcf")
    with pytest.raises(JudgeError, match="off the 15x15"):
        judge_move(board, (15, 2), "vcf")
    with pytest.raises(JudgeError, match="theme"):
        judge_move(board, (1, 1), "mate")
    renju = next(p for p in PUZZLES.values() if p.rule.label == "renju" and p.side == 1)
    rb = renju.board()
    from gomoku.game.renju import forbidden

    bad = next((q for q in rb.layout.onboard if not rb.cells[q] and forbidden(rb, q)), None)
    if bad is not None:
        with pytest.raises(JudgeError, match="forbidden"):
            judge_move(rb, rb.point(bad), "vcf")


def test_the_worker_message_answers_the_verdict() -> None:
    p = ISSUE_VCF
    base = {"type": "judge", "id": 7, "size": p.size, "rule": p.rule.label,
            "moves": [list(m) for m in p.moves], "theme": p.theme}
    reply = json.loads(json.dumps(handle({**base, "move": [10, 10], "movesLeft": 7})))
    assert reply["type"] == "judge" and reply["id"] == 7
    assert reply["outcome"] == "other" and reply["by"] == "vct" and reply["reply"] == [9, 9]
    reply = handle({**base, "move": [9, 6], "movesLeft": 7})
    assert reply["outcome"] == "wins" and reply["reply"] == [10, 6]
    assert reply["line"][0] == [10, 6] and reply["movesToWin"] >= 1
    small = handle({**base, "move": [9, 6], "nodes": 100})
    assert small["nodes"] <= 100 + 64


@pytest.mark.parametrize(
    "change, words",
    [
        ({"move": [7, 8]}, "taken"),
        ({"move": [15, 0]}, "move must be"),
        ({"theme": "mate"}, "theme must be"),
        ({"movesLeft": 0}, "movesLeft"),
        ({"nodes": 10**9}, "nodes must be"),
        ({"extra": 1}, "unknown field"),
    ],
)
def test_the_worker_message_refuses_bad_fields_by_name(change, words) -> None:
    p = ISSUE_VCF
    message = {"type": "judge", "id": "j", "size": p.size, "rule": p.rule.label,
               "moves": [list(m) for m in p.moves], "theme": p.theme, "move": [9, 6],
               **change}
    reply = handle(message)
    assert reply["type"] == "error" and reply["id"] == "j" and words in reply["message"]


def test_a_renju_win_only_the_vct_sees_is_unsure_never_a_win() -> None:
    # the threat search's VCT does not know black's forbidden points: under renju a win
    # it alone finds is not returned, and the answer is marked unsure (a node cap's "cut")
    p = PUZZLES["10e853"]  # white to move
    board = p.board()
    board.play(4, 4)
    board.pass_move()  # white again, as if black had not answered
    assert vcf_line(board, 16) is None and ThreatSearch(board, cache={}).vct(6) is not None
    budget = Budget(JUDGE_LIMITS.nodes)
    assert forced_win(board, False, JUDGE_LIMITS, budget) is None and budget.cut == 1
    fours = Budget(JUDGE_LIMITS.nodes)
    assert forced_win(board, True, JUDGE_LIMITS, fours) is None and fours.cut == 0
