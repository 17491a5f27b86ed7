"""The coach: each side's immediate threats in a position, read off the engine's own
pattern tables (``Board.summary``: per empty cell and side, the class each of the four
lines through it would have after a stone there). No search: the page asks once per
position, and the answer is what is on the board, never the engine's choice.

Contract of ``threats(moves, size, rule, first)``: a ``Coaching`` with, per colour, a
list of ``Threat(kind, points, blocks)``, strongest kind first, points and blocks sorted
(by column, then row from the top). The kinds:

``four``
    the side has a four (straight or broken: ``XXXX.``, ``XX.XX``, ``X.XXX``): ``points``
    are the cells where it makes five on that line (two of them: an open four, which one
    move cannot stop); ``blocks`` are the same cells (in renju, those black may play).
``three``
    the side has an open three (straight ``.XXX.`` or split ``.X.XX.``): ``points`` are the
    cells where it makes an open four (two completions of five) on that line, ``blocks``
    every cell where an opponent stone leaves that line no such point (the points
    themselves and the far ends).
``double-four``, ``four-three``, ``double-three``
    a cell (``points``, one) where the side would make two fours, a four and an open
    three, or two open threes at once; ``blocks`` the cells where an opponent stone takes
    that away (the cell itself, and cells on its lines).

A cell where a side makes five is only a ``four``'s point, a cell where it makes an open
four only a ``three``'s: the stronger kind says it all.

Renju: no mark of black's (points, and the blocks black is offered against white's
threats) is a point forbidden for black (``game.renju``); a black three counts only when
one of its open-four points is allowed; black has no double four or double three (both
forbidden), and a four-three only where its three counts. A finished game has no threats.

"Right by construction": the classes are the tables the search uses;
tests/engine/engine/test_coach.py checks every kind on planted positions and against a
brute-force definition on a plain grid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule, parse_rule
from gomoku.game.board import DIRECTIONS, Board
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK, EMPTY, FIVE, FOUR, OPEN_FOUR, OPEN_THREE, WHITE, count_of

KINDS = ("four", "three", "double-four", "four-three", "double-three")
DOUBLE_KINDS = ("double-four", "four-three", "double-three")
REACH = 5  # cells either side of a three's points where a block may stand


@dataclass(frozen=True)
class Threat:
    """One threat of one side: its kind (``KINDS``), the cells where the side plays it,
    the cells where the opponent stops it."""

    kind: str
    points: tuple[Point, ...]
    blocks: tuple[Point, ...]

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "points": [list(p) for p in self.points],
            "blocks": [list(p) for p in self.blocks],
        }


@dataclass(frozen=True)
class Coaching:
    """The threats of both colours (``black``, ``white``) and the colour to move."""

    to_move: str
    black: tuple[Threat, ...] = field(default_factory=tuple)
    white: tuple[Threat, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {
            "toMove": self.to_move,
            "black": [t.to_dict() for t in self.black],
            "white": [t.to_dict() for t in self.white],
        }


def _sorted(points: set[Point] | list[Point]) -> tuple[Point, ...]:
    return tuple(sorted(set(points)))


class _Reader:
    """The questions the coach asks of one board, for one side (the engine's colours:
    BLACK is whoever moved first)."""

    def __init__(self, board: Board, side: int) -> None:
        self.board = board
        self.side = side
        self.renju = board.rule is Rule.RENJU
        self.size = board.size
        self._flips: list[bool] = []  # per stone placed: was the side to move flipped

    def allowed(self, p: int, colour: int) -> bool:
        """May ``colour`` play empty cell p (renju: black's forbidden points are not)?"""
        return not (self.renju and colour == BLACK and forbidden(self.board, p))

    def counts(self, p: int) -> tuple[int, int, int, int]:
        """(fives, open fours, fours, open threes) the side makes by playing p."""
        s = self.board.side_summary(p, self.side)
        return count_of(s, FIVE), count_of(s, OPEN_FOUR), count_of(s, FOUR), count_of(s, OPEN_THREE)

    def line(self, p: int, d: int, reach: int) -> list[int]:
        """The on-board cells of direction d within ``reach`` of p (p included), in order."""
        x, y = self.board.point(p)
        dx, dy = DIRECTIONS[d]
        out = []
        for k in range(-reach, reach + 1):
            cx, cy = x + k * dx, y + k * dy
            if 0 <= cx < self.size and 0 <= cy < self.size:
                out.append(self.board.layout.index(cx, cy))
        return out

    def open_four_points(self, cells: list[int], d: int) -> list[int]:
        """The cells of ``cells`` where the side makes an open four along d (allowed ones)."""
        b = self.board
        return [
            q
            for q in cells
            if b.cells[q] == EMPTY
            and b.pattern(q, d, self.side) == OPEN_FOUR
            and self.allowed(q, self.side)
        ]

    def three_counts(self, p: int, d: int) -> bool:
        """Is the side's open three along d through p (after a stone on p) a real one: one
        allowed open-four point? (Only renju's black can have one that is not.)"""
        if not (self.renju and self.side == BLACK):
            return True
        self.place(p, self.side)
        try:
            return bool(self.open_four_points(self.line(p, d, REACH), d))
        finally:
            self.remove()

    def place(self, p: int, colour: int) -> None:
        """A stone of ``colour`` on p, whoever is to move (undone by ``remove``)."""
        b = self.board
        flip = b.side != colour
        if flip:
            b.pass_move()
        b.make(p)
        self._flips.append(flip)

    def remove(self) -> None:
        b = self.board
        b.unmake()
        if self._flips.pop():
            b.pass_move()

    def double_kind(self, p: int) -> str | None:
        """The double threat the side makes on empty cell p, or None (none, or p makes a
        five or an open four, or it is not allowed)."""
        fives, open_fours, fours, threes = self.counts(p)
        if fives or open_fours or not self.allowed(p, self.side):
            return None
        if fours >= 2:
            kind = "double-four"
        elif fours and threes:
            kind = "four-three"
        elif threes >= 2:
            kind = "double-three"
        else:
            return None
        if self.renju and self.side == BLACK:
            # allowed, so not two real threes and not two fours: a four-three at most
            if kind != "four-three":
                return None
            d3 = [d for d in range(4) if self.board.pattern(p, d, BLACK) == OPEN_THREE]
            if not any(self.three_counts(p, d) for d in d3):
                return None
        return kind


def _line_id(point: Point, d: int) -> tuple[int, int]:
    """Which line of direction d the point is on, and its place along it."""
    x, y = point
    return [(y, x), (x, y), (x - y, x), (x + y, x)][d]


def _clusters(points: list[tuple[Point, int]], gap: int) -> list[tuple[int, list[Point]]]:
    """Points with their direction grouped by line: (direction, points) per run of points
    on one line no more than ``gap`` apart."""
    by_line: dict[tuple[int, int], list[tuple[int, Point]]] = {}
    for pt, d in points:
        line, place = _line_id(pt, d)
        by_line.setdefault((d, line), []).append((place, pt))
    out = []
    for (d, _), members in sorted(by_line.items()):
        members.sort()
        run = [members[0]]
        for m in members[1:]:
            if m[0] - run[-1][0] > gap:
                out.append((d, [pt for _, pt in run]))
                run = []
            run.append(m)
        out.append((d, [pt for _, pt in run]))
    return out


def side_threats(board: Board, side: int) -> list[Threat]:
    """The threats of ``side`` (BLACK or WHITE, the engine's colours) on ``board``, in the
    order of ``KINDS`` (see the module's contract). The board is left as it was."""
    rd = _Reader(board, side)
    other = 3 - side
    lay = board.layout
    five_pts: list[tuple[Point, int]] = []
    four_pts: list[tuple[Point, int]] = []
    doubles: list[tuple[str, int]] = []
    for p in lay.onboard:
        if board.cells[p] != EMPTY:
            continue
        fives, open_fours, _, _ = rd.counts(p)
        # a point on two lines (two fours, or two threes, crossing there) is in both groups
        if fives:
            five_pts += [(board.point(p), d) for d in range(4) if board.pattern(p, d, side) == FIVE]
        elif open_fours:
            if not rd.allowed(p, side):
                continue
            four_pts += [
                (board.point(p), d) for d in range(4) if board.pattern(p, d, side) == OPEN_FOUR
            ]
        else:
            kind = rd.double_kind(p)
            if kind:
                doubles.append((kind, p))

    out: list[Threat] = []
    for _, pts in _clusters(five_pts, 5):
        blocks = [pt for pt in pts if rd.allowed(lay.index(*pt), other)]
        out.append(Threat("four", _sorted(pts), _sorted(blocks)))
    for d, pts in _clusters(four_pts, 5):
        cells = {lay.index(*pt) for pt in pts}
        span = sorted({q for c in cells for q in rd.line(c, d, REACH)})
        blocks = []
        for c in span:
            if board.cells[c] != EMPTY or not rd.allowed(c, other):
                continue
            rd.place(c, other)
            try:
                if not rd.open_four_points(span, d):
                    blocks.append(board.point(c))
            finally:
                rd.remove()
        out.append(Threat("three", _sorted(pts), _sorted(blocks)))
    for kind in DOUBLE_KINDS:
        for k, p in doubles:
            if k != kind:
                continue
            near = {q for d in range(4) for q in rd.line(p, d, 4)}
            blocks = [board.point(p)] if rd.allowed(p, other) else []
            for c in sorted(near - {p}):
                if board.cells[c] != EMPTY or not rd.allowed(c, other):
                    continue
                rd.place(c, other)
                try:
                    if rd.double_kind(p) is None:
                        blocks.append(board.point(c))
                finally:
                    rd.remove()
            out.append(Threat(kind, (board.point(p),), _sorted(blocks)))
    return out


def threats(
    moves: list[Point],
    size: int = DEFAULT_SIZE,
    rule: Rule | str | int = Rule.FREESTYLE,
    first: str = "black",
) -> Coaching:
    """Both colours' threats after ``moves`` (``first``: the colour of the first move,
    "black" or "white"; white first is refused under renju). Raises GomokuError on a bad
    size, rule or move list (a renju move list is expected to be checked by the caller)."""
    rule = parse_rule(rule)
    if first not in ("black", "white"):
        raise ValueError(f"first must be 'black' or 'white', got {first!r}")
    if rule is Rule.RENJU and first != "black":
        raise ValueError("under renju black moves first")
    board = Board.from_moves(list(moves), size, rule)
    # the engine's BLACK is whoever moved first
    colour = {BLACK: first, WHITE: "white" if first == "black" else "black"}
    to_move = colour[board.side]
    if board.winner or board.is_full():
        return Coaching(to_move)
    found = {colour[side]: tuple(side_threats(board, side)) for side in (BLACK, WHITE)}
    return Coaching(to_move, found["black"], found["white"])
