"""Evaluation and move-ordering weights: data only, in one place.

Every empty cell has, for each side and each of the 4 directions, a pattern class
(patterns.py): what that side would make there. The static evaluation sums
``PATTERN_WEIGHT`` over all (empty cell, direction) pairs for each side; move ordering
scores a cell from its 4 classes for both sides (``ATTACK_WEIGHT``/``DEFENCE_WEIGHT``).
"""

from __future__ import annotations

from .patterns import (
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
