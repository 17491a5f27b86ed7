"""Opening files for engine matches, and the generator of the fixed-node test set.

An openings file has one opening per line as "h8 i9 j10" (black first) on a 15x15 board;
blank lines and text after '#' are ignored. The match runner centres the openings on
larger boards and plays each one twice with the colours swapped.

- ``openings/balanced.txt`` (69 openings, chosen by hand-run searches; see its header):
  the default of timed matches.
- ``openings/sprt.txt`` (made by ``python -m gomoku_lab.openings generate``, command in its
  header): the default of fixed-node matches and SPRT tests. Node-limited engines are
  deterministic, so an opening replayed gives the same pair of games again: a match needs
  at least games / 2 distinct openings.

``generate`` draws random openings of 3 or 4 stones (black, white, black[, white]) near
the centre: black's first stone on h8, every later stone within ``--radius`` cells of h8
(Chebyshev distance) and within ``--spread`` cells of an earlier stone. It keeps one
opening per class of positions equal under the 8 board symmetries and translation
(``gomoku.core.symmetry.canonical``), searches each with our engine at a fixed node count (book
off), and drops the decisive ones: the side to move has a VCF/VCT win, or the score's
magnitude (side to move's view) is above ``--max-score`` centi-units. The file keeps the
drawing order, so any prefix of it is a random sample of the set.

``check FILE`` parses a file and reports how many openings it has, by stone count, and
whether two are the same position up to symmetry and translation.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import moves_from_text, moves_to_text
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size
from gomoku.core.symmetry import canonical
from gomoku_lab.referee import find_five

Point = tuple[int, int]

OPENING_SIZE = 15  # opening files are written for 15x15 and centred on larger boards
OPENINGS_DIR = Path(__file__).resolve().parents[2] / "openings"
BALANCED_OPENINGS = OPENINGS_DIR / "balanced.txt"
SPRT_OPENINGS = OPENINGS_DIR / "sprt.txt"
RAPFI_ENGINE_NAME = "rapfi"  # an engine whose program's name holds this is Rapfi
CENTRE: Point = (7, 7)  # h8 on 15x15


# --------------------------------------------------------------------------------------
# Reading


def parse_openings(text: str, size: int = DEFAULT_SIZE) -> list[list[Point]]:
    """Parse an openings file: one opening per line as "h8 i9 j10" (black first).

    Blank lines and text after '#' are ignored. Moves are read on a 15x15 board and
    shifted to the centre of a larger one. Raises ValueError (with the line number) on a
    malformed move, a repeated cell or a position that already has a five.
    """
    check_size(size)
    shift = (size - OPENING_SIZE) // 2
    openings = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            moves = [(x + shift, y + shift) for x, y in moves_from_text(line, OPENING_SIZE)]
        except GomokuError as exc:
            raise ValueError(f"line {lineno}: {exc}") from None
        if len(set(moves)) != len(moves):
            raise ValueError(f"line {lineno}: a cell is played twice")
        board = [[0] * size for _ in range(size)]
        for i, (x, y) in enumerate(moves):
            board[y][x] = 1 + i % 2
            if find_five(board, x, y, Rule.FREESTYLE):
                raise ValueError(f"line {lineno}: the opening already contains a five")
        openings.append(moves)
    return openings


def load_openings(path: str | Path, size: int = DEFAULT_SIZE) -> list[list[Point]]:
    """Read and parse an openings file (see parse_openings); ValueError if it has none."""
    openings = parse_openings(Path(path).read_text(encoding="utf-8"), size)
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def position_key(moves: Sequence[Point], size: int = OPENING_SIZE) -> tuple:
    """A key equal for two openings exactly when they are the same position (stones of
    each colour, side to move) up to the 8 symmetries and translation."""
    return canonical(moves[0::2], moves[1::2], size, translate=True).key


def rapfi_openings(rule: Rule) -> Path:
    """The file of openings Rapfi calls balanced under ``rule`` (the match part; made by
    ``python -m gomoku_lab.rapfi_openings``): ``openings/rapfi-<rule>.txt``."""
    return OPENINGS_DIR / f"rapfi-{rule.label}.txt"


def names_rapfi(command: str) -> bool:
    """Whether an engine command runs Rapfi: its program's file name contains "rapfi"
    (``/work/rapfi/pbrain-rapfi``), in any case."""
    try:
        argv = shlex.split(command)
    except ValueError:  # an unbalanced quote: the match runner will say so
        argv = command.split()
    return bool(argv) and RAPFI_ENGINE_NAME in Path(argv[0]).name.lower()


def default_openings(rule: Rule, node_limited: bool, engines: Sequence[str]) -> Path:
    """The match runner's openings when none are given: against Rapfi (an engine command
    that ``names_rapfi``) the rule's file of openings Rapfi calls balanced when it exists;
    else ``sprt.txt`` for fixed-node matches and SPRT tests, ``balanced.txt`` for timed
    ones."""
    if any(names_rapfi(e) for e in engines) and rapfi_openings(rule).is_file():
        return rapfi_openings(rule)
    return SPRT_OPENINGS if node_limited else BALANCED_OPENINGS


# --------------------------------------------------------------------------------------
# Drawing random openings


def random_opening(rng: random.Random, stones: int, radius: int, spread: int) -> list[Point]:
    """One random opening of ``stones`` stones on 15x15: the first on h8, each later one
    on an empty cell within ``radius`` of h8 and within ``spread`` of an earlier stone
    (Chebyshev distances), uniformly among such cells."""
    if stones < 1:
        raise ValueError("an opening has at least one stone")
    moves = [CENTRE]
    cx, cy = CENTRE
    while len(moves) < stones:
        cells = [
            (x, y)
            for y in range(cy - radius, cy + radius + 1)
            for x in range(cx - radius, cx + radius + 1)
            if (x, y) not in moves
            and any(max(abs(x - mx), abs(y - my)) <= spread for mx, my in moves)
        ]
        moves.append(rng.choice(cells))
    return moves


def draw_candidates(
    count: int, stone_counts: Sequence[int], radius: int, spread: int, seed: int
) -> list[list[Point]]:
    """Up to ``count`` distinct random openings (distinct up to symmetry and translation),
    the stone count of each drawn uniformly from ``stone_counts``. Stops early when
    200 draws in a row find nothing new (the space is exhausted)."""
    rng = random.Random(seed)
    seen: set[tuple] = set()
    out: list[list[Point]] = []
    misses = 0
    while len(out) < count and misses < 200:
        moves = random_opening(rng, rng.choice(list(stone_counts)), radius, spread)
        key = position_key(moves)
        if key in seen:
            misses += 1
            continue
        misses = 0
        seen.add(key)
        out.append(moves)
    return out


# --------------------------------------------------------------------------------------
# Judging them with the engine


@dataclass(frozen=True)
class Verdict:
    """The engine's view of an opening: its score from black's point of view
    (centi-units), where the move came from ("threat" = a VCF/VCT win for the side to
    move), the depth and the nodes searched."""

    moves: tuple[Point, ...]
    black_score: int
    source: str
    depth: int
    nodes: int

    def balanced(self, max_score: int) -> bool:
        """Not decided already: no threat win for the side to move, and |score| at most
        ``max_score``."""
        return self.source != "threat" and abs(self.black_score) <= max_score


_worker_engine = None


def judge_opening(moves: Sequence[Point], nodes: int) -> Verdict:
    """Search the opening (15x15 freestyle, book off) to ``nodes`` nodes with a fresh game
    state, so the verdict depends only on the opening and the node count."""
    global _worker_engine
    from gomoku.engine.facade import Engine  # the engine only when judging
    from gomoku.engine.limits import Limits

    if _worker_engine is None:
        _worker_engine = Engine(size=OPENING_SIZE, rule=Rule.FREESTYLE, seed=0)
    engine = _worker_engine
    engine.new_game(size=OPENING_SIZE, rule=Rule.FREESTYLE)
    engine.set_position(list(moves))
    result = engine.think(Limits(time_ms=None, nodes=nodes, use_book=False, seed=0))
    sign = 1 if len(moves) % 2 == 0 else -1  # score is the side to move's
    return Verdict(tuple(moves), sign * result.score, result.source, result.depth, result.nodes)


def _judge_job(job: tuple[tuple[Point, ...], int]) -> Verdict:
    return judge_opening(job[0], job[1])


def judge_all(openings: Sequence[Sequence[Point]], nodes: int, jobs: int) -> list[Verdict]:
    """judge_opening for each opening, in order, on ``jobs`` processes (1: in this one)."""
    work = [(tuple(m), nodes) for m in openings]
    if jobs <= 1:
        return [_judge_job(w) for w in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_judge_job, work, chunksize=8))


# --------------------------------------------------------------------------------------
# Command line


def format_opening_line(verdict: Verdict) -> str:
    """ "h8 i9 j10 k11   # +0.49 d5 n4001": the moves, black's score in units."""
    moves = moves_to_text(verdict.moves, OPENING_SIZE)
    return f"{moves:<16s}# {verdict.black_score / 100:+.2f} d{verdict.depth} n{verdict.nodes}"


