"""web/model/levels-data.js, the level ladder the page lists, is what gomoku.engine.levels
generates (``PYTHONPATH=py python -m gomoku.engine.levels --js > web/model/levels-data.js``), and
the page's old level keys map to levels that exist."""

from __future__ import annotations

import re
from pathlib import Path

from gomoku.engine import levels

ROOT = Path(__file__).resolve().parents[1]


def test_levels_data_js_is_current():
    text = (ROOT / "web" / "model" / "levels-data.js").read_text(encoding="utf-8")
    assert text == levels.levels_js(), (
        "web/model/levels-data.js is stale: PYTHONPATH=py python -m gomoku.engine.levels --js "
        "> web/model/levels-data.js"
    )


def test_the_pages_migration_names_levels_of_the_right_kind():
    """web/model/levels.js OLD_LEVELS: the think-time keys of older pages become node levels up
    to 3 s, Expert (timed, 10 s) for 10 s, Unlimited (timed, 0) for unlimited."""
    source = (ROOT / "web" / "model" / "levels.js").read_text(encoding="utf-8")
    found = re.search(r"OLD_LEVELS = \{([^}]*)\}", source)
    assert found
    old = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", found.group(1))}
    assert set(old) == {"t03", "t1", "t3", "t10", "inf", "fast", "normal", "strong"}
    by_number = {lv.number: lv for lv in levels.LEVELS}
    for key in ("t03", "t1", "t3", "fast", "normal", "strong"):
        assert by_number[old[key]].nodes, key
    assert by_number[old["t10"]].time_ms == 10_000
    assert by_number[old["inf"]].time_ms == 0
