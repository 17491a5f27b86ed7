"""The level ladder, measured: ``python -m gomoku_lab.ladder [--games 100] [--folder F]``.

Plays the greedy player (``gomoku_lab.greedy``) against level 1, then every node-limited
level against the next (``python -m gomoku_lab.match --level1 A --level2 B``: colour-swapped
pairs from the balanced openings, each game with its pair's seed), each match's games in a
records file ``F/ladder-<rule>-<A>-<B>.jsonl``. A match already complete in its file is not
played again; an interrupted one is resumed (``--resume``). Then prints the table: each
neighbouring pair's games, score and Elo +/- 95% (from the pentanomial of its pairs), and
each level's rating, the sum of the differences below it, the greedy player at 0, with
the errors of those differences added in quadrature.

``--top A:B:MS`` adds a timed pair: level A (node-limited) against the full engine at MS
per move (what a timed level thinks in CPython terms), e.g. ``--top 8:9:5500``.
``--only`` measures listed pairs only (``G-1,3-4``); ``--table`` prints the table from the
records without playing.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from gomoku.engine.levels import LEVELS
from gomoku_lab.pairs import pentanomial_from_records, read_records, record_score1
from gomoku_lab.stats import format_elo

ROOT = Path(__file__).resolve().parents[2]
GREEDY = "G"
BRAIN = f"{sys.executable} -m gomoku.pbrain"
GREEDY_CMD = f"{sys.executable} -m gomoku_lab.greedy"


@dataclass
class Rung:
    """One measured pair: ``low`` against ``high`` (level numbers, or "G")."""

    low: str
    high: str
    turn_ms: int | None = None  # a timed high side: the full engine at this many ms

    @property
    def name(self) -> str:
        return f"{self.low}-{self.high}"

    def records(self, folder: Path, rule: str) -> Path:
        return folder / f"ladder-{rule}-{self.name}.jsonl"

    def command(self, games: int, rule: str, records: Path, resume: bool) -> list[str]:
        """The match of this rung, the higher level as engine2."""
        cmd = [sys.executable, "-m", "gomoku_lab.match", "--games", str(games), "--rule", rule]
        cmd += ["--openings", str(ROOT / "openings" / "balanced.txt"), "--concurrency", "2"]
        if self.low == GREEDY:
            cmd += ["--engine1", GREEDY_CMD]
        else:
            cmd += ["--engine1", BRAIN, "--level1", self.low]
        cmd += ["--engine2", BRAIN]
        if self.turn_ms is None:
            cmd += ["--level2", self.high]
        else:
            cmd += ["--turn-ms", str(self.turn_ms)]
        cmd += ["--resume", str(records)] if resume else ["--records", str(records)]
        return cmd


def default_rungs() -> list[Rung]:
    node_levels = [str(lv.number) for lv in LEVELS if not lv.timed]
    chain = [GREEDY, *node_levels]
    return [Rung(a, b) for a, b in zip(chain, chain[1:], strict=False)]


def pair_result(path: Path) -> tuple[int, float, float, float] | None:
    """(games, engine2's score share, engine2's Elo over engine1, 95% error) of a records
    file, from the pentanomial of its complete pairs (None: no complete pair)."""
    if not path.is_file():
        return None
    records = read_records(path)
    counts = pentanomial_from_records(records)
    if counts.pairs == 0:
        return None
    elo, err = counts.elo_with_error()
    score = sum(1.0 - record_score1(r) for r in records) / len(records)
    return len(records), score, -elo, err


def table(rungs: list[Rung], folder: Path, rule: str) -> list[str]:
    """The ladder as text lines (pairs, then ratings)."""
    lines = [f"{'pair':>8} {'games':>6} {'score of higher':>16} {'Elo of higher':>18}"]
    rating: dict[str, tuple[float, float]] = {GREEDY: (0.0, 0.0)}
    for rung in rungs:
        got = pair_result(rung.records(folder, rule))
        if got is None:
            lines.append(f"{rung.name:>8} {'-':>6}")
            continue
        games, score, elo, err = got
        lines.append(f"{rung.name:>8} {games:>6} {score:>15.1%} {format_elo(elo, err):>18}")
        if rung.low in rating and rung.turn_ms is None:
            base, var = rating[rung.low]
            rating[rung.high] = (base + elo, var + (err / 1.96) ** 2)
    lines.append("")
    lines.append("rating (greedy player = 0, 95%):")
    for name, (elo, var) in rating.items():
        label = "greedy" if name == GREEDY else f"level {name}"
        lines.append(f"  {label:>9}: {elo:+7.0f} +/- {1.96 * math.sqrt(var):.0f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.ladder", description=__doc__)
    ap.add_argument("--games", type=int, default=100, help="games per pair")
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--folder", type=Path, default=Path("ladder"), help="records folder")
    ap.add_argument("--only", default=None, help="pairs to play, e.g. G-1,3-4")
    ap.add_argument("--top", default=None, help="a timed pair LOW:LEVEL:MS, e.g. 8:9:5500")
    ap.add_argument("--table", action="store_true", help="only print the table")
    args = ap.parse_args(argv)
    rungs = default_rungs()
    if args.top:
        low, high, ms = args.top.split(":")
        rungs.append(Rung(low, high, int(ms)))
    todo = rungs
    if args.only:
        wanted = set(args.only.split(","))
        todo = [r for r in rungs if r.name in wanted]
    args.folder.mkdir(parents=True, exist_ok=True)
    if not args.table:
        for rung in todo:
            path = rung.records(args.folder, args.rule)
            have = len(read_records(path)) if path.is_file() else 0
            if have >= args.games:
                continue
            cmd = rung.command(args.games, args.rule, path, resume=have > 0)
            print("$", " ".join(cmd), flush=True)
            done = subprocess.run(cmd, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
            if done.returncode != 0:
                print(f"match {rung.name} failed ({done.returncode})", file=sys.stderr)
                return 1
    print("\n".join(table(rungs, args.folder, args.rule)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
