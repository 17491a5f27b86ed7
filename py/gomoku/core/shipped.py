"""Tables the engine builds on first use, built ahead of time and shipped as package data.

A web worker's start-up spends most of its warm-up building the same tables every time
(the Zobrist keys, the board's layout and its empty position, the opening book's index):
pure functions of the engine's code and data. The site's build computes them once
(``python -m gomoku.engine.warmup --write``, run by build.py before it packs the wheel)
into ``gomoku/data/prebuilt-<name>.pkl``; at run time ``load`` returns a table when its
file is there and was built from the same inputs, and None otherwise, in which case the
module builds it as it always did (a checkout without a build, another board size).

A file is a pickle of ``(FORMAT, name, inputs, value)``: ``inputs`` a string naming what
the table was built from (a version, the sizes, a digest of a data file), ``value`` plain
Python data (tuples, lists, ints, strings, bytes, frozensets, slices), never code or class
instances. Only the package's own files are read. tests/engine/engine/test_shipped.py compares every
table with its generator.
"""

from __future__ import annotations

import pickle
import zlib
from pathlib import Path
from typing import Any

FORMAT = 1
PREFIX = "prebuilt-"
SUFFIX = ".pkl"

DATA = Path(__file__).resolve().parents[1] / "data"  # the package's data folder
# Where load() reads from: DATA, or a folder a test points it at. (A path, not
# importlib.resources: its readers are modules a worker's start-up would compile.)
_folder = DATA


def file_name(name: str) -> str:
    return f"{PREFIX}{name}{SUFFIX}"


def read_from(folder: Path | None) -> None:
    """Read tables from ``folder`` instead of the package data (None: the package's again).
    For tests and the generator's checks."""
    global _folder
    _folder = DATA if folder is None else folder


def load(name: str, inputs: str) -> Any | None:
    """The shipped table ``name`` when it exists and was built from ``inputs``; None
    otherwise (missing, built from other inputs, or unreadable)."""
    try:
        data = (_folder / file_name(name)).read_bytes()
    except OSError:
        return None
    try:
        fmt, stored_name, stored_inputs, value = pickle.loads(data)
    except Exception:  # a damaged file: build the table instead
        return None
    if fmt != FORMAT or stored_name != name or stored_inputs != inputs:
        return None
    return value


def dumps(name: str, inputs: str, value: Any) -> bytes:
    """The file's bytes for table ``name`` built from ``inputs``."""
    return pickle.dumps((FORMAT, name, inputs, value), protocol=5)


def digest(text: bytes) -> str:
    """A short digest of a data file's bytes, for ``inputs`` (CRC-32 and the length: to
    tell an edited file, not to resist a forged one; zlib is built in, hashlib is not)."""
    return f"{zlib.crc32(text):08x}-{len(text)}"
