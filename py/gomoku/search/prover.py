"""Proof-number search over threats: does the side to move win by force, and how?

A forced win in gomoku is almost always a *threat sequence*: the attacker makes fours
(one reply: the five point) and open threes (a few replies: the cells that stop the open
four, or a four of the defender's own), and the defender's counter-fours must be
answered in between. This module proves such wins, or that none exists, with depth-first
proof-number search (df-pn, Nagai 2002) over that threat space (Allis 1994):

- **OR nodes** (the attacker to move): a five wins; the defender's five point must be
  blocked (the only move; two of them lose); an open-four point wins (the defender has
  no five to make first); else the attacker's moves are every cell that makes a four or,
  unless ``vcf``, an open three (split threes included). No such move: disproved.
- **AND nodes** (the defender to move, after an attacker's move): a five of the
  defender's refutes; two attacker five points win; one must be blocked; an open three
  standing (an attacker open-four point) is answered by every cell after which the
  attacker has no open-four point, and by every defender four. No threat standing: the
  defender is free, disproved. No answer: proved.
- **Renju**: black's forbidden points (game.renju) are never black's moves, attack or
  defence; a white threat whose only answers are forbidden wins, and a black three whose
  open-four points are all forbidden threatens nothing.

Each position is one entry of a table keyed by its Zobrist hash (side to move included,
so OR and AND nodes never collide; a Prover's table belongs to one attacker): its proof
and disproof numbers. A node is searched under thresholds instead of a depth: it returns
as soon as either number reaches its threshold, its child's thresholds set by the second-
best sibling (with Pawlewicz and Lew's 1+epsilon, so that the search does not flit
between two close siblings). Unexpanded children start from a cheap estimate: one reply
to a four, about three to an open three.

A result is a claim with its limits: ``"win"`` comes with the proof (``Proof.tree``:
every defender reply answered, down to a five, which ``check_proof`` replays move by
move) and its principal line (the defender's longest resistance, the attacker's
shortest win within the proof); ``"no_win"`` means no win *by threats* (fours and open
threes; fours alone with ``vcf``) exists: a quiet attacking move may still win;
``"unknown"`` means the node or time budget ran out first.

Quiet moves (``quiet`` > 0) widen the space and weaken the claim: after the attacker's
quiet block the defender moves freely, and a free move is answered by name only inside
the *zone* (the cells of the proof after a pass, and the defender's fours and open
threes); any other move is taken to leave that proof standing. A free stone outside the
zone that prepares a counter-four later in the line is not tried, so such a "win" can
be refuted (``check_proof`` finds it); without quiet moves every defence is tried.

The search runs on a LineBoard (threat_board.py) built from the caller's Board, which
it leaves untouched.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden as renju_forbidden
from gomoku.patterns.tables import (
    BLACK,
    COUNT_BITS,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    SIDE_MASK,
    SIDE_SHIFT,
)
from gomoku.search.threat_board import FOURS, THREES, LineBoard

INF = 1 << 40  # a proof or disproof number that is infinite (a disproof or a proof)
WIN, NO_WIN, UNKNOWN = "win", "no_win", "unknown"

# Estimated proof numbers of an AND node (the defender to answer the attacker's move),
# by what the move makes: a four leaves one reply, an open three about three.
_PN_FOUR = 1
_PN_DOUBLE_THREE = 2
_PN_THREE = 3
_PN_QUIET = 8  # a move that threatens nothing: the defender moves freely
# A df-pn+ edge cost added to the proof number of an attacker move on no line within 4
# cells of the last two moves. Measured on the mate set (docs/benchmarks-history.md): 2
# finds more long wins at the same budget (the search stays with the fight); a cost on
# fours found fewer, and so did voluntary quiet moves (double twos) as attacker moves.
UNRELATED_COST = 2
_EPSILON_SHIFT = 2  # 1 + epsilon = 1.25: a child's threshold is 1.25 x its sibling's
_CLOCK_EVERY = 63  # nodes between deadline checks (a mask)

_FOUR_SHIFT = COUNT_BITS * FOUR
_OPEN_FOUR_SHIFT = COUNT_BITS * OPEN_FOUR
_OPEN_THREE_SHIFT = COUNT_BITS * OPEN_THREE


class ProverTimeout(Exception):
    """Raised inside the search when its node budget or deadline runs out."""


@dataclass
class Proof:
    """What a proof search found for ``attacker`` (1 black, 2 white).

    ``status``: WIN, NO_WIN (no win by threats exists) or UNKNOWN (the limits ran out).
    ``line``: for a win, the principal line in cell indices (attacker first, ending with
    the attacker's five); empty otherwise. ``tree``: for a win, the proof as nested dicts,
    {attacker move: {defender reply: subtree}} ({move: {}} where the move makes five).
    ``nodes``: nodes searched."""

    status: str
    attacker: int
    line: list[int] = field(default_factory=list)
    tree: dict[int, dict] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def win(self) -> bool:
        return self.status == WIN


def _side_summary(summary: int, side: int) -> int:
    return summary & SIDE_MASK if side == BLACK else (summary >> SIDE_SHIFT) & SIDE_MASK


class _RenjuView:
    """The face of a LineBoard that game.renju's forbidden-point check reads (the Board
    attributes ``rule``, ``layout``, ``hash``, ``side``, ``summary[p]`` and
    ``keys[d * cells + p]``), computed from the line integers on demand."""

    def __init__(self, board: Board, lines: LineBoard) -> None:
        self.rule = board.rule
        self.layout = board.layout
        self._lines = lines
        self.summary = _Summaries(lines)
        self.keys = _Keys(lines, board.layout.cells)

    @property
    def hash(self) -> int:
        return self._lines.hash

    @property
    def side(self) -> int:
        return self._lines.side


class _Summaries:
    def __init__(self, lines: LineBoard) -> None:
        self._lines = lines

    def __getitem__(self, p: int) -> int:
        return self._lines.summary(p)


class _Keys:
    """Board.keys' layout (``d * cells + p``), read off the line integers."""

    def __init__(self, lines: LineBoard, cells: int) -> None:
        self._lines = lines
        self._cells = cells
        half = lines.memo.half
        self._shift = 2 * half
        self._window = (1 << (2 * (2 * half + 1))) - 1
        self._low = (1 << (2 * half)) - 1

    def __getitem__(self, i: int) -> int:
        d, p = divmod(i, self._cells)
        lines = self._lines
        where = lines.layout.cell_lines[p]
        w = (lines.lines[where[2 * d]] >> (2 * where[2 * d + 1])) & self._window
        return (w & self._low) | ((w >> (self._shift + 2)) << self._shift)


