"""Evaluation and move-ordering weights: data, and the code that loads it.

Every empty cell has, for each side and each of the 4 directions, a pattern class
(patterns.py): what that side would make there. A cell's *one-side summary* is the
multiset of its 4 classes (715 possible). The evaluation (evaluation.py) sums, over the
empty cells, a value per summary for the side to move (``mover``) and one for the other
side (``other``), and adds a value for the threat situation: the best threat class
(patterns.threat_class) of each side (``threat``), and ``tempo``. The tables are fitted
to game results by ``python -m gomoku_lab.tune`` and ship as ``data/eval-<rule>.json``;
``EvalWeights.classic`` is the hand-typed model they replaced (``PATTERN_WEIGHT`` per
direction, the side to move's sum counting 18/16).

Move ordering scores a cell from its 4 classes for both sides
(``ATTACK_WEIGHT``/``DEFENCE_WEIGHT``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from gomoku.core.rules import Rule, parse_rule
from gomoku.patterns.tables import (
    COUNT_BITS,
    FIVE,
    FOUR,
    NONE,
    ONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    OVERLINE,
    THREE,
    TWO,
    all_summaries,
    threat_class,
)

# Per (empty cell, direction) weight of a pattern class, for the evaluation.
PATTERN_WEIGHT: dict[int, int] = {
    NONE: 0,
    OVERLINE: 0,
    ONE: 1,
    TWO: 3,
    OPEN_TWO: 8,
    THREE: 10,
    OPEN_THREE: 30,
    FOUR: 40,
    OPEN_FOUR: 120,
    FIVE: 400,
}

# The side to move's sum counts this much more (in 1/16) than the opponent's: it moves next.
TEMPO_NUMERATOR = 18
TEMPO_DENOMINATOR = 16

# Move ordering: per direction value of a cell for the mover (attack) and for blocking
# the opponent (defence).
ATTACK_WEIGHT: dict[int, int] = {
    NONE: 0,
    OVERLINE: 0,
    ONE: 2,
    TWO: 6,
    OPEN_TWO: 20,
    THREE: 24,
    OPEN_THREE: 80,
    FOUR: 100,
    OPEN_FOUR: 1000,
    FIVE: 10000,
}
DEFENCE_WEIGHT: dict[int, int] = {
    NONE: 0,
    OVERLINE: 0,
    ONE: 1,
    TWO: 4,
    OPEN_TWO: 12,
    THREE: 14,
    OPEN_THREE: 60,
    FOUR: 70,
    OPEN_FOUR: 900,
    FIVE: 9000,
}


# --- The fitted evaluation -----------------------------------------------------------------

SUMMARY_LIST: tuple[int, ...] = tuple(sorted(all_summaries()))
SUMMARY_INDEX: dict[int, int] = {s: i for i, s in enumerate(SUMMARY_LIST)}
SUMMARY_THREAT: tuple[int, ...] = tuple(threat_class(s) for s in SUMMARY_LIST)
THREAT_CLASSES = 11  # patterns.T_NONE .. T_FIVE

# Short names of the pattern classes in the weights file, index = class.
CLASS_CODES = ("-", "6", "1", "2", "2o", "3", "3o", "4", "4o", "5")
WEIGHTS_FORMAT = 1
DATA_DIR = Path(__file__).resolve().parents[1] / "data"


def summary_name(s: int) -> str:
    """A one-side summary as its 4 class codes, strongest first: "4o,3o,2,-"."""
    codes = []
    for c in range(len(CLASS_CODES) - 1, -1, -1):
        codes += [CLASS_CODES[c]] * ((s >> (COUNT_BITS * c)) & 7)
    return ",".join(codes)


def summary_from_name(name: str) -> int:
    """Inverse of summary_name; ValueError unless it names 4 known classes."""
    parts = name.split(",")
    if len(parts) != 4 or any(p not in CLASS_CODES for p in parts):
        raise ValueError(f"not a summary name: {name!r}")
    return sum(1 << (COUNT_BITS * CLASS_CODES.index(p)) for p in parts)


def weights_path(rule: Rule) -> Path:
    return DATA_DIR / f"eval-{rule.label}.json"


# --- What the evaluation's and the ordering's data files share ------------------------------
# Both are JSON with a "format" number, a rule, and keys that describe themselves ("cells
# (summary: ...)"): a reader finds an entry by the start of its key.

MALFORMED = (KeyError, TypeError, ValueError, StopIteration, json.JSONDecodeError)


def doc_entry(doc: dict, prefix: str) -> object:
    """The value of the entry whose key starts with ``prefix`` (StopIteration if none)."""
    return next(v for k, v in doc.items() if k.startswith(prefix))


def read_doc(text: str, expected_format: int, kind: str) -> dict:
    """The parsed document, after checking its format number (ValueError, KeyError)."""
    doc = json.loads(text)
    if doc["format"] != expected_format:
        raise ValueError(f"{kind} format {doc['format']} (expected {expected_format})")
    return doc


def dump_doc(doc: dict) -> str:
    return json.dumps(doc, indent=1) + "\n"


def save_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def per_direction_table(weight: dict[int, int]) -> list[int]:
    """Per summary index: the sum over its 4 directions of a weight per pattern class."""
    return [sum(weight[c] * ((s >> (COUNT_BITS * c)) & 7) for c in range(10)) for s in SUMMARY_LIST]


def load_shipped(paths: tuple[Path, ...], parse):
    """The first of ``paths`` that reads and parses (``parse(text, source)``), else None:
    a missing or broken file never stops the engine."""
    for path in paths:
        try:
            return parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, ValueError):
            continue
    return None


FINE = 16  # table units per centi-unit: the evaluation sums in these, then divides

# Key of the optional tables for white to move (weights by colour); the top-level tables
# are then black's to move.
WHITE_KEY_PREFIX = "white to move"
WHITE_KEY = WHITE_KEY_PREFIX + " (the tables above are for black to move)"


@dataclass(frozen=True)
class EvalWeights:
    """Integer evaluation tables in 1/FINE centi-units (``scale`` centi-units per logit
    unit of the fitted model; the file stores logit units).

    ``mover[i]``/``other[i]``: value of an empty cell whose one-side summary is
    SUMMARY_LIST[i], for the side to move / the other side. ``threat[m * 11 + o]``: value
    when the side to move's best threat class is m and the other side's is o.

    By colour (renju, where black and white play different games): when the ``white_*``
    tables are given, they are used when white is to move and the ones above when black
    is; without them the same tables serve both colours. The engine's incremental sums
    already keep the four (colour, mover/other) terms apart (board.CellValues), so
    tables by colour cost nothing at run time."""

    rule: Rule
    scale: int
    mover: list[int]
    other: list[int]
    threat: list[int]
    tempo: int
    note: str = ""
    source: str = field(default="", compare=False)
    white_mover: list[int] | None = None
    white_other: list[int] | None = None
    white_threat: list[int] | None = None
    white_tempo: int | None = None

    @property
    def by_colour(self) -> bool:
        return self.white_mover is not None

    def for_side(self, side: int) -> tuple[list[int], list[int], list[int], int]:
        """(mover, other, threat, tempo) tables used when ``side`` (1 black, 2 white) is
        to move."""
        if side == 2 and self.by_colour:
            return self.white_mover, self.white_other, self.white_threat, self.white_tempo
        return self.mover, self.other, self.threat, self.tempo

    def cell_tables(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Tables of a cell's black summary as the mover's (black to move) and as the other
        side's (white to move), then of its white summary as the mover's (white to move) and
        as the other side's (black to move): the four incremental sums of the board."""
        b_mover, b_other, _, _ = self.for_side(1)
        w_mover, w_other, _, _ = self.for_side(2)
        return b_mover, w_other, w_mover, b_other

    def to_json(self) -> str:
        unit = self.scale * FINE

        def logit(v: int) -> float:
            return round(v / unit, 5)

        def tables(mover: list[int], other: list[int], threat: list[int], tempo: int) -> dict:
            cells = {
                summary_name(s): [logit(mover[i]), logit(other[i])]
                for i, s in enumerate(SUMMARY_LIST)
            }
            rows = [
                [logit(v) for v in threat[m * THREAT_CLASSES : (m + 1) * THREAT_CLASSES]]
                for m in range(THREAT_CLASSES)
            ]
            return {
                "tempo": logit(tempo),
                "threat (rows: side to move's best class, columns: the other side's)": rows,
                "cells (summary: [side to move, other side])": cells,
            }

        doc = {
            "format": WEIGHTS_FORMAT,
            "rule": self.rule.label,
            "scale (centi-units per logit unit)": self.scale,
            "note": self.note,
            **tables(self.mover, self.other, self.threat, self.tempo),
        }
        if self.by_colour:
            doc[WHITE_KEY] = tables(*self.for_side(2))
        return dump_doc(doc)

    def save(self, path: Path) -> None:
        save_text(path, self.to_json())

    @classmethod
    def from_json(cls, text: str, source: str = "") -> EvalWeights:
        """Parse a weights file; ValueError when anything is missing or malformed."""
        try:
            doc = read_doc(text, WEIGHTS_FORMAT, "weights")
            rule = parse_rule(doc["rule"])
            scale = int(doc_entry(doc, "scale"))
            unit = scale * FINE

            def fine(v: object) -> int:
                return int(round(float(v) * unit))

            def tables(part: dict) -> tuple[list[int], list[int], list[int], int]:
                rows = doc_entry(part, "threat")
                cells = doc_entry(part, "cells")
                mover = [0] * len(SUMMARY_LIST)
                other = [0] * len(SUMMARY_LIST)
                seen = set()
                for name, (m, o) in cells.items():
                    i = SUMMARY_INDEX[summary_from_name(name)]
                    mover[i], other[i] = fine(m), fine(o)
                    seen.add(i)
                if len(seen) != len(SUMMARY_LIST):
                    raise ValueError(f"{len(SUMMARY_LIST) - len(seen)} cell summaries missing")
                threat = [fine(v) for row in rows for v in row]
                if len(rows) != THREAT_CLASSES or len(threat) != THREAT_CLASSES**2:
                    raise ValueError("the threat table is not 11 x 11")
                return mover, other, threat, fine(part["tempo"])

            mover, other, threat, tempo = tables(doc)
            note = str(doc.get("note", ""))
            w = cls(rule, scale, mover, other, threat, tempo, note, source)
            white = next((v for k, v in doc.items() if k.startswith(WHITE_KEY_PREFIX)), None)
            if white is not None:
                wm, wo, wt, wtempo = tables(white)
                w = replace(w, white_mover=wm, white_other=wo, white_threat=wt, white_tempo=wtempo)
            return w
        except MALFORMED as exc:
            raise ValueError(f"malformed weights file {source}: {exc!r}") from None

    @classmethod
    def classic(cls, rule: Rule) -> EvalWeights:
        """The hand-typed model: PATTERN_WEIGHT per direction, the mover's x 18/16."""
        sums = per_direction_table(PATTERN_WEIGHT)
        mover = [w * FINE * TEMPO_NUMERATOR // TEMPO_DENOMINATOR for w in sums]
        other = [-w * FINE for w in sums]
        zeros = [0] * THREAT_CLASSES**2
        return cls(rule, 100, mover, other, zeros, 0, "classic hand-typed weights", "classic")

    @classmethod
    def load(cls, rule: Rule) -> EvalWeights:
        return load_weights(rule)


@cache
def load_weights(rule: Rule) -> EvalWeights:
    """The shipped weights of a rule: its own file, else freestyle's, else the classic
    model (a missing or broken file never stops the engine)."""
    w = load_shipped((weights_path(rule), weights_path(Rule.FREESTYLE)), EvalWeights.from_json)
    return EvalWeights.classic(rule) if w is None else replace(w, rule=rule)
