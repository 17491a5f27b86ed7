"""A judged set for the game review: ``python -m gomoku_lab.review_set``.

Games of our engine against an outside engine (``match.py --records``), every position
judged by an outside Gomocup brain at a large node count, and our review scored against
those judgements (precision and recall of its flags, BENCHMARKS.md).

    PYTHONPATH=py python -m gomoku_lab.review_set judge --brain CMD [--nodes 200000]
    PYTHONPATH=py python -m gomoku_lab.review_set score --review rev:main --review current \\
        [--review-nodes 12000] [--brain CMD]

``judge`` asks the brain about every position of the set's games (before each move) that
has no judgement at that node count yet and appends its answers to the judgements file.
The brain gets ``INFO max_node N``, its hash cleared (``YXHASHCLEAR``, ignored by brains
without it) and the position with ``BOARD``; its judgement is the last ``Eval`` its
MESSAGE lines printed (Rapfi's ``Eval -36``, ``Eval +M13`` for a win in 13 plies,
``-M13`` for a loss; side to move's view) and the move it answered.

``score`` reviews every game (``--review current``: this working tree's
``python -m gomoku.review``; ``--review rev:REF``: a commit's, exported like match.py's
engines), the opening's moves given as fixed (``--fixed``) where the review knows the
option, and prints per review:

- **confirmed errors**: moves after the opening into a position the judge sees as a
  forced loss for the mover from one that was not (a *loss*), or giving up a forced win
  the judge saw (a *win given up*);
- **flags**: the review's mistakes, blunders and missed wins; a flag is **right** when
  its move is a confirmed error or the judge's winning chance for the mover fell by at
  least 0.20 (the review's own threshold for a mistake; chance = 1 / (1 + exp(-eval /
  200)), a win 1, a loss 0), and its move is not the judge's own choice; a flag on an
  opening move is wrong (nobody chose it);
- **precision** = right flags / flags, **recall** = confirmed errors flagged / confirmed
  errors;
- **losing better moves**: flagged moves whose better move the judge sees as a forced
  loss where the mover was not lost (the position after the better move is judged too:
  from the file, or by ``--brain`` when it is not there yet, then added to the file);
- the review's CPU time per game (its process's user + system time: load-blind enough
  to compare two reviews measured in one run on a shared machine).

Data (small JSON lines, in py/gomoku_lab/data): ``review-set-games.jsonl`` (one game a
line: moves, opening, names, result) and ``review-set-judgements.jsonl`` (one position a
line: moves, nodes, eval, best).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gomoku.core.geometry import Point, from_text, moves_from_text, to_text
from gomoku_lab.processes import EngineCrash, EngineError, EngineProcess, EngineTimeout
from gomoku_lab.revisions import export_commit, repository_root, resolve_commit

DATA = Path(__file__).resolve().parent / "data"
GAMES = DATA / "review-set-games.jsonl"
JUDGEMENTS = DATA / "review-set-judgements.jsonl"
JUDGE_NODES = 200_000
SCALE = 200.0  # the judge's centi-units per logit (Rapfi's scaling_factor)
RIGHT_DROP = 0.20  # a judged flag is right when the mover's chance fell this much
SERIOUS = ("mistake", "blunder", "missed_win")
_EVAL_RE = re.compile(r"\bEval\s+([+-]?M\d+|[+-]?M\*|-?\d+)")
_MOVE_RE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
ROOT = Path(__file__).resolve().parents[2]


class SetError(Exception):
    """A file of the set that cannot be read, or a judge that does not answer."""


# ---- judgements -------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The judge's view of a position, for its side to move: ``mate`` +N (wins in N
    plies), -N (loses), None (an evaluation ``value``)."""

    mate: int | None
    value: int = 0

    @classmethod
    def parse(cls, text: str) -> Verdict:
        text = text.strip()
        if text == "none":  # the judge answered without a search: taken as balanced
            return cls(None, 0)
        m = re.fullmatch(r"([+-]?)M(\d+|\*)", text)
        if m:
            plies = 99 if m.group(2) == "*" else int(m.group(2))
            return cls(-plies if m.group(1) == "-" else plies)
        try:
            return cls(None, int(text))
        except ValueError:
            raise SetError(f"not an evaluation: {text!r}") from None

    @property
    def won(self) -> bool:
        return self.mate is not None and self.mate > 0

    @property
    def lost(self) -> bool:
        return self.mate is not None and self.mate < 0

    def chance(self) -> float:
        if self.won:
            return 1.0
        if self.lost:
            return 0.0
        return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, self.value / SCALE))))


