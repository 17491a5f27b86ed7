"""Move-ordering weights: data, and the code that loads it.

Inside a threat bucket (movegen.py) the search orders a cell by

    own[i] + opp[j] + pair[threat class of i][threat class of j] + last[a][b]

where i and j index (weights.SUMMARY_LIST) the cell's one-side summaries for the side to
move and for the opponent, and a, b say where the cell lies from the mover's last stone
and from the opponent's (LAST_CATEGORIES: next to it, at distance 2, on one of its lines
within 4, elsewhere). The tables are fitted to the moves deeper searches chose
(``python -m gomoku_lab.order_fit``) and ship as ``data/order-<rule>.json`` in integer
units (``unit`` per logit unit of the fitted softmax). Without a usable file the
hand-typed tables (weights.ATTACK_WEIGHT / DEFENCE_WEIGHT per direction) are used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from gomoku.core.rules import Rule, parse_rule
from gomoku.patterns.tables import COUNT_BITS
from gomoku.patterns.weights import (
    ATTACK_WEIGHT,
    DATA_DIR,
    DEFENCE_WEIGHT,
    SUMMARY_INDEX,
    SUMMARY_LIST,
    THREAT_CLASSES,
    summary_from_name,
    summary_name,
)

ORDER_FORMAT = 1
MAX_SCORE = (1 << 20) - 1  # a cell's whole score must stay below movegen.BUCKET_SCALE
THREAT_PAIRS = THREAT_CLASSES * THREAT_CLASSES
LAST_CATEGORIES = 4  # next to the stone, at distance 2, on its lines within 4, elsewhere


def order_path(rule: Rule) -> Path:
    return DATA_DIR / f"order-{rule.label}.json"


@dataclass(frozen=True)
class OrderWeights:
    """Integer ordering tables per one-side summary index; both >= 0."""

    rule: Rule
    unit: int
    own: list[int]
    opp: list[int]
    pair: list[int]  # THREAT_PAIRS: [mover's class * THREAT_CLASSES + opponent's]
    last: list[int]  # LAST_CATEGORIES ** 2: [to own last * LAST_CATEGORIES + to theirs]
    note: str = ""
    source: str = field(default="", compare=False)

    def to_json(self) -> str:
        doc = {
            "format": ORDER_FORMAT,
            "rule": self.rule.label,
            "unit (per logit unit)": self.unit,
            "note": self.note,
            "threat pair (rows: mover's best class at the cell, columns: opponent's)": [
                self.pair[m * THREAT_CLASSES : (m + 1) * THREAT_CLASSES]
                for m in range(THREAT_CLASSES)
            ],
            "last stones (rows: from the mover's last stone, columns: from the opponent's)": [
                self.last[a * LAST_CATEGORIES : (a + 1) * LAST_CATEGORIES]
                for a in range(LAST_CATEGORIES)
            ],
            "cells (summary: [side to move, opponent])": {
                summary_name(s): [self.own[i], self.opp[i]] for i, s in enumerate(SUMMARY_LIST)
            },
        }
        return "\n".join(json.dumps(doc, indent=1).splitlines()) + "\n"

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str, source: str = "") -> OrderWeights:
        """Parse an ordering file; ValueError when anything is missing or malformed."""
        try:
            doc = json.loads(text)
            if doc["format"] != ORDER_FORMAT:
                raise ValueError(f"ordering format {doc['format']} (expected {ORDER_FORMAT})")
            rule = parse_rule(doc["rule"])
            unit = int(next(v for k, v in doc.items() if k.startswith("unit")))
            cells = next(v for k, v in doc.items() if k.startswith("cells"))
            own = [-1] * len(SUMMARY_LIST)
            opp = [-1] * len(SUMMARY_LIST)
            for name, (a, d) in cells.items():
                i = SUMMARY_INDEX[summary_from_name(name)]
                own[i], opp[i] = int(a), int(d)
            pair = [int(v) for row in next(v for k, v in doc.items() if k.startswith("threat"))
                    for v in row]  # fmt: skip
            last = [int(v) for row in next(v for k, v in doc.items() if k.startswith("last"))
                    for v in row]  # fmt: skip
            if len(pair) != THREAT_PAIRS or len(last) != LAST_CATEGORIES**2:
                raise ValueError("the threat pair or last stones table has the wrong size")
            if min(own) < 0 or min(opp) < 0 or min(pair) < 0 or min(last) < 0:
                raise ValueError("a cell summary is missing or a value is negative")
            if max(own) + max(opp) + max(pair) + max(last) > MAX_SCORE:
                raise ValueError(f"scores above {MAX_SCORE}")
            return cls(rule, unit, own, opp, pair, last, str(doc.get("note", "")), source)
        except (KeyError, TypeError, ValueError, StopIteration, json.JSONDecodeError) as exc:
            raise ValueError(f"malformed ordering file {source}: {exc!r}") from None

    @classmethod
    def classic(cls, rule: Rule) -> OrderWeights:
        """The hand-typed tables: a weight per direction class, summed."""

        def table(weight: dict[int, int]) -> list[int]:
            return [
                sum(weight[c] * ((s >> (COUNT_BITS * c)) & 7) for c in range(10))
                for s in SUMMARY_LIST
            ]

        own, opp = table(ATTACK_WEIGHT), table(DEFENCE_WEIGHT)
        zeros = [0] * THREAT_PAIRS
        return cls(rule, 1, own, opp, zeros, [0] * LAST_CATEGORIES**2, "classic", "classic")

    @property
    def uses_last(self) -> bool:
        """Whether the last stones table orders anything (the classic one does not)."""
        return len(set(self.last)) > 1


@cache
def load_order(rule: Rule) -> OrderWeights:
    """The shipped ordering of a rule: its own file, else freestyle's, else the classic
    tables (a missing or broken file never stops the engine)."""
    for candidate in (order_path(rule), order_path(Rule.FREESTYLE)):
        try:
            text = candidate.read_text(encoding="utf-8")
            w = OrderWeights.from_json(text, str(candidate))
        except (OSError, ValueError):
            continue
        return OrderWeights(rule, w.unit, w.own, w.opp, w.pair, w.last, w.note, w.source)
    return OrderWeights.classic(rule)
