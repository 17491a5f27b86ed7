"""The generated pattern tables against a slow brute-force classifier, for every line key."""

from __future__ import annotations

import random
from functools import cache

import pytest

from gomoku.core.rules import Rule
from gomoku.patterns import tables as P

OWN, BLOCK, EMPTY = "X", "O", "."


def line_for(key: int, half: int, side: int) -> str:
    """The line of a key as seen by ``side``: X own (centre included), O blocked, . empty."""
    out = []
    for i, state in enumerate(P.decode_key(key, half)):
        if i == half or state == side:
            out.append(OWN)
        elif state == P.EMPTY:
            out.append(EMPTY)
        else:
            out.append(BLOCK)  # opponent stone or off the board: the same for this side
    return "".join(out)


def runs_through_centre(line: str, centre: int) -> int:
    lo = centre
    while lo > 0 and line[lo - 1] == OWN:
        lo -= 1
    hi = centre
    while hi < len(line) - 1 and line[hi + 1] == OWN:
        hi += 1
    return hi - lo + 1


@cache
def brute(line: str, centre: int, exact: bool) -> int:
    """Classify by trying completions: five, then count winning fills, then recurse."""
    run = runs_through_centre(line, centre)
    if (run == 5) if exact else (run >= 5):
        return P.FIVE
    if exact and run >= 6:
        return P.OVERLINE
    fills = [i for i, c in enumerate(line) if c == EMPTY]
    wins = 0
    for i in fills:
        filled = line[:i] + OWN + line[i + 1 :]
        r = runs_through_centre(filled, centre)
        if (r == 5) if exact else (r >= 5):
            wins += 1
    if wins >= 2:
        return P.OPEN_FOUR
    if wins == 1:
        return P.FOUR
    best = P.NONE
    step_down = {
        P.OPEN_FOUR: P.OPEN_THREE,
        P.FOUR: P.THREE,
        P.OPEN_THREE: P.OPEN_TWO,
        P.THREE: P.TWO,
        P.OPEN_TWO: P.ONE,
        P.TWO: P.ONE,
    }
    for i in fills:
        filled = line[:i] + OWN + line[i + 1 :]
        best = max(best, step_down.get(brute(filled, centre, exact), P.NONE))
    return best


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.slow
def test_tables_match_brute_force(rule: Rule) -> None:
    table = P.pattern_table(rule)
    half = table.half
    exact = {side: not rule.overline_wins_for(side) for side in (P.BLACK, P.WHITE)}
    for key in range(table.size):  # every key: 4**8 freestyle, 4**10 standard and renju
        for side, got in ((P.BLACK, table.black[key]), (P.WHITE, table.white[key])):
            want = brute(line_for(key, half, side), half, exact[side])
            assert got == want, (rule, line_for(key, half, side), P.PATTERN_NAMES[got])


@pytest.mark.parametrize("rule", list(Rule))
def test_tables_are_mirror_symmetric(rule: Rule) -> None:
    """Reversing a line never changes its class (needed for symmetric evaluation)."""
    table = P.pattern_table(rule)
    half = table.half
    rng = random.Random(7)
    for key in rng.sample(range(table.size), 20_000):
        cells = P.decode_key(key, half)
        rev = P.encode_key(cells[::-1], half)
        assert table.black[key] == table.black[rev]
        assert table.white[key] == table.white[rev]


def test_colour_swap_symmetry() -> None:
    table = P.pattern_table(Rule.FREESTYLE)
    swap = {0: 0, 1: 2, 2: 1, 3: 3}
    for key in range(0, table.size, 7):
        cells = P.decode_key(key, table.half)
        swapped = P.encode_key([swap[c] for c in cells], table.half)
        assert table.black[key] == table.white[swapped]


