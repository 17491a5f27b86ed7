"""Puzzles: positions from games played here, with every accepted first move proven.

The shipped collection is ``data/puzzles.txt`` (written by ``python -m gomoku_lab.puzzles
ship``, its ratings by ``python -m gomoku_lab.puzzle_rating``), one puzzle a line::

    id rule size theme depth vct_depth solves moves solutions line

``moves`` (the game as played, black first), ``solutions`` and ``line`` are cells written
as two letters each (x then y, ``a`` = 0, Gomocup coordinates). ``theme`` is ``vcf``
(win by fours), ``vct`` (win by fours and open threes) or ``defend`` (find the only
defence, or one of two). ``depth`` is the attacker-move limit the puzzle was proven with:
the fours of a VCF (the five not counted), the threats of a VCT, the opponent's VCF for a
defence, whose ``vct_depth`` is the limit of the opponent's VCT. ``solves`` is the
measurement the rating comes from: one character per node level of the ladder
(engine/levels.py, weakest first), how many of its ``TRIES`` (seeds 1, 2, ...) solved the
puzzle playing against the puzzle's judge, "." where not measured (a weaker level solved
every try), or "-" for a puzzle not measured yet. The puzzle's ``rating`` is fitted to
those counts and the levels' own ratings (``fit_rating``), so the two scales stay one.
``line`` is the winning line of the first solution (vcf, vct: attacker first,
defender's replies between) or the opponent's threat the defence must stop (defend: the
opponent's moves as if it moved now).

``check`` proves a puzzle again (prove.py): the solutions are exactly the cells that win
(or defend); the build runs it over the whole file and fails naming the puzzle.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import Point
from gomoku.core.rules import Rule, parse_rule
from gomoku.core.symmetry import canonical, far_from_edge, split_moves
from gomoku.engine.levels import LEVELS, Level
from gomoku.game.board import Board

THEMES = ("vcf", "vct", "defend")
LETTERS = "abcdefghijklmnopqrst"
DATA_FILE = "puzzles.txt"
HEADER = "# gomoku puzzles v2: id rule size theme depth vct_depth solves moves solutions line"
UNMEASURED = "-"  # the solves field of a puzzle not measured yet
SKIPPED = "."  # a level above the first that solved every try: not measured


def _tries(lv: Level) -> int:
    """Seeds a level tries a puzzle with: many for the bottom rungs (cheap, and their
    habits vary most), one for a level without randomness, four otherwise."""
    if lv.habits is not None:
        return 8
    return 1 if lv.noise == 0 and lv.candidates == 1 else 4


NODE_LEVELS: tuple[int, ...] = tuple(lv.number for lv in LEVELS if not lv.timed)
TRIES: tuple[int, ...] = tuple(_tries(lv) for lv in LEVELS if not lv.timed)
# The fit's prior: a puzzle's rating before any measurement, and its spread (the ladder's
# middle; it keeps a puzzle every level solves, or none, at a finite rating)
PRIOR_MEAN = 900.0
PRIOR_SD = 450.0


class PuzzleError(GomokuError):
    """A puzzle that cannot be read or fails its proof; the message names it."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    rule: Rule
    size: int
    theme: str
    depth: int
    vct_depth: int
    solves: tuple[int | None, ...] | None  # per node level (None: not measured); None: none yet
    moves: tuple[Point, ...]
    solutions: tuple[Point, ...]
    line: tuple[Point, ...]

    @property
    def side(self) -> int:
        """The solving side: 1 black, 2 white (the side to move)."""
        return 1 if len(self.moves) % 2 == 0 else 2

    @property
    def rating(self) -> int | None:
        """The fitted rating (None: not measured yet)."""
        fit = self.rating_fit
        return None if fit is None else fit[0]

    @property
    def rating_fit(self) -> tuple[int, int] | None:
        """(rating, its deviation) fitted to the solves (None: not measured yet)."""
        return None if self.solves is None else fit_rating(self.solves)

    def with_solves(self, solves: tuple[int | None, ...]) -> Puzzle:
        """The same puzzle with these measured solves."""
        from dataclasses import replace

        check_solves(solves)
        return replace(self, solves=tuple(solves))

    def board(self) -> Board:
        return Board.from_moves(list(self.moves), self.size, self.rule)

    def key(self) -> tuple:
        """The position's key under the 8 symmetries and, away from the edges,
        translation: two puzzles with one key are the same puzzle."""
        return position_key(self.moves, self.size, self.rule)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "size": self.size,
            "rule": self.rule.label,
            "moves": [list(p) for p in self.moves],
            "theme": self.theme,
            "depth": self.depth,
            "vct_depth": self.vct_depth,
            "solutions": [list(p) for p in self.solutions],
            "line": [list(p) for p in self.line],
            "rating": self.rating,
            "rating_deviation": None if self.rating_fit is None else self.rating_fit[1],
            "solves": None if self.solves is None else list(self.solves),
            "moves_to_win": self.moves_to_win,
        }

    @property
    def moves_to_win(self) -> int | None:
        """The solver's moves to the five along the line (vcf, vct; one more when the line
        ends before the five: under renju a four whose block black may not play); None
        for a defence."""
        if self.theme == "defend" or not self.line:
            return None
        board = self.board()
        for x, y in self.line:
            board.play(x, y)
        return (len(self.line) + 1) // 2 + (0 if board.winner else 1)

    def to_text(self) -> str:
        return " ".join(
            [
                self.id,
                self.rule.label,
                str(self.size),
                self.theme,
                str(self.depth),
                str(self.vct_depth),
                encode_solves(self.solves),
                encode_cells(self.moves),
                encode_cells(self.solutions),
                encode_cells(self.line) or ".",
            ]
        )


