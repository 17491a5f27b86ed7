"""The page's level ladder: its old level keys map to levels that exist, and every level
has its name and description in both languages of the page's text (by its key). That
web/model/levels-data.js is current: tests/engine/protocol/test_page_data.py."""

from __future__ import annotations

import re
from pathlib import Path

from gomoku.engine import levels

ROOT = Path(__file__).resolve().parents[3]


def test_every_level_has_a_name_and_a_description_in_both_languages():
    source = (ROOT / "web" / "model" / "i18n-levels.js").read_text(encoding="utf-8")
    tables = re.findall(r"export const LEVELS_(EN|ZH) = \{(.*?)\n\};", source, re.S)
    assert [lang for lang, _ in tables] == ["EN", "ZH"]
    for lang, body in tables:
        keys = set(re.findall(r"\b(level(?:About)?_\w+): \"[^\"]+\"", body))
        want = {f"{kind}_{lv.key}" for lv in levels.LEVELS for kind in ("level", "levelAbout")}
        assert keys == want, (lang, sorted(keys ^ want))


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
