"""How this project launches Debian's Chromium headless (tests and browser benchmarks).

Playwright's own browser download does not work here, so every launch uses
/usr/bin/chromium (or $GOMOKU_CHROMIUM) with these flags; the background-networking ones
keep Chromium from calling out to other hosts.
"""

import os

CHROMIUM = os.environ.get("GOMOKU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
