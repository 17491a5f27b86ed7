"""book.py and book_build.py: look-up under symmetry and translation, the file format, the
lookup's layering (it never loads the engine), the 26 standard openings, the builder pipeline
(with a stand-in searcher) and the book shipped in the package."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import gomoku
from gomoku.core.errors import IllegalMoveError, RuleError
from gomoku.core.geometry import SYMMETRY_COUNT, from_text, transform
from gomoku.core.rules import Rule
from gomoku.core.symmetry import (
    canonical,
    far_from_edge,
    position_symmetries,
    split_moves,
)
from gomoku.engine import book as book_module
from gomoku.engine.book import (
    BOOK_FILE,
    Book,
    BookEntry,
    BookFormatError,
    default_book,
)
from gomoku_lab.book_build import (
    DIRECT_OPENINGS,
    INDIRECT_OPENINGS,
    SearchOutcome,
    build_book,
    coverage,
    second_move_roots,
    standard_openings,
    threat_refutes,
)


def images(moves, reply, size, k, shift=(0, 0)):
    """Position and reply under board symmetry k followed by a shift."""

    def f(p):
        x, y = transform(k, *p, size)
        return x + shift[0], y + shift[1]

    return [f(p) for p in moves], f(reply)


def random_entries(rng: random.Random, n: int, size: int, rule: Rule, near_edge: bool):
    """Entries with random positions and replies: far from the edges (relative-keyed) or
    touching an edge region (absolute-keyed)."""
    out = []
    while len(out) < n:
        stones = rng.randrange(0, 5)
        if near_edge:
            cells = [(x, y) for x in range(0, 6) for y in range(3, 9)]
        else:
            c = size // 2
            cells = [(x, y) for x in range(c - 2, c + 3) for y in range(c - 2, c + 3)]
        pts = rng.sample(cells, stones + 1)
        moves, reply = pts[:-1], pts[-1]
        if near_edge and far_from_edge([*moves, reply], size):
            continue
        out.append(BookEntry(rule, size, tuple(moves), reply, rng.randrange(-50, 50), "test"))
    return out


def unique_by_position(entries):
    """Keep one entry per position key so each looked-up position has one stored reply."""
    seen, out = set(), []
    for e in entries:
        b, w = split_moves(e.moves)
        key = canonical(b, w, e.size, translate=True).key
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


# -- the 26 standard openings ------------------------------------------------------------


def test_openings_are_26_distinct_placements_in_the_5x5():
    ops = standard_openings(15)
    assert len(ops) == 26 and len({n for n, _, _ in ops}) == 26
    assert len(DIRECT_OPENINGS) == len(INDIRECT_OPENINGS) == 13
    for _, family, (b1, w2, b3) in ops:
        assert b1 == (7, 7)
        dist = max(abs(w2[0] - 7), abs(w2[1] - 7))
        assert dist == 1 and (abs(w2[0] - 7) + abs(w2[1] - 7) == 1) == (family == "direct")
        assert max(abs(b3[0] - 7), abs(b3[1] - 7)) <= 2 and b3 not in (b1, w2)
    for family in ("direct", "indirect"):
        fam = [m for _, f, m in ops if f == family]
        b1, w2 = fam[0][:2]
        assert all(m[:2] == [b1, w2] for m in fam)
        # the symmetries fixing the first two stones: identity and one mirror
        group = position_symmetries([b1], [w2], 15)
        assert len(group) == 2
        orbits = [{transform(k, *m[2], 15) for k in group} for m in fam]
        for i in range(13):
            for j in range(i + 1, 13):
                assert not orbits[i] & orbits[j], (fam[i], fam[j])
        # and together they cover every free cell of the 5x5: the list is complete
        cells = {(x, y) for x in range(5, 10) for y in range(5, 10)} - {b1, w2}
        assert set().union(*orbits) == cells


def test_every_centre_opening_is_one_of_the_26():
    """Black centre, white on any of the 8 neighbours, black anywhere in the 5x5: each of the
    8 * 23 positions has the canonical key of a named opening. As stone sets (which black
    stone came first is not part of a position) two pairs coincide under translation:
    Keigetsu = Kyogetsu and Ugetsu = Ungetsu, so the 26 openings are 24 book positions."""
    for size in (15, 20):
        c = size // 2
        named: dict = {}
        for name, _, m in standard_openings(size):
            b, w = split_moves(m)
            named.setdefault(canonical(b, w, size, translate=True).key, set()).add(name)
            # with black 1 fixed at the centre (absolute keys) all 26 are distinct
        assert (
            len({canonical(*split_moves(m), size, False).key for *_, m in standard_openings(size)})
            == 26
        )
        shared = sorted(sorted(v) for v in named.values() if len(v) > 1)
        assert shared == [["Keigetsu", "Kyogetsu"], ["Ugetsu", "Ungetsu"]]
        assert len(named) == 24
        hits = set()
        for wx in range(c - 1, c + 2):
            for wy in range(c - 1, c + 2):
                for bx in range(c - 2, c + 3):
                    for by in range(c - 2, c + 3):
                        if (wx, wy) == (c, c) or (bx, by) in ((c, c), (wx, wy)):
                            continue
                        key = canonical([(c, c), (bx, by)], [(wx, wy)], size, True).key
                        assert key in named
                        hits.add(key)
        assert len(hits) == 24


def test_opening_names_match_the_literature_squares():
    """Spot checks of the RIF diagrams (black h8, white h9 / i9)."""
    by_name = {n: m for n, _, m in standard_openings(15)}
    assert by_name["Kagetsu"] == [from_text(s, 15) for s in ("h8", "h9", "i9")]
    assert by_name["Hogetsu"] == [from_text(s, 15) for s in ("h8", "i9", "i7")]
    assert by_name["Kansei"][2] == from_text("h10", 15)
    assert by_name["Chosei"][2] == from_text("j10", 15)
    assert by_name["Suisei"][2] == from_text("f6", 15)


def test_second_move_roots_cover_distance_three():
    for size in (15, 18, 20):
        c = size // 2
        keys = set()
        for m in second_move_roots(size):
            b, w = split_moves(m)
            keys.add(canonical(b, w, size, translate=True).key)
        assert len(keys) == len(second_move_roots(size)) == 9
        for x in range(c - 3, c + 4):
            for y in range(c - 3, c + 4):
                if (x, y) != (c, c):
                    assert canonical([(c, c)], [(x, y)], size, True).key in keys


# -- look-up ---------------------------------------------------------------------------


def test_relative_entries_follow_every_symmetry_and_translation():
    rng = random.Random(11)
    entries = unique_by_position(random_entries(rng, 45, 15, Rule.FREESTYLE, near_edge=False))
    book = Book(entries)
    checked = 0
    for e in entries:
        if not e.moves:
            continue  # the empty board is keyed relative to the centre (tested below)
        for size in (15, 17, 20):
            for k in range(SYMMETRY_COUNT):
                for shift in [(0, 0), (1, -1), (size - 15, size - 15), (3, 2)]:
                    moves, reply = images(e.moves, e.reply, 15, k, shift)
                    if not far_from_edge([*moves, reply], size):
                        continue
                    cands = [c.move for c in book.candidates(moves, size, "freestyle")]
                    assert reply in cands
                    b, w = split_moves(moves)
                    if position_symmetries(b, w, size) == [0] and len(moves) > 1:
                        # an asymmetric shape: exactly the transformed reply, also by lookup
                        shape_syms = canonical(b, w, size, True).frames
                        if len(shape_syms) == 1:
                            assert cands == [reply]
                            assert book.lookup(moves, size, Rule.FREESTYLE).move == reply
                    checked += 1
    assert checked > 700


def test_absolute_entries_match_only_on_their_board_without_translation():
    rng = random.Random(12)
    entries = unique_by_position(random_entries(rng, 60, 15, Rule.STANDARD, near_edge=True))
    book = Book(entries)
    for e in entries:
        for k in range(SYMMETRY_COUNT):
            moves, reply = images(e.moves, e.reply, 15, k)
            assert reply in [c.move for c in book.candidates(moves, 15, "standard")]
            assert book.lookup(moves, 15, "freestyle") is None  # other rule
            b, w = split_moves(moves)
            # shifted by one cell, or the same cells on a larger board: not the same position
            # (unless the shift happens to be a board symmetry of it)
            for shift in [(1, 0), (0, 1)]:
                sm, sr = images(e.moves, e.reply, 15, k, shift)
                if not all(0 <= v < 15 for p in [*sm, sr] for v in p):
                    continue
                sb, sw = split_moves(sm)
                if canonical(sb, sw, 15, False).key == canonical(b, w, 15, False).key:
                    continue
                assert book.lookup(sm, 15, "standard") is None
            if e.moves:
                assert book.lookup(moves, 19, "standard") is None


def test_near_edge_copy_of_a_relative_entry_is_not_answered():
    c = 7
    moves = [(c, c), (c, c - 1), (c + 2, c - 1)]
    assert len(canonical(*split_moves(moves), 15, True).frames) == 1  # an asymmetric shape
    book = Book([BookEntry(Rule.FREESTYLE, 15, tuple(moves), (c + 1, c + 1), 10, "t")])
    assert book.lookup(moves, 15, "freestyle").move == (c + 1, c + 1)
    for shift, ok in [
        ((-2, 0), True),
        ((-3, 0), False),
        ((0, 8), False),
        ((5, 5), True),
        ((0, 6), True),
    ]:
        sm, sr = images(moves, (c + 1, c + 1), 20, 0, shift)
        found = book.lookup(sm, 20, "freestyle")
        assert (found is not None) == ok and far_from_edge([*sm, sr], 20) == ok
        if ok:
            assert found.move == sr
    # the reply itself too near the edge: not answered even though the stones are far enough
    sm, sr = images(moves, (c + 1, c + 1), 15, 0, (0, 2))
    assert far_from_edge(sm, 15) and not far_from_edge([sr], 15)
    assert book.lookup(sm, 15, "freestyle") is None


def test_unknown_positions_and_bad_input():
    book = Book([BookEntry(Rule.FREESTYLE, 15, ((7, 7),), (8, 8), 0, "")])
    assert book.lookup([(7, 7), (8, 8)], 15, "freestyle") is None
    assert book.lookup([(7, 7)], 15, "standard") is None
    assert book.lookup([(7, 7)], 15, "freestyle").move in [(6, 6), (8, 6), (6, 8), (8, 8)]
    assert Book().lookup([], 15, "freestyle") is None
    with pytest.raises(IllegalMoveError):
        book.lookup([(7, 7), (7, 7)], 15, "freestyle")
    with pytest.raises(RuleError):
        book.lookup([(7, 7)], 21, "freestyle")
    with pytest.raises(RuleError):
        book.lookup([(7, 7)], 15, "caro")


def test_symmetric_position_lists_every_image_and_occupied_images_are_skipped():
    book = Book([BookEntry(Rule.FREESTYLE, 15, ((7, 7),), (7, 6), 5, "")])
    cands = {c.move for c in book.candidates([(7, 7)], 15, "freestyle")}
    assert cands == {(7, 6), (6, 7), (8, 7), (7, 8)}
    for size in range(15, 21):  # the same shape anywhere far from the edges, any size
        got = book.lookup([(8, 9)], size, "freestyle")
        assert got is not None and abs(got.move[0] - 8) + abs(got.move[1] - 9) == 1
    # the empty board: the stored reply is relative to the centre of every board size
    book = Book([BookEntry(Rule.FREESTYLE, 15, (), (7, 7), 0, "")])
    for size in range(15, 21):
        assert book.lookup([], size, "freestyle").move == (size // 2, size // 2)
    book = Book([BookEntry(Rule.FREESTYLE, 15, (), (8, 7), 0, "")])
    for size in range(15, 21):
        c = size // 2
        cands = {b.move for b in book.candidates([], size, "freestyle")}
        assert cands == {(c + 1, c), (c - 1, c), (c, c + 1), (c, c - 1)}


def test_seeded_choice_among_close_scores():
    c = 7
    pos = ((c, c), (c + 1, c), (c + 1, c - 2))
    assert len(canonical(*split_moves(pos), 15, True).frames) == 1  # not symmetric
    entries = [
        BookEntry(Rule.FREESTYLE, 15, pos, (c, c - 2), 30, "a"),
        BookEntry(Rule.FREESTYLE, 15, pos, (c - 1, c + 1), 20, "b"),
        BookEntry(Rule.FREESTYLE, 15, pos, (c + 2, c - 2), 4, "c"),
        BookEntry(Rule.FREESTYLE, 15, pos, (c - 2, c - 2), -40, "far worse"),
    ]
    book = Book(entries, tolerance=25)
    picks = {book.lookup(list(pos), 15, "freestyle", seed=s).move for s in range(40)}
    assert picks == {(c, c - 2), (c - 1, c + 1)}  # within 25 of the best (30)
    assert book.lookup(list(pos), 15, "freestyle").move == (c, c - 2)
    for s in range(5):
        assert (
            book.lookup(list(pos), 15, "freestyle", seed=s).move
            == book.lookup(list(pos), 15, "freestyle", seed=s).move
        )


# -- file format -----------------------------------------------------------------------


def test_lines_round_trip(tmp_path: Path):
    rng = random.Random(13)
    entries = random_entries(rng, 40, 15, Rule.FREESTYLE, False) + random_entries(
        rng, 40, 18, Rule.STANDARD, True
    )
    book = Book(entries)
    book.header = ["a header", "second line"]
    path = tmp_path / "b.txt"
    book.save(path)
    again = Book.load(path)
    assert again.header == book.header
    assert sorted(again.entries, key=repr) == sorted(entries, key=repr)
    assert again.dumps() == book.dumps()
    e = BookEntry.from_line("standard 15 h8 h9 : i9 +12 search 1s d5; opening Kagetsu")
    assert e.moves == (from_text("h8", 15), from_text("h9", 15))
    assert (e.reply, e.score, e.note) == (from_text("i9", 15), 12, "search 1s d5; opening Kagetsu")
    assert BookEntry.from_line("freestyle 20 - : k11 +0").moves == ()


@pytest.mark.parametrize(
    "line",
    [
        "freestyle 15 h8 h9 i9 j10",  # no reply
        "caro 15 h8 : h9 +1",
        "freestyle 14 h8 : h9 +1",
        "freestyle 15 h8 : h8 +1",  # occupied
        "freestyle 15 h8 h8 : h9 +1",
        "freestyle 15 h8 : z9 +1",
        "freestyle 15 h8 : h9 plus",
    ],
)
def test_bad_lines_are_rejected(line: str, tmp_path: Path):
    with pytest.raises(BookFormatError):
        BookEntry.from_line(line)
    path = tmp_path / "bad.txt"
    path.write_text("# header\nfreestyle 15 h8 : h9 +1\n" + line + "\n")
    with pytest.raises(BookFormatError, match=":3:"):
        Book.load(path)


# -- layering: the lookup never loads the engine ------------------------------------------

PLAY_TIME_FORBIDDEN = ("gomoku.engine.facade", "gomoku.search.alphabeta", "gomoku_lab.book_build")
PACKAGE_DIR = Path(gomoku.__file__).resolve().parent


def test_lookup_does_not_import_the_engine_at_run_time():
    """In a fresh interpreter, importing gomoku.engine.book and using it (the packaged book, and the
    renju check's lazy imports) loads neither the engine nor the search nor the builder."""
    code = "\n".join(
        [
            "import sys",
            "import gomoku.engine.book as b",
            "from gomoku.core.rules import Rule",
            "b.default_book().lookup([(7, 7)], 15, 'freestyle')",
            "e = b.BookEntry(Rule.RENJU, 15, ((7, 7), (7, 8)), (8, 8), 0)",
            "b.Book([e]).lookup([(7, 7), (7, 8)], 15, 'renju')",
            "assert 'gomoku.game.renju' in sys.modules  # the lazy path did run",
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('gomoku'))))",
        ]
    )
    py_dir = str(PACKAGE_DIR.parent)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=py_dir,
        env={**os.environ, "PYTHONPATH": py_dir},
        check=True,
    ).stdout.split()
    assert "gomoku.engine.book" in out
    for name in PLAY_TIME_FORBIDDEN:
        assert name not in out, (name, out)


