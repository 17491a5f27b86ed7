"""The Gomocup brain's limits: what INFO set (time controls, node limit) as the engine's
``Limits`` for one move, and for the searches of a swap2 answer. The brain
(gomoku.protocol.pbrain) translates; this module decides what a move gets. The controls
go into ``Limits`` as they are: the time manager (gomoku.search.timeman.move_times) makes
the move's optimum and maximum.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku.engine import Limits
from gomoku.engine.opening_play import CANDIDATES

DEFAULT_TIMEOUT_TURN_MS = 5000
# Under INFO max_node the book chooses among close replies with this seed (determinism).
NODE_LIMIT_SEED = 0

# A swap2 choice's searches share the turn: white's best moves, then black's replies to
# each of them (gomoku.engine.opening_play), and the move after it.
SWAP2_SEARCHES = CANDIDATES + 2
# Under a node limit each search gets this fraction of it: an answer is then worth about
# three moves' nodes (the match runner's turn cap holds it), and the choices are not as
# blind as at a sixth (BENCHMARKS.md, "Swap2 against Rapfi").
SWAP2_NODE_SHARE = 2
SWAP2_MIN_NODES = 1000  # the least a search of a swap2 choice gets under a node limit

LimitKeywords = dict[str, int | None]


@dataclass
class TimeSettings:
    """Time controls received through INFO (milliseconds; None = not given)."""

    timeout_turn: int = DEFAULT_TIMEOUT_TURN_MS
    timeout_match: int | None = None
    time_left: int | None = None

    def set(self, key: str, ms: int) -> None:
        """INFO ``key`` (timeout_turn, timeout_match, time_left) says ``ms``; the two
        timeouts are at least 0 (0: as fast as possible, no match limit)."""
        if key not in ("timeout_turn", "timeout_match", "time_left"):
            raise ValueError(f"not a time control: {key}")
        setattr(self, key, ms if key == "time_left" else max(0, ms))


def time_controls(settings: TimeSettings) -> LimitKeywords:
    """The time controls received so far as ``Limits`` keywords, as they are."""
    return {
        "turn_ms": settings.timeout_turn,
        "match_ms": settings.timeout_match,
        "time_left_ms": settings.time_left,
    }


def node_limits(controls: LimitKeywords, max_nodes: int) -> LimitKeywords:
    """Limits keyword arguments for a node-limited move (``INFO max_node``): the node limit,
    the time controls (with no soft target the time manager keeps only a safety cap of
    them) and the book's fixed seed NODE_LIMIT_SEED."""
    if max_nodes <= 0:
        raise ValueError(f"max_nodes must be positive, got {max_nodes}")
    return {**controls, "time_ms": None, "nodes": max_nodes, "seed": NODE_LIMIT_SEED}


def move_limits(
    settings: TimeSettings, max_nodes: int | None, multipv: int, empty_cells: int
) -> tuple[LimitKeywords, str]:
    """One move's ``Limits`` keywords (a node limit if INFO max_node set one, else the
    clock; ``multipv`` root moves reported) and a line saying what the engine will make
    of them (for a DEBUG answer)."""
    controls = time_controls(settings)
    if max_nodes is not None:
        budget = node_limits(controls, max_nodes)
        times = Limits(**budget).times(empty_cells)
        said = f"nodes {max_nodes} hard {times.maximum_ms:.0f} ms"
    else:
        budget = {"time_ms": None, **controls}
        times = Limits(**budget).times(empty_cells)
        said = f"soft {times.optimum_ms:.0f} ms hard {times.maximum_ms:.0f} ms" + (
            f" clock {times.clock_ms:.0f} ms" if times.clock_ms is not None else ""
        )
    if multipv > 1:
        budget = {**budget, "multipv": multipv}
    return budget, said


def swap2_limits(settings: TimeSettings, max_nodes: int | None) -> Limits:
    """Each swap2 search's limits: under a node limit (INFO max_node) its
    1 / SWAP2_NODE_SHARE (at least SWAP2_MIN_NODES), else a share of the turn's time
    (SWAP2_SEARCHES searches in one answer)."""
    if max_nodes is not None:
        share = max(SWAP2_MIN_NODES, max_nodes // SWAP2_NODE_SHARE)
        return Limits(**node_limits(time_controls(settings), share))
    share = max(1, settings.timeout_turn // SWAP2_SEARCHES)
    return Limits(time_ms=None, turn_ms=share, seed=NODE_LIMIT_SEED)
