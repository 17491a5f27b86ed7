"""The coach (gomoku.engine.coach): each kind of threat planted and its marks checked, and
every mark checked against a slow brute-force definition on a plain grid (stones put on
and runs measured, no pattern table) on random positions of the three rules."""

from __future__ import annotations

import random

import pytest

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import from_text, to_text
from gomoku.core.rules import Rule
from gomoku.engine.coach import KINDS, threats
from gomoku.game.renju import first_forbidden_move
from gomoku_lab import renju_reference as ref

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def pts(text: str, size: int = 15) -> list[tuple[int, int]]:
    return [from_text(t, size) for t in text.split()]


def game(black: str, white: str, size: int = 15, white_extra_first: bool = False):
    """Moves alternating black, white from two lists of stones (equal lengths, or black one
    longer: white to move)."""
    b, w = pts(black, size), pts(white, size)
    assert len(b) - len(w) in (0, 1), (black, white)
    out = []
    for i, p in enumerate(b):
        out.append(p)
        if i < len(w):
            out.append(w[i])
    return out


def marks(coaching, colour: str) -> dict[str, list[tuple[str, str]]]:
    """{kind: [(points, blocks) as text]} of one colour."""
    out: dict[str, list[tuple[str, str]]] = {}
    for t in getattr(coaching, colour):
        out.setdefault(t.kind, []).append(
            (
                " ".join(to_text(*p, 15) for p in t.points),
                " ".join(to_text(*p, 15) for p in t.blocks),
            )
        )
    return out


# ---- planted threats ---------------------------------------------------------------------


def test_a_four_marks_its_five_point_and_the_block():
    c = threats(game("f8 g8 h8 i8", "e8 a1 a3"))  # white to move; e8 closes the left end
    assert c.to_move == "white"
    assert marks(c, "black") == {"four": [("j8", "j8")]}
    assert marks(c, "white") == {}


def test_an_open_four_marks_both_ends():
    c = threats(game("f8 g8 h8 i8", "a1 a3 a5"))
    assert marks(c, "black")["four"] == [("e8 j8", "e8 j8")]


def test_a_broken_four_marks_its_gap():
    c = threats(game("f8 g8 i8 j8", "a1 a3 a5"))
    assert marks(c, "black") == {"four": [("h8", "h8")]}


def test_an_open_three_marks_its_open_four_points_and_blocks():
    # white f8 g8 h8 with room on both sides: open four at e8 or i8; a stone on d8 or j8
    # still lets white make .XXXX. (e8-i8 or f8-i8 plus...), so only e8 and i8 stop it
    c = threats(game("a1 a3 a5", "f8 g8 h8"))
    assert c.to_move == "black"
    assert marks(c, "white") == {"three": [("e8 i8", "e8 i8")]}


def test_an_open_three_against_a_stone_has_one_open_four_point_and_three_blocks():
    # black d8 closes the left: white g8 h8 i8 makes an open four only at j8; black stops
    # it at e8? no: at f8, j8 or k8 (f8 leaves .XXX. no room on the left of the four)
    c = threats(game("d8 a1 a3 a5", "f8 g8 h8 o15"))
    got = marks(c, "white")["three"]
    assert got == [("i8", "e8 i8 j8")], got


def test_a_split_three_marks_its_gap_and_both_ends():
    c = threats(game("h8 i8 k8", "a1 a3 a5"))  # .XX.X.: g8, j8, l8
    assert marks(c, "black") == {"three": [("j8", "g8 j8 l8")]}


def test_a_four_three_point_is_marked_with_its_blocks():
    # black: e8 f8 g8 (a three, closed on the left by white d8) and h6 h7: h8 makes a four
    # along the row (d8 closes it) and an open three down the column
    c = threats(game("e8 f8 g8 h6 h7", "d8 a1 a3 a5 a7"))
    got = marks(c, "black")
    assert ("h8", "h8") != got.get("four-three", [("", "")])[0]
    points = [p for p, _ in got["four-three"]]
    assert "h8" in points
    blocks = dict(got["four-three"])["h8"].split()
    assert "h8" in blocks and "h5" in blocks and "h9" in blocks  # the column's three


