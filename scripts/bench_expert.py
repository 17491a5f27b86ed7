#!/usr/bin/env python3
"""How long Expert (the timed level, "10 s a move") takes to reply in the page.

    python scripts/bench_expert.py [--positions 20] [--no-build]

Builds dist/ first (--no-build: use it as it is) and needs Chromium (scripts/headless.py).
The positions: the first N openings of openings/sprt.txt, each played on by the engine at
a fixed node count (2,000 nodes a move, no book: the same positions on every machine) for
2 to 20 more stones, so that some are openings and some middle games. In headless
Chromium, with the page's own settings (threads as the page chooses), level Expert: each
position is opened by a share link (#moves=...), then *Swap sides* makes the engine move;
the reply time is the wall time from the click to the engine's stone on the board (what
the player waits, the page's overhead included) and the page's own figure (the thinking
panel's "in N s"). Prints each position and the longest, mean and median reply. Expert's
think time is its maximum (webapi.py maxMs: the time manager's hard cap), so the longest
reply must stay within its time plus the page's overhead, whatever the machine's load.
"""

from __future__ import annotations

import argparse
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

EXTRA_STONES = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
# the number of stones on the page's board
COUNT = "(document.querySelector('#board').dataset.moves || '').split(' ').filter(Boolean).length"


def positions(count: int) -> list[str]:
    """count positions (move lists as text, 15x15), openings played on at fixed nodes."""
    from gomoku.core.geometry import moves_from_text, to_text
    from gomoku.engine.facade import Engine
    from gomoku.engine.limits import Limits

    openings = [
        line.split("#")[0].strip()
        for line in (ROOT / "openings" / "sprt.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    out = []
    for i, opening in enumerate(openings[:count]):
        eng = Engine()
        for x, y in moves_from_text(opening, 15):
            eng.play(x, y)
        for _ in range(EXTRA_STONES[i % len(EXTRA_STONES)]):
            if eng.is_over:
                break
            reply = eng.think(Limits(time_ms=None, nodes=2000, use_book=False))
            eng.play(*reply.move)
        if eng.is_over:
            eng.undo()
        out.append(" ".join(to_text(x, y, 15) for x, y in eng.moves))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    args = ap.parse_args()
    if not args.no_build or not (ROOT / "dist" / "build-info.json").exists():
        build.build(ROOT / "dist", build.DEFAULT_NUMPY_DIR)
    texts = positions(args.positions)
    from playwright.sync_api import sync_playwright

    server = build.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?test=1"
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_function(
            "() => document.querySelector('#board').dataset.engine === 'ready'", timeout=180_000
        )
        data = page.evaluate("async () => (await import('./model/levels-data.js')).LEVEL_DATA")
        expert = next(lv for lv in data if lv["timeMs"])
        workers = page.evaluate("() => window.gomokuTest.state().engine")
        print(f"level {expert['number']} ({expert['key']}): {expert['timeMs']} ms; {workers}")
        for text in texts:
            n = len(text.split())
            page.evaluate("h => { location.hash = h; }", "moves=" + text.replace(" ", ","))
            page.wait_for_function(f"() => ({COUNT}) === {n} && !window.gomokuTest.state().job")
            page.select_option("#level", str(expert["number"]))
            t0 = time.perf_counter()
            page.click("#swap")
            page.wait_for_function(f"() => ({COUNT}) > {n}", timeout=120_000)
            wall = time.perf_counter() - t0
            shown = page.text_content("#think-last") or ""
            rows.append((n, wall, shown))
            print(f"{n:3d} stones  {wall:6.2f} s  page: {shown}   {text}", flush=True)
        browser.close()
    server.shutdown()
    walls = [w for _, w, _ in rows]
    print(
        f"{len(rows)} positions: longest {max(walls):.2f} s, mean {statistics.mean(walls):.2f} s, "
        f"median {statistics.median(walls):.2f} s (wall time from Swap sides to the stone)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
