"""``python -m gomoku.puzzles --json``: every shipped puzzle as JSON (one list);
``--check``: prove every puzzle again (exit 1 naming the first that fails). The page's
copy, web/model/puzzles-data.js, is written by ``python -m gomoku.protocol.page_data``."""

from __future__ import annotations

import argparse
import sys

from gomoku.puzzles import PuzzleError, check, check_shape, export_json, load, parse_text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku.puzzles", description=__doc__)
    ap.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    ap.add_argument("--check", action="store_true", help="prove every puzzle again")
    ap.add_argument("--file", help="a puzzle file instead of the shipped one")
    args = ap.parse_args(argv)
    try:
        if args.file:
            with open(args.file, encoding="utf-8") as f:
                puzzles = parse_text(f.read())
        else:
            puzzles = load()
        check_shape(puzzles)
        if args.check:
            for p in puzzles:
                check(p)
            print(f"{len(puzzles)} puzzles proven", file=sys.stderr)
    except (PuzzleError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json or not args.check:
        print(export_json(puzzles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
