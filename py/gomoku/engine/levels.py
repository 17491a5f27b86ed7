"""Levels for people: the engine made weaker in the ways a person is weak, and the same
opponent on every device.

The bottom rungs do not search at all: they play as a person who has just learnt the
rules (``habits``, gomoku.engine.novice): their own five always, their own lines mostly,
the opponent's four usually and its open three only sometimes (a chance per move of not
looking, growing toward the bottom). Their ``nodes`` is 0.

A level above them is a node budget plus a way of being wrong:

- it searches a fixed number of nodes (never a time), from clean tables, so the move
  depends only on the position, the level and the seed: the page on a phone, the page
  on a desktop and the brain in CPython play the same move;
- it sees short threats only (its own VCF / VCT searches reach ``vcf_depth`` /
  ``vct_depth`` attacker moves; 0: not looked for), and the weakest ones do not look
  for the opponent's threats before searching (``defence``): people see their own
  attack before the opponent's;
- it picks among its ``candidates`` best root moves (one multi-PV search, exact scores)
  the one whose score plus a random term of up to ``noise`` centi-units is highest, as
  Stockfish's Skill Level does: a weaker level plays a good-looking second or third move
  more often, rarely a bad one. Scores are clipped to +/- ``SCORE_CLIP`` first, so a won
  line still beats any noise and a lost one is avoided unless nothing else is left.

What is never wrong above the bottom rungs: a five is always made and a four always
blocked (the move generation offers nothing else there, so no choice is left to chance).

The randomness comes from the game's seed and the move number (``move_rng``), so a
game record that keeps its seed replays move for move. The top levels are the full
engine on the clock (``time_ms``: the page's Expert and Unlimited); they take no seed.

``play(engine, level, seed)`` chooses the move. Ratings (``Level.rating``) are measured
by ``python -m gomoku_lab.ladder`` (BENCHMARKS.md, "Levels"): Elo on a scale whose fixed
point is the lab's one-ply greedy player (``gomoku_lab.greedy``) at ``RATING_ANCHOR``
(800), as chess sites rate their weakest bots a few hundred points.

Older versions numbered the ladder from today's level 4 (``FORMER_SHIFT``: the rungs
added below it): the page maps stored level numbers of those versions (web/model/levels.js).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from gomoku.core.errors import GomokuError
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits, TimeKeywords
from gomoku.engine.novice import Habits, novice_move
from gomoku.engine.results import SearchResult, TopMove
from gomoku.game.evaluation import WIN_SCORE, WIN_THRESHOLD, evaluate

SCORE_CLIP = 1500  # centi-units: scores beyond are wins / losses for the choice
SAFETY_MS = 120_000  # a node-limited move's time cap: far beyond what its nodes take
RATING_ANCHOR = 800  # the greedy player's rating: the scale's fixed point
FORMER_SHIFT = 3  # rungs added below the former level 1 (the non-searching ones): old N is N + 3


class LevelError(GomokuError):
    """An unknown level number."""


@dataclass(frozen=True)
class Level:
    """One rung of the ladder. ``nodes`` None means a timed level (the full engine). The
    page names and describes it by its ``key`` (web/model/i18n-levels.js)."""

    number: int
    key: str
    nodes: int | None = None  # 0: no search (a bottom rung, played by its habits)
    depth: int | None = None  # a depth limit besides the nodes (the weakest levels)
    time_ms: int | None = None  # timed levels: the think time per move (0: unlimited)
    candidates: int = 1
    noise: int = 0
    vcf_depth: int | None = None
    vct_depth: int | None = None
    defence: bool = True
    book: bool = True
    habits: Habits | None = None  # a bottom rung's way of playing (nodes 0)
    rating: int | None = None  # Elo, the greedy player at RATING_ANCHOR (None: not yet)
    rating_error: int | None = None  # its 95% error

    @property
    def timed(self) -> bool:
        return self.nodes is None

    def limits(
        self, seed: int = 0, hard_ms: float | None = None, controls: TimeKeywords | None = None
    ) -> Limits:
        """The engine's limits for one move at this level (node levels only); ``seed``
        picks among close book replies; ``hard_ms`` lowers the safety cap; ``controls``, a
        protocol's time controls as ``Limits`` keywords (turn_ms, match_ms, time_left_ms),
        lower it too (the time manager makes them a safety cap: the nodes decide)."""
        if self.nodes is None:
            raise LevelError(f"level {self.number} is timed, not node-limited")
        return Limits(
            **(controls or {}),
            time_ms=None,
            hard_ms=SAFETY_MS if hard_ms is None else min(SAFETY_MS, hard_ms),
            nodes=self.nodes,
            depth=self.depth,
            use_book=self.book,
            seed=int(seed) & 0x7FFFFFFF,
            multipv=self.candidates,
            vcf_depth=self.vcf_depth,
            vct_depth=self.vct_depth,
            defence=self.defence,
        )

    def to_dict(self) -> dict:
        """The level as the page lists it (gomoku.protocol.page_data writes
        web/model/levels-data.js from this)."""
        return {
            "number": self.number,
            "key": self.key,
            "nodes": self.nodes,
            "depth": self.depth,
            "timeMs": self.time_ms,
            "rating": self.rating,
            "ratingError": self.rating_error,
        }


LEVELS: tuple[Level, ...] = (
    Level(
        1, "starter",
        nodes=0, book=False,
        habits=Habits(miss_four=0.4, miss_three=0.9, defence=0.3, pick=0.3, width=8,
                      sees_open_four=False),
        rating=243, rating_error=105,
    ),
    Level(
        2, "novice",
        nodes=0, book=False,
        habits=Habits(miss_four=0.2, miss_three=0.7, defence=0.3, pick=0.5, width=7,
                      sees_open_four=True),
        rating=473, rating_error=89,
    ),
    Level(
        3, "apprentice",
        nodes=0, book=False,
        habits=Habits(miss_four=0.0, miss_three=0.3, defence=0.5, pick=0.7, width=5,
                      sees_open_four=True),
        rating=637, rating_error=71,
    ),
    Level(
        4, "newcomer",
        nodes=3000, depth=1, candidates=12, noise=1200, vcf_depth=0, vct_depth=0, defence=False,
        book=False,
        rating=776, rating_error=76,
    ),
    Level(
        5, "beginner",
        nodes=400, candidates=6, noise=300, vcf_depth=2, vct_depth=0, defence=False,
        book=False,
        rating=996, rating_error=108,
    ),
    Level(
        6, "learner",
        nodes=800, candidates=5, noise=200, vcf_depth=3, vct_depth=0, defence=False,
        book=False,
        rating=1115, rating_error=127,
    ),
    Level(
        7, "casual",
        nodes=2500, candidates=3, noise=80, vcf_depth=6, vct_depth=2, book=False,
        rating=1207, rating_error=144,
    ),
    Level(
        8, "club",
        nodes=5000, candidates=2, noise=40, vcf_depth=10, vct_depth=3,
        rating=1285, rating_error=156,
    ),
    Level(
        9, "strong",
        nodes=12000, candidates=2, noise=10,
        rating=1432, rating_error=170,
    ),
    Level(
        10, "advanced",
        nodes=30000,
        rating=1579, rating_error=179,
    ),
    Level(
        11, "expert",
        time_ms=10000,
        rating=1811, rating_error=210,
    ),
    Level(
        12, "unlimited",
        time_ms=0,
    ),
)  # fmt: skip

BY_NUMBER = {lv.number: lv for lv in LEVELS}
DEFAULT_LEVEL = 1  # a first visit starts at the bottom


def level(number: object) -> Level:
    """The level with this number; LevelError (saying which exist) for anything else."""
    if isinstance(number, bool) or not isinstance(number, int) or number not in BY_NUMBER:
        raise LevelError(
            f"unknown level {number!r}: levels are {LEVELS[0].number}..{LEVELS[-1].number}"
        )
    return BY_NUMBER[number]


def move_rng(seed: int, ply: int) -> random.Random:
    """The random source of the move at ``ply`` (stones on the board) of a game with
    ``seed``: the same in every Python (Mersenne Twister from an integer seed)."""
    return random.Random((int(seed) & 0xFFFFFFFF) * 1_000_003 + ply)


def _clipped(score: int) -> int:
    if score >= WIN_THRESHOLD:
        return SCORE_CLIP + (score - WIN_THRESHOLD) // 1000  # a nearer win ranks higher
    if score <= -WIN_THRESHOLD:
        return -SCORE_CLIP - (-score - WIN_THRESHOLD) // 1000
    return max(-SCORE_CLIP + 1, min(SCORE_CLIP - 1, score))


def choose(top: list[TopMove], noise: int, rng: random.Random) -> TopMove:
    """The candidate with the highest clipped score plus a random term in [0, noise)
    (one draw per candidate, in the order given; ties go to the earlier one)."""
    if not top:
        raise ValueError("no candidate to choose from")
    best, best_value = top[0], None
    for line in top:
        value = _clipped(line.score) + (rng.random() * noise if noise > 0 else 0.0)
        if best_value is None or value > best_value:
            best, best_value = line, value
    return best


def play(
    engine: Engine,
    number: int,
    seed: int = 0,
    hard_ms: float | None = None,
    controls: TimeKeywords | None = None,
) -> SearchResult:
    """The move of level ``number`` in the engine's position (the engine's game is not
    changed). Node-limited levels start from clean tables, so the answer is a function of
    the position, the level and ``seed`` alone. Timed levels raise LevelError: the caller
    thinks with its own clock for those. ``hard_ms`` and a protocol's time ``controls``
    (``Level.limits``) cap the time (a safety cap only: reached, it would cut the search
    and the move would depend on the machine)."""
    lv = level(number)
    if lv.timed:
        raise LevelError(f"level {lv.number} ({lv.key}) is timed: think on the clock")
    if lv.habits is not None:
        board = engine.board
        q = novice_move(board, lv.habits, move_rng(seed, len(engine.moves)))
        point = board.point(q)
        # no search: the score the page shows is the static evaluation after the move, for
        # the mover (its five: a win in 1)
        board.make(q)
        score = WIN_SCORE - 1 if board.winner else -evaluate(board)
        board.unmake()
        return SearchResult(point, score, 0, 0, 0, [point], "level")
    engine.tt.clear()
    engine.threat_cache.clear()
    result = engine.think(lv.limits(seed, hard_ms, controls))
    if result.source != "search" or len(result.top) < 2:
        return result  # book, forced, a threat win, or a single candidate: no choice
    picked = choose(result.top, lv.noise, move_rng(seed, len(engine.moves)))
    if picked.move == result.move:
        return result
    return replace(
        result,
        move=picked.move,
        score=picked.score,
        pv=list(picked.pv),
        source="level",
    )


def main() -> int:
    """``python -m gomoku.engine.levels``: the ladder as a table (the page's copy,
    web/model/levels-data.js, is written by ``python -m gomoku.protocol.page_data``)."""
    for lv in LEVELS:
        budget = f"{lv.nodes} nodes" if lv.nodes else f"{lv.time_ms or 'unlimited'} ms"
        if lv.habits is not None:
            budget = f"no search, misses {lv.habits.miss_three:.0%} of threes"
        elif lv.depth is not None:
            budget = f"depth {lv.depth}"
        rating = "-" if lv.rating is None else f"{lv.rating} +/- {lv.rating_error}"
        print(f"{lv.number:>2} {lv.key:<10} {budget:<14} {rating}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
