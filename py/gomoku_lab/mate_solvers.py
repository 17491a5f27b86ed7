"""Forced-win solvers by name, and the check of the lines they return.

A solver is ``Callable[[Board, float], list[int] | None]``: given a board whose side to
move is the attacker and a budget in seconds (wall time), it returns a winning line as
board cell indices (``Board.index``), attacker first and the moves alternating, or None.
It may use the board as it likes but must leave it as it found it.

``SOLVERS`` names them:

- ``threats``: today's threat search (``gomoku.search.threats.ThreatSearch``, a fresh
  cache): VCF to 16 attacker moves, then VCT to 12, as the engine calls it (its answer
  passed through ``search.defence.renju_checked``, which drops a line with a black move on
  a forbidden point), both within the one deadline. Deeper than the engine's own stages
  (VCF 12, VCT 6) and the review's (16, 8): the budget decides how deep it gets.
- ``threats-engine``: the same at the engine's depths (VCF 12, VCT 6).
- ``prover``: ``gomoku.search.prover.find_win(board, deadline)`` (deadline in
  ``time.perf_counter`` seconds), imported when first asked for; ``load_solver`` raises
  SolverMissing, saying so, while that module does not exist.
- ``prover-30k``, ``prover-150k``: the prover with a node budget (30,000 and 150,000
  nodes, about 0.5 s and 3 s of one core), whatever the load.

``check_line`` replays a line from the position and says why it is not a win, or None
when it is: every move on an empty cell of the board, no black move on a forbidden point
under renju (whichever side plays it), no five before the last move, and at the end
either the attacker's five, or the defender to move with no five of its own and a five
of the attacker it cannot stop (two or more five points, or under renju a single one
that is forbidden to a black defender): the threat search's lines end at such a four.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from gomoku.core.geometry import moves_to_text
from gomoku.core.rules import Rule
from gomoku.game.board import BLACK, EMPTY, Board
from gomoku.game.renju import forbidden
from gomoku.search.defence import renju_checked
from gomoku.search.threats import ThreatSearch

Solver = Callable[[Board, float], "list[int] | None"]

PROVER_MODULE = "gomoku.search.prover"
BANDS = ("<=9", "11-15", "17-21", ">=23")  # mate lengths in plies


def band(plies: int) -> str:
    """The mate-length band of a mate in ``plies`` plies."""
    if plies <= 9:
        return BANDS[0]
    if plies <= 15:
        return BANDS[1]
    if plies <= 21:
        return BANDS[2]
    return BANDS[3]


class SolverMissing(Exception):
    """A solver named in the registry whose code is not there (yet)."""


def threat_solver(vcf_depth: int, vct_depth: int) -> Solver:
    """Today's threat search as a solver: VCF, then VCT, within one deadline."""

    def solve(board: Board, seconds: float) -> list[int] | None:
        deadline = time.perf_counter() + seconds
        search = ThreatSearch(board, cache={})
        line = renju_checked(board, search.vcf(vcf_depth, deadline))
        if line is None and time.perf_counter() < deadline:
            line = renju_checked(board, search.vct(vct_depth, deadline))
        return line

    return solve


def _prover() -> Solver:
    try:
        module = importlib.import_module(PROVER_MODULE)
    except ModuleNotFoundError as exc:
        parts = PROVER_MODULE.split(".")
        if exc.name not in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}:
            raise  # the module is there but something it imports is not: a real error
        raise SolverMissing(f"prover: {PROVER_MODULE} is not there yet") from None
    find_win = getattr(module, "find_win", None)
    if find_win is None:
        raise SolverMissing(f"prover: {PROVER_MODULE} has no find_win(board, deadline)")

    def solve(board: Board, seconds: float) -> list[int] | None:
        return find_win(board, time.perf_counter() + seconds)

    return solve


def _prover_nodes(nodes: int) -> Callable[[], Solver]:
    """The prover under a node budget instead of the clock (the time budget is then a
    cap only): blind to the machine's load, so that runs on a busy machine compare."""

    def make() -> Solver:
        _prover()  # says SolverMissing the same way
        from gomoku.search.prover import prove

        def solve(board: Board, seconds: float) -> list[int] | None:
            proof = prove(board, max_nodes=nodes, deadline=time.perf_counter() + 10 * seconds)
            return proof.line if proof.win else None

        return solve

    return make


