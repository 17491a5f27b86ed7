"""The puzzles' proofs: which first moves win, which defend, under every rule.

Two searches answer the questions a puzzle asks:

- ``vcf`` is an exact victory-by-continuous-fours search on the full Board, written for
  the puzzles: every four of the attacker is tried (not the engine's ordered shortlist),
  the defender's single reply is the block of the five, and under renju black's forbidden
  points count on *both* sides of the line (black never attacks from one; a block black
  may not play is no block). Its ``depth`` is the number of attacker fours; the final five
  is not counted. A VCF tree is narrow (one reply per four), so exactness is cheap.
- VCT (fours and open threes) comes from the engine's threat search
  (search/threats.py), on the freestyle and standard rules only: it does not know renju's
  forbidden points, so renju puzzles are VCF puzzles.

A puzzle's solutions are found by trying every empty cell:

- ``vcf_solutions``: every cell that starts a VCF within the depth (a five, or a four
  after whose block the attacker still wins by fours);
- ``vct_solutions``: every cell that makes a four or an open three after which every
  defence (the block of a four; against an open three every cell where either side makes
  a four or five, which are the only moves that do not lose to the open four) leaves the
  attacker a VCT within depth - 1;
- ``defence_solutions``: every cell after which the opponent has no VCF within the VCF
  depth and no VCT within the VCT depth (the literal test), and - checked by the
  generator, which keeps a position only when both agree - a four that merely delays
  is no defence: after the opponent's forced block the threat must be gone.
"""

from __future__ import annotations

from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK, COUNT_BITS, FIVE, FOUR, OPEN_FOUR, OPEN_THREE, SIDE_SHIFT
from gomoku.search.threats import ThreatSearch

_FIVE = COUNT_BITS * FIVE
_FOUR = COUNT_BITS * FOUR
_OPEN_FOUR = COUNT_BITS * OPEN_FOUR
_OPEN_THREE = COUNT_BITS * OPEN_THREE


def _counts(board: Board, p: int, side: int) -> int:
    s = board.summary[p]
    return s & ((1 << SIDE_SHIFT) - 1) if side == BLACK else s >> SIDE_SHIFT


def makes_five(board: Board, p: int, side: int) -> bool:
    """Empty cell p completes a five for ``side`` (exactly five where the rule says so)."""
    return bool(_counts(board, p, side) >> _FIVE & 7)


def makes_four(board: Board, p: int, side: int) -> bool:
    """Empty cell p makes a four or an open four for ``side`` (not a five)."""
    c = _counts(board, p, side)
    return not c >> _FIVE & 7 and bool(c >> _FOUR & 7 or c >> _OPEN_FOUR & 7)


def makes_open_three(board: Board, p: int, side: int) -> bool:
    return bool(_counts(board, p, side) >> _OPEN_THREE & 7)


def may_play(board: Board, p: int, side: int) -> bool:
    """``side`` may put a stone on empty cell p: always, except black on a renju
    forbidden point."""
    return not (board.rule is Rule.RENJU and side == BLACK and forbidden(board, p))


def five_cells(board: Board, side: int) -> list[int]:
    """Empty cells where ``side`` completes a five (fives are never forbidden)."""
    return sorted(q for q in board.candidates if makes_five(board, q, side))


def empty_cells(board: Board) -> list[int]:
    """Every empty cell of the board, in cell order."""
    return [p for p in board.layout.onboard if not board.cells[p]]


