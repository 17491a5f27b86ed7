"""The documents hold together: README.md stays a page a newcomer reads in five minutes,
and every relative link of README.md and docs/*.md leads to a file that is there (and,
with a #fragment, to a heading of that file, as GitHub names headings)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 200

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def prose(text: str) -> str:
    """The text without fenced code blocks and code spans (which hold no links)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    """The targets of the Markdown links and images in ``text``."""
    return LINK.findall(prose(text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, code marks and punctuation other
    than hyphens and underscores dropped, spaces made hyphens."""
    text = re.sub(r"[`*]", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link: its text
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown text, duplicates numbered as GitHub does."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", text).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def broken_links(doc: Path) -> list[str]:
    """What is wrong with the relative links of ``doc``, one line per bad link."""
    bad = []
    text = doc.read_text(encoding="utf-8")
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: ...
            continue
        path, _, fragment = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            bad.append(f"{target}: no file {dest.relative_to(ROOT)}")
            continue
        if fragment and dest.suffix == ".md":
            if fragment not in anchors(dest.read_text(encoding="utf-8")):
                bad.append(f"{target}: no heading #{fragment} in {dest.relative_to(ROOT)}")
    return bad


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize("doc", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    assert broken_links(doc) == []


def test_readme_shows_a_picture_from_docs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\((docs/[^)\s]+\.png)\)", prose(text))
    assert images, "README.md embeds no PNG from docs/"
    assert all((ROOT / image).is_file() for image in images)


def test_architecture_diagram_is_svg() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    svgs = [t for t in links(text) if t.endswith(".svg")]
    assert len(svgs) == 1
    root = ET.parse(ROOT / "docs" / svgs[0]).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_documents_say_what_not_which_issue() -> None:
    found = [
        f"{doc.relative_to(ROOT)}: {m.group(0)!r}"
        for doc in documents()
        for m in re.finditer(r"\bissues? \d+", doc.read_text(encoding="utf-8"), re.I)
    ]
    assert found == []


# The checker itself, on made-up documents.


def test_checker_finds_a_missing_file_and_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## The build: dist/\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "[ok](other.md#the-build-dist) [gone](missing.md) [bad](other.md#nope)\n"
        "`[code](missing-in-code.md)`\n\n```\n[fenced](missing-in-fence.md)\n```\n"
        "[web](https://example.org/x.md) [self](#doc)\n\n# Doc\n",
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        bad = broken_links(doc)
    finally:
        ROOT = saved
    assert bad == ["missing.md: no file missing.md", "other.md#nope: no heading #nope in other.md"]


def test_slugs_as_github_makes_them() -> None:
    text = "# A `code` Title: with, punctuation!\n## Same\n## Same\n"
    assert anchors(text) == {"a-code-title-with-punctuation", "same", "same-1"}
