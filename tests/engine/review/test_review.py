"""Game review (gomoku.review): the classes on games whose decisive moves are known, the
chance mapping, the record readers, the command line and the worker's review message."""

from __future__ import annotations

import functools
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.geometry import moves_from_text, to_text
from gomoku.core.rules import Rule
from gomoku.game.evaluation import WIN_SCORE
from gomoku.protocol.webapi import WebApi
from gomoku.review import DEFAULT_NODES, RecordError, Reviewer, read_record
from gomoku.review.proof import NO_WIN, WIN, after_move
from gomoku.review.records import checked, read_link, read_move_list, read_psq
from gomoku.review.review import MoveReview, forced_in, move_dict, position_dict, summary
from gomoku.search.score import Score, black_chance, chance

ROOT = Path(__file__).resolve().parents[3]
PY_DIR = ROOT / "py"

# Black's open three h8 i8 j8: white's j9 does not stop it (k8 or g8 makes an open four).
OPEN_THREE_IGNORED = "h8 h9 i8 i9 j8 j9 k8 a1 g8"
# White has a VCF here (tests/engine/search/test_search.py, VCF_POSITIONS[5]: f5 first) and
# plays a1.
VCF_MISSED = (
    "h8 i7 g7 i5 f6 e5 i6 h6 j10 i9 g5 e7 g8 g6 f8 e8 j8 i8 e6 i10 i11 f9 h9 j9 f7 d5 k10 a1"
)


def names(points, size: int = 15) -> list[str]:
    return [to_text(x, y, size) for x, y in points]


def review(text: str, nodes: int = DEFAULT_NODES) -> Reviewer:
    return Reviewer(read_move_list(text), nodes)


@functools.cache
def shared_review(text: str) -> Reviewer:
    """One review per game at the default budget, shared by the tests that only read it
    (a review is a function of the game and the budget, whatever was asked of it before:
    test_a_position_is_the_same_in_any_order), so that the whole-game checks of the same
    game are searched once per process."""
    return review(text)


def test_a_four_left_unblocked_is_a_blunder_and_the_block_is_better():
    # black h8 i8 j8 k8 is a four (after white's d4 elsewhere): white must block at g8 or
    # l8... here black's four h8-k8 is open at g8 and l8 after white's passive moves, so
    # take a plain four: white blocked l8, so g8 is the only block.
    game = "h8 a1 i8 a2 j8 l8 k8 a3 g8"
    r = review(game)
    move8 = r.move(8)  # white's a3 instead of the block at g8
    assert move8.player == "white" and move8.cls == "blunder"
    assert names([move8.better]) == ["g8"]
    assert move8.after == 1.0  # black wins by force (in fact at once)
    assert r.move(9).cls == "best"  # black's five


def test_an_open_three_left_alone_is_a_blunder():
    r = shared_review(OPEN_THREE_IGNORED)
    blunders = {i: r.move(i) for i in range(1, 10) if r.move(i).cls == "blunder"}
    assert list(blunders) == [6]  # the one decisive move (earlier ones may be inaccurate)
    assert names([blunders[6].better])[0] in ("g8", "k8")
    assert summary([r.move(i) for i in range(1, 10)])["white"]["blunder"] == 1


@pytest.mark.slow
def test_a_missed_vcf_is_a_missed_win_with_the_vcf_as_its_line():
    r = shared_review(VCF_MISSED)
    last = r.move(len(r))
    assert last.player == "white" and last.cls == "missed_win"
    assert names([last.better]) == ["f5"]
    assert names(last.line)[0] == "f5" and len(last.line) >= 5  # the winning line
    assert r.position(len(r) - 1).forced > 0


def test_a_game_of_the_engines_own_choices_has_nothing_flagged():
    """Every move is what the review's own search chose in that position."""
    moves: list[tuple[int, int]] = []
    for _ in range(14):
        r = Reviewer(checked(moves, 15, Rule.FREESTYLE), 3000)
        pos = r.position(len(moves))
        if pos.over:
            break
        moves.append(pos.best)
    r = Reviewer(checked(moves, 15, Rule.FREESTYLE), 3000)
    classes = [r.move(i).cls for i in range(1, len(moves) + 1)]
    assert classes and set(classes) <= {"best", "only_move"}, classes