class Vcf:
    """Exact VCF for the side to move of ``board`` (played on and restored). With
    ``max_nodes``, past that many nodes every answer is None and ``out_of_nodes`` is set
    (then None means "not found in time", and the object is spent)."""

    def __init__(self, board: Board, max_nodes: int | None = None) -> None:
        self.board = board
        self.failed: dict[int, int] = {}  # hash -> deepest depth proven not to win
        self.nodes = 0
        self.max_nodes = max_nodes
        self.out_of_nodes = False

    def win(self, depth: int) -> list[int] | None:
        """A winning line (attacker first, defender replies between, ending with the
        five), or None: the attacker has no VCF within ``depth`` fours."""
        board = self.board
        attacker = board.side
        fives = five_cells(board, attacker)
        if fives:
            return [fives[0]]
        if depth <= 0 or self.failed.get(board.hash, -1) >= depth or self.out_of_nodes:
            return None
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.out_of_nodes = True
            return None
        threats = five_cells(board, 3 - attacker)
        if len(threats) > 1:
            self.failed[board.hash] = depth
            return None
        moves = threats if threats else sorted(board.candidates)
        for q in moves:
            line = self.after(q, depth, threats, [])
            if line is not None:
                return line
        self.failed[board.hash] = depth
        return None

    def after(
        self,
        q: int,
        depth: int,
        threats: list[int] | None = None,
        fives: list[int] | None = None,
    ) -> list[int] | None:
        """The line when the attacker's four at empty cell q starts a VCF within ``depth``
        fours (q itself counted), else None. Not a four, a forbidden point, or (when the
        defender threatens a five) not its block: None. ``threats`` and ``fives``, the
        defender's and the attacker's five cells before q, when the caller knows them."""
        board = self.board
        attacker = board.side
        defender = 3 - attacker
        if makes_five(board, q, attacker):
            return [q]
        if depth <= 0 or not makes_four(board, q, attacker):
            return None
        if threats is None:
            threats = five_cells(board, defender)
        if threats and threats != [q]:
            return None
        if not may_play(board, q, attacker):
            return None
        if fives is None:
            fives = five_cells(board, attacker)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.out_of_nodes = True
            return None
        board.make(q)
        try:
            # the attacker's five cells now: the ones it had (q may have spoilt one into an
            # overline) and new ones, which lie on q's lines within four cells
            cells = board.cells
            near = board.layout.line_neighbours[q]
            blocks = sorted(
                c for c in near.union(fives) if not cells[c] and makes_five(board, c, attacker)
            )
            if not blocks:  # a "four" whose five the rule does not allow
                return None
            if len(blocks) > 1:  # open four or double four: two fives, one reply
                # the reply shown is one the defender may play (renju: black's may not
                # all be allowed; with none, the five follows at once)
                legal = [b for b in blocks if may_play(board, b, defender)]
                if not legal:
                    return [q]
                return [q, legal[0], next(b for b in blocks if b != legal[0])]
            block = blocks[0]
            if makes_five(board, block, defender):
                return None
            if not may_play(board, block, defender):
                return [q]  # black may not block: the five follows (no reply to show)
            board.make(block)
            try:
                rest = self.win(depth - 1)
            finally:
                board.unmake()
            return None if rest is None else [q, block, *rest]
        finally:
            board.unmake()


def vcf_line(board: Board, depth: int) -> list[int] | None:
    """The side to move's VCF within ``depth`` fours (shortest first), or None."""
    search = Vcf(board)
    for d in range(1, depth + 1):
        line = search.win(d)
        if line is not None:
            return line
    return None


def vcf_solutions(board: Board, depth: int, limit: int | None = None) -> dict[int, list[int]]:
    """{cell: winning line} for every empty cell that starts a VCF within ``depth``
    (``limit``: stop once more than this many are found)."""
    search = Vcf(board)
    out: dict[int, list[int]] = {}
    for q in empty_cells(board):
        if limit is not None and len(out) > limit:
            break
        line = None
        for d in range(1, depth + 1):  # the shortest line through q
            line = search.after(q, d)
            if line is not None or not makes_four(board, q, board.side):
                break
        if line is not None:
            out[q] = line
    return out


def threat_replies(board: Board, attacker: int) -> list[int]:
    """The defender's (to move) replies that do not lose at once to the attacker's four
    or open three: the block of a five, else every cell where either side makes a four or
    a five (the blocks of the three and the counter-fours)."""
    fives = five_cells(board, attacker)
    if fives:
        return fives if len(fives) == 1 else []
    return [
        q
        for q in sorted(board.candidates)
        if makes_four(board, q, attacker)
        or makes_five(board, q, 3 - attacker)
        or makes_four(board, q, 3 - attacker)
    ]


