"""The web worker's puzzle judging (gomoku.puzzles.judge), one move a message:

{type: "judge", id, size?, rule?, moves, move: [x, y], theme, movesLeft?, nodes?}
    -> {type: "judge", id, outcome, reply, line, by, movesToWin, trap, nodes}
       The puzzle's solver (the side to move after `moves`, black first) plays `move` in
       a `theme` puzzle ("vcf", "vct" or "defend"); the answer is the verdict of
       gomoku.puzzles.judge.judge_move: outcome "solved", "wins", "longer", "other",
       "lost" or "unclear"; reply the opponent's answer ([x, y] or null), line from the
       reply on, by "five" / "vcf" / "vct" / null, movesToWin the solver's moves to the
       five after the reply (or null), trap (renju) the block black may not play, nodes
       the search nodes spent. `movesLeft` (a win puzzle's allowance of moves, this one
       included; absent: no limit) decides "longer"; `nodes` (default the judge's
       JUDGE_LIMITS.nodes, at most MAX_JUDGE_NODES) the judgement's node budget, each
       search capped at the same share of it as by default (a second look after
       "unclear" asks for more). The answer is a function of the message alone.
"""

from __future__ import annotations

from gomoku.core.rules import parse_rule
from gomoku.engine import checked_board
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
from gomoku.puzzles.judge import JUDGE_LIMITS, THEMES, JudgeError, JudgeLimits, judge_move

MAX_JUDGE_NODES = 400_000


def limits_for(nodes: int) -> JudgeLimits:
    """The default limits with a budget of ``nodes`` (each search capped at the default
    share of the budget)."""
    share = JUDGE_LIMITS.search_nodes / JUDGE_LIMITS.nodes
    return JudgeLimits(JUDGE_LIMITS.vcf_depth, JUDGE_LIMITS.vct_depth, nodes,
                       max(1, round(nodes * share)), JUDGE_LIMITS.think_nodes)


def judge(message: Message, mid: str | int) -> Message:
    """One judged move (see the module doc)."""
    check_keys(message, REQUEST_KEYS["judge"], "judge")
    size = read_size(message)
    rule = read_rule(message)
    moves = read_moves(message, size)
    move = message.get("move")
    if (
        not isinstance(move, list)
        or len(move) != 2
        or not all(is_int(v) and 0 <= v < size for v in move)
    ):
        raise BadMessage(f"move must be [x, y] on the {size}x{size} board, got {move!r}")
    theme = message.get("theme")
    if theme not in THEMES:
        raise BadMessage(f"theme must be one of {', '.join(THEMES)}, got {theme!r}")
    moves_left = message.get("movesLeft")
    if moves_left is not None and (not is_int(moves_left) or not 1 <= moves_left <= 400):
        raise BadMessage(f"movesLeft must be an integer in 1..400, got {moves_left!r}")
    nodes = message.get("nodes", JUDGE_LIMITS.nodes)
    if not is_int(nodes) or not 100 <= nodes <= MAX_JUDGE_NODES:
        raise BadMessage(f"nodes must be an integer in 100..{MAX_JUDGE_NODES}, got {nodes!r}")
    try:
        board = checked_board(moves, size, parse_rule(rule))
        verdict = judge_move(board, (move[0], move[1]), theme, moves_left, limits_for(nodes))
    except JudgeError as exc:
        raise BadMessage(f"the move cannot be judged: {exc}") from None
    return {"type": "judge", "id": mid, **verdict.to_dict()}