@dataclass
class Judgement:
    moves: str
    nodes: int
    eval: str
    best: str

    @property
    def verdict(self) -> Verdict:
        return Verdict.parse(self.eval)


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise SetError(f"{path}: line {n}: {exc}") from None
    return out


class Judgements:
    """The judgements file: (moves, nodes) -> Judgement, new ones appended."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[tuple[str, int], Judgement] = {}
        for row in read_jsonl(path):
            try:
                j = Judgement(row["moves"], int(row["nodes"]), row["eval"], row["best"])
            except (KeyError, TypeError, ValueError) as exc:
                raise SetError(f"{path}: a judgement without {exc}") from None
            self.known[(j.moves, j.nodes)] = j

    def get(self, moves: str, nodes: int) -> Judgement | None:
        return self.known.get((moves, nodes))

    def add(self, j: Judgement) -> None:
        self.known[(j.moves, j.nodes)] = j
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(j.__dict__) + "\n")


class Judge:
    """A Gomocup brain asked about positions (see the module doc)."""

    def __init__(self, command: str, size: int = 15, timeout_s: float = 600.0) -> None:
        self.size = size
        self.timeout_s = timeout_s
        self.engine = EngineProcess(command, "judge")
        self.engine.start()
        self.engine.send(f"START {size}")
        answer = self._read(30.0)[0]
        if answer.strip().upper() != "OK":
            raise SetError(f"the judge answered START with {answer!r}")

    def _read(self, timeout_s: float) -> tuple[str, list[str]]:
        """The next answer line and the MESSAGE lines before it (a brain's ERROR or
        UNKNOWN, e.g. for a command it does not know, is passed over)."""
        messages: list[str] = []
        try:
            line = self.engine.read_answer(timeout_s, messages, skip=("ERROR", "UNKNOWN"))
        except EngineTimeout:
            raise SetError(f"the judge gave no answer within {timeout_s:.0f} s") from None
        except EngineError:
            raise SetError("the judge exited") from None
        return line, messages

    def judge(self, moves: list[Point], nodes: int) -> Judgement:
        eng = self.engine
        eng.send(
            f"INFO max_node {nodes}",
            "INFO timeout_turn 600000",
            "INFO timeout_match 0",
            "YXHASHCLEAR",
        )
        own = len(moves) % 2  # the side to move's stones: the same parity as len(moves)
        rows = [
            f"{x},{y},{1 if i % 2 == own else 2}" for i, (x, y) in enumerate(moves)
        ]
        eng.send("BOARD", *rows, "DONE")
        answer, messages = self._read(self.timeout_s)
        m = _MOVE_RE.match(answer)
        if not m:
            raise SetError(f"the judge answered {answer!r}")
        evals = [e.group(1) for msg in messages for e in [_EVAL_RE.search(msg)] if e]
        if not evals:  # an answer without a search (Rapfi: the first move, a forced one)
            evals = ["none"]
        best = to_text(int(m.group(1)), int(m.group(2)), self.size)
        text = " ".join(to_text(x, y, self.size) for x, y in moves)
        return Judgement(text, nodes, evals[-1], best)

    def close(self) -> None:
        try:
            self.engine.stop()
        except (EngineError, EngineCrash, OSError):
            self.engine.kill()


# ---- the games ----------------------------------------------------------------------------


@dataclass
class Game:
    moves: list[Point]
    opening: int  # moves fixed by the match's opening
    size: int = 15
    rule: str = "freestyle"
    label: str = ""

    def text(self, upto: int | None = None) -> str:
        return " ".join(to_text(x, y, self.size) for x, y in self.moves[:upto])


def read_games(path: Path) -> list[Game]:
    games = []
    for n, row in enumerate(read_jsonl(path), 1):
        try:
            size = int(row.get("size", 15))
            moves = moves_from_text(row["moves"], size)
            opening = len(row.get("opening", "").split())
        except (KeyError, ValueError) as exc:
            raise SetError(f"{path}: game {n}: {exc}") from None
        label = f"{row.get('black_name', '?')}-{row.get('white_name', '?')} {row.get('result', '')}"
        games.append(Game(moves, opening, size, row.get("rule", "freestyle"), label))
    if not games:
        raise SetError(f"{path}: no games")
    return games


def positions_to_judge(game: Game) -> Iterable[list[Point]]:
    """Every position before a move of the game after its opening (the set's games end
    with a five: the judge is not asked about the won position)."""
    for i in range(game.opening, len(game.moves)):
        yield game.moves[:i]


# ---- reviews --------------------------------------------------------------------------------


@dataclass
class ReviewedMove:
    cls: str
    better: str | None


@dataclass
class Review:
    moves: list[ReviewedMove]
    cpu_s: float


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def review_with(py_dir: Path, game: Game, nodes: int) -> Review:
    """The review of ``game`` by the ``gomoku.review`` command of the package in
    ``py_dir`` (its JSON), with ``--fixed`` when that review knows it."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(game.text())
        name = f.name
    main = (py_dir / "gomoku" / "review" / "__main__.py").read_text("utf-8")
    extra = ["--fixed", str(game.opening)] if "--fixed" in main else []
    cmd = [sys.executable, "-m", "gomoku.review", name, "--json", "--nodes", str(nodes)]
    cmd += ["--size", str(game.size), "--rule", game.rule, *extra]
    try:
        before = child_cpu()
        proc = subprocess.run(
            cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(py_dir)}
        )
        cpu = child_cpu() - before
    finally:
        os.unlink(name)
    if proc.returncode != 0:
        raise SetError(f"the review failed: {proc.stderr.strip()[-300:]}")
    doc = json.loads(proc.stdout)
    def better(m: dict) -> str | None:  # [x, y] -> "k8" (every package's JSON has it)
        p = m.get("better")
        return None if p is None else to_text(p[0], p[1], doc["size"])

    return Review([ReviewedMove(m["class"], better(m)) for m in doc["moves"]], cpu)


