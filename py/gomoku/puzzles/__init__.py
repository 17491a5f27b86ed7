"""Puzzles: positions from games played here, with every accepted first move proven.

The shipped collection is ``data/puzzles.txt`` (written by ``python -m gomoku_lab.puzzles
ship``), one puzzle a line::

    id rule size theme depth vct_depth level moves solutions line

``moves`` (the game as played, black first), ``solutions`` and ``line`` are cells written
as two letters each (x then y, ``a`` = 0, Gomocup coordinates). ``theme`` is ``vcf``
(win by fours), ``vct`` (win by fours and open threes) or ``defend`` (find the only
defence, or one of two). ``depth`` is the attacker-move limit the puzzle was proven with:
the fours of a VCF (the five not counted), the threats of a VCT, the opponent's VCF for a
defence, whose ``vct_depth`` is the limit of the opponent's VCT. ``level`` is the key of
the weakest level (engine/levels.py) that solved the puzzle at least half the time over
several seeds, playing it move by move: the puzzle's rating is that level's rating, read
from the level table (``rating``), so the two scales stay one. ``line`` is the winning
line of the first solution (vcf, vct: attacker first, defender's replies between) or the
opponent's threat the defence must stop (defend: the opponent's moves as if it moved now).

``check`` proves a puzzle again (prove.py): the solutions are exactly the cells that win
(or defend); the build runs it over the whole file and fails naming the puzzle.
"""

from __future__ import annotations

import json
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
HEADER = "# gomoku puzzles v1: id rule size theme depth vct_depth level moves solutions line"
UNSOLVED = "-"  # level field of a puzzle no node level solved (rated above them all)


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
    level: str  # the solving level's key, or UNSOLVED
    moves: tuple[Point, ...]
    solutions: tuple[Point, ...]
    line: tuple[Point, ...]

    @property
    def side(self) -> int:
        """The solving side: 1 black, 2 white (the side to move)."""
        return 1 if len(self.moves) % 2 == 0 else 2

    @property
    def rating(self) -> int | None:
        return level_rating(self.level)

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
            "level": self.level,
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
                self.level,
                encode_cells(self.moves),
                encode_cells(self.solutions),
                encode_cells(self.line) or ".",
            ]
        )


def position_key(moves, size: int, rule: Rule) -> tuple:
    black, white = split_moves(list(moves))
    translate = far_from_edge(list(moves), size)
    return (rule.label, canonical(black, white, size, translate).key)


def level_rating(key: str) -> int | None:
    """The rating of the level with this key; a puzzle no node level solved is rated at
    the first timed level (the next rung above every node level)."""
    levels: list[Level] = list(LEVELS)
    if key == UNSOLVED:
        timed = [lv for lv in levels if lv.timed and lv.rating is not None]
        return timed[0].rating if timed else None
    for lv in levels:
        if lv.key == key:
            return lv.rating
    raise PuzzleError(f"unknown level {key!r}")


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
            level=fields[6],
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


def dump(puzzles: list[Puzzle]) -> str:
    return "\n".join([HEADER, *(p.to_text() for p in puzzles)]) + "\n"


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
    renju no solution is a forbidden point for black, the level is known, and no two
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
            level_rating(p.level)
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


def export_js(puzzles: list[Puzzle]) -> str:
    """web/model/puzzles-data.js: the page's copy of the collection (compact, as in the data
    file), with each puzzle's rating read from the level table."""
    rows = [
        [p.id, p.rule.label, p.size, p.theme, p.depth, p.rating,
         encode_cells(p.moves), encode_cells(p.solutions), encode_cells(p.line)]
        for p in puzzles
    ]
    body = json.dumps(rows, separators=(",", ":")).replace("],[", "],\n[")
    return (
        "// Generated by `python -m gomoku.puzzles --js` from py/gomoku/data/puzzles.txt:\n"
        "// do not edit. Rows: [id, rule, size, theme, depth, rating, moves, solutions,\n"
        "// line]; cells are two letters (x, y; a = 0).\n"
        f"export const PUZZLES = {body};\n"
    )


__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleError",
    "check",
    "check_shape",
    "export_js",
    "dump",
    "export_json",
    "load",
    "parse_line",
    "parse_text",
    "position_key",
]
