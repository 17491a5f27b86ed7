"""The thinking panel, analysis and browsing: the engine's result and where it came from
(the opening book's reply at once), analysis with its best line, browsing with the keys
and buttons and a branch from a past move, a finished game browsed never saying "your
turn", and the board kept in view when a move of the list is chosen.

Think times stay short (?time=, ?slice=); waits are generous so that a busy machine does
not fail a test.
"""

from __future__ import annotations

import re

import pytest
from conftest import MOVE_MS
from page_steps import FAST, load_moves, moves_are, play
from playwright.sync_api import Error as PlaywrightError


@pytest.mark.warm
def test_thinking_panel_shows_the_engine_result(game):
    game.open(FAST)
    play(game, "h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")
    score = game.page.inner_text("#think-score")
    pattern = r"(Black|White) \+\d+\.\d|[Ee]ven 0\.0|(Black|White) wins in \d+"
    assert re.fullmatch(pattern, score), score
    assert re.fullmatch(rf"{moves[1]} in \d+\.\d s", game.page.inner_text("#think-last"))
    # (at a node-limited level, "level's choice": its seeded pick among its best moves)
    sources = ("opening book", "threat search", "search", "forced", "level's choice")
    assert game.page.inner_text("#think-source") in sources
    width = game.page.eval_on_selector("#eval-fill", "e => e.style.width")
    assert width.endswith("%") and 0 <= float(width[:-1]) <= 100
    assert "Evaluation:" in game.page.get_attribute("#eval-bar", "aria-label")


def test_reply_to_the_centre_comes_from_the_book_at_once(game):
    """The engine's reply to h8 is an opening-book move: instant, and the thinking panel
    says where it came from."""
    game.open("test=1&time=3000")
    game.set_level(game.timed_level())  # the full engine on the clock (?time=3000), book included
    play(game, "h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")
    assert game.page.inner_text("#think-source") == "opening book"
    used = re.fullmatch(rf"{moves[1]} in (\d+\.\d) s", game.page.inner_text("#think-last"))
    assert used and float(used.group(1)) < 1.0  # a 3 s search would take seconds


@pytest.mark.warm
def test_analysis_browse_and_branch(game):
    game.open(FAST)
    load_moves(game, "h8 i9 j10 h9 k11")
    moves_are(game, "h8 i9 j10 h9 k11")
    game.page.click("#analyse")
    assert game.status() == "analysing"
    # analysis info arrives: a real search (no book), with a depth and a best line
    game.page.wait_for_function(
        "() => /^\\d+$/.test(document.querySelector('#think-depth').textContent)", timeout=MOVE_MS
    )
    assert game.page.inner_text("#think-source") in ("…", "search", "threat search", "forced")
    game.page.check("#show-pv")
    game.page.wait_for_function(
        "() => document.querySelector('#board').dataset.overlay !== ''", timeout=MOVE_MS
    )
    # browse with the keyboard (focus outside the board) and the buttons
    game.page.locator("h1").click()  # focus off the board
    game.page.keyboard.press("Home")
    moves_are(game, "")
    game.page.keyboard.press("ArrowRight")
    game.page.keyboard.press("ArrowRight")
    moves_are(game, "h8 i9")
    game.page.click("#nav-last")
    moves_are(game, "h8 i9 j10 h9 k11")
    game.page.click("#nav-prev")
    moves_are(game, "h8 i9 j10 h9")
    # on the board, Alt+arrows browse
    game.page.focus("#board")
    game.page.keyboard.press("Alt+ArrowLeft")
    game.page.keyboard.press("Alt+ArrowLeft")
    moves_are(game, "h8 i9")
    assert game.page.inner_text("#nav-pos") == "Move 2 of 5"
    # a move here starts a new branch that replaces the rest of the line
    play(game, "g7")
    moves_are(game, "h8 i9 g7")
    assert game.page.inner_text("#nav-pos") == "Move 3 of 3"
    # analysis never plays a move by itself
    game.page.wait_for_timeout(1500)
    assert game.moves() == ["h8", "i9", "g7"]
    game.page.click("#analyse")
    assert game.status() in ("your-turn", "thinking", "review")


@pytest.mark.warm
def test_browsing_a_finished_game_never_says_your_turn(game):
    game.open(FAST)
    game.page.evaluate("() => { location.hash = 'moves=h8,a1,h9,a2,h10,a3,h11,a4,h12'; }")
    moves_are(game, "h8 a1 h9 a2 h10 a3 h11 a4 h12")
    game.wait_status("black-wins")
    for _ in range(9):
        game.page.click("#nav-prev")
        assert game.status() != "your-turn"
        status = game.page.inner_text("#status").lower()
        assert "your turn" not in status and "looking back" in status, status


LONG = "h8,i9,i8,g8,j7,k6,h9,h7,j9,g10,g9,f9,k9,l9,j10,j8,k11,l12,i11,h12,k10,k12"


def board_in_view(page) -> bool:
    box = page.locator("#board").bounding_box()
    vh = page.evaluate("() => innerHeight")
    return box["y"] >= -2 and box["y"] + box["height"] <= vh + 2


@pytest.mark.warm
def test_browsing_from_the_move_list_keeps_the_board_in_view(game):
    page = game.page
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(viewport)
        game.open(FAST)
        page.evaluate("h => { location.hash = h; }", "moves=" + LONG)
        moves_are(game, LONG.replace(",", " "))
        # the move list's first moves, scrolled to as a player would; the list is drawn
        # again on every change of state (the coach's answer, the engine ready), which
        # can detach the button under a scroll: tried again, up to 3 times
        item = page.locator("#move-list button.mv").nth(2)
        for attempt in range(3):
            try:
                item.scroll_into_view_if_needed()
                break
            except PlaywrightError:
                if attempt == 2:
                    raise
        page.mouse.wheel(0, 300)
        item.click()
        page.wait_for_function(
            "() => document.querySelector('#nav-pos').textContent.includes('3')"
        )
        assert board_in_view(page), viewport
        assert page.evaluate("() => scrollY") > 0, "the page scrolled (else the test is void)"
