"""Engine-vs-engine matches over the Gomocup protocol: ``python -m gomoku_lab.match``.

Plays two Gomocup (pbrain) engines against each other from a file of openings. Each
opening is played twice with colours swapped: games 2k+1 and 2k+2 form pair k+1, engine1
black in the first. The referee (referee.py) plays the games; this module schedules them,
runs them on ``--concurrency`` pairs of engine processes, and reports:

- per game: the result and the running W/L/D;
- per completed pair: the pentanomial counts (pairs scoring engine1 0, 1/2, 1, 3/2, 2),
  the Elo with its 95% error from the pentanomial variance, and with ``--sprt`` the LLR
  and its bounds (stats.py, sprt.py);
- at the end: W/L/D with the Elo from the trinomial (per game) variance, the pentanomial
  line, by colour, endings, moves, answer times, reported depths and nodes, and the
  SPRT's verdict ("H1 accepted", "H0 accepted" or "undecided").

Engines. ``--engine1`` / ``--engine2`` take a command line, or ``rev:REF [options]`` for
the brain of a commit of this repository (revisions.py: exported to a temporary folder,
run with its own PYTHONPATH, removed afterwards, also on error or Ctrl-C).

Fixed nodes. ``--nodes N`` sends both engines ``INFO max_node N`` (``--nodes1`` /
``--nodes2`` give each its own budget). Our brain then plays deterministically whatever
the machine load (see gomoku.protocol.pbrain), so results do not depend on other jobs. The turn
time defaults to a generous ``10 s + 2 ms per node`` of the larger budget: time does not
decide, but an engine that hangs still loses. The default openings become
``openings/sprt.txt`` (about 1,500 openings, see gomoku_lab.openings): with deterministic
engines an opening replayed is the same pair of games, so a match needs games / 2
distinct openings (a warning says when it has fewer).

Against Rapfi. When an engine's program is Rapfi (its file name contains "rapfi", e.g.
``/work/rapfi/pbrain-rapfi``), the default openings are those Rapfi itself calls balanced,
``openings/rapfi-<rule>.txt`` (gomoku_lab.rapfi_openings), timed or at fixed nodes, when
the file for the match's rule exists; ``--openings`` still overrides.

SPRT. ``--sprt ELO0 ELO1`` (alpha = beta = 0.05) stops the match when the LLR of the
completed pairs crosses a bound, or at ``--games`` (the maximum); games already being
played when it stops are finished and counted.

Swap2. ``--swap2`` plays each game's opening under swap2 by Gomocup's SWAP2BOARD
(gomoku_lab.swap2) instead of taking it from a file: in each pair engine1 opens the first
game and engine2 the second. The summary counts each engine's choices (as the second
player: black, white or two more stones; as the first player after two more: black or
white) and the results after each.

Records. ``--records FILE`` writes one JSON line per game (moves, result, the last
MESSAGE before each move, ``pair`` and ``score1``); ``--from-records FILE [--sprt A B]``
recomputes the summary's pair statistics from such a file without playing.

Resuming. ``--resume FILE`` continues an interrupted match from its records: given the
same engines, limits, openings and seed, the schedule is the same, so the complete pairs
of FILE are counted (in the pair statistics and the SPRT) and not played again, a game
whose partner is missing is dropped, and the new games are appended to FILE. Each kept
record must have the opening the schedule gives its game (else the match refuses to
start). At fixed nodes our brain is deterministic, so a resumed match is the match that
would have been played without the interruption.

Example: this working tree against main, 3,000 nodes per move, SPRT [0, 20]::

    PYTHONPATH=py python -m gomoku_lab.match --engine1 "python -m gomoku.pbrain" \\
        --engine2 rev:main --nodes 3000 --sprt 0 20 --games 2000 --concurrency 2

Engine processes are kept across games (new game with ``RESTART``, or ``START`` when an
engine refuses RESTART) and restarted after a crash or a timeout. ``--concurrency K`` plays
K games at once, each with its own pair of processes. Only the engine to move thinks
(there is no pondering), so K games keep K engines busy: with K equal to the number of
cores the engines already compete with everything else on the machine (the referee, the
OS, other jobs), and K above it divides the CPU, so a think time no longer buys the same
depth (fixed-node play is not affected, only slower).
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import re
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import moves_to_text
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from gomoku.engine.levels import level as level_of
from gomoku_lab.openings import (
    BALANCED_OPENINGS,
    SPRT_OPENINGS,
    default_openings,
    load_openings,
    rapfi_openings,
)
from gomoku_lab.pairs import (
    PairTracker,
    game_record,
    pair_line,
    pentanomial_from_records,
    read_records,
    record_score1,
    time_use,
)
from gomoku_lab.processes import EngineProcess
from gomoku_lab.referee import (
    DEFAULT_TOLERANCE_MS,
    GameResult,
    GameSpec,
    MatchConfig,
    play_game,
)
from gomoku_lab.revisions import RevisionError, brain_knows_max_node, exported_engines
from gomoku_lab.sprt import UNDECIDED, Sprt
from gomoku_lab.stats import Pentanomial, elo_with_error, format_elo, score_stats
from gomoku_lab.swap2 import play_swap2_game

__all__ = [
    "GameResult",
    "GameSpec",
    "MatchConfig",
    "MatchSummary",
    "build_schedule",
    "load_openings",
    "main",
    "pentanomial_from_records",
    "run_match",
]

Point = tuple[int, int]

NODE_TURN_BASE_MS = 10_000
NODE_TURN_MS_PER_NODE = 2
_DEPTH_RE = re.compile(r"\bdepth\s+(\d+)", re.IGNORECASE)
_NODES_RE = re.compile(r"\bnodes\s+(\d+)", re.IGNORECASE)


def default_turn_ms(nodes: Iterable[int | None]) -> int:
    """The turn time given to node-limited engines when none is asked for: 10 s plus
    2 ms per node of the larger budget (our brain searches about 10-50 nodes per ms, so
    this is far more than a move needs even on a loaded machine; a hung engine still
    loses)."""
    budget = max((n for n in nodes if n is not None), default=0)
    return NODE_TURN_BASE_MS + NODE_TURN_MS_PER_NODE * budget


def build_schedule(openings: list[list[Point]], games: int, seed: int | None) -> list[GameSpec]:
    """Games in pairs: each opening with engine1 as black, then as white. Openings are
    taken in file order (shuffled when a seed is given), cycling when games exceed twice
    their number. (Under swap2 the openings are not used: ``black`` is the engine that
    opens.)"""
    order = list(range(len(openings)))
    if seed is not None:
        random.Random(seed).shuffle(order)
    specs: list[GameSpec] = []
    k = 0
    while len(specs) < games:
        oi = order[k % len(order)]
        k += 1
        for black in (0, 1):
            if len(specs) < games:
                specs.append(GameSpec(len(specs), oi, list(openings[oi]), black))
    return specs


# --------------------------------------------------------------------------------------
# Match


@dataclass
class MatchSummary:
    """Results of a match, in game order, and the SPRT's verdict if one ran.

    decision is the verdict at the first crossing of a bound (UNDECIDED if none, None
    without an SPRT), decided_after its number of pairs. resumed holds engine1's scores
    (by game index) of the games of a resumed match's earlier run: they count in the pair
    statistics, not in the per-game lines."""

    results: list[GameResult]
    names: list[str]
    sprt: Sprt | None = None
    decision: str | None = None
    decided_after: int | None = None
    resumed: dict[int, float] = field(default_factory=dict)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.winner == 0)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.results if r.winner == 1)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    @property
    def pentanomial(self) -> Pentanomial:
        tracker = PairTracker()
        for index, score in self.resumed.items():
            tracker.add(index, score)
        for r in self.results:
            tracker.add(r.spec.index, r.score1)
        return tracker.pentanomial

    def lines(self) -> list[str]:
        """The final report as text lines (the first starts with "Result:")."""
        w, l, d = self.wins, self.losses, self.draws
        n = w + l + d
        out = []
        if n == 0:
            return ["Result: no games played"]
        score, se = score_stats(w, l, d)
        out.append(
            f"Result: engine1 {self.names[0]} vs engine2 {self.names[1]}: "
            f"+{w} -{l} ={d} of {n}, score {100 * score:.1f}% (+/- {196 * se:.1f}), "
            f"Elo {format_elo(*elo_with_error(w, l, d))} (95%)"
        )
        out.extend(self.pair_lines())
        out.extend(swap2_lines(self.results, self.names))
        by_colour: Counter[tuple[str, str]] = Counter()
        for r in self.results:
            side = "black" if r.spec.black == 0 else "white"
            by_colour[side, "w" if r.winner == 0 else "l" if r.winner == 1 else "d"] += 1
        for side in ("black", "white"):
            out.append(
                f"engine1 as {side}: +{by_colour[side, 'w']} -{by_colour[side, 'l']} "
                f"={by_colour[side, 'd']}"
            )
        colour_wins = Counter(r.result_text for r in self.results)
        out.append(
            f"black won {colour_wins['1-0']}, white won {colour_wins['0-1']}, "
            f"draws {colour_wins['1/2-1/2']}"
        )
        reasons = Counter(r.kind for r in self.results)
        out.append("endings: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
        moves = [len(r.moves) for r in self.results]
        times = [t for r in self.results for t in r.times_ms]
        out.append(
            f"moves per game: mean {sum(moves) / n:.1f}, max {max(moves)}; "
            f"answer time: mean {sum(times) / max(1, len(times)):.0f} ms, "
            f"max {max(times, default=0)} ms"
        )
        for label, pattern in (("depth", _DEPTH_RE), ("nodes", _NODES_RE)):
            values = [
                int(m.group(1))
                for r in self.results
                for info in r.infos
                if (m := pattern.search(info))
            ]
            if values:
                out.append(
                    f"reported search {label} (last MESSAGE per move): mean "
                    f"{sum(values) / len(values):.1f} over {len(values)} moves"
                )
        return out

    def pair_lines(self) -> list[str]:
        """The pentanomial line and, with an SPRT, its verdict line."""
        counts = self.pentanomial
        if counts.pairs == 0:
            return ["pentanomial: no complete pair"]
        elo, err = counts.elo_with_error()
        resumed = f" (with {len(self.resumed) // 2} resumed)" if self.resumed else ""
        out = [
            f"pentanomial (pairs scoring engine1 0, 1/2, 1, 3/2, 2): {counts.text()} of "
            f"{counts.pairs} pairs{resumed}, Elo {format_elo(elo, err)} (95%, pentanomial)"
        ]
        if self.sprt is not None:
            verdict = self.decision or UNDECIDED
            when = f" after {self.decided_after} pairs" if self.decided_after else ""
            out.append(f"SPRT: {verdict}{when}; final {self.sprt.status(counts)}")
        return out


def swap2_lines(results: Sequence[GameResult], names: Sequence[str]) -> list[str]:
    """Under swap2: each engine's choices and engine1's results after each (nothing for
    games without a swap2 opening)."""
    played = [r for r in results if r.swap2 and "fault" not in r.swap2]
    if not played:
        return []
    out = [f"swap2: {len(played)} openings played, {len(results) - len(played)} faulty"]
    for idx in (0, 1):
        label = f"engine{idx + 1}"
        chooser = [r for r in played if r.swap2["opener"] != label]
        finals = [r for r in played if r.swap2["opener"] == label and r.swap2["final"]]
        for role, games, key in (
            ("second player", chooser, "choice"),
            ("first player after two", finals, "final"),
        ):
            if not games:
                continue
            parts = []
            for option in ("black", "white", "two"):
                picked = [r for r in games if r.swap2[key] == option]
                if picked:
                    w = sum(1 for r in picked if r.winner == idx)
                    lost = sum(1 for r in picked if r.winner == 1 - idx)
                    d = len(picked) - w - lost
                    parts.append(f"{option} {len(picked)} (+{w} -{lost} ={d})")
            out.append(f"{label} ({names[idx]}) as {role}: " + ", ".join(parts))
    return out


def run_match(
    cfg: MatchConfig,
    specs: list[GameSpec],
    out: TextIO | None = None,
    on_result: Callable[[GameResult, list[str]], None] | None = None,
    sprt: Sprt | None = None,
    resumed: dict[int, float] | None = None,
) -> MatchSummary:
    """Play the scheduled games with cfg.concurrency workers; print a line per game and
    one per completed pair to ``out`` (default sys.stdout).

    resumed maps the game indices of complete pairs already played (a resumed match) to
    engine1's scores: they start the pair statistics and the SPRT, and with a decision
    already reached no game is played.

    on_result(result, names) is called (under a lock) after each game, in finishing order.
    With ``sprt``, no new game starts once the LLR of the completed pairs has crossed a
    bound (games under way are finished and counted). On an exception or
    KeyboardInterrupt in the calling thread every engine process is killed before it
    propagates.
    """
    stream = out if out is not None else sys.stdout
    results: dict[int, GameResult] = {}  # by game index (a resumed match skips some)
    names = ["engine1", "engine2"]
    todo: queue.Queue[GameSpec] = queue.Queue()
    for s in specs:
        todo.put(s)
    lock = threading.Lock()
    decided = threading.Event()  # the SPRT decided: start no more games
    interrupted = threading.Event()  # the caller is unwinding: drop games under way
    errors: list[BaseException] = []
    tally = [0, 0, 0]  # engine1 wins, losses, draws
    pairs = PairTracker()
    verdict: dict[str, Any] = {"decision": UNDECIDED if sprt else None, "after": None}
    for index, score in (resumed or {}).items():
        pairs.add(index, score)
    if resumed:
        stream.write(f"resumed {pair_line(pairs.pentanomial, sprt)}\n")
        if sprt is not None:
            decision = sprt.decision(sprt.llr(pairs.pentanomial))
            if decision != UNDECIDED:
                verdict["decision"], verdict["after"] = decision, pairs.pentanomial.pairs
                decided.set()
                stream.write(f"SPRT: {decision} already; no new games\n")
    processes: list[EngineProcess] = []

    def record(res: GameResult, spec: GameSpec, engines: list[EngineProcess]) -> None:
        """Under the lock: keep the result, print its lines, update the SPRT."""
        for i, e in enumerate(engines):
            if e.name and names[i] == f"engine{i + 1}":
                names[i] = e.name
        results[spec.index] = res
        tally[0 if res.winner == 0 else 1 if res.winner == 1 else 2] += 1
        played = res.spec  # under swap2: the opening as the engines played it
        black = f"engine{played.black + 1}"
        how = f"opening {spec.opening_index + 1}: "
        if res.swap2 is not None:
            how = f"swap2 by {res.swap2['opener']}: {res.swap2.get('choice')}"
            how += f", {res.swap2['final']}: " if res.swap2.get("final") else ": "
        stream.write(
            f"[{sum(tally)}/{len(specs)}] game {spec.index + 1} "
            f"({how}{moves_to_text(played.opening, cfg.size) or '-'}; black={black}): "
            f"{res.result_text} {res.reason}, {len(res.moves)} moves | engine1 "
            f"+{tally[0]} -{tally[1]} ={tally[2]}\n"
        )
        if pairs.add(spec.index, res.score1) is not None:
            counts = pairs.pentanomial
            stream.write(pair_line(counts, sprt) + "\n")
            if sprt is not None and verdict["decision"] == UNDECIDED:
                decision = sprt.decision(sprt.llr(counts))
                if decision != UNDECIDED:
                    verdict["decision"], verdict["after"] = decision, counts.pairs
                    decided.set()
                    stream.write(f"SPRT: {decision} after {counts.pairs} pairs; no new games\n")
        stream.flush()
        if on_result:
            on_result(res, names)

    def worker() -> None:
        engines = [
            EngineProcess(cfg.engine1, "engine1", cfg.verbose, env=cfg.env1),
            EngineProcess(cfg.engine2, "engine2", cfg.verbose, env=cfg.env2),
        ]
        with lock:
            processes.extend(engines)
            if interrupted.is_set():
                return
        try:
            while not errors and not decided.is_set() and not interrupted.is_set():
                try:
                    spec = todo.get_nowait()
                except queue.Empty:
                    return
                res = (play_swap2_game if cfg.swap2 else play_game)(engines, spec, cfg)
                with lock:
                    if interrupted.is_set():
                        return  # the engines were killed under this game
                    record(res, spec, engines)
        except BaseException as exc:  # surfaced by the main thread
            errors.append(exc)
        finally:
            for e in engines:
                e.stop()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, cfg.concurrency))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
    except BaseException:
        interrupted.set()
        with lock:
            for e in processes:
                e.close()
        for t in threads:
            t.join(5)
        raise
    if errors:
        raise errors[0]
    return MatchSummary(
        [results[i] for i in sorted(results)],
        names,
        sprt=sprt,
        decision=verdict["decision"],
        decided_after=verdict["after"],
        resumed=dict(resumed or {}),
    )


# --------------------------------------------------------------------------------------
# Command line


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.match",
        description="Play two Gomocup engines against each other from balanced openings, "
        "in colour-swapped pairs; optionally at fixed nodes and as an SPRT.",
        epilog="An engine is a command line, or rev:REF [brain options] for the brain of a "
        "commit of this repository (e.g. rev:main, 'rev:43bc1d6 --no-book').",
    )
    p.add_argument("--engine1", help="engine 1: command line or rev:REF [options]")
    p.add_argument("--engine2", help="engine 2: command line or rev:REF [options]")
    p.add_argument("--games", type=int, default=2, help="number of games; the maximum with --sprt")
    p.add_argument(
        "--turn-ms",
        type=int,
        default=None,
        help="time per move in ms (required without --nodes; with --nodes default "
        f"{NODE_TURN_BASE_MS} + {NODE_TURN_MS_PER_NODE} per node)",
    )
    p.add_argument("--turn-ms1", type=int, default=None, help="engine 1's time per move in ms")
    p.add_argument("--turn-ms2", type=int, default=None, help="engine 2's time per move in ms")
    p.add_argument("--nodes", type=int, default=None, help="node budget per move (both)")
    p.add_argument("--nodes1", type=int, default=None, help="engine 1's node budget")
    p.add_argument("--nodes2", type=int, default=None, help="engine 2's node budget")
    p.add_argument(
        "--level1",
        type=int,
        default=None,
        help="engine 1's level (INFO level; gomoku.engine.levels)",
    )
    p.add_argument("--level2", type=int, default=None, help="engine 2's level")
    p.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        default=None,
        help="SPRT of H0 elo0 against H1 elo1 (logistic Elo, alpha = beta = 0.05); "
        "stops at a decision",
    )
    p.add_argument(
        "--openings",
        default=None,
        help=f"openings file (default {BALANCED_OPENINGS.name}; with --nodes or --sprt "
        f"{SPRT_OPENINGS.name}; when an engine's program is Rapfi "
        f"{rapfi_openings(Rule.FREESTYLE).name} (or the rule's), if it exists; all in "
        f"{SPRT_OPENINGS.parent})",
    )
    p.add_argument("--size", type=int, default=DEFAULT_SIZE, help="board size 15..20")
    p.add_argument("--rule", default="freestyle", choices=[r.label for r in Rule])
    p.add_argument("--match-ms", type=int, default=None, help="time per game per engine, ms")
    p.add_argument(
        "--inc-ms",
        type=int,
        default=0,
        help="with --match-ms: a Fischer increment, added to an engine's clock after each move",
    )
    p.add_argument(
        "--tolerance-ms",
        type=int,
        default=DEFAULT_TOLERANCE_MS,
        help=f"grace added to every time limit (default {DEFAULT_TOLERANCE_MS})",
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle the openings with this seed")
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once (default 1). K games keep K engines thinking; on a "
        "2-core machine K=2 leaves no core for anything else and K>2 divides the CPU",
    )
    p.add_argument(
        "--records", "--pgn-out", dest="records", default=None, help="write JSON-lines records"
    )
    p.add_argument(
        "--from-records",
        default=None,
        metavar="FILE",
        help="play nothing: recompute the pair statistics (and --sprt) of a records file",
    )
    p.add_argument(
        "--resume",
        default=None,
        metavar="FILE",
        help="continue the match recorded in FILE (same engines, limits, openings and seed): "
        "its complete pairs count and are not replayed; new records are appended to it",
    )
    p.add_argument(
        "--swap2",
        action="store_true",
        help="the engines play each opening under swap2 (SWAP2BOARD); engine1 opens the "
        "first game of each pair, engine2 the second",
    )
    p.add_argument("--verbose", action="store_true", help="show the engines' stderr")
    return p


def resumable_games(
    records: list[dict[str, Any]], specs: list[GameSpec], size: int
) -> dict[int, float]:
    """The games of ``records`` (an interrupted match's) that a resumed match keeps:
    engine1's score by game index, for the complete pairs only. ValueError when a record
    does not fit the schedule (another opening, file or seed) or a game appears twice."""
    scores: dict[int, float] = {}
    for rec in records:
        index = int(rec["game"]) - 1
        if not 0 <= index < len(specs):
            raise ValueError(f"game {index + 1} is not in this match's {len(specs)} games")
        expected = moves_to_text(specs[index].opening, size)
        if rec.get("opening") != expected:
            raise ValueError(
                f"game {index + 1} was played from {rec.get('opening')!r}, this schedule "
                f"gives {expected!r}: not the same openings, seed or match"
            )
        if index in scores:
            raise ValueError(f"game {index + 1} appears twice")
        scores[index] = record_score1(rec)
    return {i: s for i, s in scores.items() if (i ^ 1) in scores}


def summarize_records(path: str, sprt: Sprt | None, out: TextIO) -> int:
    """--from-records: the pair statistics of a records file."""
    records = read_records(path)
    counts = pentanomial_from_records(records)
    wins = sum(1 for r in records if record_score1(r) == 1.0)
    losses = sum(1 for r in records if record_score1(r) == 0.0)
    draws = len(records) - wins - losses
    out.write(f"{path}: {len(records)} games, engine1 +{wins} -{losses} ={draws}\n")
    for engine in ("engine1", "engine2"):
        use = time_use(records, engine)
        if use is not None:
            out.write(
                f"{engine} time on its {use.searched} searched moves: share of the turn mean "
                f"{use.mean_share:.0%}, median {use.median_share:.0%}, 90th percentile "
                f"{use.p90_share:.0%} ({use.other} book / forced / threat moves apart)\n"
            )
    if counts.pairs == 0:
        out.write("pentanomial: no complete pair\n")
        return 0
    out.write(pair_line(counts, sprt) + "\n")
    return 0


def _node_budgets(args: argparse.Namespace) -> tuple[int | None, int | None]:
    nodes1 = args.nodes1 if args.nodes1 is not None else args.nodes
    nodes2 = args.nodes2 if args.nodes2 is not None else args.nodes
    return nodes1, nodes2


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status (2 on bad arguments, 130 when
    interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    sprt = None
    if args.sprt is not None:
        try:
            sprt = Sprt(args.sprt[0], args.sprt[1])
        except ValueError as exc:
            parser.error(f"--sprt: {exc}")
    if args.from_records:
        try:
            return summarize_records(args.from_records, sprt, sys.stdout)
        except (OSError, ValueError, KeyError) as exc:
            parser.error(f"--from-records: {exc}")
    if not args.engine1 or not args.engine2:
        parser.error("--engine1 and --engine2 are required (unless --from-records)")
    if args.swap2 and args.resume:
        parser.error("--resume needs openings from a file: not with --swap2")
    if args.resume and args.records and args.records != args.resume:
        parser.error("--resume appends to its own file: leave out --records")
    try:
        size = check_size(args.size)
        rule = parse_rule(args.rule)
    except GomokuError as exc:
        parser.error(str(exc))
    nodes1, nodes2 = _node_budgets(args)
    if any(n is not None and n < 1 for n in (nodes1, nodes2)):
        parser.error("--nodes, --nodes1 and --nodes2 must be >= 1")
    levels = (args.level1, args.level2)
    level_nodes = []
    for lv in levels:
        if lv is None:
            continue
        try:
            level_nodes.append(level_of(lv).nodes)
        except GomokuError as exc:
            parser.error(str(exc))
    node_limited = (
        nodes1 is not None or nodes2 is not None or any(n is not None for n in level_nodes)
    )
    turn_ms = args.turn_ms
    if turn_ms is None and args.turn_ms1 is not None and args.turn_ms2 is not None:
        turn_ms = max(args.turn_ms1, args.turn_ms2)
    if turn_ms is None:
        if not node_limited:
            parser.error("--turn-ms is required without --nodes")
        turn_ms = default_turn_ms((nodes1, nodes2, *level_nodes))
    if args.games < 1 or turn_ms < 0 or args.concurrency < 1:
        parser.error("--games and --concurrency must be >= 1 and --turn-ms >= 0")
    if any(ms is not None and ms < 0 for ms in (args.turn_ms1, args.turn_ms2)):
        parser.error("--turn-ms1 and --turn-ms2 must be >= 0")
    if args.openings:
        path = Path(args.openings)
    else:
        fixed = node_limited or sprt is not None
        path = default_openings(rule, fixed, [args.engine1, args.engine2])
    try:
        openings = load_openings(path, size)
    except (OSError, ValueError) as exc:
        parser.error(f"openings: {exc}")

    previous_handler = previous_int = None
    if threading.current_thread() is threading.main_thread():
        # SIGTERM ends the match like Ctrl-C: engines killed, rev: folders removed. Ctrl-C
        # too, even when the parent started us with SIGINT ignored (a test runner whose
        # process ignores it; Python then installs no KeyboardInterrupt handler).
        previous_handler = signal.signal(signal.SIGTERM, _raise_interrupt)
        previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with ExitStack() as stack:
            try:
                engines = stack.enter_context(exported_engines([args.engine1, args.engine2]))
            except RevisionError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            for engine, nodes in zip(engines, (nodes1, nodes2), strict=True):
                if nodes is not None and engine.folder and not brain_knows_max_node(engine.folder):
                    print(
                        f"error: {engine.description}: this brain does not know INFO max_node, "
                        "so it cannot play at fixed nodes",
                        file=sys.stderr,
                    )
                    return 2
            cfg = MatchConfig(
                engine1=engines[0].command,
                engine2=engines[1].command,
                games=args.games,
                turn_ms=turn_ms,
                size=size,
                rule=rule,
                match_ms=args.match_ms,
                inc_ms=args.inc_ms,
                tolerance_ms=args.tolerance_ms,
                concurrency=args.concurrency,
                seed=args.seed,
                verbose=args.verbose,
                nodes1=nodes1,
                nodes2=nodes2,
                turn_ms1=args.turn_ms1,
                turn_ms2=args.turn_ms2,
                level1=args.level1,
                level2=args.level2,
                env1=engines[0].env,
                env2=engines[1].env,
                swap2=args.swap2,
            )
            return _play(cfg, openings, path, sprt, args.records, engines, args.resume)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGTERM, previous_handler)
        if previous_int is not None:
            signal.signal(signal.SIGINT, previous_int)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _play(
    cfg: MatchConfig,
    openings: list[list[Point]],
    path: Path,
    sprt: Sprt | None,
    records_path: str | None,
    engines: Sequence[Any],
    resume_path: str | None = None,
) -> int:
    specs = build_schedule(openings, cfg.games, cfg.seed)
    resumed: dict[int, float] = {}
    kept: list[dict[str, Any]] = []
    if resume_path:
        try:
            old = read_records(resume_path)
            resumed = resumable_games(old, specs, cfg.size)
        except (OSError, ValueError, KeyError) as exc:
            print(f"error: --resume {resume_path}: {exc}", file=sys.stderr)
            return 2
        kept = sorted((r for r in old if int(r["game"]) - 1 in resumed), key=lambda r: r["game"])
        specs = [s for s in specs if s.index not in resumed]
        records_path = resume_path
    per_move = (
        f"{cfg.turn_ms_of(0)}"
        if cfg.turn_ms_of(0) == cfg.turn_ms_of(1)
        else f"{cfg.turn_ms_of(0)} (engine1) / {cfg.turn_ms_of(1)} (engine2)"
    )
    limits = f"{per_move} ms/move (+{cfg.tolerance_ms} ms grace)"
    if cfg.nodes1 is not None or cfg.nodes2 is not None:
        shown = (
            f"{cfg.nodes1}"
            if cfg.nodes1 == cfg.nodes2
            else f"{cfg.nodes1 or 'no limit'} (engine1) / {cfg.nodes2 or 'no limit'} (engine2)"
        )
        limits = f"{shown} nodes/move, turn cap {limits}"
    if cfg.level1 is not None or cfg.level2 is not None:
        limits = f"levels {cfg.level1 or '-'} (engine1) / {cfg.level2 or '-'} (engine2), {limits}"
    print(
        f"Match: {cfg.games} games{' at most (SPRT)' if sprt else ''}, {limits}"
        f"{f', {cfg.match_ms} ms/game' if cfg.match_ms else ''}"
        f"{f' + {cfg.inc_ms} ms/move' if cfg.match_ms and cfg.inc_ms else ''}"
        f", {cfg.size}x{cfg.size} "
        f"{cfg.rule.label}, "
        + (
            "swap2 openings by the engines"
            if cfg.swap2
            else f"{len(openings)} openings from {path}"
        )
        + ", concurrency "
        f"{cfg.concurrency}",
        flush=True,
    )
    print(f"engine1: {engines[0].description}\nengine2: {engines[1].description}", flush=True)
    if sprt is not None:
        lower, upper = sprt.bounds
        print(
            f"SPRT: H0 elo {sprt.elo0:g}, H1 elo {sprt.elo1:g}, alpha {sprt.alpha:g}, beta "
            f"{sprt.beta:g}: bounds [{lower:.2f}, {upper:.2f}]",
            flush=True,
        )
    if cfg.games > 2 * len(openings) and not cfg.swap2:
        print(
            f"warning: {cfg.games} games need {(cfg.games + 1) // 2} openings, the file has "
            f"{len(openings)}: openings are replayed (with deterministic engines, the same "
            "games again)",
            flush=True,
        )
    t0 = time.perf_counter()
    records: TextIO | None = open(records_path, "w", encoding="utf-8") if records_path else None
    if records and kept:  # the resumed file keeps its complete pairs only
        records.writelines(json.dumps(r) + "\n" for r in kept)
        records.flush()

    def write_record(result: GameResult, names: list[str]) -> None:
        if records:
            records.write(json.dumps(game_record(result, cfg, names)) + "\n")
            records.flush()

    try:
        summary = run_match(cfg, specs, on_result=write_record, sprt=sprt, resumed=resumed)
    finally:
        if records:
            records.close()
    for line in summary.lines():
        print(line)
    print(f"wall time {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
