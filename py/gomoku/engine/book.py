"""Opening book: the file format and the lookup, matched under symmetry and translation.

Layering: this is the part of the book the engine needs at play time (``Engine`` loads
``default_book()`` lazily; webapi, pbrain and match get book moves through the engine). It
imports only the layers below the search (errors, rules, geometry, symmetry, and lazily
board and renju for the renju check), never ``gomoku.engine.facade``,
``gomoku.search.alphabeta`` or anything that imports them; tests/engine/engine/test_book.py checks
this. The builder, which searches with the engine, is ``gomoku_lab.book_build``, and
this module must not import it.

Data: one text line per (position, reply), see openings/README.md. The book is package data,
``py/gomoku/data/book.txt`` (``BOOK_FILE``), stored once: the builder writes it, the wheel
ships it, ``Book.load()`` reads it.

Matching (see symmetry.py for the geometry):

* A book line whose position *and* reply are far from the edges of the board it was computed
  on (`symmetry.far_from_edge`) is indexed by the position's relative key: it answers the same
  shape anywhere on any board size 15..20, in any of the 8 orientations, as long as the
  looked-up position and the mapped reply are also far from the edges there.
* Any other line is indexed by its absolute key (board size + the 8 board symmetries) and
  answers only that position on that board size, up to symmetry.

A lookup collects the replies of both keys (the relative one only when the position is far
from the edges). Replies are mapped back to the real board, must be empty cells, and the one
returned is chosen among those whose score is within ``tolerance`` of the best.

Entries are per rule, so a rule without entries gets no answer: the shipped book has none
for renju, and is silent there. Should renju entries be added, a reply on a point
forbidden for black (renju.py) is still never returned.

Command line (run from the repository root; lookup only, nothing is searched):

    python -m gomoku.engine.book check [FILE]      # parse, legality, package copy identical
    python -m gomoku.engine.book query "h8 h9 i9" [--size 15] [--rule freestyle]

Building the book and its coverage statistics: ``python -m gomoku_lab.book_build build|stats``.
"""

from __future__ import annotations

import functools
import os
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gomoku.core import shipped
from gomoku.core.errors import GomokuError, IllegalMoveError
from gomoku.core.geometry import (
    Point,
    check_point,
    from_text,
    moves_to_text,
    to_text,
)
from gomoku.core.rules import Rule, check_size, parse_rule
from gomoku.core.symmetry import (
    Canonical,
    Key,
    canonical,
    far_from_edge,
    split_moves,
)

if TYPE_CHECKING:
    import argparse  # the command line's; imported there (a worker never needs it)

BOOK_FILE = Path(__file__).resolve().parents[1] / "data" / "book.txt"
"""The book: package data (py/gomoku/data/book.txt), the only copy, in a checkout and in an
installed wheel alike."""

DEFAULT_TOLERANCE = 25
"""Replies whose score is within this many centi-units of the best are chosen among."""


class BookFormatError(GomokuError):
    """A line of a book file that does not parse or describes an illegal position/reply."""


@dataclass(frozen=True)
class BookMove:
    """A book answer on the real board: move (x, y), score (centi-units, side to move's view,
    as the engine reports it) and note (how the score was computed)."""

    move: Point
    score: int
    note: str

    def to_dict(self) -> dict:
        return {"move": [self.move[0], self.move[1]], "score": self.score, "note": self.note}


