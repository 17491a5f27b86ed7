"""The level ladder, measured: ``python -m gomoku_lab.ladder [--games 100] [--folder F]``.

Plays every node-limited level against the next (``python -m gomoku_lab.match --level1 A
--level2 B``: colour-swapped pairs from the balanced openings, each game with its pair's
seed), and the two reference players against the levels about their strength: the
first-games player ``F`` (``gomoku_lab.greedy --first-games``) against level 1, the weakest,
and the greedy player ``G`` (``gomoku_lab.greedy``) against level 1 and against level 4
(the weakest level that searches), each match's games in a records file
``F/ladder-<rule>-<A>-<B>.jsonl``. A match already complete in its file is not played
again; an interrupted one is resumed (``--resume``). Then prints the table: each pair's
games, score and Elo +/- 95% (from the pentanomial of its pairs), and each rating: the
greedy player at ``RATING_ANCHOR`` (800), and every other side reached from a rated one
through the chain of pairs with the smallest error (the errors of the differences added
in quadrature).

``--top A:B:MS`` adds a timed pair: level A (node-limited) against the full engine at MS
per move (what a timed level thinks in CPython terms), e.g. ``--top 10:11:5500``.
``--only`` measures listed pairs only (``F-1,1-G,3-4``); ``--table`` prints the table from the
records without playing.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from gomoku.engine.levels import LEVELS, RATING_ANCHOR
from gomoku_lab.pairs import pentanomial_from_records, read_records, record_score1
from gomoku_lab.stats import format_elo

ROOT = Path(__file__).resolve().parents[2]
GREEDY = "G"
FIRST_GAMES = "F"
BRAIN = f"{sys.executable} -m gomoku.pbrain"
PLAYERS = {  # the reference players: their engine commands
    GREEDY: f"{sys.executable} -m gomoku_lab.greedy",
    FIRST_GAMES: f"{sys.executable} -m gomoku_lab.greedy --first-games",
}


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

    def command(
        self, games: int, rule: str, records: Path, resume: bool, concurrency: int = 2
    ) -> list[str]:
        """The match of this rung, the higher side as engine2."""
        cmd = [sys.executable, "-m", "gomoku_lab.match", "--games", str(games), "--rule", rule]
        cmd += ["--openings", str(ROOT / "openings" / "balanced.txt")]
        cmd += ["--concurrency", str(concurrency)]
        if self.low in PLAYERS:
            cmd += ["--engine1", PLAYERS[self.low]]
        else:
            cmd += ["--engine1", BRAIN, "--level1", self.low]
        if self.high in PLAYERS:
            cmd += ["--engine2", PLAYERS[self.high]]
        elif self.turn_ms is None:
            cmd += ["--engine2", BRAIN, "--level2", self.high]
        else:
            cmd += ["--engine2", BRAIN, "--turn-ms", str(self.turn_ms)]
        cmd += ["--resume", str(records)] if resume else ["--records", str(records)]
        return cmd


def default_rungs() -> list[Rung]:
    """F-1, 1-G, G-<the weakest searching level>, then every neighbouring pair of levels."""
    node_levels = [lv for lv in LEVELS if not lv.timed]
    numbers = [str(lv.number) for lv in node_levels]
    first_search = next(str(lv.number) for lv in node_levels if lv.habits is None)
    rungs = [Rung(FIRST_GAMES, numbers[0]), Rung(numbers[0], GREEDY)]
    if first_search != numbers[0]:
        rungs.append(Rung(GREEDY, first_search))
    rungs += [Rung(a, b) for a, b in zip(numbers, numbers[1:], strict=False)]
    return rungs


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
    measured = []
    for rung in rungs:
        got = pair_result(rung.records(folder, rule))
        if got is None:
            lines.append(f"{rung.name:>8} {'-':>6}")
            continue
        games, score, elo, err = got
        lines.append(f"{rung.name:>8} {games:>6} {score:>15.1%} {format_elo(elo, err):>18}")
        if rung.turn_ms is None:
            measured.append((rung, elo, (err / 1.96) ** 2))
    rating: dict[str, tuple[float, float]] = {GREEDY: (float(RATING_ANCHOR), 0.0)}
    while True:  # rate the side a pair reaches with the least variance, one at a time
        reach = []
        for rung, elo, var in measured:
            if rung.low in rating and rung.high not in rating:
                base, v = rating[rung.low]
                reach.append((v + var, rung.high, base + elo))
            elif rung.high in rating and rung.low not in rating:
                base, v = rating[rung.high]
                reach.append((v + var, rung.low, base - elo))
        if not reach:
            break
        var, name, value = min(reach)
        rating[name] = (value, var)
    lines.append("")
    lines.append(f"rating (greedy player = {RATING_ANCHOR}, 95%):")
    names = {GREEDY: "greedy", FIRST_GAMES: "first-games"}
    for name, (elo, var) in rating.items():
        label = names.get(name, f"level {name}")
        lines.append(f"  {label:>11}: {elo:5.0f} +/- {1.96 * math.sqrt(var):.0f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.ladder", description=__doc__)
    ap.add_argument("--games", type=int, default=100, help="games per pair")
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--folder", type=Path, default=Path("ladder"), help="records folder")
    ap.add_argument("--only", default=None, help="pairs to play, e.g. F-1,1-G,3-4")
    ap.add_argument("--top", default=None, help="a timed pair LOW:LEVEL:MS, e.g. 10:11:5500")
    ap.add_argument("--table", action="store_true", help="only print the table")
    ap.add_argument("--concurrency", type=int, default=2, help="games at once in a match")
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
            cmd = rung.command(args.games, args.rule, path, have > 0, args.concurrency)
            print("$", " ".join(cmd), flush=True)
            done = subprocess.run(cmd, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
            if done.returncode != 0:
                print(f"match {rung.name} failed ({done.returncode})", file=sys.stderr)
                return 1
    print("\n".join(table(rungs, args.folder, args.rule)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
