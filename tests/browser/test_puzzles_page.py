"""The puzzles page (web/puzzles.html): a wrong move refuted by the engine and counted, a
VCF played out against the page's blocks, unreadable progress dropped with a notice."""

from __future__ import annotations

import json
import re

from gomoku.core.geometry import to_text
from gomoku.puzzles import load

PUZZLES = load()
VCF = next(p for p in PUZZLES if p.theme == "vcf" and len(p.line) >= 5)
DEFEND = next(p for p in PUZZLES if p.theme == "defend")
FEEDBACK = "() => document.querySelector('#pz-feedback').textContent"
START = "() => import('./model/puzzles.js').then((m) => m.START_RATING)"  # the default level's


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


def test_a_wrong_defence_is_refuted_and_lowers_the_rating(page, base_url) -> None:
    _open(page, base_url, DEFEND.id)
    taken = set(DEFEND.moves) | set(DEFEND.solutions)
    x, y = next(
        (a + dx, b + dy) for a, b in DEFEND.moves[::-1] for dx, dy in ((1, 0), (0, 1), (-1, 0))
        if (a + dx, b + dy) not in taken and 0 <= min(a + dx, b + dy) and max(a + dx, b + dy) < 15
    )
    _click(page, x, y)
    page.wait_for_function("() => document.body.dataset.status === 'failed'")
    # what the other side answers, named as such: its colour and move (the first stone of
    # the line drawn on the board)
    other = "White" if DEFEND.side == 1 else "Black"
    page.wait_for_function(f"() => ({FEEDBACK})().includes('{other} answers ')", timeout=240_000)
    said = page.evaluate(FEEDBACK)
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
