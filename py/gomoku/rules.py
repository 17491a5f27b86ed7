"""Rule variants and board sizes.

A rule is a parameter of the pattern tables (see patterns.py); nothing else in the engine
branches on it. Freestyle: five or more in a row wins. Standard: exactly five wins, six or
more does not. Renju (black's forbidden moves) is not implemented yet.
"""

from __future__ import annotations

import enum

from .errors import RuleError

MIN_SIZE = 15
MAX_SIZE = 20
DEFAULT_SIZE = 15


class Rule(enum.IntEnum):
    """Win condition. Values are stable: they appear in records and messages."""

    FREESTYLE = 0
    STANDARD = 1

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def overline_wins(self) -> bool:
        """True when six or more in a row counts as a win."""
        return self is Rule.FREESTYLE


def parse_rule(value: str | int | Rule) -> Rule:
    """Return the Rule for a name ("freestyle", "standard") or code (0, 1).

    Raises RuleError for anything else.
    """
    if isinstance(value, Rule):
        return value
    if isinstance(value, bool):
        raise RuleError(f"unknown rule {value!r}")
    if isinstance(value, int):
        try:
            return Rule(value)
        except ValueError:
            raise RuleError(f"unknown rule code {value!r} (0 = freestyle, 1 = standard)") from None
    if isinstance(value, str):
        name = value.strip().lower()
        for rule in Rule:
            if rule.label == name:
                return rule
        raise RuleError(f"unknown rule {value!r} (expected 'freestyle' or 'standard')")
    raise RuleError(f"unknown rule {value!r}")


def check_size(size: object) -> int:
    """Return size if it is a supported board size (MIN_SIZE..MAX_SIZE), else raise RuleError."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise RuleError(f"board size must be an integer, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RuleError(f"board size {size} not supported (use {MIN_SIZE}..{MAX_SIZE})")
    return size
