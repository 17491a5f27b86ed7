"""The review's judged set (gomoku_lab.review_set): the judge's answers read, the metrics
counted on planted reviews and judgements, and a Gomocup brain (a fake one here, so the
test needs no outside engine) asked about every position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_brain import fake_brain

from gomoku.core.geometry import moves_from_text, to_text
from gomoku_lab import review_set
from gomoku_lab.review_set import (
    Game,
    Judge,
    Judgement,
    Judgements,
    Review,
    ReviewedMove,
    Score,
    SetError,
    Verdict,
    confirmed_error,
    score_review,
)

# A brain that answers every BOARD with the first empty point of row 0 and an evaluation
# read from the number of stones: 5 stones -> "+M3" (the side to move wins), 6 -> "-M4",
# else "-36", in Rapfi's MESSAGE format.
ANSWER = """
    def answer(stones, rule):
        n = len(stones)
        ev = "+M3" if n == 5 else "-M4" if n == 6 else "-36"
        x = next(i for i in range(15) if (i, 0) not in stones)
        return ["Depth 3-4 | Eval 12 | Time 0ms",
                f"Speed 1K | Depth 9-9 | Eval {ev} | Node 1K | Time 1ms"], (x, 0)
"""


def test_verdicts_read_as_rapfi_prints_them():
    assert Verdict.parse("+M13") == Verdict(13) and Verdict.parse("M3").won
    assert Verdict.parse("-M5").lost and Verdict.parse("-M5").chance() == 0.0
    assert Verdict.parse("-36") == Verdict(None, -36)
    assert 0.45 < Verdict.parse("-36").chance() < 0.5
    assert Verdict.parse("none") == Verdict(None, 0)
    with pytest.raises(SetError, match="not an evaluation"):
        Verdict.parse("VAL_INF?")


def test_confirmed_errors_are_forced_losses_and_wins_given_up():
    assert confirmed_error(Verdict(None, 300), Verdict(9)) == "loss"
    assert confirmed_error(Verdict(-9), Verdict(9)) is None  # lost already
    assert confirmed_error(Verdict(7), Verdict(None, 50)) == "win given up"
    assert confirmed_error(Verdict(7), Verdict(-6)) is None  # still winning
    assert confirmed_error(Verdict(None, 100), Verdict(None, 400)) is None  # judged only


def planted(game_text: str, evals: dict[int, str], best: dict[int, str]):
    """The judge's view of the game's positions (by their number of moves) and of any
    other position (a better move played: 'better' positions by text)."""
    moves = moves_from_text(game_text, 15)

    def lookup(position):
        text = " ".join(to_text(x, y, 15) for x, y in position)
        n = len(position)
        if list(position) != moves[:n]:
            return Judgement(text, 1, evals.get(-1, "0"), "a1")  # after a better move
        return Judgement(text, 1, evals.get(n, "0"), best.get(n, "a1"))

    return moves, lookup


def test_the_score_counts_right_flags_found_errors_and_losing_better_moves():
    text = "h8 h9 i8 i9 j8 j9 k8 a1 g8"
    # position 5 (white to move) balanced; after white's j9 black wins (+M3): j9 is a
    # confirmed error. Move 4 (white's i9): the judge's chance for white falls 0.5 -> 0.1.
    evals = {3: "0", 4: "440", 5: "0", 6: "+M3", 7: "-M2", 8: "+M1", -1: "+M5"}
    moves, lookup = planted(text, evals, {5: "k8", 3: "i9"})
    game = Game(moves, opening=2)
    classes = ["best", "mistake", "good", "mistake", "best", "blunder", "best", "good", "best"]
    reviewed = [ReviewedMove(c, None) for c in classes]
    reviewed[5] = ReviewedMove("blunder", "g8")  # its better move loses (-1: +M5)
    score = Score()
    score_review(game, Review(reviewed, 1.5), lookup, score)
    # flags: move 2 (opening: wrong), move 4 (i9, the judge's own best: wrong), move 6 right
    assert (score.flags, score.right) == (3, 1)
    assert (score.errors, score.found) == (1, 1)
    assert (score.better_offered, score.losing_better) == (1, 1)
    assert any("[opening]" in w for w in score.wrong)
    line = score.line("test")
    assert "precision 33%" in line and "recall 100%" in line and "losing 1" in line


def test_a_missed_confirmed_error_is_listed():
    text = "h8 h9 i8 i9 j8 j9 k8 a1 g8"
    moves, lookup = planted(text, {5: "0", 6: "+M3", 7: "-M2", 8: "+M1"}, {})
    score = Score()
    classes = ["best"] * 5 + ["inaccuracy"] + ["best"] * 3
    review = Review([ReviewedMove(c, None) for c in classes], 1.0)
    score_review(Game(moves, opening=0), review, lookup, score)
    assert (score.errors, score.found, score.flags) == (1, 0, 0)
    assert score.missed and "[loss]" in score.missed[0]


def test_a_gomocup_brain_judges_every_position_after_the_opening(tmp_path: Path):
    command = fake_brain(tmp_path, ANSWER)
    games = tmp_path / "games.jsonl"
    games.write_text(
        json.dumps({"size": 15, "opening": "h8 h9", "moves": "h8 h9 i8 i9 j8 j9 k8"}) + "\n"
    )
    judgements = tmp_path / "judgements.jsonl"
    code = review_set.main(
        ["judge", "--brain", command, "--games", str(games), "--judgements", str(judgements),
         "--nodes", "500"]
    )
    assert code == 0
    rows = [json.loads(line) for line in judgements.read_text().splitlines()]
    assert [len(r["moves"].split()) for r in rows] == [2, 3, 4, 5, 6]
    assert {r["nodes"] for r in rows} == {500}
    by_count = {len(r["moves"].split()): r for r in rows}
    assert by_count[5]["eval"] == "+M3" and by_count[6]["eval"] == "-M4"  # the last Eval
    assert by_count[4]["eval"] == "-36" and by_count[4]["best"] == "a15"
    # asked again: nothing new (the file is the cache)
    assert review_set.main(
        ["judge", "--brain", command, "--games", str(games), "--judgements", str(judgements),
         "--nodes", "500"]
    ) == 0
    assert len(judgements.read_text().splitlines()) == 5
    known = Judgements(judgements)
    assert known.get("h8 h9 i8 i9 j8", 500).verdict.won
    judge = Judge(command)
    try:
        j = judge.judge(moves_from_text("h8 h9 i8 i9 j8", 15), 100)
    finally:
        judge.close()
    assert j.eval == "+M3" and j.nodes == 100


def test_bad_files_are_clear_errors(tmp_path: Path, capsys):
    games = tmp_path / "games.jsonl"
    games.write_text("{not json\n")
    assert review_set.main(["score", "--games", str(games)]) == 2
    assert "line 1" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert review_set.main(["score", "--games", str(empty)]) == 2
    assert "no games" in capsys.readouterr().err
