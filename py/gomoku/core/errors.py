"""Exception types of the engine. Every bad input raises one of these with a message."""


class GomokuError(ValueError):
    """Base class: bad input to the engine (a ValueError, so callers may catch either)."""


class RuleError(GomokuError):
    """Unknown rule name or code, or unsupported board size."""


class CoordinateError(GomokuError):
    """A move text such as "h8" or an (x, y) pair that is malformed or off the board."""


class IllegalMoveError(GomokuError):
    """A move on an occupied cell, after the game ended, or an undo with no move to undo."""
