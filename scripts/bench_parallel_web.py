#!/usr/bin/env python3
"""Benchmark the page's parallel search: time to a fixed depth, 1 vs 2 workers, in
headless Chromium.

    python scripts/bench_parallel_web.py [--depth 6] [--positions 0,1,...] [--threads 2]
                                         [--scheme ybw]

Builds dist/ first (--no-build: use it as it is) and needs Chromium at /usr/bin/chromium.
Opens the page with ?test=1&threads=N and, once the N search workers are ready, runs on
gomoku.bench's BENCH_POSITIONS (as `python -m gomoku.parallel bench` does: book and
threat search off, fresh transposition tables, a depth limit only):

- 1 worker: a think in the engine worker (Engine.think in one Pyodide), the page's
  single-worker path;
- N workers: the same think through the page's parallel path (web/parallel-client.js:
  coordinator in the engine worker, N search workers, the page relaying messages), under
  ``--scheme`` (default "ybw", the scheme that splits one search; the page's default,
  "lazy", gains nothing at a fixed depth by design: see gomoku/parallel/lazy.py).

Times are the page's (performance.now around the request). The order of the two
alternates per position, so that a change of machine load hits them alike. One warm-up
search on each path first (WebAssembly tiers up). Prints one line per position and the
totals: speedup = ratio of total times, geomean = geometric mean of per-position ratios.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (scripts/ is on sys.path)

import build  # noqa: E402
from gomoku.bench import BENCH_POSITIONS  # noqa: E402
from gomoku.geometry import moves_from_text, to_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--positions", default=None, help="comma-separated BENCH_POSITIONS indices")
    ap.add_argument("--threads", type=int, default=2, help="search workers of the parallel path")
    ap.add_argument("--scheme", default="ybw", help="the parallel path's scheme (lazy, ybw)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--json", action="store_true", help="print one JSON line at the end")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    dist = ROOT / "dist"
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "build.py")], check=True, cwd=ROOT)
    server = build.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?test=1&threads={args.threads}"
    idx = (
        [int(i) for i in args.positions.split(",")]
        if args.positions
        else list(range(len(BENCH_POSITIONS)))
    )
    limits = {"depth": args.depth, "book": False, "threats": False}
    n = args.threads
    load0 = os.getloadavg()[0]
    times = {1: 0.0, n: 0.0}
    nodes = {1: 0, n: 0}
    logs = 0.0
    same = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
        )
        page = browser.new_page()
        page.goto(url)
        page.evaluate("localStorage.clear()")
        page.goto(url)
        t = time.time()
        page.wait_for_function(
            "n => document.querySelector('#board').dataset.workers === String(n)",
            arg=n,
            timeout=300_000,
        )
        version = page.evaluate("navigator.userAgent.match(/Chrome\\/[\\d.]+/)[0]")
        print(
            f"{version}, {os.cpu_count()} cpus, load {load0:.1f}, depth {args.depth}, "
            f"1 vs {n} workers ({args.scheme}); page ready with {n} search workers in "
            f"{time.time() - t:.1f} s"
        )

        def run(workers: int, moves: list) -> dict:
            hook = "single" if workers == 1 else "think"
            r = page.evaluate(
                f"([m, l, s]) => window.gomokuParallel.{hook}(m, l, 600000, s)",
                [moves, limits, args.scheme],
            )
            if r["reply"].get("type") != "result":
                raise SystemExit(f"no result: {r['reply']}")
            if workers > 1 and (r["stats"]["fallbacks"] or r["stats"]["failures"]):
                raise SystemExit(f"the parallel path failed: {r['stats']}")
            return r

        warm = [list(m) for m in moves_from_text(BENCH_POSITIONS[0], 15)]
        for w in (1, n):
            run(w, warm)
        for k, i in enumerate(idx):
            moves = [list(m) for m in moves_from_text(BENCH_POSITIONS[i], 15)]
            got = {}
            for w in (1, n) if k % 2 == 0 else (n, 1):
                got[w] = run(w, moves)
            cells = []
            for w in (1, n):
                r = got[w]
                rep = r["reply"]
                times[w] += r["ms"] / 1000
                nodes[w] += rep["nodes"]
                star = "" if rep["move"] == got[1]["reply"]["move"] else "*"
                cells.append(
                    f"{w}w {r['ms'] / 1000:6.2f}s {rep['nodes']:6d}n d{rep['depth']} "
                    f"{to_text(*rep['move'], 15)}{star} {rep['score_text']}"
                )
            logs += math.log(got[1]["ms"] / got[n]["ms"])
            same += got[1]["reply"]["move"] == got[n]["reply"]["move"]
            print(f"pos {i}: " + "   ".join(cells), flush=True)
        stats = page.evaluate("window.gomokuParallel.stats()")
        browser.close()
    server.shutdown()
    speedup = times[1] / times[n]
    geomean = math.exp(logs / len(idx))
    load1 = os.getloadavg()[0]
    print(f"1w    total {times[1]:7.2f} s  nodes {nodes[1]:8d}")
    print(
        f"{n}w    total {times[n]:7.2f} s  nodes {nodes[n]:8d}  speedup x{speedup:.2f} "
        f"(geomean x{geomean:.2f})  nodes x{nodes[n] / nodes[1]:.2f}  "
        f"same move {same}/{len(idx)}  (load at the end {load1:.1f}; page stats {stats})"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "depth": args.depth,
                    "threads": n,
                    "seconds_1w": round(times[1], 2),
                    f"seconds_{n}w": round(times[n], 2),
                    "speedup": round(speedup, 2),
                    "geomean_speedup": round(geomean, 2),
                    "same_move": f"{same}/{len(idx)}",
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
