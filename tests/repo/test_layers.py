"""The house's shape: the engine's layers import only downward, the product never imports
the lab, and the wheel the browser downloads holds the product and its data, nothing else,
and works once installed (outside a checkout)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = ROOT / "py"
PACKAGE = PY / "gomoku"

# Rank of each part of gomoku: a module may import its own part or a part of lower rank.
LAYERS = {
    "core": 0,
    "bench_interp": 0,  # the interpreter's primitives: imports nothing of the engine
    "patterns": 1,
    "game": 2,
    "search": 3,
    "engine": 4,
    "parallel": 5,
    "review": 5,
    "puzzles": 5,  # imports engine (the levels' ratings) and search (the proofs)
    "bench": 6,
    "protocol": 7,
    "pbrain": 8,  # the shim behind python -m gomoku.pbrain
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PY).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part_of(module: str) -> str | None:
    """The layer a gomoku module belongs to (None: the package root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def imported_modules(path: Path, me: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, relative ones resolved
    (``me``: the file's module name, by default from its place under py/)."""
    tree = ast.parse(path.read_text(), str(path))
    here = (me or module_name(path)).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            # "from gomoku import x" imports the module gomoku.x when there is one
            for a in node.names:
                sub = f"{name}.{a.name}"
                if (PY / sub.replace(".", "/")).is_dir() or (
                    PY / (sub.replace(".", "/") + ".py")
                ).is_file():
                    out.append((node.lineno, sub))
    return out


def product_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def layer_mismatch(files: list[Path], layers: dict[str, int]) -> tuple[list[str], list[str]]:
    """(parts of the package with no layer, listed layers with no such part)."""
    parts = {part_of(module_name(p)) for p in files} - {None}
    return sorted(parts - set(layers)), sorted(set(layers) - parts)


def test_every_part_has_a_layer_and_every_layer_is_a_part():
    unlisted, missing = layer_mismatch(product_files(), LAYERS)
    assert not unlisted, f"parts with no layer: {unlisted}"
    assert not missing, f"layers listed for parts that do not exist: {missing}"


def test_the_layer_list_check_sees_a_missing_or_a_made_up_part():
    files = product_files()
    assert layer_mismatch(files, {**LAYERS, "levels": 5}) == ([], ["levels"])
    without_search = {k: v for k, v in LAYERS.items() if k != "search"}
    assert layer_mismatch(files, without_search) == (["search"], [])


def violations(path: Path, me: str | None = None) -> list[str]:
    """The imports of one file that go into the lab or up (or across) the layers."""
    me = me or module_name(path)
    mine = part_of(me)
    wrong = []
    for line, name in imported_modules(path, me):
        where = f"{path.name}:{line} imports {name}"
        if name == "gomoku_lab" or name.startswith("gomoku_lab."):
            wrong.append(where + " (the lab)")
        if not name.startswith("gomoku.") or mine is None:
            continue
        other = part_of(name)
        if other != mine and LAYERS[other] >= LAYERS[mine]:
            wrong.append(f"{where} ({mine} {LAYERS[mine]} -> {other} {LAYERS[other]})")
    return wrong


def test_imports_point_down_and_never_into_the_lab():
    wrong = [v for path in product_files() for v in violations(path)]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_wrong_imports(tmp_path):
    bad = tmp_path / "fake.py"
    bad.write_text(
        "from gomoku.core.errors import GomokuError\n"  # down: fine
        "from ..search.alphabeta import Searcher\n"  # up
        "import gomoku_lab.match\n"  # the lab
        "from gomoku import engine\n"  # up, through the package
    )
    found = violations(bad, "gomoku.game.fake")
    assert len(found) == 3, found
    assert "imports gomoku.search.alphabeta" in found[0] and "(the lab)" in found[1]
    assert "imports gomoku.engine" in found[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built from a copy of what pip reads (pyproject.toml, README.md, py/): setuptools'
    # scratch folders (build/, *.egg-info) then stay out of the checkout, where build.py,
    # perhaps in another pytest-xdist worker at the same time, builds the page's wheel
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(PY, source / "py", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
        check=True,
        cwd=source,
        timeout=600,
    )
    (whl,) = out.glob("*.whl")
    return whl


def test_the_wheel_holds_the_product_and_its_data_only(wheel: Path):
    with zipfile.ZipFile(wheel) as z:
        names = {n for n in z.namelist() if ".dist-info/" not in n}
    assert not [n for n in names if n.startswith("gomoku_lab")]
    assert all(n.startswith("gomoku/") for n in names), sorted(names)
    want = {p.relative_to(PY).as_posix() for p in product_files()}
    assert want <= names, sorted(want - names)
    for data in ("book.txt", "eval-freestyle.json", "patterns-renju-v1.bin.gz"):
        assert f"gomoku/data/{data}" in names


def test_the_installed_wheel_works_outside_the_checkout(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)],
        check=True,
        timeout=600,
    )  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    code = (
        "import gomoku, gomoku.engine.book as b\n"
        f"assert gomoku.__file__.startswith({str(target)!r}), gomoku.__file__\n"
        "book = b.default_book(); assert len(book) > 0\n"
        "from gomoku.engine import Engine, Limits\n"
        "e = Engine(); r = e.think(Limits(time_ms=None, depth=2, use_book=False))\n"
        "print(len(book), r.move)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    brain = subprocess.run(
        [sys.executable, "-m", "gomoku.pbrain"],
        input="START 15\nBEGIN\nEND\n",
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    answers = [s for s in brain.stdout.splitlines() if not s.startswith(("MESSAGE", "DEBUG"))]
    assert answers[:1] == ["OK"] and len(answers) == 2 and answers[1].count(",") == 1, answers
