"""Levels (gomoku.engine.levels, the bottom rungs' gomoku.engine.novice), the reference
players (gomoku_lab.greedy: greedy and first-games), the ladder's pairs and ratings
(gomoku_lab.ladder), and the levels through the brain (INFO level / INFO seed) and the
match runner."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gomoku.core.geometry import moves_from_text
from gomoku.core.rules import Rule
from gomoku.engine.facade import Engine
from gomoku.engine.levels import (
    LEVELS,
    LevelError,
    choose,
    level,
    move_rng,
    play,
)
from gomoku.engine.results import TopMove
from gomoku.game.board import Board
from gomoku.game.evaluation import evaluate
from gomoku.game.renju import forbidden
from gomoku.search.score import Score
from gomoku_lab.greedy import first_games_move, greedy_move

ROOT = Path(__file__).resolve().parents[3]
PY_DIR = ROOT / "py"
NODE_LEVELS = [lv.number for lv in LEVELS if not lv.timed]
BOTTOM = [lv.number for lv in LEVELS if lv.habits is not None]  # no search
SEARCHING = [n for n in NODE_LEVELS if n not in BOTTOM]
CHEAP_LEVELS = [n for n in NODE_LEVELS if (level(n).nodes or 0) <= 12000]

# Black (to move) has a four h8 i8 j8 k8 open at g8 only: g8 wins.
OWN_FOUR = "h8 a1 i8 a2 j8 l8 k8 a3"
# White (to move) must block black's four h8..k8 at g8 (l8 is white's).
BLOCK_FOUR = "h8 a1 i8 a2 j8 l8 k8"
# Black (to move) has an open three h8 i8 j8 and white has nothing: a position to
# check the levels' moves are legal and differ by seed only through the choice.
QUIET = "h8 i9 g9 i7 i8 g7"


def engine_at(text: str, rule: Rule = Rule.FREESTYLE, size: int = 15) -> Engine:
    eng = Engine(size, rule)
    eng.set_position(moves_from_text(text, size))
    return eng


def test_the_ladder_is_numbered_and_node_levels_below_timed_ones():
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    timed = [lv.timed for lv in LEVELS]
    assert timed == sorted(timed)  # node levels first, then the timed ones
    budgets = [lv.nodes for lv in LEVELS if not lv.timed and lv.depth is None]
    assert budgets == sorted(budgets)
    for lv in LEVELS:
        assert lv.key.isalpha() and lv.key.islower()  # the page's text names it by this key


@pytest.mark.parametrize("bad", [0, 13, -1, "3", 2.0, None, True])
def test_an_unknown_level_is_a_clear_error(bad):
    with pytest.raises(LevelError, match="unknown level"):
        level(bad)


@pytest.mark.parametrize("number", NODE_LEVELS)
def test_every_level_plays_a_legal_move(number: int):
    eng = engine_at(QUIET)
    r = play(eng, number, seed=3)
    x, y = r.move
    assert 0 <= x < 15 and 0 <= y < 15 and (x, y) not in eng.moves
    assert len(eng.moves) == 6  # the engine's game is not changed


@pytest.mark.parametrize("number", NODE_LEVELS)
def test_every_level_makes_its_five(number: int):
    for seed in range(3 if number in SEARCHING else 40):
        assert play(engine_at(OWN_FOUR), number, seed).move == (6, 7)  # g8


@pytest.mark.parametrize("number", SEARCHING)
def test_every_level_above_the_bottom_rungs_blocks_a_four(number: int):
    for seed in range(3):
        assert play(engine_at(BLOCK_FOUR), number, seed).move == (6, 7)  # g8


@pytest.mark.parametrize("number", CHEAP_LEVELS)
def test_a_node_level_is_deterministic_for_a_seed(number: int):
    """The same position, level and seed give the same move, whatever the engine did
    before (its tables are cleared) and from a fresh engine."""
    warm = engine_at(QUIET)
    warm.think(level(7).limits(0))  # fill the tables with another search
    first = play(warm, number, seed=11)
    again = play(engine_at(QUIET), number, seed=11)
    assert (first.move, first.nodes) == (again.move, again.nodes)


def test_seeds_vary_the_weak_levels_choice():
    moves = {play(engine_at(QUIET), 1, seed).move for seed in range(12)}
    assert len(moves) >= 3


@pytest.mark.parametrize("number", NODE_LEVELS)
def test_renju_levels_never_play_a_forbidden_point(number: int):
    """Black to move in positions full of forbidden points: every level's move is
    allowed (fewer positions for the costly top level)."""
    rng = random.Random(number)
    checked = 0
    for _ in range(6 if number in CHEAP_LEVELS else 3):
        board = Board(15, Rule.RENJU)
        moves = []
        # a random packed position around the centre, black to move
        while len(moves) < 24:
            x, y = rng.randint(4, 10), rng.randint(4, 10)
            p = board.index(x, y)
            if board.cells[p] or (board.side == 1 and forbidden(board, p)):
                continue
            board.make(p)
            if board.winner:
                break
            moves.append((x, y))
        if board.winner or board.side != 1:
            continue
        eng = Engine(15, Rule.RENJU)
        eng.set_position(moves)
        r = play(eng, number, seed=checked)
        board2 = Board.from_moves(moves, 15, Rule.RENJU)
        assert forbidden(board2, board2.index(*r.move)) is None, (moves, r.move)
        checked += 1
    assert checked >= (3 if number in CHEAP_LEVELS else 1)


def test_choose_prefers_the_best_without_noise_and_a_win_over_noise():
    top = [TopMove((1, 1), 50, []), TopMove((2, 2), 40, []), TopMove((3, 3), -900, [])]
    assert choose(top, 0, random.Random(1)).move == (1, 1)
    win = [TopMove((1, 1), 999_990, []), TopMove((2, 2), 300, [])]
    assert all(choose(win, 1000, random.Random(s)).move == (1, 1) for s in range(50))
    picks = {choose(top, 400, random.Random(s)).move for s in range(200)}
    assert picks == {(1, 1), (2, 2)}  # a 940-point worse move is out of the noise's reach


def test_move_rng_is_a_function_of_seed_and_move_number():
    assert move_rng(5, 10).random() == move_rng(5, 10).random()
    assert move_rng(5, 10).random() != move_rng(5, 11).random()
    assert move_rng(5, 10).random() != move_rng(6, 10).random()


def test_a_timed_level_is_not_played_here():
    timed = [lv.number for lv in LEVELS if lv.timed]
    assert timed
    with pytest.raises(LevelError, match="timed"):
        play(engine_at(QUIET), timed[0])


# --- the bottom rungs ---------------------------------------------------------------------

# White (to move) faces black's open three h8 i8 j8 (blocks: g8, k8, or f8 / l8 at a pinch)
# and has an open two of its own elsewhere (d12 e12).
OPEN_THREE = "h8 d12 i8 e12 j8"


def share(number: int, text: str, cells: set[tuple[int, int]], seeds: int = 200) -> float:
    """The share of seeds for which level ``number`` plays one of ``cells`` in the position."""
    eng = engine_at(text)
    return sum(play(eng, number, s).move in cells for s in range(seeds)) / seeds


def test_the_bottom_rungs_are_below_every_searching_level_and_search_nothing():
    assert BOTTOM == list(range(1, len(BOTTOM) + 1)) and len(BOTTOM) >= 2
    for n in BOTTOM:
        eng = engine_at(QUIET)
        r = play(eng, n, 5)
        assert (r.nodes, r.source) == (0, "level")
        # its score: the static evaluation after its move, for the mover; its five a win
        board = Board.from_moves([*eng.moves, r.move], 15)
        assert r.score == -evaluate(board) and len(eng.moves) == 6
        assert Score.of(play(engine_at(OWN_FOUR), n, 5).score) == Score("win", 1)


def test_the_bottom_rungs_see_the_opponents_threats_more_often_up_the_ladder():
    """The chance of not looking at the opponent's four / open three shrinks up the ladder;
    the weakest often leaves an open three, sometimes a four; the top rung blocks every
    four."""
    fours = [share(n, BLOCK_FOUR, {(6, 7)}) for n in BOTTOM]
    threes = [share(n, OPEN_THREE, {(6, 7), (10, 7), (5, 7), (11, 7)}) for n in BOTTOM]
    assert fours == sorted(fours) and threes == sorted(threes), (fours, threes)
    assert 0.4 < fours[0] < 0.8 and fours[-1] == 1.0
    assert threes[0] < 0.3 and threes[-1] > 0.5


def test_the_weakest_builds_its_own_lines():
    """With its own two and nothing to fear, the weakest rung mostly plays next to its own
    stones on their line, the best of them most often: a person's choice, not a random one."""
    eng = engine_at("h8 a1 i8 a15")  # black (to move): h8 i8; white's stones in the corners
    moves = [play(eng, 1, s).move for s in range(200)]
    on_line = sum(y == 7 and 4 <= x <= 10 for x, y in moves) / len(moves)
    assert on_line > 0.5, on_line
    assert max(set(moves), key=moves.count)[1] == 7


