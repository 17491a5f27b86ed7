"""Opening book builder: searches the early positions with the engine and writes the book.

Layering: an adapter above the engine (like pbrain, match, bench): it imports
``gomoku.engine.facade`` to search, and ``gomoku.engine.book`` for the format it writes.
The dependency goes one way only: ``gomoku.engine.book`` (the lookup the engine uses at
play time) never imports this module, so the engine never imports a module that imports the engine.

Contents: the 26 standard openings and the other root positions, the ``Searcher`` protocol
and its engine implementation, the check that a reply does not lose (threat search),
``build_book`` and ``coverage`` (how much of the early positions a book answers).

Command line (run from the repository root):

    python -m gomoku_lab.book_build build [--seconds S] [--out FILE] [--plies N] ...
    python -m gomoku_lab.book_build stats       # coverage of the first moves, per rule and size

Checking a book file and querying it (no search): ``python -m gomoku.engine.book check|query``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import (
    SYMMETRY_COUNT,
    Point,
    from_text,
    moves_to_text,
    to_text,
    transform,
)
from gomoku.core.rules import Rule, check_size, parse_rule
from gomoku.core.symmetry import (
    Key,
    canonical,
    far_from_edge,
    split_moves,
    unique_moves,
)
from gomoku.engine.book import (
    BOOK_FILE,
    DEFAULT_TOLERANCE,
    Book,
    BookEntry,
    BookMove,
)
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.board import Board
from gomoku.search.score import Score
from gomoku.search.threats import ThreatSearch

# ----------------------------------------------------------------------------------------
# The 26 standard openings (renju literature): black 1 at the centre h8 of a 15x15 board,
# white 2 directly adjacent (direct, h9) or diagonally adjacent (indirect, i9), black 3 in the
# central 5x5 square. Given as squares of the 15x15 board, numbered 1..13 as in the RIF list.

DIRECT_WHITE = "h9"
INDIRECT_WHITE = "i9"
DIRECT_OPENINGS: tuple[tuple[str, str], ...] = (
    ("Kansei", "h10"),
    ("Keigetsu", "i10"),
    ("Sosei", "j10"),
    ("Kagetsu", "i9"),
    ("Zangetsu", "j9"),
    ("Ugetsu", "i8"),
    ("Kinsei", "j8"),
    ("Shogetsu", "h7"),
    ("Kyugetsu", "i7"),
    ("Shingetsu", "j7"),
    ("Zuisei", "h6"),
    ("Sangetsu", "i6"),
    ("Yusei", "j6"),
)
INDIRECT_OPENINGS: tuple[tuple[str, str], ...] = (
    ("Chosei", "j10"),
    ("Kyogetsu", "j9"),
    ("Kosei", "j8"),
    ("Suigetsu", "j7"),
    ("Ryusei", "j6"),
    ("Ungetsu", "i8"),
    ("Hogetsu", "i7"),
    ("Rangetsu", "i6"),
    ("Gingetsu", "h7"),
    ("Myojo", "h6"),
    ("Shagetsu", "g7"),
    ("Meigetsu", "g6"),
    ("Suisei", "f6"),
)


def _offset(square: str) -> Point:
    x, y = from_text(square, 15)
    return x - 7, y - 7


def standard_openings(size: int = 15) -> list[tuple[str, str, list[Point]]]:
    """The 26 openings as (name, "direct" | "indirect", [black 1, white 2, black 3]) on a
    size x size board, black 1 at the centre (size // 2, size // 2)."""
    c = size // 2
    out = []
    for family, white, table in (
        ("direct", DIRECT_WHITE, DIRECT_OPENINGS),
        ("indirect", INDIRECT_WHITE, INDIRECT_OPENINGS),
    ):
        wx, wy = _offset(white)
        for name, square in table:
            bx, by = _offset(square)
            out.append((name, family, [(c, c), (c + wx, c + wy), (c + bx, c + by)]))
    return out


def second_move_roots(size: int, radius: int = 3) -> list[list[Point]]:
    """Black at the centre and white within Chebyshev distance `radius`, one per class under
    the symmetries of the centre stone: white at offset (dx, dy) with 0 <= dy <= dx."""
    c = size // 2
    return [[(c, c), (c + dx, c - dy)] for dx in range(1, radius + 1) for dy in range(0, dx + 1)]


# ----------------------------------------------------------------------------------------
# Builder


@dataclass(frozen=True)
class SearchOutcome:
    """What the builder needs from one search: best move and its score for the side to move."""

    move: Point
    score: int
    score_text: str
    depth: int
    nodes: int
    time_ms: int
    source: str = "search"  # the engine's SearchResult.source: "search", "threat", "forced"

    @property
    def is_loss(self) -> bool:
        return self.score_text.startswith("loss")

    @property
    def is_win(self) -> bool:
        return self.score_text.startswith("win")


class Searcher(Protocol):
    """Runs one search from a position. The default wraps gomoku.engine.facade.Engine."""

    def search(
        self, moves: Sequence[Point], size: int, rule: Rule, time_ms: int
    ) -> SearchOutcome: ...


class EngineSearcher:
    """Searcher on the real engine: Engine.think(Limits(time_ms=..., use_book=False))."""

    def __init__(self) -> None:
        self._engine = Engine()

    def search(self, moves: Sequence[Point], size: int, rule: Rule, time_ms: int) -> SearchOutcome:
        eng = self._engine
        if eng.size != size or eng.rule != rule:
            eng.new_game(size=size, rule=rule)
        eng.set_position(list(moves))
        r = eng.think(Limits(time_ms=time_ms, use_book=False))
        return SearchOutcome(
            tuple(r.move), r.score, Score.of(r.score).text(), r.depth, r.nodes, r.time_ms, r.source
        )


def threat_refutes(moves: Sequence[Point], size: int, rule: Rule, seconds: float) -> bool:
    """True if the side to move after `moves` wins by force according to the threat search
    (gomoku.search.threats: VCF, then VCT, within `seconds` in all); False if none was found in that
    time. (Another `refutes` given to build_book may also return None, "no verdict": the
    builder then checks with an engine search.)"""
    board = Board(size, rule)
    for x, y in moves:
        board.play(x, y)
    if board.winner:
        return board.winner == board.side
    deadline = time.perf_counter() + seconds
    ts = ThreatSearch(board)
    if ts.vcf(14, deadline) is not None:
        return True
    return ts.vct(6, deadline) is not None


@dataclass
class BuildStats:
    searches: int = 0
    checks: int = 0
    rejected: list[str] = field(default_factory=list)
    positions: int = 0
    reused: int = 0
    passes: int = 0
    seconds: float = 0.0


def _variants(moves: list[Point], size: int) -> list[list[Point]]:
    """The position turned and mirrored about its first stone, then by each board symmetry,
    dropping moves off the board. On odd sizes with the first stone at the centre these are
    just the 8 board images; on even sizes they also give the placements around the other
    central cells, where a relative entry's reply may fall too near the edge."""
    if not moves:
        return [moves]
    x0, y0 = moves[0]
    out = []
    for j in range(SYMMETRY_COUNT):
        ox, oy = transform(j, x0, y0, size)
        shaped = [
            (tx - ox + x0, ty - oy + y0) for tx, ty in (transform(j, *p, size) for p in moves)
        ]
        if not all(0 <= v < size for p in shaped for v in p):
            continue
        for k in range(SYMMETRY_COUNT):
            out.append([transform(k, x, y, size) for x, y in shaped])
    return out


def _neighbours(moves: Sequence[Point], size: int, radius: int = 1) -> list[Point]:
    if not moves:
        return [(size // 2, size // 2)]
    occ = set(moves)
    out = []
    for y in range(size):
        for x in range(size):
            if (x, y) in occ:
                continue
            if any(max(abs(x - a), abs(y - b)) <= radius for a, b in moves):
                out.append((x, y))
    return out


def build_book(
    *,
    rules: Sequence[Rule],
    sizes: Sequence[int],
    seconds: float,
    plies: int,
    check_seconds: float,
    alt_plies: int = 2,
    tolerance: int = DEFAULT_TOLERANCE,
    searcher: Searcher | None = None,
    start_from: Book | None = None,
    refutes: Callable[[Sequence[Point], int, Rule, float], bool | None] = threat_refutes,
    log: Callable[[str], None] = lambda s: None,
) -> tuple[Book, BuildStats]:
    """Build a book by searching from the root positions of every (rule, size).

    Roots: the empty board, black's centre stone, black centre + white within distance 3 (one
    per symmetry class), and the 26 standard openings. Each position with fewer than `plies`
    stones is answered: reused from the book when an equivalent position is already answered,
    else by a search of `seconds`. Positions with fewer than `alt_plies` stones get every
    distinct neighbouring move scored by a search after it (the opponent's view, negated) and
    keep those within `tolerance` of the best. Each reply is then played and expanded, so the
    book follows the engine's own predicted lines.

    Every stored reply is checked: legal, its score not a loss, and after it the opponent has
    no forced win: `refutes` (default: VCF/VCT of gomoku.search.threats for `check_seconds`), or,
    when that returns None, an engine search of `check_seconds` whose score must not be a
    win for the opponent. Rejected replies are
    listed in the stats and not stored.

    start_from: an existing book whose entries are kept (and reused, so only positions it
    does not answer are searched). The passes repeat until no new position turns up.
    """
    searcher = searcher or EngineSearcher()
    book = Book(start_from.entries if start_from else (), tolerance=tolerance)
    stats = BuildStats()
    start = time.monotonic()
    time_ms = int(seconds * 1000)
    check_ms = int(check_seconds * 1000)

    def loses(after: list[Point], size: int, rule: Rule) -> tuple[bool, str]:
        verdict = refutes(after, size, rule, check_seconds)
        if verdict is not None:
            return verdict, f"threats checked {check_seconds:g}s"
        stats.checks += 1
        r = searcher.search(after, size, rule, check_ms)
        return r.is_win, f"checked {check_seconds:g}s d{r.depth}"

    def _answer_or_reuse(pos: list[Point], size: int, rule: Rule, tag: str | None):
        """The book's replies to pos, searching (and storing checked replies) if none."""
        stats.positions += 1
        replies = book.candidates(pos, size, rule)
        if replies:
            stats.reused += 1
            return replies
        found = _answer(pos, size, rule, time_ms, alt_plies, tolerance, searcher, stats)
        where = f"{rule.label} {size} {moves_to_text(pos, size) or '-'}"
        for r, lost in found:
            if r.move in pos or not (0 <= min(r.move) and max(r.move) < size):
                bad, how = True, "illegal"
            else:
                bad, how = loses([*pos, r.move], size, rule)
            if bad or lost:
                stats.rejected.append(f"{where} : {to_text(*r.move, size)}")
                log(f"  rejected {stats.rejected[-1]}")
                continue
            note = f"{r.note}; {how}" + (f"; opening {tag}" if tag else "")
            book.add(BookEntry(rule, size, tuple(pos), r.move, r.score, note))
            log(f"  {where} : {to_text(*r.move, size)} {r.score:+d} {note}")
        return book.candidates(pos, size, rule)

    done: dict[tuple[Rule, int], set[Key]] = {}  # absolute keys of the positions handled
    visited: dict[tuple[Rule, int], list[list[Point]]] = {}
    first_pass = True
    while True:
        # Later passes follow replies that entries added since (for another placement or
        # board size, sharing a relative key) gave to positions handled before.
        new = 0
        for rule in rules:
            for size in sizes:
                names = {tuple(m): n for n, _, m in standard_openings(size)}
                seen = done.setdefault((rule, size), set())
                handled = visited.setdefault((rule, size), [])
                queue: deque[list[Point]] = deque()
                if first_pass:
                    queue += [[], [(size // 2, size // 2)]]
                    queue += second_move_roots(size)
                    queue += [m for _, _, m in standard_openings(size)]
                for pos in handled:
                    if len(pos) + 1 < plies:
                        queue += [[*pos, r.move] for r in book.candidates(pos, size, rule)]
                while queue:
                    first = queue.popleft()
                    if len(first) >= plies:
                        continue
                    for pos in _variants(first, size):
                        key = canonical(*split_moves(pos), size, translate=False).key
                        if key in seen:
                            continue
                        seen.add(key)
                        handled.append(pos)
                        new += 1
                        replies = _answer_or_reuse(pos, size, rule, names.get(tuple(pos)))
                        if len(pos) + 1 < plies:
                            queue += [[*pos, r.move] for r in replies]
        first_pass = False
        stats.passes += 1
        if not new:
            break
    stats.seconds = time.monotonic() - start
    return book, stats


def _answer(
    pos: list[Point],
    size: int,
    rule: Rule,
    time_ms: int,
    alt_plies: int,
    tolerance: int,
    searcher: Searcher,
    stats: BuildStats,
) -> list[tuple[BookMove, bool]]:
    """Search one position; returns the replies to store with a flag "its score is a loss"
    (such replies are rejected by the caller). Notes tell how each score was found."""
    secs = f"{time_ms / 1000:g}s"
    black, white = split_moves(pos)
    alts = unique_moves(_neighbours(pos, size), black, white, size) if len(pos) < alt_plies else []
    if len(alts) > 1:
        scored = []
        for m in alts:
            stats.searches += 1
            r = searcher.search([*pos, m], size, rule, time_ms)
            # the opponent's score after m, negated, is m's score for the side to move
            note = f"reply-search {secs} d{r.depth} n{r.nodes}"
            scored.append((BookMove(m, -r.score, note), r.is_win))
        best = max(b.score for b, _ in scored)
        return [(b, lost) for b, lost in scored if b.score >= best - tolerance]
    stats.searches += 1
    r = searcher.search(pos, size, rule, time_ms)
    how = "search" if r.source == "search" else f"search ({r.source})"
    return [(BookMove(r.move, r.score, f"{how} {secs} d{r.depth} n{r.nodes}"), r.is_loss)]


def coverage(book: Book, size: int, rule: str | int | Rule) -> dict[str, tuple[int, int]]:
    """How many of the early positions of games that start at the centre the book answers,
    as (answered, total) per family of positions, on one board size under one rule:

    move1: the empty board; move2: one black stone on any cell far from the edges;
    move3: black at the centre, white on any cell within distance 3;
    move4: black centre, white on any of the 8 neighbours, black 3 anywhere in the 5x5
    (the 26 openings in every orientation); move4_7x7: the same with black 3 in the 7x7;
    move5: the 4-stone positions reached by following the book's own replies from the
    move-4 positions (white 4 from the book) - all of them, not just one per seed.
    """
    c = size // 2
    out: dict[str, tuple[int, int]] = {}

    def count(name: str, positions: list[list[Point]]) -> None:
        hit = sum(book.lookup(m, size, rule) is not None for m in positions)
        out[name] = (hit, len(positions))

    count("move1", [[]])
    count(
        "move2",
        [[(x, y)] for x in range(size) for y in range(size) if far_from_edge([(x, y)], size)],
    )
    count(
        "move3",
        [
            [(c, c), (c + dx, c + dy)]
            for dx in range(-3, 4)
            for dy in range(-3, 4)
            if (dx, dy) != (0, 0)
        ],
    )
    for name, r in (("move4", 2), ("move4_7x7", 3)):
        pos = []
        for wx in range(c - 1, c + 2):
            for wy in range(c - 1, c + 2):
                for bx in range(c - r, c + r + 1):
                    for by in range(c - r, c + r + 1):
                        if (wx, wy) != (c, c) and (bx, by) not in ((c, c), (wx, wy)):
                            pos.append([(c, c), (wx, wy), (bx, by)])
        count(name, pos)
        if name == "move4":
            fours = []
            for m in pos:
                for b in book.candidates(m, size, rule):
                    fours.append([*m, b.move])
            count("move5", fours)
    return out


# ----------------------------------------------------------------------------------------
# Command line


def _cmd_build(args: argparse.Namespace) -> int:
    rules = [parse_rule(r) for r in args.rules.split(",")]
    sizes = [check_size(int(s)) for s in args.sizes.split(",")]
    out = Path(args.out) if args.out else BOOK_FILE
    previous = Book.load(out) if args.extend else None
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    book, stats = build_book(
        rules=rules,
        sizes=sizes,
        seconds=args.seconds,
        plies=args.plies,
        check_seconds=args.check_seconds,
        alt_plies=args.alt_plies,
        start_from=previous,
        log=lambda s: print(s, flush=True),
    )
    from gomoku import __version__

    rel = sum(far_from_edge((*e.moves, e.reply), e.size) for e in book.entries)
    command = (
        f"python -m gomoku_lab.book_build build --seconds {args.seconds:g} --plies {args.plies}"
        f" --check-seconds {args.check_seconds:g} --alt-plies {args.alt_plies}"
        f" --rules {args.rules} --sizes {args.sizes}" + (" --extend" if args.extend else "")
    )
    run = (
        f"built {started} with gomoku {__version__}: {stats.seconds:.0f} s of machine time,"
        f" {stats.searches} searches + {stats.checks} check searches,"
        f" {stats.positions} positions in {stats.passes} passes"
        f" ({stats.reused} answered by the book so far), {len(book) - len(previous or ())}"
        f" new lines, {len(stats.rejected)} replies rejected"
    )
    if previous is not None and previous.header:
        book.header = [*previous.header, "then extended:", f"  {command}", run]
    else:
        book.header = [
            "Gomoku opening book. Format: openings/README.md. Generated, do not edit by hand:",
            f"  {command}",
            run,
        ]
    book.header = [h for h in book.header if not h.startswith("total: ")]
    book.header.append(
        f"total: {len(book)} lines, {book.positions} positions, {rel} lines relative-keyed"
    )
    book.save(out)
    print(f"wrote {out}: {len(book)} lines in {stats.seconds:.0f} s")
    for r in stats.rejected:
        print(f"rejected: {r}")
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    book = Book.load(args.file)
    sizes = [check_size(int(v)) for v in args.sizes.split(",")]
    print(f"{len(book)} lines, {book.positions} distinct positions")
    for rule in args.rules.split(","):
        for size in sizes:
            cov = coverage(book, size, rule)
            cells = ", ".join(f"{k} {a}/{b}" for k, (a, b) in cov.items())
            print(f"{rule} {size}: {cells}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m gomoku_lab.book_build``."""
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.book_build",
        description=__doc__.split("\n")[0],
        epilog="To check a book file or query it: python -m gomoku.engine.book check|query",
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="search the root positions and write the book")
    b.add_argument("--seconds", type=float, default=1.5, help="search time per position")
    b.add_argument("--out", help=f"output file (default {BOOK_FILE})")
    b.add_argument(
        "--plies",
        type=int,
        default=5,
        help="answer positions with fewer stones than this (5: moves 1..5)",
    )
    b.add_argument(
        "--check-seconds",
        type=float,
        default=0.5,
        help="search time of the check that a reply does not lose",
    )
    b.add_argument(
        "--alt-plies",
        type=int,
        default=2,
        help="positions with fewer stones get alternatives scored one by one",
    )
    b.add_argument("--rules", default="freestyle,standard")
    b.add_argument("--sizes", default="15,16,17,18,19,20")
    b.add_argument(
        "--extend",
        action="store_true",
        help="keep the entries of the existing output file and search only what it misses",
    )
    b.set_defaults(func=_cmd_build)
    st = sub.add_parser("stats", help="coverage of the early positions (see coverage())")
    st.add_argument("--file")
    st.add_argument("--rules", default="freestyle,standard")
    st.add_argument("--sizes", default="15,16,17,18,19,20")
    st.set_defaults(func=_cmd_stats)
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except GomokuError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