SOLVERS: dict[str, Callable[[], Solver]] = {
    "threats": lambda: threat_solver(16, 12),
    "threats-engine": lambda: threat_solver(12, 6),
    "prover": _prover,
    # about 0.5 s and 3 s of one core in CPython (BENCHMARKS.md: the prover's node rate)
    "prover-30k": _prover_nodes(30_000),
    "prover-150k": _prover_nodes(150_000),
}


def load_solver(name: str) -> Solver:
    """The solver called ``name``: KeyError naming the known ones for an unknown name,
    SolverMissing when its code is not there."""
    if name not in SOLVERS:
        raise KeyError(f"unknown solver {name!r}: known {', '.join(SOLVERS)}")
    return SOLVERS[name]()


def _five_points(board: Board, side: int) -> list[int]:
    return [q for q in board.candidates if board.wins_at(q, side)]


def check_line(board: Board, line: list[int]) -> str | None:
    """None when ``line`` (cells, the side to move of ``board`` first) wins for the side
    to move, else why not (see the module doc). ``board`` is left as it was."""
    attacker = board.side
    onboard = set(board.layout.onboard)
    made = 0
    try:
        for i, q in enumerate(line):
            if q not in onboard:
                return f"move {i + 1}: cell {q} is not on the board"
            if board.cells[q] != EMPTY:
                return f"move {i + 1}: {board.point(q)} is occupied"
            if board.rule is Rule.RENJU and board.side == BLACK and forbidden(board, q):
                return f"move {i + 1}: {board.point(q)} is forbidden to black"
            board.make(q)
            made += 1
            if board.winner:
                if board.winner != attacker:
                    return f"move {i + 1}: the defender makes five"
                if i != len(line) - 1:
                    return f"move {i + 1}: a five before the end of the line"
                return None
        if not line:
            return "an empty line"
        if board.side == attacker:
            return None if _five_points(board, attacker) else "the line ends without a win"
        if _five_points(board, board.side):
            return "the line ends where the defender makes five"
        fives = _five_points(board, attacker)
        if len(fives) >= 2:
            return None
        if (
            len(fives) == 1
            and board.rule is Rule.RENJU
            and board.side == BLACK
            and forbidden(board, fives[0])
        ):
            return None
        return "the line ends where the defender can still block"
    finally:
        for _ in range(made):
            board.unmake()


# ---- scoring a solver on mate positions ---------------------------------------------------


class MatePosition(Protocol):
    """A position whose side to move mates (gomoku_lab.mate_set.MatePosition)."""

    game: str
    rule: str
    size: int
    moves: tuple[tuple[int, int], ...]
    mate: int

    @property
    def band(self) -> str: ...

    def board(self) -> Board: ...


@dataclass
class Tally:
    found: Counter = field(default_factory=Counter)
    total: Counter = field(default_factory=Counter)
    rejected: int = 0
    cpu: float = 0.0

    def cells(self) -> list[str]:
        out = []
        for b in (*BANDS, "all"):
            total = sum(self.total.values()) if b == "all" else self.total[b]
            found = sum(self.found.values()) if b == "all" else self.found[b]
            out.append(f"{found}/{total} ({found / total:.0%})" if total else "-")
        return out


def loadavg() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def score_positions(
    solver: Solver,
    positions: Sequence[MatePosition],
    seconds: float,
    results: TextIO | None = None,
    verbose: TextIO | None = None,
) -> Tally:
    """Run ``solver`` on each position, one at a time, with ``seconds`` of wall time, and
    count it found when its line passes ``check_line`` (on a fresh board: the solver's own
    board may be left in any state). ``results`` gets a JSON line per position, ``verbose``
    a line per position not found."""
    tally = Tally()
    for p in positions:
        board = p.board()
        t0 = time.process_time()
        line = solver(board, seconds)
        cpu = time.process_time() - t0
        tally.cpu += cpu
        tally.total[p.band] += 1
        why = None if line is None else check_line(p.board(), list(line))
        found = line is not None and why is None
        if found:
            tally.found[p.band] += 1
        elif line is not None:
            tally.rejected += 1
        if verbose is not None and not found:
            shown = moves_to_text(p.moves, p.size)
            note = f" [line rejected: {why}]" if why else ""
            print(f"  missed M{p.mate} {p.rule} {p.game}: {shown}{note}", file=verbose)
        if results is not None:
            results.write(
                json.dumps(
                    {
                        "game": p.game,
                        "ply": len(p.moves),
                        "rule": p.rule,
                        "mate": p.mate,
                        "seconds": seconds,
                        "found": found,
                        "rejected": why,
                        "line_length": None if line is None else len(line),
                        "cpu": round(cpu, 3),
                    }
                )
                + "\n"
            )
    return tally
