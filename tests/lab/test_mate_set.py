"""The judged set of forced wins (gomoku_lab.mate_set, mate_solvers, mate_games): lines
checked move by move on real positions, the set built from a judge's answers (a fake
Gomocup brain here, so no outside engine is needed), split by game, and solvers scored."""

from __future__ import annotations

import io
import json
import sys
import types
from collections import Counter
from pathlib import Path

import pytest
from fake_brain import fake_brain

from gomoku.core.geometry import moves_from_text
from gomoku.game.board import Board
from gomoku.game.renju import forbidden
from gomoku_lab import mate_set, mate_solvers
from gomoku_lab.mate_games import BATCHES
from gomoku_lab.mate_set import (
    MatePosition,
    SetJudgements,
    add_records,
    band,
    build_set,
    judge_games,
    part_of,
    read_games,
)
from gomoku_lab.mate_solvers import (
    SolverMissing,
    check_line,
    load_solver,
    score_positions,
)


# A brain that answers every BOARD with the first empty point of row 0 and an evaluation
# chosen by the number of stones (EVALS, else "-36"), in Rapfi's MESSAGE format; an "R" in
# the evaluation is replaced by the rule of the last INFO rule.
def mate_brain(tmp_path: Path, evals: dict[int, str]) -> str:
    return fake_brain(tmp_path, f"""
        EVALS = {evals!r}

        def answer(stones, rule):
            ev = EVALS.get(len(stones), "-36").replace("R", str(rule))
            x = next(i for i in range(15) if (i, 0) not in stones)
            return [f"Speed 1K | Depth 9-9 | Eval {{ev}} | Node 1K | Time 1ms"], (x, 0)
    """)


def board_of(text: str, rule: str = "freestyle") -> Board:
    return Board.from_moves(moves_from_text(text, 15), 15, rule)


def cells(board: Board, text: str) -> list[int]:
    return [board.index(x, y) for x, y in moves_from_text(text, 15)]


# ---- lines checked ----------------------------------------------------------------------------


def test_a_line_to_a_five_or_an_unstoppable_four_is_a_win():
    board = board_of("h8 a1 i8 a2 j8 a3")  # black's open three, black to move
    before = list(board.history)
    assert check_line(board, cells(board, "k8")) is None  # an open four: two five points
    assert check_line(board, cells(board, "k8 g8 l8")) is None  # down to the five
    assert board.history == before  # the board is left as it was


def test_lines_that_do_not_win_are_rejected_with_the_reason():
    board = board_of("h8 k8 i8 a1 j8 a2")  # black three closed at k8 by white
    assert "can still block" in check_line(board, cells(board, "g8"))  # one five point: f8
    assert "occupied" in check_line(board, cells(board, "k8"))
    assert "five before the end" in check_line(board, cells(board, "g8 a3 f8 a4"))
    assert check_line(board, []) == "an empty line"
    # white has four on column a: a black move that ignores it lets white make five
    four = board_of("h8 a1 i8 a2 j8 a3 o15 a4")
    assert "defender makes five" in check_line(four, cells(four, "g8"))


def test_renju_black_moves_on_forbidden_points_are_illegal_in_a_line():
    board = board_of("g8 a1 i8 a3 h7 o1 h9 o3", "renju")  # h8 makes two open threes
    h8 = board.index(7, 7)
    assert forbidden(board, h8) == "double three"
    assert "forbidden to black" in check_line(board, [h8])
    free = board_of("g8 a1 i8 a3 h7 o1 h9 o3")  # the same in freestyle: h8 is a move
    assert "forbidden" not in check_line(free, [h8])  # (a double three, not yet a win)


def test_renju_a_white_four_black_may_only_block_on_a_forbidden_point_wins():
    # white d4 e5 f6 + g7 makes a four whose only open end h8 is black's double three
    # (c3 is black); the same under freestyle is blocked
    moves = "g8 d4 i8 e5 h7 f6 h9 o15 c3"
    renju, free = board_of(moves, "renju"), board_of(moves)
    assert forbidden(renju, renju.index(7, 7)) == "double three"
    assert check_line(renju, cells(renju, "g7")) is None
    assert "can still block" in check_line(free, cells(free, "g7"))