def test_a_double_three_point_is_marked():
    c = threats(game("f8 g8 h6 h7", "a1 a3 a5 a7"))
    got = marks(c, "black")
    assert "h8" in [p for p, _ in got["double-three"]]


def test_a_double_four_point_is_marked():
    c = threats(game("e8 f8 g8 h5 h6 h7", "d8 h4 a1 a3 a5 a7"))
    got = marks(c, "black")
    # blocks: h8 itself, or i8 / h9, each leaving a single four
    assert got["double-four"] == [("h8", "h9 h8 i8")]


def test_white_first_names_the_colours_as_played():
    moves = pts("a1 f8 a3 g8 a5 h8")  # white opened: a1 is white's
    c = threats(moves, first="white")
    assert c.to_move == "white"
    assert marks(c, "black") == {"three": [("e8 i8", "e8 i8")]}
    assert c.white == ()


def test_a_finished_game_has_no_threats():
    c = threats(game("f8 g8 h8 i8 j8", "a1 a3 a5 a7"))
    assert c.black == () and c.white == ()


def test_bad_input_raises():
    with pytest.raises(GomokuError):
        threats([(7, 7), (7, 7)])
    with pytest.raises(GomokuError):
        threats([(20, 0)])
    with pytest.raises(ValueError):
        threats([], rule="renju", first="white")


# ---- renju: black's marks never on a forbidden point -------------------------------------


def renju_forbidden(moves, size=15):
    grid = ref.grid_from_moves(moves, size)
    return {p for p, _ in ref.forbidden_points(grid).items()}


def all_black_cells(c) -> set[tuple[int, int]]:
    return {p for t in c.black for p in t.points} | {p for t in c.white for p in t.blocks}


def test_renju_black_double_three_is_not_a_mark_but_freestyle_s_is():
    moves = game("f8 g8 h6 h7", "a1 a3 a5 a7")
    assert "double-three" in marks(threats(moves), "black")
    c = threats(moves, rule="renju")
    assert "double-three" not in marks(c, "black")
    assert from_text("h8", 15) in renju_forbidden(moves)
    assert not all_black_cells(c) & renju_forbidden(moves)


def test_renju_black_three_whose_open_four_point_is_forbidden_is_no_three():
    # black g8 h8 i8 on row 8 with white e8: the only open-four point is j8 (f8 makes a
    # four against e8), made a double three by black's j6 j7 and k9 l10 (forbidden)
    moves = game("g8 h8 i8 j6 j7 l10 k9", "e8 a1 a3 a5 a7 a9 a11")
    assert from_text("j8", 15) in renju_forbidden(moves)
    c = threats(moves, rule="renju")
    assert not all_black_cells(c) & renju_forbidden(moves)
    got = marks(c, "black")
    assert all("j8" not in p.split() for kind in got.values() for p, _ in kind)
    free = marks(threats(moves), "black")  # freestyle: j8 is black's
    assert any("j8" in p.split() for p, _ in free["three"])


def test_renju_blocks_offered_to_black_are_allowed():
    # white's open three e8 f8 g8 .. its block h8 is a double three for black (h6 h7, i9 j10)
    moves = game("h6 h7 i9 j10 a1", "e8 f8 g8 a15 o1")
    assert from_text("h8", 15) in renju_forbidden(moves)
    c = threats(moves, rule="renju")
    got = marks(c, "white")["three"]
    assert got and all("h8" not in b.split() for _, b in got), got
    assert "h8" in marks(threats(moves), "white")["three"][0][1].split()  # freestyle: allowed


# ---- the brute-force definition ----------------------------------------------------------

FIVE_, OPEN_FOUR_, FOUR_, OPEN_THREE_ = "five", "open four", "four", "open three"