PASS = -1  # the defender's pass in a proof tree: the proof that answers every unlisted move
_QUIET_SALT = (0, 0x5BD1E9955BD1E995, 0x2545F4914F6CDD1D, 0x9E3779B97F4A7C15)


class Prover:
    """Proof-number search over threats for the side to move of ``board`` (the attacker).

    ``vcf``: fours only (a win by continuous fours). ``quiet``: how many times along a
    line the attacker may make a move that threatens nothing (blocking the defender's
    four or open three), after which the defender moves freely (see ``_zone``).
    ``prefer``: cells to try first as the attacker's moves wherever they are threats (a
    known line from a later position). One Prover keeps its table between calls of
    ``prove`` on the same position (a second call with more budget goes on where the
    first stopped)."""

    def __init__(
        self,
        board: Board,
        *,
        vcf: bool = False,
        quiet: int = 2,
        prefer: Iterable[int] = (),
    ) -> None:
        if not 0 <= quiet < len(_QUIET_SALT):
            raise ValueError(f"quiet must be 0..{len(_QUIET_SALT) - 1}")
        self.source = board
        self.attacker = board.side
        self.vcf = vcf
        self.quiet = 0 if vcf else quiet
        self.prefer = frozenset(prefer)
        self.renju = board.rule is Rule.RENJU
        self.table: dict[int, list[int]] = {}
        self.nodes = 0
        self._lines: LineBoard | None = None
        self._view: _RenjuView | None = None
        self._left = self.quiet  # quiet moves left on the current line
        self._zones: dict[int, tuple[list[int], dict[int, dict]]] = {}
        self._expanded: dict[int, list[tuple[int, int, int, int]]] = {}  # children by key
        self._near = board.layout.line_neighbours
        self._deadline = float("inf")
        self._max_nodes = 1 << 62

    # --- the public face ----------------------------------------------------------------

    def prove(self, *, deadline: float | None = None, max_nodes: int | None = None) -> Proof:
        """Search until the attacker's win is proved or disproved, or ``deadline``
        (time.perf_counter seconds) or ``max_nodes`` (more nodes) runs out."""
        start = time.perf_counter()
        board = self.source
        if board.winner or board.ply >= board.size * board.size:
            return Proof(NO_WIN, self.attacker, nodes=0)
        self._lines = lines = LineBoard(board)
        self._view = _RenjuView(board, lines) if self.renju else None
        self._deadline = float("inf") if deadline is None else deadline
        self._max_nodes = self.nodes + max_nodes if max_nodes is not None else 1 << 62
        self._left = self.quiet
        status = UNKNOWN
        try:
            self._search(INF, INF)
            pn, dn = self.table[self._key()]
            status = WIN if pn == 0 else NO_WIN if dn == 0 else UNKNOWN
        except ProverTimeout:  # the line board is left mid-line: the next call makes a new one
            self._left = self.quiet
        proof = Proof(status, self.attacker, nodes=self.nodes)
        if status == WIN:
            proof.tree = self._tree({})[0]
            proof.line = principal_line(proof.tree)
        proof.seconds = time.perf_counter() - start
        return proof

    # --- rules of the threat space --------------------------------------------------------

    def _forbidden(self, p: int) -> bool:
        return self._view is not None and renju_forbidden(self._view, p) is not None  # type: ignore[arg-type]

    def _open_four_point(self, side: int) -> bool:
        """Can ``side`` make an open four now (black: on a point not forbidden)?"""
        lines = self._lines
        if not lines.open_four_entries(side):
            return False
        if not (self.renju and side == BLACK):
            return True
        for q, s in lines.cells_of(FOURS, side).items():
            if (_side_summary(s, side) >> _OPEN_FOUR_SHIFT) & 7 and not self._forbidden(q):
                return True
        return False

    def _stops(self, threatener: int) -> list[int]:
        """The moves of the other side (``mover``) that answer ``threatener``'s open
        three: every cell after which it has no open-four point, and every four of the
        mover's; black's forbidden points left out."""
        lines = self._lines
        mover = 3 - threatener
        black_moves = self.renju and mover == BLACK
        fours = lines.cells_of(FOURS, mover).keys()
        exact = self.renju and threatener == BLACK  # forbidden open-four points
        answers = []
        for q in sorted(lines.cells_of(FOURS, threatener).keys() | fours):
            if black_moves and self._forbidden(q):
                continue
            if q in fours:
                answers.append(q)
            elif exact:
                lines.make(q)
                if not self._open_four_point(threatener):
                    answers.append(q)
                lines.unmake()
            elif not lines.open_four_entries_after(q, mover, threatener):
                answers.append(q)
        return answers

    def _estimate(self, q: int, side: int) -> int:
        """Estimated proof number of the AND node after the attacker plays q: one
        answer to a four, about three to an open three, many to a quiet move."""
        s = _side_summary(self._lines.summary(q), side)
        if (s >> _FOUR_SHIFT) & 7 or (s >> _OPEN_FOUR_SHIFT) & 7:
            return _PN_FOUR
        threes = (s >> _OPEN_THREE_SHIFT) & 7
        return _PN_DOUBLE_THREE if threes >= 2 else _PN_THREE if threes else _PN_QUIET

    def _attacker_moves(self) -> int | list[tuple[int, int]]:
        """At an OR node: INF / 0 when the node is proved / disproved at once, else the
        attacker's moves as (estimated proof number of the child, move)."""
        lines = self._lines
        att = self.attacker
        dfn = 3 - att
        if lines.fives(att):
            return INF  # a five now
        blocks = lines.five_cells(dfn)
        if len(blocks) >= 2:
            return 0
        if blocks:
            q = blocks[0]
            if att == BLACK and self._forbidden(q):
                return 0
            return [(self._estimate(q, att), q)]
        if self._open_four_point(att):
            return INF
        if self._open_four_point(dfn):
            # The defender's open three: stop it (quietly, when allowed) or play fours.
            moves = {q: self._estimate(q, att) for q in self._stops(dfn)}
            if not self._left:
                moves = {q: pn for q, pn in moves.items() if pn < _PN_QUIET}
            return sorted((pn, q) for q, pn in moves.items()) or 0
        moves = dict.fromkeys(lines.cells_of(FOURS, att), _PN_FOUR)
        if not self.vcf:
            for q, s in lines.cells_of(THREES, att).items():
                if q not in moves:
                    s = _side_summary(s, att)
                    moves[q] = _PN_DOUBLE_THREE if (s >> _OPEN_THREE_SHIFT) & 7 >= 2 else _PN_THREE
        if att == BLACK and self.renju:
            moves = {q: pn for q, pn in moves.items() if not self._forbidden(q)}
        if self.prefer:
            for q in self.prefer.intersection(moves):
                moves[q] = 1
        return sorted((pn, q) for q, pn in moves.items()) or 0

    def _defender_moves(self) -> int | list[int]:
        """At an AND node: INF / 0 when the node is proved / disproved at once, [PASS]
        when the attacker threatens nothing (a free move: see ``_zone``), else the
        defender's answers."""
        lines = self._lines
        att = self.attacker
        dfn = 3 - att
        if lines.fives(dfn):
            return 0  # the defender makes five
        fives = lines.five_cells(att)
        if len(fives) >= 2:
            return INF
        if fives:
            q = fives[0]
            return INF if self.renju and dfn == BLACK and self._forbidden(q) else [q]
        if not self.vcf and self._open_four_point(att):
            return self._stops(att) or INF
        return [PASS] if self._left else 0

    def _zone(self) -> tuple[list[int], dict[int, dict]]:
        """At a free AND node whose pass is proved: the defender moves that might
        refute the attacker's proof after the pass (the cells of that proof, its moves
        and answers, and the defender's own fours and open threes), and that proof. Any
        other move is taken to leave the proof standing: the proof answers it."""
        key = self._key()
        cached = self._zones.get(key)
        if cached is not None:
            return cached
        lines = self._lines
        dfn = 3 - self.attacker
        lines.pass_move()
        self._left -= 1
        tree = self._tree({})[0]
        self._left += 1
        lines.pass_move()
        cells = set(lines.cells_of(FOURS, dfn)) | set(lines.cells_of(THREES, dfn))
        _collect(tree, cells)
        cells.discard(PASS)
        zone = sorted(q for q in cells if lines.cells[q] == 0)
        if self.renju and dfn == BLACK:
            zone = [q for q in zone if not self._forbidden(q)]
        self._zones[key] = zone, tree
        return zone, tree

    # --- df-pn ---------------------------------------------------------------------------

    def _key(self) -> int:
        return self._lines.hash ^ _QUIET_SALT[self._left]

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self._max_nodes:
            raise ProverTimeout
        if not self.nodes & _CLOCK_EVERY and time.perf_counter() > self._deadline:
            raise ProverTimeout

    def _children(self) -> int | list[tuple[int, int, int]]:
        """The node's children as (move, child key, quiet moves left there), their table
        entries made (estimates where new); or INF / 0 for a node proved / disproved at
        once. A free AND node's only child is its pass until the pass is proved."""
        lines = self._lines
        table = self.table
        side = lines.side
        zobrist = lines._zb if side == BLACK else lines._zw
        left = self._left
        base = lines.hash ^ lines._zside ^ _QUIET_SALT[left]
        out = []
        if side == self.attacker:
            moves = self._attacker_moves()
            if isinstance(moves, int):
                return moves
            history = lines.history
            near = self._near
            recent = [near[p] for p in history[-2:]]
            for pn, q in moves:
                key = base ^ zobrist[q]
                if key not in table:
                    table[key] = [pn, 1]
                related = not recent or any(q in n for n in recent)
                out.append((q, key, left, 0 if related else UNRELATED_COST))
            return out
        answers = self._defender_moves()
        if isinstance(answers, int):
            return answers
        if answers == [PASS]:
            left -= 1
            base ^= _QUIET_SALT[left + 1] ^ _QUIET_SALT[left]
            null = lines.hash ^ lines._zside ^ _QUIET_SALT[left]
            entry = table.setdefault(null, [1, 1])
            if entry[0] != 0:
                return [(PASS, null, left, 0)] if entry[1] != 0 else 0
            answers, replay = self._zone()
        else:
            replay = None
        for q in answers:
            key = base ^ zobrist[q]
            if key not in table:
                table[key] = [1, 1]
                if replay is not None:
                    lines.make(q)
                    self._left = left
                    self._replay(replay)
                    self._left = left + 1
                    lines.unmake()
            out.append((q, key, left, 0))
        return out or INF

    def _replay(self, level: dict[int, dict]) -> bool:
        """Does the proof ``level`` (an OR level) still hold in the board's position (a
        defender stone more than where it was made)? Every node it passes is checked
        by the search's own rules, and on success written to the table as proved, so a
        free node's children that leave the pass's proof standing cost no search."""
        self._tick()
        lines = self._lines
        ((move, answers),) = level.items()
        moves = self._attacker_moves()
        if moves == INF:
            self.table[self._key()] = [0, INF]
            return True
        if not isinstance(moves, list) or move not in {q for _, q in moves}:
            return False
        lines.make(move)
        try:
            replies = self._defender_moves()
            if replies == 0 or replies == [PASS]:
                return False
            if replies != INF:
                for r in replies:  # type: ignore[union-attr]
                    sub = answers.get(r)
                    if sub is None:
                        return False
                    lines.make(r)
                    held = self._replay(sub)
                    lines.unmake()
                    if not held:
                        return False
            self.table[self._key()] = [0, INF]
        finally:
            lines.unmake()
        self.table[self._key()] = [0, INF]
        return True

    def _search(self, thpn: int, thdn: int) -> None:
        """Search the board's position until its proof number reaches ``thpn`` or its
        disproof number ``thdn``; leaves both in the table."""
        self._tick()
        lines = self._lines
        key = self._key()
        table = self.table
        children = self._expanded.get(key)
        if children is None:
            children = self._children()
            if isinstance(children, int):
                table[key] = [0, INF] if children == INF else [INF, 0]
                return
            if children[0][0] != PASS:  # a free node's list changes once its pass is proved
                self._expanded[key] = children
        or_node = lines.side == self.attacker
        left = self._left
        while True:
            # OR: pn = min over children, dn = sum; AND: the other way round.
            best = -1
            first = second = INF
            total = 0
            best_other = 0
            for i, (_, ck, _, cost) in enumerate(children):
                cpn, cdn = table[ck]
                if or_node:
                    mine, other = (cpn + cost if cpn else 0), cdn
                else:
                    mine, other = cdn, cpn
                total += other
                if mine < first:
                    second = first
                    first = mine
                    best = i
                    best_other = other
                elif mine < second:
                    second = mine
            if total > INF:
                total = INF
            if or_node:
                pn, dn = first, total
                if pn >= thpn or dn >= thdn:
                    break
                child_thpn = min(thpn, second + 1 + (second >> _EPSILON_SHIFT)) - children[best][3]
                child_thdn = thdn - dn + best_other
            else:
                pn, dn = total, first
                if pn >= thpn or dn >= thdn:
                    break
                child_thdn = min(thdn, second + 1 + (second >> _EPSILON_SHIFT))
                child_thpn = thpn - pn + best_other
            move, child_key, self._left, _ = children[best]
            if move == PASS:
                lines.pass_move()
                self._search(child_thpn, child_thdn)
                lines.pass_move()
            else:
                lines.make(move)
                self._search(child_thpn, child_thdn)
                lines.unmake()
            self._left = left
            if move == PASS and table[child_key][0] == 0:
                children = self._children()  # the pass is proved: now the real moves
                if isinstance(children, int):
                    pn, dn = (0, INF) if children == INF else (INF, 0)
                    break
                self._expanded[key] = children
        table[key] = [pn, dn]

    # --- the proof -------------------------------------------------------------------------

    def _tree(self, memo: dict[int, tuple[dict, int]]) -> tuple[dict[int, dict], int]:
        """The proof below the board's proved position as nested dicts (see Proof: an OR
        level {move: answers}, an AND level {answer: OR level}, with PASS: the proof that
        answers every move not listed), and its depth in plies down to the five; at OR
        nodes the proved child with the shallowest proof is kept. ``memo``: per
        position, shared by transpositions."""
        lines = self._lines
        key = self._key()
        if key in memo:
            return memo[key]
        att = self.attacker
        tree: dict[int, dict] = {}
        depth = 0
        left = self._left
        if lines.side == att:
            if lines.fives(att):
                tree, depth = {lines.five_cells(att)[0]: {}}, 1
            elif not lines.five_cells(3 - att) and self._open_four_point(att):
                tree, depth = self._open_four_tree(), 3
            else:
                depth = INF
                children = self._children()
                for q, ck, self._left, _ in children if isinstance(children, list) else []:
                    if self.table[ck][0] != 0:
                        continue
                    lines.make(q)
                    sub, sub_depth = self._tree(memo)
                    lines.unmake()
                    if sub_depth + 1 < depth:
                        tree, depth = {q: sub}, sub_depth + 1
                self._left = left
            if not tree:
                raise AssertionError("a proved OR node without a proved child")
        else:
            children = self._children()
            if children == INF:
                children = [(q, 0, left, 0) for q in self._refuted_answers()]
            for q, _, self._left, _ in children:  # type: ignore[union-attr]
                if q == PASS:
                    raise AssertionError("a proved free node whose pass is not proved")
                lines.make(q)
                tree[q], sub_depth = self._tree(memo)
                lines.unmake()
                depth = max(depth, sub_depth + 1)
            self._left = left
            if self._defender_moves() == [PASS]:
                lines.pass_move()
                self._left -= 1
                tree[PASS], _ = self._tree(memo)
                self._left = left
                lines.pass_move()
        memo[key] = tree, depth
        return tree, depth

    def _refuted_answers(self) -> list[int]:
        """At an AND node proved at once: the answers a defender would try, all of which
        lose at once (the five points of two fours; against an open three, every cell
        that might stop it), so that the proof shows them. When black's only block is
        forbidden, one legal black move near it stands for them all (any loses to the
        five)."""
        lines = self._lines
        att = self.attacker
        dfn = 3 - att
        fives = lines.five_cells(att)
        answers = fives or sorted(
            lines.cells_of(FOURS, att).keys() | lines.cells_of(FOURS, dfn).keys()
        )
        if self.renju and dfn == BLACK:
            answers = [q for q in answers if not self._forbidden(q)]
            if not answers and fives:
                near = sorted(self._near[fives[0]])
                answers = [q for q in near if not lines.cells[q] and not self._forbidden(q)][:1]
        return answers

    def _open_four_tree(self) -> dict[int, dict]:
        """Attacker to move with an open-four point: the open four, then the five after
        each defender answer (its five points, black's forbidden ones left out; every
        other answer loses to either)."""
        lines = self._lines
        att = self.attacker
        for q, s in lines.cells_of(FOURS, att).items():
            if not (_side_summary(s, att) >> _OPEN_FOUR_SHIFT) & 7:
                continue
            if att == BLACK and self._forbidden(q):
                continue
            lines.make(q)
            fives = lines.five_cells(att)
            replies = {}
            for r in fives:
                if self.renju and att != BLACK and self._forbidden(r):
                    continue  # black may not block there: the five follows all the same
                lines.make(r)
                replies[r] = {lines.five_cells(att)[0]: {}}
                lines.unmake()
            lines.unmake()
            return {q: replies}
        raise AssertionError("no open-four point")  # _open_four_point said there was one


