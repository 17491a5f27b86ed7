"""Game review: every position of a game evaluated, every move classified.

Each position is searched at a fixed node budget from clean tables (the opening book
off), with the engine's threat search first, so the result is a function of the
position and the budget alone: the same on every device, in any order, after any
restart. The threat search decides the tactical moments exactly: a position whose side
to move wins by VCF or VCT is a certain win, a move that lets the opponent win so is
a move into a certain loss.

**Winning probability.** A score becomes the side to move's chance on the one curve of
gomoku.search.score (``chance``: the logistic the learned evaluation was fitted with, at
the rule's scale; the page's evaluation bar uses the same); a forced win is 1, a forced
loss 0, a finished game its result. The graph shows black's chance after every move. A
position whose side to move cannot stop the opponent's VCF or VCT (every move the engine
checks against it loses) is lost, whatever its search's score says.

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
Moves fixed by a rule or a record (``fixed``) are "opening": not judged.

**Proof** (the threat prover's questions are in proof.py). Reviewed at one budget, a
long forced win is seen late and the move after the one that lost is blamed, and an
evaluation's swing is no error. So:

- *walk back*: a position that is a proven win for its side to move is asked again 2,
  4, ... plies earlier, at higher threat limits, the moves played and the known line
  tried first; the first position where the win already existed marks the move that
  allowed it, and the positions since are won / lost;
- *second pass*: a mistake, blunder or missed win that no forced win proves is judged
  again from both positions searched deeper, and keeps its flag only if still flagged;
- *better moves that hold*: a better move is offered only when the prover shows that
  the opponent has no forced win after it (within the proof's limits; a candidate it
  could not settle is not offered either); a judged flag all of whose candidates lose
  by force was played in a lost position: that position is lost, the flag goes;
- every flag is ``proven`` (a forced win: a blunder into one, a missed one) or ``judged``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace

from gomoku.core.geometry import Point, to_text
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchResult
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD
from gomoku.review.proof import NO_WIN, WIN, after_move, forced_win
from gomoku.review.records import GameRecord
from gomoku.search.score import Score, chance

DEFAULT_NODES = 12000  # per position: a 40-move game in well under 30 s in the page
DEEP_NODES = 60000  # the page's "deep" review
SAFETY_MS = 120_000  # a position's time cap: far beyond what its nodes take
FORCED_PLIES = 8  # forced replies followed before a position is scored
DEEP_FACTOR = 2  # the second pass's nodes per position, times the first pass's
DEEP_MULTIPV = 3  # root moves the second pass scores: the better-move candidates
WALK_BACK_MOVES = 6  # how many of the winner's moves the walk back goes back at most
DEEP_VCF_DEPTH, DEEP_VCT_DEPTH = 16, 8  # the second pass's threat stage (attacker moves)

INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30
CLASSES = (
    "best", "good", "inaccuracy", "mistake", "blunder", "missed_win", "only_move", "opening"
)
FLAGGED = ("inaccuracy", "mistake", "blunder", "missed_win")
SERIOUS = ("mistake", "blunder", "missed_win")  # re-judged by the second pass unless proven
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "missed_win": "⨯", "only_move": "!"}


def forced_in(score: int) -> int | None:
    """+N: the side to move wins in N of its moves; -N: loses in N; None: not forced."""
    s = Score.of(score)
    return None if s.kind == "cp" else s.value if s.kind == "win" else -s.value


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
    # the lines of the root moves scored (multi-PV), best first: better-move candidates
    alternatives: list[list[Point]] = field(default_factory=list)
    proof: str | None = None  # "deep": the second pass's; "walk back": a proven win or loss

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
    proof: str | None = None  # a flagged move's basis: "proven" (a forced win) or "judged"
    no_better: bool = False  # flagged, and every candidate better move loses by force

    @property
    def flagged(self) -> bool:
        return self.cls in FLAGGED


class Reviewer:
    """Reviews one game in steps, position 0, 1, ... in order (``step``; ``run`` all).

    Step i evaluates position i (the first pass: clean tables, ``nodes`` nodes) and
    judges move i: a mistake, blunder or missed win that no forced win proves is judged
    again from both its positions searched deeper (the second pass: DEEP_FACTOR times the
    nodes, deeper threat stages) and keeps its flag only if the
    second pass flags it too; a flagged move's better move is offered only when the
    opponent has no forced win after it (else the next candidate, else none:
    ``no_better``). When position i is a proven win for its side to move, the walk back
    looks for the same win earlier (``_walk_back``) and judges the moves since again: a
    step may change earlier moves and chances (``step`` returns which). Everything is a
    function of the game, the budget and ``fixed`` alone (node limits, no clock)."""

    def __init__(self, record: GameRecord, nodes: int = DEFAULT_NODES, fixed: int = 0) -> None:
        if nodes < 1:
            raise ValueError(f"nodes must be positive, got {nodes}")
        if not 0 <= fixed <= len(record.moves):
            raise ValueError(f"fixed must be in 0..{len(record.moves)} (the moves), got {fixed}")
        self.record = record
        self.nodes = nodes
        self.fixed = fixed  # opening moves fixed by a rule or a record: not judged
        self.engine = Engine(record.size, record.rule, tt_bits=16)
        self.positions: dict[int, PositionEval] = {}  # the first pass
        self.deep: dict[int, PositionEval] = {}  # the second pass, where it was asked
        self.wins: dict[int, list[Point]] = {}  # the walk back's proven wins (side to move)
        self.lost: set[int] = set()  # positions inside a proven win whose side to move lost
        self.moves: dict[int, MoveReview] = {}  # the judgement so far
        self.after: dict[tuple[int, Point], str] = {}  # (position, move): the opponent's proof
        self.steps = 0  # positions 0 .. steps - 1 are reviewed

    def __len__(self) -> int:
        return len(self.record.moves)

    # The engine's board has the first mover as "black"; these give the real colours.
    def colour(self, engine_side: int) -> str:
        first = self.record.first
        other = "white" if first == "black" else "black"
        return first if engine_side == 1 else other

    # ---- the steps ------------------------------------------------------------------

    def step(self, index: int) -> tuple[list[int], list[int]]:
        """Review up to position ``index`` (the steps before it first, if not yet done).
        Returns (positions, moves) before ``index`` whose chance or judgement the last
        step changed (the page replaces them)."""
        if not 0 <= index <= len(self):
            raise IndexError(f"position {index} of a game of {len(self)} moves")
        changed: tuple[list[int], list[int]] = ([], [])
        while self.steps <= index:
            i = self.steps
            shown = {j: self.chance(j) for j in range(i)}
            judged = {j: self.moves[j] for j in range(1, i)}
            self._step(i)
            self.steps += 1
            changed = (
                [j for j in range(i) if self.chance(j) != shown[j]],
                [j for j in range(1, i) if self.moves[j] != judged[j]],
            )
        return changed

    def _step(self, i: int) -> None:
        pos = self.position(i)
        if i:
            lost = len(self.lost)
            self.moves[i] = self._judge(i)
            j = i - 1  # the positions judging changed (second pass, lost): their moves again
            while j >= 1 and (j in self.deep or j in self.lost):
                before = self.moves[j]
                self._rejudge(j, j)
                if self.moves[j] == before and len(self.lost) == lost:
                    break
                lost = len(self.lost)
                j -= 1
        eff = self.effective(i)
        if eff.forced is not None and eff.forced > 0:
            self._walk_back(i, list(eff.line))
        elif i and pos.over is None and pos.mover_chance() == 0.0 and pos.forced is None:
            self._lost_at(i)

    def _lost_at(self, k: int) -> None:
        """Position ``k``'s side to move is lost (every move checked loses to a threat):
        did the move before it win, i.e. did the opponent win by force in position k - 1
        (that move tried first)? If so, walk back from there."""
        if k - 1 in self.wins or k - 1 < self.fixed:
            return
        move = self.record.moves[k - 1]
        line = forced_win(self.engine, list(self.record.moves[: k - 1]), first=[move])
        if line is not None:
            self.wins[k - 1] = line
            self._walk_back(k - 1, line)
            self._rejudge(k - 1, k)

    def run(self) -> Iterator[tuple[PositionEval, MoveReview | None]]:
        """Every position and move, final (after the last step)."""
        self.step(len(self))
        for i in range(len(self) + 1):
            yield self.effective(i), (self.moves[i] if i else None)

    def move(self, index: int) -> MoveReview:
        """The final review of move ``index`` (1..len): the whole game is reviewed first
        (a later step's walk back may change a move)."""
        if not 1 <= index <= len(self):
            raise IndexError(f"move {index} of a game of {len(self)} moves")
        self.step(len(self))
        return self.moves[index]

    def chance(self, index: int) -> float:
        """Black's chance in position ``index`` as judged so far."""
        return self.effective(index).black

    def summary(self) -> dict[str, dict[str, int]]:
        return summary([self.move(i) for i in range(1, len(self) + 1)])

    # ---- positions ------------------------------------------------------------------

    def position(self, index: int) -> PositionEval:
        """The first pass's evaluation of position ``index``."""
        if not 0 <= index <= len(self):
            raise IndexError(f"position {index} of a game of {len(self)} moves")
        if index not in self.positions:
            self.positions[index] = self._evaluate(index, self.nodes, multipv=2)
        return self.positions[index]

    def deep_position(self, index: int) -> PositionEval:
        """The second pass's evaluation of position ``index``."""
        if index not in self.deep:
            pos = self._evaluate(
                index,
                self.nodes * DEEP_FACTOR,
                multipv=DEEP_MULTIPV,
                vcf_depth=DEEP_VCF_DEPTH,
                vct_depth=DEEP_VCT_DEPTH,
            )
            self.deep[index] = replace(pos, proof="deep")
        return self.deep[index]

    def effective(self, index: int, deep: bool = False) -> PositionEval:
        """Position ``index`` as the review judges it: the second pass's evaluation where
        there is one (``deep``: made if not), the first pass's otherwise, a win the walk
        back proved over both."""
        pos = self.deep_position(index) if deep else self.deep.get(index)
        pos = pos or self.position(index)
        if pos.over is not None:
            return pos
        black_moves = pos.to_move == "black"
        if index in self.wins:
            line = self.wins[index]
            return replace(
                pos,
                black=1.0 if black_moves else 0.0,
                score=WIN_SCORE - len(line),
                forced=(len(line) + 1) // 2,
                best=line[0],
                line=list(line),
                second=None,
                source="threat",
                alternatives=[list(line)],
                proof="walk back",
            )
        if index in self.lost:
            return replace(pos, black=0.0 if black_moves else 1.0, proof="walk back")
        return pos

    def _evaluate(
        self,
        index: int,
        nodes: int,
        multipv: int,
        vcf_depth: int | None = None,
        vct_depth: int | None = None,
    ) -> PositionEval:
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
            time_ms=None,
            hard_ms=SAFETY_MS,
            nodes=nodes,
            use_book=False,
            seed=0,
            multipv=multipv,
            vcf_depth=vcf_depth,
            vct_depth=vct_depth,
        )
        r = eng.think(limits)
        own = self._chance(r, limits)
        second = r.top[1].score if len(r.top) > 1 else None
        return PositionEval(
            index,
            to_move,
            own if to_move == "black" else 1.0 - own,
            score=r.score,
            forced=forced_in(r.score),
            best=tuple(r.move),
            line=[tuple(p) for p in r.pv],
            second=second,
            source=r.source,
            nodes=r.nodes,
            alternatives=[[tuple(p) for p in t.pv] or [tuple(t.move)] for t in r.top],
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
            own = 0.0 if eng.winner else 0.5  # a five: the side now to move has lost
        else:
            own = chance(r.score, self.record.rule)
            if r.lost_to is not None:
                own = 0.0  # the opponent's VCF / VCT, and no checked move stops it
        for _ in range(made):
            eng.undo()
        return 1.0 - own if flip else own

    # ---- judging ----------------------------------------------------------------------

    def _judge(self, index: int) -> MoveReview:
        """Move ``index``: classified from the positions as judged; a serious flag not
        proven by a forced win is judged again by the second pass; a flagged move gets a
        better move that does not lose by force (or none)."""
        played = self.record.moves[index - 1]
        before, after = self.effective(index - 1), self.effective(index)
        review = classify(before, after, played)
        if index <= self.fixed:
            review.cls, review.drop = "opening", 0.0
            review.better, review.line = None, []
            return review
        if review.cls in SERIOUS and not proven(review, before, after):
            before = self.effective(index - 1, deep=True)
            after = self.effective(index, deep=True)
            review = classify(before, after, played)
        if review.flagged:
            review.proof = "proven" if proven(review, before, after) else "judged"
            self._offer_better(review, index, before)
            if review.no_better and review.proof == "judged" and index - 1 > self.fixed:
                # every candidate loses by force: the position was lost before the move
                # (as a position is when every move checked against a threat loses)
                self.lost.add(index - 1)
                self._lost_at(index - 1)
                return self._judge(index)
        return review

    def _offer_better(self, review: MoveReview, index: int, before: PositionEval) -> None:
        """The first candidate (the position's lines, then the second pass's) after
        which the prover shows the opponent has no forced win; none if there is none
        (``no_better`` when every candidate loses by force). A proven win needs no
        check."""
        if before.forced is not None and before.forced > 0:
            review.better, review.line = before.best, list(before.line)
            return
        review.better, review.line = None, []
        played = tuple(review.move)
        tried: set[Point] = {played}
        all_lose = True
        sources = (lambda: before, lambda: self.effective(index - 1, deep=True))
        for source in (make() for make in sources):  # the second pass only if needed
            for line in source.alternatives or ([source.line] if source.line else []):
                move = tuple(line[0])
                if move in tried:
                    continue
                tried.add(move)
                status = self._after(index - 1, move)
                if status == NO_WIN:
                    review.better, review.line = move, [tuple(p) for p in line]
                    return
                all_lose = all_lose and status == WIN
        review.no_better = all_lose and len(tried) > 1

    def _after(self, index: int, move: Point) -> str:
        """After ``move`` in position ``index``: the opponent's forced win proved (WIN),
        disproved (NO_WIN) or not settled (UNKNOWN)."""
        key = (index, move)
        if key not in self.after:
            prefix = list(self.record.moves[:index])
            self.after[key] = after_move(self.engine, prefix, move)
        return self.after[key]

    def _walk_back(self, top: int, line: list[Point]) -> None:
        """Position ``top``'s side to move wins by force with ``line``: was that win
        there before? At top - 2, top - 4, ... (the same side to move) the threat search
        is asked again at the proof's limits, the moves played since and the known line
        tried first; the walk stops at the first position where it finds no win, at a
        win already known, or after WALK_BACK_MOVES positions. The positions in between
        become proven: the winner's wins, its opponent's positions lost, and their moves
        are judged again (the move into the first one is the move that allowed it)."""
        moves = self.record.moves
        earliest = top
        for _ in range(WALK_BACK_MOVES):
            p = earliest - 2
            if p < 0 or p in self.wins or self._proven_win(p):
                break
            hint = [*moves[p:top], *line]
            found = forced_win(self.engine, list(moves[:p]), first=hint)
            if found is None:
                break
            self.wins[p] = found
            earliest = p
        if earliest == top:
            return
        for p in range(earliest + 1, top, 2):
            self.lost.add(p)
        self._rejudge(earliest, top)

    def _proven_win(self, index: int) -> bool:
        pos = self.deep.get(index) or self.position(index)
        return pos.forced is not None and pos.forced > 0

    def _rejudge(self, first: int, last: int) -> None:
        """Judge the moves into positions first .. last again (their positions changed)."""
        for j in range(max(first, 1), min(last, self.steps) + 1):
            if j in self.moves:
                self.moves[j] = self._judge(j)


def proven(review: MoveReview, before: PositionEval, after: PositionEval) -> bool:
    """Does a forced win prove the flag: a missed win's win, or a blunder's loss (the
    opponent's forced win after it, or its five)?"""
    if review.cls == "missed_win":
        return before.forced is not None and before.forced > 0
    if review.cls == "blunder":
        if after.over is not None:
            return after.over != review.player
        return after.forced is not None and after.forced > 0
    return False


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
    # the engine's own move is judged like any other when it walked into a proven loss
    # (found later, by the walk back): the first pass did not see the win it allowed
    into_loss = chance_after == 0.0 and not lost_before and after.proof == "walk back"
    if is_best and not into_loss:
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


def score_dict(score: int | None) -> dict[str, int] | None:
    """A search's integer as data ({"cp": n} | {"win": n} | {"loss": n}), None as None."""
    return None if score is None else Score.of(score).to_dict()


def position_dict(pos: PositionEval) -> dict:
    """A position as JSON-ready data: points as [x, y], ``score`` and ``second`` as score
    data (gomoku.search.score; a forced win or loss is there, so ``forced`` is not)."""
    d = asdict(pos)
    del d["alternatives"], d["forced"]
    d["best"] = None if pos.best is None else list(pos.best)
    d["line"] = [list(p) for p in pos.line]
    d["black"] = round(pos.black, 4)
    d["score"], d["second"] = score_dict(pos.score), score_dict(pos.second)
    return d


def move_dict(m: MoveReview) -> dict:
    """A move review as JSON-ready data (points as [x, y])."""
    return {
        "index": m.index,
        "player": m.player,
        "move": list(m.move),
        "class": m.cls,
        "mark": MARKS.get(m.cls, ""),
        "before": round(m.before, 4),
        "after": round(m.after, 4),
        "drop": round(m.drop, 4),
        "better": None if m.better is None else list(m.better),
        "line": [list(p) for p in m.line],
        "proof": m.proof,
        "noBetter": m.no_better,
    }
