"""Iterative-deepening negamax PVS with a transposition table, killers and history.

Readable in one sitting, in the spirit of sunfish; the tunables are named below.

- Move order: TT move, then the threat buckets of movegen (which also forces the replies
  to fives and open-four threats and prunes quiet nodes to the best N), then killers
  and history inside the generated order.
- Single-reply extension: a node whose side must block a five costs no depth, so a
  chain of fours never falls off the horizon.
- Wins and losses read off the board's threat counts at every node (a quick win check,
  as Rapfi does): a five to make, two fives of the opponent's to stop, an open four or
  double four, a four-three or a double three against an opponent with no four to make.
- Shallow pruning at non-PV nodes whose side to move is not under threat: futility
  (static evaluation far above beta) and razoring (far below alpha, confirmed by the
  VCF quiescence search).
- Late move reductions: at nodes of depth LMR_MIN_DEPTH or more, the moves from index
  LMR_FROM on are first searched LMR_TABLE[depth][index] plies shallower (growing with
  the logarithms of both) with a null window, and again at full depth if they beat alpha.
- Moves are made only when needed: a child that what the search knows decides (its
  transposition table entry, or a quick result found before) or, at the horizon, that
  its threat counts and evaluation decide (read off Board.packed_after without making the
  move) is scored and counted as searching it would, without make and unmake.
- Leaves: a VCF quiescence search: the side to move may stand pat on the static
  evaluation or play fours (on a line through its last stone, at most QS_FOURS in a
  row); a four's reply is forced.
- Time: after each iteration the time manager (timeman.py) decides whether to go on,
  from the soft time (the optimum) and how settled the best move and score look. The
  clock is read every CHECK_EVERY nodes; past the hard deadline (or the node limit) the
  search unwinds and the best move of the deepest finished iteration (or the partial
  one, if its first move already improved) is returned.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gomoku.core.rules import Rule
from gomoku.game.board import BLACK, THREAT_FIELD, Board
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD, evaluate, evaluate_packed
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import (
    T_FIVE,
    T_FOUR,
    T_FOUR_THREE,
)
from gomoku.search.movegen import generate
from gomoku.search.quick import (
    FIELDS,
    LINE_FOUR,
    NEEDS_BOARD,
    five_cell,
    four_cells,
    quick_counts,
    quick_result,
    threatened,
)
from gomoku.search.timeman import TimeManager
from gomoku.search.tt import (
    EXACT,
    LOWER,
    UPPER,
    LayeredTable,
    TranspositionTable,
    score_from_tt,
    score_to_tt,
)

CHECK_EVERY = 256  # nodes between clock reads
OTHERS_TT_BITS = 16  # transposition table of the multi-PV search of the other root moves
MAX_PLY = 64
ASPIRATION = 60  # half-width of the aspiration window (centi-units)
ROOT_MAX_MOVES = 24  # forward pruning at the root
NODE_MAX_MOVES = 14  # and deeper
DEEP_MAX_MOVES = 9  # from ply 4 on
LMR_FROM = 4  # moves from this index on are reduced...
LMR_MIN_DEPTH = 3  # ...at nodes of at least this depth with more than LMR_FROM + 1 moves
LMR_DIVISOR = 2.0  # reduction = ln(depth) * ln(index + 1) / LMR_DIVISOR, at least 1
GENERATED_LIMIT = 50_000  # generated lists (quick results) a search keeps, then afresh
QS_FOURS = 6  # fours in a row the quiescence search may play
SINGLE_REPLY_EXTENSION = 1  # plies a node with one reply (the block of a five) gives back
# Shallow pruning at non-PV nodes where the opponent threatens nothing (evaluation units:
# 200 = one logit of the fitted model, i.e. about 73% expected score).
FUTILITY_DEPTH = 3  # static eval - FUTILITY_MARGIN * depth >= beta: return the eval
FUTILITY_MARGIN = 70
RAZOR_DEPTH = 2  # static eval + RAZOR_MARGIN[depth] < alpha: a VCF check decides
RAZOR_MARGIN = (0, 40, 60)


LMR_TABLE = [
    [
        max(1, int(0.5 + math.log(d) * math.log(i + 1) / LMR_DIVISOR)) if d and i else 1
        for i in range(64)
    ]
    for d in range(64)
]


class SearchStopped(Exception):
    """Raised to unwind the search when a limit is reached."""


@dataclass
class Progress:
    depth: int
    score: int
    nodes: int
    pv: list[int]
    elapsed: float
    top: list[RootLine] = field(default_factory=list)  # multi-PV: best first


@dataclass
class RootLine:
    """One root move of a multi-PV search with its exact score and line."""

    move: int
    score: int
    pv: list[int]


@dataclass
class SearchOutcome:
    move: int
    score: int
    depth: int
    nodes: int
    pv: list[int] = field(default_factory=list)
    elapsed: float = 0.0
    top: list[RootLine] = field(default_factory=list)  # multi-PV: best first


class Searcher:
    """Alpha-beta search on a Board (restored after every call)."""

    def __init__(self, board: Board, tt: TranspositionTable | None = None) -> None:
        self.board = board
        self.tt = tt or TranspositionTable()
        self.nodes = 0
        self.killers = [[-1, -1] for _ in range(MAX_PLY + 8)]
        self.history: dict[int, int] = {}
        # (hash, last stone, the one before, ply < 4) -> generate's moves at that node
        self.generated: dict[tuple[int, int, int, bool], list[int]] = {}
        # Zobrist key -> quick_result of a position where it was not None, as score_to_tt
        # at ply 0 (it depends only on the position: _decided reads it for a child)
        self.quick_known: dict[int, int] = {}
        self.soft_deadline = float("inf")
        self.hard_deadline = float("inf")
        self.max_nodes = 1 << 62
        self.start = 0.0
        self._partial: tuple[int, int] | None = None

    # --- driver -----------------------------------------------------------------------

    def search(
        self,
        max_depth: int = 64,
        soft_time: float | None = None,
        hard_time: float | None = None,
        max_nodes: int | None = None,
        root_moves: list[int] | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        multipv: int = 1,
    ) -> SearchOutcome:
        """Iterative deepening from depth 1; returns the best move found.

        ``multipv`` > 1 asks for the best that many root moves with exact scores and
        lines in each iteration (SearchOutcome.top / Progress.top). The main search runs
        as without it (same best move at every depth); the other moves are searched
        after each iteration by ``_root_others``."""
        board = self.board
        self.start = time.perf_counter()
        self.soft_deadline = self.start + soft_time if soft_time is not None else float("inf")
        self.hard_deadline = self.start + hard_time if hard_time is not None else float("inf")
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.nodes = 0
        self.tt.new_search()
        self.history.clear()
        self.generated.clear()
        self.quick_known.clear()
        moves = list(root_moves) if root_moves else generate(board, ROOT_MAX_MOVES)
        if not moves:  # renju: every candidate of black's is lost or forbidden
            empty = [q for q in board.layout.onboard if board.cells[q] == 0]
            if not empty:
                raise ValueError("the board is full: there is no move to search")
            # an allowed cell if there is one; else black has only forbidden (losing) moves
            moves = [next((q for q in empty if not forbidden(board, q)), empty[0])]
        best = SearchOutcome(moves[0], 0, 0, 0, [moves[0]])
        if len(moves) == 1:
            max_depth = min(max_depth, 2)  # one legal reply: just report a score
        score = 0
        history_len = len(board.history)
        clock = TimeManager(soft_time, hard_time)
        multipv = max(1, min(multipv, len(moves)))
        top: list[RootLine] = []
        self._others: Searcher | None = None
        for depth in range(1, max_depth + 1):
            try:
                if depth >= 3 and abs(score) < WIN_THRESHOLD:
                    lo, hi = score - ASPIRATION, score + ASPIRATION
                    score, move = self._root(depth, lo, hi, moves)
                    if score <= lo or score >= hi:
                        score, move = self._root(depth, -WIN_SCORE - 1, WIN_SCORE + 1, moves)
                else:
                    score, move = self._root(depth, -WIN_SCORE - 1, WIN_SCORE + 1, moves)
                if multipv > 1:
                    ranked_lines = self._root_others(depth, moves, (score, move), multipv)
            except SearchStopped:
                while len(board.history) > history_len:
                    board.unmake()
                if self._partial is not None and self._partial[0] > best.score:
                    best.move = self._partial[1]
                    best.pv = [self._partial[1]]
                break
            moves.remove(move)
            moves.insert(0, move)
            if multipv > 1:
                top = [RootLine(move, score, self.pv_line(move))] + [
                    RootLine(m, sc, self._others.pv_line(m)) for sc, m in ranked_lines[1:]
                ]
            elapsed = time.perf_counter() - self.start
            best = SearchOutcome(move, score, depth, self.nodes, self.pv_line(move), elapsed)
            best.top = top
            if on_progress is not None:
                on_progress(Progress(depth, score, self.nodes, best.pv, elapsed, top))
            if abs(score) >= WIN_THRESHOLD and WIN_SCORE - abs(score) <= depth:
                break  # a proven result within the horizon: deeper changes nothing
            if clock.iteration_done(elapsed, move, score):
                break
        best.nodes = self.nodes
        best.elapsed = time.perf_counter() - self.start
        self.generated.clear()  # memory: only this search could use them
        self.quick_known.clear()
        return best

    def pv_line(self, first: int, limit: int = 16) -> list[int]:
        """Follow TT best moves from the root (stops at repeats or missing entries)."""
        board = self.board
        line = [first]
        board.make(first)
        made = 1
        seen = {board.hash}
        while made < limit and not board.winner:
            e = self.tt.probe(board.hash)
            if e is None or e[3] < 0 or board.cells[e[3]] != 0:
                break
            board.make(e[3])
            made += 1
            if board.hash in seen:
                break
            seen.add(board.hash)
            line.append(e[3])
        for _ in range(made):
            board.unmake()
        return line

    # --- the tree ---------------------------------------------------------------------

    def _root_others(
        self, depth: int, moves: list[int], best: tuple[int, int], k: int
    ) -> list[tuple[int, int]]:
        """The root's best move ``best`` = (score, move) of this iteration, then the next
        best k - 1 root moves with exact scores, as (score, move).

        They are searched by a second searcher with its own killers, history and
        transposition table (which reads the main one, but never writes it), so that the
        main search (and so its best move at every depth) is exactly the plain search's.
        A move is first tried with a null window at the (k-1)-th best score so far; only
        one that beats it gets a full-window search."""
        board = self.board
        if self._others is None:
            self._others = Searcher(board, LayeredTable(self.tt, OTHERS_TT_BITS))
        other = self._others
        other.hard_deadline = self.hard_deadline
        other.max_nodes = self.max_nodes - self.nodes
        other.nodes = 0
        full = WIN_SCORE + 1
        lines: list[tuple[int, int]] = []
        try:
            for q in moves:
                if q == best[1]:
                    continue
                board.make(q)
                if board.winner:
                    score = WIN_SCORE - 1
                elif len(lines) < k - 1:
                    score = -other._negamax(depth - 1, -full, full, 1)
                else:
                    floor = lines[-1][0]
                    score = -other._negamax(depth - 1, -floor - 1, -floor, 1)
                    if score > floor:
                        score = -other._negamax(depth - 1, -full, -floor, 1)
                board.unmake()
                if len(lines) < k - 1 or score > lines[-1][0]:
                    lines.append((score, q))
                    lines.sort(key=lambda e: -e[0])  # stable: earlier moves first on ties
                    del lines[k - 1 :]
        finally:
            self.nodes += other.nodes
        return [best, *lines]

    def _root(self, depth: int, alpha: int, beta: int, moves: list[int]) -> tuple[int, int]:
        board = self.board
        best_score, best_move = -WIN_SCORE - 1, moves[0]
        self._partial = None
        for i, q in enumerate(moves):
            board.make(q)
            if board.winner:
                score = WIN_SCORE - 1
            elif i == 0:
                score = -self._negamax(depth - 1, -beta, -alpha, 1)
            else:
                score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1)
                if alpha < score < beta:
                    score = -self._negamax(depth - 1, -beta, -alpha, 1)
            board.unmake()
            if score > best_score:
                best_score, best_move = score, q
                self._partial = (score, q)
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        self.tt.store(
            board.hash,
            depth,
            EXACT if best_score > -WIN_SCORE else UPPER,
            score_to_tt(best_score, 0),
            best_move,
        )
        return best_score, best_move

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        # Count the node; stop past the node budget or the hard deadline (the clock is
        # read every CHECK_EVERY nodes: it costs more than a node). Inline, here and in
        # _quiesce, as it runs at every node.
        self.nodes = nodes = self.nodes + 1
        if nodes > self.max_nodes or (
            not nodes % CHECK_EVERY and time.perf_counter() > self.hard_deadline
        ):
            raise SearchStopped
        board = self.board
        side = board.side
        quick = quick_result(board, ply)
        if quick is not None:
            if len(self.quick_known) >= GENERATED_LIMIT:
                self.quick_known.clear()
            self.quick_known[board.hash] = score_to_tt(quick, ply)
            return quick
        if ply >= MAX_PLY:
            return evaluate(board)
        opp_fives = (board.packed >> FIELDS[3 - side][T_FIVE]) & THREAT_FIELD
        if depth <= 0 and not opp_fives:
            return self._quiesce(alpha, beta, ply, QS_FOURS, checked=True)
        if depth <= 0:
            depth = SINGLE_REPLY_EXTENSION  # the block of a five at the horizon is played

        key = board.hash
        tt_move = -1
        entry = self.tt.probe(key)
        if entry is not None:
            e_depth, bound, e_score, tt_move = entry
            if e_depth >= depth:
                s = score_from_tt(e_score, ply)
                if (
                    bound == EXACT
                    or (bound == LOWER and s >= beta)
                    or (bound == UPPER and s <= alpha)
                ):
                    return s

        if beta - alpha == 1 and abs(beta) < WIN_THRESHOLD and not threatened(board, side):
            static = evaluate(board)
            if depth <= FUTILITY_DEPTH and static - FUTILITY_MARGIN * depth >= beta:
                return static  # futility: far above beta, a quiet move will not drop it
            if depth <= RAZOR_DEPTH and static + RAZOR_MARGIN[depth] < alpha:
                score = self._quiesce(alpha, beta, ply, QS_FOURS, checked=True)
                if score <= alpha:  # razoring: far below alpha and no VCF lifts it
                    return score

        # generate's list depends only on the stones, the side to move and the last two
        # stones (the ordering's last stones term), so a node met again (the next
        # iteration, a re-search; a quarter of the generations) reuses it, found by the
        # Zobrist key as the transposition table finds its entries. The lists are never
        # changed after generate.
        history = board.history
        gen_key = (key, history[-1], history[-2] if len(history) >= 2 else -1, ply < 4)
        moves = self.generated.get(gen_key)
        if moves is None:
            moves = generate(board, NODE_MAX_MOVES if ply < 4 else DEEP_MAX_MOVES)
            if len(self.generated) >= GENERATED_LIMIT:
                self.generated.clear()
            self.generated[gen_key] = moves
        if not moves:  # board full: draw; else (renju) black has only forbidden moves
            return -(WIN_SCORE - ply - 1) if board.candidates else 0
        if len(moves) > 1:
            killers = self.killers[ply]
            hist = self.history
            front = []
            if tt_move >= 0 and tt_move in moves:
                front.append(tt_move)
            for k in killers:
                if k >= 0 and k in moves and k not in front:
                    front.append(k)
            if front:
                rest = [q for q in moves if q not in front]
                if hist:
                    # stable sort keeps the bucket order; history breaks ties among the rest
                    rest.sort(key=lambda q: -hist.get(q, 0) // 64)
                moves = front + rest

        original_alpha = alpha
        best_score, best_move = -WIN_SCORE - 1, -1
        first = True
        child_depth = depth - 1
        if len(moves) == 1:  # a single reply (the block of a five) costs no depth
            child_depth += SINGLE_REPLY_EXTENSION
        reduce_from = LMR_FROM if depth >= LMR_MIN_DEPTH and len(moves) > LMR_FROM + 1 else 999
        # Each search of a move goes through _child, which makes the move only when what
        # is known of the child does not decide it (make and unmake are most of the
        # search's time); the move is made when the history is longer than ``base``.
        base = len(board.history)
        for index, q in enumerate(moves):
            if board.wins_at(q, side):
                score = WIN_SCORE - ply - 1
            elif first:
                score = -self._child(q, child_depth, -beta, -alpha, ply + 1, base)
            else:
                if index >= reduce_from:
                    # late move reduction: a late move gets LMR_TABLE plies less unless it
                    # beats alpha, then it is searched again at full depth
                    r = LMR_TABLE[min(depth, 63)][min(index, 63)]
                    score = -self._child(q, child_depth - r, -alpha - 1, -alpha, ply + 1, base)
                    if score > alpha:
                        score = -self._child(q, child_depth, -alpha - 1, -alpha, ply + 1, base)
                else:
                    score = -self._child(q, child_depth, -alpha - 1, -alpha, ply + 1, base)
                if alpha < score < beta:
                    score = -self._child(q, child_depth, -beta, -alpha, ply + 1, base)
            if len(board.history) > base:
                board.unmake()
            first = False
            if score > best_score:
                best_score, best_move = score, q
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        killers = self.killers[ply]
                        if killers[0] != q:
                            killers[1] = killers[0]
                            killers[0] = q
                        self.history[q] = self.history.get(q, 0) + depth * depth
                        break
        if best_score <= original_alpha:
            bound = UPPER
        elif best_score >= beta:
            bound = LOWER
        else:
            bound = EXACT
        self.tt.store(key, depth, bound, score_to_tt(best_score, ply), best_move)
        return best_score

    def _child(self, q: int, depth: int, alpha: int, beta: int, ply: int, base: int) -> int:
        """_negamax(depth, alpha, beta, ply) of the position after move q of the side to
        move at ply - 1. Without making q when what is known of the child decides it
        (_decided at depth >= 1, _leaf below); else q is made (unless it is already:
        the history is longer than ``base``) and searched. The caller unmakes it."""
        board = self.board
        if len(board.history) == base:
            if depth > 0:
                score = self._decided(board.hash_after(q), depth, alpha, beta, ply)
            elif board.summary[q] & LINE_FOUR[board.side]:
                score = None  # q makes a four: the child has a five to block, on the board
            else:
                score = self._leaf(board.packed_after(q), 3 - board.side, alpha, beta, ply)
            if score is not None:
                return score
            board.make(q)
        return self._negamax(depth, alpha, beta, ply)

    def _leaf(self, packed: int, side: int, alpha: int, beta: int, ply: int) -> int | None:
        """The score _negamax at depth <= 0 gives a position not made, read off its packed
        total (Board.packed_after) and its side to move, counted as the nodes _negamax
        and then _quiesce would count; or None, with nothing counted, when the position
        needs the board: a five to block, fours to try, renju's forbidden check.

        Such a node returns quick_result, or at MAX_PLY the evaluation, or else (no five
        of the opponent's to block) goes to _quiesce, which stands pat on the evaluation
        when it reaches beta or when the side has no four to play: all read off the
        threat counts and sums in packed (quick_counts, evaluate_packed)."""
        quick = quick_counts(packed, side, ply, side == BLACK and self.board.rule is Rule.RENJU)
        if quick is NEEDS_BOARD:
            return None
        if quick is not None:
            score, counted = quick, 1
        elif ply >= MAX_PLY:
            score, counted = evaluate_packed(self.board.values, packed, side), 1
        else:
            if (packed >> FIELDS[3 - side][T_FIVE]) & THREAT_FIELD:
                return None  # _negamax extends the block of the five
            score, counted = evaluate_packed(self.board.values, packed, side), 2
            mine = FIELDS[side]
            if score < beta and (
                (packed >> mine[T_FOUR]) & THREAT_FIELD
                or (packed >> mine[T_FOUR_THREE]) & THREAT_FIELD
            ):
                return None  # _quiesce tries its fours (QS_FOURS > 0 below MAX_PLY)
        self._count(counted)
        return score

    def _decided(self, key: int, depth: int, alpha: int, beta: int, ply: int) -> int | None:
        """The score of the child node with Zobrist ``key`` (its move not made) when what
        this search already knows of its position decides it, counted as the node it
        is; else None, with nothing counted (the caller makes the move and calls
        _negamax). _negamax at the child would count the node, then:

        - return quick_result, when this search found it not None at that position
          (quick_known: it depends only on the position, and on ply as a distance);
        - else, at depth >= 1 below MAX_PLY, return at its transposition table look-up
          when the entry decides it. Only entries of this search are read
          (TranspositionTable.probe_current): each was stored by _negamax at that
          position after its quick_result found nothing."""
        known = self.quick_known.get(key)
        if known is not None:
            self._count(1)
            return score_from_tt(known, ply)
        if ply >= MAX_PLY:
            return None
        entry = self.tt.probe_current(key)
        if entry is None:
            return None
        e_depth, bound, e_score = entry
        if e_depth < depth:
            return None
        s = score_from_tt(e_score, ply)
        if not (
            bound == EXACT or (bound == LOWER and s >= beta) or (bound == UPPER and s <= alpha)
        ):
            return None
        self._count(1)
        return s

    def _count(self, nodes: int) -> None:
        """Count ``nodes`` nodes not searched on the board, one by one as _negamax and
        _quiesce count theirs (inline there): same totals, same stopping point."""
        for _ in range(nodes):
            self.nodes = n = self.nodes + 1
            if n > self.max_nodes or (
                not n % CHECK_EVERY and time.perf_counter() > self.hard_deadline
            ):
                raise SearchStopped

    # --- the horizon ------------------------------------------------------------------

    def _quiesce(self, alpha: int, beta: int, ply: int, fours: int, checked: bool = False) -> int:
        """VCF quiescence: stand pat on the evaluation or play one of our fours (at most
        ``fours`` more); a four's block is forced and costs nothing. ``checked``: the
        caller (_negamax, same position and ply) already found quick_result None."""
        self.nodes = nodes = self.nodes + 1  # count the node (as _negamax)
        if nodes > self.max_nodes or (
            not nodes % CHECK_EVERY and time.perf_counter() > self.hard_deadline
        ):
            raise SearchStopped
        board = self.board
        if not checked:
            quick = quick_result(board, ply)
            if quick is not None:
                return quick
        side = board.side
        mine = FIELDS[side]
        if (board.packed >> FIELDS[3 - side][T_FIVE]) & THREAT_FIELD:
            # exactly one (quick_result): block it
            q = five_cell(board, 3 - side)
            board.make(q)
            score = -self._quiesce(-beta, -alpha, ply + 1, fours)
            board.unmake()
            return score
        stand = evaluate(board)
        if stand >= beta or fours <= 0 or ply >= MAX_PLY:
            return stand
        packed = board.packed
        if not (
            (packed >> mine[T_FOUR]) & THREAT_FIELD or (packed >> mine[T_FOUR_THREE]) & THREAT_FIELD
        ):
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
        for q in four_cells(board, side):
            board.make(q)
            score = -self._quiesce(-beta, -alpha, ply + 1, fours - 1)
            board.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best
