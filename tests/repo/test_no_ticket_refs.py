"""Code and docs say what a thing is for, never which ticket made it: no "issue N" in the
product, the lab, the page, the tests, the scripts, the build or the docs (the house rules;
BENCHMARKS.md's headings name what was measured)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The word, an optional "s", one space or line break, an optional "#", then the number.
TICKET = re.compile(r"\b[Ii]ssues?\s?#?[0-9]+")

# Where a reader meets code and docs; each is checked on its own so a failure names it.
AREAS = [
    "py", "web", "tests", "scripts", "docs", "openings", "tools",
    "build.py", "BENCHMARKS.md", "README.md",
]
TEXT_SUFFIXES = {
    ".py", ".js", ".mjs", ".html", ".css", ".md", ".txt", ".sh", ".toml", ".json", ".webmanifest",
}
SKIP_DIRS = {"node_modules", "dist", "__pycache__", ".pytest_cache", "results"}


def text_files(area: Path) -> list[Path]:
    """The text files of an area (a file, or a folder walked without build output)."""
    if area.is_file():
        return [area]
    out = []
    for path in sorted(area.rglob("*")):
        if any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            out.append(path)
    return out


def ticket_refs(text: str) -> list[tuple[int, str]]:
    """(line number, the line) of every ticket reference in a text."""
    found = []
    for match in TICKET.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, text.splitlines()[line - 1].strip()))
    return found


def test_the_pattern_finds_ticket_references_and_nothing_else() -> None:
    word = "iss" + "ue"  # spelled apart so that this file passes its own check
    for text in [
        f"FORMER_SHIFT = 3  # ({word} 29)",
        f"// Parallel search ({word} 7).",
        f"### {word.title()} 22: the book rebuilt",
        f"keeps numpy ({word}\n30) which",
        f"see {word}s #12 and 13",
    ]:
        assert ticket_refs(text), text
    for text in [
        f"the {word}'s target, +150",
        "a tis" + "sue 3 cm wide",  # a word ending in the word is not it
        f"an {word} with the clock: 30 s",
        "issuer 4",
    ]:
        assert not ticket_refs(text), text
    assert ticket_refs(f"one\ntwo {word} 5\nthree") == [(2, f"two {word} 5")]


@pytest.mark.parametrize("area", AREAS)
def test_no_ticket_numbers(area: str) -> None:
    path = ROOT / area
    if not path.exists():
        pytest.skip(f"{area} is not in this checkout")
    files = text_files(path)
    assert files, f"no text file found under {area}: the walk is broken"
    offenders = []
    for file in files:
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line, content in ticket_refs(text):
            offenders.append(f"{file.relative_to(ROOT)}:{line}: {content[:120]}")
    assert not offenders, "say what it is for, not which ticket made it:\n" + "\n".join(
        offenders
    )
