"""The games of the judged set of forced wins (gomoku_lab.mate_set ``play``).

``BATCHES`` are matches of ``gomoku_lab.match``: the page's node-limited levels 4 to 8
against each other (fast, and blind to the machine's load) under freestyle, standard and
renju, and our engine at 30,000 nodes against Rapfi at 10,000 under standard and renju.
The freestyle games against Rapfi are the fixed-node matches of the benchmarks' history
("Our engine at 30,000 nodes against Rapfi at fixed nodes"), added with ``mate_set add``. ``play``
plays each batch into ``FOLDER/<name>.jsonl`` (its output in ``<name>.log``; skipped when
complete, resumed when short) and adds its games to the set's games file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from gomoku_lab.openings import OPENINGS_DIR
from gomoku_lab.review_set import SetError, read_jsonl

RAPFI = "/work/rapfi/pbrain-rapfi"


@dataclass(frozen=True)
class Batch:
    """One match of the set's games (gomoku_lab.match), engine1 against engine2."""

    name: str
    rule: str
    games: int
    engines: tuple[str, ...]  # the match's engine arguments
    openings: str | None = None  # a file of openings/ (None: the match's default)
    seed: int = 1

    def command(self, records: Path, resume: bool) -> list[str]:
        cmd = [sys.executable, "-m", "gomoku_lab.match", *self.engines]
        cmd += ["--games", str(self.games), "--rule", self.rule, "--seed", str(self.seed)]
        if self.openings:
            cmd += ["--openings", str(OPENINGS_DIR / self.openings)]
        return cmd + (["--resume", str(records)] if resume else ["--records", str(records)])


BRAIN = f"{sys.executable} -m gomoku.pbrain"


def _levels(a: int, b: int) -> tuple[str, ...]:
    return ("--engine1", BRAIN, "--level1", str(a), "--engine2", BRAIN, "--level2", str(b))


def _against_rapfi(nodes: int) -> tuple[str, ...]:
    return ("--engine1", BRAIN, "--nodes1", "30000", "--engine2", RAPFI, "--nodes2", str(nodes))


_PAIRS = {
    "freestyle": ((4, 5), (5, 6), (6, 7), (7, 8), (4, 6), (5, 7), (6, 8), (4, 8), (8, 8)),
    "standard": ((4, 6), (5, 7), (6, 8), (7, 8)),
    "renju": ((4, 6), (5, 7), (6, 8), (7, 8)),
}
# The set's games besides the fixed-node matches against Rapfi of BENCHMARKS.md (added
# with ``add``): the levels of the page against each other (node-limited: fast and blind
# to the machine's load) and, under standard and renju, our engine against Rapfi.
BATCHES: tuple[Batch, ...] = (
    *(
        Batch(f"{rule}-L{a}-L{b}", rule, 10, _levels(a, b), "sprt.txt", seed=100 * a + b)
        for rule, pairs in _PAIRS.items()
        for a, b in pairs
    ),
    Batch("standard-n30k-r10k", "standard", 20, _against_rapfi(10_000), "sprt.txt", seed=41),
    Batch("renju-n30k-r10k", "renju", 20, _against_rapfi(10_000), "sprt.txt", seed=41),
)


def play(batches: list[Batch], folder: Path, games_path: Path, nice: int = 10) -> None:
    """Play each batch into ``folder/<name>.jsonl`` (skipped when complete, resumed when
    short; under ``nice -n nice``) and add its games to the games file (SetError when a
    match fails)."""
    from gomoku_lab.mate_set import add_records  # the set's module imports this one

    folder.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "py")}
    for b in batches:
        records = folder / f"{b.name}.jsonl"
        have = len(read_jsonl(records)) if records.exists() else 0
        if have < b.games:
            cmd = ["nice", "-n", str(nice), *b.command(records, resume=have > 0)]
            print("$ " + " ".join(cmd), flush=True)
            with (folder / f"{b.name}.log").open("a", encoding="utf-8") as log:
                proc = subprocess.run(cmd, cwd=root, env=env, stdout=log, stderr=log, check=False)
            if proc.returncode != 0:
                raise SetError(f"batch {b.name}: the match failed (exit {proc.returncode})")
        added = add_records([records], games_path)
        print(f"{b.name}: {added} games added", flush=True)
