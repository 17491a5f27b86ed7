"""Opening rules: who places which stones, and who chooses a colour, before a game goes on
as usual. A pure state machine: ``start`` gives the state before the first stone,
``apply`` the state after one action (or an :class:`OpeningError` with a sentence for the
player), ``replay`` a whole list of actions. The page's ``web/model/opening.js`` is the
same machine, checked against this one on a shared fixture (tests/engine/game/opening_cases.py).

Players are numbered: 1 is the first player (who places the first stones), 2 the other.
The stones are placed in move order, so their colours alternate black, white, black, ...;
``black`` says which player holds black (tentatively until the opening is over). When the
phase is ``done`` the opening's stones are the game's first moves and white is to move;
the rest of the game is ordinary play.

**swap2** (freestyle and standard; Gomocup's swap2, as its SWAP2BOARD protocol and the
Czech gomoku federation's rules describe it):

1. ``open``: the first player places three stones anywhere: black, white, black.
2. ``choose``: the second player takes black, takes white (and then plays the fourth
   stone, an ordinary move), or places two more stones (``two``).
3. ``two``: the second player places a white stone and a black one, anywhere.
4. ``final``: the first player takes black or white.

**soosorv8** (renju; RIF's Soosõrv-N opening rule with N = 8, certified by the Renju
International Federation in 2011 and the opening rule of the Renju World Championship
since 2017, implemented to the rule text of renju.net's rule page):

1. ``open``: the first player (tentative black) puts one of the 26 openings: black on the
   centre, white on one of the eight points next to it, black within the central 5x5.
2. ``swap``: the other player (tentative white) may swap: takes black (swaps) or white.
3. ``fourth``: the white player puts the 4th move anywhere on the board,
4. ``declare``: and declares how many 5th moves black will offer, 1 to 8.
5. ``second-swap``: the other player (black) may swap: takes white (swaps) or black.
6. ``offer``: the black player puts that many 5th moves on the board, none of them
   symmetrical to another (a board symmetry that keeps the four stones in place maps one
   onto the other). (None can be forbidden for black: a forbidden shape needs at least
   four black stones besides the new one, and black has two.)
7. ``select``: the white player chooses one of them as the 5th move; its 6th move is
   the game's next ordinary move.

Played on 15x15 only, the board RIF's rules are for.

Actions: ``Action("place", point)``, ``Action("black")`` / ``Action("white")`` (take
that colour), ``Action("two")``, ``Action("declare", n=3)``, ``Action("select",
point)``. As text (records, the fixture): a point ("h8"; a placement, or in ``select``
the offer chosen), "black", "white", "two", or a number (the declared count).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gomoku.core.errors import GomokuError
from gomoku.core.geometry import Point, from_text, on_board, to_text, transform
from gomoku.core.rules import Rule, parse_rule
from gomoku.core.symmetry import position_symmetries

SWAP2 = "swap2"
SOOSORV8 = "soosorv8"
OPENING_RULES = (SWAP2, SOOSORV8)
NAMES = {SWAP2: "swap2", SOOSORV8: "Soosõrv-8"}
# The game rules each opening rule is played under.
GAME_RULES = {SWAP2: (Rule.FREESTYLE, Rule.STANDARD), SOOSORV8: (Rule.RENJU,)}
SOOSORV_SIZE = 15  # RIF's board
MAX_OFFERS = 8  # the N of Soosõrv-N

PLACE, BLACK, WHITE, TWO, DECLARE, SELECT = "place", "black", "white", "two", "declare", "select"
KINDS = (PLACE, BLACK, WHITE, TWO, DECLARE, SELECT)
DONE = "done"

# What each phase lets its actor do.
OPTIONS: dict[str, tuple[str, ...]] = {
    "open": (PLACE,),
    "choose": (BLACK, WHITE, TWO),
    "two": (PLACE,),
    "final": (BLACK, WHITE),
    "swap": (BLACK, WHITE),
    "fourth": (PLACE,),
    "declare": (DECLARE,),
    "second-swap": (BLACK, WHITE),
    "offer": (PLACE,),
    "select": (SELECT,),
    DONE: (),
}

# What a phase asks of its actor, as the errors say it.
ASKS = {
    "open": "the first player places the opening's three stones (black, white, black)",
    "choose": "the second player takes black, takes white, or places two more stones",
    "two": "the second player places two more stones (white, then black)",
    "final": "the first player takes black or white",
    "swap": "the second player takes black (swaps) or white",
    "fourth": "the white player places the 4th stone",
    "declare": f"the white player declares how many 5th moves black offers (1 to {MAX_OFFERS})",
    "second-swap": "the black player takes white (swaps) or black",
    "offer": "the black player offers its 5th moves",
    "select": "the white player chooses one of the offered 5th moves",
    DONE: "the opening is over",
}


class OpeningError(GomokuError):
    """An action the opening rule does not allow now; ``code`` names the kind (the page's
    i18n key is ``op_<code>``), the text says it to the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Action:
    """One step of an opening: kind is one of KINDS; ``point`` for place and select,
    ``n`` for declare."""

    kind: str
    point: Point | None = None
    n: int | None = None

    def text(self, size: int) -> str:
        """The action as a record writes it ("h8", "black", "two", "3")."""
        if self.kind in (PLACE, SELECT):
            assert self.point is not None
            return to_text(*self.point, size)
        if self.kind == DECLARE:
            return str(self.n)
        return self.kind


