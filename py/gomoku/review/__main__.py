"""``python -m gomoku.review FILE [--nodes N] [--json] [--size S] [--rule R] [--fixed K]``.

FILE is a Piskvork .psq file, a text file holding a move list or a share link, or ``-``
for standard input. Prints one line per move once the game is reviewed (a later proven
win can change the judgement of earlier moves): number, player, move, class, whether a
flag is proven (a forced win found) or judged (the evaluation), black's chance before
and after, and for a flagged move the better move and its line (points named as the page
names them, ``h8``), or "none holds" when every better move tried loses by force; then a
summary per side. ``--fixed K``: the first K moves were fixed by a rule or a record (not
judged). ``--json`` prints one JSON document instead: {size, rule, first, nodes, fixed,
moves: [...], positions: [...], summary} (review.move_dict and position_dict: points as
[x, y], scores as data).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gomoku.core.errors import GomokuError
from gomoku.review.records import RecordError, read_record
from gomoku.review.review import (
    DEFAULT_NODES,
    MARKS,
    Reviewer,
    move_dict,
    point_text,
    position_dict,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku.review", description=__doc__.split("\n")[0])
    ap.add_argument("file", help=".psq file, move list or link in a file, or - for stdin")
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="nodes per position")
    ap.add_argument("--json", action="store_true", help="one JSON document")
    ap.add_argument("--size", type=int, default=15, help="board size of a bare move list")
    ap.add_argument("--rule", default=None, help="rule of a move list or a .psq without one")
    ap.add_argument("--fixed", type=int, default=0, help="opening moves not judged")
    args = ap.parse_args(argv)
    if args.nodes < 1:
        ap.error("--nodes must be positive")
    if args.fixed < 0:
        ap.error("--fixed must not be negative")
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        record = read_record(text, args.size, args.rule)
    except RecordError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    except GomokuError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.fixed > len(record.moves):
        total = len(record.moves)
        print(f"error: --fixed {args.fixed}: the game has {total} moves", file=sys.stderr)
        return 2
    reviewer = Reviewer(record, args.nodes, args.fixed)
    size = record.size
    if args.json:
        positions, moves = [], []
        for pos, mv in reviewer.run():
            positions.append(position_dict(pos))
            if mv is not None:
                moves.append(move_dict(mv))
        doc = {
            "size": size,
            "rule": record.rule.label,
            "first": record.first,
            "nodes": args.nodes,
            "fixed": args.fixed,
            "moves": moves,
            "positions": positions,
            "summary": reviewer.summary(),
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    print(
        f"{size}x{size} {record.rule.label}, {len(record.moves)} moves,"
        f" {args.nodes} nodes per position"
    )
    print(
        f"{'move':>5} {'player':<6} {'':<5} {'class':<12} {'proof':<7}"
        f" {'black before':>12} {'after':>6}  better"
    )
    for _, mv in reviewer.run():
        if mv is None:
            continue
        better = "none holds" if mv.no_better else ""
        if mv.better is not None:
            line = " ".join(point_text(p, size) for p in mv.line)
            better = f"{point_text(mv.better, size)}  ({line})"
        name = f"{point_text(mv.move, size)}{MARKS.get(mv.cls, '')}"
        print(
            f"{mv.index:>5} {mv.player:<6} {name:<5} {mv.cls.replace('_', ' '):<12}"
            f" {mv.proof or '':<7} {mv.before:>11.0%} {mv.after:>6.0%}  {better}",
            flush=True,
        )
    print("summary:")
    for colour, counts in reviewer.summary().items():
        text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items())
        print(f"  {colour}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
