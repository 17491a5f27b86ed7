"""VCF / VCT threat-space search (victory by continuous fours / by threats).

The attacker plays only threats: fours (VCF), or fours and open threes (VCT). After a
four the defender has a single reply, so it costs no depth; after an open three the
defender may block it (the cells next to and at the ends of the three) or answer with
fours of its own. The search deepens on the number of attacker moves, and caches
results by Zobrist hash in a table of its own (separate from the main search's).

Results carry the winning line: the attacker's moves and the defender's replies.

The search runs on a LineBoard (lines.py) built from the caller's Board, which it
leaves untouched: a lean board whose moves change 4 integers instead of every line
key within reach.
"""

from __future__ import annotations

import time

from gomoku.game.board import Board
from gomoku.patterns.tables import (
    COUNT_BITS,
    FIVE,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    SIDE_MASK,
    SIDE_SHIFT,
    THREE,
)
from gomoku.search.threat_board import FOURS, THREES, LineBoard

_FIVE = COUNT_BITS * FIVE
_FOUR = COUNT_BITS * FOUR
_OPEN_FOUR = COUNT_BITS * OPEN_FOUR
_OPEN_THREE = COUNT_BITS * OPEN_THREE
_THREE = COUNT_BITS * THREE
_OPEN_TWO = COUNT_BITS * OPEN_TWO


VCT_WIDTH = 16  # attacker threat moves tried per VCT node
# VCT iterative deepening step (attacker moves). Each iteration searches the tree again,
# so fewer iterations cost fewer nodes: 26% fewer than steps of 1 on the threat bench,
# same wins, though not always the shortest. VCF deepens by 1 (shortest wins, cheap).
VCT_DEPTH_STEP = 2

# Distinguish VCF from VCT entries of the shared cache (same position, other question).
_VCF_KEY = 0x5A5A
_VCT_KEY = 0x3C3C


def _depths(max_depth: int, step: int) -> list[int]:
    """Iterative deepening by ``step`` attacker moves, ending at ``max_depth``."""
    return [*range(step, max_depth, step), max_depth] if max_depth > 0 else []


class ThreatTimeout(Exception):
    """Raised inside the threat search when its deadline or node budget runs out."""


def _side(summary: int, side: int) -> int:
    return summary & SIDE_MASK if side == 1 else (summary >> SIDE_SHIFT) & SIDE_MASK


# Mask over a full cell summary: "this side makes a five here".
_FIVE_MASK = (7 << _FIVE, 7 << (SIDE_SHIFT + _FIVE))