class Brute:
    """Classes by putting stones on a plain grid and measuring runs (no table)."""

    def __init__(self, moves, size, rule: Rule):
        self.size, self.rule = size, rule
        self.grid = ref.grid_from_moves(moves, size)

    def on(self, x, y):
        return 0 <= x < self.size and 0 <= y < self.size

    def run(self, x, y, dx, dy, colour):
        n = 1
        for s in (1, -1):
            k = 1
            while (
                self.on(x + s * k * dx, y + s * k * dy)
                and self.grid[y + s * k * dy][x + s * k * dx] == colour
            ):
                n += 1
                k += 1
        return n

    def wins(self, n, colour):
        return n >= 5 if self.rule.overline_wins_for(colour) else n == 5

    def completions(self, x, y, dx, dy, colour):
        """(x, y) holds colour: the empty cells within 4 on the line that make a five
        through (x, y)."""
        out = 0
        for k in range(-4, 5):
            ex, ey = x + k * dx, y + k * dy
            if k and self.on(ex, ey) and self.grid[ey][ex] == 0:
                self.grid[ey][ex] = colour
                if self.wins(self.run(x, y, dx, dy, colour), colour):
                    out += 1
                self.grid[ey][ex] = 0
        return out

    def cls(self, x, y, d, colour, depth=0):
        """The class colour makes along direction d by playing empty (x, y)."""
        dx, dy = DIRS[d]
        self.grid[y][x] = colour
        try:
            n = self.run(x, y, dx, dy, colour)
            if self.wins(n, colour):
                return FIVE_
            if n >= 6:
                return None
            c = self.completions(x, y, dx, dy, colour)
            if c >= 2:
                return OPEN_FOUR_
            if c == 1:
                return FOUR_
            if depth == 0:
                for k in range(-4, 5):
                    ex, ey = x + k * dx, y + k * dy
                    if k and self.on(ex, ey) and self.grid[ey][ex] == 0:
                        self.grid[ey][ex] = colour
                        self.grid[y][x] = 0
                        got = self.cls(x, y, d, colour, 1)
                        self.grid[y][x] = colour
                        self.grid[ey][ex] = 0
                        if got == OPEN_FOUR_:
                            return OPEN_THREE_
            return None
        finally:
            self.grid[y][x] = 0

    def allowed(self, x, y, colour):
        return not (self.rule is Rule.RENJU and colour == 1 and ref.forbidden(self.grid, x, y))

    def open_four_points(self, cells, d, colour):
        return {
            (x, y)
            for x, y in cells
            if self.grid[y][x] == 0
            and self.cls(x, y, d, colour) == OPEN_FOUR_
            and self.allowed(x, y, colour)
        }

    def line(self, x, y, d, reach):
        dx, dy = DIRS[d]
        return [
            (x + k * dx, y + k * dy)
            for k in range(-reach, reach + 1)
            if self.on(x + k * dx, y + k * dy)
        ]

    def three_counts(self, x, y, d, colour):
        if not (self.rule is Rule.RENJU and colour == 1):
            return True
        self.grid[y][x] = colour
        try:
            return bool(self.open_four_points(self.line(x, y, d, 5), d, colour))
        finally:
            self.grid[y][x] = 0

    def double(self, x, y, colour):
        classes = [self.cls(x, y, d, colour) for d in range(4)]
        if FIVE_ in classes or OPEN_FOUR_ in classes or not self.allowed(x, y, colour):
            return None
        fours, threes = classes.count(FOUR_), classes.count(OPEN_THREE_)
        kind = None
        if fours >= 2:
            kind = "double-four"
        elif fours and threes:
            kind = "four-three"
        elif threes >= 2:
            kind = "double-three"
        if kind and self.rule is Rule.RENJU and colour == 1:
            if kind != "four-three":
                return None
            if not any(
                self.three_counts(x, y, d, 1) for d in range(4) if classes[d] == OPEN_THREE_
            ):
                return None
        return kind

    def marks(self, colour):
        """{"five": cells, "open four": cells, kind: cells} of one colour."""
        out: dict[str, set] = {}
        for y in range(self.size):
            for x in range(self.size):
                if self.grid[y][x]:
                    continue
                classes = [self.cls(x, y, d, colour) for d in range(4)]
                if FIVE_ in classes:
                    out.setdefault("four", set()).add((x, y))
                elif OPEN_FOUR_ in classes:
                    if self.allowed(x, y, colour):
                        out.setdefault("three", set()).add((x, y))
                else:
                    kind = self.double(x, y, colour)
                    if kind:
                        out.setdefault(kind, set()).add((x, y))
        return out


