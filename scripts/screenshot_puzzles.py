#!/usr/bin/env python3
"""Screenshots of the puzzles page (puzzles.html) in headless Chromium, for a look.

    python scripts/screenshot_puzzles.py [--out DIR]

Needs a built dist/. Four tabs (desktop 1280x800 and phone 390x844, English and
Chinese), each on puzzle 0bd7eb ("win by fours, 7 moves"), each move judged by the
engine from the position. Saves into --out (default build/puzzle-shots), for each tab
(desktop, phone, zh, zh-phone): NAME-puzzle.png (the puzzle), NAME-also.png (k5, a four
that wins by threes: "also wins, but not by fours", taken back), NAME-lost.png (e6, after
which white wins: "the win is gone: White answers ..."), NAME-longer.png (eight fours on a
longer road, then h10's open four: "still wins, but takes longer than needed"), and on
the desktop tabs NAME-solved.png (played to the five) and NAME-defence.png (a defence
puzzle refused with the attacker's answer).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

import build  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"]
PUZZLE = "0bd7eb"
EXTRA_FOURS = [(9, 6), (9, 9), (9, 7), (9, 4), (6, 7), (6, 4), (8, 7), (4, 9)]
H10 = (7, 5)
SETTLED = "['continue', 'solve', 'done', 'failed'].includes(document.body.dataset.status)"


def cell_point(page, x: int, y: int) -> tuple[float, float]:
    box = page.locator("#board").bounding_box()
    margin, step, s = map(float, page.get_attribute("#board", "data-grid").split())
    k = box["width"] / s
    return box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k


def click(page, cell) -> None:
    page.mouse.click(*cell_point(page, *cell))
    page.mouse.move(0, 0)


def settle(page, moves: int | None = None) -> None:
    """Wait for the judged move's answer (and, given, this many stones on the board)."""
    board = "document.querySelector('#board')"
    want = "true" if moves is None else f"{board}.dataset.moves === '{moves}'"
    page.wait_for_function(f"() => {want} && {SETTLED}", timeout=240_000)
    page.wait_for_timeout(300)


def shot(page, path: Path) -> None:
    page.evaluate("() => document.querySelector('#pz-feedback').scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))


def reset(page, pid: str) -> None:
    page.evaluate(
        "id => { localStorage.removeItem('gomoku.puzzles.v1'); window.gomokuPuzzles.reset(id); }",
        pid,
    )
    page.wait_for_timeout(200)


def tab(browser, url: str, viewport: dict, lang: str, mobile: bool):
    ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile,
                              device_scale_factor=2 if mobile else 1)
    page = ctx.new_page()
    page.goto(url + "puzzles.html")
    page.evaluate("s => { localStorage.clear(); localStorage.setItem('gomoku.settings.v1', s); }",
                  json.dumps({"lang": lang, "tapTwice": False}))
    page.goto(url + "puzzles.html?test=1")
    page.wait_for_function("() => window.gomokuPuzzles && window.gomokuPuzzles.reset")
    return ctx, page


def main() -> int:
    from playwright.sync_api import sync_playwright

    from gomoku.puzzles import load
    from gomoku.puzzles.judge import judge_move

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "puzzle-shots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    puzzles = load()
    issue = next(p for p in puzzles if p.id == PUZZLE)
    defend = next(p for p in puzzles if p.theme == "defend")
    board = defend.board()
    wrong = next(board.point(q) for q in sorted(board.candidates)
                 if judge_move(board, board.point(q), "defend").outcome == "lost")
    server = build.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    args.out.mkdir(parents=True, exist_ok=True)
    tabs = [
        ("desktop", {"width": 1280, "height": 800}, "en", False),
        ("phone", {"width": 390, "height": 844}, "en", True),
        ("zh", {"width": 1280, "height": 800}, "zh", False),
        ("zh-phone", {"width": 390, "height": 844}, "zh", True),
    ]
    count = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
        for name, viewport, lang, mobile in tabs:
            ctx, page = tab(browser, url, viewport, lang, mobile)
            n = len(issue.moves)
            reset(page, PUZZLE)
            page.screenshot(path=str(args.out / f"{name}-puzzle.png"))
            click(page, (10, 10))
            page.wait_for_function(
                f"() => /k5/.test(document.querySelector('#pz-feedback').textContent) && {SETTLED}",
                timeout=240_000,
            )
            shot(page, args.out / f"{name}-also.png")
            click(page, (4, 9))
            settle(page, n + 1)
            page.wait_for_function("() => document.body.dataset.status === 'failed'")
            shot(page, args.out / f"{name}-lost.png")
            reset(page, PUZZLE)
            for four in EXTRA_FOURS:
                click(page, four)
                n += 2
                settle(page, n)
            click(page, H10)
            settle(page, n + 2)
            shot(page, args.out / f"{name}-longer.png")
            count += 4
            if not mobile:
                last = tuple(page.evaluate("() => window.gomokuPuzzles.state.moves.at(-1)"))
                click(page, ({(5, 3), (10, 8)} - {last}).pop())
                page.wait_for_function("() => document.body.dataset.status === 'done'")
                shot(page, args.out / f"{name}-solved.png")
                reset(page, defend.id)
                click(page, wrong)
                page.wait_for_function("() => document.body.dataset.status === 'failed'",
                                       timeout=240_000)
                shot(page, args.out / f"{name}-defence.png")
                count += 2
            ctx.close()
        browser.close()
    server.shutdown()
    print(f"wrote {count} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
