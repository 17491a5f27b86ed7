"""Renju benchmarks: ``python -m gomoku_lab.renju_bench [--seconds S] [--verify N]``
(also ``python -m gomoku.bench renju``).

Measures, on seeded random positions (20..90 stones packed around the centre, where
forbidden points are frequent) and on the bench's game positions played under renju:

- ``forbidden(board, p)`` calls per second over every candidate cell, with the cache as the
  search would find it (warm) and emptied before every call (cold);
- the exact check alone (cells the summary screen cannot decide), cold; the same for the
  double-three candidates (two open threes: the recursive path), cold, and with the line
  facts memo emptied too (nothing known in advance);
- ``forbidden_points(board)`` per second, cold;
- the slow reference's checks per second on the same cells, for scale;
- make+unmake per second on the same positions under freestyle and renju (renju's line
  keys are 11 cells like standard's, freestyle's 9: the only cost renju adds to a move).

``--search D`` measures the search instead: nodes per CPU second of a depth-D search
(no book, no root threat search) on the bench's game positions, under freestyle and
under renju, the same positions: what renju's forbidden-point checks cost the engine.

``--records FILE`` reads a renju match's game records (``python -m gomoku_lab.match --rule
renju --records FILE``) and counts what black's forbidden points did in those games:
forbidden moves played (each a loss), black turns with a forbidden point on the board,
and white wins where black's block was forbidden (white's only five point at black's last
turn forbidden for black: the forbidden point decided the game) or one of several.

``--verify N`` runs the big cross-check: the fast detector against the reference on N
random positions (every candidate cell), and prints the mismatches (there should be none).
"""

from __future__ import annotations

import argparse
import random
import time

from gomoku.core.rules import Rule
from gomoku.game import renju
from gomoku.game.board import Board
from gomoku.patterns.tables import BLACK, OPEN_THREE, count_of
from gomoku_lab import renju_reference as R

Point = tuple[int, int]


def random_stones(rng: random.Random, size: int = 15) -> tuple[list[Point], list[Point]]:
    """20..90 stones in a random square window of 7..15 cells, black's share 45-65%."""
    w = rng.randint(7, size)
    x0, y0 = rng.randint(0, size - w), rng.randint(0, size - w)
    cells = [(x0 + i, y0 + j) for i in range(w) for j in range(w)]
    rng.shuffle(cells)
    cells = cells[: min(rng.randint(20, 90), len(cells) - 1)]
    share = rng.uniform(0.45, 0.65)
    black = [c for c in cells if rng.random() < share]
    chosen = set(black)
    return black, [c for c in cells if c not in chosen]


def board_with(black: list[Point], white: list[Point], rule: Rule, size: int = 15) -> Board:
    """A board with these stones (alternating, passing when a colour has run out)."""
    board = Board(size, rule)
    bl, wh = list(black), list(white)
    while bl or wh:
        if bl:
            board.make(board.layout.index(*bl.pop()))
        else:
            board.pass_move()
        if wh:
            board.make(board.layout.index(*wh.pop()))
        elif bl:
            board.pass_move()
    return board


def bench_positions(count: int = 40, seed: int = 7) -> list[tuple[list[Point], list[Point]]]:
    """The random positions plus the bench's game positions (gomoku.bench)."""
    from gomoku.bench import BENCH_POSITIONS
    from gomoku.core.geometry import moves_from_text

    rng = random.Random(seed)
    out = [random_stones(rng) for _ in range(count)]
    for text in BENCH_POSITIONS:
        moves = moves_from_text(text, 15)
        out.append((moves[0::2], moves[1::2]))
    return out


def _clear_caches() -> None:
    for geo in renju._GEOMETRY.values():
        geo.cache.clear()


def _per_second(fn, items: list, seconds: float) -> float:
    """Calls of fn(item) per CPU second, cycling over items for about ``seconds``."""
    n, start = 0, time.process_time()
    while True:
        for item in items:
            fn(item)
        n += len(items)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


