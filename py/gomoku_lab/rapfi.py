"""Rapfi as an outside sparring partner: ``python -m gomoku_lab.rapfi``.

Rapfi (github: dhbloo/rapfi, GPL-3) is a strong Gomocup engine. The lab builds it from a
source folder the developer fetched (see docs/benchmarks-history.md, "Rapfi: the build",
for how the folders were made); nothing of Rapfi is ever committed here, and no test or CI
job needs it.

``build --source DIR --networks DIR --out DIR`` checks that ``--source`` is Rapfi's
source (the repository root, or its ``Rapfi`` folder), configures it with cmake
(Release, one thread, no command modules, explicit SIMD options instead of the host
probe so the flags are known), compiles it under ``nice -n 10`` with ``make -jN``, and
lays out ``OUT/pbrain-rapfi`` beside a ``config.toml`` (the networks repository's example
config with its NNUE evaluator removed and the newest classical model named) and that
model file. Rapfi reads ``config.toml`` from its own folder when the working directory
has none, so the binary then runs as a Gomocup brain from anywhere.

``check --out DIR [--nodes N]`` plays one move each way over the protocol (START, INFO
max_node, BEGIN, TURN, BOARD) and prints the engine command for ``gomoku_lab.match``;
``--ready FILE`` also writes that command to FILE when the check passes.

Example (the folders made with ``git archive``)::

    PYTHONPATH=py python -m gomoku_lab.rapfi build --source /work/rapfi/source \\
        --networks /work/rapfi/networks --out /work/rapfi
    PYTHONPATH=py python -m gomoku_lab.rapfi check --out /work/rapfi --nodes 10000
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gomoku_lab.processes import EngineError, EngineProcess

BINARY_NAME = "pbrain-rapfi"  # the OUTPUT_NAME of Rapfi's cmake target
CONFIG_NAME = "config.toml"
BUILD_INFO_NAME = "BUILD-INFO.txt"
# Files that together say "this is Rapfi's engine source" (paths under its Rapfi folder).
SOURCE_MARKERS = ("CMakeLists.txt", "command/gomocup.cpp", "search/ab/search.cpp", "eval/eval.cpp")
PROJECT_RE = re.compile(r"^\s*project\s*\(\s*rapfi\b", re.IGNORECASE | re.MULTILINE)
CLASSICAL_MODEL_RE = re.compile(r"^model(\d{6})\.bin$")
SIMD_CHOICES = ("avx2", "sse", "none")


class RapfiError(Exception):
    """A folder is not what the build needs, or the build or its check failed."""


@dataclass(frozen=True)
class RapfiSource:
    """A checked Rapfi source tree: its cmake folder and a version string."""

    root: Path
    cmake_dir: Path
    version: str


def find_source(folder: Path) -> RapfiSource:
    """The Rapfi source in ``folder`` (the repository root or its ``Rapfi`` folder).

    Raises RapfiError, naming what is missing, for anything else: a missing folder, a
    folder without Rapfi's engine files, or a CMakeLists.txt of another project."""
    folder = Path(folder)
    if not folder.is_dir():
        raise RapfiError(f"{folder}: no such folder")
    for cmake_dir in (folder / "Rapfi", folder):
        if (cmake_dir / "CMakeLists.txt").is_file() and (cmake_dir / "command").is_dir():
            break
    else:
        raise RapfiError(
            f"{folder} is not Rapfi's source: expected Rapfi/CMakeLists.txt (the repository "
            "root) or CMakeLists.txt with command/ (its Rapfi folder)"
        )
    missing = [m for m in SOURCE_MARKERS if not (cmake_dir / m).is_file()]
    if missing:
        raise RapfiError(f"{folder} is not Rapfi's source: missing {', '.join(missing)}")
    cmake_text = (cmake_dir / "CMakeLists.txt").read_text(encoding="utf-8", errors="replace")
    if not PROJECT_RE.search(cmake_text):
        raise RapfiError(f"{cmake_dir / 'CMakeLists.txt'} does not declare project(rapfi)")
    return RapfiSource(folder, cmake_dir, _source_version(cmake_dir))


def _source_version(cmake_dir: Path) -> str:
    """Rapfi's version from core/version.cpp ("0.43.2"), or "unknown"."""
    path = cmake_dir / "core" / "version.cpp"
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    parts = [
        re.search(rf"#define\s+RAPFI_{k}_VER\s+(\d+)", text) for k in ("MAJOR", "MINOR", "REVISION")
    ]
    return ".".join(m.group(1) for m in parts) if all(parts) else "unknown"  # type: ignore[union-attr]


