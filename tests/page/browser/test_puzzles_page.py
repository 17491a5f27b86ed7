"""The puzzles page (web/puzzles.html): every move judged by the engine from the position
(an open four after extra fours accepted and played to the five, a four that wins by threes
taken back as "also wins", a losing move answered by the opponent in words), a wrong
defence counted, a VCF played out against the page's blocks, unreadable progress dropped
with a notice, learning from your mistakes."""

from __future__ import annotations

import json
import re

import pytest

from gomoku.core.geometry import to_text
from gomoku.puzzles import load
from gomoku.puzzles.judge import judge_move
from gomoku.puzzles.prove import makes_four

PUZZLES = load()
BY_ID = {p.id: p for p in PUZZLES}
VCF = next(p for p in PUZZLES if p.theme == "vcf" and len(p.line) >= 5)
DEFEND = next(p for p in PUZZLES if p.theme == "defend")
FEEDBACK = "() => document.querySelector('#pz-feedback').textContent"
START = "() => import('./model/puzzles.js').then((m) => m.START_RATING)"  # the default level's
# "win by fours (7 moves)": eight fours on a longer road (j9 j6 j8 j11 g8 g11 i8 e6), then
# h10, an open four (f12 and k7 both make five)
ISSUE = BY_ID["0bd7eb"]
EXTRA_FOURS = [(9, 6), (9, 9), (9, 7), (9, 4), (6, 7), (6, 4), (8, 7), (4, 9)]
H10 = (7, 5)


