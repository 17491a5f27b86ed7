"""web/model/engine-data.js, the engine's constants the page shares (board sizes, the review's
budgets, classes and marks), is what gomoku.protocol.page_data generates
(``PYTHONPATH=py python -m gomoku.protocol.page_data > web/model/engine-data.js``), and the page
takes those constants from it instead of keeping copies."""

from __future__ import annotations

import re
from pathlib import Path

from gomoku.protocol import page_data

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web" / "model"
SITE = ROOT / "web"


def test_engine_data_js_is_current():
    text = (WEB / "engine-data.js").read_text(encoding="utf-8")
    assert text == page_data.page_data_js(), (
        "web/model/engine-data.js is stale: PYTHONPATH=py python -m gomoku.protocol.page_data "
        "> web/model/engine-data.js"
    )


def test_the_page_keeps_no_copy_of_the_shared_constants():
    """The modules that used to copy them import them (a number typed again beside a
    name of engine-data.js would be a copy)."""
    uses = {
        "coords.js": ("MIN_SIZE", "MAX_SIZE", "DEFAULT_SIZE"),
        "review.js": ("REVIEW_NODES", "DEEP_REVIEW_NODES", "MAX_REVIEW_NODES", "REVIEW_MARKS"),
        "mistakes.js": ("REVIEW_INACCURACY",),
    }
    for file, names in uses.items():
        source = (WEB / file).read_text(encoding="utf-8")
        found = re.search(r'import \{([^}]*)\} from "\./engine-data\.js"', source)
        assert found, f"{file} does not import engine-data.js"
        assert set(names) <= {n.strip() for n in found.group(1).split(",")}, file
    typed = re.compile(r"\b(\w*(?:SIZE|NODES|INACCURACY))\s*=\s*[\d.]")
    for file in SITE.rglob("*.js"):
        if file.name == "engine-data.js":
            continue
        source = file.read_text(encoding="utf-8")
        copies = {m.group(1) for m in typed.finditer(source)} & {
            "MIN_SIZE", "MAX_SIZE", "DEFAULT_SIZE", "DEFAULT_NODES", "DEEP_NODES", "MAX_NODES",
            "INACCURACY",
        }  # fmt: skip
        assert not copies, f"{file.name} types {copies} again"


def test_the_pages_clock_share_is_the_time_managers():
    """Under a game clock the page expects the engine's move within a quarter of its time
    left (web/engine/deadlines.js CLOCK_CAP_SHARE, for a cancel's choice): the time
    manager's cap (timeman CLOCK_CAP_DIVISOR). deadlines.js imports only the job runner's
    modules, so the number is checked here."""
    from gomoku.search.timeman import CLOCK_CAP_DIVISOR

    source = (SITE / "engine" / "deadlines.js").read_text(encoding="utf-8")
    found = re.search(r"export const CLOCK_CAP_SHARE = (\d+);", source)
    assert found and int(found.group(1)) == CLOCK_CAP_DIVISOR