class ThreatSearch:
    """VCF/VCT for the side to move of ``board`` (left unchanged).

    ``deadline`` (perf_counter seconds) and ``max_nodes`` bound the work; past them the
    search raises ThreatTimeout internally and reports "no win found".
    """

    def __init__(
        self, board: Board, cache_size: int = 1 << 18, cache: dict[int, int] | None = None
    ) -> None:
        """``cache``: a table to share between searches on the same board (an engine keeps
        one for the game): its entries depend only on the position, side to move included."""
        self.source = board
        self.board: LineBoard | None = None  # built from ``source`` by each vcf/vct call
        self.nodes = 0
        # (hash ^ kind) -> deepest depth proven not to win
        self.cache: dict[int, int] = {} if cache is None else cache
        self.wins: dict[int, list[int]] = {}
        self.cache_size = cache_size
        self.deadline = float("inf")
        self.max_nodes = 1 << 62
        self.timed_out = False  # the last vcf/vct call stopped on its limits, not a proof
        # Cells the attacker tries first wherever they are threat moves (a known winning
        # line from a later position, when a review looks for it earlier: gomoku.review).
        self.first: tuple[int, ...] = ()

    # --- public -----------------------------------------------------------------------

    def vcf(
        self, max_depth: int = 12, deadline: float | None = None, max_nodes: int | None = None
    ) -> list[int] | None:
        """Winning line (cells, attacker first) by continuous fours, or None."""
        return self._deepen(self._vcf, max_depth, 1, deadline, max_nodes)

    def vct(
        self, max_depth: int = 6, deadline: float | None = None, max_nodes: int | None = None
    ) -> list[int] | None:
        """Winning line by fours and open threes, or None."""
        return self._deepen(self._vct, max_depth, VCT_DEPTH_STEP, deadline, max_nodes)

    # --- internals --------------------------------------------------------------------

    def _deepen(self, fn, max_depth, step, deadline, max_nodes):
        self.deadline = deadline if deadline is not None else float("inf")
        self.max_nodes = self.nodes + max_nodes if max_nodes is not None else 1 << 62
        if self.source.winner:
            return None
        self.board = LineBoard(self.source)
        self.timed_out = False
        try:
            for depth in _depths(max_depth, step):
                if time.perf_counter() > self.deadline:
                    self.timed_out = True
                    break
                line = fn(depth)
                if line is not None:
                    return line
        except ThreatTimeout:
            self.timed_out = True
        return None

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 31 and time.perf_counter() > self.deadline:
            raise ThreatTimeout
        if self.nodes > self.max_nodes:
            raise ThreatTimeout

    def _enter(self, key: int, depth: int) -> tuple[list[int] | None, int]:
        """Common start of a VCF/VCT node for the side to move (the attacker).

        Returns (answer, block): answer is a winning line (a five now), [] for "no win
        here" (cached, or the defender threatens two fives), or None to search on; block
        is the cell where the defender threatens five (-1 when none)."""
        self._tick()
        board = self.board
        if self.cache.get(key, -1) >= depth:
            return [], -1
        win = board.five_cells(board.side)
        if win:
            return [win[0]], -1
        block = self._forced_block(3 - board.side)
        if block == -2:
            return [], -1
        return None, block

    def _forced_block(self, attacker: int) -> int:
        """The defender must block the attacker's five: the cell, or -1 (none), -2 (several)."""
        cells = self.board.five_cells(attacker)
        if not cells:
            return -1
        return cells[0] if len(cells) == 1 else -2

    def _four_moves(self, side: int) -> list[int]:
        """Cells where ``side`` makes a four, open fours and four-threes first."""
        out = []
        for q, s in self.board.cells_of(FOURS, side).items():
            s = _side(s, side)
            key = ((s >> _OPEN_FOUR) & 7) * 4 + ((s >> _FOUR) & 7) * 2 + ((s >> _OPEN_THREE) & 7)
            out.append((key << 4 | (s >> _THREE & 7), q))
        out.sort(reverse=True)
        return self._first_tried([q for _, q in out])

    def _first_tried(self, moves: list[int]) -> list[int]:
        if not self.first:
            return moves
        present = set(moves)
        first = [q for q in self.first if q in present]
        return first + [q for q in moves if q not in first]

    def _vcf(self, depth: int) -> list[int] | None:
        """Side to move attacks with fours only, at most ``depth`` of them."""
        board = self.board
        attacker = board.side
        defender = 3 - attacker
        key = board.hash ^ _VCF_KEY
        done, block = self._enter(key, depth)
        if done is not None:
            return done or None
        moves = self._four_moves(attacker)
        if block >= 0:
            moves = [q for q in moves if q == block]
        for q in moves:
            board.make(q)
            reply = self._forced_block(attacker)
            if reply == -2:  # open four / double four
                if not board.fives(defender):
                    board.unmake()
                    return [q]
            elif reply >= 0 and depth > 1:
                if board.summary(reply) & _FIVE_MASK[defender - 1]:
                    board.unmake()
                    continue
                board.make(reply)
                line = self._vcf(depth - 1)
                board.unmake()
                if line is not None:
                    board.unmake()
                    return [q, reply, *line]
            board.unmake()
        self._store(key, depth)
        return None

    def _store(self, key: int, depth: int) -> None:
        if len(self.cache) >= self.cache_size:
            self.cache.clear()
        self.cache[key] = depth

    def _threat_moves(self, side: int) -> list[int]:
        """VCT attacker moves: fours first (open fours and four-threes leading), then
        open threes, strongest first; at most VCT_WIDTH of them."""
        threes = []
        for q, s in self.board.cells_of(THREES, side).items():
            s = _side(s, side)
            # open threes made here, then the follow-ups: blocked threes, open twos
            key = (s >> _OPEN_THREE & 7) << 8 | (s >> _THREE & 7) << 4 | s >> _OPEN_TWO & 7
            threes.append((key, q))
        threes.sort(reverse=True)
        fours = self._four_moves(side)
        seen = set(fours)
        moves = fours + [q for _, q in threes if q not in seen]
        return self._first_tried(moves)[:VCT_WIDTH]

    def _defences(self, attacker: int) -> list[int] | None:
        """The defender's replies (defender to move) to the attacker's threats on the
        board: [] when there is no defence (two five points), the single block of a five,
        or against an open-four point (an open three) every cell where either side makes a
        four (the blocks next to and at the ends of the three, the defender's counter-
        fours); None when the attacker threatens nothing."""
        board = self.board
        fives = board.five_cells(attacker)
        if fives:
            return fives if len(fives) == 1 else []
        if not board.open_four_entries(attacker):
            return None
        # The blocks most likely to hold first (the attacker's open-four points): the
        # first reply that refutes the attack ends the search of this node.
        shift = _OPEN_FOUR + (0 if attacker == 1 else SIDE_SHIFT)
        return [
            q
            for _, q in sorted(
                (-(s >> shift & 7), q)
                for q, s in (board.cells_of(FOURS, 1) | board.cells_of(FOURS, 2)).items()
            )
        ]

    def _vct(self, depth: int) -> list[int] | None:
        """Side to move attacks with fours and open threes (``depth`` attacker moves).

        A defender's reply is judged by the position it leaves, not by the attacker's
        last move: after a counter-four is blocked, an open three still standing must
        be answered again, and fours and threes may alternate in one line."""
        board = self.board
        attacker = board.side
        defender = 3 - attacker
        key = board.hash ^ _VCT_KEY
        done, block = self._enter(key, depth)
        if done is not None:
            return done or None
        line = self._vcf(depth)  # fours alone are the cheapest proof
        if line is not None:
            return line
        if depth < 2:
            self._store(key, depth)
            return None
        moves = [block] if block >= 0 else self._threat_moves(attacker)
        for q in moves:
            board.make(q)
            if board.fives(defender):  # the block or threat left the defender a five
                board.unmake()
                continue
            replies = self._defences(attacker)
            if replies is None:  # no threat left on the board
                board.unmake()
                continue
            proof: list[int] | None = [q]
            for reply in replies:
                board.make(reply)
                if board.winner:
                    line = None
                elif (
                    len(proof) > 1
                    and board.open_four_entries(attacker)
                    and not board.fives(defender)
                ):
                    # Not a defence: the attacker makes an open four and the defender,
                    # without a four of its own, cannot make five first.
                    line = proof
                else:
                    line = self._vct(depth - 1)
                board.unmake()
                if line is None:
                    proof = None
                    break
                if len(proof) == 1:
                    proof += [reply, *line]
            board.unmake()
            if proof is not None:
                return proof
        self._store(key, depth)
        return None