# ---- solvers -------------------------------------------------------------------------------------


def test_the_threat_solver_finds_a_vcf_whose_line_checks():
    board = board_of("h8 a1 i8 a2 j8 a3 h9 a5 h10 b1")  # black: fours everywhere
    for name in ("threats", "threats-engine"):
        line = load_solver(name)(board, 2.0)
        assert line is not None and check_line(board, line) is None
    with pytest.raises(KeyError, match="unknown solver"):
        load_solver("oracle")


def test_the_prover_entry_says_when_its_module_is_missing(monkeypatch):
    monkeypatch.setattr(mate_solvers, "PROVER_MODULE", "gomoku.search.no_such_prover")
    with pytest.raises(SolverMissing, match="not there yet"):
        load_solver("prover")
    seen = {}

    def find_win(board: Board, deadline: float) -> list[int] | None:
        seen["deadline"] = deadline
        return None

    module = types.ModuleType("fake_prover")
    module.find_win = find_win
    monkeypatch.setitem(sys.modules, "fake_prover", module)
    monkeypatch.setattr(mate_solvers, "PROVER_MODULE", "fake_prover")
    import time

    start = time.perf_counter()
    assert load_solver("prover")(board_of("h8"), 2.5) is None
    assert start + 2.4 < seen["deadline"] < time.perf_counter() + 2.6  # seconds -> deadline


def test_score_counts_found_lines_by_band_and_rejects_bad_ones():
    text = "h8 a1 i8 a2 j8 a3"
    board = board_of(text)
    win = cells(board, "k8")
    positions = [
        MatePosition("g:1", "dev", "freestyle", 15, tuple(moves_from_text(text, 15)), m, "k8")
        for m in (3, 13, 19, 25)
    ]
    answers = iter([win, None, cells(board, "a4"), win])  # the third is no win
    out = io.StringIO()
    results = io.StringIO()
    tally = score_positions(lambda b, s: next(answers), positions, 0.1, results, out)
    assert tally.found == Counter({"<=9": 1, ">=23": 1})
    assert tally.total == Counter({"<=9": 1, "11-15": 1, "17-21": 1, ">=23": 1})
    assert tally.rejected == 1 and "line rejected" in out.getvalue()
    assert tally.cells()[-1] == "2/4 (50%)"
    rows = [json.loads(r) for r in results.getvalue().splitlines()]
    assert [r["found"] for r in rows] == [True, False, False, True]


def test_bands():
    assert [band(n) for n in (1, 9, 11, 15, 17, 21, 23, 41)] == [
        "<=9", "<=9", "11-15", "11-15", "17-21", "17-21", ">=23", ">=23"
    ]  # fmt: skip


# ---- the set -------------------------------------------------------------------------------------


def record(game: int, moves: str, opening: str, rule: str = "freestyle") -> dict:
    return {
        "game": game, "rule": rule, "size": 15, "opening": opening, "moves": moves,
        "black": "engine1", "white": "engine2", "black_name": "A", "white_name": "B",
        "level1": 4, "level2": None, "nodes1": None, "nodes2": 10000, "result": "1-0",
    }  # fmt: skip


