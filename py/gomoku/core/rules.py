"""Rule variants and board sizes.

A rule is a parameter of the pattern tables (gomoku.patterns.tables), per side. Freestyle: five or
more in a row wins. Standard: exactly five wins, six or more does not. Renju (RIF): white
wins with five or more; black wins only with exactly five and may not play a forbidden
point (overline, double four, double three; see gomoku.game.renju, and the lab's literal
reference gomoku_lab.renju_reference).
"""

from __future__ import annotations

import enum

from gomoku.core.errors import RuleError

MIN_SIZE = 15
MAX_SIZE = 20
DEFAULT_SIZE = 15


class Rule(enum.IntEnum):
    """Win condition. Values are stable: they appear in records and messages."""

    FREESTYLE = 0
    STANDARD = 1
    RENJU = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def overline_wins(self) -> bool:
        """True when six or more in a row counts as a win for *both* sides (freestyle only;
        in renju it depends on the side: see ``overline_wins_for``)."""
        return self is Rule.FREESTYLE

    def overline_wins_for(self, side: int) -> bool:
        """True when six or more in a row wins for ``side`` (1 black, 2 white): freestyle
        both, standard neither, renju white only."""
        return self is Rule.FREESTYLE or (self is Rule.RENJU and side == 2)

    @property
    def has_forbidden_points(self) -> bool:
        """True when black may not play some points (renju)."""
        return self is Rule.RENJU


def parse_rule(value: str | int | Rule) -> Rule:
    """Return the Rule for a name ("freestyle", "standard", "renju") or code (0, 1, 2).

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
            raise RuleError(
                f"unknown rule code {value!r} (0 = freestyle, 1 = standard, 2 = renju)"
            ) from None
    if isinstance(value, str):
        name = value.strip().lower()
        for rule in Rule:
            if rule.label == name:
                return rule
        raise RuleError(f"unknown rule {value!r} (expected 'freestyle', 'standard' or 'renju')")
    raise RuleError(f"unknown rule {value!r}")


def check_size(size: object) -> int:
    """Return size if it is a supported board size (MIN_SIZE..MAX_SIZE), else raise RuleError."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise RuleError(f"board size must be an integer, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RuleError(f"board size {size} not supported (use {MIN_SIZE}..{MAX_SIZE})")
    return size
