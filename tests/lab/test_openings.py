"""Tests of the openings module: the fixed-node opening set and its generator."""

from __future__ import annotations

import random
from pathlib import Path

from gomoku.core.geometry import moves_from_text
from gomoku_lab import openings
from gomoku_lab.openings import (
    SPRT_OPENINGS,
    Verdict,
    draw_candidates,
    judge_opening,
    load_openings,
    position_key,
    random_opening,
)


def test_sprt_openings_file_is_large_distinct_and_near_the_centre() -> None:
    ops = load_openings(SPRT_OPENINGS, 15)
    assert len(ops) >= 1000  # a 2000-game match replays none
    assert len({position_key(op) for op in ops}) == len(ops)
    for op in ops:
        assert len(op) in (3, 4) and op[0] == (7, 7)
        assert all(max(abs(x - 7), abs(y - 7)) <= 3 for x, y in op)
    header = SPRT_OPENINGS.read_text().splitlines()[:8]
    assert any("python -m gomoku_lab.openings generate" in line for line in header)


def test_position_key_is_symmetry_and_translation_invariant() -> None:
    a = moves_from_text("h8 i9 j8", 15)
    mirrored = moves_from_text("h8 g9 f8", 15)
    shifted = moves_from_text("i9 j10 k9", 15)
    other_colours = moves_from_text("h8 j8 i9", 15)  # white and black stones swapped
    assert position_key(a) == position_key(mirrored) == position_key(shifted)
    assert position_key(a) != position_key(other_colours)


def test_random_openings_respect_radius_and_spread() -> None:
    rng = random.Random(2)
    for _ in range(200):
        op = random_opening(rng, 4, radius=2, spread=1)
        assert op[0] == (7, 7) and len(set(op)) == 4
        assert all(max(abs(x - 7), abs(y - 7)) <= 2 for x, y in op)
        for i in range(1, 4):
            assert any(max(abs(op[i][0] - a), abs(op[i][1] - b)) <= 1 for a, b in op[:i])
    drawn = draw_candidates(50, [3, 4], 3, 3, seed=9)
    assert len({position_key(op) for op in drawn}) == 50
    assert draw_candidates(50, [3, 4], 3, 3, seed=9) == drawn  # reproducible
    # a small space is exhausted rather than looped over forever
    assert len(draw_candidates(10_000, [2], 1, 1, seed=1)) == 2  # h8 + adjacent or diagonal


def test_judge_drops_a_decided_opening_and_keeps_a_quiet_one() -> None:
    # black to move with an open three: a VCF win, however small its score
    won = judge_opening(moves_from_text("h8 a1 i8 a2 j8 a3", 15), 400)
    assert won.source == "threat" and not won.balanced(10_000)
    quiet = judge_opening(moves_from_text("h8 i9 g7", 15), 400)
    assert quiet.source == "search" and quiet.nodes <= 401
    assert quiet.balanced(abs(quiet.black_score)) and not quiet.balanced(abs(quiet.black_score) - 1)
    # the verdict does not depend on what the judging engine searched before
    assert judge_opening(moves_from_text("h8 i9 g7", 15), 400) == quiet
    assert Verdict(((7, 7),), -120, "search", 3, 100).balanced(150)


def test_generate_writes_a_file_with_its_command(tmp_path: Path) -> None:
    out = tmp_path / "ops.txt"
    code = openings.main(
        ["generate", "--count", "4", "--candidates", "6", "--nodes", "200", "--out", str(out)]
    )
    text = out.read_text()
    kept = load_openings(out, 15)
    assert (code == 0) == (len(kept) == 4) and 1 <= len(kept) <= 4
    assert "generate --count 4 --candidates 6 --nodes 200" in text
    assert all(len(op) in (3, 4) for op in kept)