def find_networks(folder: Path) -> tuple[Path, Path]:
    """(example config, newest classical model) of a rapfi-networks folder. RapfiError
    when either is missing."""
    config = folder / "config-example" / CONFIG_NAME
    if not config.is_file():
        raise RapfiError(f"{folder} is not rapfi-networks: no config-example/{CONFIG_NAME}")
    models = sorted(
        (p for p in (folder / "classical").glob("model*.bin") if CLASSICAL_MODEL_RE.match(p.name)),
        key=lambda p: p.name,
    )
    if not models:
        raise RapfiError(f"{folder} has no classical/modelYYMMDD.bin")
    return config, models[-1]


def classical_config(example: str, model_name: str) -> str:
    """The example config made classical: its ``[model.evaluator]`` tables (the NNUE
    weights, absent from this build) dropped and ``binary_file`` naming ``model_name``.
    One thread comes from the example's own ``default_thread_num = 1``; it is checked."""
    out: list[str] = []
    skipping = False
    for line in example.splitlines():
        header = re.match(r"^\s*\[\[?\s*([\w.]+)\s*\]\]?", line)
        if header:
            skipping = header.group(1).startswith("model.evaluator")
        if skipping:
            continue
        if re.match(r"^\s*binary_file\s*=", line):
            line = f'binary_file = "{model_name}"'
        out.append(line)
    text = "\n".join(out) + "\n"
    if not re.search(r"^\s*default_thread_num\s*=\s*1\s*$", text, re.MULTILINE):
        raise RapfiError("the example config does not set default_thread_num = 1")
    if f'binary_file = "{model_name}"' not in text:
        raise RapfiError("the example config has no [model] binary_file to point at the model")
    return text


def host_simd() -> str:
    """The widest SIMD level of SIMD_CHOICES this CPU runs (from /proc/cpuinfo)."""
    try:
        flags = set(
            re.findall(
                r"\w+", Path("/proc/cpuinfo").read_text().split("flags", 1)[1].split("\n", 1)[0]
            )
        )
    except (OSError, IndexError):
        return "none"
    if {"avx2", "fma", "bmi2"} <= flags:
        return "avx2"
    if {"sse4_1", "ssse3"} <= flags:
        return "sse"
    return "none"


def cmake_options(simd: str) -> list[str]:
    """Rapfi's cmake options for a classical, single-threaded Gomocup brain. The SIMD
    options are given explicitly (Rapfi's default probes the host with -march=native and
    would also enable AVX-512/VNNI where present); AVX-512 stays off: the classical
    evaluation does not use it and the binary then runs on any AVX2 machine."""
    if simd not in SIMD_CHOICES:
        raise RapfiError(f"--simd must be one of {', '.join(SIMD_CHOICES)}")
    on = {"avx2": {"SSE", "AVX2", "BMI2"}, "sse": {"SSE"}, "none": set()}[simd]
    return [
        "-DCMAKE_BUILD_TYPE=Release",
        "-DNO_COMMAND_MODULES=ON",  # selfplay/tuning/database tools: not needed to play
        "-DNO_MULTI_THREADING=ON",  # one thread, always
        *(
            f"-DUSE_{k}={'ON' if k in on else 'OFF'}"
            for k in ("SSE", "AVX2", "BMI2", "AVX512", "VNNI")
        ),
    ]