@dataclass(frozen=True)
class BookEntry:
    """One line of a book file: on a size x size board under `rule`, after `moves` (black
    first), play `reply`."""

    rule: Rule
    size: int
    moves: tuple[Point, ...]
    reply: Point
    score: int
    note: str = ""

    def to_line(self) -> str:
        """The line as written in the book file (no newline)."""
        moves = moves_to_text(self.moves, self.size) if self.moves else "-"
        line = (
            f"{self.rule.label} {self.size} {moves} : "
            f"{to_text(*self.reply, self.size)} {self.score:+d}"
        )
        return f"{line} {self.note}" if self.note else line

    @classmethod
    def from_line(cls, line: str) -> BookEntry:
        """Parse one book line (see openings/README.md). Raises BookFormatError."""
        head, sep, tail = line.partition(":")
        if not sep:
            raise BookFormatError("missing ':' between the position and the reply")
        h = head.split()
        t = tail.split(None, 2)
        if len(h) < 3 or len(t) < 2:
            raise BookFormatError("expected 'RULE SIZE MOVES : REPLY SCORE [NOTE]'")
        try:
            rule = parse_rule(h[0])
            size = check_size(int(h[1]))
            moves = tuple(from_text(m, size) for m in h[2:]) if h[2:] != ["-"] else ()
            reply = from_text(t[0], size)
            score = int(t[1])
        except (GomokuError, ValueError) as exc:
            raise BookFormatError(str(exc)) from None
        entry = cls(rule, size, moves, reply, score, t[2].strip() if len(t) > 2 else "")
        entry.validate()
        return entry

    def validate(self) -> None:
        """Raise BookFormatError unless the moves are distinct board points and the reply is
        an empty board point."""
        try:
            check_size(self.size)
            for x, y in (*self.moves, self.reply):
                check_point(x, y, self.size)
        except GomokuError as exc:
            raise BookFormatError(str(exc)) from None
        if len(set(self.moves)) != len(self.moves):
            raise BookFormatError("a point is played twice in the position")
        if self.reply in self.moves:
            raise BookFormatError(f"reply {to_text(*self.reply, self.size)} is occupied")


@dataclass(frozen=True)
class _Stored:
    point: Point  # reply in the canonical frame of the key
    score: int
    note: str


def _check_moves(moves: Sequence[Point], size: int) -> list[Point]:
    out = []
    for m in moves:
        if not isinstance(m, Sequence) or len(m) != 2:
            raise IllegalMoveError(f"a move must be an (x, y) pair, got {m!r}")
        out.append(check_point(m[0], m[1], size))
    if len(set(out)) != len(out):
        raise IllegalMoveError("a point is played twice in the move list")
    return out


def position_keys(moves: Sequence[Point], size: int) -> list[Canonical]:
    """The canonical forms under which a position is looked up: the relative one (only when
    every stone is far from the edges), then the absolute one."""
    black, white = split_moves(moves)
    out = []
    if far_from_edge(moves, size):
        out.append(canonical(black, white, size, translate=True))
    out.append(canonical(black, white, size, translate=False))
    return out


