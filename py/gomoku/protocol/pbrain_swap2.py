"""The brain's answer to SWAP2BOARD (Gomocup's swap2 opening), from
gomoku.engine.opening_play: the opening stones from the sets the lab judged balanced (the
n-th opening of a process drawn with the INFO seed and n, so that consecutive games
differ), the choices from small searches of the position from each side. The brain
(gomoku.protocol.pbrain) parses the stones and writes the answer; the protocol's text is
gomoku.protocol.pbrain_text's.
"""

from __future__ import annotations

from gomoku.core.geometry import Point
from gomoku.core.rules import Rule
from gomoku.engine import Limits, Session
from gomoku.engine.opening_play import decide, engine_evaluator
from gomoku.game import opening_rules
from gomoku.protocol.pbrain_text import ProtocolError


def swap2_choice(
    game: Session, stones: list[Point], rule: Rule, limits: Limits, seed: int
) -> tuple[list[opening_rules.Action], list[str]]:
    """Our swap2 actions after ``stones`` (0, 3 or 5 of them, in move order) under
    ``rule``, each search within ``limits``, the random choices from ``seed``; and notes
    on the chances the choice was made on. The game is left at the stones. ProtocolError
    for stones swap2 does not allow (a stone twice or off the board, renju)."""
    state = opening_rules.start(opening_rules.SWAP2, game.size, rule)
    steps = [opening_rules.Action("place", p) for p in stones]
    if len(stones) == 5:
        steps.insert(3, opening_rules.Action("two"))
    try:
        state = opening_rules.replay(state, steps)
    except opening_rules.OpeningError as exc:
        raise ProtocolError(f"SWAP2BOARD: {exc}") from None
    game.set_position(stones)  # checked; the engine gets a fresh look at them
    notes: list[str] = []
    actions = decide(state, engine_evaluator(game.engine, limits), seed, notes=notes)
    game.set_position(stones)  # where the searches left the engine: the stones again
    return actions, notes
