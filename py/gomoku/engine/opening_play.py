"""The engine's part in an opening rule (gomoku.game.opening_rules): the stones it proposes
and the choices it makes, from its own evaluation of the position from each side.

Everything it knows of a position comes from an :data:`Evaluator`: the best ``k`` moves of
the side to move with their scores (that side's view), from a small search
(:func:`engine_evaluator`: ``Engine.think`` at a node budget, multi-PV, no book). Chances
are the one curve of gomoku.search.score. The decisions, phase by phase:

- **Opening stones** (swap2's three, Soosõrv-8's opening): drawn with the game's seed from
  the set the lab judged balanced with Rapfi (``OPENING_SETS_FILE``, written by
  gomoku_lab.opening_sets), under one of the 8 symmetries, centred on the board.
- **swap2, the second player** (three stones, white to move): white's chance after its
  best move; above 1/2 + BALANCED it takes white (and plays the fourth stone as its next
  move), below 1/2 - BALANCED black; in between it cannot tell the sides apart and places
  two more: of white's best CANDIDATES moves and, after each, black's best CANDIDATES
  replies, the pair whose position (white to move) is closest to even.
- **swap2, the first player** (five stones): the side whose chance is at least 1/2.
- **Soosõrv-8**: at the first swap the side its search prefers (white's best move's chance
  at least 1/2: white; as Rapfi decides swap2's swaps). As white, the 4th move and the
  number of 5th moves that make the position closest to even: white will choose the 5th
  move worst for black among black's best N, so the position is worth black's N-th best
  5th move (its best MAX_OFFERS, symmetrical ones counted once); of white's best
  CANDIDATES 4th moves and N = 1..8 the pair closest to even. At the second swap black
  keeps black when its N-th best 5th move's chance is at least 1/2. Black offers its best
  N 5th moves, none symmetrical to another (more from the cells near the stones if the
  search gave fewer). White chooses the offer after which its own best move scores best.

:func:`decide` returns the actions of the player who acts, up to where another acts or
the opening is over (swap2's "two" with its two stones; Soosõrv's 4th move with its number;
black's "keep black" with its offers).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from gomoku.core.geometry import Point, from_text, transform
from gomoku.core.rules import Rule, parse_rule
from gomoku.core.symmetry import unique_moves
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.game.opening_rules import (
    BLACK,
    DECLARE,
    MAX_OFFERS,
    PLACE,
    SELECT,
    SOOSORV8,
    SWAP2,
    TWO,
    WHITE,
    Action,
    OpeningError,
    OpeningState,
    apply,
)
from gomoku.search.score import chance

OPENING_SETS_FILE = Path(__file__).resolve().parents[1] / "data" / "opening-sets.txt"
SET_SIZE = 15  # the sets are written on 15x15 (h8 the centre)
BALANCED = 0.08  # swap2: a chance within this of 1/2 is a position the engine calls even
CANDIDATES = 4  # moves looked at per side when the engine places stones to balance

Scored = tuple[Point, int]  # a move and its score, the side to move's view
# The best k moves of the side to move after ``moves`` (black first), best first, with
# their scores (the side to move's view): at least one, at most k.
Evaluator = Callable[[Sequence[Point], int], list[Scored]]


# --- the sets ---------------------------------------------------------------------------------


def parse_opening_sets(text: str) -> dict[Rule, list[tuple[Point, ...]]]:
    """The sets' file: one opening per line, ``RULE MOVES # comment`` (moves on 15x15,
    black first); ValueError naming the line for anything else (a swap2 opening is three
    stones; renju's must be one of the 26 openings' shape: checked by the state
    machine)."""
    sets: dict[Rule, list[tuple[Point, ...]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        try:
            rule = parse_rule(body[0])
            moves = tuple(from_text(word, SET_SIZE) for word in body[1:])
            state = OpeningState(SOOSORV8 if rule is Rule.RENJU else SWAP2, SET_SIZE, rule)
            for p in moves:
                state = apply(state, Action(PLACE, p))
            if len(moves) != 3:
                raise ValueError(f"{len(moves)} stones, not 3")
        except (ValueError, OpeningError) as exc:
            raise ValueError(f"opening sets, line {number}: {exc}") from None
        sets.setdefault(rule, []).append(moves)
    return sets


@cache
def opening_sets() -> dict[Rule, list[tuple[Point, ...]]]:
    """The shipped sets (OPENING_SETS_FILE), read once."""
    return parse_opening_sets(OPENING_SETS_FILE.read_text(encoding="utf-8"))


def proposed_stones(
    rule: Rule, size: int, seed: int, sets: dict[Rule, list[tuple[Point, ...]]] | None = None
) -> list[Point]:
    """The three opening stones for a game under ``rule`` on ``size``: a set entry and a
    symmetry drawn with ``seed``, moved so that the set's centre is the board's."""
    sets = opening_sets() if sets is None else sets
    entries = sets.get(parse_rule(rule))
    if not entries:
        raise ValueError(f"no opening set for {parse_rule(rule).label}")
    rng = random.Random(seed)
    entry = entries[rng.randrange(len(entries))]
    k = rng.randrange(8)
    shift = size // 2 - SET_SIZE // 2
    return [(tx + shift, ty + shift) for tx, ty in (transform(k, x, y, SET_SIZE) for x, y in entry)]


# --- the search --------------------------------------------------------------------------------


def engine_evaluator(engine: Engine, limits: Limits) -> Evaluator:
    """An Evaluator on ``engine``: its think (without the book, so that the scores are a
    search's) at ``limits`` asking for the best k moves. It moves the engine's position:
    the caller sets its own again."""

    def evaluate(moves: Sequence[Point], k: int) -> list[Scored]:
        engine.set_position(list(moves))
        result = engine.think(replace(limits, multipv=k, use_book=False))
        return [(t.move, t.score) for t in result.top[:k]] or [(result.move, result.score)]

    return evaluate


# --- the decisions -----------------------------------------------------------------------------


def _even(score: int, rule: Rule) -> float:
    """How far from even a score is: |chance - 1/2|."""
    return abs(chance(score, rule) - 0.5)


def _distinct(state: OpeningState, moves: Sequence[Scored]) -> list[Scored]:
    """The moves without symmetrical repeats (symmetries of the stones on the board)."""
    stones = state.stones
    kept = unique_moves([m for m, _ in moves], stones[0::2], stones[1::2], state.size)
    first = {}
    for m, s in moves:
        first.setdefault(m, s)
    return [(m, first[m]) for m in kept]


class _Decider:
    """One player's decisions in one opening: the evaluation, the game's seed, the sets,
    and the notes it leaves (a sentence per decision, for the brain's MESSAGE lines)."""

    def __init__(self, evaluate: Evaluator, seed: int, sets, notes: list[str]) -> None:
        self.evaluate = evaluate
        self.seed = seed
        self.sets = sets
        self.notes = notes

    def best(self, state: OpeningState, moves: Sequence[Point] | None = None) -> float:
        """The side to move's chance after its best move (the stones, or ``moves``)."""
        score = self.evaluate(state.stones if moves is None else moves, 1)[0][1]
        return chance(score, state.game_rule)

    def actions(self, state: OpeningState) -> list[Action]:
        phase = state.phase
        if phase == "open":
            return self.open(state)
        if phase == "choose":
            return self.swap2_choice(state)
        if phase == "two":
            return self.two_stones(state)
        if phase in ("final", "swap"):  # white to move: the side the search prefers
            white = self.best(state)
            self.notes.append(f"white's chance after its best move {white:.2f}")
            return [Action(WHITE if white >= 0.5 else BLACK)]
        if phase == "fourth":
            return self.fourth_and_count(state)
        if phase == "declare":  # the 4th stone placed elsewhere: the count that balances
            fifths = self.fifths(state)
            n = min(range(1, MAX_OFFERS + 1), key=lambda k: (self.off(fifths, k, state), k))
            return [Action(DECLARE, n=n)]
        if phase == "second-swap":  # black to move, worth its n-th best 5th move
            black = chance(_nth_best(self.fifths(state), state.n or 1), state.game_rule)
            self.notes.append(f"black's chance with its {state.n} best 5th moves {black:.2f}")
            return [Action(BLACK if black >= 0.5 else WHITE)]
        if phase == "offer":
            return self.offers(state)
        if phase == "select":
            return self.select(state)
        raise ValueError(f"nothing to decide: {state.asks()}")

    def fifths(self, state: OpeningState) -> list[Scored]:
        """Black's best 5th moves, symmetrical ones counted once."""
        return _distinct(state, self.evaluate(state.stones, MAX_OFFERS))

    @staticmethod
    def off(fifths: list[Scored], n: int, state: OpeningState) -> float:
        """How far from even black's n-th best 5th move is."""
        return _even(_nth_best(fifths, n), state.game_rule)

    def open(self, state: OpeningState) -> list[Action]:
        if not state.stones:
            stones = proposed_stones(state.game_rule, state.size, self.seed, self.sets)
            return [Action(PLACE, p) for p in stones]
        # (only when the opening's first stones came from elsewhere) the search's best
        actions = []
        probe = state
        while probe.phase == "open":
            for p, _ in self.evaluate(probe.stones, MAX_OFFERS):
                try:
                    probe = apply(probe, Action(PLACE, p))
                except OpeningError:
                    continue  # outside Soosõrv-8's area
                break
            else:
                raise ValueError("no opening stone the rule allows among the search's moves")
            actions.append(Action(PLACE, probe.stones[-1]))
        return actions

    def swap2_choice(self, state: OpeningState) -> list[Action]:
        """Take the side clearly better, else place two more (decide goes on with them)."""
        white = self.best(state)
        self.notes.append(f"white's chance after its best move {white:.2f}")
        if white > 0.5 + BALANCED:
            return [Action(WHITE)]
        if white < 0.5 - BALANCED:
            return [Action(BLACK)]
        return [Action(TWO)]

    def two_stones(self, state: OpeningState) -> list[Action]:
        """swap2's two stones (white, then black), those still to place: of white's best
        CANDIDATES moves and black's best CANDIDATES replies to each, the pair whose
        position is closest to even (black's reply's score is its value for black)."""
        rule = state.game_rule
        if len(state.stones) == 4:  # white's stone is there: black's
            whites: list[Point | None] = [None]
        else:
            whites = [w for w, _ in self.evaluate(state.stones, CANDIDATES)]
        best: tuple[float, list[Point], int] | None = None
        for w in whites:
            before = list(state.stones) if w is None else [*state.stones, w]
            for b, score in self.evaluate(before, CANDIDATES):
                off = _even(score, rule)
                if best is None or off < best[0]:
                    best = (off, [b] if w is None else [w, b], score)
        assert best is not None  # evaluate gives at least one move
        self.notes.append(f"two stones: black's chance then {chance(best[2], rule):.2f}")
        return [Action(PLACE, p) for p in best[1]]

    def fourth_and_count(self, state: OpeningState) -> list[Action]:
        rule = state.game_rule
        best: tuple[float, int, Point, int] | None = None
        for w, _ in self.evaluate(state.stones, CANDIDATES):
            fifths = self.fifths(apply(state, Action(PLACE, w)))
            for n in range(1, MAX_OFFERS + 1):
                value = _nth_best(fifths, n)
                off = _even(value, rule)
                if best is None or off < best[0]:
                    best = (off, n, w, value)
        assert best is not None
        _, n, w, value = best
        self.notes.append(f"4th move and {n} 5th moves: black's chance {chance(value, rule):.2f}")
        return [Action(PLACE, w), Action(DECLARE, n=n)]

    def offers(self, state: OpeningState) -> list[Action]:
        """Black's best 5th moves, none symmetrical to another; the cells near the stones
        when the search gave too few."""
        wanted = (state.n or 1) - len(state.offers)
        actions: list[Action] = []
        probe = state
        candidates = [m for m, _ in self.evaluate(state.stones, MAX_OFFERS)] + _near_cells(state)
        for p in candidates:
            if len(actions) == wanted:
                break
            try:
                probe = apply(probe, Action(PLACE, p))
            except OpeningError:
                continue  # taken, offered or symmetrical to an offer
            actions.append(Action(PLACE, p))
        return actions

    def select(self, state: OpeningState) -> list[Action]:
        """The offer after which white's best move gives white the best chance (the first
        offered on ties)."""
        scored = [(self.best(state, [*state.stones, o]), -i, o) for i, o in enumerate(state.offers)]
        white, _, choice = max(scored)
        self.notes.append(f"white's chance after the chosen 5th move {white:.2f}")
        return [Action(SELECT, choice)]


def _nth_best(fifths: list[Scored], n: int) -> int:
    """Black's value when white chooses among black's best n 5th moves: the n-th best
    (the last there is when fewer)."""
    return fifths[min(n, len(fifths)) - 1][1]


def _near_cells(state: OpeningState) -> list[Point]:
    """Empty cells within two of a stone, nearest the centre first (the offers' reserve)."""
    c = state.size // 2
    stones = set(state.stones)
    cells = {
        (x + dx, y + dy)
        for x, y in stones
        for dx in range(-2, 3)
        for dy in range(-2, 3)
        if 0 <= x + dx < state.size and 0 <= y + dy < state.size
    } - stones
    return sorted(cells, key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), p))


def decide(
    state: OpeningState,
    evaluate: Evaluator,
    seed: int = 0,
    sets: dict[Rule, list[tuple[Point, ...]]] | None = None,
    notes: list[str] | None = None,
) -> list[Action]:
    """The engine's actions as the player who acts in ``state``, in order, up to where
    the other player acts or the opening is over (each one allowed: the state machine
    applied them). ``notes``, when given, gets a sentence per decision (the chances it
    was made on). ValueError when the opening is over."""
    if state.done:
        raise ValueError("the opening is over: nothing to decide")
    decider = _Decider(evaluate, seed, sets, [] if notes is None else notes)
    me = state.actor
    actions: list[Action] = []
    while not state.done and state.actor == me:
        step = decider.actions(state)
        for action in step:
            state = apply(state, action)
        actions += step
    return actions
