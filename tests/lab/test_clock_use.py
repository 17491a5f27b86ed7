"""gomoku_lab.clock_use: each colour's clock replayed from a game's measured move times."""

from __future__ import annotations

from gomoku_lab.clock_use import describe, side_use
from gomoku_lab.referee import GameResult, GameSpec


def test_each_colours_clock_is_replayed_from_the_referees_times():
    # one opening stone (black's): white moves first, then black, and so on
    spec = GameSpec(0, 0, [(7, 7)], 0)
    result = GameResult(spec, 0, "five", "", times_ms=[1000, 2000, 3000, 4000])
    white = side_use(result, 2, match_ms=5000, inc_ms=1000)
    assert white.times == [1000, 3000]
    assert white.used_ms == 4000 and white.given_ms == 7000
    assert white.least_left_ms == 2000  # 5 - 1 + 1 - 3
    assert white.largest_share == 0.6  # 3 s of the 5 s it had
    black = side_use(result, 1, match_ms=5000, inc_ms=1000)
    assert black.times == [2000, 4000]
    assert black.least_left_ms == 0  # 5 - 2 + 1 - 4
    assert black.largest_share == 1.0  # all of its 4 s
    assert describe(black).startswith("2 moves, used 6.0 s of 7 s given, least left 0.0 s")
    # no increment: the clock only runs down
    assert side_use(result, 1, match_ms=5000, inc_ms=0).least_left_ms == -1000