def test_a_position_is_the_same_in_any_order():
    """Positions are evaluated from clean tables: the answer does not depend on what
    was reviewed before (the page may restart a review mid-way)."""
    text = OPEN_THREE_IGNORED
    forward = review(text, 2000)
    backward = review(text, 2000)
    for i in reversed(range(len(backward) + 1)):
        backward.position(i)
    for i in range(len(forward) + 1):
        assert forward.position(i) == backward.position(i)


@given(st.integers(-WIN_SCORE + 1, WIN_SCORE - 1), st.integers(-WIN_SCORE + 1, WIN_SCORE - 1))
def test_the_chance_is_monotone_and_symmetric_between_the_colours(a: int, b: int):
    # the review's curve is gomoku.search.score's (tests/engine/search/test_score.py: every rule)
    lo, hi = sorted((a, b))
    assert chance(lo, Rule.FREESTYLE) <= chance(hi, Rule.FREESTYLE)
    assert math.isclose(chance(a, Rule.FREESTYLE) + chance(-a, Rule.FREESTYLE), 1.0)
    assert 0.0 <= chance(a, Rule.FREESTYLE) <= 1.0


def test_forced_results_are_certain():
    assert chance(WIN_SCORE - 3, Rule.FREESTYLE) == 1.0
    assert chance(-WIN_SCORE + 3, Rule.FREESTYLE) == 0.0
    assert forced_in(WIN_SCORE - 3) == 2 and forced_in(-WIN_SCORE + 4) == -2
    assert forced_in(150) is None
    assert chance(0, Rule.FREESTYLE) == 0.5


def test_the_graph_is_the_bars_curve():
    """A searched position's black chance is gomoku.search.score.black_chance of its score
    (the page's evaluation bar's), and its data form carries the score as data."""
    r = review(OPEN_THREE_IGNORED, 2000)
    searched = [p for p in (r.position(i) for i in range(len(r) + 1)) if p.source == "search"]
    plain = [p for p in searched if 0.0 < p.black < 1.0]
    assert len(plain) >= 4
    for p in plain:
        assert p.black == black_chance(p.score, p.to_move == "black", Rule.FREESTYLE)
        doc = position_dict(p)
        assert doc["score"] == {"cp": p.score} and doc["black"] == round(p.black, 4)
        assert "forced" not in doc and not [k for k in doc if k.endswith("Text")]
    won = r.position(6)  # black's open four after white's j9: the threat search's win
    assert position_dict(won)["score"] == Score.of(won.score).to_dict() == {"win": won.forced}


def test_white_first_games_name_the_real_colours():
    record = read_move_list("h8 a1 i8 a2 j8 l8 k8 a3 g8", first="white")
    r = Reviewer(record, 2000)
    assert r.move(1).player == "white" and r.move(8).player == "black"
    assert r.move(8).cls == "blunder"
    assert r.position(9).over == "white" and r.position(9).black == 0.0


# --- records ------------------------------------------------------------------------------

PAGE_PSQ = (
    "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,312\r\n9,8,10\r\nhomo-1\r\nhomo-2\r\nrule=renju\r\n"
)
# Piskvork's own layout: the header, the moves, the two brains' files, a result code.
PISKVORK_PSQ = (
    "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,1453\n9,11,812\n12,12,2010\n"
    "pbrain-embryo.exe\npbrain-rapfi.exe\n-1\n"
)


def test_psq_as_the_page_writes_it():
    rec = read_psq(PAGE_PSQ)
    assert rec.size == 15 and rec.rule is Rule.RENJU
    assert rec.text() == "h8 i9 i8"


def test_psq_in_piskvorks_own_layout():
    rec = read_psq(PISKVORK_PSQ)
    assert rec.size == 20 and rec.rule is Rule.FREESTYLE and len(rec.moves) == 4
    assert rec.moves[0] == (9, 9) and rec.moves[1] == (10, 10)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("Piskvork 15x15\n8,8,0\n", "line 1: not a Piskvork file"),
        ("Piskvorky 12x12, 11:11, 0\n8,8,0\n", "line 1: a 12x12 board"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", "line 3: move 2 (16,1) is off the board"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n", "line 4: move 3 (h8) is on a taken"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\nrule=gobang\n", "line 3: unknown rule"),
    ],
)
def test_a_broken_psq_names_the_line_and_the_problem(text: str, words: str):
    with pytest.raises(RecordError, match=re.escape(words)):
        read_psq(text)


