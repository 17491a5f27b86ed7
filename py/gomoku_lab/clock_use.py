"""The engine's time use under a game clock: whole self-play games of the brain under a
Fischer clock (Gomocup's timeout_match and time_left, the increment added by the referee
after each move, as the page's clock does), and what each side spent.

    python -m gomoku_lab.clock_use [--games 2] [--match-ms 300000] [--inc-ms 3000]
                                   [--openings FILE] [--engine CMD]

For each game: its result, and for each colour its moves, the time each took (as the
referee measured it: from the command to the answer), the total used against what the
clock gave (the start plus the increments), the least time it had left, and its longest
move as a share of the time it had then. Then the figures over all games. An engine that
answers after its clock (plus the referee's 200 ms grace) loses on time: "flags" counts
such games. The times are wall time, so a loaded machine changes how deep the engine gets
in them, not how long they take; say the load with the figures (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from gomoku_lab.match import build_schedule
from gomoku_lab.openings import BALANCED_OPENINGS, load_openings
from gomoku_lab.processes import EngineProcess
from gomoku_lab.referee import GameResult, MatchConfig, play_game

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENGINE = f"{sys.executable} -m gomoku.pbrain"
# Gomocup's timeout_turn, sent too: far above any move the clock allows, so that the clock
# alone paces the engine (the tighter bound wins in the time manager)
TURN_MS = 600_000


@dataclass
class SideUse:
    """One colour's time in one game: its moves' times (ms), the total the clock gave (the
    start plus an increment for each move), the least it had left after a move (before
    that move's increment) and its longest move as a share of the time it had then."""

    times: list[int]
    given_ms: int
    least_left_ms: float
    largest_share: float

    @property
    def used_ms(self) -> int:
        return sum(self.times)


def side_use(result: GameResult, colour: int, match_ms: int, inc_ms: int) -> SideUse:
    """The time use of colour (1 black, 2 white) in a finished game, its clock replayed
    from the referee's measured times."""
    first = len(result.spec.opening)  # moves of the opening are not timed
    times = [t for i, t in enumerate(result.times_ms) if 1 + (first + i) % 2 == colour]
    clock, least, share = float(match_ms), float(match_ms), 0.0
    for t in times:
        share = max(share, t / clock if clock > 0 else 1.0)
        clock -= t
        least = min(least, clock)
        clock += inc_ms
    return SideUse(times, match_ms + inc_ms * len(times), least, share)


def describe(use: SideUse) -> str:
    """One colour's line: moves, used of given, least left, longest move."""
    if not use.times:
        return "no move"
    longest, median = max(use.times) / 1000, statistics.median(use.times) / 1000
    return (
        f"{len(use.times)} moves, used {use.used_ms / 1000:.1f} s of {use.given_ms / 1000:.0f} s "
        f"given, least left {use.least_left_ms / 1000:.1f} s, longest {longest:.1f} s "
        f"({use.largest_share:.0%} of its time then), median {median:.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.clock_use", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", type=int, default=2, help="games (colour-swapped pairs), default 2")
    p.add_argument(
        "--match-ms", type=int, default=300_000, help="each side's time, ms (default 5 min)"
    )
    p.add_argument("--inc-ms", type=int, default=3000, help="increment per move, ms (default 3 s)")
    p.add_argument("--openings", default=str(BALANCED_OPENINGS), help="openings file")
    p.add_argument("--seed", type=int, default=1, help="shuffles the openings")
    p.add_argument("--engine", default=DEFAULT_ENGINE, help="the brain's command line (both sides)")
    args = p.parse_args(argv)
    openings = load_openings(args.openings)
    cfg = MatchConfig(
        args.engine,
        args.engine,
        games=args.games,
        turn_ms=TURN_MS,
        match_ms=args.match_ms,
        inc_ms=args.inc_ms,
        seed=args.seed,
    )
    env = {"PYTHONPATH": str(ROOT / "py")}
    engines = [
        EngineProcess(cfg.engine1, "engine1", env=env),
        EngineProcess(cfg.engine2, "engine2", env=env),
    ]
    print(
        f"clock use: {args.games} self-play games, {args.match_ms / 1000:.0f} s + "
        f"{args.inc_ms / 1000:g} s a move each, openings {Path(args.openings).name}, {args.engine}",
        flush=True,
    )
    all_times: list[int] = []
    flags = 0
    uses: list[SideUse] = []
    try:
        for spec in build_schedule(openings, args.games, args.seed):
            result = play_game(engines, spec, cfg)
            flags += result.kind == "time"
            print(
                f"game {spec.index + 1}: opening of {len(spec.opening)} stones, "
                f"{len(result.moves)} stones, {result.kind}: {result.reason}",
                flush=True,
            )
            for colour, name in ((1, "black"), (2, "white")):
                use = side_use(result, colour, args.match_ms, args.inc_ms)
                uses.append(use)
                all_times += use.times
                print(f"  {name}: {describe(use)}", flush=True)
                print("    " + " ".join(f"{t / 1000:.1f}" for t in use.times), flush=True)
    finally:
        for e in engines:
            e.stop()
    if all_times:
        mean, median = statistics.mean(all_times) / 1000, statistics.median(all_times) / 1000
        least = min(u.least_left_ms for u in uses) / 1000
        used = sum(u.used_ms for u in uses) / sum(u.given_ms for u in uses)
        print(
            f"all: {len(all_times)} moves, mean {mean:.2f} s, median {median:.2f} s, "
            f"max {max(all_times) / 1000:.1f} s; least left {least:.1f} s; "
            f"used {used:.0%} of the time given; lost on time: {flags} of {args.games} games"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
