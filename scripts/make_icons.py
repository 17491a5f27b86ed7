#!/usr/bin/env python3
"""Render web/icon.svg to the PNG icons of the web app manifest (web/icon-192.png,
web/icon-512.png) with headless Chromium. Run again after changing icon.svg."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def main() -> int:
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "web" / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f"<html><body style='margin:0;background:transparent'>"
                f"<div style='width:{size}px;height:{size}px'>{svg}</div></body></html>"
            )
            page.eval_on_selector(
                "svg",
                f"s => {{ s.setAttribute('width', {size}); s.setAttribute('height', {size}); }}",
            )
            out = ROOT / "web" / f"icon-{size}.png"
            page.locator("svg").screenshot(path=str(out), omit_background=True)
            print(f"wrote {out}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