# ---- the score ------------------------------------------------------------------------------


@dataclass
class Score:
    flags: int = 0
    right: int = 0
    errors: int = 0
    found: int = 0
    losing_better: int = 0
    better_offered: int = 0
    cpu: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def line(self, name: str) -> str:
        precision = self.right / self.flags if self.flags else 0.0
        recall = self.found / self.errors if self.errors else 0.0
        cpu = sum(self.cpu) / len(self.cpu) if self.cpu else 0.0
        return (
            f"{name}: flags {self.flags}, right {self.right} (precision {precision:.0%}); "
            f"confirmed errors {self.errors}, flagged {self.found} (recall {recall:.0%}); "
            f"better moves {self.better_offered}, losing {self.losing_better}; "
            f"review CPU {cpu:.1f} s per game"
        )


def confirmed_error(before: Verdict, after: Verdict) -> str | None:
    """``before``: the mover's view; ``after``: the opponent's (to move after it)."""
    if after.won and not before.lost:
        return "loss"
    if before.won and not after.lost:
        return "win given up"
    return None


def score_review(
    game: Game,
    review: Review,
    verdict: Callable[[list[Point]], Judgement],
    out: Score,
) -> None:
    """Add one game's review to ``out`` (see the module doc)."""
    out.cpu.append(review.cpu_s)
    n = len(game.moves)
    for i in range(1, n + 1):
        rm = review.moves[i - 1]
        played = game.moves[i - 1]
        where = f"{game.text(i)} ({rm.cls})"
        last = i == n  # the five: the judge is not asked about the position after it
        if i <= game.opening:
            if rm.cls in SERIOUS:
                out.flags += 1
                out.wrong.append(where + " [opening]")
            continue
        before_j = verdict(game.moves[: i - 1])
        before = before_j.verdict
        after = Verdict(-1) if last else verdict(game.moves[:i]).verdict
        error = confirmed_error(before, after)
        if error:
            out.errors += 1
            if rm.cls in SERIOUS:
                out.found += 1
            else:
                out.missed.append(f"{where} [{error}]")
        if rm.cls not in SERIOUS:
            continue
        out.flags += 1
        own_choice = before_j.best == to_text(*played, game.size)
        drop = before.chance() - (1.0 - after.chance())
        if not own_choice and (error or drop >= RIGHT_DROP):
            out.right += 1
        else:
            out.wrong.append(where)
        if rm.better:
            out.better_offered += 1
            better = from_text(rm.better, game.size)
            after_better = verdict([*game.moves[: i - 1], better]).verdict
            if after_better.won and not before.lost:
                out.losing_better += 1
                out.wrong.append(f"{where} better {rm.better} loses")


