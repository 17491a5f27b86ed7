"""Fixed-seed Zobrist keys: the same 64-bit numbers on every run and machine."""

from __future__ import annotations

from functools import cache

import numpy as np

ZOBRIST_SEED = 0x60_4D_0C_5EED


@cache
def zobrist_keys(cells: int) -> tuple[list[int], list[int], int]:
    """(black keys, white keys, side-to-move key) for ``cells`` cell indices."""
    rng = np.random.Generator(np.random.PCG64(ZOBRIST_SEED))
    table = rng.integers(1, 2**63, size=(2, cells), dtype=np.int64)
    side = int(rng.integers(1, 2**63, dtype=np.int64))
    return table[0].tolist(), table[1].tolist(), side
