#!/usr/bin/env python3
"""The engine's time use under a game clock in the page: whole games in headless Chromium.

    python scripts/bench_page_clock.py [--games 1] [--clock 3+2] [--level 12] [--no-build]

Builds dist/ first (--no-build: use it as it is) and needs Chromium (scripts/headless.py).
Each game: the New game dialog with the clock and the engine's level (default the
Unlimited level, which plays by the clock alone; a node level plays its nodes, the clock
only capping them), the player black; the player's moves come from the engine in CPython
at 2,000 nodes a move (no book: a few tenths of a second, so that the player's clock never
matters; the games differ by the engine's replies, which depend on its time), clicked on
the board; the engine
answers under the clock until the game is over. Then the page's own clock (the game
kept in the page's state: each move's charged time, the times left, a fallen flag):
the engine's move times, what it used of what it was given, the least it had left after
a move, its longest move as a share of its time then. The clock charges the wall time from
the player's stone to the engine's (the page's overhead included), so the figures are the
page's as a player sees them; a loaded machine changes how deep the engine gets in them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (scripts/ is on sys.path)

import build  # noqa: E402

PLAYER_NODES = 2000
MOVES = "(document.querySelector('#board').dataset.moves || '').split(' ').filter(Boolean)"
OVER = (
    "['black-wins', 'white-wins', 'draw'].includes(document.querySelector('#board').dataset.status)"
)


def player_move(texts: list[str]) -> str:
    """The player's next move ("h8"): the engine in CPython at PLAYER_NODES, no book."""
    from gomoku.core.geometry import moves_from_text, to_text
    from gomoku.engine.facade import Engine
    from gomoku.engine.limits import Limits

    eng = Engine()
    for x, y in moves_from_text(" ".join(texts), 15):
        eng.play(x, y)
    limits = Limits(time_ms=None, nodes=PLAYER_NODES, use_book=False)
    x, y = eng.think(limits).move
    return to_text(x, y, 15)


def click(page, text: str) -> None:
    box = page.locator("#board").bounding_box()
    margin, step, s = map(float, page.get_attribute("#board", "data-grid").split())
    k = box["width"] / s
    x, y = "abcdefghijklmnopqrst".index(text[0]), 15 - int(text[1:])
    page.mouse.click(box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k)


def play_game(page, clock: str, level: int) -> dict:
    """One game in the page; the page's clock at its end."""
    page.click("#setup")
    page.check('input[name="ng-players"][value="engine"]')
    page.check('input[name="ng-side"][value="1"]')
    page.check('input[name="ng-first"][value="black"]')
    page.check('input[name="ng-rule"][value="freestyle"]')
    page.select_option("#ng-level", str(level))
    page.select_option("#ng-clock", clock)
    page.click("#ng-start")
    page.wait_for_function(f"() => ({MOVES}).length === 0")
    while not page.evaluate(f"() => {OVER}"):
        texts = page.evaluate(f"() => {MOVES}")
        cell = "h8" if not texts else player_move(texts)
        click(page, cell)
        page.wait_for_function(f"n => ({MOVES}).length > n", arg=len(texts), timeout=60_000)
        # the engine's answer, or the end
        page.wait_for_function(
            f"n => ({MOVES}).length > n + 1 || {OVER}", arg=len(texts), timeout=900_000
        )
    return page.evaluate("() => window.gomokuTest.state().game.clock")


def engine_use(clock: dict) -> dict:
    """White's (the engine's) moves' times replayed on its clock."""
    times = [t for i, t in enumerate(clock["used"]) if i % 2 == 1 and t is not None]
    left, least, share = clock["baseMs"], clock["baseMs"], 0.0
    for t in times:
        share = max(share, t / left if left > 0 else 1.0)
        left -= t
        least = min(least, left)
        left += clock["incMs"]
    return {
        "times": times,
        "least": least,
        "share": share,
        "given": clock["baseMs"] + clock["incMs"] * len(times),
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument(
        "--clock", default="3+2", help="a preset of the New game dialog (3+2, 5+3, ...)"
    )
    ap.add_argument(
        "--level", type=int, default=12, help="the engine's level (default 12, Unlimited)"
    )
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    args = ap.parse_args()
    if not args.no_build or not (ROOT / "dist" / "build-info.json").exists():
        build.build(ROOT / "dist", build.DEFAULT_NUMPY_DIR)
    from playwright.sync_api import sync_playwright

    server = build.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?test=1"
    all_times: list[int] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_function(
            "() => document.querySelector('#board').dataset.engine === 'ready'", timeout=180_000
        )
        print(
            f"page clock use: {args.games} games, clock {args.clock}, engine level {args.level} "
            f"(white), the player black at {PLAYER_NODES} nodes in CPython",
            flush=True,
        )
        for g in range(args.games):
            clock = play_game(page, args.clock, args.level)
            use = engine_use(clock)
            all_times += use["times"]
            status = page.inner_text("#status")
            used, given = sum(use["times"]) / 1000, use["given"] / 1000
            longest = max(use["times"], default=0) / 1000
            flag = {0: "none", 1: "player", 2: "engine"}[clock["flag"]]
            print(
                f"game {g + 1}: {len(clock['used'])} stones, {status}; engine: "
                f"{len(use['times'])} moves, used {used:.1f} s of {given:.0f} s given, least left "
                f"{use['least'] / 1000:.1f} s, longest {longest:.1f} s ({use['share']:.0%} of its "
                f"time then), flag: {flag}",
                flush=True,
            )
            print("  " + " ".join(f"{t / 1000:.1f}" for t in use["times"]), flush=True)
        browser.close()
    server.shutdown()
    if all_times:
        print(
            f"all: {len(all_times)} engine moves, mean {statistics.mean(all_times) / 1000:.2f} s, "
            f"median {statistics.median(all_times) / 1000:.2f} s, max {max(all_times) / 1000:.1f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
