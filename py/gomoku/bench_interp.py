"""Interpreter primitives of the engine's hot loops, in nanoseconds per operation.

``python -m gomoku.bench interp`` here, and the web worker's bench message (``what:
"interp"``) in Pyodide: ``scripts/bench_web.py`` prints the two side by side. They tell
how much slower WebAssembly CPython runs each kind of operation the search is made of
(``Board.make``'s update loop is tuple unpacking, list indexing and big-integer sums;
``movegen.generate`` is a dictionary look-up and a list append per candidate; the TT is
a list of tuples). If one kind were much slower than the rest, the hot loops could
avoid it; if all are alike, the search's ratio is the interpreter's.

Each operation runs in a loop of ``LOOP`` iterations, timed by the best of a few rounds
of wall-clock time (cpu_clock would not advance under Pyodide); the cost of the bare
loop is measured apart (``loop``) and not subtracted, so every figure includes one loop
iteration.
"""

from __future__ import annotations

import time
from collections.abc import Callable

LOOP = 200_000
ROUNDS = 3


def _loop(n: int) -> None:
    for _ in range(n):
        pass


def _int_add(n: int) -> None:
    x = 0
    for i in range(n):
        x += i


def _list_index(n: int) -> None:
    a = [0] * 1024
    for i in range(n):
        j = i & 511
        a[j] = a[j + 1] + 1


def _tuple_unpack(n: int) -> None:
    updates = tuple((i, i + 1, i + 2) for i in range(64))
    k = 0
    for _ in range(n // 64):
        for _q, _i, a in updates:
            k += a


def _dict_get(n: int) -> None:
    d = {i * 7919 + (1 << 40): i for i in range(4096)}
    s = 0
    for i in range(n):
        s += d.get((i & 4095) * 7919 + (1 << 40), 0)


def _set_add_discard(n: int) -> None:
    s: set[int] = set()
    for i in range(n):
        s.add(i & 255)
        s.discard((i + 128) & 255)


def _list_append_pop(n: int) -> None:
    a: list[int] = []
    for i in range(n):
        a.append(i)
    for _ in range(n):
        a.pop()


def _big_int_add(n: int) -> None:
    x = (1 << 320) - 12345
    y = (1 << 250) + 99
    for _ in range(n):
        x = x + y - y


def _sort_40(n: int) -> None:
    base = [(i * 7919) % 1000 for i in range(40)]
    for _ in range(n // 40):
        b = base[:]
        b.sort(reverse=True)


def _call(n: int) -> None:
    def f(a: int, b: int) -> int:
        return a + b

    s = 0
    for i in range(n):
        s = f(s, i)


class _Holder:
    def __init__(self) -> None:
        self.value = 5

    def shifted(self, a: int) -> int:
        return (self.value >> a) & 7


def _method_call(n: int) -> None:
    h = _Holder()
    s = 0
    for i in range(n):
        s += h.shifted(i & 3)


def _attribute(n: int) -> None:
    h = _Holder()
    for _ in range(n):
        h.value = h.value + 1


OPERATIONS: dict[str, Callable[[int], None]] = {
    "loop": _loop,
    "int add": _int_add,
    "list index": _list_index,
    "tuple unpack": _tuple_unpack,
    "dict get": _dict_get,
    "set add+discard": _set_add_discard,
    "list append, pop": _list_append_pop,
    "big int add": _big_int_add,
    "sort 40 ints": _sort_40,
    "function call": _call,
    "method call": _method_call,
    "attribute": _attribute,
}


def bench_interp(loop: int = LOOP, out: Callable[[str], None] = print) -> dict[str, float]:
    """Nanoseconds per iteration of each operation's loop (best of ROUNDS)."""
    results: dict[str, float] = {}
    for name, fn in OPERATIONS.items():
        fn(loop // 10)  # warm up (WebAssembly tiers up, caches fill)
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.perf_counter()
            fn(loop)
            best = min(best, time.perf_counter() - start)
        results[name] = round(best * 1e9 / loop, 1)
        out(f"{name:18s} {results[name]:8.1f} ns")
    return results
