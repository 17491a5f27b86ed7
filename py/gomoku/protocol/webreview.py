"""The web worker's game review messages (gomoku.review), one position a message:

{type: "review", id, size?, rule?, moves, first?, index, nodes?, fixed?}
    -> {type: "review", id, index, total, position, move, revised, summary?}
       One step of a game review (gomoku.review): the position after `index` moves
       evaluated at `nodes` nodes (default gomoku.review.DEFAULT_NODES) with the threat
       search: position = {index, toMove, black (black's chance), score, second (score
       data, as think's), best, line, source, over, proof, ...}; move = the review of move
       `index` (null for 0): {index, player, move, class, mark, before, after, drop,
       better, line, proof ("proven" | "judged" for a flagged move, else null), noBetter
       (flagged, and every better move tried loses by force)}; revised = what this step
       changed before `index` (a walk back from a proven win judges earlier moves again):
       {positions: [{index, black}], moves: [move, ...]}; with index = total the summary
       {black: {class: count}, white: ...}, keyed by the counted classes' names
       (inaccuracy, mistake, blunder, missed_win, only_move: values of a move's class). `first`
       ("black" or "white") is the colour of the first move; `fixed` (default 0) the number
       of opening moves fixed by a rule or a record (class "opening", not judged).
       Positions are reviewed in order (a request for a later index reviews the ones before
       it first); the reviewer is kept between messages; each answer depends on the game,
       the index, the budget and `fixed` alone.
"""

from __future__ import annotations

from gomoku.core.errors import GomokuError
from gomoku.core.rules import parse_rule
from gomoku.protocol.webjson import (
    REQUEST_KEYS,
    BadMessage,
    Message,
    camel_keys,
    check_keys,
    is_int,
    jsonable,
    read_first,
    read_moves,
    read_rule,
    read_size,
)
from gomoku.review.records import GameRecord, RecordError, checked
from gomoku.review.review import DEFAULT_NODES, Reviewer, move_dict, position_dict

MAX_REVIEW_NODES = 1_000_000


class Reviews:
    """The game under review, kept between messages (its positions are kept)."""

    def __init__(self) -> None:
        self.reviewer: Reviewer | None = None
        self.key: tuple[GameRecord, int, int] | None = None

    def answer(self, message: Message, mid: str | int) -> Message:
        """One step of a game review: position ``index`` evaluated (and the move that
        led to it classified; with the last index, the summary too). Every answer is a
        function of the game, the index and the node budget alone."""
        check_keys(message, REQUEST_KEYS["review"], "review")
        size = read_size(message)
        rule = read_rule(message)
        moves = read_moves(message, size)
        first = read_first(message)
        nodes = message.get("nodes", DEFAULT_NODES)
        if not is_int(nodes) or not 1 <= nodes <= MAX_REVIEW_NODES:
            raise BadMessage(f"nodes must be an integer in 1..{MAX_REVIEW_NODES}, got {nodes!r}")
        index = message.get("index")
        if not is_int(index) or not 0 <= index <= len(moves):
            raise BadMessage(f"index must be an integer in 0..{len(moves)}, got {index!r}")
        try:
            record = checked([tuple(m) for m in moves], size, parse_rule(rule), first)
        except (RecordError, GomokuError) as exc:
            raise BadMessage(f"the game cannot be reviewed: {exc}") from None
        fixed = message.get("fixed", 0)
        if not is_int(fixed) or not 0 <= fixed <= len(moves):
            raise BadMessage(f"fixed must be an integer in 0..{len(moves)}, got {fixed!r}")
        key = (record, nodes, fixed)
        if self.reviewer is None or self.key != key:
            self.reviewer = Reviewer(record, nodes, fixed)
            self.key = key
        rv = self.reviewer
        positions, changed = rv.step(index)
        reply: Message = {
            "type": "review",
            "id": mid,
            "index": index,
            "total": len(moves),
            "position": camel_keys(position_dict(rv.effective(index))),
            "move": move_dict(rv.moves[index]) if index else None,
            "revised": {
                "positions": [{"index": j, "black": round(rv.chance(j), 4)} for j in positions],
                "moves": [move_dict(rv.moves[j]) for j in changed],
            },
        }
        if index == len(moves):
            reply["summary"] = rv.summary()
        return jsonable(reply)
