"""Judging a puzzle move by the position it leaves, not by the puzzle's stored line.

A puzzle accepts every move that keeps the win (attack) or stops the threat (defence),
whatever its stored solutions say. ``judge_move`` plays the solver's move on the board
(left unchanged) and answers with a ``Verdict`` whose ``outcome`` is:

- ``solved``: the puzzle is over and won: a five (attack); after a defence, the attacker
  has no forced win left (defence);
- ``wins``: the move keeps a forced win of the puzzle's kind (fours for ``vcf``, fours and
  threes for ``vct``): an extra four, an open four, a three every defence of which leaves a
  win. ``reply`` is the defender's answer (its forced block, or the defence after which the
  win is longest) and the puzzle goes on from the position after it. In a defence puzzle
  a four of the defender's own is ``wins`` too when, after the attacker's forced block,
  the threat is still there but a defence still stops it: the puzzle goes on;
- ``longer``: as ``wins``, but the win now takes more moves than the puzzle allows
  (``moves_left``): longer than needed, not a loss;
- ``other``: the move wins by force, but not in the puzzle's kind: in a VCF puzzle a
  move after which the win needs threes, or in any win puzzle a move that threatens
  nothing at once and whose threat no defence tried stops ("also wins, but not by
  fours"); the puzzle asks again;
- ``lost``: after the move the win (or, in a defence puzzle, the defence) is gone.
  ``reply`` is the opponent's answer: the block after which no win is left, its own five
  or winning attack, the defence the engine finds, or against a failed defence the
  attacker's winning move; ``line`` goes on from it;
- ``unclear``: the searches ran out of nodes before they could tell (the caller may ask
  again with a larger budget). A node cap never turns into "lost".

Every question about a forced win goes through ``forced_win``: the one place that calls
the threat searches (gomoku.search.threats under freestyle and standard; under renju the
exact VCF of prove.py, which knows black's forbidden points on both sides, and a VCT found
without them only makes the answer unsure).
A proof-number prover answering the same question replaces them there. One judgement
shares one node budget (``JudgeLimits.nodes``) over all its searches, each capped at
``search_nodes``, so that it stays well under a second in the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import Point
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.puzzles.prove import Vcf, five_cells, makes_four, may_play, threat_replies
from gomoku.search.defence import renju_checked
from gomoku.search.threats import ThreatSearch

OUTCOMES = ("solved", "wins", "longer", "other", "lost", "unclear")
CONTINUES = ("wins", "longer")  # the puzzle goes on from the position after the reply
THEMES = ("vcf", "vct", "defend")


class JudgeError(GomokuError):
    """A move the judge cannot take: off the board, taken, forbidden, or the game over."""


@dataclass(frozen=True)
class JudgeLimits:
    """How far a judgement looks: the VCF and VCT depths (attacker moves), the node
    budget of the whole judgement (every threat search it makes, together), one search's
    cap, and the small fixed think that names the opponent's answer where no threat
    search does."""

    vcf_depth: int = 16
    vct_depth: int = 6
    nodes: int = 20000
    search_nodes: int = 8000
    think_nodes: int = 1500

    def scaled(self, factor: int) -> JudgeLimits:
        """The same depths with ``factor`` times the nodes (a second, deeper look)."""
        return JudgeLimits(self.vcf_depth, self.vct_depth, self.nodes * factor,
                           self.search_nodes * factor, self.think_nodes)


JUDGE_LIMITS = JudgeLimits()


@dataclass
class Budget:
    """The nodes a judgement may still spend, and how many searches a cap cut short."""

    left: int
    spent: int = 0
    cut: int = 0

    def charge(self, nodes: int, cut: bool) -> None:
        self.left -= nodes
        self.spent += nodes
        self.cut += bool(cut)


@dataclass(frozen=True)
class Win:
    """A forced win of the side to move: its line (cells, attacker first, the defender's
    replies between; ending with the five or with a four the defender cannot stop) and
    how it was found: "vcf" (fours only) or "vct" (fours and threes)."""

    line: tuple[int, ...]
    by: str


def forced_win(board: Board, fours_only: bool, limits: JudgeLimits, budget: Budget) -> Win | None:
    """The side to move's forced win on ``board`` (left unchanged): a VCF within
    ``limits.vcf_depth`` fours (the shortest found first), else, unless ``fours_only``, a
    VCT within ``limits.vct_depth`` threats; None when none is found. The nodes are
    charged to ``budget``, at most ``limits.search_nodes`` and what is left; a search
    stopped by that cap before it could answer counts in ``budget.cut`` (its None is
    then "not found in time", not "none within the depths"). Under renju the VCF knows
    black's forbidden points on both sides (prove.Vcf); the VCT does not, so a VCT it finds
    is not returned but counts in ``budget.cut`` too (unsure, never a proven win).

    The one function through which the judging asks the searches: a prover answering
    the same question (a win and its line, or none within its limits) replaces them here."""
    if board.winner:
        return None
    cap = min(budget.left, limits.search_nodes)
    if cap <= 0:
        budget.charge(0, True)
        return None
    if board.rule is Rule.RENJU:
        vcf = Vcf(board, max_nodes=cap)
        line = None
        for depth in range(1, limits.vcf_depth + 1):
            line = vcf.win(depth)
            if line is not None or vcf.out_of_nodes:
                break
        budget.charge(vcf.nodes, line is None and vcf.out_of_nodes)
        if line is not None:
            return Win(tuple(line), "vcf")
        if not fours_only and not vcf.out_of_nodes and cap > vcf.nodes:
            # The threat search's VCT does not know forbidden points: a win it finds (its
            # own line checked) is no proof, so it makes the answer unsure, not a win.
            search = ThreatSearch(board, cache={})
            found = search.vct(limits.vct_depth, None, cap - vcf.nodes)
            budget.charge(search.nodes, renju_checked(board, found) is not None)
        return None
    search = ThreatSearch(board, cache={})
    by = "vcf"
    line = search.vcf(limits.vcf_depth, None, cap)
    cut = search.timed_out
    if line is None and not cut and not fours_only:
        by = "vct"
        line = search.vct(limits.vct_depth, None, cap - search.nodes)
        cut = search.timed_out
    budget.charge(search.nodes, line is None and cut)
    return None if line is None else Win(tuple(line), by)


@dataclass(frozen=True)
class Verdict:
    """A judged move. ``reply``: the opponent's answer (None when there is none to
    play); ``line``: from the reply on (wins, longer, other: the reply, then the solver's
    win; lost: the opponent's answer and what follows); ``by``: how the solver wins from
    here ("five", "vcf", "vct"; None otherwise); ``moves_to_win``: the solver's moves to
    the five after the reply (wins, longer, other); ``trap``: under renju, a block black
    may not play (the five follows); ``nodes``: the search nodes spent. Points are (x, y)."""

    outcome: str
    reply: Point | None = None
    line: tuple[Point, ...] = ()
    by: str | None = None
    moves_to_win: int | None = None
    trap: Point | None = None
    nodes: int = 0

    def to_dict(self) -> dict:
        """The verdict as the web worker's reply carries it (JSON-ready)."""
        return {
            "outcome": self.outcome,
            "reply": None if self.reply is None else list(self.reply),
            "line": [list(p) for p in self.line],
            "by": self.by,
            "movesToWin": self.moves_to_win,
            "trap": None if self.trap is None else list(self.trap),
            "nodes": self.nodes,
        }


class _Judge:
    """One judgement: the board (played on and restored), the theme, the budget."""

    def __init__(self, board: Board, theme: str, limits: JudgeLimits) -> None:
        self.board = board
        self.theme = theme
        self.limits = limits
        self.budget = Budget(limits.nodes)

    # --- searches ---------------------------------------------------------------------

    def win(self) -> tuple[Win | None, bool]:
        """The side to move's forced win, and whether a None is sure (no node cap cut
        the search: "none within the depths")."""
        cut = self.budget.cut
        w = forced_win(self.board, False, self.limits, self.budget)
        return w, w is not None or self.budget.cut == cut

    def win_with_tempo(self) -> tuple[Win | None, bool]:
        """``win`` for the side not to move, were it to move now."""
        self.board.pass_move()
        try:
            return self.win()
        finally:
            self.board.pass_move()

    def think(self) -> int | None:
        """The side to move's move by a small fixed search (deterministic: nodes, no
        book, fresh tables); None if it fails."""
        from gomoku.engine.facade import Engine
        from gomoku.engine.limits import Limits

        board = self.board
        engine = Engine(board.size, board.rule, tt_bits=14, seed=0)
        try:
            engine.set_position(board.moves)
            result = engine.think(
                Limits(time_ms=None, nodes=self.limits.think_nodes, use_book=False)
            )
        except GomokuError:
            return None
        return board.index(*result.move)

    # --- answers ----------------------------------------------------------------------

    def verdict(self, outcome: str, reply: int | None = None, line=(), **kw) -> Verdict:
        board = self.board
        return Verdict(
            outcome,
            None if reply is None else board.point(reply),
            tuple(board.point(q) for q in line),
            nodes=self.budget.spent,
            **kw,
        )

    def moves_to_win(self, reply: int, line: tuple[int, ...]) -> int:
        """The solver's moves to the five along ``line`` after the defender's ``reply``
        (one more when the line ends on a four the defender cannot stop)."""
        board = self.board
        board.make(reply)
        made = 0
        for q in line:
            board.make(q)
            made += 1
            if board.winner:
                break
        five = bool(board.winner)
        for _ in range(made + 1):
            board.unmake()
        return (made + 1) // 2 + (0 if five else 1)

    def refutation(self, attacker: int, threat: Win | None) -> tuple[int | None, tuple, bool]:
        """The defender's (to move) answer after which the attacker has no forced win:
        (reply, line, sure). Its own five first; with no ``threat`` (the attacker has no
        win even with a tempo) its own forced win (the line shown), else the engine's
        move; with a threat the engine's move (which plays the defender's own forced win
        or stops the attacker's threats), the cells of the attacker's winning lines and
        the defender's counter-fours, each checked.
        (None, (), sure) when none tried holds: sure is False when a node cap left a
        reply unsettled."""
        board = self.board
        defender = board.side
        fives = five_cells(board, defender)
        if fives:
            return fives[0], (fives[0],), True
        if threat is None:  # nothing to stop: its own forced win, else the engine's move
            own, _ = self.win()
            if own is not None:
                return own.line[0], own.line, True
            q = self.think()
            return q, () if q is None else (q,), True
        sure = True
        tried: set[int] = set()
        todo = [q for q in (self.think(),) if q is not None] + list(threat.line)
        todo += [q for q in sorted(board.candidates) if makes_four(board, q, defender)]
        while todo:
            if self.budget.left <= 0:
                return None, (), False
            r = todo.pop(0)
            if r in tried or board.cells[r] or not may_play(board, r, defender):
                continue
            tried.add(r)
            board.make(r)
            try:
                blocks = five_cells(board, defender)
                if len(blocks) > 1 or (blocks and not may_play(board, blocks[0], attacker)):
                    return r, (r,), True  # a four of its own the attacker cannot stop
                if blocks:  # a counter-four: the attacker blocks; then the defender moves
                    board.make(blocks[0])
                    try:
                        w, known = self.win_with_tempo()
                    finally:
                        board.unmake()
                else:
                    w, known = self.win()
            finally:
                board.unmake()
            if w is None and known:
                return r, (r,), True
            sure = sure and known
            if w is not None:
                todo += [q for q in w.line if q not in tried]
        return None, (), sure

    # --- attack -----------------------------------------------------------------------

    def attack(self, q: int, moves_left: int | None) -> Verdict:
        board = self.board
        attacker = board.side
        defender = 3 - attacker
        board.make(q)
        try:
            if board.winner:
                return self.verdict("solved", by="five", moves_to_win=0)
            fives = five_cells(board, defender)
            if fives:
                return self.verdict("lost", fives[0], (fives[0],))
            blocks = five_cells(board, attacker)
            if len(blocks) >= 2:  # an open four or a double four
                legal = [b for b in blocks if may_play(board, b, defender)]
                if not legal:
                    return self.verdict("solved", by="vcf", moves_to_win=1,
                                        trap=board.point(blocks[0]))
                other = next(b for b in blocks if b != legal[0])
                return self.going_on(legal[0], Win((other,), "vcf"), moves_left)
            if len(blocks) == 1:
                block = blocks[0]
                if not may_play(board, block, defender):
                    return self.verdict("solved", by="vcf", moves_to_win=1,
                                        trap=board.point(block))
                board.make(block)
                try:
                    w, sure = self.win()
                finally:
                    board.unmake()
                if w is not None:
                    return self.going_on(block, w, moves_left)
                return self.verdict("lost" if sure else "unclear", block, (block,))
            if board.open_fours(attacker):  # an open three (or several)
                return self.after_three(attacker, moves_left)
            return self.after_quiet(attacker)
        finally:
            board.unmake()

    def going_on(self, reply: int, w: Win, moves_left: int | None) -> Verdict:
        """The move keeps the win ``w`` after the defender's ``reply``."""
        n = self.moves_to_win(reply, w.line)
        line = (reply, *w.line)
        if self.theme == "vcf" and w.by != "vcf":
            return self.verdict("other", reply, line, by=w.by, moves_to_win=n)
        outcome = "longer" if moves_left is not None and 1 + n > moves_left else "wins"
        return self.verdict(outcome, reply, line, by=w.by, moves_to_win=n)

    def after_three(self, attacker: int, moves_left: int | None) -> Verdict:
        """The attacker made an open three: it wins when every defence (the defender's
        replies that do not lose to the open four at once) leaves it a forced win. The
        defence kept for the puzzle to go on is the one after which the win is longest."""
        board = self.board
        defender = 3 - attacker
        hardest: tuple[int, int, Win] | None = None
        unsettled: int | None = None
        for r in threat_replies(board, attacker):
            if not may_play(board, r, defender):
                continue
            board.make(r)
            try:
                w, sure = self.win()
            finally:
                board.unmake()
            if w is None and sure:
                return self.verdict("lost", r, (r,))
            if w is None:
                unsettled = r if unsettled is None else unsettled
                continue
            n = self.moves_to_win(r, w.line)
            if hardest is None or n > hardest[0]:
                hardest = (n, r, w)
        if unsettled is not None:
            return self.verdict("unclear", unsettled, (unsettled,))
        if hardest is None:  # no reply the defender may play: the open four follows
            return self.after_quiet(attacker)
        _, reply, w = hardest
        return self.going_on(reply, Win(w.line, "vct"), moves_left)

    def after_quiet(self, attacker: int) -> Verdict:
        """A move that threatens nothing at once: the defender moves freely. With no win
        even were it to move again, the attacker's win is gone; otherwise the defender
        must stop that threat, and when no defence tried stops it the move wins, but not
        by threats."""
        threat, sure = self.win_with_tempo()
        if threat is None and not sure:
            return self.verdict("unclear")
        reply, line, settled = self.refutation(attacker, threat)
        if reply is not None:
            return self.verdict("lost", reply, line)
        if threat is None or not settled:
            return self.verdict("unclear")
        return self.verdict("other", None, threat.line, by=threat.by)

    # --- defence ----------------------------------------------------------------------

    def defence(self, q: int) -> Verdict:
        board = self.board
        defender = board.side
        attacker = 3 - defender
        board.make(q)
        try:
            if board.winner:
                return self.verdict("solved", by="five")
            fives = five_cells(board, attacker)
            if fives:
                return self.verdict("lost", fives[0], (fives[0],))
            blocks = five_cells(board, defender)
            if len(blocks) >= 2 or (blocks and not may_play(board, blocks[0], attacker)):
                return self.verdict("solved", by="vcf")  # the defender's own five follows
            if blocks:
                return self.after_counter_four(blocks[0], attacker)
            w, sure = self.win()
            if w is not None:
                return self.verdict("lost", w.line[0], w.line, by=w.by)
            return self.verdict("solved" if sure else "unclear")
        finally:
            board.unmake()

    def after_counter_four(self, block: int, attacker: int) -> Verdict:
        """The defender's move was a four: the attacker's forced block, then the defender
        moves again. Solved when the threat is gone; going on when it remains but some
        defence still stops it; lost when none does."""
        board = self.board
        board.make(block)
        try:
            threat, sure = self.win_with_tempo()
            if threat is None:
                return self.verdict("solved" if sure else "unclear", block, (block,))
            reply, _, settled = self.refutation(attacker, threat)
            if reply is not None:
                return self.verdict("wins", block, (block,))
            if not settled:
                return self.verdict("unclear", block, (block,))
            return self.verdict("lost", block, (block, *threat.line), by=threat.by)
        finally:
            board.unmake()


def judge_move(
    board: Board,
    move: Point,
    theme: str,
    moves_left: int | None = None,
    limits: JudgeLimits = JUDGE_LIMITS,
) -> Verdict:
    """Judge the side to move's ``move`` in a ``theme`` puzzle ("vcf", "vct" or
    "defend") by the position it leaves (``board`` is left unchanged). In a win puzzle
    the side to move attacks; ``moves_left`` is how many of its moves, this one included,
    the puzzle allows for the five (None: no limit, never "longer"). In a defence puzzle
    the side to move defends against the opponent's threat. JudgeError for an unknown
    theme, a move off the board, on a stone or on a forbidden point of black's, or when
    the game is over. See the module docstring for the outcomes."""
    if theme not in THEMES:
        raise JudgeError(f"unknown puzzle theme {theme!r}")
    x, y = move
    if not (0 <= x < board.size and 0 <= y < board.size):
        raise JudgeError(f"({x}, {y}) is off the {board.size}x{board.size} board")
    if board.winner:
        raise JudgeError("the game is already over")
    q = board.index(x, y)
    if board.cells[q]:
        raise JudgeError(f"({x}, {y}) is taken")
    if board.side == 1 and forbidden(board, q):
        raise JudgeError(f"({x}, {y}) is forbidden for black: {forbidden(board, q)}")
    judge = _Judge(board, theme, limits)
    if theme == "defend":
        return judge.defence(q)
    return judge.attack(q, moves_left)


__all__ = [
    "CONTINUES",
    "JUDGE_LIMITS",
    "OUTCOMES",
    "JudgeError",
    "JudgeLimits",
    "Verdict",
    "Win",
    "forced_win",
    "judge_move",
]
