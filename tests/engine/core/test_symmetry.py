"""symmetry.py: canonical forms against slow obvious implementations, board symmetries of
positions, and the removal of symmetric duplicate moves."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gomoku.core.geometry import SYMMETRY_COUNT, transform
from gomoku.core.symmetry import (
    EDGE_MARGIN,
    canonical,
    edge_distance,
    far_from_edge,
    position_symmetries,
    split_moves,
    unique_moves,
)


def random_position(rng: random.Random, size: int, n: int, spread: int | None = None):
    """n distinct stones (black first) near a random anchor, as a move list."""
    spread = spread or size
    ax = rng.randrange(size - min(spread, size) + 1)
    ay = rng.randrange(size - min(spread, size) + 1)
    cells = [(ax + x, ay + y) for x in range(min(spread, size)) for y in range(min(spread, size))]
    return rng.sample(cells, n)


def slow_relative_key(black, white, size):
    """Minimum over the 8 transforms x every translation that keeps all coordinates >= 0 of
    the (sorted black, sorted white) pair: the obvious definition, no bounding box. (Shifts
    towards larger coordinates only make the tuples larger, so dx, dy <= 0 is enough.)"""
    best = None
    for k in range(SYMMETRY_COUNT):
        tb = [transform(k, x, y, size) for x, y in black]
        tw = [transform(k, x, y, size) for x, y in white]
        for dx in range(-size, 1):
            for dy in range(-size, 1):
                sb = [(x + dx, y + dy) for x, y in tb]
                sw = [(x + dx, y + dy) for x, y in tw]
                if any(x < 0 or y < 0 for x, y in sb + sw):
                    continue
                cand = (tuple(sorted(sb)), tuple(sorted(sw)))
                if best is None or cand < best:
                    best = cand
    return best


def grid(black, white, size):
    g = np.zeros((size, size), dtype=np.int8)
    for x, y in black:
        g[y, x] = 1
    for x, y in white:
        g[y, x] = 2
    return g


def grid_images(g):
    """All 8 images of a board array by numpy rotations/flips (independent of geometry.py)."""
    out = []
    for a in (g, np.fliplr(g)):
        for r in range(4):
            out.append(np.rot90(a, r))
    return out


def test_relative_key_matches_slow_definition():
    rng = random.Random(1)
    for _ in range(60):
        size = rng.randrange(15, 21)
        n = rng.randrange(1, 7)
        moves = random_position(rng, size, n, spread=rng.choice([3, 5, 8]))
        black, white = split_moves(moves)
        c = canonical(black, white, size, translate=True)
        assert c.key[0] == "rel"
        assert c.key[2:] == slow_relative_key(black, white, size)


def test_absolute_key_is_the_minimum_over_the_board_images():
    """The absolute key equals the smallest stone-list pair over the 8 numpy images of the
    board (stones read back from each image), and identifies exactly the board images."""
    rng = random.Random(2)
    for _ in range(60):
        size = rng.randrange(15, 21)
        moves = random_position(rng, size, rng.randrange(0, 8))
        black, white = split_moves(moves)
        c = canonical(black, white, size, translate=False)
        pairs = []
        for img in grid_images(grid(black, white, size)):
            ys, xs = np.nonzero(img == 1)
            b = tuple(sorted(zip(xs.tolist(), ys.tolist(), strict=True)))
            ys, xs = np.nonzero(img == 2)
            w = tuple(sorted(zip(xs.tolist(), ys.tolist(), strict=True)))
            pairs.append((b, w))
        assert c.key == ("abs", size, 1 if len(black) == len(white) else 2, *min(pairs))


def test_keys_invariant_under_symmetry_and_translation():
    rng = random.Random(3)
    for _ in range(80):
        size = rng.randrange(15, 21)
        moves = random_position(rng, size, rng.randrange(1, 7), spread=5)
        black, white = split_moves(moves)
        rel = canonical(black, white, size, translate=True).key
        ab = canonical(black, white, size, translate=False).key
        for k in range(SYMMETRY_COUNT):
            tb = [transform(k, x, y, size) for x, y in black]
            tw = [transform(k, x, y, size) for x, y in white]
            assert canonical(tb, tw, size, translate=False).key == ab
            # translated, possibly off the board and onto another size: same relative key
            dx, dy = rng.randrange(-9, 10), rng.randrange(-9, 10)
            other = rng.randrange(15, 21)
            sb = [(x + dx, y + dy) for x, y in tb]
            sw = [(x + dx, y + dy) for x, y in tw]
            assert canonical(sb, sw, other, translate=True).key == rel


def test_different_positions_get_different_keys():
    """Keys equal <=> related by a board symmetry (absolute) / a symmetry + shift (relative)."""
    rng = random.Random(4)
    size = 15
    for _ in range(70):
        m1 = random_position(rng, size, 3, spread=4)
        m2 = random_position(rng, size, 3, spread=4)
        b1, w1 = split_moves(m1)
        b2, w2 = split_moves(m2)
        related_abs = any(
            {transform(k, *p, size) for p in b1} == set(b2)
            and {transform(k, *p, size) for p in w1} == set(w2)
            for k in range(8)
        )
        same_abs = (
            canonical(b1, w1, size, translate=False).key
            == canonical(b2, w2, size, translate=False).key
        )
        assert same_abs == related_abs
        assert (
            canonical(b1, w1, size, translate=True).key
            == canonical(b2, w2, size, translate=True).key
        ) == (slow_relative_key(b1, w1, size) == slow_relative_key(b2, w2, size))


def test_frames_map_points_back_and_forth():
    rng = random.Random(5)
    for _ in range(50):
        size = rng.randrange(15, 21)
        moves = random_position(rng, size, rng.randrange(0, 6), spread=6)
        black, white = split_moves(moves)
        for translate in (False, True):
            c = canonical(black, white, size, translate=translate)
            # every frame maps the position onto the key
            for k, (dx, dy) in c.frames:
                tb = sorted(
                    (transform(k, *p, size)[0] - dx, transform(k, *p, size)[1] - dy) for p in black
                )
                assert tuple(tb) == c.key[-2]
            for _ in range(10):
                p = (rng.randrange(-3, size + 3), rng.randrange(-3, size + 3))
                assert c.from_frame(*c.to_frame(*p)) == p


def test_stored_reply_follows_the_position():
    """A reply stored in the canonical frame of a position comes back, for a transformed and
    shifted copy, as the correspondingly transformed and shifted reply (up to the position's
    own symmetries, all of which from_frame_all lists)."""
    rng = random.Random(6)
    for _ in range(60):
        size = 20
        moves = random_position(rng, 9, rng.randrange(1, 5))  # inside 0..8
        moves = [(x + 5, y + 5) for x, y in moves]
        reply = (rng.randrange(5, 14), rng.randrange(5, 14))
        if reply in moves:
            continue
        black, white = split_moves(moves)
        c = canonical(black, white, size, translate=True)
        stored = c.to_frame(*reply)
        for k in range(SYMMETRY_COUNT):
            dx, dy = rng.randrange(-3, 4), rng.randrange(-3, 4)

            def move(p, k=k, dx=dx, dy=dy, size=size):
                x, y = transform(k, *p, size)
                return x + dx, y + dy

            c2 = canonical([move(p) for p in black], [move(p) for p in white], size, True)
            assert c2.key == c.key
            back = c2.from_frame_all(*stored)
            assert move(reply) in back
            # the other answers are images of the expected one under a symmetry of the shape
            for q in back:
                assert (
                    canonical(
                        [move(p) for p in black] + [q],
                        [move(p) for p in white],
                        size,
                        True,
                        side_to_move=c.key[1],
                    ).key
                    == canonical(
                        [move(p) for p in black] + [move(reply)],
                        [move(p) for p in white],
                        size,
                        True,
                        side_to_move=c.key[1],
                    ).key
                )


def test_empty_position_frame_is_the_centre():
    for size in range(15, 21):
        c = canonical([], [], size, translate=True)
        assert c.from_frame_all(0, 0) == [(size // 2, size // 2)]


def test_edge_margin_boundary():
    assert EDGE_MARGIN == 5
    size = 15
    assert far_from_edge([(5, 5), (9, 9)], size)
    for p in [(4, 7), (7, 4), (10, 7), (7, 10)]:
        assert edge_distance(*p, size) == 4
        assert not far_from_edge([(7, 7), p], size)
    assert far_from_edge([], size)
    assert far_from_edge([(14, 14)], 20)


def brute_symmetries(black, white, size):
    """k's whose numpy image of the board equals the board (all cells, empty ones included),
    matched to geometry's numbering by the image of a marker point."""
    g = grid(black, white, size)
    out = []
    for k in range(SYMMETRY_COUNT):
        # build the image of g under transform k cell by cell
        img = np.zeros_like(g)
        for y in range(size):
            for x in range(size):
                tx, ty = transform(k, x, y, size)
                img[ty, tx] = g[y, x]
        if np.array_equal(img, g):
            out.append(k)
    # the numpy images agree as a set (independent check of the count)
    n_np = sum(np.array_equal(a, g) for a in grid_images(g))
    assert n_np == len(out)
    return out