def generate(args: argparse.Namespace, command: str) -> int:
    stone_counts = [int(s) for s in args.stones.split(",")]
    if any(s < 2 for s in stone_counts):
        raise SystemExit("--stones: each count must be at least 2")
    t0 = time.perf_counter()
    candidates = draw_candidates(args.candidates, stone_counts, args.radius, args.spread, args.seed)
    print(f"{len(candidates)} distinct candidates drawn", file=sys.stderr)
    verdicts = judge_all(candidates, args.nodes, args.jobs)
    kept = [v for v in verdicts if v.balanced(args.max_score)][: args.count]
    elapsed = time.perf_counter() - t0
    dropped = Counter(
        "threat win" if v.source == "threat" else "score"
        for v in verdicts
        if not v.balanced(args.max_score)
    )
    by_stones = Counter(len(v.moves) for v in kept)
    header = [
        "# Openings for fixed-node matches and SPRT tests (python -m gomoku_lab.match --nodes).",
        "# One opening per line, black first, 15x15 (h8 = centre); the comment gives black's",
        "# score from our engine's fixed-node search (book off): units (1.00 = 100 centi-units),",
        "# depth and nodes. Made by:",
        f"#   {command}",
        f"# {len(candidates)} distinct candidates (up to symmetry and translation), "
        f"{len(verdicts) - sum(dropped.values())} balanced, the first {len(kept)} kept "
        f"(dropped: {', '.join(f'{k} {n}' for k, n in sorted(dropped.items())) or 'none'}).",
        "# Stones: "
        + ", ".join(f"{n} with {s}" for s, n in sorted(by_stones.items()))
        + f". {elapsed:.0f} s on {args.jobs} process(es)."
        + " Method: python -m gomoku_lab.openings --help.",
        "",
    ]
    lines = header + [format_opening_line(v) for v in kept]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {len(kept)} openings to {args.out} in {elapsed:.0f} s", file=sys.stderr)
    if len(kept) < args.count:
        print(f"only {len(kept)} balanced openings (asked for {args.count})", file=sys.stderr)
        return 1
    return 0