@dataclass(frozen=True)
class OpeningState:
    """Where an opening stands (see the module doc). ``actor``: the player who acts now
    (None when done); ``stones``: the stones placed, in move order; ``offers``: the 5th
    moves black offered (soosorv8); ``n``: the number declared (None before)."""

    rule: str
    size: int
    game_rule: Rule
    phase: str = "open"
    actor: int | None = 1
    black: int = 1
    stones: tuple[Point, ...] = ()
    offers: tuple[Point, ...] = ()
    n: int | None = None

    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def options(self) -> tuple[str, ...]:
        """The kinds of action the actor may take now."""
        return OPTIONS[self.phase]

    @property
    def white(self) -> int:
        """The player who holds white."""
        return 3 - self.black

    @property
    def next_colour(self) -> int:
        """The colour of the next stone placed on the board (1 black, 2 white); an offer
        is black's."""
        return 1 if self.phase == "offer" else 1 + len(self.stones) % 2

    def asks(self) -> str:
        """What the opening waits for, in words."""
        return ASKS[self.phase]

    def to_dict(self) -> dict:
        """The state as plain data, points as text (the fixture's form)."""
        return {
            "phase": self.phase,
            "actor": self.actor,
            "black": self.black,
            "stones": [to_text(x, y, self.size) for x, y in self.stones],
            "offers": [to_text(x, y, self.size) for x, y in self.offers],
            "n": self.n,
            "options": list(self.options),
        }


def start(rule: str, size: int, game_rule: str | int | Rule) -> OpeningState:
    """The state before the first stone; OpeningError when the opening rule is not one
    of OPENING_RULES, not played under this game rule, or (soosorv8) not on this size."""
    game = parse_rule(game_rule)
    if rule not in OPENING_RULES:
        raise OpeningError("unknown", f"unknown opening rule {rule!r} (swap2 or soosorv8)")
    if game not in GAME_RULES[rule]:
        raise OpeningError("rule", f"{NAMES[rule]} is not an opening rule of {game.label}")
    if rule == SOOSORV8 and size != SOOSORV_SIZE:
        raise OpeningError("size", f"Soosõrv-8 is played on the 15x15 board, not {size}x{size}")
    return OpeningState(rule, size, game)


def _refuse(state: OpeningState) -> OpeningError:
    if state.done:
        return OpeningError("over", "the opening is over")
    return OpeningError("not-now", f"not now: {state.asks()}")


def _check_point(state: OpeningState, point: Point | None) -> Point:
    if point is None or not on_board(point[0], point[1], state.size):
        raise OpeningError("off", f"{point} is not a point of the {state.size}x{state.size} board")
    if point in state.stones:
        raise OpeningError("taken", f"{to_text(*point, state.size)} is taken")
    return point


def _ring(point: Point, size: int) -> int:
    """How many steps from the centre (size // 2, size // 2), counting diagonal steps as one."""
    c = size // 2
    return max(abs(point[0] - c), abs(point[1] - c))


