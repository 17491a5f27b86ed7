"""``python -m gomoku.review FILE [--nodes N] [--json] [--size S] [--rule R]``.

FILE is a Piskvork .psq file, a text file holding a move list or a share link, or ``-``
for standard input. Prints one line per move as it is reviewed: number, player, move,
class, black's chance before and after, and for a flagged move the engine's better move
and its line (points named as the page names them, ``h8``); then a summary per side.
``--json`` prints one JSON document instead: {size, rule, first, nodes, moves: [...],
positions: [...], summary}.
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
    args = ap.parse_args(argv)
    if args.nodes < 1:
        ap.error("--nodes must be positive")
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
    reviewer = Reviewer(record, args.nodes)
    size = record.size
    if args.json:
        positions, moves = [], []
        for pos, mv in reviewer.run():
            positions.append(position_dict(pos, size))
            if mv is not None:
                moves.append(move_dict(mv, size))
        doc = {
            "size": size,
            "rule": record.rule.label,
            "first": record.first,
            "nodes": args.nodes,
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
        f"{'move':>5} {'player':<6} {'':<5} {'class':<12} {'black before':>12} {'after':>6}  better"
    )
    for _, mv in reviewer.run():
        if mv is None:
            continue
        better = ""
        if mv.better is not None:
            line = " ".join(point_text(p, size) for p in mv.line)
            better = f"{point_text(mv.better, size)}  ({line})"
        name = f"{point_text(mv.move, size)}{MARKS.get(mv.cls, '')}"
        print(
            f"{mv.index:>5} {mv.player:<6} {name:<5} {mv.cls.replace('_', ' '):<12}"
            f" {mv.before:>11.0%} {mv.after:>6.0%}  {better}",
            flush=True,
        )
    print("summary:")
    for colour, counts in reviewer.summary().items():
        text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items())
        print(f"  {colour}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