# ---- players' games from the mate set ----------------------------------------------------------


def from_mate_set(
    games_path: Path, judgements_path: Path, prefixes: list[str], out_games: Path,
    out_judgements: Path, max_missing: int = 2,
) -> tuple[int, int]:
    """Write the mate set's games whose id starts with one of ``prefixes`` (e.g.
    ``freestyle-L``: the page's levels against each other, the strength of the page's
    players) as a review set: its games file, and its judgements (the mate set's, at its
    node count) keyed by the position's moves. Games with more than ``max_missing``
    positions unjudged are left out (the score then asks ``--brain`` for the rest).
    Returns (games, judgements) written. Freestyle only: the judge sends no rule."""
    games = [g for g in read_jsonl(games_path) if any(g["id"].startswith(p) for p in prefixes)]
    judged: dict[str, dict[int, dict]] = {}
    for row in read_jsonl(judgements_path):
        judged.setdefault(row["game"], {})[int(row["ply"])] = row
    kept = rows = 0
    with (
        out_games.open("w", encoding="utf-8") as gf,
        out_judgements.open("w", encoding="utf-8") as jf,
    ):
        for g in games:
            if g["rule"] != "freestyle":
                raise SetError(f"{g['id']}: only freestyle games make a review set")
            moves = g["moves"].split()
            have = judged.get(g["id"], {})
            if sum(1 for ply in range(g["opening"], len(moves)) if ply not in have) > max_missing:
                continue
            kept += 1
            names = g.get("black", "?"), g.get("white", "?")
            gf.write(json.dumps({
                "size": g["size"], "rule": g["rule"], "opening": " ".join(moves[: g["opening"]]),
                "black_name": names[0], "white_name": names[1], "result": g.get("result", ""),
                "moves": g["moves"],
            }) + "\n")
            for ply, row in sorted(have.items()):
                jf.write(json.dumps({
                    "moves": " ".join(moves[:ply]), "nodes": row["nodes"], "eval": row["eval"],
                    "best": row["best"],
                }) + "\n")
                rows += 1
    return kept, rows


# ---- the command line ------------------------------------------------------------------------


def judged_lookup(
    judgements: Judgements, nodes: int, judge: Judge | None
) -> Callable[[list[Point]], Judgement]:
    def lookup(moves: list[Point]) -> Judgement:
        text = " ".join(to_text(x, y, 15) for x, y in moves)
        j = judgements.get(text, nodes)
        if j is None:
            if judge is None:
                raise SetError(f"no judgement of {text!r} at {nodes} nodes: give --brain")
            j = judge.judge(moves, nodes)
            judgements.add(j)
        return j

    return lookup


