"""The web worker's ``opening`` message: the engine's turn in an opening rule.

    {type: "opening", id, size?, rule?, opening: "swap2" | "soosorv8", moves: [[x, y], ...],
     choices?: ["two", "white", "3", ...], offers?: [[x, y], ...], seed?, nodes?}
        -> {type: "opening", id, actions: [action, ...], notes: [text, ...]}

The opening so far is the game's moves with its record (gomoku.game.opening_rules
from_record: the choices made, the 5th moves offered); the answer is the engine's actions
as the player who acts now, up to where the other player acts or the opening is over
(gomoku.engine.opening_play decide): {kind: "place", at: [x, y]}, {kind: "black"},
{kind: "white"}, {kind: "two"}, {kind: "declare", n}, {kind: "select", at: [x, y]}.
``seed`` (0..2^31-1, default 0) draws the opening stones it proposes; ``nodes`` (default
OPENING_NODES) bounds each of its searches. ``notes`` are the chances its choices were
made on, in English (for the console). An opening that is over, or a record the rule
refuses, is an error naming why.
"""

from __future__ import annotations

from gomoku.core.rules import parse_rule
from gomoku.engine import Limits, Session
from gomoku.engine.opening_play import decide, engine_evaluator
from gomoku.game import opening_rules as O
from gomoku.protocol.webjson import (
    REQUEST_KEYS,
    BadMessage,
    Message,
    check_keys,
    is_int,
    read_moves,
    read_rule,
    read_size,
)

OPENING_NODES = 3000  # each search of the engine's opening decisions in the page
MAX_OPENING_NODES = 1_000_000


def read_record(message: Message, size: int) -> O.OpeningRecord:
    """The opening rule, the choices and the offers of an opening message."""
    rule = message.get("opening")
    if rule not in O.OPENING_RULES:
        raise BadMessage(f"opening must be one of {', '.join(O.OPENING_RULES)}, got {rule!r}")
    choices = message.get("choices", [])
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise BadMessage("choices must be a list of words like 'two', 'white', '3'")
    offers = read_moves({"moves": message.get("offers", [])}, size)
    return O.OpeningRecord(rule, tuple(choices), tuple(offers))


def action_data(action: O.Action) -> Message:
    """An action as the page reads it."""
    out: Message = {"kind": action.kind}
    if action.point is not None:
        out["at"] = [action.point[0], action.point[1]]
    if action.n is not None:
        out["n"] = action.n
    return out


def answer(session: Session, message: Message, mid: str | int) -> Message:
    """The engine's actions in the message's opening (see the module doc)."""
    check_keys(message, REQUEST_KEYS["opening"], "opening")
    size = read_size(message)
    rule = parse_rule(read_rule(message))
    moves = read_moves(message, size)
    record = read_record(message, size)
    seed = message.get("seed", 0)
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise BadMessage(f"seed must be an integer in 0..2147483647, got {seed!r}")
    nodes = message.get("nodes", OPENING_NODES)
    if not is_int(nodes) or not 1 <= nodes <= MAX_OPENING_NODES:
        raise BadMessage(f"nodes must be an integer in 1..{MAX_OPENING_NODES}, got {nodes!r}")
    try:
        state, _ = O.from_record(record, moves, size, rule)
    except O.OpeningError as exc:
        raise BadMessage(f"the opening: {exc}") from None
    if state.done:
        raise BadMessage("the opening is over: nothing to decide")
    session.set_position(list(state.stones), size, rule)  # checked (renju too)
    notes: list[str] = []
    limits = Limits(time_ms=None, nodes=nodes, seed=0)
    actions = decide(state, engine_evaluator(session.engine, limits), seed, notes=notes)
    session.set_position(list(state.stones))  # the engine where the session is
    return {
        "type": "opening",
        "id": mid,
        "actions": [action_data(a) for a in actions],
        "notes": notes,
    }
