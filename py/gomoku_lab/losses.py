"""Where games are lost: ``python -m gomoku_lab.losses RECORDS``.

Reads a match's records (``gomoku_lab.match --records``) where engine2 is Rapfi, takes
engine1's lost games as one colour (``--colour white`` by default) and finds in each the
*turning move*: engine1's last move after which Rapfi's own evaluation (the ``Eval`` of
its next MESSAGE, from its side: a second judge, at the match's node count) says Rapfi
wins (a mate "+M", or at least ``--lost`` evaluation units) and before which it did not.
That move is then classed with our threat search (node-capped, so the answer does not
depend on the machine's load):

- ``missed defence (VCF|VCT)``: the opponent already had that forced win before the
  move (were it to move: a pass) and still has it after: our move did not stop it;
- ``allowed (VCF|VCT)``: no forced win before, one after: the move let it in;
- ``no forced line``: Rapfi sees the game won, our threat search finds no forced win
  within its reach: a position our evaluation and search liked that was lost (a long
  VCT, or a strategic loss).

Each line also gives engine1's own score and depth at that move (its MESSAGE), so a
move whose search reported nothing (depth 0: the defence stage spent its node budget)
shows. The summary counts the classes.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from gomoku.core.geometry import moves_from_text
from gomoku.engine.facade import Engine
from gomoku.search.threats import ThreatSearch

RAPFI_EVAL_RE = re.compile(r"\bEval\s+([+-]?M?\d+)")
OUR_INFO_RE = re.compile(r"depth (\d+) score (.+?) nodes (\d+).*source (\w+)")
VCF_DEPTH = 16
VCT_DEPTH = 8
THREAT_NODES = 200_000


@dataclass
class TurningMove:
    game: int
    ply: int  # 1-based number of engine1's turning move in the game
    move: str
    rapfi_before: str
    rapfi_after: str
    threat_before: str | None  # "VCF"/"VCT": the opponent's forced win were it to move
    threat_after: str | None  # the opponent's forced win after the move
    our_info: str

    @property
    def cls(self) -> str:
        if self.threat_after is None:
            return "no forced line"
        if self.threat_before is not None:
            return f"missed defence ({self.threat_before})"
        return f"allowed ({self.threat_after})"


def rapfi_value(text: str) -> float | None:
    """Rapfi's Eval as a number from its side (a mate as +/- 100000), or None."""
    m = RAPFI_EVAL_RE.search(text or "")
    if not m:
        return None
    v = m.group(1)
    if "M" in v:
        return -100_000.0 if v.startswith("-") else 100_000.0
    return float(v)


def forced_win(engine: Engine, pass_first: bool) -> str | None:
    """The side to move's forced win ("VCF" or "VCT") in engine's position, or with
    ``pass_first`` the opponent's were it to move now; None when none is found."""
    board = engine.board
    if pass_first:
        board.pass_move()
    try:
        search = ThreatSearch(board)
        if search.vcf(VCF_DEPTH, None, THREAT_NODES) is not None:
            return "VCF"
        search = ThreatSearch(board)
        if search.vct(VCT_DEPTH, None, THREAT_NODES) is not None:
            return "VCT"
        return None
    finally:
        if pass_first:
            board.pass_move()


def turning_move(record: dict, lost_at: float) -> TurningMove | None:
    """engine1's turning move in a game it lost (see the module doc), or None when
    Rapfi's evaluations never show the change."""
    size = int(record["size"])
    moves = moves_from_text(record["moves"], size)
    texts = record["moves"].split()
    opening = len(record["opening"].split())
    infos = record["infos"]
    e1_black = record["black"] == "engine1"
    turning = None
    for i, info in enumerate(infos):
        ply = opening + i  # 0-based index of the move this info came with
        mover_black = ply % 2 == 0
        if mover_black != e1_black or i + 1 >= len(infos):
            continue  # engine1's moves only, with Rapfi's answer after it
        after = rapfi_value(infos[i + 1])
        before = rapfi_value(infos[i - 1]) if i >= 1 else None
        if after is None or after < lost_at:
            continue
        if before is None or before < lost_at:
            turning = (ply, infos[i - 1] if i >= 1 else "", infos[i + 1], info)
    if turning is None:
        return None
    ply, before_text, after_text, our = turning
    engine = Engine(size, record["rule"])
    engine.set_position(moves[:ply])
    threat_before = forced_win(engine, pass_first=True)
    engine.set_position(moves[: ply + 1])
    threat_after = forced_win(engine, pass_first=False)

    def ev(text: str) -> str:
        m = RAPFI_EVAL_RE.search(text)
        return m.group(1) if m else "?"

    m = OUR_INFO_RE.search(our)
    return TurningMove(
        int(record["game"]),
        ply + 1,
        texts[ply],
        ev(before_text),
        ev(after_text),
        threat_before,
        threat_after,
        f"depth {m[1]} score {m[2]} nodes {m[3]} {m[4]}" if m else our[:60],
    )