def review_dirs(specs: list[str], tmp: Path) -> list[tuple[str, Path]]:
    out = []
    for spec in specs:
        if spec == "current":
            out.append((spec, ROOT / "py"))
            continue
        if not spec.startswith("rev:"):
            raise SetError(f"--review: 'current' or 'rev:REF', got {spec!r}")
        commit = resolve_commit(spec[4:], repository_root(ROOT))
        dest = tmp / commit[:10]
        export_commit(commit, repository_root(ROOT), dest)
        out.append((f"{spec} ({commit[:10]})", dest / "py"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.review_set", description=__doc__)
    ap.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("judge", help="judge every position of the set's games")
    s = sub.add_parser("score", help="score reviews against the judgements")
    m = sub.add_parser("from-mate-set", help="the mate set's players' games as a review set")
    m.add_argument("--prefix", action="append", required=True, help="game ids starting so")
    m.add_argument("--out", type=Path, required=True, help="folder for the two files")
    for p in (j, s):
        p.add_argument("--games", type=Path, default=GAMES)
        p.add_argument("--judgements", type=Path, default=JUDGEMENTS)
        p.add_argument("--nodes", type=int, default=JUDGE_NODES, help="the judge's nodes")
        p.add_argument("--brain", default=None, help="the judge: a Gomocup brain's command")
    s.add_argument("--review", action="append", default=None, help="current or rev:REF")
    s.add_argument("--review-nodes", type=int, default=12000)
    s.add_argument("--verbose", action="store_true", help="list wrong flags, missed errors")
    s.add_argument("--progress", action="store_true", help="the totals after every game")
    s.add_argument("--max-games", type=int, default=None, help="only the first N games")
    args = ap.parse_args(argv)
    if args.cmd == "from-mate-set":
        from gomoku_lab.mate_set import GAMES as MATE_GAMES
        from gomoku_lab.mate_set import JUDGEMENTS as MATE_JUDGEMENTS

        args.out.mkdir(parents=True, exist_ok=True)
        try:
            kept, rows = from_mate_set(
                MATE_GAMES, MATE_JUDGEMENTS, args.prefix, args.out / "games.jsonl",
                args.out / "judgements.jsonl",
            )
        except SetError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{kept} games, {rows} judgements -> {args.out}")
        return 0
    try:
        games = read_games(args.games)
        judgements = Judgements(args.judgements)
        judge = Judge(args.brain) if args.brain else None
        try:
            lookup = judged_lookup(judgements, args.nodes, judge)
            if args.cmd == "judge":
                if judge is None:
                    ap.error("judge needs --brain")
                done = 0
                for g in games:
                    for moves in positions_to_judge(g):
                        lookup(moves)
                        done += 1
                print(f"{done} positions judged at {args.nodes} nodes ({len(games)} games)")
                return 0
            with tempfile.TemporaryDirectory(prefix="review-set-") as tmp:
                reviews = review_dirs(args.review or ["current"], Path(tmp))
                scores = [Score() for _ in reviews]
                # game by game, every review of it: a run cut short compares like with like
                for n, g in enumerate(games[: args.max_games], 1):
                    for (name, py_dir), score in zip(reviews, scores, strict=True):
                        score_review(g, review_with(py_dir, g, args.review_nodes), lookup, score)
                        if args.progress:
                            print(f"[{n}/{len(games)}] {score.line(name)}", flush=True)
                for (name, _), score in zip(reviews, scores, strict=True):
                    print(score.line(name), flush=True)
                    if args.verbose:
                        for w in score.wrong:
                            print(f"  wrong: {w}")
                        for w in score.missed:
                            print(f"  missed: {w}")
        finally:
            if judge is not None:
                judge.close()
    except SetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