def _check_soosorv_stone(state: OpeningState, point: Point) -> None:
    """The 26 openings: black on the centre, white next to it, black within the 5x5."""
    k = len(state.stones)
    text = to_text(*point, state.size)
    centre = to_text(state.size // 2, state.size // 2, state.size)
    if k == 0 and _ring(point, state.size) != 0:
        raise OpeningError("centre", f"the first stone goes on the centre, {centre}, not {text}")
    if k == 1 and _ring(point, state.size) != 1:
        raise OpeningError(
            "near-centre", f"the second stone goes on a point next to {centre}, not {text}"
        )
    if k == 2 and _ring(point, state.size) > 2:
        raise OpeningError(
            "central-5x5", f"the third stone goes within the 5x5 square around {centre}, not {text}"
        )


def _check_offer(state: OpeningState, point: Point) -> None:
    text = to_text(*point, state.size)
    if point in state.offers:
        raise OpeningError("offered", f"{text} is offered already")
    black, white = state.stones[0::2], state.stones[1::2]
    for k in position_symmetries(black, white, state.size):
        image = transform(k, *point, state.size)
        if image in state.offers:
            other = to_text(*image, state.size)
            raise OpeningError("symmetric", f"{text} is symmetrical to the offer {other}")


def apply(state: OpeningState, action: Action) -> OpeningState:
    """The state after ``action``; OpeningError (and the state unchanged) when the rule
    does not allow it now."""
    if action.kind not in state.options:
        raise _refuse(state)
    phase, kind = state.phase, action.kind
    if kind == PLACE:
        point = _check_point(state, action.point)
        if phase == "offer":
            _check_offer(state, point)
            offers = (*state.offers, point)
            if len(offers) == state.n:
                return replace(state, offers=offers, phase="select", actor=state.white)
            return replace(state, offers=offers)
        if state.rule == SOOSORV8 and phase == "open":
            _check_soosorv_stone(state, point)
        stones = (*state.stones, point)
        placed = replace(state, stones=stones)
        if phase == "open" and len(stones) == 3:
            return replace(placed, phase="choose" if state.rule == SWAP2 else "swap", actor=2)
        if phase == "two" and len(stones) == 5:
            return replace(placed, phase="final", actor=1)
        if phase == "fourth":
            return replace(placed, phase="declare")
        return placed
    if kind in (BLACK, WHITE):
        actor = state.actor
        assert actor is not None
        black = actor if kind == BLACK else 3 - actor
        if phase == "swap":
            return replace(state, black=black, phase="fourth", actor=3 - black)
        if phase == "second-swap":
            return replace(state, black=black, phase="offer", actor=black)
        return replace(state, black=black, phase=DONE, actor=None)  # choose, final
    if kind == TWO:
        return replace(state, phase="two")
    if kind == DECLARE:
        n = action.n
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_OFFERS:
            raise OpeningError("count", f"black offers 1 to {MAX_OFFERS} 5th moves, not {n}")
        return replace(state, n=n, phase="second-swap", actor=state.black)
    # SELECT
    point = action.point
    if point not in state.offers:
        shown = to_text(*point, state.size) if point and on_board(*point, state.size) else point
        raise OpeningError("not-offered", f"{shown} is not one of the offered 5th moves")
    return replace(state, stones=(*state.stones, point), phase=DONE, actor=None)


def replay(state: OpeningState, actions: Iterable[Action]) -> OpeningState:
    """The state after each action in turn (OpeningError at the first refused one)."""
    for action in actions:
        state = apply(state, action)
    return state


def action_from_text(state: OpeningState, token: str) -> Action:
    """The action a record's word means in this state: a point places a stone (in
    ``select``: chooses that offer), "black" / "white" / "two" as said, a number declares.
    OpeningError for a word that is none of these."""
    word = token.strip().lower()
    if word in (BLACK, WHITE, TWO):
        return Action(word)
    if word.isdigit():
        return Action(DECLARE, n=int(word))
    try:
        point = from_text(word, state.size)
    except ValueError:
        raise OpeningError(
            "word", f"{token!r} is not a point, a colour, 'two' or a number"
        ) from None
    return Action(SELECT if state.phase == "select" else PLACE, point)


@dataclass(frozen=True)
class OpeningRecord:
    """An opening as a record keeps it beside the game's moves: the choices in order
    (colours taken, "two", the number declared) and the 5th moves offered."""

    rule: str
    choices: tuple[str, ...] = ()
    offers: tuple[Point, ...] = ()


def record_of(state: OpeningState, actions: Sequence[Action]) -> OpeningRecord:
    """The record of an opening played as ``actions`` (ending in ``state``)."""
    choices = tuple(a.text(state.size) for a in actions if a.kind in (BLACK, WHITE, TWO, DECLARE))
    return OpeningRecord(state.rule, choices, state.offers)


def from_record(
    record: OpeningRecord, moves: Sequence[Point], size: int, game_rule: str | int | Rule
) -> tuple[OpeningState, list[Action]]:
    """The opening of a game's ``moves`` with its record: each phase takes what it needs
    (a placement the next move, a choice the next choice, an offer the next offer, the
    selection the next move) until the opening is over or the record runs out. Returns
    the state and the actions; OpeningError when something is refused, when choices or
    offers are left over, or when moves go on past an opening that is not over."""
    state = start(record.rule, size, game_rule)
    choices = list(record.choices)
    offers = list(record.offers)
    used = 0
    actions: list[Action] = []
    while not state.done:
        kinds = state.options
        if state.phase == "offer":
            if not offers:
                break
            action = Action(PLACE, offers.pop(0))
        elif kinds in ((PLACE,), (SELECT,)):
            if used >= len(moves):
                break
            action = Action(kinds[0], tuple(moves[used]))  # type: ignore[arg-type]
            used += 1
        else:
            if not choices:
                break
            action = action_from_text(state, choices.pop(0))
        state = apply(state, action)
        actions.append(action)
    if choices or offers:
        raise OpeningError("unused", "the record has choices or offers the opening did not use")
    if not state.done and used < len(moves):
        raise OpeningError(
            "unfinished", f"the game goes on before the opening is over ({state.asks()})"
        )
    return state, actions
