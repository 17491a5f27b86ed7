"""Openings shared by the tests: scripted swap2 and Soosõrv-8 openings (every phase, every
choice, every refusal), played by the Python state machine (gomoku.game.opening_rules), and
the JSON fixture the page's web/model/opening.js is checked against (``python
tests/engine/game/opening_cases.py`` rewrites it; a test checks that the committed file is what the
Python machine says now)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "py"))

from gomoku.game import opening_rules as O  # noqa: E402

FIXTURE = ROOT / "tests" / "page" / "node" / "fixtures" / "opening.json"

# (name, opening rule, board size, game rule, the actions as a record writes them). A
# scenario whose last action is refused ends there: the fixture keeps its error's code.
SCENARIOS: list[tuple[str, str, int, str, str]] = [
    ("swap2: the second player takes black", "swap2", 15, "freestyle", "h8 h9 j10 black"),
    ("swap2: the second player takes white", "swap2", 15, "standard", "h8 h9 j10 white"),
    (
        "swap2: two more, the first player takes black",
        "swap2",
        15,
        "freestyle",
        "h8 h9 j10 two i9 k8 black",
    ),
    (
        "swap2: two more, the first player takes white",
        "swap2",
        15,
        "standard",
        "h8 h9 j10 two i9 k8 white",
    ),
    ("swap2: anywhere on 20x20", "swap2", 20, "standard", "a1 t20 j10 two k11 a20 white"),
    ("swap2: a taken point", "swap2", 15, "freestyle", "h8 h8"),
    ("swap2: a colour before the third stone", "swap2", 15, "freestyle", "h8 h9 black"),
    ("swap2: a fourth stone instead of a choice", "swap2", 15, "freestyle", "h8 h9 j10 k11"),
    ("swap2: a number", "swap2", 15, "freestyle", "h8 h9 j10 3"),
    (
        "swap2: two, then a colour before the stones",
        "swap2",
        15,
        "freestyle",
        "h8 h9 j10 two i9 white",
    ),
    ("swap2: two twice", "swap2", 15, "freestyle", "h8 h9 j10 two i9 k8 two"),
    ("swap2: an action after the opening", "swap2", 15, "freestyle", "h8 h9 j10 black k11"),
    ("swap2: a word that means nothing", "swap2", 15, "freestyle", "h8 pass"),
    ("swap2: off the board", "swap2", 15, "freestyle", "h8 p16"),
    (
        "soosorv8: stay, stay, three offers",
        "soosorv8",
        15,
        "renju",
        "h8 h9 j10 white i7 3 black j8 g8 k11 g8",
    ),
    (
        "soosorv8: swap, swap back, one offer",
        "soosorv8",
        15,
        "renju",
        "h8 i9 j8 black g9 1 white k10 k10",
    ),
    (
        "soosorv8: eight offers",
        "soosorv8",
        15,
        "renju",
        "h8 i9 h10 white j7 8 black f8 g6 k9 j11 l8 e11 m12 d4 e11",
    ),
    ("soosorv8: the first stone off the centre", "soosorv8", 15, "renju", "h9"),
    ("soosorv8: the second stone not next to the first", "soosorv8", 15, "renju", "h8 h10"),
    ("soosorv8: the third stone outside the 5x5", "soosorv8", 15, "renju", "h8 h9 h11"),
    ("soosorv8: the third stone on the 5x5's corner", "soosorv8", 15, "renju", "h8 i9 j10 black"),
    ("soosorv8: nothing declared", "soosorv8", 15, "renju", "h8 h9 j10 white i7 0"),
    ("soosorv8: nine declared", "soosorv8", 15, "renju", "h8 h9 j10 white i7 9"),
    (
        "soosorv8: a placement instead of the number",
        "soosorv8",
        15,
        "renju",
        "h8 h9 j10 white i7 i6",
    ),
    ("soosorv8: a symmetrical offer", "soosorv8", 15, "renju", "h8 h9 h10 white h6 2 black g7 i7"),
    ("soosorv8: the same offer twice", "soosorv8", 15, "renju", "h8 h9 j10 white i7 3 black j8 j8"),
    ("soosorv8: an offer on a stone", "soosorv8", 15, "renju", "h8 h9 j10 white i7 3 black h9"),
    (
        "soosorv8: choosing a point not offered",
        "soosorv8",
        15,
        "renju",
        "h8 h9 j10 white i7 2 black j8 g8 k11",
    ),
    ("soosorv8: two is not a choice", "soosorv8", 15, "renju", "h8 h9 j10 two"),
]

# Openings that cannot start: (name, opening rule, size, game rule).
STARTS = [
    ("swap2 under renju", "swap2", 15, "renju"),
    ("soosorv8 under freestyle", "soosorv8", 15, "freestyle"),
    ("soosorv8 on 17x17", "soosorv8", 17, "renju"),
    ("an unknown opening rule", "pro", 15, "freestyle"),
]


def play(rule: str, size: int, game_rule: str, words: str) -> dict:
    """The scenario played: every state after an accepted action, and the refusal's code."""
    state = O.start(rule, size, game_rule)
    steps = [state.to_dict()]
    error = None
    for word in words.split():
        try:
            state = O.apply(state, O.action_from_text(state, word))
        except O.OpeningError as exc:
            error = exc.code
            break
        steps.append(state.to_dict())
    return {"steps": steps, "error": error}


def fixture() -> dict:
    """Everything the page's machine must agree on."""
    cases = []
    for name, rule, size, game_rule, words in SCENARIOS:
        cases.append(
            {
                "name": name,
                "rule": rule,
                "size": size,
                "gameRule": game_rule,
                "actions": words.split(),
                **play(rule, size, game_rule, words),
            }
        )
    starts = []
    for name, rule, size, game_rule in STARTS:
        try:
            O.start(rule, size, game_rule)
            code = None
        except O.OpeningError as exc:
            code = exc.code
        starts.append(
            {"name": name, "rule": rule, "size": size, "gameRule": game_rule, "error": code}
        )
    return {"cases": cases, "starts": starts}


def fixture_text() -> str:
    return json.dumps(fixture(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(fixture_text(), encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}")
