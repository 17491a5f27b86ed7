"""The puzzle generator: positions from games played here, proven and rated.

    python -m gomoku_lab.puzzles generate --rule freestyle --games 400 --out p.jsonl
    python -m gomoku_lab.puzzles ship p*.jsonl          # -> py/gomoku/data/puzzles.txt
    python -m gomoku_lab.puzzle_rating --jobs 2         # the ratings, measured, into it
    python -m gomoku_lab.puzzles stats                  # the shipped file in figures
    python -m gomoku_lab.puzzles reprove [--write]      # drop defences that lose by force

Games: level against level (engine/levels.py, the node levels, two drawn per game, from
a random quiet opening, selfplay.random_opening), so that the positions come from players
who miss things. Every position of a game is examined (side to move A, opponent O):

- ``vcf``: A has a VCF (exact, prove.Vcf) that it did not have two plies earlier (the
  moment it appears, the opponent's last move allowed it); depth = its fours + 2 (room
  for a longer route), solutions = every cell that starts a VCF within that depth;
- ``vct`` (not renju): no VCF but a VCT (the engine's threat search, 6 threats), new;
  solutions = every cell after which every defence leaves a VCT;
- ``defend`` (not renju): A has neither, O would win by VCF (10) or VCT (4) were it to
  move, new; solutions = every cell after which O has neither; kept only when no
  accepted cell is a four that merely delays (prove.delaying_four).

Kept: 1 to 3 solutions (1 or 2 for a defence), a position not seen before under the 8
symmetries and translation. Each record says whether the player in the game found it.

Ratings are measured afterwards, on the shipped file: gomoku_lab.puzzle_rating (each node
level plays the puzzle against its judge; the rating is fitted to which levels solve it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from gomoku.core.rules import Rule, parse_rule
from gomoku.engine.facade import Engine
from gomoku.engine.levels import LEVELS, play
from gomoku.game.board import Board
from gomoku.puzzles import THEMES, Puzzle, dump, encode_cells, position_key
from gomoku.puzzles.prove import (
    defence_solutions,
    delaying_four,
    five_cells,
    threat_of,
    vcf_line,
    vcf_solutions,
    vct_solutions,
)
from gomoku.search.threats import ThreatSearch
from gomoku_lab.selfplay import random_opening

VCF_SEARCH = 10  # fours looked for in every position
VCF_SLACK = 2  # a VCF puzzle's depth: its shortest win + this
VCT_DEPTH = 6  # threats of a VCT puzzle
DEFEND_VCF = 10
DEFEND_VCT = 4
SCAN_NODES = 6_000  # threat-search nodes per position when scanning a game for a VCT
MAX_SOLUTIONS = {"vcf": 3, "vct": 3, "defend": 2}
SEEDS = 3
MAX_PLIES = 160
DATA = Path(__file__).resolve().parents[1] / "gomoku" / "data" / "puzzles.txt"


GAME_LEVEL_NODES = 6000  # the games' players: the node levels up to this budget (fast)


def node_levels() -> list:
    return [lv for lv in LEVELS if not lv.timed]


def level_game(size: int, rule: Rule, seed: int) -> list[tuple[int, int]]:
    """A game between two node levels drawn from ``seed`` (weak ones more often)."""
    rng = random.Random(seed)
    levels = [lv for lv in node_levels() if lv.nodes <= GAME_LEVEL_NODES]
    weights = [len(levels) - i for i in range(len(levels))]
    pair = rng.choices([lv.number for lv in levels], weights, k=2)
    engine = Engine(size, rule, tt_bits=16, seed=0)
    engine.set_position(random_opening(rng, size, rule, rng.randint(2, 6)))
    while not engine.is_over and len(engine.moves) < MAX_PLIES:
        n = pair[engine.side_to_move - 1]
        engine.play(*play(engine, n, seed).move)
    return list(engine.moves)


def _cells(board: Board, qs) -> list[tuple[int, int]]:
    return [board.point(q) for q in qs]


def examine(
    moves: list[tuple[int, int]], size: int, rule: Rule, stats: Counter, themes=THEMES
) -> list[dict]:
    """The puzzles of one game (see the module docstring), of the given themes (without
    vct and defend a game is examined many times faster: no VCT scan, no threat scan)."""
    board = Board(size, rule)
    out: list[dict] = []
    had_vcf = {1: False, 2: False}  # the side's VCF at its previous turn, found in the game
    had_vct = {1: False, 2: False}
    threat_seen = {1: False, 2: False}  # the side faced a threat at its previous turn
    renju = rule is Rule.RENJU
    threats = not renju and "vct" in themes
    defend = not renju and "defend" in themes
    for played in moves:
        a = board.side
        o = 3 - a
        stats["positions"] += 1
        found = False  # the side to move played a solution of this position's puzzle
        if not five_cells(board, a) and len(five_cells(board, o)) < 2:
            line = vcf_line(board, VCF_SEARCH)
            vct = None
            if line is None and threats:  # a bounded scan: the proof comes after
                vct = ThreatSearch(board).vct(VCT_DEPTH, max_nodes=SCAN_NODES)
            made: list[dict] = []
            if line is not None and not had_vcf[a]:
                made = _make(board, "vcf", line, played, stats)
            elif vct is not None and not had_vct[a]:
                made = _make(board, "vct", vct, played, stats)
            threat = None
            if line is None and vct is None and defend:
                board.pass_move()
                threat = threat_of(board, DEFEND_VCF, DEFEND_VCT, SCAN_NODES)
                board.pass_move()
                if threat is not None and not threat_seen[a]:
                    made = _make(board, "defend", threat, played, stats)
            found = any(r["found_in_game"] for r in made)
            out += made
            # a win the side missed is new again at its next turn (a second chance missed)
            had_vcf[a] = line is not None and (found or not made)
            had_vct[a] = vct is not None and (found or not made)
            threat_seen[a] = threat is not None
        board.play(*played)
        if board.winner:
            break
    return out


def _make(board: Board, theme: str, line: list[int], played, stats: Counter) -> list[dict]:
    stats[f"candidates {theme}"] += 1
    if theme == "vcf":
        depth, vct_depth = (len(line) - 1) // 2 + VCF_SLACK, 0
        if len(line) % 2 == 0:
            return []  # a line ending in a block black may not play: no reply to show
        sols = vcf_solutions(board, depth, MAX_SOLUTIONS[theme])
    elif theme == "vct":
        depth, vct_depth = VCT_DEPTH, 0
        sols = vct_solutions(board, depth, MAX_SOLUTIONS[theme])
    else:
        depth, vct_depth = DEFEND_VCF, DEFEND_VCT
        sols = defence_solutions(board, depth, vct_depth, MAX_SOLUTIONS[theme])
        if any(delaying_four(board, q, depth, vct_depth) for q in sols):
            stats["dropped defend: a delaying four"] += 1
            return []
    if not 1 <= len(sols) <= MAX_SOLUTIONS[theme]:
        stats[f"dropped {theme}: {len(sols)} solutions"] += 1
        return []
    first = sorted(sols, key=lambda q: (len(sols[q]), q))[0]
    shown = sols[first] if theme != "defend" else line
    moves = board.moves
    record = {
        "rule": board.rule.label,
        "size": board.size,
        "theme": theme,
        "depth": depth,
        "vct_depth": vct_depth,
        "moves": [list(p) for p in moves],
        "solutions": sorted(list(p) for p in _cells(board, sols)),
        "line": [list(p) for p in _cells(board, shown)],
        "found_in_game": board.index(*played) in sols,
        "win_moves": (len(shown) + 1) // 2 if theme != "defend" else None,
    }
    stats[f"kept {theme}"] += 1
    return [record]


def puzzle_id(record: dict) -> str:
    key = position_key([tuple(p) for p in record["moves"]], record["size"],
                       parse_rule(record["rule"]))
    return hashlib.sha1(repr((key, record["theme"])).encode()).hexdigest()[:6]


# --- commands ----------------------------------------------------------------------------


def generate(args) -> int:
    rule = parse_rule(args.rule)
    stats: Counter = Counter()
    seen: set = set()
    out = Path(args.out)
    if out.exists():
        for s in out.read_text().splitlines():
            r = json.loads(s)
            seen.add(position_key([tuple(p) for p in r["moves"]], r["size"], parse_rule(r["rule"])))
    start = time.time()
    with out.open("a", encoding="utf-8") as f:
        for g in range(args.games):
            seed = args.seed * 1_000_003 + g
            moves = level_game(args.size, rule, seed)
            stats["games"] += 1
            for rec in examine(moves, args.size, rule, stats, tuple(args.themes.split(","))):
                key = position_key([tuple(p) for p in rec["moves"]], rec["size"], rule)
                if key in seen:
                    stats["duplicates"] += 1
                    continue
                seen.add(key)
                rec["game_seed"] = seed
                rec["id"] = puzzle_id(rec)
                f.write(json.dumps(rec) + "\n")
                f.flush()
            if (g + 1) % 10 == 0:
                print(f"{time.time() - start:.0f}s {dict(sorted(stats.items()))}", flush=True)
    print(json.dumps({"rule": rule.label, **stats}), flush=True)
    return 0


def ship(args) -> int:
    puzzles: dict = {}
    for name in args.inputs:
        for s in Path(name).read_text().splitlines():
            rec = json.loads(s)
            rule = parse_rule(rec["rule"])
            p = Puzzle(
                id=rec.get("id") or puzzle_id(rec),
                rule=rule,
                size=rec["size"],
                theme=rec["theme"],
                depth=rec["depth"],
                vct_depth=rec["vct_depth"],
                solves=None,  # measured on the shipped file: gomoku_lab.puzzle_rating
                moves=tuple(tuple(m) for m in rec["moves"]),
                solutions=tuple(tuple(m) for m in rec["solutions"]),
                line=tuple(tuple(m) for m in rec["line"]),
            )
            puzzles.setdefault(p.key(), p)
    ordered = sorted(puzzles.values(), key=lambda p: (p.rule, p.theme, p.id))
    header = ["# solves: not measured yet: run python -m gomoku_lab.puzzle_rating"]
    Path(args.out).write_text(dump(ordered, header), encoding="utf-8")
    print(f"{len(ordered)} puzzles -> {args.out} ({Path(args.out).stat().st_size} bytes)")
    return 0


def stats_cmd(args) -> int:
    """The shipped collection in figures (BENCHMARKS.md): by rule and theme, by rating,
    by number of solutions and moves to win, and the file's size."""
    from gomoku.puzzles import load

    puzzles = load()
    by_kind = Counter((p.rule.label, p.theme) for p in puzzles)
    print(f"{len(puzzles)} puzzles, {DATA.stat().st_size} bytes ({DATA.name})")
    for rule in ("freestyle", "standard", "renju"):
        row = ", ".join(f"{t} {by_kind[(rule, t)]}" for t in ("vcf", "vct", "defend"))
        print(f"  {rule}: {row}")
    print("ratings (fitted to the levels' solves), by bands of 100:")
    bands = Counter(None if p.rating is None else p.rating // 100 * 100 for p in puzzles)
    for band, n in sorted(bands.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        label = "not measured" if band is None else f"{band}..{band + 99}"
        print(f"  {label:>12} {n:4} {'#' * round(60 * n / len(puzzles))}")
    shared = Counter(p.rating for p in puzzles).most_common(3)
    top = ", ".join(f"{r} ({n}, {n / len(puzzles):.0%})" for r, n in shared)
    print("most shared ratings:", top)
    print("solutions:", dict(sorted(Counter(len(p.solutions) for p in puzzles).items())))
    wins = Counter(p.moves_to_win for p in puzzles if p.moves_to_win)
    print("moves to win (vcf, vct):", dict(sorted(wins.items())))
    return 0


def losing_defences(puzzle: Puzzle, nodes: int) -> tuple[list, list]:
    """A defence puzzle's accepted defences after which the attacker still wins by force
    (the proof-number prover, ``nodes`` per defence), and those whose answer it could not
    settle within them."""
    from gomoku.search.prover import UNKNOWN, prove

    board = puzzle.board()
    losing, unsure = [], []
    for x, y in puzzle.solutions:
        board.make(board.index(x, y))
        try:
            proof = prove(board, max_nodes=nodes)
        finally:
            board.unmake()
        if proof.win:
            losing.append((x, y))
        elif proof.status == UNKNOWN:
            unsure.append((x, y))
    return losing, unsure


def reprove(args) -> int:
    """Every defence puzzle's accepted defences against the prover: a puzzle with a
    defence after which the attacker still wins by force is dropped (it would teach a
    losing defence, or its position is lost whatever the defence); with
    ``--drop-unsettled`` also one with a defence the prover can neither refute nor
    clear within its nodes. ``--write`` rewrites the shipped file and the page's copy
    without them."""
    from gomoku.protocol.page_data import puzzles_js
    from gomoku.puzzles import load, stored_header

    puzzles = load()
    dropped, unsure = [], 0
    for p in puzzles:
        if p.theme != "defend":
            continue
        losing, open_ = losing_defences(p, args.nodes)
        unsure += bool(open_)
        if losing:
            dropped.append(p)
            cells = " ".join(encode_cells([c]) for c in losing)
            print(f"{p.id} {p.rule.label}: the attacker still wins after {cells}", flush=True)
        elif open_ and args.drop_unsettled:
            dropped.append(p)
            cells = " ".join(encode_cells([c]) for c in open_)
            print(f"{p.id} {p.rule.label}: unsettled after {cells}", flush=True)
    kept = [p for p in puzzles if p not in dropped]
    defences = sum(p.theme == "defend" for p in puzzles)
    also = ", or is left unsettled" if args.drop_unsettled else ""
    print(f"{len(dropped)} of {defences} defence puzzles dropped (a defence loses by force "
          f"within {args.nodes} prover nodes{also}); {unsure} with a defence left unsettled")
    if args.write:
        DATA.write_text(dump(kept, stored_header()), encoding="utf-8")
        page = Path(__file__).resolve().parents[2] / "web" / "model" / "puzzles-data.js"
        page.write_text(puzzles_js(kept), encoding="utf-8")
        print(f"{len(kept)} puzzles -> {DATA} and {page}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.puzzles", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="play games and keep their puzzles")
    g.add_argument("--rule", default="freestyle")
    g.add_argument("--size", type=int, default=15)
    g.add_argument("--games", type=int, default=100)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True)
    g.add_argument("--themes", default="vcf,vct,defend", help="comma-separated themes to look for")
    s = sub.add_parser("ship", help="write the shipped data file")
    s.add_argument("inputs", nargs="+")
    s.add_argument("--out", default=str(DATA))
    sub.add_parser("stats", help="the shipped collection in figures")
    r = sub.add_parser("reprove", help="drop defence puzzles whose defence loses by force")
    r.add_argument("--nodes", type=int, default=150_000, help="prover nodes per defence")
    r.add_argument("--write", action="store_true", help="rewrite the shipped file")
    r.add_argument("--drop-unsettled", action="store_true",
                   help="also drop a puzzle with a defence the prover cannot settle")
    args = ap.parse_args(argv)
    commands = {"generate": generate, "ship": ship, "stats": stats_cmd, "reprove": reprove}
    return commands[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["encode_cells", "examine", "level_game"]