class Book:
    """An in-memory opening book, indexed by (rule, canonical key).

    tolerance: `lookup` chooses among replies whose score is at least best - tolerance.
    """

    def __init__(self, entries: Iterable[BookEntry] = (), tolerance: int = DEFAULT_TOLERANCE):
        self.tolerance = tolerance
        self.entries: list[BookEntry] = []
        self.header: list[str] = []
        self.max_stones = -1  # no position with more stones is in the book
        self._index: dict[tuple[Rule, Key], list[_Stored]] = {}
        for e in entries:
            self.add(e)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def positions(self) -> int:
        """Number of distinct (rule, canonical key) positions answered."""
        return len(self._index)

    # -- adding entries ------------------------------------------------------------------

    def add(self, entry: BookEntry) -> bool:
        """Index one entry (validated). Returns True when it is relative-keyed (answers the
        shape anywhere far from the edges), False when absolute-keyed."""
        entry.validate()
        black, white = split_moves(entry.moves)
        relative = far_from_edge((*entry.moves, entry.reply), entry.size)
        c = canonical(black, white, entry.size, translate=relative)
        stored = _Stored(c.to_frame(*entry.reply), entry.score, entry.note)
        bucket = self._index.setdefault((entry.rule, c.key), [])
        if all(s.point != stored.point for s in bucket):
            bucket.append(stored)
        self.entries.append(entry)
        self.max_stones = max(self.max_stones, len(entry.moves))
        return relative

    # -- files --------------------------------------------------------------------------

    @classmethod
    def load(
        cls, path: str | os.PathLike[str] | None = None, tolerance: int = DEFAULT_TOLERANCE
    ) -> Book:
        """Read a book file. path=None reads the copy shipped in the package and returns an
        empty book if it is missing; an explicit path must exist. Comment lines ('#') go to
        `header`. Raises BookFormatError (with the line number) on a bad line."""
        if path is None:
            if not BOOK_FILE.is_file():
                return cls(tolerance=tolerance)
            path = BOOK_FILE
        text = Path(path).read_text(encoding="utf-8")
        book = cls(tolerance=tolerance)
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                comment = raw.rstrip()[raw.index("#") + 1 :]
                book.header.append(comment[1:] if comment.startswith(" ") else comment)
                continue
            try:
                book.add(BookEntry.from_line(line))
            except BookFormatError as exc:
                raise BookFormatError(f"{path}:{n}: {exc}") from None
        return book

    def to_plain(self) -> tuple:
        """The book as plain data (tuples, ints, strings): what ``from_plain`` reads back
        without parsing or canonicalising anything (the shipped table)."""
        entries = tuple((e.rule.value, e.size, e.moves, e.reply, e.score, e.note)
                        for e in self.entries)
        index = {
            (rule.value, key): tuple((s.point, s.score, s.note) for s in bucket)
            for (rule, key), bucket in self._index.items()
        }
        return (self.tolerance, tuple(self.header), entries, index, self.max_stones)

    @classmethod
    def from_plain(cls, plain: tuple) -> Book:
        """The book ``to_plain`` described."""
        tolerance, header, entries, index, max_stones = plain
        book = cls(tolerance=tolerance)
        book.header = list(header)
        book.entries = [BookEntry(Rule(r), *rest) for r, *rest in entries]
        book._index = {
            (Rule(r), key): [_Stored(*s) for s in bucket] for (r, key), bucket in index.items()
        }
        book.max_stones = max_stones
        return book

    def dumps(self) -> str:
        """The book as file text: header comments, then entries sorted by rule, board size,
        number of stones and move text."""
        lines = [f"# {h}" if h else "#" for h in self.header]
        order = sorted(
            self.entries,
            key=lambda e: (e.rule, e.size, len(e.moves), e.moves, e.reply),
        )
        lines += [e.to_line() for e in order]
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(self.dumps(), encoding="utf-8")

    # -- queries ------------------------------------------------------------------------

    def candidates(
        self, moves: Sequence[Point], size: int, rule: str | int | Rule
    ) -> list[BookMove]:
        """Every stored reply for the position after `moves`, mapped to the real board, best
        score first (each move once, with its best score). Relative-keyed replies count only
        when the position and the mapped reply are far from the edges (`far_from_edge`);
        absolute-keyed replies of the same board size are added. For a symmetric position
        every symmetric image of a stored reply is listed. Raises RuleError /
        CoordinateError / IllegalMoveError on bad input."""
        rule = parse_rule(rule)
        check_size(size)
        pts = _check_moves(moves, size)
        if len(pts) > self.max_stones:
            return []
        occupied = set(pts)
        found: dict[Point, BookMove] = {}
        rank: dict[Point, tuple[int, Point]] = {}
        for n, c in enumerate(position_keys(pts, size)):
            for s in self._index.get((rule, c.key), ()):
                for p in c.from_frame_all(*s.point):
                    x, y = p
                    if not (0 <= x < size and 0 <= y < size) or p in occupied:
                        continue
                    if c.translated and not far_from_edge([p], size):
                        continue
                    old = found.get(p)
                    if old is None or s.score > old.score:
                        found[p] = BookMove(p, s.score, s.note)
                        rank[p] = (n, s.point)
        cands = sorted(found.values(), key=lambda b: (-b.score, rank[b.move], b.move))
        if cands and rule.has_forbidden_points and len(pts) % 2 == 0:
            cands = _allowed_for_black(cands, pts, size, rule)
        return cands

    def lookup(
        self,
        moves: Sequence[Point],
        size: int,
        rule: str | int | Rule,
        seed: int | None = None,
    ) -> BookMove | None:
        """The book reply to the position after `moves` (black first) on a size x size board
        (15..20) under `rule`, or None when the position is not in the book.

        Among the candidates (see `candidates`) whose score is within `tolerance` of the best,
        seed=None returns the first (best score; ties broken in the canonical frame, so the
        answer transforms with the position when it is not symmetric); an int seed picks one
        with random.Random(seed), deterministic for a given seed and position.
        """
        cands = self.candidates(moves, size, rule)
        if not cands:
            return None
        best = cands[0].score
        close = [c for c in cands if c.score >= best - self.tolerance]
        if seed is None:
            return close[0]
        return random.Random(seed).choice(close)


