#!/usr/bin/env python3
"""What a visitor downloads and waits for: the engine wheel's size and file count, and the
page's cold start to a ready engine (median of several), for one or more built sites.

    python scripts/bench_startup.py [--starts 7] [DIST ...]    (default: dist/)

Each start opens the page in a fresh browser context (empty HTTP cache) and reads the
page's own figure, ``#board[data-load-ms]`` (from the page's start to the engine worker's
"ready"). With several sites the starts alternate between them, so that a change of
machine load hits them alike. Needs Chromium at /usr/bin/chromium; builds nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from headless import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

import build  # noqa: E402


def wheel_figures(dist: Path) -> dict:
    """The engine wheel of a built site: bytes, files, and Python modules by top package."""
    info = json.loads((dist / "build-info.json").read_text())
    wheel = dist / info["wheel"]
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if ".dist-info/" not in n]
    tops = sorted({n.split("/")[0] for n in names})
    return {
        "wheel": wheel.name,
        "bytes": wheel.stat().st_size,
        "files": len(names),
        "python_files": sum(n.endswith(".py") for n in names),
        "packages": tops,
    }


def cold_starts(dists: list[Path], starts: int) -> dict[Path, list[int]]:
    from playwright.sync_api import sync_playwright

    servers = {d: build.make_server(d, 0) for d in dists}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    times: dict[Path, list[int]] = {d: [] for d in dists}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for i in range(starts):
            for d in dists if i % 2 == 0 else dists[::-1]:
                port = servers[d].server_address[1]
                ctx = browser.new_context()  # empty HTTP cache: a cold start
                page = ctx.new_page()
                page.goto(f"http://127.0.0.1:{port}/?test=1")
                page.wait_for_function(
                    "() => document.querySelector('#board').dataset.engine === 'ready'",
                    timeout=180_000,
                )
                times[d].append(int(page.get_attribute("#board", "data-load-ms")))
                ctx.close()
        browser.close()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dists", nargs="*", type=Path, default=[ROOT / "dist"])
    ap.add_argument("--starts", type=int, default=7, help="cold starts per site")
    args = ap.parse_args(argv)
    dists = [d.resolve() for d in args.dists]
    times = cold_starts(dists, args.starts)
    for d in dists:
        w = wheel_figures(d)
        t = times[d]
        print(
            f"{d}: wheel {w['bytes'] / 1000:.0f} KB, {w['files']} files ({w['python_files']} .py,"
            f" packages {', '.join(w['packages'])}); cold start to ready: median"
            f" {statistics.median(t):.0f} ms over {len(t)} (min {min(t)}, max {max(t)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
