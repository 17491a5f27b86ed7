"""The coach's cost per position (gomoku.engine.coach, the worker's "threats" message):
random positions of each rule, timed in this interpreter.

    python -m gomoku_lab.coach_bench [--positions 100] [--seed 1]

Positions: 8..40 random stones in the middle 11x11 of a 15x15 board (threats are common
there), unfinished, no black stone on a forbidden point under renju. Prints per rule the
median, 90th percentile and largest time of one webapi "threats" message (the replay of
the moves included, as the worker does it) and the threats found per position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gomoku.core.errors import GomokuError
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import first_forbidden_move
from gomoku.protocol.webapi import handle


def positions(rule: Rule, count: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    """``count`` random unfinished positions of ``rule`` (see the module doc)."""
    out = []
    while len(out) < count:
        cells = [(x, y) for x in range(2, 13) for y in range(2, 13)]
        rng.shuffle(cells)
        moves = cells[: rng.randint(8, 40)]
        if rule is Rule.RENJU and first_forbidden_move(moves):
            continue
        try:
            board = Board.from_moves(moves, 15, rule)
        except GomokuError:  # a five before the last move
            continue
        if not board.winner:
            out.append(moves)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    handle({"type": "threats", "id": 0, "moves": []})  # the tables loaded first
    for rule in Rule:
        times, found = [], []
        for moves in positions(rule, args.positions, rng):
            moves_json = [list(m) for m in moves]
            msg = {"type": "threats", "id": 1, "rule": rule.label, "moves": moves_json}
            t0 = time.perf_counter()
            reply = handle(msg)
            times.append((time.perf_counter() - t0) * 1000)
            assert reply["type"] == "threats", reply
            found.append(len(reply["black"]) + len(reply["white"]))
        times.sort()
        print(
            f"{rule.label:9s} {len(times)} positions: median {statistics.median(times):.1f} ms, "
            f"90% {times[int(0.9 * len(times))]:.1f} ms, max {times[-1]:.1f} ms; "
            f"{statistics.mean(found):.1f} threats per position"
        )


if __name__ == "__main__":
    main()