def symmetric_position(rng: random.Random, size: int):
    """A random position made symmetric under the group generated by one or two random k's."""
    gens = rng.sample(range(1, 8), rng.choice([1, 1, 2]))
    group = {0}
    while True:
        new = {g for g in group}
        for a in list(group):
            for b in gens:
                # compose by acting on points: find k equal to b after a
                for k in range(8):
                    if all(
                        transform(k, x, y, size) == transform(b, *transform(a, x, y, size), size)
                        for x, y in [(0, 1), (2, 5)]
                    ):
                        new.add(k)
        if new == group:
            break
        group = new
    black, white = set(), set()
    for _ in range(rng.randrange(1, 4)):
        base = (rng.randrange(size), rng.randrange(size))
        target = black if rng.random() < 0.5 else white
        orbit = {transform(k, *base, size) for k in group}
        if orbit & (black | white):
            continue
        target |= orbit
    return sorted(black), sorted(white)


def test_position_symmetries_against_brute_force():
    rng = random.Random(7)
    seen_symmetric = 0
    for i in range(80):
        size = rng.randrange(15, 21)
        if i % 2:
            black, white = symmetric_position(rng, size)
        else:
            black, white = split_moves(random_position(rng, size, rng.randrange(0, 6)))
        got = position_symmetries(black, white, size)
        assert got == brute_symmetries(black, white, size)
        seen_symmetric += len(got) > 1
    assert seen_symmetric >= 30


