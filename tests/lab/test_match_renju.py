"""The match referee under renju: per-side fives, INFO rule 4, and black's forbidden points
losing the game (scripted fake engines that play fixed move lists)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from gomoku.core.rules import Rule
from gomoku.game.renju import first_forbidden_move
from gomoku_lab import match, referee
from gomoku_lab.referee import GameSpec, MatchConfig, find_five, play_game

SCRIPTED_ENGINE = textwrap.dedent(
    """
    import sys
    script = [tuple(map(int, m.split(","))) for m in sys.argv[1].split(";")]
    rule = "?"
    def out(s):
        sys.stdout.write(s + "\\n"); sys.stdout.flush()
    def move():
        out(f"MESSAGE rule {rule}")
        x, y = script.pop(0)
        out(f"{x},{y}")
    for line in sys.stdin:
        parts = line.strip().split(" ")
        cmd = parts[0].upper()
        if cmd == "INFO" and len(parts) > 2 and parts[1] == "rule":
            rule = parts[2]
        elif cmd in ("START", "RESTART"):
            out("OK")
        elif cmd == "ABOUT":
            out('name="scripted", version="1"')
        elif cmd in ("BEGIN", "TURN"):
            move()
        elif cmd == "BOARD":
            for l2 in sys.stdin:
                if l2.strip().upper() == "DONE":
                    break
            move()
        elif cmd == "END":
            break
    """
)


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scripted") / "scripted_engine.py"
    path.write_text(SCRIPTED_ENGINE)
    return path


def _play(scripted: Path, black: list, white: list) -> match.GameResult:
    def cmd(moves: list) -> str:
        return f"{sys.executable} {scripted} " + ";".join(f"{x},{y}" for x, y in moves)

    cfg = MatchConfig(cmd(black), cmd(white), turn_ms=2000, rule=Rule.RENJU)
    engines = [
        match.EngineProcess(cfg.engine1, "engine1"),
        match.EngineProcess(cfg.engine2, "engine2"),
    ]
    try:
        return play_game(engines, GameSpec(0, 0, [], 0), cfg)  # engine1 plays black
    finally:
        for e in engines:
            e.stop()


def _interleave(black: list, white: list) -> list:
    moves = []
    for i, b in enumerate(black):
        moves.append(b)
        if i < len(white):
            moves.append(white[i])
    return moves


FAR_WHITE = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0), (12, 0), (14, 0), (0, 2), (2, 2)]


def test_find_five_per_side_under_renju() -> None:
    board = [[0] * 15 for _ in range(15)]
    for x in range(6):
        board[0][x] = 1  # black six
        board[14][x] = 2  # white six
    assert find_five(board, 0, 0, Rule.RENJU) is None
    assert find_five(board, 0, 14, Rule.RENJU) is not None
    board[0][5] = 0
    assert find_five(board, 0, 0, Rule.RENJU) == [(x, 0) for x in range(5)]


def test_black_loses_on_a_double_three_and_engines_get_rule_4(scripted: Path) -> None:
    black = [(7, 5), (8, 5), (6, 6), (6, 7), (6, 5)]
    r = _play(scripted, black, FAR_WHITE)
    assert (r.winner, r.kind) == (1, "forbidden"), r.reason
    assert r.reason == "engine1 played the forbidden point 6,5 (double three)"
    assert r.moves == _interleave(black, FAR_WHITE)[:9]
    assert r.infos and all(info == "rule 4" for info in r.infos)


def test_black_overline_is_forbidden_white_overline_wins(scripted: Path) -> None:
    six = [(0, 14), (1, 14), (2, 14), (4, 14), (5, 14), (3, 14)]
    quiet = [(7, 7), (9, 9), (11, 7), (7, 11), (13, 3), (3, 10)]
    r = _play(scripted, six, quiet)
    assert (r.winner, r.kind) == (1, "forbidden") and "(overline)" in r.reason
    white_six = [(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (3, 0)]
    r = _play(scripted, quiet, white_six)
    assert (r.winner, r.kind) == (1, "five"), r.reason
    assert r.line == [(x, 0) for x in range(6)]


def test_a_five_on_a_double_four_point_wins(scripted: Path) -> None:
    black = [(3, 7), (4, 7), (5, 7), (7, 8), (8, 8), (7, 9), (9, 9), (7, 10), (10, 10), (6, 7)]
    black.append((7, 7))  # exactly five in the row, and two more fours: it wins
    assert first_forbidden_move(_interleave(black[:-1], FAR_WHITE)) is None
    r = _play(scripted, black, FAR_WHITE)
    assert (r.winner, r.kind) == (0, "five"), r.reason
    assert r.line == [(x, 7) for x in range(3, 8)]


def test_match_cli_accepts_renju() -> None:
    args = match.build_parser().parse_args(
        ["--engine1", "a", "--engine2", "b", "--turn-ms", "10", "--rule", "renju"]
    )
    assert args.rule == "renju"
    assert referee.INFO_RULE_BITS == {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}