def _collect(tree: dict[int, dict], cells: set[int]) -> None:
    """Every move and answer of a proof into ``cells``."""
    for move, sub in tree.items():
        cells.add(move)
        if sub:
            _collect(sub, cells)


def proof_depth(tree: dict[int, dict], memo: dict[int, int] | None = None) -> int:
    """Plies of the proof's longest line: the attacker's moves and the defender's
    answers down to the five (an OR level has one move; an AND level all answers).
    Subtrees shared by transpositions are counted once (``memo`` by identity)."""
    if not tree:
        return 0
    memo = {} if memo is None else memo
    depth = memo.get(id(tree))
    if depth is None:
        ((_, answers),) = tree.items()
        depth = 1 if not answers else 2 + max(proof_depth(s, memo) for s in answers.values())
        memo[id(tree)] = depth
    return depth


def principal_line(tree: dict[int, dict]) -> list[int]:
    """The proof's main line: the attacker's move, the defender's answer with the
    longest proof after it, and so on down to the five."""
    line: list[int] = []
    memo: dict[int, int] = {}
    while tree:
        ((move, answers),) = tree.items()
        line.append(move)
        if not answers:
            break
        reply = max(
            (r for r in answers if r != PASS), key=lambda r: proof_depth(answers[r], memo)
        )
        line.append(reply)
        tree = answers[reply]
    return line