def _gomoku_imports(path: Path) -> set[str]:
    """The gomoku modules a source file imports anywhere (top level or inside functions)."""
    package = "gomoku." + ".".join(path.relative_to(PACKAGE_DIR).with_suffix("").parts[:-1])
    package = package.rstrip(".")
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("gomoku")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            if mod.startswith("gomoku"):
                out.add(mod)
                # `from . import x` / `from .pkg import mod`: x may be a module
                out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def test_lookup_imports_nothing_that_imports_the_engine():
    """Static check of every import in gomoku.engine.book, lazy ones included, transitively."""
    seen, todo = set(), ["gomoku.engine.book"]
    while todo:
        mod = todo.pop()
        parts = mod.split(".")[1:]
        path = PACKAGE_DIR.joinpath(*parts).with_suffix(".py")
        if not path.is_file():
            path = PACKAGE_DIR.joinpath(*parts, "__init__.py")
        if mod in seen or not path.is_file():
            continue
        seen.add(mod)
        todo += sorted(_gomoku_imports(path))
    # the walk does follow imports
    assert "gomoku.core.rules" in seen and "gomoku.game.renju" in seen
    assert not seen & set(PLAY_TIME_FORBIDDEN), sorted(seen)


def test_check_command_passes_on_the_shipped_book(capsys):
    assert book_module.main(["check"]) == 0
    assert f"{BOOK_FILE} is valid and canonical" in capsys.readouterr().out


