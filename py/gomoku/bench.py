"""Benchmarks that print figures:
``python -m gomoku.bench core|search|threats|timing|multipv|interp|all``.

core   make+unmake, evaluations and candidate generations per second on fixed positions,
       and the numpy-vectorised alternative of the per-move update for comparison.
search nodes, nodes/s and depth reached in a fixed time per position, plus a node-count
       signature at a fixed depth (changes only when the search changes).
threats VCF/VCT from positions of lost games: wins found, threat nodes, CPU time.
timing  time per move through the Gomocup brain over many positions (max, p99).
interp  the interpreter primitives of the hot loops, ns per operation (gomoku.bench_interp).

The same functions run inside Pyodide (the web worker's bench message), so the two can
be compared as a ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np

from gomoku.core.geometry import moves_from_text, moves_to_text
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.board import Board
from gomoku.game.evaluation import evaluate
from gomoku.search.alphabeta import Searcher
from gomoku.search.movegen import generate
from gomoku.search.score import Score
from gomoku.search.threats import ThreatSearch

# Fixed positions (15x15 freestyle), opening to late middle game.
BENCH_POSITIONS: tuple[str, ...] = (
    "h8 i9 g9 i7 i8 g7",
    "h8 h9 i9 g7 j10 k11 i7 g9 i10 i8",
    "h8 i7 h5 g7 j8 g8 h7 h6 i5 f7 h9 g5",
    "h8 g9 i9 i8 g7 j10 f6 e5 h7 h6 i6 j5 g6 f7",
    "h8 i9 j8 i8 i7 j6 h6 g5 h7 h9 h5 h4 g8 f8 j9 k10",
    "g7 h8 i7 h7 h6 g6 i8 i6 j6 k5 g8 f9 h9 j7 f7 e6 e8 d9",
    "h8 h9 g9 i7 g8 g10 f8 e8 i9 j10 f9 f10 h10 e7 i11 j12 g7 h6",
    "h8 i9 i8 g8 j8 k8 j9 h7 j7 j10 k6 l5 h10 g11 g9 f10 i10 k9 l10",
)


def bench_boards() -> list[Board]:
    return [Board.from_moves(moves_from_text(t, 15)) for t in BENCH_POSITIONS]


def cpu_clock() -> float:
    """Seconds of CPU time (process time, so other jobs on the machine do not deflate the
    rates); wall time under Pyodide, whose process clock does not advance (a loop timed
    by it would never end) and whose worker has a thread to itself anyway."""
    return time.perf_counter() if sys.platform == "emscripten" else time.process_time()


def _rate(fn, seconds: float) -> float:
    """Calls per CPU second of fn() over about ``seconds`` of CPU time (cpu_clock)."""
    n, start = 0, cpu_clock()
    batch = 64
    while True:
        for _ in range(batch):
            fn()
        n += batch
        elapsed = cpu_clock() - start
        if elapsed >= seconds:
            return n / elapsed


class NumpyUpdate:
    """The per-move line key and summary update done with numpy fancy indexing.

    Kept for the measurement behind the choice of the pure-Python path (BENCHMARKS.md)
    and checked against it in the tests. (The board's cell values are read from a table
    by summary, one dictionary look-up per updated cell, which numpy cannot vectorise.)
    """

    def __init__(self, board: Board) -> None:
        lay = board.layout
        self.board = board
        self.keys = np.array(board.keys, dtype=np.int64)
        self.summary = np.array(board.summary, dtype=np.int64)
        self.cells = np.array(board.cells, dtype=np.int8)
        self.counts = np.array(lay.count_table, dtype=np.int64)
        self.upd = {}
        for side, table in ((1, lay.updates_black), (2, lay.updates_white)):
            for p in lay.onboard:
                u = table[p]
                self.upd[side, p] = (
                    np.array([t[0] for t in u], dtype=np.int64),
                    np.array([t[1] for t in u], dtype=np.int64),
                    np.array([t[2] for t in u], dtype=np.int64),
                )

    def make(self, p: int, side: int) -> None:
        q, i, a = self.upd[side, p]
        free = self.cells[q] == 0
        q, i, a = q[free], i[free], a[free]
        k0 = self.keys[i]
        k1 = k0 + a
        self.keys[i] = k1
        np.add.at(self.summary, q, self.counts[k1] - self.counts[k0])
        self.cells[p] = side

    def unmake(self, p: int, side: int) -> None:
        self.cells[p] = 0
        q, i, a = self.upd[side, p]
        free = self.cells[q] == 0
        q, i, a = q[free], i[free], a[free]
        k1 = self.keys[i]
        k0 = k1 - a
        self.keys[i] = k0
        np.add.at(self.summary, q, self.counts[k0] - self.counts[k1])


def bench_core(seconds: float = 1.0, out=print) -> dict:
    boards = bench_boards()
    results = {}

    def cycle_make(board: Board, moves: list[int]):
        it = [0]

        def fn() -> None:
            q = moves[it[0] % len(moves)]
            it[0] += 1
            board.make(q)
            board.unmake()

        return fn

    per = seconds / len(boards)
    rates = []
    for b in boards:
        rates.append(_rate(cycle_make(b, sorted(b.candidates)), per))
    results["make_unmake_per_s"] = sum(rates) / len(rates)

    np_rates = []
    for b in boards:
        nu = NumpyUpdate(b)
        cands = sorted(b.candidates)
        it = [0]
        side = b.side

        def fn(nu=nu, cands=cands, it=it, side=side) -> None:
            q = cands[it[0] % len(cands)]
            it[0] += 1
            nu.make(q, side)
            nu.unmake(q, side)

        np_rates.append(_rate(fn, per))
    results["numpy_make_unmake_per_s"] = sum(np_rates) / len(np_rates)

    results["evaluations_per_s"] = sum(_rate(lambda b=b: evaluate(b), per) for b in boards) / len(
        boards
    )
    results["generations_per_s"] = sum(_rate(lambda b=b: generate(b), per) for b in boards) / len(
        boards
    )
    for k, v in results.items():
        out(f"{k:28s} {v:12,.0f}")
    return results


def node_signature(depth: int = 4) -> tuple[int, str, float]:
    """Total nodes of a fixed-depth search (threat search off) over the bench positions,
    a short digest of the per-position counts and moves, and the CPU seconds it took
    (process time: unlike wall time, not inflated when other jobs share the cores)."""
    total = 0
    parts = []
    cpu = 0.0
    for text in BENCH_POSITIONS:
        eng = Engine()
        eng.set_position(moves_from_text(text, 15))
        start = cpu_clock()
        r = eng.think(Limits(time_ms=None, depth=depth, use_book=False, use_threats=False))
        cpu += cpu_clock() - start
        total += r.nodes
        parts.append(f"{r.nodes}:{r.move}")
    return total, hashlib.sha1(" ".join(parts).encode()).hexdigest()[:12], cpu


def bench_search(seconds: float = 1.0, depth: int = 4, out=print) -> dict:
    rows = []
    for n, text in enumerate(BENCH_POSITIONS):
        eng = Engine()
        eng.set_position(moves_from_text(text, 15))
        r = eng.think(
            Limits(
                time_ms=seconds * 1000,
                hard_ms=seconds * 1000 * 1.3,
                use_book=False,
                use_threats=False,
            )
        )
        rows.append(
            {"position": n, "nodes": r.nodes, "nps": r.nps, "depth": r.depth, "time_ms": r.time_ms}
        )
        out(
            f"pos {n}: depth {r.depth:2d} nodes {r.nodes:8,d} nps {r.nps:8,d} "
            f"time {r.time_ms:7.1f} ms move {r.move} score {Score.of(r.score).text()}"
        )
    total_nodes = sum(r["nodes"] for r in rows)
    total_time = sum(r["time_ms"] for r in rows) / 1000
    sig_nodes, sig, sig_cpu = node_signature(depth)
    summary = {
        "nodes": total_nodes,
        "nps": int(total_nodes / total_time) if total_time else 0,
        "mean_depth": sum(r["depth"] for r in rows) / len(rows),
        "signature_depth": depth,
        "signature_nodes": sig_nodes,
        "signature": sig,
        "signature_nps_cpu": int(sig_nodes / sig_cpu) if sig_cpu else 0,
    }
    out(
        f"total nodes {total_nodes:,d}  nodes/s {summary['nps']:,d}  "
        f"mean depth in {seconds:g} s {summary['mean_depth']:.2f}"
    )
    out(
        f"signature depth {depth}: {sig_nodes} nodes, {sig}; "
        f"{summary['signature_nps_cpu']:,d} nodes per CPU second"
    )
    return summary


# Positions from games lost to the reference engine (tools/ref-engine), side to move =
# the reference, which went on to win with a VCT from each. Not VCF wins.
THREAT_POSITIONS = (
    "h8 g10 j6 g9 i7 f9 g7 g11 g8 e9 h9",
    "h8 h10 j8 f8 i11 e7 k9 d6 g9 f10",
    "h8 h10 f6 i9 j8 g9 f8 f9 e9 j9 h9 i10",
    "h8 g10 h6 h9 i7 g8 g5 j8 g7 j7 i8 i10 j11 f7 e6 j9 j10",
    "h8 h9 f6 i9 g9 i7 i6 i8 g10 h7 g6 h6 f7 i10 i11",
    "h8 g10 j8 i8 i7 h9 j7 j6",
    "h8 f10 i7 e9 j8 g11 d8 h12 i13 k9",
    "h8 h10 h7 j10 i7 i10 g10 g9 j7 k7 i8 h9 j8 k8 k9 l10 k10 j9 f7 g7 f8",
)


def bench_threats(depth: int = 7, out=print, positions: list[int] | None = None) -> dict:
    """VCF (12) then VCT (up to ``depth``) from each THREAT_POSITIONS position (or the
    ones indexed by ``positions``), no time limit: wins found, threat nodes, CPU time."""
    found = nodes = 0
    cpu = 0.0
    chosen = range(len(THREAT_POSITIONS)) if positions is None else positions
    for n in chosen:
        text = THREAT_POSITIONS[n]
        board = Board.from_moves(moves_from_text(text, 15))
        search = ThreatSearch(board)
        c0 = cpu_clock()
        line = search.vcf(12) or search.vct(depth)
        took = cpu_clock() - c0
        found += line is not None
        nodes += search.nodes
        cpu += took
        shown = moves_to_text([board.point(q) for q in line or []], 15)
        out(
            f"pos {n}: {'win' if line else 'none':4s} nodes {search.nodes:7,d} "
            f"cpu {took * 1000:7.1f} ms line {shown}"
        )
    summary = {
        "positions": len(chosen),
        "found": found,
        "nodes": nodes,
        "cpu_s": round(cpu, 3),
        "nodes_per_cpu_s": int(nodes / cpu) if cpu else 0,
    }
    out(
        f"VCT depth {depth}: {found}/{len(chosen)} wins, {nodes:,d} nodes, "
        f"{cpu:.2f} CPU s, {summary['nodes_per_cpu_s']:,d} nodes per CPU second"
    )
    return summary


def timing_positions(count: int, seed: int = 2026) -> list[list[tuple[int, int]]]:
    """``count`` varied positions (4..60 stones, no side able to win at once), seeded."""
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board()
        board.make(board.layout.index(7, 7))
        target = rng.randint(4, 60)
        while len(board.history) < target:
            moves = generate(board, 6)
            board.make(rng.choice(moves[:3]))
            if board.winner:
                break
        if board.winner or board.fives(1) or board.fives(2):
            continue
        out.append(board.moves)
    return out


def bench_timing(count: int = 100, turn_ms: int = 200, out=print) -> dict:
    """Per-move wall time of the Gomocup brain (a separate process, pipes included) over
    ``count`` positions with ``INFO timeout_turn turn_ms``."""
    import os
    import subprocess
    from pathlib import Path

    env = dict(os.environ)
    env["PYTHONPATH"] = (
        str(Path(__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "gomoku.pbrain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        bufsize=1,
    )

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def reply() -> str:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("brain exited")
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line.strip()

    send("START 15")
    assert reply() == "OK"
    send(f"INFO timeout_turn {turn_ms}")
    send("INFO timeout_match 0")
    times = []
    for moves in timing_positions(count):
        send("BOARD")
        mine = len(moves) % 2  # the brain moves next: its stones have this parity
        for i, (x, y) in enumerate(moves):
            send(f"{x},{y},{1 if i % 2 == mine else 2}")
        start = time.perf_counter()
        send("DONE")
        answer = reply()
        times.append((time.perf_counter() - start) * 1000)
        x, y = (int(v) for v in answer.split(","))
        if (x, y) in moves:
            raise RuntimeError(f"illegal answer {answer}")
    send("END")
    proc.wait(timeout=10)
    times.sort()
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    result = {
        "positions": len(times),
        "turn_ms": turn_ms,
        "max_ms": round(times[-1], 1),
        "p99_ms": round(p99, 1),
        "mean_ms": round(sum(times) / len(times), 1),
    }
    out(
        f"timing: {len(times)} positions, timeout_turn {turn_ms} ms: max {result['max_ms']} ms, "
        f"p99 {result['p99_ms']} ms, mean {result['mean_ms']} ms"
    )
    return result


def bench_multipv(depth: int = 6, lines: int = 3, out=print) -> dict:
    """Time of a multi-PV search (``lines`` best moves) against a plain search to the same
    depth, on each bench position (CPU time; wall time under Pyodide), and the total."""
    plain_total = multi_total = 0.0
    same = 0
    for i, board in enumerate(bench_boards()):
        t = cpu_clock()
        one = Searcher(board).search(max_depth=depth)
        plain = cpu_clock() - t
        t = cpu_clock()
        many = Searcher(board).search(max_depth=depth, multipv=lines)
        multi = cpu_clock() - t
        plain_total += plain
        multi_total += multi
        same += one.move == many.move
        out(
            f"pos {i}: plain {plain * 1000:7.1f} ms {one.nodes:7,} nodes; "
            f"{lines} lines {multi * 1000:7.1f} ms {many.nodes:7,} nodes; x{multi / plain:.2f}"
        )
    ratio = multi_total / plain_total
    out(
        f"depth {depth}, {lines} lines: x{ratio:.2f} the plain search's time; "
        f"same first move {same}/8"
    )
    return {
        "depth": depth,
        "lines": lines,
        "ratio": round(ratio, 3),
        "same_first": same,
        "plain_s": round(plain_total, 3),
        "multi_s": round(multi_total, 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku.bench", description=__doc__.split("\n")[0])
    ap.add_argument(
        "what",
        choices=["core", "search", "threats", "timing", "multipv", "interp", "all"],
        nargs="?",
        default="all",
    )
    ap.add_argument("--positions", type=int, default=100, help="timing: number of positions")
    ap.add_argument("--turn-ms", type=int, default=200, help="timing: timeout_turn")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement/position")
    ap.add_argument("--depth", type=int, default=4, help="depth of the node signature")
    ap.add_argument("--vct-depth", type=int, default=7, help="threats: VCT depth")
    ap.add_argument("--lines", type=int, default=3, help="multipv: best moves reported")
    ap.add_argument("--json", action="store_true", help="print one JSON line at the end")
    args = ap.parse_args(argv)
    out = {}
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    if args.what in ("core", "all"):
        out["core"] = bench_core(args.seconds)
    if args.what in ("search", "all"):
        out["search"] = bench_search(args.seconds, args.depth)
    if args.what in ("threats", "all"):
        out["threats"] = bench_threats(args.vct_depth)
    if args.what in ("timing", "all"):
        out["timing"] = bench_timing(args.positions, args.turn_ms)
    if args.what in ("multipv", "all"):
        out["multipv"] = bench_multipv(max(args.depth, 6), args.lines)
    if args.what in ("interp", "all"):
        from gomoku.bench_interp import bench_interp

        out["interp"] = bench_interp()
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
