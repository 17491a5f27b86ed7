"""Fixed-seed Zobrist keys: the same 64-bit numbers on every run and machine.

The keys of the default board's layouts are shipped (gomoku.core.shipped): reading them
spares a web worker's start-up numpy's random module, which it needs for nothing else."""

from __future__ import annotations

from functools import cache

from gomoku.core import shipped

ZOBRIST_SEED = 0x60_4D_0C_5EED


def shipped_name(cells: int) -> tuple[str, str]:
    """The shipped table's name and inputs for ``cells`` cell indices."""
    return f"zobrist-{cells}", f"pcg64:{ZOBRIST_SEED}:{cells}"


def build_keys(cells: int) -> tuple[list[int], list[int], int]:
    """The keys, computed: numpy's PCG64 from ZOBRIST_SEED."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(ZOBRIST_SEED))
    table = rng.integers(1, 2**63, size=(2, cells), dtype=np.int64)
    side = int(rng.integers(1, 2**63, dtype=np.int64))
    return table[0].tolist(), table[1].tolist(), side


@cache
def zobrist_keys(cells: int) -> tuple[list[int], list[int], int]:
    """(black keys, white keys, side-to-move key) for ``cells`` cell indices: the shipped
    table when there is one, else computed (the same numbers)."""
    value = shipped.load(*shipped_name(cells))
    if value is not None:
        black, white, side = value
        return list(black), list(white), side
    return build_keys(cells)
