"""Colour-swapped game pairs: their numbering, their scores, and the game records.

A match plays each opening twice with the colours swapped: games 2k and 2k+1 (0-based)
are pair k. A pair scores engine1 0, 1/2, 1, 3/2 or 2 points; the counts of the five
scores are the pentanomial statistics (stats.Pentanomial) that the Elo error and the SPRT
use. ``game_record`` is the JSON line the match runner writes per game (``--records``);
``pentanomial_from_records`` recomputes the pair counts from such lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gomoku.core.geometry import moves_to_text
from gomoku_lab.referee import GameResult, MatchConfig
from gomoku_lab.sprt import Sprt
from gomoku_lab.stats import Pentanomial, format_elo

# --------------------------------------------------------------------------------------
# Pairs


def pair_number(game_index: int) -> int:
    """The 0-based pair of the game with 0-based index ``game_index`` (games 2k, 2k+1)."""
    return game_index // 2


class PairTracker:
    """Collects engine1's game scores and completes pairs: ``add`` returns the pair's
    score (0 to 2) when the game completes its pair, else None."""

    def __init__(self) -> None:
        self._waiting: dict[int, float] = {}
        self.pair_scores: dict[int, float] = {}

    def add(self, game_index: int, score1: float) -> float | None:
        pair = pair_number(game_index)
        if pair in self.pair_scores:
            raise ValueError(f"pair {pair + 1} already has two games")
        first = self._waiting.pop(pair, None)
        if first is None:
            self._waiting[pair] = score1
            return None
        self.pair_scores[pair] = first + score1
        return self.pair_scores[pair]

    @property
    def pentanomial(self) -> Pentanomial:
        """The counts of the completed pairs."""
        return Pentanomial.from_pair_scores(self.pair_scores.values())


def pentanomial_of(results: Iterable[GameResult]) -> Pentanomial:
    """Pentanomial counts of the complete pairs among these results (a game whose partner
    is missing is left out)."""
    tracker = PairTracker()
    for r in results:
        tracker.add(r.spec.index, r.score1)
    return tracker.pentanomial


def pair_line(counts: Pentanomial, sprt: Sprt | None) -> str:
    """The running pair statistics: "pairs 12 [0 2 5 4 1]: Elo +35.2 +/- 80.1, LLR ..."."""
    text = f"pairs {counts.pairs} {counts.text()}: Elo {format_elo(*counts.elo_with_error())}"
    if sprt is not None:
        text += ", " + sprt.status(counts)
    return text


# --------------------------------------------------------------------------------------
# Records


def game_record(result: GameResult, cfg: MatchConfig, names: list[str]) -> dict[str, object]:
    """A JSON-ready record of one game. ``pair`` (1-based) and ``score1`` (engine1's
    score) let the pair statistics be recomputed (pentanomial_from_records)."""
    spec = result.spec
    return {
        "game": spec.index + 1,
        "pair": pair_number(spec.index) + 1,
        "size": cfg.size,
        "rule": cfg.rule.label,
        "turn_ms": cfg.turn_ms,
        "turn_ms1": cfg.turn_ms_of(0),
        "turn_ms2": cfg.turn_ms_of(1),
        "nodes1": cfg.nodes1,
        "nodes2": cfg.nodes2,
        "level1": cfg.level1,
        "level2": cfg.level2,
        "seed": pair_number(spec.index),  # the INFO seed of a level (the pair's number)
        "opening_index": spec.opening_index,
        "opening": moves_to_text(spec.opening, cfg.size),
        "black": f"engine{spec.black + 1}",
        "white": f"engine{2 - spec.black}",
        "black_name": names[spec.black],
        "white_name": names[1 - spec.black],
        "result": result.result_text,
        "winner": None if result.winner is None else f"engine{result.winner + 1}",
        "score1": result.score1,
        "reason": result.reason,
        "moves": moves_to_text(result.moves, cfg.size),
        "five": moves_to_text(result.line, cfg.size),
        "times_ms": result.times_ms,
        "infos": result.infos,
        **({"swap2": result.swap2} if result.swap2 is not None else {}),
    }


def record_score1(record: dict[str, Any]) -> float:
    """engine1's score in a game record (from ``winner``, so older records work too)."""
    winner = record.get("winner")
    if winner is None:
        return 0.5
    if winner not in ("engine1", "engine2"):
        raise ValueError(f"game {record.get('game')}: unknown winner {winner!r}")
    return 1.0 if winner == "engine1" else 0.0


def pentanomial_from_records(records: Iterable[dict[str, Any]]) -> Pentanomial:
    """The pentanomial counts of the complete pairs in game records (game_record's dicts,
    in any order). The pair of a game is its ``pair`` field, or for records without one
    (older runs) (game - 1) // 2 + 1. ValueError on a game given twice."""
    tracker = PairTracker()
    seen: set[int] = set()
    for rec in records:
        game = int(rec["game"])
        if game in seen:
            raise ValueError(f"game {game} appears twice")
        seen.add(game)
        pair = int(rec.get("pair") or pair_number(game - 1) + 1)
        tracker.add(2 * (pair - 1) + (game - 1) % 2, record_score1(rec))
    return tracker.pentanomial


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The game records of a --records file (one JSON object per non-blank line)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@dataclass
class TimeUse:
    """How much of its turn an engine used on the moves it searched (our brain's MESSAGE
    says ``source search``); moves from the book, forced replies and threat-search wins are
    counted apart, since they take no time by design."""

    searched: int
    other: int
    mean_share: float
    median_share: float
    p90_share: float


def time_use(records: Iterable[dict[str, Any]], engine: str) -> TimeUse | None:
    """``engine`` ("engine1" / "engine2")'s share of the turn on its searched moves, from
    game records' ``times_ms`` and ``infos`` (one per move after the opening; black moves
    first when the opening has an even number of stones). None if no move of the engine
    names its source (another brain)."""
    shares: list[float] = []
    other = 0
    for rec in records:
        own_ms = rec.get(f"turn_ms{engine[-1]}") or rec.get("turn_ms")
        if not own_ms:
            continue
        black_first = len(str(rec.get("opening", "")).split()) % 2 == 0
        mover_is_black = black_first
        for ms, info in zip(rec.get("times_ms") or [], rec.get("infos") or [], strict=False):
            mover = rec.get("black") if mover_is_black else rec.get("white")
            mover_is_black = not mover_is_black
            if mover != engine:
                continue
            words = str(info).split()
            if "source" not in words[:-1]:
                continue
            if words[words.index("source") + 1] == "search":
                shares.append(ms / own_ms)
            else:
                other += 1
    if not shares:
        return None
    shares.sort()
    return TimeUse(
        searched=len(shares),
        other=other,
        mean_share=sum(shares) / len(shares),
        median_share=shares[len(shares) // 2],
        p90_share=shares[min(len(shares) - 1, int(0.9 * len(shares)))],
    )
