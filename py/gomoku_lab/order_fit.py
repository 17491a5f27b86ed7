"""Fit the move-ordering scorer to the moves deeper searches chose (``gomoku_lab.order_fit``).

The search orders a quiet node's candidates (movegen.generate) by threat bucket, then by
a score per cell. That score is a function of the cell's two one-side summaries (the
multiset of the mover's 4 direction classes, and the opponent's: patterns.py, 715
each), the same per-cell features the evaluation reads:

    score(cell) = OWN[s_mover(cell)] + OPP[s_other(cell)]

Each table is an additive part (a weight per pattern class, times how often the summary
has it) plus a residual under an L2 penalty, as in the evaluation's fit (tune.py): rare
summaries stay near the additive model.

The fit is a softmax over the candidates of a position (a multinomial logistic
regression): it maximises the log-probability of the move a search of 10,000 nodes or
more played in a recorded game. Positions are those where generate returns a quiet list
(no five, no open four, no four-or-better threat to answer: there the order is forced)
with more than one move and the move played among them.

Commands::

    python -m gomoku_lab.order_fit fit GAMES.jsonl [...] [--out PATH] [--holdout 0.15]
    python -m gomoku_lab.order_fit check GAMES.jsonl [...] [--weights PATH]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gomoku.core.rules import Rule, parse_rule
from gomoku.game.board import Board
from gomoku.patterns.order_weights import LAST_CATEGORIES, OrderWeights
from gomoku.patterns.tables import SIDE_MASK, SIDE_SHIFT
from gomoku.patterns.weights import SUMMARY_INDEX, SUMMARY_THREAT, THREAT_CLASSES
from gomoku.search import movegen
from gomoku_lab.tune import (
    MIN_PLY,
    N_SUMMARIES,
    _record_moves,
    class_counts,
    lbfgs,
    read_games,
    split_by_game,
)

SCORE_UNIT = 256  # integer ordering units per logit unit in the shipped file


@dataclass
class OrderData:
    """Candidates of the quiet positions, flattened: position p's candidates are
    ``start[p] .. start[p + 1] - 1``, its chosen one ``start[p] + chosen[p]``."""

    own: np.ndarray  # candidate -> mover's summary index
    opp: np.ndarray  # candidate -> opponent's summary index
    start: np.ndarray  # position -> first candidate (and one past the last at the end)
    chosen: np.ndarray  # position -> index of the played move among its candidates
    game: np.ndarray  # position -> game index
    key: np.ndarray  # candidate -> the shipped ordering key (bucket * scale + score)
    last: np.ndarray  # candidate -> LAST_CATEGORIES * (to own last) + (to opponent's last)

    @property
    def positions(self) -> int:
        return len(self.chosen)

    def subset(self, mask: np.ndarray) -> OrderData:
        """The positions where mask is True (renumbered), with their candidates."""
        mask = np.asarray(mask, dtype=bool)
        counts = np.diff(self.start)
        on = np.repeat(mask, counts)  # candidate -> is its position kept
        start = np.concatenate([[0], np.cumsum(counts[mask])]).astype(np.int64)
        return OrderData(
            self.own[on], self.opp[on], start, self.chosen[mask], self.game[mask],
            self.key[on], self.last[on],
        )  # fmt: skip


def quiet_candidates(board: Board) -> list[int] | None:
    """The candidates of a quiet position in movegen's order (unpruned), or None when the
    position is forced (generate returns fewer moves than it considers)."""
    moves = movegen.generate(board, None)
    if len(moves) <= 1 or len(moves) != len(movegen.ranked(board)):
        return None
    return moves


def build_data(records: Iterable[dict], rule: Rule, min_level: int = 6) -> OrderData:
    """Replay the games; keep each quiet position with the move played. Moves of a
    level below ``min_level`` (the ladder's weaker, noisy players) are not used."""
    own, opp, key, last, start, chosen, game = [], [], [], [], [0], [], []
    for gi, rec in enumerate(records):
        if parse_rule(rec.get("rule", "freestyle")) != rule:
            continue
        size = int(rec.get("size", 15))
        board = Board(size, rule)
        weak = _weak_colours(rec, min_level)
        for x, y in _record_moves(rec, size):
            if board.winner:
                break
            p = board.layout.index(x, y)
            if board.ply >= MIN_PLY and board.side not in weak:
                moves = quiet_candidates(board)
                if moves is not None and p in moves:
                    o = 0 if board.side == 1 else 2
                    for q in moves:
                        s = board.summary[q]
                        mine, theirs = s & SIDE_MASK, (s >> SIDE_SHIFT) & SIDE_MASK
                        if board.side == 2:
                            mine, theirs = theirs, mine
                        own.append(SUMMARY_INDEX[mine])
                        opp.append(SUMMARY_INDEX[theirs])
                        key.append(movegen.cell_key(s)[o] + movegen.last_bonus(board, q))
                        last.append(
                            LAST_CATEGORIES * movegen.last_category(board, q, 2)
                            + movegen.last_category(board, q, 1)
                        )
                    start.append(start[-1] + len(moves))
                    chosen.append(moves.index(p))
                    game.append(gi)
            board.play(x, y)
    columns = (own, opp, start, chosen, game, key, last)
    return OrderData(*(np.array(c, dtype=np.int64) for c in columns))


def _weak_colours(rec: dict, min_level: int) -> set[int]:
    """Colours (1 black, 2 white) played by a level below min_level in a ladder record."""
    weak = set()
    for colour, name in ((1, rec.get("black")), (2, rec.get("white"))):
        level = rec.get("level1" if name == "engine1" else "level2")
        if level is not None and int(level) < min_level:
            weak.add(colour)
    return weak


# --- the model ---------------------------------------------------------------------------


def position_of_candidate(data: OrderData) -> np.ndarray:
    return np.repeat(np.arange(data.positions), np.diff(data.start))


def softmax_loss(scores: np.ndarray, data: OrderData) -> tuple[float, np.ndarray]:
    """Mean negative log-probability of the chosen moves and its gradient in the scores."""
    pos = position_of_candidate(data)
    first = data.start[:-1]
    top = np.maximum.reduceat(scores, first)
    e = np.exp(scores - top[pos])
    total = np.add.reduceat(e, first)
    prob = e / total[pos]
    picked = first + data.chosen
    loss = float(np.mean(np.log(total) + top - scores[picked]))
    grad = prob.copy()
    grad[picked] -= 1.0
    return loss, grad / data.positions


N_THREAT_PAIRS = THREAT_CLASSES * THREAT_CLASSES
N_LAST = LAST_CATEGORIES * LAST_CATEGORIES


@dataclass
class OrderModel:
    """Real-valued scorer (logit units): per summary tables, a table of the (mover's,
    opponent's) threat class pair, and a table of where the cell lies from the last two
    stones (zero when not fitted)."""

    own: np.ndarray  # (N_SUMMARIES,)
    opp: np.ndarray
    pair: np.ndarray  # (N_THREAT_PAIRS,)
    last: np.ndarray  # (N_LAST,)

    def scores(self, data: OrderData) -> np.ndarray:
        own, opp = self.own[data.own], self.opp[data.opp]
        return own + opp + self.pair[threat_pair_index(data)] + self.last[data.last]


SUMMARY_THREAT_A = np.array(SUMMARY_THREAT, dtype=np.int64)


def threat_pair_index(data: OrderData) -> np.ndarray:
    """candidate -> mover's threat class * THREAT_CLASSES + the opponent's."""
    return SUMMARY_THREAT_A[data.own] * THREAT_CLASSES + SUMMARY_THREAT_A[data.opp]


def fit(
    data: OrderData,
    iterations: int = 200,
    residual_l2: float = 1e-4,
    pair: bool = False,
    last: bool = False,
    out=print,
) -> OrderModel:
    """Fit the scorer by L-BFGS on the softmax cross-entropy; ``pair`` and ``last`` add
    the threat-pair and last-stones tables."""
    counts = class_counts()  # (S, C)
    c = counts.shape[1]
    sizes = (c, c, N_SUMMARIES, N_SUMMARIES, N_THREAT_PAIRS, N_LAST)
    l2 = np.concatenate(
        [
            np.full(c, 1e-6),
            np.full(c, 1e-6),
            np.full(N_SUMMARIES, residual_l2),
            np.full(N_SUMMARIES, residual_l2),
            np.full(N_THREAT_PAIRS, 1e-4),
            np.full(N_LAST, 1e-6),
        ]
    )
    bounds = np.cumsum((0,) + sizes)
    mask = np.ones(len(l2))
    if not pair:
        mask[bounds[4] : bounds[5]] = 0
    if not last:
        mask[bounds[5] : bounds[6]] = 0
    pair_index = threat_pair_index(data)

    def model(theta: np.ndarray) -> OrderModel:
        a, d, ro, rp, pt, lt = (theta[bounds[i] : bounds[i + 1]] for i in range(6))
        return OrderModel(counts @ a + ro, counts @ d + rp, pt, lt)

    def loss_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        theta = theta * mask
        loss, g = softmax_loss(model(theta).scores(data), data)
        g_own = np.bincount(data.own, weights=g, minlength=N_SUMMARIES)
        g_opp = np.bincount(data.opp, weights=g, minlength=N_SUMMARIES)
        grad = np.concatenate(
            [
                counts.T @ g_own,
                counts.T @ g_opp,
                g_own,
                g_opp,
                np.bincount(pair_index, weights=g, minlength=N_THREAT_PAIRS),
                np.bincount(data.last, weights=g, minlength=N_LAST),
            ]
        )
        return loss + 0.5 * float(l2 @ (theta * theta)), (grad + l2 * theta) * mask

    theta = lbfgs(loss_and_grad, np.zeros(len(l2)), iterations, out=out)
    return model(theta * mask)


def rank_stats(scores: np.ndarray, data: OrderData) -> dict[str, float]:
    """How the chosen move ranks under an ordering (higher score first; ties count
    against it): top-1 rate, share in the first 3 / 9 / 14, mean rank (1 = first)."""
    ranks = np.empty(data.positions, dtype=np.int64)
    for p in range(data.positions):
        a, b = data.start[p], data.start[p + 1]
        s = scores[a:b]
        ranks[p] = int(np.sum(s >= s[data.chosen[p]]))
    return {
        "top1": float(np.mean(ranks == 1)),
        "top3": float(np.mean(ranks <= 3)),
        "top9": float(np.mean(ranks <= 9)),
        "top14": float(np.mean(ranks <= 14)),
        "mean_rank": float(np.mean(ranks)),
    }


def to_weights(model: OrderModel, rule: Rule, note: str) -> OrderWeights:
    """Integer tables (SCORE_UNIT per logit unit), each shifted to be >= 0 (a constant
    does not change an order)."""

    def ints(a: np.ndarray) -> list[int]:
        v = np.round(a * SCORE_UNIT).astype(np.int64)
        return (v - v.min()).tolist()

    return OrderWeights(
        rule,
        SCORE_UNIT,
        ints(model.own),
        ints(model.opp),
        ints(model.pair),
        ints(model.last),
        note,
    )


def from_weights(w: OrderWeights) -> OrderModel:
    """The model of integer tables (in their own units)."""
    return OrderModel(*(np.array(a, dtype=np.float64) for a in (w.own, w.opp, w.pair, w.last)))


def bucketed(scores: np.ndarray, data: OrderData, lowest: int = 0) -> np.ndarray:
    """The learned scores under movegen's buckets (the bucket decides first); buckets
    below ``lowest`` count as one."""
    bucket = data.key // movegen.BUCKET_SCALE
    return np.where(bucket >= lowest, bucket, 0) * 1e6 + scores


def _report(name: str, stats: dict[str, float], out=print) -> None:
    out(
        f"{name:34s} top1 {stats['top1']:.3f}  top3 {stats['top3']:.3f}  "
        f"top9 {stats['top9']:.3f}  top14 {stats['top14']:.3f}  mean rank {stats['mean_rank']:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gomoku_lab.order_fit", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit", help="fit the ordering tables to recorded games")
    f.add_argument("games", nargs="+")
    f.add_argument("--rule", default="freestyle")
    f.add_argument("--out", default=None, help="weights file (default: none written)")
    f.add_argument("--holdout", type=float, default=0.15)
    f.add_argument("--iterations", type=int, default=200)
    f.add_argument("--residual-l2", type=float, default=1e-4)
    f.add_argument("--min-level", type=int, default=6)
    f.add_argument("--pair", action="store_true", help="fit a threat-class pair table too")
    f.add_argument("--last", action="store_true", help="fit a last-two-stones table too")
    c = sub.add_parser("check", help="rank statistics of the shipped ordering on games")
    c.add_argument("games", nargs="+")
    c.add_argument("--rule", default="freestyle")
    c.add_argument("--min-level", type=int, default=6)
    args = ap.parse_args(argv)
    rule = parse_rule(args.rule)
    data = build_data(read_games(args.games), rule, args.min_level)
    print(
        f"{data.positions} quiet positions, {len(data.own)} candidates, "
        f"{len(np.unique(data.game))} games"
    )
    if args.cmd == "check":
        _report("shipped ordering", rank_stats(data.key.astype(np.float64), data))
        return 0
    train, held = split_by_game(data, args.holdout)
    print(f"fit on {train.positions} positions, {held.positions} held out")
    model = fit(train, args.iterations, args.residual_l2, args.pair, args.last)
    for name, part in (("train", train), ("held out", held)):
        loss, _ = softmax_loss(model.scores(part), part)
        base, _ = softmax_loss(np.zeros(len(part.own)), part)
        print(f"{name}: softmax loss {loss:.4f} (uniform {base:.4f})")
    _report("held out: shipped key", rank_stats(held.key.astype(np.float64), held))
    learned = model.scores(held)
    _report("held out: learned, no buckets", rank_stats(learned, held))
    _report("held out: learned within buckets", rank_stats(bucketed(learned, held), held))
    _report(
        "held out: learned, buckets >= double",
        rank_stats(bucketed(learned, held, movegen.B_DOUBLE), held),
    )
    if args.out:
        note = (
            f"fitted by gomoku_lab.order_fit on {data.positions} quiet positions of "
            f"{len(np.unique(data.game))} games ({', '.join(Path(g).name for g in args.games)})"
        )
        to_weights(model, rule, note).save(Path(args.out))
        print(f"wrote {args.out}")
    if args.last:
        print("last-stones table (rows: to own last stone; columns: to the opponent's):")
        print(np.round(model.last.reshape(LAST_CATEGORIES, LAST_CATEGORIES), 2))
    if args.pair:
        print("threat pair table (rows: mover's class; columns: opponent's):")
        print(np.round(model.pair.reshape(THREAT_CLASSES, THREAT_CLASSES), 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
