"""Self-play games at fixed node counts, for fitting the evaluation (gomoku_lab.tune).

A game starts from a random opening (a few stones near the centre, alternating colours,
no threat yet) and is played by the engine against itself in this process, each side with
its own node budget per move (drawn per game, so that the positions come from players of
several strengths). Node-limited play is deterministic, so the variety comes from the
openings and the budgets, both drawn from a seeded generator: the same seed gives the
same games.

Games are written as JSON lines: ``{"moves": "h8 i9 ...", "winner": 0|1|2, "size": 15,
"rule": "freestyle", "nodes": [black, white], "opening": stones}``.
"""

from __future__ import annotations

import json
import multiprocessing
import random
from collections.abc import Iterator
from dataclasses import dataclass

from gomoku.core.geometry import Point, moves_to_text
from gomoku.core.rules import Rule, parse_rule
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.board import Board

DEFAULT_BUDGETS = (500, 1000, 2000, 4000)
MAX_PLIES = 225
OPENING_RADIUS = 3  # opening stones stay within this distance of the centre


@dataclass(frozen=True)
class GameTask:
    index: int
    seed: int
    size: int
    rule: Rule
    budgets: tuple[int, ...]
    min_stones: int
    max_stones: int


def random_opening(rng: random.Random, size: int, rule: Rule, stones: int) -> list[Point]:
    """``stones`` stones (black first) near the centre: the first within 1 of the centre,
    each next one within distance 2 of a stone already placed and OPENING_RADIUS of the
    centre, such that neither side can make a five or an open four yet (no decided
    position to start from)."""
    c = size // 2
    while True:
        board = Board(size, rule)
        board.play(c + rng.randint(-1, 1), c + rng.randint(-1, 1))
        ok = True
        while board.ply < stones:
            cells = sorted(board.candidates)
            cells = [q for q in cells if _within(board, q, c, OPENING_RADIUS)]
            rng.shuffle(cells)
            for q in cells:
                board.make(q)
                if _quiet(board):
                    break
                board.unmake()
            else:
                ok = False
                break
        if ok:
            return board.moves


def _within(board: Board, q: int, c: int, radius: int) -> bool:
    x, y = board.point(q)
    return max(abs(x - c), abs(y - c)) <= radius


def _quiet(board: Board) -> bool:
    """Neither side has a cell making a five or an open four."""
    for side in (1, 2):
        if board.fives(side) or board.open_fours(side):
            return False
    return True


def play_game(task: GameTask) -> dict:
    """Play one self-play game; returns its record (see the module docstring)."""
    rng = random.Random(task.seed)
    stones = rng.randint(task.min_stones, task.max_stones)
    opening = random_opening(rng, task.size, task.rule, stones)
    budgets = [rng.choice(task.budgets), rng.choice(task.budgets)]
    engine = Engine(task.size, task.rule, tt_bits=16, seed=0)
    engine.set_position(opening)
    while not engine.is_over and len(engine.moves) < MAX_PLIES:
        nodes = budgets[engine.side_to_move - 1]
        limits = Limits(time_ms=None, nodes=nodes, use_book=False, seed=0)
        result = engine.think(limits)
        engine.play(*result.move)
    return {
        "moves": moves_to_text(engine.moves, task.size),
        "winner": engine.winner,
        "size": task.size,
        "rule": task.rule.label,
        "nodes": budgets,
        "opening": len(opening),
    }


def generate_games(
    count: int,
    seed: int = 1,
    size: int = 15,
    rule: Rule | str = Rule.FREESTYLE,
    budgets: tuple[int, ...] = DEFAULT_BUDGETS,
    min_stones: int = 2,
    max_stones: int = 6,
    workers: int = 1,
) -> Iterator[dict]:
    """Yield ``count`` game records (in completion order when workers > 1)."""
    rule = parse_rule(rule)
    master = random.Random(seed)
    tasks = [
        GameTask(i, master.randrange(1 << 62), size, rule, budgets, min_stones, max_stones)
        for i in range(count)
    ]
    if workers <= 1:
        for t in tasks:
            yield play_game(t)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(play_game, tasks)


def write_games(path: str, records: Iterator[dict], progress: bool = True) -> int:
    """Append records to a JSON lines file; returns how many were written."""
    n = 0
    with open(path, "a", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            n += 1
            if progress and n % 25 == 0:
                print(f"{n} games", flush=True)
    return n


__all__ = ["generate_games", "play_game", "random_opening", "write_games"]