def test_move_lists_and_links():
    assert read_move_list("1. h8 i9 2. j10, k11").text() == "h8 i9 j10 k11"
    rec = read_link("https://example.org/gomoku/#moves=h8,i9,j10&rule=standard&size=17")
    assert rec.size == 17 and rec.rule is Rule.STANDARD and len(rec.moves) == 3
    assert read_link("moves=h8,i9&first=white").first == "white"
    for bad, words in [
        ("h8 zz9", "move 2 'zz9' is not a point"),
        ("h8 h8", "move 2 (h8) is on a taken point"),
    ]:
        with pytest.raises(RecordError, match=re.escape(words)):
            read_move_list(bad)
    with pytest.raises(RecordError, match="size must be"):
        read_link("moves=h8&size=99")
    with pytest.raises(RecordError, match="black moves first"):
        read_link("moves=h8&rule=renju&first=white")
    with pytest.raises(RecordError, match="after the game was won"):
        read_move_list("h8 a1 i8 a2 j8 a3 k8 a4 l8 a5")
    # renju: i8 makes two open threes for black (g8 h8 i8 and i8 i9 i10)
    with pytest.raises(RecordError, match="move 9 \\(i8\\) is forbidden for black: double three"):
        read_move_list("g8 a1 h8 c1 i9 e1 i10 o15 i8", rule="renju")


def test_read_record_tells_the_formats_apart():
    assert read_record(PAGE_PSQ).rule is Rule.RENJU
    assert read_record("#moves=h8,i9&size=15").text() == "h8 i9"
    assert read_record("h8 i9", size=16).size == 16


# --- the command line -----------------------------------------------------------------------


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gomoku.review", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(PY_DIR)),
        timeout=300,
    )


def test_cli_table_and_json(tmp_path: Path):
    game = tmp_path / "game.txt"
    game.write_text(OPEN_THREE_IGNORED)
    out = run_cli(str(game), "--nodes", "3000")
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.split()[:1] == ["6"])
    assert "j9??" in row and "blunder" in row and ("k8" in row or "g8" in row)
    white = next(line for line in out.stdout.splitlines() if line.strip().startswith("white:"))
    assert "blunder 1," in white
    js = run_cli("-", "--json", "--nodes", "3000", stdin=PAGE_PSQ)
    assert js.returncode == 0, js.stderr
    doc = json.loads(js.stdout)
    assert doc["rule"] == "renju" and len(doc["moves"]) == 3 and len(doc["positions"]) == 4
    assert doc["moves"][0]["move"] == [7, 7] and set(doc["summary"]) == {"black", "white"}
    assert not [k for m in doc["moves"] for k in m if k.endswith("Text")]
    for p in doc["positions"]:  # scores as data (none for the finished game)
        assert (p["score"] is None) == (p["over"] is not None) and "forced" not in p
        assert p["score"] is None or Score.from_dict(p["score"])


