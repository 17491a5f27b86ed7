"""The opening stones the engine proposes under an opening rule, judged by Rapfi:
``python -m gomoku_lab.opening_sets``.

Under swap2 the first player places three stones and the other takes the better side, so
the first player wants a position neither side is glad to get; under Soosõrv-8 the first
player puts one of the 26 openings, and the least lopsided ones leave the most to play
for. This tool writes the sets the engine draws from (``py/gomoku/data/opening-sets.txt``,
read by gomoku.engine.opening_play; the file name is its ``OPENING_SETS_FILE``):

- swap2, per rule (freestyle, standard): ``--draws`` random three-stone openings (black on
  h8, every stone within ``--radius`` of h8 and within ``--spread`` of an earlier one,
  distinct up to symmetry and translation: gomoku_lab.openings), or the three-stone
  openings of ``--from FILE`` (an openings file such as the lab's balanced sets). Most
  random openings are clearly black's (two stones to one), so our own engine sorts them
  first: a search of ``--prefilter-nodes`` nodes with white to move, and only those whose
  score (white's view, centi-units) lies in ``--prefilter LOW HIGH`` go on, at most
  ``--candidates``. Each is judged by Rapfi with white to move at ``--nodes`` nodes in a
  fresh process and kept when Rapfi's Eval is within ``--within`` of even (Rapfi's scale:
  a win rate of 1 / (1 + exp(-Eval / 200)), so 40 is 45 % to 55 %), the most even first,
  at most ``--keep``.
- renju (Soosõrv-8): the 26 openings judged the same way under renju; the ``--keep-renju``
  whose Eval for black is smallest and not a forced win are kept.

Rapfi is never needed by a test or CI: the file is committed with the command and the
figures in its header.

Example::

    PYTHONPATH=py nice -n 10 python -m gomoku_lab.opening_sets --rapfi /work/rapfi/pbrain-rapfi \\
        --nodes 500000 --out py/gomoku/data/opening-sets.txt
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gomoku.core.geometry import moves_to_text
from gomoku.core.rules import Rule
from gomoku.engine import Engine, Limits
from gomoku.engine.opening_play import OPENING_SETS_FILE, parse_opening_sets
from gomoku_lab.book_build import standard_openings
from gomoku_lab.openings import draw_candidates, load_openings, position_key
from gomoku_lab.referee import INFO_RULE_BITS

Point = tuple[int, int]
EVAL_RE = re.compile(r"\bEval\s+([+-]?M?\d+)")
MATE = 100_000  # a forced win as a number (Rapfi writes "+M13")


@dataclass(frozen=True)
class Judged:
    """An opening and Rapfi's Eval of it for the side to move (white)."""

    rule: Rule
    moves: tuple[Point, ...]
    value: int
    text: str  # as Rapfi wrote it: "-12", "+M15"
    name: str = ""


def eval_value(text: str) -> int:
    """Rapfi's Eval as a number (a mate as +/- MATE)."""
    if "M" in text:
        return -MATE if text.startswith("-") else MATE
    return int(text)


def rapfi_judge(command: str, moves: list[Point], rule: Rule, nodes: int, size: int = 15) -> str:
    """Rapfi's last Eval of the position after ``moves`` for the side to move, searched to
    ``nodes`` nodes under ``rule`` in a fresh process ("?" when it printed none)."""
    own = len(moves) % 2  # the brain's stones (1) are the side to move's
    lines = [
        f"INFO rule {INFO_RULE_BITS[rule]}",
        f"START {size}",
        "INFO timeout_turn 600000",
        f"INFO max_node {nodes}",
        "BOARD",
        *(f"{x},{y},{1 if i % 2 == own else 2}" for i, (x, y) in enumerate(moves)),
        "DONE",
        "END",
    ]
    out = subprocess.run(
        shlex.split(command), input="\n".join(lines) + "\n", capture_output=True, text=True,
        timeout=3600, check=False,
    ).stdout  # fmt: skip
    found = EVAL_RE.findall(out)
    return found[-1] if found else "?"


