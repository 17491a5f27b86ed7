"""Game review: every position of a game evaluated, every move classified.

Each position is searched at a fixed node budget from clean tables (the opening book
off), with the engine's threat search first, so the result is a function of the
position and the budget alone: the same on every device, in any order, after any
restart. The threat search decides the tactical moments exactly: a position whose side
to move wins by VCF or VCT is a certain win, a move that lets the opponent win so is
a move into a certain loss.

**Winning probability.** A score s (centi-units, side to move) becomes the side to move's
chance 1 / (1 + exp(-s / scale)), the logistic curve the learned evaluation was fitted
with (``scale``: centi-units per logit unit in data/eval-<rule>.json, 200 for
freestyle); a forced win is 1, a forced loss 0, a finished game its result. The graph
shows black's chance after every move. A position whose side to move cannot stop the
opponent's VCF or VCT (every move the engine checks against it loses) is lost, whatever
its search's score says.

**Classes.** A move is judged by how much it lowered its mover's chance (before: the
position it was played in, with the best move; after: the position it made):

| class        | when                                                           | mark |
| ------------ | -------------------------------------------------------------- | ---- |
| best         | it is the engine's best move                                   |      |
| good         | the chance fell by less than 0.10                              |      |
| inaccuracy   | fell by 0.10 .. 0.20                                           | ?!   |
| mistake      | fell by 0.20 .. 0.30                                           | ?    |
| blunder      | fell by 0.30 or more, or the position was not lost and now the | ??   |
|              | opponent wins by force                                         |      |
| missed win   | the mover had a forced win and the move gave it up             | ⨯    |
| only move    | the engine's best, and every other move loses by force         | !    |

The thresholds are on the 0..1 scale of the chance (lichess states its own as 0.1 / 0.2 /
0.3 on a -1..1 scale, i.e. 0.05 / 0.10 / 0.15 here; Gomoku's evaluations at a review's
budget swing more from one position to the next, so ours are twice as wide). A flagged
move carries the engine's better move and its line (for a missed win, the winning line).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field

from gomoku.core.geometry import Point, to_text
from gomoku.engine.facade import Engine, Limits, SearchResult
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.patterns.weights import load_weights
from gomoku.review.records import GameRecord

DEFAULT_NODES = 12000  # per position: a 40-move game in well under 30 s in the page
DEEP_NODES = 60000  # the page's "deep" review
SAFETY_MS = 120_000  # a position's time cap: far beyond what its nodes take
FORCED_PLIES = 8  # forced replies followed before a position is scored

INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder", "missed_win", "only_move")
FLAGGED = ("inaccuracy", "mistake", "blunder", "missed_win")
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "missed_win": "⨯", "only_move": "!"}


def win_chance(score: int, scale: float) -> float:
    """The side to move's chance from a score (see the module doc)."""
    if score >= WIN_THRESHOLD:
        return 1.0
    if score <= -WIN_THRESHOLD:
        return 0.0
    x = max(-700.0, min(700.0, score / scale))  # exp stays finite
    return 1.0 / (1.0 + math.exp(-x))