def test_cli_bad_file_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.psq"
    bad.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n")
    out = run_cli(str(bad))
    assert out.returncode == 2 and "line 3: move 2 (h8) is on a taken point" in out.stderr
    missing = run_cli(str(tmp_path / "nope.psq"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


# --- the worker's review message ---------------------------------------------------------------


def test_review_message_streams_positions_and_ends_with_the_summary():
    api = WebApi()
    moves = [list(m) for m in moves_from_text(OPEN_THREE_IGNORED, 15)]
    replies = [
        api.handle({"type": "review", "id": i, "moves": moves, "index": i, "nodes": 2000})
        for i in range(len(moves) + 1)
    ]
    assert all(r["type"] == "review" for r in replies), replies
    assert replies[0]["move"] is None and replies[6]["move"]["class"] == "blunder"
    assert replies[6]["move"]["mark"] == "??"
    assert names([replies[6]["move"]["better"]]) in (["g8"], ["k8"])
    assert "summary" in replies[-1] and "summary" not in replies[-2]
    assert [r["position"]["index"] for r in replies] == list(range(len(moves) + 1))
    # the same step asked again (a restarted review) gives the same answer
    again = WebApi().handle({"type": "review", "id": 6, "moves": moves, "index": 6, "nodes": 2000})
    assert again == replies[6]


@pytest.mark.parametrize(
    "extra, words",
    [
        ({"index": 99}, "index must be"),
        ({"index": 1, "nodes": 0}, "nodes must be"),
        ({"index": 1, "first": "red"}, "first must be"),
        ({"index": 1, "moves": [[7, 7], [7, 7]]}, "taken point"),
        ({"index": 1, "bogus": 1}, "bogus"),
    ],
)
def test_review_message_refuses_bad_input(extra: dict, words: str):
    msg = {"type": "review", "id": 1, "moves": [[7, 7], [8, 8]], **extra}
    reply = WebApi().handle(msg)
    assert reply["type"] == "error" and words in reply["message"], reply


def test_the_default_budget_is_the_same_in_the_worker():
    moves = [list(m) for m in moves_from_text("h8 h9", 15)]
    ask = {"type": "review", "id": 1, "moves": moves, "index": 1}
    assert WebApi().handle(ask) == WebApi().handle({**ask, "nodes": DEFAULT_NODES})
    assert WebApi().handle(ask) != WebApi().handle({**ask, "nodes": DEFAULT_NODES // 4})
    api = WebApi()
    reply = api.handle({"type": "review", "id": 1, "moves": [[7, 7], [8, 8]], "index": 0})
    assert reply["type"] == "review" and api._reviews is not None
    assert api._reviews.key is not None and api._reviews.key[1] == DEFAULT_NODES


# White to move must block black's four (one reply); after it black wins by VCF. The
# engine scores a forced reply without a search: the review searches past it.
FORCED_THEN_LOST = (
    "h8 i7 g8 f8 h9 f7 h6 h7 e7 f9 f10 f6 f5 j9 i8 j7 g7 j8 j6 k7 l7 j11 j10 g10 i9 k11 h11 m11 l11"
    " l10 k9 h12 l8 i11 n6"
)


def test_a_forced_reply_is_scored_by_the_position_after_it():
    r = review(FORCED_THEN_LOST)
    pos = r.position(len(r))
    assert pos.to_move == "white" and pos.source == "forced"
    assert pos.black == 1.0  # black wins whatever white does


# --- blame where the loss began, prove before flagging ------------------------------------------

# A game of Rapfi (black) against our engine at 10,000 nodes (py/gomoku_lab/data,
# review-set-games.jsonl): the first pass sees black's forced win first after move 10,
# but black's VCT was there after move 8 already, and after move 6 (white's f10), which
# Rapfi at 200,000 nodes also calls a win for black (mate in 15).
WALK_BACK_GAME = "h8 e9 i6 i8 g7 f10 f6 i9 h6 g6 h7 h5 f7 i7 f8 i10 i11 f5 h10 h9 g9 j12 e7"
# A game where an earlier review offered e8 for white's l8 (move 28): after
# e8 black mates in 15 (Rapfi), and l8 is Rapfi's own move.
L8_GAME = (
    "h6 h7 j10 g7 g8 f7 e7 i8 i7 j8 g6 f6 e5 h10 f8 k7 i9 h8 k8 h9 h11 j7 g10 j6 j5 l6 k6 l8"
)


def offered_better_moves_hold(r: Reviewer) -> None:
    """Every offered better move is proven to leave the opponent no forced win (at the
    proof's limits)."""
    for i in range(1, len(r) + 1):
        m = r.move(i)
        if m.better is not None and m.cls != "missed_win":
            prefix = list(r.record.moves[: i - 1])
            assert after_move(r.engine, prefix, m.better) == NO_WIN, (i, m)


def test_the_walk_back_blames_the_move_that_allowed_the_win():
    r = Reviewer(read_move_list(WALK_BACK_GAME), DEFAULT_NODES, fixed=4)
    r.step(len(r))
    first_sight = min(i for i, p in r.positions.items() if p.forced is not None and p.forced > 0)
    assert first_sight == 10
    assert 8 in r.wins and r.positions[8].forced is None  # there one move before
    assert 6 in r.wins and 4 not in r.wins
    line = r.wins[8]  # a real win: the line's stones are empty points, black first
    taken = set(r.record.moves[:8])
    assert not taken & set(line)
    blamed = r.move(6)
    assert blamed.player == "white" and blamed.cls == "blunder" and blamed.proof == "proven"
    assert blamed.after == 1.0 and r.chance(8) == 1.0 and r.chance(7) == 1.0
    for i in range(7, len(r) + 1):  # nothing later is blamed for a loss already there
        assert r.move(i).cls not in ("mistake", "blunder"), (i, r.move(i))
    offered_better_moves_hold(r)


def test_the_walk_back_reaches_the_page_as_revisions():
    api = WebApi()
    moves = [list(m) for m in moves_from_text(WALK_BACK_GAME, 15)]
    msg = {"type": "review", "moves": moves, "fixed": 4}
    replies = [api.handle({**msg, "id": i, "index": i}) for i in range(len(moves) + 1)]
    revised = {m["index"]: m for r in replies for m in r["revised"]["moves"]}
    assert revised[6]["class"] == "blunder" and revised[6]["proof"] == "proven"
    assert replies[6]["move"]["class"] != "blunder"  # not seen when move 6 was reviewed
    positions = {p["index"]: p["black"] for r in replies for p in r["revised"]["positions"]}
    assert positions[8] == 1.0
    assert [r["move"]["class"] for r in replies[1:5]] == ["opening"] * 4


def test_a_better_move_that_loses_to_a_planted_vcf_is_never_offered():
    # VCF_MISSED before black's k10 (move 27): after k10 white wins by VCF (f5 first).
    r = shared_review(VCF_MISSED)
    k10 = moves_from_text("k10", 15)[0]
    assert r._after(26, k10) == WIN
    before = replace(r.position(26), best=k10, line=[k10], alternatives=[[k10]])
    played = moves_from_text("a1", 15)[0]
    flag = MoveReview(27, "black", played, "blunder", before.black, 0.0, 0.5, proof="judged")
    r._offer_better(flag, 27, before)
    assert flag.better != k10
    if flag.better is None:
        assert flag.no_better
    else:
        assert after_move(r.engine, list(r.record.moves[:26]), flag.better) == NO_WIN


@pytest.mark.slow
def test_the_l8_game_is_not_given_a_losing_better_move():
    r = shared_review(L8_GAME)
    e8 = moves_from_text("e8", 15)[0]
    assert r.move(28).better != e8
    offered_better_moves_hold(r)


@pytest.mark.slow
def test_each_flag_says_proven_or_judged():
    r = shared_review(OPEN_THREE_IGNORED)
    assert r.move(6).cls == "blunder" and r.move(6).proof == "proven"
    missed = shared_review(VCF_MISSED).move(len(moves_from_text(VCF_MISSED, 15)))
    assert missed.cls == "missed_win" and missed.proof == "proven"
    game = shared_review(L8_GAME)
    flags = [game.move(i) for i in range(1, len(game) + 1) if game.move(i).flagged]
    assert flags and all(m.proof == "judged" for m in flags if m.cls == "inaccuracy")
    assert all(m.proof is None for i in range(1, len(game) + 1) if not (m := game.move(i)).flagged)
    doc = move_dict(r.move(6))
    assert doc["proof"] == "proven" and doc["noBetter"] is False


def test_fixed_opening_moves_are_not_judged(tmp_path: Path):
    r = Reviewer(read_move_list(OPEN_THREE_IGNORED), 3000, fixed=6)
    assert [r.move(i).cls for i in range(1, 7)] == ["opening"] * 6
    assert all(r.move(i).better is None for i in range(1, 7))
    assert summary([r.move(i) for i in range(1, 10)])["white"]["blunder"] == 0
    with pytest.raises(ValueError, match="fixed"):
        Reviewer(read_move_list(OPEN_THREE_IGNORED), 3000, fixed=10)
    game = tmp_path / "game.txt"
    game.write_text(OPEN_THREE_IGNORED)
    out = run_cli(str(game), "--nodes", "3000", "--fixed", "2")
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines() if line[:5].strip().isdigit()}
    assert "opening" in rows["2"] and "opening" not in rows["3"]
    assert "proven" in rows["6"] and "blunder" in rows["6"]
    bad = run_cli(str(game), "--fixed", "12")
    assert bad.returncode == 2 and "--fixed 12" in bad.stderr
