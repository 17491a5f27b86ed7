"""The engine facade: a game position plus ``think`` (docs/ENGINE_API.md). The protocols
(web worker, Gomocup brain) reach it through the play session (gomoku.engine.session);
the lab's match runner and book builder, the benchmarks, the review and the parallel
search use it directly.

``think`` goes through, in order: the opening book; a forced reply (win in one, the
only block of a five); our own win by VCF then VCT; the opponent's VCF threat, which
restricts our moves to the ones that stop it (gomoku.search.defence); and the alpha-beta
search. What bounds it is ``Limits`` (gomoku.engine.limits), what it answers
``SearchResult`` and the other types of gomoku.engine.results.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable

from gomoku import __version__
from gomoku.core.errors import IllegalMoveError
from gomoku.core.geometry import Point
from gomoku.core.rules import DEFAULT_SIZE, Rule, check_size, parse_rule
from gomoku.core.symmetry import unique_moves
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchInfo, SearchPlan, SearchResult, TopMove
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_SCORE, evaluate
from gomoku.search.alphabeta import ROOT_MAX_MOVES, Progress, Searcher
from gomoku.search.defence import (
    VCF_DEPTH,
    VCT_DEPTH,
    Defence,
    find_defences,
    recheck_chosen,
    renju_checked,
)
from gomoku.search.movegen import generate
from gomoku.search.threats import ThreatSearch
from gomoku.search.timeman import (
    DEFENCE_SHARE,
    VCF_SHARE,
    VCT_SHARE,
    check_deadline,
    search_times,
    stage_deadline,
)
from gomoku.search.tt import TranspositionTable

ENGINE_NAME = "gomoku-engine"
ENGINE_VERSION = __version__

SYMMETRY_CHECK_MAX_STONES = 12  # later positions are practically never symmetric


class PositionFacts:
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


class Engine(PositionFacts):
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
                defence = find_defences(
                    board, moves, share(DEFENCE_SHARE), node_cap, self.threat_cache
                )
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
            replacement, check_nodes = self.recheck(move, plan)
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

    def recheck(self, move: int, plan: SearchPlan) -> tuple[int, int]:
        """The search chose ``move``, a root move whose defence check did not finish
        before the search: check it in the time left before the plan's hard deadline
        (gomoku.search.defence.recheck_chosen). Returns (the move to play, threat nodes
        searched)."""
        deadline = check_deadline(plan.hard_deadline, time.perf_counter())
        found = Defence(plan.threat_kind, plan.safe, plan.unchecked)
        return recheck_chosen(
            self.board, move, found, deadline, plan.threat_node_cap, self.threat_cache
        )

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