def test_check_command_refuses_a_book_out_of_canonical_order(tmp_path, capsys):
    lines = BOOK_FILE.read_text(encoding="utf-8").splitlines()
    body = [line for line in lines if line and not line.startswith("#")]
    shuffled = tmp_path / "book.txt"
    shuffled.write_text("\n".join(body[::-1]) + "\n", encoding="utf-8")
    assert book_module.main(["check", str(shuffled)]) == 1
    assert "not in canonical form" in capsys.readouterr().out


# -- builder pipeline ------------------------------------------------------------------


class NearestSearcher:
    """Stand-in for the engine: plays the empty cell closest to the stones' mean (ties by
    text order), score = its distance; reports "win" after a move on a marked cell."""

    def __init__(self, losing_cell=None):
        self.calls = 0
        self.losing_cell = losing_cell

    def search(self, moves, size, rule, time_ms):
        self.calls += 1
        if self.losing_cell is not None and moves and moves[-1] == self.losing_cell:
            return SearchOutcome((0, 0), 999_990, "win in 5", 3, 10, 1)
        if moves:
            mx = sum(x for x, _ in moves) / len(moves)
            my = sum(y for _, y in moves) / len(moves)
        else:
            mx = my = size // 2
        occ = set(moves)
        best = min(
            ((x, y) for x in range(size) for y in range(size) if (x, y) not in occ),
            key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p),
        )
        d = int(10 * ((best[0] - mx) ** 2 + (best[1] - my) ** 2))
        return SearchOutcome(best, -d, f"{-d / 100:+.1f}", 4, 100, 1)