def random_position(rng: random.Random, rule: Rule, size: int = 15):
    """A random game of 8-30 stones in the middle 9x9 (threats are common there), not
    finished; under renju no black stone on a forbidden point."""
    while True:
        cells = [(x, y) for x in range(3, 12) for y in range(3, 12)]
        rng.shuffle(cells)
        moves = cells[: rng.randint(8, 30)]
        if rule is Rule.RENJU and first_forbidden_move(moves, size):
            continue
        try:
            c = threats(moves, size, rule)
        except GomokuError:  # a five before the last move
            continue
        # a finished game has none: skip it
        grid = ref.grid_from_moves(moves, size)
        brute = Brute(moves, size, rule)
        done = any(
            brute.wins(brute.run(x, y, dx, dy, grid[y][x]), grid[y][x])
            for x, y in moves
            for dx, dy in DIRS
        )
        if not done:
            return moves, c


COLOURS = {"black": 1, "white": 2}


@pytest.mark.parametrize("rule", list(Rule))
def test_marks_agree_with_the_brute_force_definition(rule):
    rng = random.Random(20261127 + int(rule))
    seen: set[str] = set()
    for _ in range(12):
        moves, c = random_position(rng, rule)
        brute = Brute(moves, 15, rule)
        for colour, side in COLOURS.items():
            found = getattr(c, colour)
            mine: dict[str, set] = {}
            for t in found:
                assert t.kind in KINDS
                mine.setdefault(t.kind, set()).update(t.points)
                seen.add(t.kind)
            assert mine == brute.marks(side), (rule, colour, moves)
            other = 3 - side
            for t in found:
                if t.kind == "four":
                    assert set(t.blocks) == {p for p in t.points if brute.allowed(*p, other)}
                    continue
                # the blocks: every cell whose opponent stone takes the threat away
                if t.kind == "three":
                    d = next(d for d in range(4) if brute.cls(*t.points[0], d, side) == OPEN_FOUR_)
                    span = sorted({q for p in t.points for q in brute.line(*p, d, 5)})
                else:
                    span = sorted({q for d in range(4) for q in brute.line(*t.points[0], d, 4)})
                want = set()
                for x, y in span:
                    if brute.grid[y][x] or not brute.allowed(x, y, other):
                        continue
                    brute.grid[y][x] = other
                    if t.kind == "three":
                        gone = not brute.open_four_points(span, d, side)
                    else:
                        px, py = t.points[0]
                        gone = brute.grid[py][px] != 0 or brute.double(px, py, side) is None
                    brute.grid[y][x] = 0
                    if gone:
                        want.add((x, y))
                assert set(t.blocks) == want, (rule, colour, t, moves)
    assert {"four", "three"} <= seen, seen  # the random positions did meet threats


def test_two_threes_crossing_at_their_open_four_point_each_list_it():
    # black e8 f8 g8 (row) and h5 h6 h7 (column): h8 makes an open four on both lines
    c = threats(game("e8 f8 g8 h5 h6 h7", "a1 a3 a5 a7 a9 a11"))
    threes = [p for p, _ in marks(c, "black")["three"]]
    assert sorted(threes) == ["d8 h8", "h8 h4"], threes  # by column, then from the top
