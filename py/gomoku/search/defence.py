"""The defence stage: before the alpha-beta search, could the opponent win by a threat
sequence (VCF, else VCT) were it their move, and which of our root moves stop it
(``find_defences``); after the search, the check of a chosen move whose check had not
finished in time (``recheck_chosen``).

The engine (gomoku.engine.facade) runs the stage with a deadline (a share of the move's
time, gomoku.search.timeman) and, under a node limit, a node budget per threat search.
``renju_checked`` drops a threat line that needs a renju forbidden point (the threat
search does not know them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku.patterns.tables import BLACK
from gomoku.search.threats import ThreatSearch

VCF_DEPTH = 12  # attacker moves: the engine's VCF reach, ours and the opponent's
VCT_DEPTH = 6  # the engine's own VCT reach
DEFENCE_VCT_DEPTH = 4  # the opponent's VCT looked for when choosing a defence
DEFENCE_CHECK_MOVES = 24  # root moves checked against an opponent's threat
DEFENCE_NODE_CAPS = 2  # under a node limit: the defence checks of a move share this many
# threat-search budgets (each a quarter of the move's nodes), so half the move at most

ThreatCache = dict[int, int]  # shared by the threat searches of a game


def renju_checked(board: Board, line: list[int] | None) -> list[int] | None:
    """The threat search's winning line, or None when under renju a black move of it is
    a forbidden point (the threat search does not know them; the replay does)."""
    if line is None or board.rule is not Rule.RENJU:
        return line
    made, ok = 0, True
    for q in line:
        if board.cells[q] or (board.side == BLACK and forbidden(board, q)):
            ok = False
            break
        board.make(q)
        made += 1
        if board.winner:
            break
    for _ in range(made):
        board.unmake()
    return line if ok else None


@dataclass
class Defence:
    """What the defence stage found: the opponent's threat (``kind`` "vcf" or "vct",
    None when it has none), our root moves shown to stop it and the ones not checked
    in time (those shown to lose are left out), and the threat nodes it searched."""

    kind: str | None = None
    safe: list[int] = field(default_factory=list)
    unchecked: list[int] = field(default_factory=list)
    nodes: int = 0


def _out_of_budget(deadline: float | None, left: int | None) -> bool:
    return (deadline is not None and time.perf_counter() > deadline) or (
        left is not None and left <= 0
    )


def find_defences(
    board: Board,
    moves: list[int],
    deadline: float | None,
    node_cap: int | None,
    cache: ThreatCache | None = None,
) -> Defence:
    """Could the opponent win by VCF (or else by VCT) were it their move? If so, which of
    our root ``moves`` (the first DEFENCE_CHECK_MOVES of them) stop it (see Defence; kind
    None: no threat, or no time to find out). The board is left as it was.

    The cells of the opponent's winning line are checked first: that is where a defence
    usually is. (Keeping only the moves shown safe was measured weaker: the checks seldom
    finish, and the search was left with a few passive moves.)"""
    board.pass_move()  # ask "what if the opponent moved now"
    try:
        probe = ThreatSearch(board, cache=cache)
        kind = "vcf"
        threat = renju_checked(board, probe.vcf(VCF_DEPTH, deadline, node_cap))
        if threat is None and not probe.timed_out:
            kind = "vct"
            threat = renju_checked(board, probe.vct(DEFENCE_VCT_DEPTH, deadline, node_cap))
    finally:
        board.pass_move()
    defence = Defence(nodes=probe.nodes)
    if threat is None:
        return defence
    defence.kind = kind
    first = [q for q in dict.fromkeys(threat) if board.cells[q] == 0]
    order = first + [q for q in moves[:DEFENCE_CHECK_MOVES] if q not in first]
    for q in order:
        # Under a node limit the stage's checks share one budget (DEFENCE_NODE_CAPS
        # times a threat search's), as they share its deadline: else 24 checks could
        # spend 24 budgets and leave the search that follows a single node.
        left = None if node_cap is None else DEFENCE_NODE_CAPS * node_cap - defence.nodes
        if _out_of_budget(deadline, left):
            defence.unchecked.append(q)
            continue
        cap = None if left is None or node_cap is None else min(node_cap, left)
        holds, searched = defence_holds(board, q, kind, deadline, cap, cache)
        defence.nodes += searched
        if holds is not False:  # a move shown to lose is dropped
            (defence.safe if holds else defence.unchecked).append(q)
    return defence


def recheck_chosen(
    board: Board,
    move: int,
    defence: Defence,
    deadline: float | None,
    node_cap: int | None,
    cache: ThreatCache | None = None,
) -> tuple[int, int]:
    """The search chose a root ``move`` whose defence check did not finish before the
    search. Check it now, by ``deadline`` (under a node limit, each check also within
    ``node_cap``, the checks sharing DEFENCE_NODE_CAPS of it); if it loses to the
    opponent's threat, play the first move ``defence`` showed to stop it instead, or else
    the first of its other unchecked moves that the check clears. Returns (the move to
    play, threat nodes searched)."""
    kind = defence.kind or "vct"
    holds, nodes = defence_holds(board, move, kind, deadline, node_cap, cache)
    if holds is not False:  # shown to hold, or the check ran out of time
        return move, nodes
    if defence.safe:
        return defence.safe[0], nodes
    for q in defence.unchecked:
        left = None if node_cap is None else DEFENCE_NODE_CAPS * node_cap - nodes  # shared
        if _out_of_budget(deadline, left):
            break
        if q == move:
            continue
        cap = None if left is None or node_cap is None else min(node_cap, left)
        holds, searched = defence_holds(board, q, kind, deadline, cap, cache)
        nodes += searched
        if holds is not False:
            return q, nodes
    return move, nodes


def defence_holds(
    board: Board,
    move: int,
    kind: str,
    deadline: float | None,
    node_cap: int | None,
    cache: ThreatCache | None = None,
) -> tuple[bool | None, int]:
    """Does our ``move`` stop the opponent's threat of this ``kind`` ("vcf": only its
    VCF is looked for, "vct": its VCF then its VCT)? Returns (True: the opponent has
    no such win after it, False: it has one, None: the check ran out of time or
    nodes; threat nodes searched). The board is left as it was."""
    board.make(move)
    try:
        ts = ThreatSearch(board, cache=cache)
        line = renju_checked(board, ts.vcf(VCF_DEPTH, deadline, node_cap))
        if line is None and not ts.timed_out and kind == "vct":
            line = renju_checked(board, ts.vct(DEFENCE_VCT_DEPTH, deadline, node_cap))
    finally:
        board.unmake()
    if line is not None:
        return False, ts.nodes
    return (None if ts.timed_out else True), ts.nodes