def forced_in(score: int) -> int | None:
    """+N: the side to move wins in N of its moves; -N: loses in N; None: not forced."""
    if score >= WIN_THRESHOLD:
        return (WIN_SCORE - score + 1) // 2
    if score <= -WIN_THRESHOLD:
        return -((WIN_SCORE + score + 1) // 2)
    return None


@dataclass
class PositionEval:
    """A position after ``index`` moves, evaluated. Colours are the real ones (a game
    may start with white). ``black`` is black's chance; ``best`` / ``line`` the engine's
    move and line for the side to move (None / [] when the game is over)."""

    index: int
    to_move: str
    black: float
    score: int | None = None  # side to move's view; None when the game is over
    forced: int | None = None
    best: Point | None = None
    line: list[Point] = field(default_factory=list)
    second: int | None = None  # the second-best root move's score (None: none searched)
    source: str = ""
    over: str | None = None  # "black", "white" (the winner) or "draw"
    nodes: int = 0

    def mover_chance(self) -> float:
        """The side to move's chance."""
        return self.black if self.to_move == "black" else 1.0 - self.black


@dataclass
class MoveReview:
    """Move ``index`` (1-based) of the game, from position index-1 to position index."""

    index: int
    player: str
    move: Point
    cls: str
    before: float  # black's chance before the move
    after: float  # black's chance after it
    drop: float  # how much the mover's chance fell (0 if it rose)
    better: Point | None = None  # the engine's move, for a flagged move
    line: list[Point] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return self.cls in FLAGGED


class Reviewer:
    """Reviews one game: ``position(i)`` and ``move(i)`` on demand (cached), ``run()`` in
    order. Positions are independent of each other (clean tables each time)."""

    def __init__(self, record: GameRecord, nodes: int = DEFAULT_NODES) -> None:
        if nodes < 1:
            raise ValueError(f"nodes must be positive, got {nodes}")
        self.record = record
        self.nodes = nodes
        self.engine = Engine(record.size, record.rule, tt_bits=16)
        self.scale = float(load_weights(record.rule).scale)
        self.positions: dict[int, PositionEval] = {}
        self.moves: dict[int, MoveReview] = {}

    def __len__(self) -> int:
        return len(self.record.moves)

    # The engine's board has the first mover as "black"; these give the real colours.
    def colour(self, engine_side: int) -> str:
        first = self.record.first
        other = "white" if first == "black" else "black"
        return first if engine_side == 1 else other

    def position(self, index: int) -> PositionEval:
        if not 0 <= index <= len(self):
            raise IndexError(f"position {index} of a game of {len(self)} moves")
        if index not in self.positions:
            self.positions[index] = self._evaluate(index)
        return self.positions[index]

    def _evaluate(self, index: int) -> PositionEval:
        eng = self.engine
        eng.set_position(list(self.record.moves[:index]))
        to_move = self.colour(eng.side_to_move)
        if eng.winner:
            winner = self.colour(eng.winner)
            return PositionEval(index, to_move, 1.0 if winner == "black" else 0.0, over=winner)
        if eng.board.is_full():
            return PositionEval(index, to_move, 0.5, over="draw")
        eng.tt.clear()
        eng.threat_cache.clear()
        limits = Limits(
            time_ms=None, hard_ms=SAFETY_MS, nodes=self.nodes, use_book=False, seed=0, multipv=2
        )
        r = eng.think(limits)
        chance = self._chance(r, limits)
        second = r.top[1].score if len(r.top) > 1 else None
        return PositionEval(
            index,
            to_move,
            chance if to_move == "black" else 1.0 - chance,
            score=r.score,
            forced=forced_in(r.score),
            best=tuple(r.move),
            line=[tuple(p) for p in r.pv],
            second=second,
            source=r.source,
            nodes=r.nodes,
        )

    def _chance(self, r: SearchResult, limits: Limits) -> float:
        """The side to move's chance from its think. A forced reply (the only block of a
        five) is scored by the engine without a search: the position after it is searched
        instead (and after its forced reply, and so on, up to FORCED_PLIES)."""
        eng = self.engine
        made = 0
        flip = False
        while r.source == "forced" and made < FORCED_PLIES and r.score < WIN_THRESHOLD:
            eng.play(*r.move)
            made += 1
            flip = not flip
            if eng.winner or eng.board.is_full():
                r = None
                break
            eng.tt.clear()
            eng.threat_cache.clear()
            r = eng.think(limits)
        if r is None:  # the forced reply ended the game
            chance = 0.0 if eng.winner else 0.5  # a five: the side now to move has lost
        else:
            chance = win_chance(r.score, self.scale)
            if r.lost_to is not None:
                chance = 0.0  # the opponent's VCF / VCT, and no checked move stops it
        for _ in range(made):
            eng.undo()
        return 1.0 - chance if flip else chance

    def move(self, index: int) -> MoveReview:
        """The review of move ``index`` (1..len)."""
        if not 1 <= index <= len(self):
            raise IndexError(f"move {index} of a game of {len(self)} moves")
        if index not in self.moves:
            self.moves[index] = classify(
                self.position(index - 1), self.position(index), self.record.moves[index - 1]
            )
        return self.moves[index]

    def run(self) -> Iterator[tuple[PositionEval, MoveReview | None]]:
        """Every position in order, each with the move that led to it (None for the
        first): the stream the command line prints and the page shows."""
        for i in range(len(self) + 1):
            yield self.position(i), (self.move(i) if i else None)

    def summary(self) -> dict[str, dict[str, int]]:
        return summary([self.move(i) for i in range(1, len(self) + 1)])


def classify(before: PositionEval, after: PositionEval, played: Point) -> MoveReview:
    """The class of the move ``played`` from position ``before`` to ``after`` (see the
    module doc)."""
    mover = before.to_move
    chance_before = before.mover_chance()
    chance_after = after.black if mover == "black" else 1.0 - after.black
    drop = max(0.0, chance_before - chance_after)
    review = MoveReview(after.index, mover, tuple(played), "good", before.black, after.black, drop)
    is_best = before.best is not None and tuple(played) == tuple(before.best)
    lost_before = chance_before == 0.0
    won_before = chance_before == 1.0
    if is_best:
        only = (
            before.second is not None
            and before.second <= -WIN_THRESHOLD
            and not lost_before
            and before.source == "search"
        )
        review.cls = "only_move" if only else "best"
        review.drop = 0.0
        return review
    if won_before and chance_after < 1.0:
        review.cls = "missed_win"
    elif chance_after == 0.0 and not lost_before:
        review.cls = "blunder"
    elif drop >= BLUNDER:
        review.cls = "blunder"
    elif drop >= MISTAKE:
        review.cls = "mistake"
    elif drop >= INACCURACY:
        review.cls = "inaccuracy"
    if review.flagged:
        review.better = before.best
        review.line = list(before.line)
    return review


def summary(moves: list[MoveReview]) -> dict[str, dict[str, int]]:
    """Per colour, how many moves of each flagged class (and "only_move")."""
    out = {c: {k: 0 for k in (*FLAGGED, "only_move")} for c in ("black", "white")}
    for m in moves:
        if m.cls in out[m.player]:
            out[m.player][m.cls] += 1
    return out


def point_text(p: Point | None, size: int) -> str | None:
    return None if p is None else to_text(p[0], p[1], size)


def position_dict(pos: PositionEval, size: int) -> dict:
    """A position as JSON-ready data (points as [x, y] and as "h8")."""
    d = asdict(pos)
    d["best"] = None if pos.best is None else list(pos.best)
    d["bestText"] = point_text(pos.best, size)
    d["line"] = [list(p) for p in pos.line]
    d["lineText"] = " ".join(point_text(p, size) for p in pos.line)
    d["black"] = round(pos.black, 4)
    return d


def move_dict(m: MoveReview, size: int) -> dict:
    """A move review as JSON-ready data."""
    return {
        "index": m.index,
        "player": m.player,
        "move": list(m.move),
        "moveText": point_text(m.move, size),
        "class": m.cls,
        "mark": MARKS.get(m.cls, ""),
        "before": round(m.before, 4),
        "after": round(m.after, 4),
        "drop": round(m.drop, 4),
        "better": None if m.better is None else list(m.better),
        "betterText": point_text(m.better, size),
        "line": [list(p) for p in m.line],
        "lineText": " ".join(point_text(p, size) for p in m.line),
    }
