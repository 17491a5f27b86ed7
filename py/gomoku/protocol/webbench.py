"""The web worker's benchmark message (gomoku.bench), so that Pyodide and CPython can be
compared:

    {type: "bench", id, what: "core" | "search" | "threats" | "multipv" | "interp",
     seconds?, depth?, lines?}
        -> {type: "bench", id, what, results, lines}   (gomoku.bench, for CPython/Pyodide;
           "multipv": bench_multipv(depth, lines), a multi-PV search of `lines` best moves
           against a plain one to the same depth, default depth 6, 3 lines; "interp":
           gomoku.bench_interp, ns per interpreter primitive)
"""

from __future__ import annotations

from gomoku.bench import bench_core, bench_multipv, bench_search, bench_threats
from gomoku.bench_interp import bench_interp
from gomoku.engine import MAX_MULTIPV
from gomoku.protocol.webjson import (
    REQUEST_KEYS,
    BadMessage,
    Message,
    camel_keys,
    check_keys,
    is_int,
    is_number,
    jsonable,
)


def bench(message: Message, mid: str | int) -> Message:
    """Run the benchmark the message asks for."""
    check_keys(message, REQUEST_KEYS["bench"], "bench")
    what = message.get("what", "search")
    if what not in ("core", "search", "threats", "multipv", "interp"):
        raise BadMessage(
            f"bench.what must be 'core', 'search', 'threats', 'multipv' or 'interp', got {what!r}"
        )
    seconds = message.get("seconds", 1.0)
    if not is_number(seconds) or not 0.01 <= seconds <= 30:
        raise BadMessage(f"bench.seconds must be a number in [0.01, 30], got {seconds!r}")
    # depth: the node signature's search depth, or for threats the VCT depth
    # (multipv: the depth of both searches)
    most = {"threats": 8, "multipv": 7}.get(what, 6)
    depth = message.get("depth", {"threats": 7, "multipv": 6}.get(what, 4))
    if not is_int(depth) or not 1 <= depth <= most:
        raise BadMessage(f"bench.depth must be an integer in 1..{most}, got {depth!r}")
    if "lines" in message and what != "multipv":
        raise BadMessage(f"bench.lines is for what 'multipv' only, not {what!r}")
    n_lines = message.get("lines", 3)
    if not is_int(n_lines) or not 2 <= n_lines <= MAX_MULTIPV:
        raise BadMessage(f"bench.lines must be an integer in 2..{MAX_MULTIPV}, got {n_lines!r}")
    lines: list[str] = []
    if what == "core":
        results = bench_core(float(seconds), out=lines.append)
    elif what == "threats":
        results = bench_threats(depth, out=lines.append)
    elif what == "multipv":
        results = bench_multipv(depth, n_lines, out=lines.append)
    elif what == "interp":
        results = bench_interp(out=lines.append)
    else:
        results = bench_search(float(seconds), depth, out=lines.append)
    return {
        "type": "bench",
        "id": mid,
        "what": what,
        "results": camel_keys(jsonable(results)),  # gomoku.bench's records, keys camelCase
        "lines": lines,
    }