def swap2_candidates(args: argparse.Namespace, rule: Rule) -> list[list[Point]]:
    """Three-stone openings for Rapfi to judge under ``rule``: from --from, or drawn at
    random and kept when our engine's score lies in --prefilter."""
    if args.source:
        seen: set[tuple] = set()
        out = []
        for moves in load_openings(args.source):
            if len(moves) == 3 and position_key(moves) not in seen:
                seen.add(position_key(moves))
                out.append(list(moves))
        return out[: args.candidates]
    low, high = args.prefilter
    engine = Engine(15, rule)
    limits = Limits(time_ms=None, nodes=args.prefilter_nodes, use_book=False, seed=0)
    out = []
    for moves in draw_candidates(args.draws, [3], args.radius, args.spread, args.seed):
        engine.set_position(moves)
        if low <= engine.think(limits).score <= high:
            out.append(moves)
    return out[: args.candidates]


def judge(command: str, moves: list[Point], rule: Rule, nodes: int, name: str = "") -> Judged:
    text = rapfi_judge(command, moves, rule, nodes)
    value = eval_value(text) if text != "?" else MATE
    return Judged(rule, tuple(moves), value, text, name)


def build(args: argparse.Namespace, command_line: str) -> str:
    """The sets' file text (header, then one line per opening)."""
    t0 = time.perf_counter()
    kept: list[Judged] = []
    counts = []
    for rule in (Rule.FREESTYLE, Rule.STANDARD):
        candidates = swap2_candidates(args, rule)
        judged = []
        for i, moves in enumerate(candidates):
            j = judge(args.rapfi, moves, rule, args.nodes)
            judged.append(j)
            print(f"{rule.label} {i + 1}/{len(candidates)} {moves_to_text(moves, 15)}: "
                  f"Eval {j.text}", flush=True)  # fmt: skip
        even = sorted(
            (j for j in judged if abs(j.value) <= args.within), key=lambda j: abs(j.value)
        )
        kept += even[: args.keep]
        counts.append(f"{rule.label} {len(even)} of {len(judged)} within {args.within}")
    renju = []
    for name, _family, moves in standard_openings(15):
        j = judge(args.rapfi, moves, Rule.RENJU, args.nodes, name)
        renju.append(j)
        print(f"renju {name} {moves_to_text(moves, 15)}: Eval {j.text}", flush=True)
    playable = sorted((j for j in renju if abs(j.value) < MATE), key=lambda j: -j.value)
    kept += playable[: args.keep_renju]  # white's Eval highest: black's edge smallest
    counts.append(f"renju {len(playable)} of 26 without a forced win")
    lines = [
        "# The opening stones the engine proposes (gomoku.engine.opening_play).",
        "# RULE MOVES # Rapfi's Eval for white to move (its win rate 1/(1+exp(-Eval/200))).",
        "# freestyle / standard: swap2's three stones; renju: Soosõrv-8's opening (one of the 26).",
        f"# Made by: {command_line}",
        f"# Judged by Rapfi at {args.nodes} nodes per position, {time.perf_counter() - t0:.0f} s; "
        + "; ".join(counts) + ".",
    ]  # fmt: skip
    for j in kept:
        name = f" {j.name}" if j.name else ""
        lines.append(f"{j.rule.label} {moves_to_text(j.moves, 15)} # Eval {j.text}{name}")
    text = "\n".join(lines) + "\n"
    parse_opening_sets(text)  # what the engine will read
    return text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.opening_sets", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--rapfi", required=True, help="Rapfi's command line (its pbrain binary)")
    p.add_argument("--nodes", type=int, default=500_000, help="Rapfi's nodes per position")
    p.add_argument("--candidates", type=int, default=60, help="swap2 openings judged per rule")
    p.add_argument("--from", dest="source", default=None, help="take swap2's candidates from FILE")
    p.add_argument("--draws", type=int, default=400, help="random openings drawn")
    p.add_argument("--radius", type=int, default=5)
    p.add_argument("--spread", type=int, default=5)
    p.add_argument("--prefilter-nodes", type=int, default=1500)
    p.add_argument("--prefilter", type=int, nargs=2, default=(-40, 90), metavar=("LOW", "HIGH"))
    p.add_argument("--seed", type=int, default=2042)
    p.add_argument("--within", type=int, default=40, help="swap2: |Eval| at most this")
    p.add_argument("--keep", type=int, default=24, help="swap2: at most this many per rule")
    p.add_argument("--keep-renju", type=int, default=8, help="Soosõrv-8: this many openings")
    p.add_argument("--out", default=str(OPENING_SETS_FILE))
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command_line = "python -m gomoku_lab.opening_sets " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])
    )
    text = build(args, command_line)
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
