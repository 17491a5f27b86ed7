"""An outside Gomocup brain (Rapfi) asked about positions under any rule, and the store
of its answers keyed by rule, so that nothing is asked twice.

``RuleJudge`` is ``review_set.Judge`` (hash cleared before each position, the position
given with ``BOARD``, the last ``Eval`` of its MESSAGE lines and its move kept) with the
rule sent once after START (``INFO rule``: 0 freestyle, 1 standard, 4 renju). The brain
is told the side to move by the stone counts of BOARD (equal counts: black to move), as
Gomocup brains read it, so renju's forbidden points are the right side's.

``PositionJudgements`` is a JSON-lines file of such answers keyed by (rule, size, moves,
nodes): one line ``{"rule", "size", "moves", "nodes", "eval", "best"}`` per position,
appended as they come.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from gomoku.core.geometry import Point, moves_to_text
from gomoku.core.rules import Rule, parse_rule
from gomoku_lab.referee import INFO_RULE_BITS
from gomoku_lab.review_set import Judge, SetError, Verdict, read_jsonl


class RuleJudge(Judge):
    """``review_set.Judge`` for one rule and board size (SetError when the brain does not
    start)."""

    def __init__(
        self, command: str, rule: Rule | str, size: int = 15, timeout_s: float = 600.0
    ) -> None:
        self.rule = parse_rule(rule)
        super().__init__(command, size, timeout_s)
        self.engine.send(f"INFO rule {INFO_RULE_BITS[self.rule]}")

    def ask(self, moves: list[Point], nodes: int) -> tuple[str, str]:
        """(eval, best) for the side to move after ``moves``: "+M13", "-36", "none"
        (answered without a search); the move as "h8" text."""
        j = self.judge(moves, nodes)
        return j.eval, j.best


@dataclass(frozen=True)
class PositionJudgement:
    rule: str
    size: int
    moves: str
    nodes: int
    eval: str
    best: str

    @property
    def verdict(self) -> Verdict:
        return Verdict.parse(self.eval)


class PositionJudgements:
    """The file of judgements by (rule, size, moves, nodes); ``get`` or ``ask`` (a judge
    asked only when the position is not in the file, the answer appended)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[tuple[str, int, str, int], PositionJudgement] = {}
        for row in read_jsonl(path):
            try:
                j = PositionJudgement(
                    parse_rule(row["rule"]).label,
                    int(row["size"]),
                    str(row["moves"]),
                    int(row["nodes"]),
                    str(row["eval"]),
                    str(row["best"]),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise SetError(f"{path}: a judgement without {exc}") from None
            self.known[(j.rule, j.size, j.moves, j.nodes)] = j

    def get(
        self, rule: Rule, size: int, moves: list[Point], nodes: int
    ) -> PositionJudgement | None:
        return self.known.get((rule.label, size, moves_to_text(moves, size), nodes))

    def ask(self, judge: RuleJudge, moves: list[Point], nodes: int) -> PositionJudgement:
        """The judgement of ``moves`` at ``nodes`` by ``judge``'s rule and size: from the
        file, else asked and appended."""
        known = self.get(judge.rule, judge.size, moves, nodes)
        if known is not None:
            return known
        ev, best = judge.ask(moves, nodes)
        j = PositionJudgement(
            judge.rule.label, judge.size, moves_to_text(moves, judge.size), nodes, ev, best
        )
        self.known[(j.rule, j.size, j.moves, j.nodes)] = j
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(j)) + "\n")
        return j