def rapfi_eval(command: str, moves: list[tuple[int, int]], size: int, nodes: int) -> str:
    """Rapfi's Eval of the position after ``moves`` (black first) for the side to move,
    searched to ``nodes`` nodes in a fresh process (clean tables): "+M13", "-250" ..."""
    own = len(moves) % 2  # the brain's stones are the side to move's
    lines = [f"START {size}", "INFO timeout_turn 600000", f"INFO max_node {nodes}", "BOARD"]
    lines += [f"{x},{y},{1 if i % 2 == own else 2}" for i, (x, y) in enumerate(moves)]
    lines += ["DONE", "END"]
    out = subprocess.run(
        shlex.split(command), input="\n".join(lines) + "\n", capture_output=True, text=True,
        timeout=3600, check=False,
    ).stdout  # fmt: skip
    found = RAPFI_EVAL_RE.findall(out)
    return found[-1] if found else "?"


def judge_openings(command: str, path: Path, count: int, nodes: int, size: int = 15) -> int:
    """Print Rapfi's evaluation of the first ``count`` openings of ``path`` from black's
    side, and how many it counts as decided (a mate, or |Eval| >= 600)."""
    from gomoku_lab.openings import load_openings

    decided = Counter()
    for i, opening in enumerate(load_openings(path, size)[:count]):
        text = rapfi_eval(command, list(opening), size, nodes)
        value = rapfi_value(f"Eval {text}")
        black = None if value is None else (value if len(opening) % 2 == 0 else -value)
        verdict = (
            "?" if black is None else "black" if black >= 600 else "white" if black <= -600
            else "open"
        )  # fmt: skip
        decided[verdict] += 1
        print(f"opening {i + 1} ({len(opening)} stones): Rapfi Eval {text} for the side to "
              f"move; black's side {black}: {verdict}", flush=True)  # fmt: skip
    print(
        f"{count} openings at {nodes} nodes: " + ", ".join(f"{k} {v}" for k, v in decided.items())
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(prog="python -m gomoku_lab.losses", description=__doc__)
    p.add_argument("records", nargs="*", type=Path, help="match records (engine2 = Rapfi)")
    p.add_argument(
        "--judge-openings",
        type=Path,
        default=None,
        metavar="FILE",
        help="instead: Rapfi's evaluation of the openings of FILE",
    )
    p.add_argument("--rapfi", default=None, help="Rapfi's command (with --judge-openings)")
    p.add_argument("--count", type=int, default=20, help="openings judged")
    p.add_argument("--nodes", type=int, default=1_000_000, help="Rapfi's nodes per opening")
    p.add_argument("--colour", choices=("black", "white"), default="white")
    p.add_argument("--lost", type=float, default=600, help="Rapfi Eval counted as won for it")
    args = p.parse_args(argv)
    if args.judge_openings:
        if not args.rapfi:
            p.error("--judge-openings needs --rapfi")
        return judge_openings(args.rapfi, args.judge_openings, args.count, args.nodes)
    counts: Counter[str] = Counter()
    games = 0
    for path in args.records:
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec["score1"] != 0.0 or rec[args.colour] != "engine1":
                continue
            games += 1
            t = turning_move(rec, args.lost)
            if t is None:
                counts["no turning move seen"] += 1
                print(f"{path.name} game {rec['game']}: no turning move in Rapfi's evals")
                continue
            counts[t.cls] += 1
            print(
                f"{path.name} game {t.game} move {t.ply} {t.move}: {t.cls}; Rapfi "
                f"{t.rapfi_before} -> {t.rapfi_after}; ours: {t.our_info}"
            )
    print(f"{games} lost games as {args.colour}:")
    for cls, n in counts.most_common():
        print(f"  {cls}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