@pytest.mark.parametrize(
    ("line", "rule", "expected"),
    [
        ("....X....", Rule.FREESTYLE, P.ONE),
        ("...XX.X..", Rule.FREESTYLE, P.OPEN_THREE),  # split three _XX_X_
        ("O.XXX.O..", Rule.FREESTYLE, P.THREE),
        ("#XXXX....", Rule.FREESTYLE, P.FOUR),
        ("..XXXX...", Rule.FREESTYLE, P.OPEN_FOUR),  # _XXXX_ with the centre
        ("..XXXXX..", Rule.FREESTYLE, P.FIVE),
        (".XXXXXX..", Rule.FREESTYLE, P.FIVE),  # overline wins in freestyle
        ("X.XX.X.X.", Rule.FREESTYLE, P.OPEN_FOUR),  # two winning cells on one line
        ("..XXXXX....", Rule.STANDARD, P.FIVE),
        ("..XXXXXX...", Rule.STANDARD, P.OVERLINE),
        ("X.XXX.X....", Rule.STANDARD, P.FIVE),
        ("OXXX.X.....", Rule.STANDARD, P.FOUR),
        ("XXXX.XX....", Rule.STANDARD, P.TWO),  # filling e makes six: no four here
    ],
)
def test_named_shapes(line: str, rule: Rule, expected: int) -> None:
    """Hand-checked shapes, written with the centre at the middle character."""
    table = P.pattern_table(rule)
    half = table.half
    states = {".": P.EMPTY, "X": P.BLACK, "O": P.WHITE, "#": P.WALL}
    key = P.encode_key([states[c] for c in line], half)
    assert P.PATTERN_NAMES[table.black[key]] == P.PATTERN_NAMES[expected]


@pytest.mark.parametrize(
    ("line", "black", "white"),
    [
        ("..XXXXX....", P.FIVE, P.FIVE),
        ("..XXXXXX...", P.OVERLINE, P.FIVE),  # six: black's overline, white's five
        ("XXXX.XX....", P.TWO, P.FOUR),  # white: filling e makes a seven, which wins
        ("X.XXX.X....", P.FIVE, P.FIVE),
    ],
)
def test_renju_classifies_each_side_by_its_own_win(line: str, black: int, white: int) -> None:
    """Renju: black's table is standard's (exact five), white's freestyle's (five or more),
    both on the 11-cell key. X is the side being classified, O the other side."""
    table = P.pattern_table(Rule.RENJU)
    assert table.half == 5
    for side, want, got_table in ((P.BLACK, black, table.black), (P.WHITE, white, table.white)):
        own, other = side, 3 - side
        states = {".": P.EMPTY, "X": own, "O": other, "#": P.WALL}
        key = P.encode_key([states[c] for c in line], table.half)
        assert P.PATTERN_NAMES[got_table[key]] == P.PATTERN_NAMES[want], side
    assert table.black == P.pattern_table(Rule.STANDARD).black


def test_threat_classes_combine_directions() -> None:
    def summary(*codes: int) -> int:
        return sum(1 << (P.COUNT_BITS * c) for c in codes + (P.NONE,) * (4 - len(codes)))

    assert P.threat_class(summary(P.FOUR, P.FOUR)) == P.T_OPEN_FOUR  # double four
    assert P.threat_class(summary(P.FOUR, P.OPEN_THREE)) == P.T_FOUR_THREE
    assert P.threat_class(summary(P.OPEN_THREE, P.OPEN_THREE)) == P.T_DOUBLE_THREE
    assert P.threat_class(summary(P.FIVE, P.TWO)) == P.T_FIVE
    assert P.threat_class(summary(P.OPEN_TWO, P.OPEN_TWO)) == P.T_DOUBLE_TWO
    assert P.threat_class(summary()) == P.T_NONE
    assert len(P.all_summaries()) == 715


@pytest.mark.parametrize("rule", list(Rule))
def test_packaged_cache_equals_generation(rule: Rule) -> None:
    """The gzip tables shipped in the package are exactly what the generator makes now
    (regenerate with `python -m gomoku.patterns.tables` after changing the classification)."""
    assert P.cache_path(rule).exists()
    assert P._load_cache(rule) == P.build_pattern_table(rule)
