#!/usr/bin/env python3
"""Screenshots of the puzzles page (puzzles.html) in headless Chromium, for a look.

    python scripts/screenshot_puzzles.py [--out DIR]

Needs a built dist/. Saves into --out: puzzle.png (1280x800, a VCF puzzle), wrong.png
(a wrong first move with the engine's refutation drawn), solved.png (a defence puzzle
solved, with the rating change), vcf-solved.png (a VCF played out to the five, the
defender's blocks answered by the page), phone.png (390x844) and phone-wrong.png,
zh.png and zh-wrong.png (Chinese), corrupt.png (stored progress unreadable: the notice).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"]


def puzzles() -> list[dict]:
    out = subprocess.run(
        [sys.executable, "-m", "gomoku.puzzles", "--json"],
        cwd=ROOT / "py", capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)


def cell_point(page, x: int, y: int) -> tuple[float, float]:
    box = page.locator("#board").bounding_box()
    margin, step, s = map(float, page.get_attribute("#board", "data-grid").split())
    k = box["width"] / s
    return box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k


def wrong_cell(p: dict) -> tuple[int, int]:
    """An empty cell next to the stones that is not a solution."""
    taken = {tuple(m) for m in p["moves"]}
    sols = {tuple(m) for m in p["solutions"]}
    for x, y in p["moves"][::-1]:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1)):
            c = (x + dx, y + dy)
            if c not in taken and c not in sols and 0 <= min(c) and max(c) < p["size"]:
                return c
    raise ValueError("no wrong cell")


def open_page(browser, url: str, pid: str, viewport, lang: str = "en", progress: str | None = None):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(url + "puzzles.html")
    page.evaluate("() => localStorage.clear()")
    page.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", json.dumps({"lang": lang}))
    if progress is not None:
        page.evaluate("s => localStorage.setItem('gomoku.puzzles.v1', s)", progress)
    page.goto(url + f"puzzles.html?id={pid}")
    page.wait_for_function("() => document.querySelector('#board').dataset.grid")
    page.wait_for_timeout(300)
    return ctx, page


def click(page, cell) -> None:
    page.mouse.click(*cell_point(page, *cell))
    page.mouse.move(0, 0)


def wait_refutation(page) -> None:
    page.wait_for_function(
        "() => /The answer|应对|not ready|无法/"
        ".test(document.querySelector('#pz-feedback').textContent)",
        timeout=240_000,
    )
    page.wait_for_timeout(300)


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    data = puzzles()
    vcf = next(p for p in data if p["theme"] == "vcf" and len(p["line"]) >= 5)
    defend = next(p for p in data if p["theme"] == "defend")
    server = build.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    args.out.mkdir(parents=True, exist_ok=True)
    desktop = {"width": 1280, "height": 800}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)

        ctx, page = open_page(browser, url, vcf["id"], desktop)
        page.screenshot(path=str(args.out / "puzzle.png"))
        click(page, wrong_cell(vcf))
        wait_refutation(page)
        page.screenshot(path=str(args.out / "wrong.png"))
        ctx.close()

        ctx, page = open_page(browser, url, vcf["id"], desktop)
        line = [tuple(m) for m in vcf["line"]]
        for i in range(0, len(line), 2):
            n = len(vcf["moves"]) + i
            page.wait_for_function(
                f"() => document.querySelector('#board').dataset.moves === '{n}'"
            )
            click(page, line[i])
            if i + 1 < len(line):
                page.wait_for_timeout(700)  # the defender's block comes after a short pause
        page.wait_for_function("() => document.body.dataset.status === 'done'")
        page.screenshot(path=str(args.out / "vcf-solved.png"))
        ctx.close()

        ctx, page = open_page(browser, url, defend["id"], desktop)
        click(page, tuple(defend["solutions"][0]))
        page.wait_for_function("() => document.body.dataset.status === 'done'")
        page.screenshot(path=str(args.out / "solved.png"))
        ctx.close()

        ctx, page = open_page(browser, url, vcf["id"], {"width": 390, "height": 844})
        page.screenshot(path=str(args.out / "phone.png"))
        click(page, wrong_cell(vcf))
        wait_refutation(page)
        page.evaluate("() => document.querySelector('#pz-feedback').scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(args.out / "phone-wrong.png"))
        ctx.close()

        ctx, page = open_page(browser, url, defend["id"], desktop, lang="zh")
        page.screenshot(path=str(args.out / "zh.png"))
        click(page, wrong_cell(defend))
        wait_refutation(page)
        page.screenshot(path=str(args.out / "zh-wrong.png"))
        ctx.close()

        ctx, page = open_page(browser, url, vcf["id"], desktop, progress='{"v": 1, "rating": "x"}')
        page.screenshot(path=str(args.out / "corrupt.png"))
        ctx.close()
        browser.close()
    server.shutdown()
    print(f"wrote 9 screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
