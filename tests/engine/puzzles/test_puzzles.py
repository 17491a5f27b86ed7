"""Puzzles (gomoku.puzzles): the shipped collection re-proved on a sample, its shape
checked whole, the proofs on planted positions, bad input named by puzzle."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from gomoku.core.geometry import transform
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.puzzles import (
    PRIOR_MEAN,
    PRIOR_SD,
    TRIES,
    PuzzleError,
    check,
    check_shape,
    fit_rating,
    level_ratings,
    load,
    parse_line,
)
from gomoku.puzzles.prove import Vcf, vcf_solutions

ROOT = Path(__file__).resolve().parents[3]
PUZZLES = load()
SAMPLE_PER_KIND = 3  # puzzles re-proved per (rule, theme): the proofs take seconds each


def sample() -> list:
    """A fixed sample: the first few puzzles of every (rule, theme) in file order."""
    seen: dict[tuple, int] = {}
    out = []
    for p in PUZZLES:
        k = (p.rule, p.theme)
        if seen.get(k, 0) < SAMPLE_PER_KIND:
            seen[k] = seen.get(k, 0) + 1
            out.append(p)
    return out


def test_the_collection_is_large_and_covers_every_theme_and_rule() -> None:
    assert len(PUZZLES) >= 450  # (defences that lose to the prover are left out)
    assert {p.theme for p in PUZZLES} == {"vcf", "vct", "defend"}
    assert {p.rule for p in PUZZLES} == set(Rule)
    for p in PUZZLES:
        assert 1 <= len(p.solutions) <= (2 if p.theme == "defend" else 3), p.id


def test_every_puzzle_passes_the_build_checks() -> None:
    check_shape(PUZZLES)  # raises naming the puzzle


@pytest.mark.parametrize("puzzle", sample(), ids=lambda p: f"{p.rule.label}-{p.theme}-{p.id}")
def test_a_sample_is_proven_again(puzzle) -> None:
    """The solutions are exactly the cells that win (vcf, vct) or defend: every cell of
    the board is tried again, so a move outside the set does not win."""
    check(puzzle)


def test_vcf_solutions_win_and_a_four_outside_does_not() -> None:
    for p in [q for q in PUZZLES if q.theme == "vcf"][:8]:
        board = p.board()
        vcf = Vcf(board)
        for x, y in p.solutions:
            assert vcf.after(board.index(x, y), p.depth) is not None, p.id
        others = [
            q for q in board.candidates
            if board.point(q) not in p.solutions and vcf.after(q, p.depth) is not None
        ]
        assert others == [], p.id


def test_no_two_puzzles_are_one_position_under_symmetry_and_translation() -> None:
    keys = [p.key() for p in PUZZLES]
    assert len(set(keys)) == len(keys)
    # and the check catches a mirrored copy
    p = PUZZLES[0]
    mirrored = replace(
        p,
        id="zzzzzz",
        moves=tuple(transform(3, x, y, p.size) for x, y in p.moves),
        solutions=tuple(transform(3, x, y, p.size) for x, y in p.solutions),
        line=tuple(transform(3, x, y, p.size) for x, y in p.line),
    )
    with pytest.raises(PuzzleError, match=f"zzzzzz: the same position as puzzle {p.id}"):
        check_shape([p, mirrored])


def test_renju_never_asks_black_for_a_forbidden_point() -> None:
    renju = [p for p in PUZZLES if p.rule is Rule.RENJU]
    assert renju
    for p in renju:
        assert p.theme == "vcf"
        board = p.board()
        for x, y in p.solutions:
            if p.side == 1:
                assert forbidden(board, board.index(x, y)) is None, p.id
        # the line too: every black move of it on an allowed point when it is played
        for x, y in p.line:
            q = board.index(x, y)
            if board.side == 1:
                assert forbidden(board, q) is None, p.id
            board.make(q)


def _board(black, white, rule) -> Board:
    board = Board(15, rule)
    for b, w in zip(black, white, strict=True):
        board.play(*b)
        board.play(*w)
    return board


def test_a_double_four_wins_in_freestyle_and_is_refused_to_black_in_renju() -> None:
    black = [(5, 7), (6, 7), (7, 7), (8, 4), (8, 5), (8, 6)]
    white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (14, 14)]
    # black's (8, 7) completes a double four (or more): in freestyle a one-four win
    free = _board(black, white, Rule.FREESTYLE)
    renju = _board(black, white, Rule.RENJU)
    assert free.index(8, 7) in vcf_solutions(free, 1)
    q = renju.index(8, 7)  # cell numbers depend on the rule's padding
    assert forbidden(renju, q) == "double four"
    assert q not in vcf_solutions(renju, 3)


def test_an_open_three_is_won_by_the_two_open_four_points_only() -> None:
    board = _board([(6, 7), (7, 7), (8, 7)], [(0, 0), (0, 14), (14, 0)], Rule.FREESTYLE)
    found = {board.point(q) for q in vcf_solutions(board, 1)}
    assert found == {(5, 7), (9, 7)}
    # with two fours allowed the broken fours (4, 7) and (10, 7) win too (four, block,
    # then the other side is open four)
    deeper = {board.point(q) for q in vcf_solutions(board, 2)}
    assert {(5, 7), (9, 7)} <= deeper


def test_a_puzzle_with_a_wrong_solution_fails_its_check_by_id() -> None:
    p = next(q for q in PUZZLES if q.theme == "vcf" and q.rule is Rule.FREESTYLE)
    board = p.board()
    cells = [board.point(q) for q in sorted(board.candidates)]
    wrong = next(c for c in cells if c not in p.solutions)
    with pytest.raises(PuzzleError, match=f"puzzle {p.id}: solutions"):
        check(replace(p, solutions=(*p.solutions, wrong)))


def test_bad_lines_are_named() -> None:
    good = PUZZLES[0].to_text()
    assert parse_line(good) == PUZZLES[0]
    with pytest.raises(PuzzleError, match="puzzle abc123: 3 fields"):
        parse_line("abc123 freestyle 15")
    with pytest.raises(PuzzleError, match="puzzle abc123: unknown theme"):
        parse_line("abc123 freestyle 15 mate 3 0 - hhhi ii .")
    with pytest.raises(PuzzleError, match="puzzle abc123: cell 'zz'"):
        parse_line("abc123 freestyle 15 vcf 3 0 - hhzz ii .")
    with pytest.raises(PuzzleError, match="puzzle abc123: solves 'x"):
        parse_line("abc123 freestyle 15 vcf 3 0 x123456789 hhhi ii .")
    with pytest.raises(PuzzleError, match="puzzle abc123: 3 solve counts"):
        parse_line("abc123 freestyle 15 vcf 3 0 123 hhhi ii .")
    with pytest.raises(PuzzleError, match="out of 8 tries"):
        parse_line("abc123 freestyle 15 vcf 3 0 9......... hhhi ii .")
    with pytest.raises(PuzzleError, match="measured above one that solved every try"):
        parse_line("abc123 freestyle 15 vcf 3 0 8300000000 hhhi ii .")
    with pytest.raises(PuzzleError, match="not measured below"):
        parse_line("abc123 freestyle 15 vcf 3 0 3......... hhhi ii .")


def _log_posterior(x: float, solves) -> float:
    """The fit's objective, written out plainly: the measured solves' log likelihood on
    Elo's curve plus the Gaussian prior's log density (up to a constant)."""
    total = -((x - PRIOR_MEAN) ** 2) / (2 * PRIOR_SD**2)
    for r, n, t in zip(level_ratings(), solves, TRIES, strict=True):
        if n is None:
            continue
        p = 1 / (1 + 10 ** ((x - r) / 400))
        total += n * math.log(p) + (t - n) * math.log(1 - p)
    return total


@pytest.mark.parametrize(
    "solves",
    [
        (8, None, None, None, None, None, None, None, None, None),
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (2, 5, 6, 1, 4, None, None, None, None, None),
        (0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
        (0, 3, 7, 0, 2, 2, 0, 0, 4, None),
    ],
)
def test_the_rating_fit_is_the_most_likely_rating(solves) -> None:
    rating, deviation = fit_rating(solves)
    best = max(range(-1500, 3500), key=lambda x: _log_posterior(x, solves))
    assert abs(rating - best) <= 1
    assert 0 < deviation <= PRIOR_SD


def test_more_solves_by_the_same_levels_rate_a_puzzle_easier() -> None:
    hard = fit_rating((0, 0, 0, 1, 2, 3, 4, 4, None, None))
    easy = fit_rating((2, 4, 8, None, None, None, None, None, None, None))
    easiest = fit_rating((8, None, None, None, None, None, None, None, None, None))
    never = fit_rating((0,) * 10)
    assert easiest[0] < easy[0] < hard[0] < never[0]
    # a level rated like the puzzle solves it about half the time: the ladder's scale
    ratings = level_ratings()
    assert ratings[0] - 400 < easiest[0] < ratings[0] and never[0] > ratings[-1]


def test_no_rating_is_shared_by_more_than_a_quarter_of_the_collection() -> None:
    measured = [p.rating for p in PUZZLES if p.rating is not None]
    assert len(measured) == len(PUZZLES)  # every shipped puzzle is measured
    rating, n = Counter(measured).most_common(1)[0]
    assert n <= len(PUZZLES) / 4, f"{n} puzzles share the rating {rating}"


def test_the_export_prints_every_puzzle_in_the_issue_s_format() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "gomoku.puzzles", "--json"],
        cwd=ROOT / "py", capture_output=True, text=True, check=True,
    ).stdout
    data = json.loads(out)
    assert len(data) == len(PUZZLES)
    first = data[0]
    for key in ("id", "size", "rule", "moves", "theme", "depth", "solutions", "line", "rating"):
        assert key in first
    assert first["rule"] in ("freestyle", "standard", "renju")
    assert all(len(m) == 2 for m in first["moves"])


def test_the_page_s_copy_is_the_shipped_collection() -> None:
    from gomoku.protocol.page_data import puzzles_js

    page_copy = ROOT / "web" / "model" / "puzzles-data.js"
    assert page_copy.read_text(encoding="utf-8") == puzzles_js(PUZZLES)


def test_reprove_finds_a_defence_that_loses_and_clears_one_that_holds() -> None:
    """The lab's reprove (gomoku_lab.puzzles.losing_defences): a "defence" far from the
    fight loses to the attacker's forced win; where the prover clears every defence of a
    shipped puzzle, each holds at a larger budget too (no win appears with more nodes)."""
    from gomoku_lab.puzzles import losing_defences

    cleared = 0
    for p in [q for q in PUZZLES if q.theme == "defend" and q.rule is Rule.FREESTYLE][:6]:
        board = p.board()
        far = next(
            board.point(c) for c in board.layout.onboard
            if board.cells[c] == 0
            and min(max(abs(board.point(c)[0] - x), abs(board.point(c)[1] - y))
                    for x, y in p.moves) >= 5
        )
        losing, _ = losing_defences(replace(p, solutions=(far,)), 30_000)
        assert losing == [far], p.id
        losing, unsure = losing_defences(p, 20_000)
        if not losing and not unsure:
            cleared += 1
            assert losing_defences(p, 60_000)[0] == []
    assert cleared >= 1