def test_games_are_judged_once_and_the_mates_split_by_game(tmp_path: Path):
    records = tmp_path / "m.jsonl"
    games_text = [
        "h8 i9 j10 a1 b1 a2 b2 a3 b3",
        "h8 i9 j10 a1 c1 a2 c2 c3 c4",  # the same first 4 moves
        "h8 i9 j10 o15 n15 o14 n14 o13 n13",
    ]
    records.write_text(
        "".join(json.dumps(record(i + 1, t, "h8 i9 j10")) + "\n" for i, t in enumerate(games_text))
    )
    games_file = tmp_path / "games.jsonl"
    assert add_records([records], games_file) == 3
    assert add_records([records], games_file) == 0  # already there
    games = read_games(games_file)
    assert games[0].id == "m:1" and games[0].black == "A level 4"
    assert games[0].white == "B 10000 nodes" and games[0].opening == 3
    # 4 stones: the side to move mates in 3; 6: mate in 17; 7: +M* (length unknown);
    # 5: the side to move is mated
    evals = {4: "+M3", 5: "-M2", 6: "+M17", 7: "+M*"}
    brain = mate_brain(tmp_path, evals)
    judgements = SetJudgements(tmp_path / "j.jsonl", games)
    out = io.StringIO()
    # positions before moves 4..9 of each game: 6 each; the opening's is asked once, and
    # game 2's 4-stone one is game 1's
    assert judge_games(games, judgements, brain, 1000, out) == 6 + 4 + 5
    again = SetJudgements(tmp_path / "j.jsonl", games)
    assert judge_games(games, again, brain, 1000, out) == 0
    mates = build_set(games, again, 1000)
    assert mates.judged == 15 and mates.unknown_length == 3
    assert sorted((p.game, len(p.moves), p.mate) for p in mates.positions) == [
        ("m:1", 4, 3), ("m:1", 6, 17), ("m:2", 6, 17), ("m:3", 4, 3), ("m:3", 6, 17)
    ]  # fmt: skip
    for p in mates.positions:
        assert p.part == part_of(p.game) and p.best == "a15"  # (0, 0): the first free cell
    assert mates.part("all") == mates.positions
    assert len(mates.part("dev")) + len(mates.part("heldout")) == len(mates.positions)


def test_the_split_is_by_game_reproducible_and_about_a_third():
    parts = Counter(part_of(f"batch:{i}") for i in range(3000))
    assert 900 < parts["heldout"] < 1100 and parts["dev"] == 3000 - parts["heldout"]
    # a game's part depends on its id and the seed only, not on the other games
    other_seed = [part_of(f"batch:{i}", seed=1) for i in range(200)]
    assert other_seed != [part_of(f"batch:{i}") for i in range(200)]


def test_the_command_line_scores_and_skips_a_missing_prover(tmp_path: Path, monkeypatch, capsys):
    games_file = tmp_path / "games.jsonl"
    rec = record(1, "h8 a1 i8 a2 j8 a3 k8 a4 l8", "h8 a1 i8")
    (tmp_path / "r.jsonl").write_text(json.dumps(rec) + "\n")
    add_records([tmp_path / "r.jsonl"], games_file)
    brain = mate_brain(tmp_path, {6: "+M3"})  # black to move with an open three
    base = ["--games", str(games_file), "--judgements", str(tmp_path / "j.jsonl"), "--nodes", "9"]
    assert mate_set.main([*base, "judge", "--brain", brain, "--game", "other:"]) == 0
    assert "0 positions judged" in capsys.readouterr().out  # no game of that batch
    assert mate_set.main([*base, "judge", "--brain", brain, "--game", "r:"]) == 0
    assert "6 positions judged at 9 nodes (1 games)" in capsys.readouterr().out
    assert mate_set.main([*base, "stats"]) == 0
    assert "1 mates for the side to move" in capsys.readouterr().out
    monkeypatch.setattr(mate_solvers, "PROVER_MODULE", "gomoku.search.no_such_prover")
    args = [*base, "score", "--part", "all", "--time", "1", "--solver", "threats"]
    assert mate_set.main([*args, "--solver", "prover"]) == 0
    out = capsys.readouterr().out
    assert "prover: gomoku.search.no_such_prover is not there yet: skipped" in out
    assert "| threats | freestyle | all | 1 s | 1/1 (100%) | - | - | - | 1/1 (100%) |" in out
    with pytest.raises(SystemExit):
        mate_set.main([*base, "score", "--solver", "oracle"])


def test_the_batches_cover_the_rules_and_levels_4_to_8():
    rules = {b.rule for b in BATCHES}
    assert rules == {"freestyle", "standard", "renju"}
    levels = {
        int(b.engines[i + 1])
        for b in BATCHES
        for i, a in enumerate(b.engines)
        if a in ("--level1", "--level2")
    }
    assert levels == {4, 5, 6, 7, 8}
    names = [b.name for b in BATCHES]
    assert len(set(names)) == len(names)
    cmd = BATCHES[0].command(Path("x.jsonl"), resume=True)
    assert cmd[-2:] == ["--resume", "x.jsonl"] and "--records" not in cmd