def _run(cmd: list[str], log: Path) -> None:
    with log.open("a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        raise RapfiError(f"{' '.join(cmd[:3])} ... failed (exit {proc.returncode}); see {log}")


def build(
    source: Path,
    networks: Path,
    out: Path,
    jobs: int = 2,
    simd: str | None = None,
    commit: str | None = None,
) -> Path:
    """Build Rapfi from ``source`` into ``out`` and lay it out as a brain; return the
    binary's path. The source and networks are checked before anything is written."""
    src = find_source(source)
    example, model = find_networks(networks)
    simd = simd or host_simd()
    options = cmake_options(simd)
    config_text = classical_config(example.read_text(encoding="utf-8"), model.name)
    for tool in ("cmake", "make", "nice"):
        if shutil.which(tool) is None:
            raise RapfiError(f"{tool} is not installed")
    out.mkdir(parents=True, exist_ok=True)
    build_dir = out / "build"
    log = out / "build.log"
    log.write_text("", encoding="utf-8")
    _run(["cmake", "-S", str(src.cmake_dir), "-B", str(build_dir), *options], log)
    _run(["nice", "-n", "10", "make", "-C", str(build_dir), f"-j{jobs}"], log)
    built = build_dir / BINARY_NAME
    if not built.is_file():
        raise RapfiError(f"the build made no {BINARY_NAME}; see {log}")
    binary = out / BINARY_NAME
    shutil.copy2(built, binary)
    shutil.copy2(model, out / model.name)
    (out / CONFIG_NAME).write_text(config_text, encoding="utf-8")
    (out / BUILD_INFO_NAME).write_text(
        f"Rapfi {src.version} from {src.root}"
        f"{f' (commit {commit})' if commit else ''}\n"
        f"classical model {model.name}, config from {example}\n"
        f"cmake {' '.join(options)}\n",
        encoding="utf-8",
    )
    return binary


_MOVE_RE = re.compile(r"^(\d+),(\d+)$")


def check(out: Path, nodes: int = 10_000, timeout_s: float = 60.0) -> str:
    """Talk to the built brain: START 15, INFO max_node, BEGIN, TURN, a BOARD; return
    the engine command. RapfiError when an answer is missing or not a legal move."""
    binary = out / BINARY_NAME
    if not binary.is_file():
        raise RapfiError(f"{binary} does not exist: run build first")
    # From an empty working directory, as a match runs it: the config must be found
    # beside the binary.
    with tempfile.TemporaryDirectory() as cwd:
        brain = EngineProcess(shlex.quote(str(binary)), "rapfi", cwd=cwd)
        try:
            brain.start()
            _converse(brain, nodes, timeout_s)
        except EngineError as exc:
            raise RapfiError(f"the built brain: {exc}") from None
        finally:
            brain.stop()
    return str(binary)


def _converse(brain: EngineProcess, nodes: int, timeout_s: float) -> None:
    brain.send("START 15")
    line = brain.read_answer(timeout_s)
    if line != "OK":
        raise RapfiError(f"START 15 answered {line!r}")
    brain.send(
        "INFO timeout_turn 30000",
        "INFO timeout_match 0",
        "INFO rule 0",
        f"INFO max_node {nodes}",
        "BEGIN",
    )
    line = brain.read_answer(timeout_s)
    first = _MOVE_RE.match(line)
    if not first:
        raise RapfiError(f"BEGIN answered {line!r}, not a move")
    mine = (int(first[1]), int(first[2]))
    theirs = (mine[0] + 1 if mine[0] < 14 else mine[0] - 1, mine[1])
    brain.send(f"TURN {theirs[0]},{theirs[1]}")
    line = brain.read_answer(timeout_s)
    second = _MOVE_RE.match(line)
    if not second or (int(second[1]), int(second[2])) in (mine, theirs):
        raise RapfiError(f"TURN answered {line!r}, not a free point")
    # A position given whole: the opponent's four (closed at 4,7) must be blocked at 9,7.
    brain.send(
        "BOARD",
        "5,7,2",
        "6,7,2",
        "7,7,2",
        "8,7,2",
        "4,7,1",
        "7,9,1",
        "8,10,1",
        "10,12,1",
        "DONE",
    )
    line = brain.read_answer(timeout_s)
    if line != "9,7":
        raise RapfiError(f"BOARD with a four to block at 9,7 answered {line!r}")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; 2 on a refused folder or a failed build or check."""
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.rapfi", description=__doc__.split("\n\n")[0]
    )
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build Rapfi from a fetched source folder")
    b.add_argument("--source", required=True, type=Path, help="Rapfi's source (repository root)")
    b.add_argument(
        "--networks",
        type=Path,
        default=None,
        help="rapfi-networks folder (default: SOURCE/Networks)",
    )
    b.add_argument("--out", required=True, type=Path, help="output folder (outside the repository)")
    b.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")
    b.add_argument("--simd", choices=SIMD_CHOICES, default=None, help="default: this CPU's")
    b.add_argument("--commit", default=None, help="the source's commit, for BUILD-INFO.txt")
    c = sub.add_parser("check", help="play a few moves with the built brain")
    c.add_argument("--out", required=True, type=Path)
    c.add_argument("--nodes", type=int, default=10_000)
    c.add_argument("--ready", type=Path, default=None, help="write the engine command here")
    args = p.parse_args(argv)
    try:
        if args.command == "build":
            networks = args.networks or args.source / "Networks"
            binary = build(args.source, networks, args.out, args.jobs, args.simd, args.commit)
            print(f"built {binary}")
            return 0
        command = check(args.out, args.nodes)
    except RapfiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(command)
    if args.ready:
        args.ready.write_text(command + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
