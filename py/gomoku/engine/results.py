"""What the engine's ``think`` and ``prepare`` answer (gomoku.engine.facade): the move
(``SearchResult``), each completed depth on the way (``SearchInfo``), the best root moves
of a multi-PV search (``TopMove``), and what the stages before the alpha-beta search leave
to it (``SearchPlan``).

Points are (x, y); a score, here and below, is the search's integer from the side to
move's view: what it means, and the text and data made of it, is gomoku.search.score's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from gomoku.core.geometry import Point


def _point_list(points: list[Point]) -> list[list[int]]:
    return [[x, y] for x, y in points]


@dataclass
class TopMove:
    """One of the best root moves of a multi-PV search (side to move's score)."""

    move: Point
    score: int
    pv: list[Point]

    def to_dict(self) -> dict:
        return {
            "move": [self.move[0], self.move[1]],
            "score": self.score,
            "pv": _point_list(self.pv),
        }


@dataclass
class SearchInfo:
    """One completed depth of the search: its score, the nodes and speed so far, the
    principal variation, the time since thinking started (ms) and the top moves."""

    depth: int
    score: int
    nodes: int
    nps: int
    pv: list[Point]
    time_ms: float
    top: list[TopMove] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["pv"] = _point_list(self.pv)
        d["top"] = [t.to_dict() for t in self.top]
        return d


@dataclass
class SearchResult:
    """The move chosen, with how it was found (``source``: "book", "forced", "threat",
    "search", or "level" for a level's pick among candidates)."""

    move: Point
    score: int
    depth: int
    nodes: int
    nps: int
    pv: list[Point] = field(default_factory=list)
    source: str = "search"
    time_ms: float = 0.0
    top: list[TopMove] = field(default_factory=list)  # multi-PV (Limits.multipv > 1)
    # The opponent's threat ("vcf" or "vct") that none of the root moves checked against
    # it stopped: the position is lost whatever the search's score says (not in to_dict).
    lost_to: str | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("lost_to")
        d["move"] = [self.move[0], self.move[1]]
        d["pv"] = _point_list(self.pv)
        d["top"] = [t.to_dict() for t in self.top]
        return d


@dataclass
class SearchPlan:
    """What ``Engine.prepare`` leaves to the alpha-beta search: the arguments of
    ``Searcher.search`` (times in seconds from the end of prepare), the nodes already
    spent and when thinking started (perf_counter)."""

    root_moves: list[int]
    max_depth: int
    soft_time: float | None
    hard_time: float | None
    max_nodes: int | None
    nodes: int
    start: float
    # Against an opponent's threat: root moves shown to stop it, and the ones whose
    # check did not finish in time (verified after the search if chosen).
    safe: list[int] = field(default_factory=list)
    unchecked: list[int] = field(default_factory=list)
    threat_kind: str | None = None  # "vcf" or "vct": the opponent's threat, if any
    hard_deadline: float | None = None  # perf_counter time the move must be ready by
    multipv: int = 1  # root moves to report with exact scores (Limits.multipv)
    threat_node_cap: int | None = None  # node budget of each threat search (node limits)
