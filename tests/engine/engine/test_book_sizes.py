"""The opening book on every board size the page offers (15..20): it answers on the board
or not at all, wherever a book shape sits."""

from __future__ import annotations

import json
import random

import pytest

from gomoku.core.geometry import SYMMETRY_COUNT, transform
from gomoku.engine.book import default_book
from gomoku.protocol import webapi

SIZES = range(15, 21)


def placements(moves, size, rng):
    """The book position `moves` moved onto a size x size board: into each corner, to the
    centre, and to two random places, each in some orientation."""
    out = []
    corners = [(0, 0), (1, 0), (0, 1), (1, 1)]
    spots = corners + [(0.5, 0.5), (rng.random(), rng.random()), (rng.random(), rng.random())]
    for i, (fx, fy) in enumerate(spots):
        k = i if i < 4 else rng.randrange(SYMMETRY_COUNT)
        pts = [transform(k, x, y, 20) for x, y in moves]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        if w >= size or h >= size:
            continue
        dx = round(fx * (size - 1 - w)) - min(xs)
        dy = round(fy * (size - 1 - h)) - min(ys)
        out.append([(x + dx, y + dy) for x, y in pts])
    return out


def test_book_answers_stay_on_the_board_and_off_the_stones():
    book = default_book()
    if not book.entries:
        pytest.skip("no opening book shipped")
    rng = random.Random(14)
    positions = sorted({(e.rule, e.moves) for e in book.entries if e.moves})
    answered = 0
    for rule, moves in positions:
        for size in SIZES:
            for placed in placements(moves, size, rng):
                for c in book.candidates(placed, size, rule):
                    x, y = c.move
                    assert 0 <= x < size and 0 <= y < size, (rule, size, placed, c)
                    assert c.move not in placed, (rule, size, placed, c)
                    answered += 1
    assert answered > 1000  # the check saw real answers, not only silence


@pytest.mark.parametrize("size", SIZES)
def test_worker_think_with_the_book_answers_on_the_board(size):
    """Through the worker's message handler: a first move in the top left corner and one at
    the centre, each answered with a point of this board."""
    c = size // 2
    for moves in ([[0, 0]], [[c, c]], [[size - 1, size - 1], [c, c]]):
        message = {
            "type": "think",
            "id": 1,
            "size": size,
            "moves": moves,
            "limits": {"timeMs": 150},
        }
        reply = json.loads(webapi.handle_json(json.dumps(message)))
        assert reply["type"] == "result", reply
        x, y = reply["move"]
        assert 0 <= x < size and 0 <= y < size and [x, y] not in moves, (size, moves, reply)