@pytest.fixture(scope="module")
def tab(browser, browser_context_args, base_url):
    """One puzzles page for the module's judged-move tests (?test=1: its reset hook shows
    a puzzle afresh and reads the stored progress again; the engine worker is kept)."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.goto(f"{base_url}puzzles.html?test=1")
    page.wait_for_function("() => window.gomokuPuzzles && window.gomokuPuzzles.reset")
    yield page
    context.close()


def _reset(page, pid: str, items: dict[str, str] | None = None) -> None:
    """The puzzle ``pid`` from its start, with exactly ``items`` stored."""
    page.evaluate(
        "([items, id]) => { localStorage.clear();"
        " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);"
        " window.gomokuPuzzles.reset(id); }",
        [items or {}, pid],
    )
    page.wait_for_function("() => document.querySelector('#board').dataset.grid")


def _moves(page) -> int:
    return int(page.get_attribute("#board", "data-moves"))


def _wait_moves(page, n: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('#board').dataset.moves === String(n)"
        " && ['continue', 'solve', 'done', 'failed'].includes(document.body.dataset.status)",
        arg=n, timeout=120_000,
    )


def _open(page, base_url: str, pid: str, progress: str | None = None) -> None:
    page.goto(f"{base_url}puzzles.html")
    page.evaluate("localStorage.clear()")
    page.evaluate("() => localStorage.setItem('gomoku.game.v1', 'kept')")
    if progress is not None:
        page.evaluate("s => localStorage.setItem('gomoku.puzzles.v1', s)", progress)
    page.goto(f"{base_url}puzzles.html?id={pid}")
    page.wait_for_function("() => document.querySelector('#board').dataset.grid")


def _click(page, x: int, y: int) -> None:
    box = page.locator("#board").bounding_box()
    margin, step, s = map(float, page.get_attribute("#board", "data-grid").split())
    k = box["width"] / s
    page.mouse.click(box["x"] + (margin + x * step) * k, box["y"] + (margin + y * step) * k)


def _progress(page) -> dict:
    return json.loads(page.evaluate("() => localStorage.getItem('gomoku.puzzles.v1')"))


def test_an_open_four_after_extra_fours_is_accepted_and_played_to_the_five(tab) -> None:
    _reset(tab, ISSUE.id)
    n = len(ISSUE.moves)
    for four in EXTRA_FOURS:
        _click(tab, *four)
        n += 2
        _wait_moves(tab, n)  # the block came: the puzzle goes on
        assert "White answers" in tab.evaluate(FEEDBACK)
    _click(tab, *H10)
    _wait_moves(tab, n + 2)
    text = tab.evaluate(FEEDBACK)
    assert "h10 still wins, but takes longer than needed." in text
    reply = tuple(tab.evaluate("() => window.gomokuPuzzles.state.moves.at(-1)"))
    assert reply in {(5, 3), (10, 8)}  # f12 or k7
    _click(tab, *({(5, 3), (10, 8)} - {reply}).pop())
    tab.wait_for_function("() => document.body.dataset.status === 'done'")
    assert "Solved" in tab.evaluate(FEEDBACK)
    assert _progress(tab)["done"] == {ISSUE.id: "solved"}


def test_a_refused_four_that_wins_by_threes_is_taken_back_as_also_wins(tab) -> None:
    _reset(tab, ISSUE.id)
    n = len(ISSUE.moves)
    _click(tab, 10, 10)  # k5: a four after whose block black wins by threes
    tab.wait_for_function(f"() => /also wins/.test(({FEEDBACK})())", timeout=120_000)
    assert tab.evaluate(FEEDBACK) == (
        "k5 also wins, but not by fours. This puzzle asks for a win by fours: try again."
    )
    assert _moves(tab) == n and tab.evaluate("() => document.body.dataset.status") == "solve"
    assert tab.evaluate("() => localStorage.getItem('gomoku.puzzles.v1')") is None  # not counted


def test_a_move_after_which_the_win_is_gone_is_answered_in_words(tab) -> None:
    _reset(tab, ISSUE.id)
    move = (4, 9)  # e6: white then wins by force
    verdict = judge_move(ISSUE.board(), move, ISSUE.theme, ISSUE.moves_to_win)
    assert verdict.outcome == "lost"
    _click(tab, *move)
    tab.wait_for_function("() => document.body.dataset.status === 'failed'", timeout=120_000)
    x, y = verdict.reply
    reply = "abcdefghijklmno"[x] + str(15 - y)
    assert tab.evaluate(FEEDBACK).startswith(f"After e6 the win is gone: White answers {reply}.")
    assert _progress(tab)["done"] == {ISSUE.id: "failed"}
    assert tab.locator("#pz-retry").is_visible()


def test_a_wrong_defence_is_refuted_and_lowers_the_rating(page, base_url) -> None:
    _open(page, base_url, DEFEND.id)
    board = DEFEND.board()
    x, y = next(  # a cell near the stones that the judge refutes (and no four)
        board.point(q) for q in sorted(board.candidates)
        if board.point(q) not in DEFEND.solutions and not makes_four(board, q, board.side)
        and judge_move(board, board.point(q), "defend").outcome == "lost"
    )
    _click(page, x, y)
    page.wait_for_function("() => document.body.dataset.status === 'failed'", timeout=240_000)
    # what the other side answers, named as such: its colour and move
    other = "White" if DEFEND.side == 1 else "Black"
    said = page.evaluate(FEEDBACK)
    assert "does not stop the attack" in said, said
    answer = re.search(rf"{other} answers ([a-o]\d+)", said)
    assert answer and "The answer" not in said, said
    assert page.locator("#pz-retry").is_visible()
    assert page.locator("#pz-show").is_visible()
    stored = _progress(page)
    assert stored["rating"] < page.evaluate(START) and stored["done"] == {DEFEND.id: "failed"}
    # Show solution: the solution's move, and any other first move accepted, as such
    page.click("#pz-show")
    shown = page.evaluate(FEEDBACK)
    first = to_text(*DEFEND.solutions[0], DEFEND.size)
    others = [to_text(*m, DEFEND.size) for m in DEFEND.solutions[1:]]
    want = f"Solution: {first}" + (f" (also accepted: {' '.join(others)})." if others else ".")
    assert shown.startswith(want), (shown, want)
    page.click("#pz-retry")  # a second try is not counted again
    _click(page, *DEFEND.solutions[0])
    page.wait_for_function("() => document.body.dataset.status === 'done'")
    assert "Already counted" in page.evaluate(FEEDBACK)
    assert _progress(page)["rating"] == stored["rating"]


def test_a_vcf_is_played_out_to_the_five(page, base_url) -> None:
    _open(page, base_url, VCF.id)
    n = len(VCF.moves)
    for i in range(0, len(VCF.line), 2):
        page.wait_for_function(
            f"() => document.querySelector('#board').dataset.moves === '{n + i}'"
        )
        _click(page, *VCF.line[i])
    page.wait_for_function("() => document.body.dataset.status === 'done'")
    assert "Solved" in page.evaluate(FEEDBACK)
    stored = _progress(page)
    assert stored["rating"] > page.evaluate(START) and stored["streak"] == 1


def test_unreadable_progress_is_dropped_with_a_notice_and_nothing_else(page, base_url) -> None:
    _open(page, base_url, VCF.id, progress='{"v": 1, "rating": "high"}')
    page.wait_for_function("() => document.querySelector('#pz-notice').textContent.length > 0")
    assert "could not be read" in page.inner_text("#pz-notice")
    assert page.evaluate("() => localStorage.getItem('gomoku.puzzles.v1')") is None
    assert page.evaluate("() => localStorage.getItem('gomoku.game.v1')") == "kept"
    assert page.inner_text("#pz-rating") == str(page.evaluate(START))


# A planted game and a partial review of it (the first 3 moves): black, the player, played
# j10 (9, 5) at move 3, flagged a blunder with the better move g8 (6, 7).
PLANTED_GAME = {
    "size": 15, "rule": "freestyle", "first": 1, "human": 1, "level": 3, "seed": 0,
    "moves": [[7, 7], [8, 6], [9, 5], [10, 4]], "cursor": 4, "recorded": False,
}
PLANTED_REVIEW = {
    "key": "15/1/freestyle/7.7 8.6 9.5 10.4",
    "review": {
        "nodes": 3000, "black": [0.55, 0.58, 0.5, 0.2],
        "moves": [
            {"class": "best"}, {"class": "good"},
            {"class": "blunder", "better": "g8", "line": "g8 f8 i8"},
        ],
    },
}


def test_learn_from_mistakes_accepts_the_better_move_and_refuses_the_played_one(
    page, base_url
) -> None:
    page.goto(f"{base_url}puzzles.html")
    page.evaluate("localStorage.clear()")
    page.evaluate("s => localStorage.setItem('gomoku.game.v1', s)", json.dumps(PLANTED_GAME))
    page.evaluate("s => localStorage.setItem('gomoku.review.v1', s)", json.dumps(PLANTED_REVIEW))
    page.goto(f"{base_url}puzzles.html?mistakes=1")
    page.wait_for_function("() => document.querySelector('#board').dataset.grid")
    assert page.inner_text("#pz-prompt") == "You played j10. Find a better move for black."
    assert page.get_attribute("#board", "data-moves") == "2"
    _click(page, 9, 5)  # the move played: refused, with the better move named
    page.wait_for_function("() => document.body.dataset.status === 'wrong'")
    said = page.evaluate(FEEDBACK)
    assert "j10 is the move you played. Better: g8 (its line: g8 f8 i8)." in said, said
    # the engine's answer to the move, once found, names white's move as white's
    page.wait_for_function(f"() => / answers |not ready/.test(({FEEDBACK})())", timeout=240_000)
    assert re.search(r"White answers [a-o]\d+", page.evaluate(FEEDBACK)), page.evaluate(FEEDBACK)
    page.click("#pz-retry")
    _click(page, 6, 7)  # the review's better move: accepted
    page.wait_for_function("() => document.body.dataset.status === 'done'")
    assert "g8: the better move the review found" in page.evaluate(FEEDBACK)
    # the game and its review are left as they were
    assert json.loads(page.evaluate("() => localStorage.getItem('gomoku.game.v1')")) == PLANTED_GAME


def test_learn_from_mistakes_asks_the_engine_about_another_move(page, base_url) -> None:
    page.goto(f"{base_url}puzzles.html")
    page.evaluate("localStorage.clear()")
    page.evaluate("s => localStorage.setItem('gomoku.game.v1', s)", json.dumps(PLANTED_GAME))
    page.evaluate("s => localStorage.setItem('gomoku.review.v1', s)", json.dumps(PLANTED_REVIEW))
    page.goto(f"{base_url}puzzles.html?mistakes=1")
    page.wait_for_function("() => document.querySelector('#board').dataset.grid")
    _click(page, 2, 2)  # c13, far from everything: judged by the review's rule
    assert "Checking c13" in page.evaluate(FEEDBACK)
    page.wait_for_function(
        f"() => /as good as|not as good/.test(({FEEDBACK})())", timeout=240_000
    )
    # far from the stones, black's chance drops by more than an inaccuracy's 0.10
    assert "c13 is not as good" in page.evaluate(FEEDBACK)