def bench_renju(seconds: float = 1.0, out=print) -> dict[str, float]:
    """The figures above, as a dict (and printed through ``out``)."""
    stones = bench_positions()
    boards = [board_with(b, w, Rule.RENJU) for b, w in stones]
    cells = [(board, p) for board in boards for p in sorted(board.candidates)]
    checked = [
        (board, p)
        for board, p in cells
        if renju.screen(board.side_summary(p, BLACK)) == renju._CHECK
    ]
    threes = [
        (board, p)
        for board, p in checked
        if count_of(board.side_summary(p, BLACK), OPEN_THREE) >= 2
    ]
    forbidden_count = sum(len(renju.forbidden_points(b)) for b in boards)
    res: dict[str, float] = {
        "positions": len(boards),
        "candidate_cells": len(cells),
        "screened_to_exact_check": len(checked),
        "double_three_candidates": len(threes),
        "forbidden_points": forbidden_count,
    }

    def cold(item: tuple[Board, int]) -> None:
        _clear_caches()
        renju.forbidden(*item)

    res["forbidden_per_s_warm"] = _per_second(lambda it: renju.forbidden(*it), cells, seconds)
    res["forbidden_per_s_cold"] = _per_second(cold, cells, seconds)
    res["exact_checks_per_s_cold"] = _per_second(cold, checked, seconds)
    res["double_three_checks_per_s_cold"] = _per_second(cold, threes, seconds)

    def no_memo(item: tuple[Board, int]) -> None:
        renju._FACTS.clear()
        cold(item)

    res["double_three_checks_per_s_no_memo"] = _per_second(no_memo, threes, seconds)

    def points_cold(board: Board) -> None:
        _clear_caches()
        renju.forbidden_points(board)

    res["forbidden_points_per_s_cold"] = _per_second(points_cold, boards, seconds)
    grids = {id(b): R.grid_from_moves([], 15) for b in boards}
    for b, (bl, wh) in zip(boards, stones, strict=True):
        for x, y in bl:
            grids[id(b)][y][x] = R.BLACK
        for x, y in wh:
            grids[id(b)][y][x] = R.WHITE

    def reference(item: tuple[Board, int]) -> None:
        board, p = item
        R.forbidden(grids[id(board)], *board.point(p))

    res["reference_checks_per_s"] = _per_second(reference, cells, seconds)
    for rule in (Rule.FREESTYLE, Rule.RENJU):
        pairs = []
        for bl, wh in stones:
            board = board_with(bl, wh, rule)
            pairs += [(board, p) for p in sorted(board.candidates)[:8]]

        def make_unmake(item: tuple[Board, int]) -> None:
            item[0].make(item[1])
            item[0].unmake()

        res[f"make_unmake_per_s_{rule.label}"] = _per_second(make_unmake, pairs, seconds / 2)
    for k, v in res.items():
        out(f"{k:32s} {v:12,.0f}")
    return res


def search_rates(depth: int = 5, out=print) -> dict[str, float]:
    """Nodes per CPU second of a fixed-depth search on the bench positions, freestyle and
    renju (positions that renju refuses, a black stone on a forbidden point, are skipped
    under both rules so that the two rates cover the same positions)."""
    from gomoku.bench import BENCH_POSITIONS
    from gomoku.core.errors import GomokuError
    from gomoku.core.geometry import moves_from_text
    from gomoku.engine.facade import Engine
    from gomoku.engine.limits import Limits

    positions = []
    for text in BENCH_POSITIONS:
        moves = moves_from_text(text, 15)
        try:
            probe = Engine()
            probe.new_game(15, Rule.RENJU)
            probe.set_position(moves)
        except GomokuError:
            continue
        positions.append(moves)
    res: dict[str, float] = {"positions": len(positions), "depth": depth}
    for rule in (Rule.FREESTYLE, Rule.RENJU):
        nodes, cpu = 0, 0.0
        for moves in positions:
            eng = Engine()
            eng.new_game(15, rule)
            eng.set_position(moves)
            start = time.process_time()
            r = eng.think(Limits(depth=depth, use_book=False, use_threats=False))
            cpu += time.process_time() - start
            nodes += r.nodes
        res[f"nodes_{rule.label}"] = nodes
        res[f"nodes_per_cpu_s_{rule.label}"] = nodes / cpu if cpu else 0.0
    res["renju_over_freestyle"] = (
        res["nodes_per_cpu_s_renju"] / res["nodes_per_cpu_s_freestyle"]
        if res["nodes_per_cpu_s_freestyle"]
        else 0.0
    )
    for k, v in res.items():
        out(f"{k:32s} {v:12,.2f}" if k == "renju_over_freestyle" else f"{k:32s} {v:12,.0f}")
    return res


