"""The engine's warm-up tables built ahead of time (gomoku.engine.warmup, read through
gomoku.core.shipped): each equal to what its generator computes, read only when built
from the same inputs, a damaged or stale file ignored, and the package's own files (a
build writes them) current."""

from __future__ import annotations

from pathlib import Path

import pytest

from gomoku.core import shipped
from gomoku.core.rules import Rule
from gomoku.core.zobrist import build_keys, zobrist_keys
from gomoku.engine import book as book_module
from gomoku.engine.book import Book, book_shipped_name, default_book
from gomoku.engine.warmup import check, tables, write
from gomoku.game import board as board_module
from gomoku.game.board import Board, layout, layout_parts

DATA = Path(board_module.__file__).resolve().parents[1] / "data"


def _clear() -> None:
    zobrist_keys.cache_clear()
    layout.cache_clear()
    default_book.cache_clear()
    board_module._EMPTY_STATE.clear()


@pytest.fixture
def folder(tmp_path):
    """The tables written into a folder, which the engine then reads them from."""
    write(tmp_path)
    shipped.read_from(tmp_path)
    _clear()
    yield tmp_path
    shipped.read_from(None)
    _clear()


@pytest.fixture
def nothing_shipped(tmp_path):
    """An empty folder: every table computed."""
    shipped.read_from(tmp_path)
    _clear()
    yield
    shipped.read_from(None)
    _clear()


def test_every_table_is_written_and_read_back_equal(folder) -> None:
    assert check(folder) == []
    names = {p.name for p in folder.iterdir()}
    assert {"prebuilt-book.pkl", "prebuilt-layout-15-4.pkl", "prebuilt-zobrist-529.pkl"} <= names


def test_the_engine_s_tables_from_the_files_equal_the_computed_ones(folder) -> None:
    # freestyle's layout is read from its file; standard's and renju's are built (their
    # Zobrist keys read): all equal to a build from nothing
    read = {rule: layout(15, rule) for rule in Rule}
    keys = zobrist_keys(read[Rule.FREESTYLE].cells)
    book = default_book()
    shipped.read_from(folder / "nowhere")  # nothing to read: computed
    _clear()
    for rule in Rule:
        assert layout(15, rule) == read[rule]
    assert zobrist_keys(read[Rule.FREESTYLE].cells) == keys == build_keys(529)
    computed = default_book()
    assert computed.to_plain() == book.to_plain()
    # and the same answers: every position of the book looked up in both
    for e in computed.entries:
        assert book.candidates(e.moves, e.size, e.rule) == computed.candidates(
            e.moves, e.size, e.rule
        )


def test_a_board_from_shipped_tables_plays_as_a_computed_one(folder) -> None:
    moves = [(7, 7), (8, 8), (7, 8), (9, 9), (7, 9), (6, 6)]
    a = Board.from_moves(moves, 15, Rule.STANDARD)
    shipped.read_from(folder / "nowhere")
    _clear()
    b = Board.from_moves(moves, 15, Rule.STANDARD)
    assert (a.hash, a.keys, a.summary, a.packed) == (b.hash, b.keys, b.summary, b.packed)


def test_a_table_built_from_other_inputs_or_damaged_is_not_read(tmp_path, nothing_shipped) -> None:
    name, inputs = book_shipped_name()
    (tmp_path / shipped.file_name(name)).write_bytes(
        shipped.dumps(name, inputs + "-old", Book().to_plain())
    )
    assert shipped.load(name, inputs) is None
    assert len(default_book()) > 0  # computed from the file instead
    lay_name, lay_inputs = board_module.layout_shipped_name(15, 4)
    (tmp_path / shipped.file_name(lay_name)).write_bytes(b"not a pickle")
    assert shipped.load(lay_name, lay_inputs) is None
    assert layout(15, Rule.FREESTYLE).onboard == layout_parts(15, 4)[0]


def test_the_book_s_plain_form_reads_back_to_the_same_book() -> None:
    book = Book.load()
    again = Book.from_plain(book.to_plain())
    assert again.to_plain() == book.to_plain()
    assert again.entries == book.entries and len(again) == len(book) > 0


def test_the_package_s_own_tables_are_current_when_a_build_wrote_them() -> None:
    present = sorted(DATA.glob("prebuilt-*"))
    if not present:
        pytest.skip("no warm-up tables in py/gomoku/data (python build.py writes them)")
    assert check(DATA) == []
    assert {shipped.file_name(n) for n in tables()} == {p.name for p in present}


def test_the_book_table_follows_the_book_file(monkeypatch, tmp_path) -> None:
    copy = tmp_path / "book.txt"
    copy.write_bytes(book_module.BOOK_FILE.read_bytes())
    monkeypatch.setattr(book_module, "BOOK_FILE", copy)
    before = book_shipped_name()
    copy.write_text(copy.read_text() + "# one more comment\n")
    assert book_shipped_name()[1] != before[1]  # an edited book is not read from the table
