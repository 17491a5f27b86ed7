"""A judged set of forced wins: ``python -m gomoku_lab.mate_set``.

Positions from games of several strengths where an outside engine (Rapfi, one thread,
at a large node count) says the side to move mates, with the mate's length, to measure
how many of them a solver finds in a given time.

    PYTHONPATH=py python -m gomoku_lab.mate_set play --folder DIR [--batch NAME ...]
    PYTHONPATH=py python -m gomoku_lab.mate_set add RECORDS.jsonl ... [--label L]
    PYTHONPATH=py python -m gomoku_lab.mate_set judge --brain CMD [--nodes 1000000]
    PYTHONPATH=py python -m gomoku_lab.mate_set stats
    PYTHONPATH=py python -m gomoku_lab.mate_set score [--solver threats] [--solver prover] \\
        [--time 0.5 --time 3] [--part dev|heldout|all] [--rule R] [--results FILE]

``play`` plays the batches of ``BATCHES`` (our page's node-limited levels 4 to 8 against
each other, our engine at 30,000 nodes against Rapfi at fixed nodes; freestyle, standard
and renju) with ``gomoku_lab.match`` into ``DIR/<batch>.jsonl`` (resuming a file that is
short) and adds each finished batch. ``add`` reads match records (``gomoku_lab.match
--records``) into the games file (``py/gomoku_lab/data/mate-set-games.jsonl``: one game a
line, its id ``LABEL:N``); games already there are skipped.

``judge`` asks the brain about every position of every game (before each move, after the
opening; hash cleared, ``INFO rule`` of the game's rule) that has no judgement at that
node count, and appends its answer (``{"game", "ply", "nodes", "eval", "best"}``, the
position being the game's first ``ply`` moves) to ``mate-set-judgements.jsonl``. A
position that is also the prefix of another game is asked once.

The **set**: every judged position whose evaluation is a mate for the side to move
(Rapfi's ``+Mn``: it wins in n plies, its move first), once (the first game that reaches
it owns it), with the rule, size, moves, n and Rapfi's move. Rapfi's ``+M*`` (a mate of
unknown length) is left out and counted. The set is split by game into a **dev** part and
a **held-out** part (a seeded hash of the game's id, ``HELDOUT_SHARE`` = 1/3 held out):
tune on dev, report on held-out.

``score`` runs each solver (``gomoku_lab.mate_solvers``) on each position of the part,
one position at a time, with a wall-clock budget of each ``--time`` (``--cpu-clock``:
CPU seconds of the scoring process, for a loaded machine), and counts a position
found when the solver returns a line that ``check_line`` accepts. Per solver, rule and
time it prints the share found by mate-length band (<= 9, 11-15, 17-21, >= 23 plies) and
overall, the lines returned but rejected, the mean CPU time per position (this process's),
and the machine's load average before and after (a loaded machine finds fewer: the budget
is wall time).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gomoku.core.geometry import Point, moves_from_text
from gomoku.core.rules import parse_rule
from gomoku.game.board import Board
from gomoku_lab.mate_games import BATCHES, play
from gomoku_lab.mate_solvers import (
    BANDS,
    SOLVERS,
    SolverMissing,
    band,
    load_solver,
    loadavg,
    score_positions,
)
from gomoku_lab.rapfi_judge import RuleJudge
from gomoku_lab.review_set import DATA, SetError, Verdict, read_jsonl

GAMES = DATA / "mate-set-games.jsonl"
JUDGEMENTS = DATA / "mate-set-judgements.jsonl"
JUDGE_NODES = 1_000_000
SPLIT_SEED = 39
HELDOUT_SHARE = 1 / 3
PARTS = ("dev", "heldout", "all")


def part_of(game_id: str, seed: int = SPLIT_SEED, share: float = HELDOUT_SHARE) -> str:
    """The part a game's positions belong to: "heldout" for about ``share`` of the games
    (a seeded hash of the id, so a game's part never changes when games are added), else
    "dev"."""
    digest = hashlib.sha256(f"{seed}:{game_id}".encode()).digest()
    return "heldout" if int.from_bytes(digest[:8], "big") / 2**64 < share else "dev"


# ---- games ----------------------------------------------------------------------------------


@dataclass
class SetGame:
    id: str
    rule: str
    size: int
    opening: int  # moves fixed by the opening
    moves: str  # "h8 i9 ..."
    black: str = ""
    white: str = ""
    result: str = ""

    @property
    def texts(self) -> list[str]:
        return self.moves.split()

    def position_key(self, ply: int) -> tuple[str, int, str]:
        return (self.rule, self.size, " ".join(self.texts[:ply]))


def read_games(path: Path) -> list[SetGame]:
    out = []
    for n, row in enumerate(read_jsonl(path), 1):
        try:
            out.append(
                SetGame(
                    str(row["id"]),
                    parse_rule(row["rule"]).label,
                    int(row["size"]),
                    int(row["opening"]),
                    str(row["moves"]),
                    row.get("black", ""),
                    row.get("white", ""),
                    row.get("result", ""),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SetError(f"{path}: game {n}: {exc}") from None
    return out


def _player(record: dict, colour: str) -> str:
    engine = record[colour]  # "engine1" / "engine2"
    n = engine[-1]
    name = record.get(f"{colour}_name", engine)
    if record.get(f"level{n}") is not None:
        return f"{name} level {record[f'level{n}']}"
    if record.get(f"nodes{n}") is not None:
        return f"{name} {record[f'nodes{n}']} nodes"
    return name


def game_from_record(record: dict, label: str) -> SetGame:
    """A match record (gomoku_lab.match --records) as a game of the set."""
    return SetGame(
        f"{label}:{record['game']}",
        parse_rule(record["rule"]).label,
        int(record["size"]),
        len(record.get("opening", "").split()),
        record["moves"],
        _player(record, "black"),
        _player(record, "white"),
        record.get("result", ""),
    )


def add_records(paths: Iterable[Path], games_path: Path, label: str | None = None) -> int:
    """Append the games of match records files to the games file (ids ``LABEL:N``, the
    label defaulting to the file's stem); returns how many were new."""
    known = {g.id for g in read_games(games_path)}
    new = []
    for path in paths:
        for n, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                game = game_from_record(json.loads(line), label or Path(path).stem)
            except (KeyError, TypeError, ValueError) as exc:
                raise SetError(f"{path}: line {n}: {exc}") from None
            if game.id not in known:
                known.add(game.id)
                new.append(game)
    games_path.parent.mkdir(parents=True, exist_ok=True)
    with games_path.open("a", encoding="utf-8") as f:
        for g in new:
            f.write(json.dumps(g.__dict__) + "\n")
    return len(new)


# ---- judgements -------------------------------------------------------------------------------


class SetJudgements:
    """The judgements file, looked up by position (rule, size, moves) and nodes."""

    def __init__(self, path: Path, games: list[SetGame]) -> None:
        self.path = path
        by_id = {g.id: g for g in games}
        self.known: dict[tuple[tuple[str, int, str], int], dict] = {}
        for row in read_jsonl(path):
            game = by_id.get(row.get("game"))
            if game is None:
                continue  # a game no longer in the games file
            self.known[(game.position_key(int(row["ply"])), int(row["nodes"]))] = row

    def get(self, game: SetGame, ply: int, nodes: int) -> dict | None:
        return self.known.get((game.position_key(ply), nodes))

    def add(self, game: SetGame, ply: int, nodes: int, ev: str, best: str) -> dict:
        row = {"game": game.id, "ply": ply, "nodes": nodes, "eval": ev, "best": best}
        self.known[(game.position_key(ply), nodes)] = row
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        return row


def judge_games(
    games: list[SetGame], judgements: SetJudgements, brain: str, nodes: int, out=sys.stdout
) -> int:
    """Judge every position of the games not judged yet; returns how many were asked."""
    judges: dict[tuple[str, int], RuleJudge] = {}
    asked = 0
    t0 = time.perf_counter()
    try:
        for n, g in enumerate(games, 1):
            moves = moves_from_text(g.moves, g.size)
            for ply in range(g.opening, len(moves)):
                if judgements.get(g, ply, nodes) is not None:
                    continue
                judge = judges.get((g.rule, g.size))
                if judge is None:
                    judge = judges[(g.rule, g.size)] = RuleJudge(brain, g.rule, g.size)
                j = judge.judge(moves[:ply], nodes)
                judgements.add(g, ply, nodes, j.eval, j.best)
                asked += 1
            print(
                f"[{n}/{len(games)}] {g.id}: {asked} positions asked, "
                f"{time.perf_counter() - t0:.0f} s",
                file=out,
                flush=True,
            )
    finally:
        for judge in judges.values():
            judge.close()
    return asked


# ---- the set -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatePosition:
    game: str
    part: str
    rule: str
    size: int
    moves: tuple[Point, ...]
    mate: int  # plies, the side to move's
    best: str  # Rapfi's move

    @property
    def band(self) -> str:
        return band(self.mate)

    def board(self) -> Board:
        return Board.from_moves(list(self.moves), self.size, self.rule)


@dataclass
class MateSet:
    positions: list[MatePosition]
    unknown_length: int = 0  # +M*: left out
    judged: int = 0  # distinct positions judged at the node count

    def part(self, name: str) -> list[MatePosition]:
        return [p for p in self.positions if name == "all" or p.part == name]


def build_set(
    games: list[SetGame],
    judgements: SetJudgements,
    nodes: int = JUDGE_NODES,
    seed: int = SPLIT_SEED,
    share: float = HELDOUT_SHARE,
) -> MateSet:
    """The mate positions of the judged games, each once (see the module doc)."""
    seen: set[tuple[str, int, str]] = set()
    out = MateSet([])
    for g in games:
        part = part_of(g.id, seed, share)
        moves = moves_from_text(g.moves, g.size)
        for ply in range(g.opening, len(moves)):
            key = g.position_key(ply)
            if key in seen:
                continue
            row = judgements.get(g, ply, nodes)
            if row is None:
                continue
            seen.add(key)
            out.judged += 1
            verdict = Verdict.parse(row["eval"])
            if not verdict.won:
                continue
            if row["eval"].endswith("*"):
                out.unknown_length += 1
                continue
            position = tuple(moves[:ply])
            mate = verdict.mate or 0
            out.positions.append(
                MatePosition(g.id, part, g.rule, g.size, position, mate, row["best"])
            )
    return out


def stats_lines(mates: MateSet) -> list[str]:
    """The set's size by rule, part and band."""
    lines = [
        f"{mates.judged} distinct positions judged, {len(mates.positions)} mates for the side "
        f"to move ({mates.unknown_length} of unknown length left out)"
    ]
    counts: Counter[tuple[str, str, str]] = Counter()
    for p in mates.positions:
        counts[p.rule, p.part, p.band] += 1
    rules = sorted({p.rule for p in mates.positions})
    lines.append("| rule | part | " + " | ".join(BANDS) + " | all | games |")
    lines.append("| --- | --- |" + " --- |" * (len(BANDS) + 2))
    for rule in rules:
        for part in ("dev", "heldout"):
            row = [counts[rule, part, b] for b in BANDS]
            games = len({p.game for p in mates.positions if p.rule == rule and p.part == part})
            lines.append(
                f"| {rule} | {part} | " + " | ".join(map(str, row)) + f" | {sum(row)} | {games} |"
            )
    return lines


# ---- the command line --------------------------------------------------------------------------


def score_command(args: argparse.Namespace, mates: MateSet) -> int:
    if args.cpu_clock:
        # The solvers' deadlines (time.perf_counter) read this process's CPU time instead:
        # a budget of CPU seconds, which a loaded machine does not shrink.
        time.perf_counter = time.process_time
    positions = mates.part(args.part)
    if args.rule:
        positions = [p for p in positions if p.rule in args.rule]
    rules = sorted({p.rule for p in positions})
    results = args.results.open("a", encoding="utf-8") if args.results else None
    rows = []
    try:
        for name in args.solver:
            try:
                solver = load_solver(name)
            except SolverMissing as exc:
                print(f"{exc}: skipped", flush=True)
                continue
            for seconds in args.time:
                for rule in rules:
                    chosen = [p for p in positions if p.rule == rule][: args.limit]
                    before = loadavg()
                    t0 = time.monotonic()  # (perf_counter may read CPU time: --cpu-clock)
                    tally = score_positions(
                        solver, chosen, seconds, results, sys.stdout if args.verbose else None
                    )
                    mean = tally.cpu / max(1, len(chosen))
                    cells = tally.cells()
                    rows.append(f"| {name} | {rule} | {args.part} | {seconds:g} s | "
                                + " | ".join(cells) + f" | {mean:.2f} s | {before} |")  # fmt: skip
                    print(
                        f"{name} {rule} {args.part} at {seconds:g} s: "
                        + ", ".join(f"{b} {c}" for b, c in zip((*BANDS, "all"), cells, strict=True))
                        + f"; {tally.rejected} lines rejected; mean CPU {mean:.2f} s; wall "
                        f"{time.monotonic() - t0:.0f} s; load average {before} -> {loadavg()}",
                        flush=True,
                    )
    finally:
        if results is not None:
            results.close()
    if rows:
        print(
            "\n| solver | rule | part | time | " + " | ".join(BANDS) + " | all | mean CPU | load |"
        )
        print("| --- | --- | --- | --- |" + " --- |" * (len(BANDS) + 3))
        print("\n".join(rows))
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m gomoku_lab.mate_set",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--games", type=Path, default=GAMES, help="the games file")
    ap.add_argument("--judgements", type=Path, default=JUDGEMENTS, help="the judgements file")
    ap.add_argument("--nodes", type=int, default=JUDGE_NODES, help="the judge's node count")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play the set's batches of games and add them")
    p.add_argument("--folder", type=Path, required=True, help="records (outside the repository)")
    p.add_argument("--batch", action="append", default=None, help="only these (default all)")
    p.add_argument("--list", action="store_true", help="list the batches and stop")
    a = sub.add_parser("add", help="add match records to the games file")
    a.add_argument("records", nargs="+", type=Path)
    a.add_argument("--label", default=None, help="game ids LABEL:N (default: the file's stem)")
    j = sub.add_parser("judge", help="judge every position of the games")
    j.add_argument("--brain", required=True, help="the judge: Rapfi's command")
    j.add_argument("--rule", action="append", default=None, help="only these rules")
    j.add_argument(
        "--game", action="append", default=None, help="only games whose id starts so (LABEL:)"
    )
    sub.add_parser("stats", help="the set's size by rule, part and mate length")
    s = sub.add_parser("score", help="the share of the set a solver finds")
    s.add_argument("--solver", action="append", default=None, help="threats (default), prover, ...")
    s.add_argument(
        "--time", action="append", type=float, default=None, help="seconds (default 0.5, 3)"
    )
    s.add_argument("--part", choices=PARTS, default="dev")
    s.add_argument(
        "--cpu-clock", action="store_true",
        help="budgets in CPU seconds of this process (comparable on a loaded machine)",
    )
    s.add_argument("--rule", action="append", default=None, help="only these rules")
    s.add_argument("--limit", type=int, default=None, help="only the first N positions per rule")
    s.add_argument("--results", type=Path, default=None, help="append per-position results here")
    s.add_argument("--verbose", action="store_true", help="list the positions not found")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; 2 on a bad file, an unknown solver or a failed judge."""
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        if args.cmd == "play":
            chosen = [b for b in BATCHES if args.batch is None or b.name in args.batch]
            unknown = set(args.batch or ()) - {b.name for b in BATCHES}
            if unknown:
                ap.error(f"unknown batch {', '.join(sorted(unknown))}")
            if args.list:
                for b in chosen:
                    print(f"{b.name}: {b.games} games, {' '.join(b.command(Path('R'), False)[3:])}")
                return 0
            play(chosen, args.folder, args.games)
            return 0
        if args.cmd == "add":
            print(f"{add_records(args.records, args.games, args.label)} games added")
            return 0
        games = read_games(args.games)
        judgements = SetJudgements(args.judgements, games)
        if args.cmd == "judge":
            chosen = [
                g
                for g in games
                if (args.rule is None or g.rule in args.rule)
                and (args.game is None or any(g.id.startswith(p) for p in args.game))
            ]
            asked = judge_games(chosen, judgements, args.brain, args.nodes)
            print(f"{asked} positions judged at {args.nodes} nodes ({len(chosen)} games)")
            return 0
        mates = build_set(games, judgements, args.nodes)
        if args.cmd == "stats":
            print("\n".join(stats_lines(mates)))
            return 0
        args.solver = args.solver or ["threats"]
        args.time = args.time or [0.5, 3.0]
        unknown = [name for name in args.solver if name not in SOLVERS]
        if unknown:
            ap.error(f"unknown solver {', '.join(unknown)}: known {', '.join(SOLVERS)}")
        return score_command(args, mates)
    except SetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