def vct_after(board: Board, q: int, depth: int) -> list[int] | None:
    """The line when the attacker's move at empty cell q wins by threats within ``depth``
    attacker moves (q counted): q is a five, or a four or open three after which every
    defence leaves a VCT within depth - 1. The line follows the first defence."""
    attacker = board.side
    defender = 3 - attacker
    if makes_five(board, q, attacker):
        return [q]
    if depth <= 0:
        return None
    if not (makes_four(board, q, attacker) or makes_open_three(board, q, attacker)):
        return None
    threats = five_cells(board, defender)
    if threats and threats != [q]:
        return None
    board.make(q)
    try:
        replies = threat_replies(board, attacker)
        if not replies:
            return [q, *five_cells(board, attacker)[:2]]
        line: list[int] | None = None
        for r in replies:
            if makes_five(board, r, defender):
                return None
            board.make(r)
            try:
                rest = ThreatSearch(board).vct(depth - 1) if depth > 1 else None
                if rest is None:
                    fives = five_cells(board, attacker)
                    rest = fives[:1] if fives and not five_cells(board, defender) else None
            finally:
                board.unmake()
            if rest is None:
                return None
            if line is None:
                line = [q, r, *rest]
        return line
    finally:
        board.unmake()


def vct_solutions(board: Board, depth: int, limit: int | None = None) -> dict[int, list[int]]:
    """{cell: winning line} for every empty cell that starts a VCT within ``depth``
    (``limit``: stop once more than this many are found)."""
    out: dict[int, list[int]] = {}
    for q in empty_cells(board):
        if limit is not None and len(out) > limit:
            break
        line = vct_after(board, q, depth)
        if line is not None:
            out[q] = line
    return out


def threat_of(
    board: Board, vcf_depth: int, vct_depth: int, max_nodes: int | None = None
) -> list[int] | None:
    """The side to move's win: a VCF within ``vcf_depth`` (exact), else a VCT within
    ``vct_depth`` (0: not looked for), else None. ``max_nodes`` bounds each threat
    search (a scan, not a proof: None then may mean "not found in time")."""
    if board.rule is Rule.RENJU:
        line = vcf_line(board, vcf_depth)
    else:  # the engine's VCF tries every four too, and is faster (no forbidden points)
        line = ThreatSearch(board).vcf(vcf_depth, max_nodes=max_nodes)
    if line is None and vct_depth > 0:
        if board.rule is Rule.RENJU:
            raise ValueError("the VCT proofs are for freestyle and standard (renju: VCF only)")
        line = ThreatSearch(board).vct(vct_depth, max_nodes=max_nodes)
    return line


def defence_solutions(
    board: Board, vcf_depth: int, vct_depth: int, limit: int | None = None
) -> dict[int, list[int]]:
    """{cell: []} for every empty cell the side to move may play after which the opponent
    has no VCF within ``vcf_depth`` and no VCT within ``vct_depth`` (the literal test;
    ``limit``: stop once more than this many are found). Cells near the stones first, as
    they are the likely defences."""
    out: dict[int, list[int]] = {}
    side = board.side
    near = set(board.candidates)
    for q in sorted(empty_cells(board), key=lambda c: c not in near):
        if limit is not None and len(out) > limit:
            break
        if not may_play(board, q, side):
            continue
        board.make(q)
        try:
            if board.winner or threat_of(board, vcf_depth, vct_depth) is None:
                out[q] = []
        finally:
            board.unmake()
    return out


def delaying_four(board: Board, q: int, vcf_depth: int, vct_depth: int) -> bool:
    """The side to move's four at q only delays: after the opponent's forced block, the
    opponent (were it to move again) still wins. False when q is no four."""
    side = board.side
    if not makes_four(board, q, side):
        return False
    board.make(q)
    try:
        blocks = five_cells(board, side)
        if len(blocks) != 1 or makes_five(board, blocks[0], 3 - side):
            return False
        board.make(blocks[0])
        board.pass_move()
        try:
            return threat_of(board, vcf_depth, vct_depth) is not None
        finally:
            board.pass_move()
            board.unmake()
    finally:
        board.unmake()


def solutions(board: Board, theme: str, depth: int, vct_depth: int) -> dict[int, list[int]]:
    """{cell: line} of every accepted first move of a ``theme`` puzzle on ``board``."""
    if theme == "vcf":
        return vcf_solutions(board, depth)
    if theme == "vct":
        return vct_solutions(board, depth)
    if theme == "defend":
        return defence_solutions(board, depth, vct_depth)
    raise ValueError(f"unknown theme {theme!r}")


def cells_that_solve(board: Board, theme: str, depth: int, vct_depth: int) -> set[tuple[int, int]]:
    """The accepted first moves as (x, y) points."""
    return {board.point(q) for q in solutions(board, theme, depth, vct_depth)}