def test_builder_answers_every_root_and_reuses_equivalent_positions(tmp_path: Path):
    searcher = NearestSearcher()
    book, stats = build_book(
        rules=[Rule.FREESTYLE],
        sizes=[15, 20],
        seconds=0.01,
        plies=4,
        check_seconds=0.01,
        searcher=searcher,
        refutes=lambda moves, size, rule, seconds: None,
    )
    assert stats.positions > 40 and stats.reused > 0 and not stats.rejected
    for size in (15, 20):
        c = size // 2
        assert book.lookup([], size, "freestyle").move == (c, c)
        assert book.lookup([(c, c)], size, "freestyle") is not None
        for m in second_move_roots(size):
            assert book.lookup(m, size, "freestyle") is not None
        for _, _, m in standard_openings(size):
            assert book.lookup(m, size, "freestyle") is not None
        cov = coverage(book, size, "freestyle")
        for name in ("move1", "move2", "move3", "move4"):
            assert cov[name][0] == cov[name][1] > 0, (size, name, cov)
    # the 20x20 pass searched only what the 15x15 entries could not answer
    assert sum(e.size == 20 for e in book.entries) < sum(e.size == 15 for e in book.entries)
    book.save(tmp_path / "b.txt")
    assert Book.load(tmp_path / "b.txt").dumps() == book.dumps()
    # extending a complete book searches nothing and adds nothing
    again, stats2 = build_book(
        rules=[Rule.FREESTYLE],
        sizes=[15, 20],
        seconds=0.01,
        plies=4,
        check_seconds=0.01,
        searcher=NearestSearcher(),
        start_from=book,
        refutes=lambda moves, size, rule, seconds: None,
    )
    assert stats2.searches == 0 and len(again) == len(book)


