"""The puzzles' ratings by measurement (gomoku_lab.puzzle_rating): a level plays the
puzzle against its judge; the measurement is a function of the puzzle alone, so the
shipped counts come back when a cheap puzzle is measured again."""

from __future__ import annotations

from gomoku.puzzles import TRIES, check_solves, load
from gomoku_lab.puzzle_rating import attempt, measure

PUZZLES = load()


def test_cheap_puzzles_measured_again_give_the_shipped_counts() -> None:
    # the ones the bottom rung solved every time (one level measured: eight quick tries)
    cheap = [p for p in PUZZLES if p.solves and p.solves[0] == TRIES[0]]
    assert cheap, "no puzzle the first level solved every time"
    for p in cheap[:3]:
        pid, solves = measure(p)
        assert pid == p.id and solves == p.solves
        check_solves(solves)


def test_a_level_that_cannot_solve_a_puzzle_fails_it_and_one_that_can_solves_it() -> None:
    # a puzzle no level solved: the bottom rung fails every try
    hard = next(p for p in PUZZLES if p.solves and not any(p.solves))
    assert not any(attempt(hard, 1, seed) for seed in (1, 2))
    easy = next(p for p in PUZZLES if p.solves and p.solves[0] == TRIES[0])
    assert all(attempt(easy, 1, seed) for seed in (1, 2))