def prove(
    board: Board,
    *,
    deadline: float | None = None,
    max_nodes: int | None = None,
    vcf: bool = False,
    quiet: int = 2,
    prefer: Iterable[int] = (),
) -> Proof:
    """Prove or disprove a win by threats for the side to move of ``board`` (see the
    module doc and Prover)."""
    prover = Prover(board, vcf=vcf, quiet=quiet, prefer=prefer)
    return prover.prove(deadline=deadline, max_nodes=max_nodes)


def find_win(board: Board, deadline: float) -> list[int] | None:
    """The side to move's winning line (cell indices, attacker first) found by threats
    before ``deadline`` (time.perf_counter seconds), or None."""
    proof = prove(board, deadline=deadline)
    return proof.line if proof.win else None


# --- checking a proof with the full board and literal rules --------------------------------


class ProofError(Exception):
    """A proof that does not hold: the move, the position and what is wrong."""


def _makes_five(board: Board, p: int, side: int) -> bool:
    """Literal: would ``side`` on empty cell p have five in a row (exactly five where the
    rule says overlines do not win for that side)?"""
    cells = board.cells
    exact = not board.rule.overline_wins_for(side)
    for delta in board.layout.deltas:
        run = 1
        for sign in (-1, 1):
            q = p + sign * delta
            while cells[q] == side:
                run += 1
                q += sign * delta
        if run == 5 or (run > 5 and not exact):
            return True
    return False