def test_builder_rejects_replies_that_lose():
    # the stand-in answers the centre stone with (6, 7) (nearest, first in order): mark it
    searcher = NearestSearcher(losing_cell=(6, 7))
    book, stats = build_book(
        rules=[Rule.STANDARD],
        sizes=[15],
        seconds=0.01,
        plies=2,
        check_seconds=0.01,
        alt_plies=0,
        searcher=searcher,
        refutes=lambda moves, size, rule, seconds: None,
    )
    assert stats.rejected == ["standard 15 h8 : g8"]
    assert book.lookup([(7, 7)], 15, "standard") is None
    assert book.lookup([], 15, "standard").move == (7, 7)


# -- the shipped book ------------------------------------------------------------------

needs_book = pytest.mark.skipif(not BOOK_FILE.is_file(), reason="no book shipped yet")


@needs_book
def test_default_book_is_the_shipped_file():
    book = default_book()
    assert len(book) > 0 and book.dumps() == BOOK_FILE.read_text()


@needs_book
@pytest.mark.parametrize("rule", ["freestyle", "standard"])
@pytest.mark.parametrize("size", [15, 16, 17, 18, 19, 20])
def test_shipped_book_answers_the_first_four_plies(rule: str, size: int):
    """Games that start at the centre: moves 1-4 (white 2 within distance 3, black 3 in the
    5x5) and move 5 along the book's own lines are all answered, with legal moves."""
    book = default_book()
    cov = coverage(book, size, rule)
    for name in ("move1", "move2", "move3", "move4", "move5"):
        assert cov[name][0] == cov[name][1] > 0, (name, cov[name])
    c = size // 2
    assert book.lookup([], size, rule).move == (c, c)
    for k in range(SYMMETRY_COUNT):
        for m in [m for _, _, m in standard_openings(size)]:
            moves = [transform(k, *p, size) for p in m]
            got = book.lookup(moves, size, rule, seed=k)
            assert got is not None, (rule, size, moves)
            assert got.move not in moves and 0 <= min(got.move) and max(got.move) < size


@needs_book
def test_shipped_book_entries_follow_symmetries():
    book = default_book()
    for e in book.entries[::3]:  # a third of the lines, spread over every rule and size
        for k in range(SYMMETRY_COUNT):
            moves, reply = images(e.moves, e.reply, e.size, k)
            cands = [c.move for c in book.candidates(moves, e.size, e.rule)]
            assert reply in cands


def test_threat_check_finds_a_forced_win_and_no_false_alarm():
    # black has an open three and is to move: a win by threats
    moves = [(6, 7), (0, 0), (7, 7), (0, 2), (8, 7), (0, 4)]
    assert threat_refutes(moves, 15, Rule.FREESTYLE, 1.0) is True
    # a quiet opening position: nothing forced
    assert threat_refutes([(7, 7), (7, 6), (8, 6)], 15, Rule.FREESTYLE, 0.2) is False