def position_key(moves, size: int, rule: Rule) -> tuple:
    black, white = split_moves(list(moves))
    translate = far_from_edge(list(moves), size)
    return (rule.label, canonical(black, white, size, translate).key)


def check_solves(solves) -> None:
    """ValueError unless ``solves`` has one count per node level, each within its tries
    (or None), and no measured level above one that solved every try."""
    if len(solves) != len(TRIES):
        raise ValueError(f"{len(solves)} solve counts, expected {len(TRIES)} (one per node level)")
    full = False
    for n, tries in zip(solves, TRIES, strict=True):
        if n is None:
            if not full:
                raise ValueError("a level not measured below one that did not solve every try")
            continue
        if full:
            raise ValueError("a level measured above one that solved every try")
        if not 0 <= n <= tries:
            raise ValueError(f"{n} solves out of {tries} tries")
        full = n == tries


def encode_solves(solves) -> str:
    if solves is None:
        return UNMEASURED
    return "".join(SKIPPED if n is None else str(n) for n in solves)


def decode_solves(text: str) -> tuple[int | None, ...] | None:
    if text == UNMEASURED:
        return None
    if any(c != SKIPPED and not c.isdigit() for c in text):
        raise ValueError(f"solves {text!r}: digits and {SKIPPED!r} only")
    solves = tuple(None if c == SKIPPED else int(c) for c in text)
    check_solves(solves)
    return solves


def level_ratings() -> tuple[int, ...]:
    """The node levels' ratings, in NODE_LEVELS order (the scale puzzles are rated on)."""
    by_number = {lv.number: lv.rating for lv in LEVELS}
    out = tuple(by_number[n] for n in NODE_LEVELS)
    if any(r is None for r in out):
        raise PuzzleError("a node level has no rating: the puzzles cannot be rated")
    return out  # type: ignore[return-value]


def fit_rating(solves, ratings: tuple[int, ...] | None = None) -> tuple[int, int]:
    """(rating, deviation) of a puzzle from its solves: the rating R that makes the
    measured counts most likely when a level rated r solves with probability
    1 / (1 + 10 ** ((R - r) / 400)) (Elo's curve: a level rated like the puzzle solves
    it half the time), with a Gaussian prior (PRIOR_MEAN, PRIOR_SD) on R; the deviation
    is one standard error of that estimate. Levels not measured count for nothing."""
    ratings = level_ratings() if ratings is None else ratings
    games = [(r, n, t) for r, n, t in zip(ratings, solves, TRIES, strict=True) if n is not None]
    k = math.log(10) / 400
    x = PRIOR_MEAN
    info = 1 / PRIOR_SD**2
    for _ in range(60):  # Newton's method on the log posterior (concave: it converges)
        grad = -(x - PRIOR_MEAN) / PRIOR_SD**2
        info = 1 / PRIOR_SD**2
        for r, n, t in games:
            p = 1 / (1 + 10 ** ((x - r) / 400))  # this level solves
            grad += k * ((t - n) * p - n * (1 - p))
            info += k * k * t * p * (1 - p)
        step = grad / info
        x += max(-400.0, min(400.0, step))
        if abs(step) < 1e-6:
            break
    return round(x), round(1 / math.sqrt(info))


def encode_cells(cells) -> str:
    return "".join(LETTERS[x] + LETTERS[y] for x, y in cells)


def decode_cells(text: str, size: int) -> tuple[Point, ...]:
    if text == ".":
        return ()
    if len(text) % 2:
        raise ValueError(f"odd length cell list {text!r}")
    out = []
    for i in range(0, len(text), 2):
        x, y = LETTERS.find(text[i]), LETTERS.find(text[i + 1])
        if not (0 <= x < size and 0 <= y < size):
            raise ValueError(f"cell {text[i:i + 2]!r} off a {size}x{size} board")
        out.append((x, y))
    return tuple(out)


