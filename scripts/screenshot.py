#!/usr/bin/env python3
"""Screenshots of the built page in headless Chromium (for README.md and for a look).

    python scripts/screenshot.py [--out docs] [--moves 6] [--renju-only] [--analysis-only]
                                 [--levels-only] [--review-only] [--coach-only]

Plays a few human moves next to the engine's stones (stopping early once the engine sees a
forced win), then saves into --out:
screenshot.png (1280x800, light theme), screenshot-dark.png (1280x800, dark theme, move
numbers and the engine's best line shown), screenshot-phone.png and
screenshot-phone-dark.png (390x844), screenshot-19.png (1280x800, a game on a 19x19
board started from the New game dialog) and screenshot-renju.png (1280x800, a renju
position from a share link with black's forbidden points marked, after a refused click on
one; --renju-only makes just this one) and screenshot-analysis.png (1280x800, analysis
of a position from a share link with the engine's best 4 moves on the board, after about
6 s; --analysis-only makes just this one), screenshot-levels.png (1280x800) and
screenshot-levels-phone.png (390x844), light theme, the New game dialog open on the level
chooser with the chosen level's description and a record there (--levels-only makes just
these two), screenshot-review.png (1280x800) and screenshot-review-phone.png (390x844): a
game from a share link reviewed (Review, at the default budget), shown at its blunder with
the better line on the board (--review-only makes just these two), screenshot-coach.png
(1280x800), screenshot-coach-phone.png (390x844) and screenshot-coach-zh.png (1280x800,
Chinese): the coach marking a white open three at level 1 (--coach-only makes just these
three), screenshot-opening.png (1280x800: a Soosõrv-8 opening from a link, black's three
offered 5th moves on the board and white, the player, to choose one) and
screenshot-opening-phone.png (390x844, Chinese: swap2's choice after the engine's three
stones, the panel's buttons); --opening-only makes just these two, and with
--opening-all also the other language of each (-zh, -phone-en), to look at. Needs a built
dist/.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"]
COLS = "abcdefghijklmnopqrst"
READY = "() => document.querySelector('#board').dataset.engine === 'ready'"


def board_size(page) -> int:
    return int(page.get_attribute("#board", "data-size"))


def cell_point(page, x: int, y: int) -> tuple[float, float]:
    box = page.locator("#board").bounding_box()
    # data-grid: "margin step s", the board drawn s pixels wide (BoardView.draw)
    margin, step, s = map(float, page.get_attribute("#board", "data-grid").split())
    k = box["width"] / s
    return box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k


def parse(text: str, size: int) -> tuple[int, int]:
    return COLS.index(text[0]), size - int(text[1:])


def play_some(page, moves: int) -> None:
    size = board_size(page)
    for _ in range(moves):
        played = (page.get_attribute("#board", "data-moves") or "").split()
        if page.get_attribute("#board", "data-status") != "your-turn":
            break
        if "wins in" in page.inner_text("#think-score"):
            break  # the scripted moves are weak: stop before the game is lost
        taken = {parse(t, size) for t in played}
        if played:
            lx, ly = parse(played[-1], size)
            options = [
                (lx + dx, ly + dy) for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1), (0, 2))
            ]
            x, y = next(p for p in options if p not in taken and 0 <= min(p) and max(p) < size)
        else:
            x, y = size // 2, size // 2
        page.mouse.click(*cell_point(page, x, y))
        page.wait_for_function(
            "n => (document.querySelector('#board').dataset.moves || '').split(' ')"
            ".filter(Boolean).length >= n",
            arg=len(played) + 2,
            timeout=120_000,
        )
        page.wait_for_function(
            "() => document.querySelector('#board').dataset.status !== 'thinking'", timeout=120_000
        )


# A renju position, black to move: g11 and j10 are double threes, i8 a double four.
RENJU_LINK = "#moves=h8,g9,j8,j9,i9,h9,i10,k10,f11,j6,l8,h6,j7,e9,i11,l11&rule=renju&size=15"


def renju_shot(browser, url: str, out: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.goto(url + RENJU_LINK)
    page.wait_for_function(READY, timeout=180_000)
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.forbidden === 'g11 i8 j10'",
        timeout=10_000,
    )
    page.mouse.click(*cell_point(page, *parse("i8", 15)))  # refused, with the reason
    page.mouse.move(0, 0)
    page.wait_for_timeout(600)
    page.screenshot(path=str(out / "screenshot-renju.png"))
    ctx.close()


# White to move, no forced line: the engine's best moves are close (i6, j6, k8, j8).
ANALYSIS_LINK = "#moves=h8,i9,i8,g8,j7,k6,h9,h7,j9&rule=freestyle&size=15"


def analysis_shot(browser, url: str, out: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", '{"analysisMoves": 4}')
    page.reload()  # the settings are read at load; the link below only changes the hash
    page.wait_for_function(READY, timeout=180_000)
    page.goto(url + ANALYSIS_LINK)
    page.click("#analyse")
    # four scored moves, from a search of a few seconds (slices of 0.5, 1, 2 s)
    page.wait_for_function(
        "() => (document.querySelector('#board').dataset.topMoves || '').split(' ').length === 4",
        timeout=120_000,
    )
    page.wait_for_timeout(5000)
    page.mouse.move(0, 0)
    page.screenshot(path=str(out / "screenshot-analysis.png"))
    ctx.close()


# The New game dialog's level chooser: a few games at the level shown, so that its record
# line has something to say.
LEVELS_RESULTS = '{"2": {"won": 2, "lost": 5, "drawn": 0}}'


def levels_shots(browser, url: str, out: Path) -> None:
    sizes = (
        ("screenshot-levels.png", {"viewport": {"width": 1280, "height": 800}}),
        (
            "screenshot-levels-phone.png",
            {
                "viewport": {"width": 390, "height": 844},
                "device_scale_factor": 2,
                "is_mobile": True,
                "has_touch": True,
            },
        ),
    )
    for name, options in sizes:
        ctx = browser.new_context(**options)
        page = ctx.new_page()
        page.goto(url)
        page.evaluate("() => localStorage.clear()")
        page.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", '{"theme": "light"}')
        page.evaluate("s => localStorage.setItem('gomoku.results.v2', s)", LEVELS_RESULTS)
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
        page.click("#setup")
        page.select_option("#ng-level", "2")
        page.focus("#ng-level")
        page.mouse.move(0, 0)
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / name))
        ctx.close()


# The coach (level 1, where it is on by default): white's open three f9 g9 h9 against
# black's j9, black to move. The level's number is read from the page (the lowest).
COACH_MOVES = [[7, 7], [7, 6], [8, 8], [6, 6], [9, 6], [5, 6]]  # h8 h9 i7 g9 j9 f9


def coach_shots(browser, url: str, out: Path) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}  # fmt: skip
    shots = (
        ("screenshot-coach.png", {"viewport": {"width": 1280, "height": 800}}, "en"),
        ("screenshot-coach-phone.png", phone, "en"),
        ("screenshot-coach-zh.png", {"viewport": {"width": 1280, "height": 800}}, "zh"),
    )
    for name, options, lang in shots:
        ctx = browser.new_context(**options)
        page = ctx.new_page()
        page.goto(url)
        lowest = page.evaluate(
            "async () => Math.min(...(await import('./model/levels-data.js')).LEVEL_DATA"
            ".map((l) => l.number))"
        )
        game = {"size": 15, "rule": "freestyle", "first": 1, "human": 1, "level": lowest,
                "seed": 1, "moves": COACH_MOVES, "cursor": 6, "recorded": False}  # fmt: skip
        page.evaluate("() => localStorage.clear()")
        page.evaluate("s => localStorage.setItem('gomoku.game.v1', s)", json.dumps(game))
        settings = json.dumps({"theme": "light", "lang": lang})
        page.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", settings)
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
        page.wait_for_function("() => document.querySelector('#board').dataset.coach")
        page.mouse.move(0, 0)
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / name))
        ctx.close()


# A game with many classes: black's mistake and missed win (proven); white's mistake and
# blunder (move 10, j6: proven, and no better move holds; before the walk back from proven
# wins the review blamed move 20, l9).
REVIEW_LINK = (
    "#moves=h8,i7,i6,g8,j7,k8,l7,j10,k6,j6,l5,i8,m4,n3,l6,l4,k5,j5,l8,l9,m7,j4,k7,n7,n8,"
    "o9,m5,i12,m6,m8,m3&rule=freestyle&size=15"
)


# Soosõrv-8, white (the player) to choose among black's three offers; swap2 after the
# first player's three stones, the second player (the player) to choose.
SOOSORV_LINK = (
    "#moves=h8,h9,j10,i7&rule=renju&size=15&opening=soosorv8&choices=white,3,black&offers=j8,g8,k11"
)
SWAP2_LINK = "#moves=h8,f3,c5&rule=freestyle&size=15&opening=swap2"


def opening_shots(browser, url: str, out: Path, everything: bool = False) -> None:
    desktop = {"viewport": {"width": 1280, "height": 800}}
    phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}  # fmt: skip
    shots = [("screenshot-opening.png", desktop, "en", SOOSORV_LINK),
             ("screenshot-opening-phone.png", phone, "zh", SWAP2_LINK)]  # fmt: skip
    if everything:
        shots += [("screenshot-opening-zh.png", desktop, "zh", SOOSORV_LINK),
                  ("screenshot-opening-phone-en.png", phone, "en", SWAP2_LINK)]  # fmt: skip
    for name, context, lang, link in shots:
        ctx = browser.new_context(**context)
        page = ctx.new_page()
        page.goto(url)
        page.evaluate(
            "lang => { localStorage.clear();"
            " localStorage.setItem('gomoku.settings.v1', JSON.stringify({lang})); }",
            lang,
        )
        page.reload()  # the settings are read at load; the link below only changes the hash
        page.wait_for_function(READY, timeout=180_000)
        page.goto(url + link)
        page.wait_for_function(
            "() => (document.querySelector('#board').dataset.opening || '').endsWith('human')",
            timeout=60_000,
        )
        page.mouse.move(0, 0)
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / name))
        ctx.close()


def review_shots(browser, url: str, out: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.goto(url + REVIEW_LINK)
    page.wait_for_function(READY, timeout=180_000)
    page.click("#review-start")
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.review === 'done'", timeout=600_000
    )
    page.click("#review-graph .rg-dot.blunder")  # the board at the blunder, its better line
    page.mouse.move(0, 0)
    page.wait_for_timeout(600)
    page.screenshot(path=str(out / "screenshot-review.png"))
    # the same game and review (from localStorage) on a phone, scrolled to the review
    stored = page.evaluate(
        "() => [localStorage.getItem('gomoku.game.v1'), localStorage.getItem('gomoku.review.v1')]"
    )
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    ppage = phone.new_page()
    ppage.goto(url)
    ppage.evaluate(
        """([g, r]) => {
            localStorage.clear();
            localStorage.setItem('gomoku.game.v1', g);
            localStorage.setItem('gomoku.review.v1', r);
        }""",
        stored,
    )
    ppage.goto(url)
    ppage.wait_for_function(READY, timeout=180_000)
    ppage.wait_for_function(
        "() => document.querySelector('#board').dataset.review === 'done'", timeout=10_000
    )
    ppage.evaluate("() => document.querySelector('#review-box').scrollIntoView({block: 'end'})")
    ppage.wait_for_timeout(400)
    ppage.screenshot(path=str(out / "screenshot-review-phone.png"))
    phone.close()
    ctx.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--renju-only", action="store_true", help="only screenshot-renju.png")
    ap.add_argument("--analysis-only", action="store_true", help="only screenshot-analysis.png")
    ap.add_argument("--levels-only", action="store_true", help="only screenshot-levels(-phone).png")
    ap.add_argument("--review-only", action="store_true", help="only the two review screenshots")
    ap.add_argument("--coach-only", action="store_true", help="only the three coach screenshots")
    ap.add_argument("--opening-only", action="store_true", help="only the opening's screenshots")
    ap.add_argument("--opening-all", action="store_true", help="the opening's in both languages")
    args = ap.parse_args()
    server = build.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?time=400"
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        opening_shots(browser, url, args.out, args.opening_all)
        if args.opening_only:
            browser.close()
            server.shutdown()
            print(f"wrote the opening's screenshots in {args.out}")
            return 0
        coach_shots(browser, url, args.out)
        if args.coach_only:
            browser.close()
            server.shutdown()
            print(f"wrote the coach's screenshots in {args.out}")
            return 0
        if not args.review_only:
            levels_shots(browser, url, args.out)
            if args.levels_only:
                browser.close()
                server.shutdown()
                print(f"wrote screenshot-levels.png, screenshot-levels-phone.png in {args.out}")
                return 0
        review_shots(browser, url, args.out)
        if args.review_only:
            browser.close()
            server.shutdown()
            print(f"wrote screenshot-review.png, screenshot-review-phone.png in {args.out}")
            return 0
        analysis_shot(browser, url, args.out)
        if args.analysis_only:
            browser.close()
            server.shutdown()
            print(f"wrote screenshot-analysis.png in {args.out}")
            return 0
        renju_shot(browser, url, args.out)
        if args.renju_only:
            browser.close()
            server.shutdown()
            print(f"wrote screenshot-renju.png in {args.out}")
            return 0
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        page = ctx.new_page()
        page.goto(url)
        page.evaluate("() => localStorage.clear()")
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
        play_some(page, args.moves)
        page.mouse.move(0, 0)
        page.wait_for_timeout(600)
        page.screenshot(path=str(args.out / "screenshot.png"))
        # the same game (from localStorage) on a phone
        phone = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        state = page.evaluate("() => localStorage.getItem('gomoku.game.v1')")
        ppage = phone.new_page()
        ppage.goto(url)
        ppage.evaluate("s => localStorage.setItem('gomoku.game.v1', s)", state)
        ppage.goto(url)
        ppage.wait_for_function(READY, timeout=180_000)
        ppage.screenshot(path=str(args.out / "screenshot-phone.png"))
        # dark theme, with move numbers and the best line on the board
        dark = json.dumps({"theme": "dark", "numbers": True, "showPv": True})
        for pg, name in ((page, "screenshot-dark.png"), (ppage, "screenshot-phone-dark.png")):
            pg.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", dark)
            pg.goto(url)
            pg.wait_for_function(READY, timeout=180_000)
            if pg.get_attribute("#board", "data-status") == "your-turn":
                pg.click("#hint")  # fills the thinking panel; the hint and line on the board
                pg.wait_for_function(
                    "() => document.querySelector('#board').dataset.hint !== ''", timeout=120_000
                )
            pg.evaluate("() => window.scrollTo(0, 0)")
            pg.mouse.move(0, 0)
            pg.wait_for_timeout(600)  # the evaluation bar's transition
            pg.screenshot(path=str(args.out / name))
        # a 19x19 game, started from the New game dialog, with move numbers
        big = browser.new_context(viewport={"width": 1280, "height": 800})
        bpage = big.new_page()
        bpage.goto(url)
        bpage.evaluate("() => localStorage.clear()")
        bpage.evaluate("s => localStorage.setItem('gomoku.settings.v1', s)", '{"numbers": true}')
        bpage.goto(url)
        bpage.wait_for_function(READY, timeout=180_000)
        bpage.click("#setup")
        bpage.select_option("#ng-size", "19")
        bpage.click("#ng-start")
        play_some(bpage, args.moves)
        bpage.mouse.move(0, 0)
        bpage.wait_for_timeout(600)
        bpage.screenshot(path=str(args.out / "screenshot-19.png"))
        browser.close()
    server.shutdown()
    print(
        f"wrote screenshot.png, screenshot-dark.png, screenshot-phone.png, "
        f"screenshot-phone-dark.png, screenshot-19.png, screenshot-renju.png, "
        f"screenshot-analysis.png, screenshot-levels.png, screenshot-levels-phone.png, "
        f"screenshot-review.png, screenshot-review-phone.png in {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