def _empty_cells(board: Board) -> list[int]:
    return [p for p in board.layout.onboard if board.cells[p] == 0]


def _legal(board: Board, p: int, side: int) -> bool:
    return board.cells[p] == 0 and not (
        side == BLACK and board.rule is Rule.RENJU and renju_forbidden(board, p) is not None
    )


def wins_at_once(board: Board) -> bool:
    """Literal: does the side to move win within its next two moves whatever the other
    side does? (A five now; or, when the other side has no five to make, a move after
    which two cells make five.)"""
    if board.winner:
        return False
    side = board.side
    other = 3 - side
    empty = _empty_cells(board)
    if any(_makes_five(board, p, side) for p in empty):
        return True
    if any(_makes_five(board, p, other) for p in empty):
        return False
    lay = board.layout
    for p in empty:
        if not _legal(board, p, side):
            continue
        board.cells[p] = side  # a stone put down and taken back: no other state is read
        fives = {
            q
            for delta in lay.deltas
            for k in range(-4, 5)
            if k and board.cells[q := p + k * delta] == 0 and _makes_five(board, q, side)
        }
        board.cells[p] = 0
        if len(fives) >= 2:
            return True
    return False


def check_proof(board: Board, tree: dict[int, dict]) -> int:
    """Replay a proof (Proof.tree) for the side to move of ``board`` on the full board
    with literal rules and raise ProofError where it does not hold: every attacker move
    legal, every legal defender reply either answered in the proof or lost at once
    (``wins_at_once``) or by the proof given for a pass, every line ending in the
    attacker's five. Returns the positions
    checked. ``board`` is left as it was."""
    attacker = board.side
    checked = 0

    def or_level(level: dict[int, dict]) -> None:
        nonlocal checked
        checked += 1
        if len(level) != 1:
            raise ProofError(f"{len(level)} attacker moves after {board.moves}")
        ((move, answers),) = level.items()
        if board.winner:
            raise ProofError(f"the game is over after {board.moves}")
        if not _legal(board, move, attacker):
            raise ProofError(f"illegal attacker move {board.point(move)} after {board.moves}")
        five = _makes_five(board, move, attacker)
        board.make(move)
        try:
            if five:
                if answers:
                    raise ProofError(f"answers after the five {board.moves}")
                return
            for reply in _empty_cells(board):
                if not _legal(board, reply, 3 - attacker):
                    if reply in answers:
                        raise ProofError(f"illegal answer {board.point(reply)} after {board.moves}")
                    continue
                board.make(reply)
                try:
                    if reply in answers:
                        or_level(answers[reply])
                    elif PASS in answers:
                        or_level(answers[PASS])
                    elif not wins_at_once(board):
                        raise ProofError(f"unanswered defence: {board.moves}")
                finally:
                    board.unmake()
        finally:
            board.unmake()

    or_level(tree)
    return checked