def _allowed_for_black(
    cands: list[BookMove], moves: Sequence[Point], size: int, rule: Rule
) -> list[BookMove]:
    """The candidates that are not forbidden for black (renju) after `moves`."""
    from gomoku.game.board import Board
    from gomoku.game.renju import forbidden

    board = Board(size, rule)
    for x, y in moves:
        board.play(x, y)
    return [c for c in cands if forbidden(board, board.index(*c.move)) is None]


BOOK_TABLE_VERSION = 1  # bump when Book.to_plain / from_plain change


def book_shipped_name() -> tuple[str, str]:
    """The shipped book table's name and inputs (the book file's digest): read at start-up,
    it spares parsing the file and finding every position's canonical form."""
    return "book", f"book-v{BOOK_TABLE_VERSION}:{shipped.digest(BOOK_FILE.read_bytes())}"


@functools.cache
def default_book() -> Book:
    """The packaged book, loaded once per process (empty if the data file is missing):
    from its shipped table (gomoku.core.shipped) when that was built from this file."""
    if BOOK_FILE.is_file():
        plain = shipped.load(*book_shipped_name())
        if plain is not None:
            return Book.from_plain(plain)
    return Book.load()


# ----------------------------------------------------------------------------------------
# Command line


def _cmd_check(args: argparse.Namespace) -> int:
    path = Path(args.file) if args.file else BOOK_FILE
    book = Book.load(path)
    print(f"{path}: {len(book)} lines, {book.positions} distinct positions")
    if book.dumps() != path.read_text(encoding="utf-8"):
        print(f"{path} is not in canonical form (sorted, one line per reply): rewrite it")
        return 1
    print(f"{path} is valid and canonical")
    return 0


def _cmd_query(args: argparse.Namespace) -> int:
    from gomoku.core.geometry import moves_from_text

    book = Book.load(args.file)
    size = check_size(args.size)
    moves = moves_from_text(args.moves, size) if args.moves.strip() not in ("", "-") else []
    for c in book.candidates(moves, size, args.rule):
        print(f"{to_text(*c.move, size)} {c.score:+d} {c.note}")
    pick = book.lookup(moves, size, args.rule, seed=args.seed)
    print("lookup:", "none" if pick is None else to_text(*pick.move, size))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m gomoku.engine.book``."""
    import argparse
    p = argparse.ArgumentParser(
        prog="python -m gomoku.engine.book",
        description=__doc__.split("\n")[0],
        epilog="To build the book or see its coverage: python -m gomoku_lab.book_build build|stats",
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser(
        "check", help="parse a book file (default: the shipped one); it must be canonical"
    )
    c.add_argument("file", nargs="?")
    c.set_defaults(func=_cmd_check)
    q = sub.add_parser("query", help="show the book replies to a move list like 'h8 h9'")
    q.add_argument("moves")
    q.add_argument("--size", type=int, default=15)
    q.add_argument("--rule", default="freestyle")
    q.add_argument("--seed", type=int)
    q.add_argument("--file")
    q.set_defaults(func=_cmd_query)
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except GomokuError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