def parse_line(text: str) -> Puzzle:
    """One puzzle from its line of the data file; PuzzleError naming it when malformed."""
    fields = text.split()
    pid = fields[0] if fields else "?"
    try:
        if len(fields) != 10:
            raise ValueError(f"{len(fields)} fields, expected 10")
        size = int(fields[2])
        theme = fields[3]
        if theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}")
        return Puzzle(
            id=pid,
            rule=parse_rule(fields[1]),
            size=size,
            theme=theme,
            depth=int(fields[4]),
            vct_depth=int(fields[5]),
            solves=decode_solves(fields[6]),
            moves=decode_cells(fields[7], size),
            solutions=decode_cells(fields[8], size),
            line=decode_cells(fields[9], size),
        )
    except (ValueError, GomokuError) as exc:
        raise PuzzleError(f"puzzle {pid}: {exc}") from None


def parse_text(text: str) -> list[Puzzle]:
    return [parse_line(s) for s in text.splitlines() if s.strip() and not s.startswith("#")]


def load() -> list[Puzzle]:
    """The shipped puzzles."""
    text = resources.files("gomoku.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_text(text)


def rating_header(command: str, took: str) -> list[str]:
    """The data file's comment lines saying how the solves were measured."""
    levels = " ".join(f"{n}:{t}" for n, t in zip(NODE_LEVELS, TRIES, strict=True))
    return [
        f"# solves: per node level, the tries (level:tries {levels}) that solved the puzzle",
        "#   against its judge; rating fitted from them and the levels' ratings at load",
        f"# measured by: {command}   ({took})",
    ]


def dump(puzzles: list[Puzzle], header: list[str] | None = None) -> str:
    """The data file: HEADER, the comment lines ``header``, one line per puzzle."""
    return "\n".join([HEADER, *(header or []), *(p.to_text() for p in puzzles)]) + "\n"


def stored_header() -> list[str]:
    """The shipped file's comment lines after HEADER (kept when the file is rewritten)."""
    text = resources.files("gomoku.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    lines = text.splitlines()
    return [s for s in lines[1:] if s.startswith("#")]


def export_json(puzzles: list[Puzzle]) -> str:
    """Every puzzle as a JSON list (the format of ``python -m gomoku.puzzles --json``)."""
    return json.dumps([p.to_json() for p in puzzles], separators=(",", ":"))


def check(puzzle: Puzzle) -> None:
    """Prove the puzzle again; PuzzleError naming it when anything fails."""
    from gomoku.puzzles.prove import cells_that_solve

    def fail(why: str) -> PuzzleError:
        return PuzzleError(f"puzzle {puzzle.id}: {why}")

    try:
        board = puzzle.board()
    except GomokuError as exc:
        raise fail(f"the moves do not replay: {exc}") from None
    if board.winner:
        raise fail("the game is already over")
    if puzzle.rule is Rule.RENJU and puzzle.theme != "vcf":
        raise fail("renju puzzles are vcf puzzles")
    if not puzzle.solutions:
        raise fail("no solution")
    found = cells_that_solve(board, puzzle.theme, puzzle.depth, puzzle.vct_depth)
    if found != set(puzzle.solutions):
        raise fail(
            f"solutions {sorted(puzzle.solutions)} but the proof accepts {sorted(found)}"
        )


def check_shape(puzzles: list[Puzzle]) -> None:
    """The checks the build runs on every puzzle (fast; the proofs are ``check``): the
    moves replay, the game is not over, every solution and line cell is empty, under
    renju no solution is a forbidden point for black, and no two
    puzzles share an id or a position (under symmetries and translation)."""
    from gomoku.game.renju import forbidden

    ids: set[str] = set()
    keys: dict[tuple, str] = {}
    for p in puzzles:
        def fail(why: str, p: Puzzle = p) -> PuzzleError:
            return PuzzleError(f"puzzle {p.id}: {why}")

        if p.id in ids:
            raise fail("a second puzzle with this id")
        ids.add(p.id)
        key = p.key()
        if key in keys:
            raise fail(f"the same position as puzzle {keys[key]}")
        keys[key] = p.id
        try:
            board = p.board()
        except GomokuError as exc:
            raise fail(str(exc)) from None
        if board.winner:
            raise fail("the game is already over")
        if not p.solutions or len(set(p.solutions)) != len(p.solutions):
            raise fail("no solution, or one listed twice")
        if p.rule is Rule.RENJU and p.theme != "vcf":
            raise fail("renju puzzles are vcf puzzles")
        for x, y in p.solutions:
            q = board.index(x, y)
            if board.cells[q]:
                raise fail(f"solution ({x}, {y}) is occupied")
            if p.side == 1 and forbidden(board, q):
                raise fail(f"solution ({x}, {y}) is forbidden for black")
        if p.line and p.theme != "defend" and p.line[0] not in p.solutions:
            raise fail("the line does not start with a solution")


__all__ = [
    "NODE_LEVELS",
    "THEMES",
    "TRIES",
    "fit_rating",
    "rating_header",
    "stored_header",
    "Puzzle",
    "PuzzleError",
    "check",
    "check_shape",
    "dump",
    "export_json",
    "load",
    "parse_line",
    "parse_text",
    "position_key",
]
