"""The engine facade: a game position plus ``think`` (docs/ENGINE_API.md). The protocols
(web worker, Gomocup brain) reach it through the play session (gomoku.engine.session);
the lab's match runner and book builder, the benchmarks, the review and the parallel
search use it directly.

``think`` goes through, in order: the opening book; a forced reply (win in one, the
only block of a five); our own win by VCF then VCT; the opponent's VCF threat, which
restricts our moves to the ones that stop it; and the alpha-beta search.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from gomoku import __version__
from gomoku.core.errors import IllegalMoveError
from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from gomoku.core.symmetry import unique_moves
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_SCORE, evaluate
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK
from gomoku.search.alphabeta import ROOT_MAX_MOVES, Progress, Searcher
from gomoku.search.movegen import generate
from gomoku.search.threats import ThreatSearch
from gomoku.search.timeman import (
    DEFENCE_SHARE,
    VCF_SHARE,
    VCT_SHARE,
    MoveTimes,
    check_deadline,
    move_times,
    search_times,
    stage_deadline,
)
from gomoku.search.tt import TranspositionTable

ENGINE_NAME = "gomoku-engine"
ENGINE_VERSION = __version__

VCF_DEPTH = 12  # attacker moves
VCT_DEPTH = 6
DEFENCE_VCT_DEPTH = 4  # the opponent's VCT looked for when choosing a defence
DEFENCE_CHECK_MOVES = 24  # root moves checked against an opponent's threat
DEFENCE_NODE_CAPS = 2  # under a node limit: the defence checks of a move share this many
# threat-search budgets (each a quarter of the move's nodes), so half the move at most
SYMMETRY_CHECK_MAX_STONES = 12  # later positions are practically never symmetric


# A protocol's time controls as ``Limits`` keywords (turn_ms, match_ms, time_left_ms, ...).
TimeKeywords = dict[str, int | None]


@dataclass
class Limits:
    """Search limits; None means "no limit of this kind". The time fields are the controls
    as the caller received them (ms); ``times`` turns them into the move's optimum and
    maximum, once (gomoku.search.timeman.move_times says how)."""

    time_ms: float | None = 1000.0  # soft target: the move may run past it (up to 2.5x)
    hard_ms: float | None = None  # hard cap: never passed
    depth: int | None = None
    nodes: int | None = None
    time_left_ms: float | None = None  # the match clock (Gomocup time_left)
    use_book: bool = True
    use_threats: bool = True
    seed: int | None = None  # picks among close book replies (None: the engine's own RNG)
    multipv: int = 1  # > 1: also report the best that many root moves (SearchResult.top)
    # The threat stages' reach (None: the engine's own, VCF_DEPTH / VCT_DEPTH; 0: the stage
    # is skipped) and whether the opponent's threats are looked for (the levels below the
    # full engine see shorter threats, and may not look at the opponent's: engine/levels.py).
    vcf_depth: int | None = None
    vct_depth: int | None = None
    defence: bool = True
    # A promise of at most so long a move: Gomocup's timeout_turn (0: as fast as possible),
    # the page's maxMs (the page's own overhead kept back too); Gomocup's timeout_match (0:
    # no match limit, time_left_ms is then ignored).
    turn_ms: int | None = None
    max_ms: int | None = None
    match_ms: int | None = None

    def controls(self) -> TimeKeywords:
        """The protocol's time controls alone (turn_ms, max_ms, match_ms, time_left_ms), as
        ``Limits`` keywords: what a level's own limits keep of the caller's clock."""
        return {k: getattr(self, k) for k in ("turn_ms", "max_ms", "match_ms", "time_left_ms")}

    def times(self, empty_cells: int | None = None) -> MoveTimes:
        """This move's optimum and maximum (ms) in a position with ``empty_cells`` empty
        cells (a match clock is spread over half of them; None: not known)."""
        return move_times(self, empty_cells)

    def budget(self, empty_cells: int | None = None) -> tuple[float | None, float | None]:
        """(optimum, maximum) seconds for this move: ``times`` in seconds."""
        return self.times(empty_cells).seconds()


def renju_checked(board: Board, line: list[int] | None) -> list[int] | None:
    """The threat search's winning line, or None when under renju a black move of it is
    a forbidden point (the threat search does not know them; the replay does)."""
    if line is None or board.rule is not Rule.RENJU:
        return line
    made, ok = 0, True
    for q in line:
        if board.cells[q] or (board.side == BLACK and forbidden(board, q)):
            ok = False
            break
        board.make(q)
        made += 1
        if board.winner:
            break
    for _ in range(made):
        board.unmake()
    return line if ok else None


def _point_list(points: list[Point]) -> list[list[int]]:
    return [[x, y] for x, y in points]


@dataclass
class TopMove:
    """One of the best root moves of a multi-PV search (side to move's score)."""

    # score, here and below: the search's integer (side to move's view); what it means,
    # and the text and data made of it, is gomoku.search.score's

    move: Point
    score: int
    pv: list[Point]

    def to_dict(self) -> dict:
        return {
            "move": [self.move[0], self.move[1]],
            "score": self.score,
            "pv": _point_list(self.pv),
        }


@dataclass
class SearchInfo:
    depth: int
    score: int
    nodes: int
    nps: int
    pv: list[Point]
    time_ms: float
    top: list[TopMove] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["pv"] = _point_list(self.pv)
        d["top"] = [t.to_dict() for t in self.top]
        return d


@dataclass
class SearchResult:
    move: Point
    score: int
    depth: int
    nodes: int
    nps: int
    pv: list[Point] = field(default_factory=list)
    source: str = "search"
    time_ms: float = 0.0
    top: list[TopMove] = field(default_factory=list)  # multi-PV (Limits.multipv > 1)
    # The opponent's threat ("vcf" or "vct") that none of the root moves checked against
    # it stopped: the position is lost whatever the search's score says (not in to_dict).
    lost_to: str | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("lost_to")
        d["move"] = [self.move[0], self.move[1]]
        d["pv"] = _point_list(self.pv)
        d["top"] = [t.to_dict() for t in self.top]
        return d


@dataclass
class SearchPlan:
    """What ``Engine.prepare`` leaves to the alpha-beta search: the arguments of
    ``Searcher.search`` (times in seconds from the end of prepare), the nodes already
    spent and when thinking started (perf_counter)."""

    root_moves: list[int]
    max_depth: int
    soft_time: float | None
    hard_time: float | None
    max_nodes: int | None
    nodes: int
    start: float
    # Against an opponent's threat: root moves shown to stop it, and the ones whose
    # check did not finish in time (verified after the search if chosen).
    safe: list[int] = field(default_factory=list)
    unchecked: list[int] = field(default_factory=list)
    threat_kind: str | None = None  # "vcf" or "vct": the opponent's threat, if any
    hard_deadline: float | None = None  # perf_counter time the move must be ready by
    multipv: int = 1  # root moves to report with exact scores (Limits.multipv)
    threat_node_cap: int | None = None  # node budget of each threat search (node limits)


@dataclass
class Defence:
    """What the defence stage found: the opponent's threat (``kind`` "vcf" or "vct",
    None when it has none), our root moves shown to stop it and the ones not checked
    in time (those shown to lose are left out), and the threat nodes it searched."""

    kind: str | None = None
    safe: list[int] = field(default_factory=list)
    unchecked: list[int] = field(default_factory=list)
    nodes: int = 0


class BoardView:
    """The position's facts read off ``self.board``: what the Engine and the play session
    (engine/session.py) both answer about the game they hold."""

    board: Board

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def rule(self) -> Rule:
        return self.board.rule

    @property
    def moves(self) -> list[Point]:
        return self.board.moves

    @property
    def side_to_move(self) -> int:
        return self.board.side

    @property
    def winner(self) -> int:
        return self.board.winner

    @property
    def winning_line(self) -> list[Point]:
        return self.board.winning_line()

    @property
    def is_over(self) -> bool:
        return bool(self.board.winner) or self.board.is_full()


class Engine(BoardView):
    """A game in progress and an AI to think about it."""

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        rule: str | int | Rule = Rule.FREESTYLE,
        tt_bits: int = 18,
        seed: int | None = None,
    ) -> None:
        """``seed`` fixes the choice among close book replies (None: varies per run)."""
        self.tt = TranspositionTable(tt_bits)
        self.rng = random.Random(seed)  # variety among close book replies
        self.book = None
        self.board = Board(check_size(size), parse_rule(rule))
        self.threat_cache: dict[int, int] = {}  # shared by the threat searches of a game

    def warm_up(self) -> None:
        """Load the opening book and build the tables now rather than on the first move
        (the Gomocup brain calls this on START, outside any move's time)."""
        self._book_move(None)
        generate(self.board, None)

    # --- the game ---------------------------------------------------------------------

    def new_game(self, size: int = DEFAULT_SIZE, rule: str | int | Rule = Rule.FREESTYLE) -> None:
        self.board = Board(check_size(size), parse_rule(rule))
        self.tt.clear()
        self.threat_cache.clear()

    def play(self, x: int, y: int) -> None:
        self.board.play(x, y)

    def undo(self) -> Point:
        return self.board.undo()

    def set_position(self, moves: list[Point] | list[list[int]]) -> None:
        """Replace the game by ``moves`` (black first); atomic on error."""
        board = Board(self.board.size, self.board.rule)
        for i, m in enumerate(moves):
            try:
                x, y = m
            except (TypeError, ValueError):
                raise IllegalMoveError(f"move {i + 1} is not an (x, y) pair: {m!r}") from None
            try:
                board.play(x, y)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"move {i + 1} {m!r}: {e}") from None
        self.board = board

    # --- thinking ---------------------------------------------------------------------

    def think(
        self,
        limits: Limits | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
        on_plan: Callable[[SearchResult | SearchPlan], None] | None = None,
    ) -> SearchResult:
        """Choose a move for the side to move within ``limits``. ``on_info`` gets each
        completed depth; ``on_plan`` what ``prepare`` decided, before the search (the
        parallel search's think job reports it while the search goes on).

        The cyclic garbage collector is paused while thinking: the search allocates many
        small tuples (TT entries) and a full collection pass over them can take longer
        than a short move budget. The engine's own structures hold no cycles.
        """
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._think(limits, on_info, on_plan)
        finally:
            if was_enabled:
                gc.enable()

    def prepare(self, limits: Limits | None = None) -> SearchResult | SearchPlan:
        """Run the stages of ``think`` before the alpha-beta search (book, forced reply,
        our win by VCF/VCT, the defence against the opponent's threats, root symmetry).

        Returns the SearchResult when one of them decides the move, else the SearchPlan
        the search would get. The parallel search (gomoku.parallel) runs this on a helper
        worker for its root moves."""
        limits = limits or Limits()
        board = self.board
        if self.is_over:
            raise IllegalMoveError("the game is over")
        start = time.perf_counter()
        soft, hard = limits.budget(board.size * board.size - board.ply)
        if soft is None and limits.depth is None and limits.nodes is None:
            raise ValueError("think needs a time, depth or node limit")
        hard_deadline = start + hard if hard is not None else None

        def result(
            move: int, score: int, depth: int, nodes: int, pv: list[int], source: str
        ) -> SearchResult:
            return self._result(start, move, score, depth, nodes, pv, source)

        if limits.use_book:
            seed = limits.seed if limits.seed is not None else self.rng.randrange(1 << 31)
            book_move = self._book_move(seed)
            if book_move is not None:
                p = board.layout.index(*book_move.move)
                return result(p, book_move.score, 0, 0, [p], "book")

        moves = generate(board, None)
        if len(moves) == 1 and (board.wins_at(moves[0], board.side) or board.fives(3 - board.side)):
            # Win in one, or the only block of a five: nothing to think about.
            q = moves[0]
            won = board.wins_at(q, board.side)
            board.make(q)
            score = -evaluate(board)
            board.unmake()
            return result(q, WIN_SCORE - 1 if won else score, 1, 1, [q], "forced")

        nodes = 0
        root_moves = None
        defence = Defence()
        node_cap = None if limits.nodes is None else max(limits.nodes // 4, 1)
        if limits.use_threats:

            def share(fraction: float) -> float | None:
                return stage_deadline(time.perf_counter(), soft, fraction, hard_deadline)

            vcf_depth = VCF_DEPTH if limits.vcf_depth is None else limits.vcf_depth
            vct_depth = VCT_DEPTH if limits.vct_depth is None else limits.vct_depth
            threats = ThreatSearch(board, cache=self.threat_cache)
            line = None
            if vcf_depth > 0:
                line = renju_checked(board, threats.vcf(vcf_depth, share(VCF_SHARE), node_cap))
            if line is None and vct_depth > 0:
                line = renju_checked(board, threats.vct(vct_depth, share(VCT_SHARE), node_cap))
            nodes += threats.nodes
            if line is not None:
                return result(line[0], WIN_SCORE - len(line), len(line), nodes, line, "threat")
            if limits.defence:
                defence = self._defend_threats(moves, share(DEFENCE_SHARE), node_cap)
                nodes += defence.nodes
                root_moves = defence.safe + defence.unchecked

        if not root_moves:  # no threat, or every move loses to it: search them all
            root_moves = generate(board, ROOT_MAX_MOVES)
        root_moves = self._unique_root_moves(root_moves)
        remaining_soft, remaining_hard = search_times(soft, hard, time.perf_counter() - start)
        return SearchPlan(
            root_moves=root_moves,
            max_depth=limits.depth or 64,
            soft_time=remaining_soft,
            hard_time=remaining_hard,
            max_nodes=None if limits.nodes is None else max(limits.nodes - nodes, 1),
            nodes=nodes,
            start=start,
            safe=defence.safe,
            unchecked=defence.unchecked,
            threat_kind=defence.kind,
            hard_deadline=hard_deadline,
            threat_node_cap=node_cap,
            multipv=max(1, int(limits.multipv)),
        )

    def _think(
        self,
        limits: Limits | None,
        on_info: Callable[[SearchInfo], None] | None,
        on_plan: Callable[[SearchResult | SearchPlan], None] | None,
    ) -> SearchResult:
        """Choose a move for the side to move within ``limits``."""
        plan = self.prepare(limits)
        if on_plan is not None:
            on_plan(plan)
        if isinstance(plan, SearchResult):
            return plan
        board = self.board
        start, nodes = plan.start, plan.nodes

        def progress(p: Progress) -> None:
            if on_info is None:
                return
            elapsed = time.perf_counter() - start
            total = nodes + p.nodes
            on_info(
                SearchInfo(
                    p.depth,
                    p.score,
                    total,
                    int(total / elapsed) if elapsed > 0 else 0,
                    [board.point(q) for q in p.pv],
                    round(elapsed * 1000, 2),
                    self._top(p.top),
                )
            )

        outcome = Searcher(board, self.tt).search(
            max_depth=plan.max_depth,
            soft_time=plan.soft_time,
            hard_time=plan.hard_time,
            max_nodes=plan.max_nodes,
            root_moves=plan.root_moves,
            on_progress=progress,
            multipv=plan.multipv,
        )
        move, pv = outcome.move, outcome.pv
        if move in plan.unchecked:
            replacement, check_nodes = self._check_defence(move, plan)
            nodes += check_nodes
            if replacement != move:
                move, pv = replacement, [replacement]
        result = self._result(
            start,
            move,
            outcome.score,
            outcome.depth,
            nodes + outcome.nodes,
            pv,
            "search",
        )
        if plan.threat_kind and not plan.safe and not plan.unchecked:
            result.lost_to = plan.threat_kind  # every move checked against it loses
        if outcome.top and outcome.top[0].move == move:
            result.top = self._top(outcome.top)
        return result

    def _top(self, lines: list) -> list[TopMove]:
        point = self.board.point
        return [
            TopMove(point(t.move), t.score, [point(q) for q in t.pv])
            for t in lines
        ]

    def _result(
        self,
        start: float,
        move: int,
        score: int,
        depth: int,
        nodes: int,
        pv: list[int],
        source: str,
    ) -> SearchResult:
        board = self.board
        elapsed = time.perf_counter() - start
        points = [board.point(p) for p in pv]
        return SearchResult(
            board.point(move),
            score,
            depth,
            nodes,
            int(nodes / elapsed) if elapsed > 0 else 0,
            points,
            source,
            round(elapsed * 1000, 2),
            # a decided move (book, forced, threat) is the single top move
            [TopMove(board.point(move), score, points)],
        )

    def _defend_threats(
        self, moves: list[int], deadline: float | None, node_cap: int | None
    ) -> Defence:
        """Could the opponent win by VCF (or else by VCT) were it their move? If so, which
        of our root moves stop it (see Defence; kind None: no threat, or no time to find
        out).

        The cells of the opponent's winning line are checked first: that is where a
        defence usually is. (Keeping only the moves shown safe was measured weaker: the
        checks seldom finish, and the search was left with a few passive moves.)"""
        board = self.board
        board.pass_move()  # ask "what if the opponent moved now"
        try:
            probe = ThreatSearch(board, cache=self.threat_cache)
            kind = "vcf"
            threat = renju_checked(board, probe.vcf(VCF_DEPTH, deadline, node_cap))
            if threat is None and not probe.timed_out:
                kind = "vct"
                threat = renju_checked(board, probe.vct(DEFENCE_VCT_DEPTH, deadline, node_cap))
        finally:
            board.pass_move()
        defence = Defence(nodes=probe.nodes)
        if threat is None:
            return defence
        defence.kind = kind
        first = [q for q in dict.fromkeys(threat) if board.cells[q] == 0]
        order = first + [q for q in moves[:DEFENCE_CHECK_MOVES] if q not in first]
        for q in order:
            # Under a node limit the stage's checks share one budget (DEFENCE_NODE_CAPS
            # times a threat search's), as they share its deadline: else 24 checks could
            # spend 24 budgets and leave the search that follows a single node.
            left = None if node_cap is None else DEFENCE_NODE_CAPS * node_cap - defence.nodes
            if (deadline is not None and time.perf_counter() > deadline) or (
                left is not None and left <= 0
            ):
                defence.unchecked.append(q)
                continue
            cap = None if left is None or node_cap is None else min(node_cap, left)
            holds, searched = self._defence_check(q, kind, deadline, cap)
            defence.nodes += searched
            if holds is not False:  # a move shown to lose is dropped
                (defence.safe if holds else defence.unchecked).append(q)
        return defence

    def _check_defence(self, move: int, plan: SearchPlan) -> tuple[int, int]:
        """The search chose a root move whose defence check did not finish before the
        search. Check it now, in the time left before the hard deadline (under a node
        limit, each check also within the threat stages' node budget); if it loses to
        the opponent's threat, play the first move shown to stop it instead, or else the
        first of the other unchecked moves that the check clears. Returns (the move to
        play, threat nodes searched)."""
        deadline = check_deadline(plan.hard_deadline, time.perf_counter())
        kind = plan.threat_kind or "vct"
        cap = plan.threat_node_cap
        holds, nodes = self._defence_check(move, kind, deadline, cap)
        if holds is not False:  # shown to hold, or the check ran out of time
            return move, nodes
        if plan.safe:
            return plan.safe[0], nodes
        for q in plan.unchecked:
            left = None if cap is None else DEFENCE_NODE_CAPS * cap - nodes  # shared
            if (deadline is not None and time.perf_counter() > deadline) or (
                left is not None and left <= 0
            ):
                break
            if q == move:
                continue
            holds, searched = self._defence_check(
                q, kind, deadline, None if left is None or cap is None else min(cap, left)
            )
            nodes += searched
            if holds is not False:
                return q, nodes
        return move, nodes

    def _defence_check(
        self, move: int, kind: str, deadline: float | None, node_cap: int | None
    ) -> tuple[bool | None, int]:
        """Does our ``move`` stop the opponent's threat of this ``kind`` ("vcf": only its
        VCF is looked for, "vct": its VCF then its VCT)? Returns (True: the opponent has
        no such win after it, False: it has one, None: the check ran out of time or
        nodes; threat nodes searched)."""
        board = self.board
        board.make(move)
        try:
            ts = ThreatSearch(board, cache=self.threat_cache)
            line = renju_checked(board, ts.vcf(VCF_DEPTH, deadline, node_cap))
            if line is None and not ts.timed_out and kind == "vct":
                line = renju_checked(board, ts.vct(DEFENCE_VCT_DEPTH, deadline, node_cap))
        finally:
            board.unmake()
        if line is not None:
            return False, ts.nodes
        return (None if ts.timed_out else True), ts.nodes

    def _unique_root_moves(self, moves: list[int]) -> list[int]:
        """Drop root moves that a symmetry of the position maps onto an earlier one."""
        board = self.board
        if len(board.history) > SYMMETRY_CHECK_MAX_STONES:
            return moves
        black = [board.point(p) for p in board.history[0::2]]
        white = [board.point(p) for p in board.history[1::2]]
        points = unique_moves([board.point(q) for q in moves], black, white, board.size)
        return [board.layout.index(x, y) for x, y in points]

    def _book_move(self, seed: int | None):
        try:
            from gomoku.engine.book import default_book
        except ImportError:  # the book is optional
            return None
        if self.book is None:
            self.book = default_book()
        try:
            return self.book.lookup(self.board.moves, self.board.size, self.board.rule, seed)
        except Exception:  # a broken book must never stop the engine
            return None