def test_unique_moves_against_brute_force():
    rng = random.Random(8)
    symmetric_cases = 0
    for i in range(60):
        size = rng.randrange(15, 21)
        if i % 2:
            black, white = symmetric_position(rng, size)
        else:
            black, white = split_moves(random_position(rng, size, rng.randrange(1, 6), spread=6))
        occupied = set(black) | set(white)
        moves = [(x, y) for y in range(size) for x in range(size) if (x, y) not in occupied]
        rng.shuffle(moves)
        moves = moves[:60]
        out = unique_moves(moves, black, white, size)
        syms = brute_symmetries(black, white, size)

        def equivalent(p, q, syms=syms, size=size):
            return any(transform(k, *p, size) == q for k in syms)

        if syms == [0]:
            assert out == moves  # nothing dropped when the position is not symmetric
            continue
        symmetric_cases += 1
        # order kept: out is a subsequence of moves
        it = iter(moves)
        assert all(m in it for m in out)
        # no two kept moves are equivalent; every dropped move is equivalent to an earlier kept
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                assert not equivalent(out[a], out[b])
        for idx, m in enumerate(moves):
            if m not in out:
                assert any(equivalent(m, q) for q in out if moves.index(q) < idx)
    assert symmetric_cases >= 20


def test_unique_moves_centre_stone():
    size = 15
    around = [(x, y) for y in range(6, 9) for x in range(6, 9) if (x, y) != (7, 7)]
    out = unique_moves(around, [(7, 7)], [], size)
    assert len(out) == 2  # one direct and one diagonal neighbour
    # off every axis and diagonal of the board the stone's own symmetry is not a board
    # symmetry: nothing is dropped
    around = [(x + 2, y - 1) for x, y in around]
    assert position_symmetries([(9, 6)], [], size) == [0]
    assert unique_moves(around, [(9, 6)], [], size) == around
    # on the horizontal middle line one mirror remains: 8 neighbours fall into 5 classes
    around = [
        (x + 1, y) for x, y in [(6, 6), (7, 6), (8, 6), (6, 7), (8, 7), (6, 8), (7, 8), (8, 8)]
    ]
    assert len(position_symmetries([(8, 7)], [], size)) == 2
    assert len(unique_moves(around, [(8, 7)], [], size)) == 5


def test_duplicate_stone_rejected():
    with pytest.raises(ValueError):
        canonical([(1, 1)], [(1, 1)], 15, translate=False)
