"""Game records the review reads: Piskvork ``.psq`` files, move lists and share links.

The same formats as the page (web/model/records.js), read in Python:

- ``.psq`` (Piskvork, the Gomocup manager's format): a header ``Piskvorky 15x15, 11:11, 0``,
  then one line ``x,y,time`` per move, x the column from the left and y the row from the
  top, both 1-based; the moves end at the first line of another form (Piskvork writes
  the players' names and a result code after them). A line ``rule=<name>`` after the
  moves (the page writes one for standard and renju) names the rule. Gomocup's
  tournament files come in the same layout.
- a move list: ``h8 i9 j10`` (also with commas, semicolons, newlines or move numbers
  ``1. h8 i9 2. j10``);
- a share link, or its fragment: ``...#moves=h8,i9&rule=renju&size=15[&first=white]``.

Every reader raises RecordError naming the line (or move) and the problem; a record it
returns has been replayed: on the board, no point taken twice, no move after a five, and
under renju no black move on a forbidden point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import Point, from_text, to_text
from gomoku.core.rules import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Rule, parse_rule
from gomoku.game.board import Board
from gomoku.game.renju import first_forbidden_move

MAX_TEXT = 200_000  # characters: far more than any game record
_PSQ_HEAD = re.compile(r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\b", re.IGNORECASE)
_PSQ_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?$")
_PSQ_RULE = re.compile(r"^\s*rule\s*=\s*(\S+)\s*$", re.IGNORECASE)


class RecordError(GomokuError):
    """A record that cannot be read: the message names the line or move and the problem."""


@dataclass(frozen=True)
class GameRecord:
    """A game: moves (x, y) 0-based from the top left, in playing order; ``first`` is the
    colour of the first move, "black" or "white" (white first is allowed outside renju)."""

    moves: tuple[Point, ...]
    size: int = DEFAULT_SIZE
    rule: Rule = Rule.FREESTYLE
    first: str = "black"

    def colour_of(self, index: int) -> str:
        """The colour of move ``index`` (0-based)."""
        other = "white" if self.first == "black" else "black"
        return self.first if index % 2 == 0 else other

    def text(self) -> str:
        return " ".join(to_text(x, y, self.size) for x, y in self.moves)


def checked(moves: list[Point], size: int, rule: Rule, first: str = "black") -> GameRecord:
    """The record, replayed: RecordError naming the first bad move."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RecordError(f"the board size must be {MIN_SIZE}..{MAX_SIZE}, not {size}")
    if first not in ("black", "white"):
        raise RecordError(f"first must be black or white, not {first!r}")
    if rule is Rule.RENJU and first != "black":
        raise RecordError("under renju black moves first")
    board = Board(size, rule)
    for i, (x, y) in enumerate(moves):
        if board.winner:
            raise RecordError(f"move {i + 1} ({_name(x, y, size)}) comes after the game was won")
        if not (0 <= x < size and 0 <= y < size):
            raise RecordError(f"move {i + 1} is off the {size}x{size} board")
        if board.cells[board.index(x, y)]:
            raise RecordError(f"move {i + 1} ({_name(x, y, size)}) is on a taken point")
        board.play(x, y)
    if rule is Rule.RENJU:
        found = first_forbidden_move(list(moves), size)
        if found:
            index, shape = found
            x, y = moves[index]
            raise RecordError(
                f"move {index + 1} ({_name(x, y, size)}) is forbidden for black: {shape}"
            )
    return GameRecord(tuple(moves), size, rule, first)


def _name(x: int, y: int, size: int) -> str:
    try:
        return to_text(x, y, size)
    except GomokuError:
        return f"{x},{y}"


