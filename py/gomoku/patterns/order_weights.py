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

from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from gomoku.core.rules import Rule, parse_rule
from gomoku.patterns.weights import (
    ATTACK_WEIGHT,
    DATA_DIR,
    DEFENCE_WEIGHT,
    MALFORMED,
    SUMMARY_INDEX,
    SUMMARY_LIST,
    THREAT_CLASSES,
    doc_entry,
    dump_doc,
    load_shipped,
    per_direction_table,
    read_doc,
    save_text,
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
        return dump_doc(doc)

    def save(self, path: Path) -> None:
        save_text(path, self.to_json())

    @classmethod
    def from_json(cls, text: str, source: str = "") -> OrderWeights:
        """Parse an ordering file; ValueError when anything is missing or malformed."""
        try:
            doc = read_doc(text, ORDER_FORMAT, "ordering")
            rule = parse_rule(doc["rule"])
            unit = int(doc_entry(doc, "unit"))
            cells = doc_entry(doc, "cells")
            own = [-1] * len(SUMMARY_LIST)
            opp = [-1] * len(SUMMARY_LIST)
            for name, (a, d) in cells.items():
                i = SUMMARY_INDEX[summary_from_name(name)]
                own[i], opp[i] = int(a), int(d)
            pair = [int(v) for row in doc_entry(doc, "threat") for v in row]
            last = [int(v) for row in doc_entry(doc, "last") for v in row]
            if len(pair) != THREAT_PAIRS or len(last) != LAST_CATEGORIES**2:
                raise ValueError("the threat pair or last stones table has the wrong size")
            if min(own) < 0 or min(opp) < 0 or min(pair) < 0 or min(last) < 0:
                raise ValueError("a cell summary is missing or a value is negative")
            if max(own) + max(opp) + max(pair) + max(last) > MAX_SCORE:
                raise ValueError(f"scores above {MAX_SCORE}")
            return cls(rule, unit, own, opp, pair, last, str(doc.get("note", "")), source)
        except MALFORMED as exc:
            raise ValueError(f"malformed ordering file {source}: {exc!r}") from None

    @classmethod
    def classic(cls, rule: Rule) -> OrderWeights:
        """The hand-typed tables: a weight per direction class, summed."""
        own, opp = per_direction_table(ATTACK_WEIGHT), per_direction_table(DEFENCE_WEIGHT)
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
    w = load_shipped((order_path(rule), order_path(Rule.FREESTYLE)), OrderWeights.from_json)
    return OrderWeights.classic(rule) if w is None else replace(w, rule=rule)
