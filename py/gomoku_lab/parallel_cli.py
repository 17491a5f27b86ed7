"""``python -m gomoku_lab.parallel_cli bench|think``: the benchmark of BENCHMARKS.md's "Parallel
search", or one search on N processes."""

from __future__ import annotations

import argparse
import json
import os
import sys

from gomoku.core.geometry import moves_from_text, to_text
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchInfo
from gomoku.parallel.driver import DEFAULT_SCHEME, SCHEMES, parallel_think
from gomoku.search.score import Score
from gomoku_lab.parallel_bench import bench


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.parallel_cli", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bench", help="time to a fixed depth (or a timed search), 1 vs N workers")
    b.add_argument("--depth", type=int, default=6)
    b.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    b.add_argument("--schemes", default="lazy", help="comma-separated: " + ",".join(SCHEMES))
    b.add_argument("--repeat", type=int, default=1)
    b.add_argument("--positions", default=None, help="comma-separated bench position indices")
    b.add_argument("--simulate", action="store_true", help="virtual time, one process")
    b.add_argument("--nps", type=float, default=None, help="simulate: nodes/s clock")
    b.add_argument("--latency", type=float, default=0.5, help="simulate: ms each way")
    b.add_argument("--time", type=float, default=None, help="ms per move instead of --depth")
    b.add_argument("--json", action="store_true", help="print one JSON line at the end")
    t = sub.add_parser("think", help="search one position")
    t.add_argument("moves", help='moves as text, e.g. "h8 i9 g9"')
    t.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    t.add_argument("--time", type=float, default=1000.0, help="soft time in ms")
    t.add_argument("--depth", type=int, default=None)
    t.add_argument("--scheme", default=DEFAULT_SCHEME, choices=list(SCHEMES))
    args = ap.parse_args(argv)
    # Worker processes re-run this module as __mp_main__ when it was started with -m;
    # runpy then warns that it is already imported. Harmless: keep their stderr quiet.
    os.environ.setdefault("PYTHONWARNINGS", "ignore::RuntimeWarning:runpy")
    if args.cmd == "bench":
        schemes = args.schemes.split(",")
        unknown = [s for s in schemes if s not in SCHEMES]
        if unknown:
            ap.error(f"unknown scheme {unknown[0]} (one of {', '.join(SCHEMES)})")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        what = f"depth {args.depth}" if args.time is None else f"{args.time:g} ms per move"
        if args.simulate:
            what += " (simulated)"
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {load:.1f}, {what}")
        summary = bench(
            args.depth,
            [int(x) for x in args.workers.split(",")],
            schemes,
            args.repeat,
            None if args.positions is None else [int(x) for x in args.positions.split(",")],
            simulated=args.simulate,
            nps=args.nps,
            latency=args.latency / 1000,
            time_ms=args.time,
        )
        if args.json:
            print(json.dumps(summary))
        return 0
    moves = moves_from_text(args.moves, 15)
    limits = Limits(time_ms=None if args.depth else args.time, depth=args.depth)

    def info(i: SearchInfo) -> None:
        score = Score.of(i.score).text()
        print(f"depth {i.depth} score {score} nodes {i.nodes} time {i.time_ms} ms")

    r = parallel_think(moves, limits=limits, workers=args.workers, scheme=args.scheme, on_info=info)
    print(f"move {to_text(*r.move, 15)} {r.to_dict()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
