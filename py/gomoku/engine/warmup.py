"""The tables a web worker's warm-up would build, built ahead of time.

    python -m gomoku.engine.warmup --write DIR     # the files, into DIR
    python -m gomoku.engine.warmup --check DIR     # each file equal to its generator

build.py writes them into the package's data folder before it packs the wheel (they are
not kept in git), and a worker's start-up reads them (gomoku.core.shipped) instead of
computing them: the default 15x15 board's Zobrist keys (for the pattern widths of every
rule: freestyle's 4, standard's and renju's 5) and its layout under the default rule (the
warm-up's; the other rules' layouts are built by their first game, as before: 80 KB less
to download), and the opening book's index. Each is made by the same function the engine
falls back on, so a shipped table and a computed one are equal (tests/engine/engine/test_shipped.py;
``--check``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from gomoku.core import shipped
from gomoku.core.rules import DEFAULT_SIZE, Rule
from gomoku.core.zobrist import build_keys
from gomoku.core.zobrist import shipped_name as zobrist_name
from gomoku.engine.book import Book, book_shipped_name
from gomoku.game.board import layout_parts, layout_shipped_name
from gomoku.patterns.tables import half_length

SIZES = (DEFAULT_SIZE,)  # other sizes build their tables on first use
DEFAULT_RULE = Rule.FREESTYLE  # the warm-up's (webapi's default)


def tables() -> dict[str, tuple[str, object]]:
    """{name: (inputs, value)} of every shipped table, computed by its generator."""
    out: dict[str, tuple[str, object]] = {}
    for size in SIZES:
        for pad in sorted({half_length(rule) for rule in Rule}):
            if pad == half_length(DEFAULT_RULE):
                name, inputs = layout_shipped_name(size, pad)
                out[name] = (inputs, layout_parts(size, pad))
            width = size + 2 * pad
            name, inputs = zobrist_name(width * width)
            out[name] = (inputs, build_keys(width * width))
    name, inputs = book_shipped_name()
    out[name] = (inputs, Book.load().to_plain())
    return out


def write(folder: Path) -> list[Path]:
    """Write every table into ``folder`` (each file replaced whole); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (inputs, value) in tables().items():
        path = folder / shipped.file_name(name)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(shipped.dumps(name, inputs, value))
        os.replace(tmp, path)
        written.append(path)
    return written


def check(folder: Path) -> list[str]:
    """The names of the tables in ``folder`` that are missing or differ from their
    generator (an empty list: all current)."""
    bad = []
    shipped.read_from(folder)
    try:
        for name, (inputs, value) in tables().items():
            if shipped.load(name, inputs) != value:
                bad.append(name)
    finally:
        shipped.read_from(None)
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku.engine.warmup", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="DIR")
    group.add_argument("--check", type=Path, metavar="DIR")
    args = ap.parse_args(argv)
    if args.write:
        for path in write(args.write):
            print(f"{path} ({path.stat().st_size} bytes)")
        return 0
    bad = check(args.check)
    for name in bad:
        print(f"{name}: missing or different from its generator", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
