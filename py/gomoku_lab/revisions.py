"""Engines given as a commit of this repository: ``rev:REF [brain options]``.

``rev:main`` or ``rev:43bc1d6 --no-book`` names the Gomocup brain of that commit. The
match runner exports the commit's tree (``git archive``, read-only on the repository:
no worktree metadata is written, so it is safe beside other worktrees) into a temporary
folder and runs ``<this Python> -m gomoku.pbrain <options>`` with
``PYTHONPATH=<folder>/py``. The folder is removed when the runner is done with it, also
after an error or Ctrl-C (the ``exported_engines`` context manager). Any other engine
text is a plain command line, used as it is.
"""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REV_PREFIX = "rev:"
BRAIN_MODULE = "gomoku.pbrain"  # the public command, in every revision


class RevisionError(Exception):
    """A rev: engine could not be prepared (not a git repository, unknown revision ...)."""


@dataclass(frozen=True)
class EngineCommand:
    """How to run one engine: a command line, extra environment variables (None: none),
    and a description for the match header (the rev and its commit, or the command)."""

    command: str
    env: dict[str, str] | None = None
    description: str = ""
    folder: Path | None = None  # the exported tree of a rev: engine
    commit: str | None = None


def parse_revision_spec(text: str) -> tuple[str, list[str]] | None:
    """``"rev:REF opt ..."`` -> (REF, [opt, ...]); None for a plain command line.

    Raises RevisionError when the text starts with ``rev:`` but names no revision.
    """
    stripped = text.strip()
    if not stripped.startswith(REV_PREFIX):
        return None
    parts = shlex.split(stripped[len(REV_PREFIX) :])
    if not parts:
        raise RevisionError(f"{text!r}: no revision after {REV_PREFIX!r}")
    return parts[0], parts[1:]


def _git(repo: Path, *args: str) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except OSError as exc:
        raise RevisionError(f"cannot run git: {exc}") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(f"git {' '.join(args)}: {message[-1] if message else 'failed'}")
    return proc.stdout


def repository_root(start: Path | None = None) -> Path:
    """The top folder of the git repository containing ``start`` (default: the current
    folder); RevisionError outside a repository."""
    out = _git(start or Path.cwd(), "rev-parse", "--show-toplevel")
    return Path(out.decode().strip())


def resolve_commit(rev: str, repo: Path) -> str:
    """The full hash of the commit ``rev`` names in ``repo`` (RevisionError if none)."""
    if rev.startswith("-"):
        raise RevisionError(f"not a revision: {rev!r}")
    try:
        out = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except RevisionError:
        raise RevisionError(f"no commit {rev!r} in the repository {repo}") from None
    return out.decode().strip()


def export_commit(commit: str, repo: Path, dest: Path) -> None:
    """Write the tree of ``commit`` into the folder ``dest`` (git archive, extracted with
    the tarfile module's "data" filter: no links out of the folder, no special files)."""
    data = _git(repo, "archive", "--format=tar", commit)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")


def revision_engine(
    rev: str, options: Sequence[str], repo: Path, tmp_root: Path | None = None
) -> EngineCommand:
    """Export ``rev`` into a new temporary folder and describe its brain's command.

    The caller removes ``folder`` (see ``exported_engines``).
    """
    commit = resolve_commit(rev, repo)
    folder = Path(tempfile.mkdtemp(prefix=f"gomoku-rev-{commit[:10]}-", dir=tmp_root))
    try:
        export_commit(commit, repo, folder)
        if not (folder / "py" / "gomoku" / "pbrain.py").exists():
            raise RevisionError(f"{rev} ({commit[:10]}) has no py/gomoku/pbrain.py")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    command = shlex.join([sys.executable, "-m", BRAIN_MODULE, *options])
    shown = " ".join([f"{REV_PREFIX}{rev}", *options])
    return EngineCommand(
        command=command,
        env={"PYTHONPATH": str(folder / "py")},
        description=f"{shown} = commit {commit[:10]}, exported to {folder}",
        folder=folder,
        commit=commit,
    )


def brain_knows_max_node(folder: Path) -> bool:
    """Whether the brain exported in ``folder`` handles ``INFO max_node`` (a brain older
    than that would ignore a node budget and think for its whole turn time)."""
    for source in (
        folder / "py" / "gomoku" / "protocol" / "pbrain.py",  # the product in layers
        folder / "py" / "gomoku" / "pbrain.py",  # the flat package before it
    ):
        if source.is_file() and "max_node" in source.read_text("utf-8", errors="replace"):
            return True
    return False


@contextmanager
def exported_engines(
    specs: Sequence[str], repo: Path | None = None, tmp_root: Path | None = None
) -> Iterator[list[EngineCommand]]:
    """The EngineCommand of each engine text: a plain command line as it is, a
    ``rev:REF [options]`` exported to a temporary folder that is removed on exit from
    the context (normal, error or KeyboardInterrupt). ``repo`` defaults to the
    repository of the current folder (looked up only when a rev: engine is given)."""
    made: list[EngineCommand] = []
    try:
        for text in specs:
            parsed = parse_revision_spec(text)
            if parsed is None:
                made.append(EngineCommand(command=text, description=text))
                continue
            root = repo if repo is not None else repository_root()
            made.append(revision_engine(parsed[0], parsed[1], root, tmp_root))
        yield made
    finally:
        for engine in made:
            if engine.folder is not None:
                shutil.rmtree(engine.folder, ignore_errors=True)
