"""The page's generated data (web/model/engine-data.js, levels-data.js, puzzles-data.js) is
what gomoku.protocol.page_data writes now (``PYTHONPATH=py python -m
gomoku.protocol.page_data``), its check sees a stale or missing file, and the page takes the
engine's constants from engine-data.js instead of keeping copies."""

from __future__ import annotations

import re
from pathlib import Path

from gomoku.protocol import page_data

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "web" / "model"
SITE = ROOT / "web"


def test_the_page_data_is_current():
    assert page_data.stale_files(WEB) == [], f"run {page_data.COMMAND}"
    assert set(page_data.PAGE_FILES) == {"engine-data.js", "levels-data.js", "puzzles-data.js"}


def test_the_command_writes_every_file_and_its_check_sees_a_stale_one(tmp_path):
    assert page_data.main(["--check", "--out", str(tmp_path)]) == 1  # none there yet
    assert page_data.main(["--out", str(tmp_path)]) == 0
    for name in page_data.PAGE_FILES:
        assert (tmp_path / name).read_text(encoding="utf-8") == (WEB / name).read_text(
            encoding="utf-8"
        ), name
    assert page_data.main(["--check", "--out", str(tmp_path)]) == 0
    levels = tmp_path / "levels-data.js"
    levels.write_text(levels.read_text(encoding="utf-8").replace('"rating": 243', '"rating": 1'))
    assert page_data.stale_files(tmp_path) == ["levels-data.js"]
    assert page_data.main(["--check", "--out", str(tmp_path)]) == 1
    assert page_data.write_all(tmp_path) == ["levels-data.js"]
    assert page_data.stale_files(tmp_path) == []
    assert page_data.main(["--bogus"]) == 2


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