def check(path: str) -> int:
    openings = load_openings(path, OPENING_SIZE)
    keys = Counter(position_key(m) for m in openings)
    repeats = sum(n - 1 for n in keys.values() if n > 1)
    by_stones = Counter(len(m) for m in openings)
    print(
        f"{path}: {len(openings)} openings ("
        + ", ".join(f"{n} with {s} stones" for s, n in sorted(by_stones.items()))
        + f"), {repeats} repeated up to symmetry and translation"
    )
    return 1 if repeats else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.openings",
        description="Opening files for engine matches: generate the fixed-node set, check one.",
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="draw, judge and write balanced random openings")
    g.add_argument("--count", type=int, default=1500, help="openings to keep (default 1500)")
    g.add_argument(
        "--candidates", type=int, default=2500, help="distinct openings to draw (default 2500)"
    )
    g.add_argument("--stones", default="3,4", help="stone counts to draw from (default 3,4)")
    g.add_argument("--radius", type=int, default=3, help="cells from h8 (default 3: 7x7)")
    g.add_argument(
        "--spread", type=int, default=3, help="max distance to an earlier stone (default 3)"
    )
    g.add_argument("--nodes", type=int, default=3000, help="search nodes per opening")
    g.add_argument(
        "--max-score", type=int, default=150, help="max |score|, centi-units (default 150)"
    )
    g.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    g.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    g.add_argument("--out", default=str(SPRT_OPENINGS), help="output file, - for stdout")
    c = sub.add_parser("check", help="parse a file and look for repeated positions")
    c.add_argument("file")
    return p


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    args = build_parser().parse_args(argv)
    if args.command == "check":
        return check(args.file)
    shown = " ".join(["python -m gomoku_lab.openings", *(sys.argv[1:] if argv is None else argv)])
    return generate(args, shown)


if __name__ == "__main__":
    sys.exit(main())
