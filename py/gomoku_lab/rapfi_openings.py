"""Openings Rapfi calls balanced, for matches against it: ``python -m gomoku_lab.rapfi_openings``.

Our engine's own fixed-node search does not see the long forced wins Rapfi finds, so an
opening set balanced by it (``openings/sprt.txt``) holds openings that are already won:
their colour-swapped pairs measure nothing. This set is balanced by Rapfi itself.

Candidates, one per class of positions equal under the 8 symmetries and translation
(``openings.position_key``), in this order:

- ``named``: the 26 standard openings (3 stones, white to move; book_build);
- ``book``: the positions of the packaged book's lines of the rule on 15x15 that have
  3 or 4 moves, with the book's reply played (4 and 5 stones);
- ``random``: ``openings.draw_candidates``: 3, 4 or 5 stones (``--stones``), black's first
  on h8, every stone within ``--radius`` of h8 and ``--spread`` of an earlier one.

Each candidate is screened by the brain (``--brain``: Rapfi's command) at
``--screen-nodes`` (100,000; hash cleared, ``INFO rule`` of ``--rule``); those with a
numeric evaluation below ``--screen-eval`` (200) are judged again at ``--nodes``
(1,000,000), and kept when that evaluation for the side to move is a number (no mate for
either side) with magnitude below ``--max-eval`` (150: Rapfi's centi-units, about a 60-40
chance). Most candidates are far from balanced (in freestyle black's edge is large), so
the screen saves most of the judging time; it loses little: of 214 freestyle candidates
judged both ways, none of the 69 at 200-299 at 100,000 nodes was below 150 at 1,000,000,
3 of the 23 at 150-199 were. The answers are kept in
``py/gomoku_lab/data/rapfi-opening-judgements.jsonl`` so that nothing is asked twice.

The kept openings are split by a seeded hash of their position key into a
**match** part and a **held-out** part (``--heldout-share``, default 1/3: openings that
no engine change is tuned on, for a final check), each shuffled with ``--seed`` (any prefix
is a random sample) and written with the command in the header, every line ``moves  #
eval for the side to move, source``.

``python -m gomoku_lab.match`` plays the match part by default when one engine's program
is Rapfi (``openings.rapfi_openings``).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gomoku.core.geometry import moves_to_text
from gomoku.core.rules import Rule, parse_rule
from gomoku.engine.book import default_book
from gomoku_lab.openings import OPENING_SIZE, draw_candidates, position_key, rapfi_openings
from gomoku_lab.rapfi_judge import PositionJudgements, RuleJudge
from gomoku_lab.review_set import DATA, SetError

Point = tuple[int, int]

JUDGEMENTS = DATA / "rapfi-opening-judgements.jsonl"
NODES = 1_000_000
MAX_EVAL = 150
SCREEN_NODES = 100_000
SCREEN_EVAL = 200


@dataclass(frozen=True)
class Candidate:
    moves: tuple[Point, ...]
    source: str  # "named Kagetsu", "book", "random"


def named_candidates() -> list[Candidate]:
    """The 26 standard openings."""
    from gomoku_lab.book_build import standard_openings  # the engine only when asked

    return [Candidate(tuple(m), f"named {name}") for name, _, m in standard_openings(OPENING_SIZE)]


def book_candidates(rule: Rule) -> list[Candidate]:
    """The packaged book's positions of ``rule`` on 15x15 with 3 or 4 moves, its reply
    played."""
    out = []
    for e in default_book().entries:
        if e.rule is rule and e.size == OPENING_SIZE and len(e.moves) in (3, 4):
            out.append(Candidate((*e.moves, e.reply), "book"))
    return out


def candidates(
    rule: Rule, random_count: int, stones: Sequence[int], radius: int, spread: int, seed: int
) -> list[Candidate]:
    """Named, book and random candidates, one per position class (the first source that
    gives a class keeps it)."""
    drawn = [
        Candidate(tuple(m), "random")
        for m in draw_candidates(random_count, stones, radius, spread, seed)
    ]
    seen: set[tuple] = set()
    out = []
    for c in [*named_candidates(), *book_candidates(rule), *drawn]:
        key = position_key(c.moves)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def heldout(moves: Sequence[Point], seed: int, share: float) -> bool:
    """Whether an opening belongs to the held-out part: a seeded hash of its position key
    (so the split does not change when candidates are added)."""
    digest = hashlib.sha256(f"{seed}:{position_key(moves)!r}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


@dataclass(frozen=True)
class Judged:
    candidate: Candidate
    eval: str

    def balanced(self, max_eval: int) -> bool:
        """A number (not a mate, not an answer without a search) below ``max_eval``."""
        try:
            value = int(self.eval)
        except ValueError:
            return False
        return abs(value) < max_eval

    def line(self) -> str:
        moves = moves_to_text(self.candidate.moves, OPENING_SIZE)
        side = "white" if len(self.candidate.moves) % 2 else "black"
        return f"{moves:<20s}# {int(self.eval):+4d} for {side} to move; {self.candidate.source}"


def judge_all(
    cands: list[Candidate],
    rule: Rule,
    judge: RuleJudge | None,
    store: PositionJudgements,
    nodes: int,
) -> list[Judged]:
    """Every candidate's judgement: from the store, else asked of ``judge`` (SetError
    when it is missing and there is no judge)."""
    out = []
    for i, c in enumerate(cands, 1):
        moves = list(c.moves)
        j = store.get(rule, OPENING_SIZE, moves, nodes)
        if j is None:
            if judge is None:
                shown = moves_to_text(moves, OPENING_SIZE)
                raise SetError(f"no judgement of {shown} at {nodes} nodes: give --brain")
            j = store.ask(judge, moves, nodes)
        out.append(Judged(c, j.eval))
        if judge is not None and i % 50 == 0:
            print(f"{i}/{len(cands)} judged", file=sys.stderr, flush=True)
    return out


def write(path: Path, header: list[str], kept: list[Judged]) -> None:
    path.write_text("\n".join([*header, "", *(k.line() for k in kept)]) + "\n", encoding="utf-8")


def generate(args: argparse.Namespace, command: str) -> int:
    rule = parse_rule(args.rule)
    stones = [int(s) for s in args.stones.split(",")]
    t0 = time.perf_counter()
    cands = candidates(rule, args.random, stones, args.radius, args.spread, args.seed)
    store = PositionJudgements(args.judgements)
    judge = RuleJudge(args.brain, rule, OPENING_SIZE) if args.brain else None
    try:
        screened = judge_all(cands, rule, judge, store, args.screen_nodes)
        passed = [j.candidate for j in screened if j.balanced(args.screen_eval)]
        judged = judge_all(passed, rule, judge, store, args.nodes)
    finally:
        if judge is not None:
            judge.close()
    kept = [j for j in judged if j.balanced(args.max_eval)]
    rng = random.Random(args.seed)
    rng.shuffle(kept)
    test = [k for k in kept if heldout(k.candidate.moves, args.seed, args.heldout_share)]
    match = [k for k in kept if not heldout(k.candidate.moves, args.seed, args.heldout_share)]
    elapsed = time.perf_counter() - t0

    def tally(items: list[Judged]) -> str:
        by_source = Counter(k.candidate.source.split()[0] for k in items)
        by_stones = Counter(len(k.candidate.moves) for k in items)
        return (
            ", ".join(f"{n} {s}" for s, n in sorted(by_source.items()))
            + "; "
            + ", ".join(f"{n} with {s} stones" for s, n in sorted(by_stones.items()))
        )

    dropped = Counter(
        "mate" if "M" in j.eval else "no search" if j.eval == "none" else "eval"
        for j in judged
        if not j.balanced(args.max_eval)
    )
    dropped["screen"] = len(cands) - len(passed)
    common = [
        f"# One opening per line, black first, 15x15 (h8 = centre), {rule.label}; the comment",
        "# gives Rapfi's evaluation for the side to move (its centi-units; a mate would be +/-M)",
        "# and where the opening came from. Method: python -m gomoku_lab.rapfi_openings -h.",
        "# Made by:",
        f"#   {command}",
        f"# {len(cands)} candidates (named, book, random; one per class under symmetry and",
        f"# translation) screened by Rapfi at {args.screen_nodes} nodes (|eval| < "
        f"{args.screen_eval}: {len(passed)} passed), judged",
        f"# at {args.nodes} nodes, hash cleared; kept when |eval| < {args.max_eval} and no "
        f"mate: {len(kept)}",
        f"# ({tally(kept)}); dropped: "
        + ", ".join(f"{k} {n}" for k, n in sorted(dropped.items()))
        + ".",
        f"# Split by a hash of the position (seed {args.seed}): {len(match)} match openings, "
        f"{len(test)} held out. {elapsed:.0f} s.",
    ]
    write(
        args.out,
        [f"# Openings Rapfi calls balanced, for matches against Rapfi (the match part): "
         f"{len(match)}.", *common],
        match,
    )  # fmt: skip
    write(
        args.heldout,
        [f"# Openings Rapfi calls balanced, HELD OUT (no change is tuned on them): {len(test)}.",
         *common],
        test,
    )  # fmt: skip
    print(f"{len(cands)} candidates, {len(kept)} balanced: {tally(kept)}")
    print(f"dropped: {dict(dropped)}")
    print(f"wrote {len(match)} to {args.out} and {len(test)} to {args.heldout} in {elapsed:.0f} s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.rapfi_openings",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--brain", default=None, help="Rapfi's command (without: the stored judgements)")
    p.add_argument("--rule", default="freestyle", choices=[r.label for r in Rule])
    p.add_argument("--nodes", type=int, default=NODES, help=f"Rapfi's nodes (default {NODES})")
    p.add_argument("--max-eval", type=int, default=MAX_EVAL, help="keep |eval| below this")
    p.add_argument("--screen-nodes", type=int, default=SCREEN_NODES, help="the screen's nodes")
    p.add_argument(
        "--screen-eval", type=int, default=SCREEN_EVAL, help="judge fully below this |eval|"
    )
    p.add_argument("--random", type=int, default=900, help="random candidates drawn")
    p.add_argument("--stones", default="3,4,5", help="stone counts of random candidates")
    p.add_argument("--radius", type=int, default=2, help="random stones within this of h8")
    p.add_argument("--spread", type=int, default=2, help="... and of an earlier stone")
    p.add_argument("--seed", type=int, default=1, help="drawing, split and order (default 1)")
    p.add_argument("--heldout-share", type=float, default=1 / 3)
    p.add_argument("--judgements", type=Path, default=JUDGEMENTS)
    p.add_argument("--out", type=Path, default=None, help="default: the rule's match file")
    p.add_argument("--heldout", type=Path, default=None, help="default: beside --out")
    return p


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; 2 when a judgement is missing or the brain fails."""
    args = build_parser().parse_args(argv)
    rule = parse_rule(args.rule)
    args.out = args.out or rapfi_openings(rule)
    args.heldout = args.heldout or args.out.with_name(args.out.stem + "-heldout.txt")
    shown = " ".join(
        ["python -m gomoku_lab.rapfi_openings", *(sys.argv[1:] if argv is None else argv)]
    )
    try:
        return generate(args, shown)
    except SetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
