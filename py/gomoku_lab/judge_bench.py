"""The puzzle judge's time and verdicts over the shipped collection.

    PYTHONPATH=py nice -n 10 python -m gomoku_lab.judge_bench [--neighbours 3] [--nodes N]

Judges, in every puzzle, each stored first move and the first ``--neighbours`` other
cells next to the stones (black's forbidden points skipped), as the puzzles page does:
at the first budget (``--nodes``, default the judge's JUDGE_LIMITS), and when that cannot
tell, once more with four times the nodes. Prints the verdicts by theme and kind of move
(after the first look and as the page ends) and the CPU time per first look and per
judgement (median, 90%, 99%, max). CPU time, not wall time: the figures hold on a
machine shared with other jobs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from gomoku.game.renju import forbidden
from gomoku.protocol.webjudge import limits_for
from gomoku.puzzles import load
from gomoku.puzzles.judge import JUDGE_LIMITS, judge_move


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.judge_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--neighbours", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=JUDGE_LIMITS.nodes)
    args = ap.parse_args(argv)
    first, deeper = limits_for(args.nodes), limits_for(4 * args.nodes)
    verdicts: Counter = Counter()
    looks: Counter = Counter()
    times: list[float] = []
    totals: list[float] = []
    for p in load():
        board = p.board()
        left = p.moves_to_win if p.theme == "vcf" else None
        near = [board.point(q) for q in sorted(board.candidates)]
        others = [c for c in near if c not in p.solutions][: args.neighbours]
        for kind, moves in (("stored", p.solutions), ("other", others)):
            for move in moves:
                if board.side == 1 and forbidden(board, board.index(*move)):
                    continue
                t = time.process_time()
                v = judge_move(board, move, p.theme, left, first)
                times.append(time.process_time() - t)
                looks[(p.theme, kind, v.outcome)] += 1
                if v.outcome == "unclear":
                    v = judge_move(board, move, p.theme, left, deeper)
                totals.append(time.process_time() - t)
                verdicts[(p.theme, kind, v.outcome)] += 1
    outcomes = ("solved", "wins", "longer", "other", "lost", "unclear")
    print(f"first look {first.nodes} nodes, then {deeper.nodes}; verdicts as the page ends"
          " (first look's unclear in brackets)")
    print("| theme | move | " + " | ".join(outcomes) + " |")
    print("| --- | --- |" + " ---: |" * len(outcomes))
    for theme in ("vcf", "vct", "defend"):
        for kind in ("stored", "other"):
            row = [str(verdicts[(theme, kind, o)]) for o in outcomes]
            row[-1] += f" ({looks[(theme, kind, 'unclear')]})"
            print(f"| {theme} | {kind} | " + " | ".join(row) + " |")
    for name, values in (("first look", times), ("judgement", totals)):
        values.sort()
        n = len(values)
        ms = [1000 * values[int(q * (n - 1))] for q in (0.5, 0.9, 0.99, 1.0)]
        print(f"{n} moves, CPU ms per {name}: median {ms[0]:.1f}, 90% {ms[1]:.1f}, "
              f"99% {ms[2]:.1f}, max {ms[3]:.1f}, mean {1000 * statistics.mean(values):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