def forbidden_in_games(records: list[dict], out=print) -> dict[str, int]:
    """What black's forbidden points did in renju game records (see the module doc);
    checked with the literal reference, from the moves alone."""
    from gomoku.core.geometry import moves_from_text

    res = {
        "games": 0,
        "black_wins": 0,
        "white_wins": 0,
        "forbidden_moves_played": 0,
        "black_turns": 0,
        "black_turns_with_forbidden_point": 0,
        "white_wins_by_a_forbidden_block": 0,
        "white_wins_with_a_forbidden_five_point_among_several": 0,
    }
    for rec in records:
        if rec.get("rule") != "renju":
            continue
        size = int(rec["size"])
        moves = moves_from_text(rec["moves"], size)
        res["games"] += 1
        if "forbidden" in str(rec.get("reason", "")):
            res["forbidden_moves_played"] += 1
        for k in range(len(str(rec.get("opening", "")).split()), len(moves)):
            if k % 2 == 0:  # black to move
                res["black_turns"] += 1
                if R.forbidden_points(R.grid_from_moves(moves[:k], size)):
                    res["black_turns_with_forbidden_point"] += 1
        winner = rec.get("winner")
        if winner is not None and winner == rec.get("black"):
            res["black_wins"] += 1
        elif winner is not None and winner == rec.get("white"):
            res["white_wins"] += 1
            if len(moves) % 2 == 0 and len(moves) >= 2:  # white made the last move
                grid = R.grid_from_moves(moves[:-2], size)  # black's last turn
                fives = [
                    (x, y)
                    for y in range(size)
                    for x in range(size)
                    if grid[y][x] == R.EMPTY
                    and R.white_wins(R.with_stone(grid, x, y, R.WHITE), x, y)
                ]
                if any(R.forbidden(grid, x, y) for x, y in fives):
                    key = (
                        "white_wins_by_a_forbidden_block"
                        if len(fives) == 1
                        else "white_wins_with_a_forbidden_five_point_among_several"
                    )
                    res[key] += 1
    for k, v in res.items():
        out(f"{k:52s} {v:8d}")
    return res


def verify(count: int, seed: int = 1, out=print) -> int:
    """Fast detector against the reference on ``count`` random positions (every candidate
    cell); prints and returns the number of positions that disagree."""
    rng = random.Random(seed)
    bad = 0
    shapes: dict[str, int] = {}
    start = time.process_time()
    for i in range(count):
        black, white = random_stones(rng) if rng.random() < 0.7 else _sparse(rng)
        board = board_with(black, white, Rule.RENJU)
        grid = R.empty_grid(15)
        for x, y in black:
            grid[y][x] = R.BLACK
        for x, y in white:
            grid[y][x] = R.WHITE
        fast = {board.point(p): s for p, s in renju.forbidden_points(board).items()}
        ref = {}
        for p in board.candidates:
            shape = R.forbidden(grid, *board.point(p))
            if shape:
                ref[board.point(p)] = shape
        if fast != ref:
            bad += 1
            out(f"position {i}: black {black} white {white}: fast {fast} reference {ref}")
        for s in ref.values():
            shapes[s] = shapes.get(s, 0) + 1
    out(
        f"verified {count} positions in {time.process_time() - start:.1f} s CPU: "
        f"{bad} disagree; forbidden points found {shapes}"
    )
    return bad


def _sparse(rng: random.Random) -> tuple[list[Point], list[Point]]:
    """4..30 stones anywhere on the board."""
    cells = [(x, y) for x in range(15) for y in range(15)]
    rng.shuffle(cells)
    cells = cells[: rng.randint(4, 30)]
    black = cells[0::2] if rng.random() < 0.5 else cells[: len(cells) * 2 // 3]
    chosen = set(black)
    return black, [c for c in cells if c not in chosen]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.renju_bench", description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU time per measurement")
    ap.add_argument("--verify", type=int, default=0, help="cross-check N random positions")
    ap.add_argument("--seed", type=int, default=1, help="seed of the --verify positions")
    ap.add_argument("--search", type=int, default=0, help="search nodes/s at this depth")
    ap.add_argument("--records", help="a renju match's game records (JSON lines)")
    args = ap.parse_args(argv)
    if args.records:
        from gomoku_lab.pairs import read_records

        forbidden_in_games(read_records(args.records))
        return 0
    if args.search:
        search_rates(args.search)
        return 0
    if args.verify:
        return 1 if verify(args.verify, args.seed) else 0
    bench_renju(args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