def test_the_first_games_player_blocks_fours_but_never_an_open_three():
    assert first_games_move(board_of(OWN_FOUR)) == board_of(OWN_FOUR).index(6, 7)
    b = board_of(BLOCK_FOUR)
    assert first_games_move(b) == b.index(6, 7)
    b = board_of(OPEN_THREE)  # white builds its own line instead of blocking
    for seed in range(20):
        x, y = b.point(first_games_move(b, random.Random(seed)))
        assert y == 3 and 1 <= x <= 6, (x, y)  # next to d12 e12


# --- the ladder ---------------------------------------------------------------------------


def test_the_ladder_pairs_the_references_with_the_bottom_and_every_neighbouring_level():
    from gomoku_lab.ladder import default_rungs

    names = [r.name for r in default_rungs()]
    first_search = str(SEARCHING[0])
    assert names[:3] == ["F-1", "1-G", f"G-{first_search}"]
    assert names[3:] == [f"{a}-{a + 1}" for a in NODE_LEVELS[:-1]]


def test_the_ladder_rates_from_the_anchor_through_the_surest_chain(tmp_path: Path):
    """Ratings: the greedy player at RATING_ANCHOR; a level reached by two chains takes the
    one with the smaller error."""
    from gomoku.engine.levels import RATING_ANCHOR
    from gomoku_lab import ladder

    rungs = [ladder.Rung("1", "G"), ladder.Rung("G", "2"), ladder.Rung("1", "2")]
    got = {
        "1-G": (200, 0.9, 380.0, 150.0),  # a lopsided pair: a large error
        "G-2": (200, 0.5, 0.0, 40.0),
        "1-2": (200, 0.75, 190.0, 50.0),
    }
    ladder_pair = ladder.pair_result
    try:
        ladder.pair_result = lambda path: got[path.stem.split("-", 2)[2]]
        lines = ladder.table(rungs, tmp_path, "freestyle")
    finally:
        ladder.pair_result = ladder_pair
    text = "\n".join(lines)
    assert f"greedy:   {RATING_ANCHOR} +/- 0" in text
    assert f"level 2:   {RATING_ANCHOR} +/- 40" in text
    # level 1 through 2 (error sqrt(40^2 + 50^2) = 64), not directly (150)
    assert f"level 1:   {RATING_ANCHOR - 190} +/- 64" in text