def read_psq(text: str, rule: Rule | str | None = None, first: str = "black") -> GameRecord:
    """A .psq file's game. The rule is the file's ``rule=`` line, else ``rule``, else
    freestyle."""
    _check_text(text)
    lines = text.lstrip("\ufeff").splitlines()
    head = _PSQ_HEAD.match(lines[0]) if lines else None
    if head is None:
        raise RecordError(
            'line 1: not a Piskvork file (the first line should look like "Piskvorky 15x15, '
            '11:11, 0")'
        )
    w, h = int(head.group(1)), int(head.group(2))
    if w != h or not MIN_SIZE <= w <= MAX_SIZE:
        raise RecordError(
            f"line 1: a {w}x{h} board; boards from {MIN_SIZE}x{MIN_SIZE} to "
            f"{MAX_SIZE}x{MAX_SIZE} are supported"
        )
    size = w
    moves: list[Point] = []
    end = len(lines)
    for n, line in enumerate(lines[1:], 2):
        m = _PSQ_MOVE.match(line)
        if m is None:
            end = n - 1
            break
        x, y = int(m.group(1)), int(m.group(2))
        if not (1 <= x <= size and 1 <= y <= size):
            raise RecordError(
                f"line {n}: move {len(moves) + 1} ({x},{y}) is off the board (1..{size})"
            )
        moves.append((x - 1, y - 1))
    named = None
    for n, line in enumerate(lines[end:], end + 1):
        m = _PSQ_RULE.match(line)
        if m:
            try:
                named = parse_rule(m.group(1).lower())
            except GomokuError:
                raise RecordError(f"line {n}: unknown rule {m.group(1)[:20]!r}") from None
            break
    chosen = named or (parse_rule(rule) if rule is not None else Rule.FREESTYLE)
    return _replayed(moves, size, chosen, "black" if chosen is Rule.RENJU else first, lines=True)


def _replayed(
    moves: list[Point], size: int, rule: Rule, first: str, lines: bool = False
) -> GameRecord:
    try:
        return checked(moves, size, rule, first)
    except RecordError as exc:
        if not lines:
            raise
        m = re.match(r"move (\d+)", str(exc))
        if m:  # a .psq's move n is on line n + 1
            raise RecordError(f"line {int(m.group(1)) + 1}: {exc}") from None
        raise


def read_move_list(
    text: str, size: int = DEFAULT_SIZE, rule: Rule | str = Rule.FREESTYLE, first: str = "black"
) -> GameRecord:
    """A move list like ``1. h8 i9 2. j10`` on a size x size board."""
    _check_text(text)
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t and not re.fullmatch(r"\d+\.", t)]
    if not tokens:
        raise RecordError("no moves in the move list")
    moves = []
    for i, tok in enumerate(tokens):
        word = re.sub(r"^\d+\.", "", tok)
        try:
            moves.append(from_text(word, size))
        except GomokuError:
            raise RecordError(
                f"move {i + 1} {tok[:12]!r} is not a point like h8 on the {size}x{size} board"
            ) from None
    return _replayed(moves, size, parse_rule(rule), first)


def read_link(text: str) -> GameRecord:
    """A share link (or its fragment ``moves=...&rule=...&size=...``)."""
    _check_text(text)
    fragment = text.strip().split("#", 1)[-1]
    params = parse_qs(fragment, keep_blank_values=True)
    if "moves" not in params:
        raise RecordError("not a game link: it has no moves=")
    rule_text = params.get("rule", ["freestyle"])[0]
    try:
        rule = parse_rule(rule_text)
    except GomokuError:
        raise RecordError(f"the link's rule {rule_text[:20]!r} is unknown") from None
    size_text = params.get("size", [str(DEFAULT_SIZE)])[0]
    if not re.fullmatch(r"\d{1,3}", size_text) or not MIN_SIZE <= int(size_text) <= MAX_SIZE:
        raise RecordError(f"the link's size must be {MIN_SIZE}..{MAX_SIZE}, not {size_text[:10]!r}")
    first = params.get("first", ["black"])[0]
    if first not in ("black", "white"):
        raise RecordError("the link's first must be black or white")
    return read_move_list(params["moves"][0].replace(",", " "), int(size_text), rule, first)


def read_record(text: str, size: int = DEFAULT_SIZE, rule: Rule | str | None = None) -> GameRecord:
    """Any of the three, told apart by their look: a Piskvork header, a link (``moves=``),
    else a move list (on ``size``, under ``rule``)."""
    _check_text(text)
    head = text.lstrip("\ufeff").lstrip()
    if _PSQ_HEAD.match(head.splitlines()[0] if head else ""):
        return read_psq(text, rule)
    if "moves=" in text:
        return read_link(text)
    return read_move_list(text, size, rule or Rule.FREESTYLE)


def _check_text(text: object) -> None:
    if not isinstance(text, str) or not text.strip():
        raise RecordError("the record is empty")
    if len(text) > MAX_TEXT:
        raise RecordError("the record is too large for a game")
