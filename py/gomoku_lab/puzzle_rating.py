"""Puzzle ratings by measurement: which levels of the ladder solve each puzzle.

    PYTHONPATH=py nice -n 10 python -m gomoku_lab.puzzle_rating --jobs 2

Each node level of the ladder (gomoku.engine.levels: node-limited, so each move is a
function of the position, the level and the seed) plays the puzzle's solving side, move
by move, against the puzzle's judge (gomoku.puzzles.judge): a move that keeps the win (or
the defence) is answered by the judge's reply and the level moves again; the try is solved
when the judge says so, and missed on any other verdict ("lost", "other": a win not of the
puzzle's kind, "unclear" even at the judge's deeper look) or after too many moves. Each
level tries ``TRIES[n]`` seeds (1 .. TRIES[n]); the climb stops at the first level that
solves every try (the levels above are not measured: "." in the data).

The counts are written into the puzzle data (``py/gomoku/data/puzzles.txt``, its header
naming this command) as each puzzle's ``solves`` field; the puzzle's rating is then
fitted at load from the levels' own ratings (gomoku.puzzles.fit_rating), so puzzle and
level ratings are one scale and follow it when the ladder is measured again.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from gomoku.engine.facade import Engine
from gomoku.engine.levels import play
from gomoku.puzzles import (
    NODE_LEVELS,
    TRIES,
    Puzzle,
    dump,
    load,
    parse_text,
    rating_header,
)
from gomoku.puzzles.judge import CONTINUES, JUDGE_LIMITS, judge_move

DATA = Path(__file__).resolve().parents[1] / "gomoku" / "data" / "puzzles.txt"
COMMAND = "PYTHONPATH=py nice -n 10 python -m gomoku_lab.puzzle_rating --jobs 2"
EXTRA_MOVES = 6  # a try ends after the puzzle's moves to win plus this many


def attempt(puzzle: Puzzle, number: int, seed: int) -> bool:
    """Level ``number`` with ``seed`` plays the puzzle's solving side against its judge:
    True when the judge says solved."""
    board = puzzle.board()
    engine = Engine(puzzle.size, puzzle.rule, tt_bits=16, seed=0)
    allowed = puzzle.moves_to_win
    made = 0
    for _ in range((allowed or 1) + EXTRA_MOVES):
        engine.set_position(board.moves)
        move = tuple(play(engine, number, seed).move)
        left = None if allowed is None else max(1, allowed - made)
        verdict = judge_move(board, move, puzzle.theme, left)
        if verdict.outcome == "unclear":  # the deeper look the page takes too
            verdict = judge_move(board, move, puzzle.theme, left, JUDGE_LIMITS.scaled(4))
        if verdict.outcome == "solved":
            return True
        if verdict.outcome not in CONTINUES or verdict.reply is None:
            return False
        board.play(*move)
        board.play(*verdict.reply)
        made += 1
    return False


def measure(puzzle: Puzzle) -> tuple[str, tuple[int | None, ...]]:
    """(id, solves): per node level, the tries solved; None above the first level that
    solved every try."""
    solves: list[int | None] = []
    full = False  # a level solved every try: the ones above are not measured
    for number, tries in zip(NODE_LEVELS, TRIES, strict=True):
        if full:
            solves.append(None)
            continue
        n = sum(attempt(puzzle, number, seed) for seed in range(1, tries + 1))
        solves.append(n)
        full = n == tries
    return puzzle.id, tuple(solves)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.puzzle_rating", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=str(DATA), help="the puzzle file, rewritten in place")
    ap.add_argument("--jobs", type=int, default=2, help="processes")
    ap.add_argument("--only", help="comma-separated puzzle ids (a trial: printed, not written)")
    args = ap.parse_args(argv)
    path = Path(args.file)
    puzzles = parse_text(path.read_text(encoding="utf-8")) if args.file != str(DATA) else load()
    chosen = puzzles if not args.only else [p for p in puzzles if p.id in args.only.split(",")]
    start = time.time()
    measured: dict[str, tuple] = {}
    with Pool(args.jobs) as pool:
        for i, (pid, solves) in enumerate(pool.imap_unordered(measure, chosen, chunksize=1)):
            measured[pid] = solves
            if (i + 1) % 25 == 0 or args.only:
                print(f"{i + 1}/{len(chosen)} {time.time() - start:.0f}s {pid} {solves}",
                      flush=True)
    elapsed = time.time() - start
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = cpu.ru_utime + cpu.ru_stime
    print(f"{len(chosen)} puzzles measured: {elapsed:.0f} s wall, {cpu_s:.0f} s of CPU",
          flush=True)
    if args.only:
        return 0
    rated = [p.with_solves(measured[p.id]) for p in puzzles]
    loadavg = os.getloadavg()[1]
    took = (f"{time.strftime('%Y-%m-%d')}, {elapsed / 60:.0f} min wall at load {loadavg:.0f}, "
            f"{cpu_s / 60:.0f} min of CPU, {args.jobs} processes")
    header = rating_header(COMMAND, took)
    path.write_text(dump(rated, header), encoding="utf-8")
    shares = Counter(p.rating for p in rated)
    top, n = shares.most_common(1)[0]
    print(f"{len(rated)} puzzles rated in {elapsed:.0f} s -> {path}; the most shared rating "
          f"{top} ({n} puzzles, {n / len(rated):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