# --- the greedy player ------------------------------------------------------------------


def board_of(text: str, rule: Rule = Rule.FREESTYLE) -> Board:
    return Board.from_moves(moves_from_text(text, 15), 15, rule)


def test_greedy_makes_five_blocks_five_and_blocks_an_open_three():
    assert greedy_move(board_of(OWN_FOUR)) == board_of(OWN_FOUR).index(6, 7)
    b = board_of(BLOCK_FOUR)
    assert greedy_move(b) == b.index(6, 7)
    # black's open three h8 i8 j8 (white to move): white blocks at g8 or k8
    b = board_of("h8 a1 i8 a2 j8")
    assert greedy_move(b) in (b.index(6, 7), b.index(10, 7))


def test_greedy_otherwise_extends_its_line_and_is_legal():
    b = board_of("h8 h9")
    q = greedy_move(b)
    assert b.cells[q] == 0 and max(abs(b.point(q)[0] - 7), abs(b.point(q)[1] - 7)) <= 2
    assert greedy_move(Board(15)) == Board(15).index(7, 7)


def test_greedy_never_plays_a_forbidden_point():
    # i8 would make black's double three (g8 h8 i8 and i8 i9 i10): never chosen
    b = board_of("g8 a1 h8 c1 i9 e1 i10 o15", Rule.RENJU)
    for seed in range(20):
        q = greedy_move(b, random.Random(seed))
        assert forbidden(b, q) is None


# --- through the brain and the match runner -----------------------------------------------


def brain(*lines: str, module: str = "gomoku.pbrain") -> list[str]:
    out = subprocess.run(
        [sys.executable, "-m", module],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(PY_DIR)),
        timeout=300,
    )
    return [s for s in out.stdout.splitlines() if not s.startswith(("MESSAGE", "DEBUG"))]


def test_brain_info_level_and_seed_replay_the_same_moves():
    game = ["START 15", "INFO level 2", "INFO seed 9", "BOARD", "8,8,1", "9,9,2", "DONE"]
    first = brain(*game, "END")
    again = brain(*game, "END")
    assert first[0] == "OK" and first == again and first[1].count(",") == 1


def test_brain_refuses_an_unknown_level_and_keeps_playing():
    out = brain("START 15", "INFO level 42", "BEGIN", "END")
    assert out[0] == "OK" and out[1].startswith("ERROR") and "unknown level 42" in out[1]
    assert out[2] == "7,7"  # the game goes on with the full engine


def test_greedy_brain_plays():
    out = brain("START 15", "INFO seed 3", "BEGIN", "TURN 8,8", "END", module="gomoku_lab.greedy")
    assert out[:2] == ["OK", "7,7"] and out[2].count(",") == 1


def test_match_runner_plays_levels_against_the_greedy_player(tmp_path: Path):
    records = tmp_path / "ladder.jsonl"
    run = subprocess.run(
        [
            sys.executable, "-m", "gomoku_lab.match",
            "--engine1", f"{sys.executable} -m gomoku_lab.greedy",
            "--engine2", f"{sys.executable} -m gomoku.pbrain", "--level2", "2",
            "--games", "2", "--openings", str(ROOT / "openings" / "balanced.txt"),
            "--records", str(records),
        ],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(PY_DIR)),
        timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "levels - (engine1) / 2 (engine2)" in run.stdout
    lines = records.read_text().splitlines()
    assert len(lines) == 2 and '"level2": 2' in lines[0]
    bad = subprocess.run(
        [sys.executable, "-m", "gomoku_lab.match", "--engine1", "x", "--engine2", "y",
         "--level1", "77"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(PY_DIR)),
        timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert bad.returncode == 2 and "unknown level 77" in bad.stderr
