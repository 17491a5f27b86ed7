#!/usr/bin/env python3
"""Time a game review in headless Chromium, as a player gets it.

    python scripts/bench_review.py [--runs 3] [--deep] [--no-build] [--game "h8 i7 ..."]

Builds dist/ first (--no-build: use it as it is). Each run is a fresh page (empty
localStorage) opened on a share link of the game (by default a 40-move game of the
engine against itself), waits for the engine, presses Review (with --deep: the Deep
box first, 60,000 nodes per position; else the default 12,000) and times it until the
page says the review is done (the canvas's data-review). An init script notes when each
review request is posted to the worker, which gives the time per position (the gap
between one request and the next: the worker's answer and the page's work on it). The
same review in CPython (gomoku.review.Reviewer from py/, the same budget) is timed once
for comparison. Prints one line per run and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (scripts/ is on sys.path)

import build  # noqa: E402

# 40 moves of the engine against itself (white's k9 at move 40; black wins a few moves on)
GAME_40 = (
    "h8 i7 i6 h6 j8 i8 h10 h7 j7 i9 j9 j10 h12 h11 i11 g9 i12 g12 i13 i14 "
    "k8 l9 l7 i10 j5 j6 k6 m8 h5 g4 h3 i4 n5 m6 k5 f13 e14 l5 k7 k9"
)
SPY = """(() => {
  const post = Worker.prototype.postMessage;
  window.__reviewPosts = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "review") {
      window.__reviewPosts.push([message.index, performance.now()]);
    }
    return post.call(this, message, ...rest);
  };
})()"""


def bench_cpython(game: str, nodes: int) -> float:
    from gomoku.review.records import read_move_list
    from gomoku.review.review import Reviewer

    record = read_move_list(game)
    t0 = time.perf_counter()
    list(Reviewer(record, nodes).run())
    return time.perf_counter() - t0


def bench_browser(dist: Path, game: str, runs: int, deep: bool) -> list[dict]:
    from playwright.sync_api import sync_playwright

    server = build.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    link = "#moves=" + game.replace(" ", ",") + "&rule=freestyle&size=15"
    out = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for run in range(runs):
                page = browser.new_page()
                page.add_init_script(SPY)
                page.goto(base + "?test=1")
                page.evaluate("localStorage.clear()")
                page.goto(base + "?test=1" + link)
                page.wait_for_function(
                    "() => document.querySelector('#board').dataset.engine === 'ready'",
                    timeout=180_000,
                )
                if deep:
                    page.check("#review-deep")
                page.evaluate("() => { window.__t0 = performance.now(); }")
                page.click("#review-start")
                page.wait_for_function(
                    "() => document.querySelector('#board').dataset.review === 'done'",
                    timeout=1_200_000,
                    polling=50,
                )
                total_ms = page.evaluate("() => performance.now() - window.__t0")
                posts = page.evaluate("() => window.__reviewPosts")
                gaps = [b[1] - a[1] for a, b in zip(posts, posts[1:], strict=False)]
                out.append(
                    {
                        "run": run + 1,
                        "seconds": round(total_ms / 1000, 2),
                        "positions": len(posts),
                        "per_position_ms": round(total_ms / len(posts)),
                        "slowest_ms": round(max(gaps)) if gaps else None,
                    }
                )
                print(json.dumps(out[-1]), flush=True)
                page.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--deep", action="store_true", help="60,000 nodes per position")
    ap.add_argument("--game", default=GAME_40, help="the moves, like 'h8 i7 i6'")
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    ap.add_argument("--no-cpython", action="store_true", help="skip the CPython timing")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} not found", file=sys.stderr)
        return 1
    dist = ROOT / "dist"
    if not args.no_build and build.main([]) != 0:
        return 1
    nodes = 60000 if args.deep else 12000
    moves = len(args.game.split())
    runs = bench_browser(dist, args.game, args.runs, args.deep)
    secs = [r["seconds"] for r in runs]
    summary = {
        "moves": moves,
        "nodes": nodes,
        "runs": secs,
        "median_s": statistics.median(secs),
        "best_s": min(secs),
        "median_per_position_ms": round(statistics.median(secs) * 1000 / (moves + 1)),
    }
    if not args.no_cpython:
        summary["cpython_s"] = round(bench_cpython(args.game, nodes), 2)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
