"""The page's layout and touch: on the desktop and on a phone the whole board and the status
line are in view, nothing is wider than a phone's screen (dialogs included), and on a
touch screen a tap previews before a second one plays (a setting turns it off) with touch
targets large enough.
"""

from __future__ import annotations

import pytest
import site_build as build
from page_steps import FAST, on_board, open_display


def board_and_status_in_view(page, width: int, height: int) -> None:
    """The whole board and the status line are visible without scrolling, the board square
    and nearly as large as the window's smaller side."""
    board = page.locator("#board").bounding_box()
    status = page.locator("#status").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    assert board["y"] >= 0 and board["y"] + board["height"] <= height
    assert status["y"] + status["height"] <= height
    assert board["width"] >= min(width, height) * 0.8
    assert abs(board["width"] - board["height"]) < 2
    page.screenshot(path=str(build.ROOT / "test-results" / f"page-{width}x{height}.png"))


@pytest.mark.warm
def test_layout_on_the_desktop_and_on_a_phone(game, phone_game):
    game.open(FAST)
    board_and_status_in_view(game.page, 1280, 800)

    # a phone (touch, two device pixels a CSS pixel): nothing wider than its screen
    g, page = phone_game, phone_game.page
    g.open(FAST)
    board_and_status_in_view(page, 390, 844)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    # a tap previews, a second tap on the same point plays (settings.touchConfirm)
    page.touchscreen.tap(*g.cell_point("h8"))
    page.touchscreen.tap(*g.cell_point("h8"))
    moves = g.wait_moves(2)
    assert moves[0] == "h8" and on_board(moves[1])
    for opener, dialog in (("#records", "#records-dialog"), ("#setup", "#new-game-dialog")):
        page.click(opener)
        box = page.locator(dialog).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (dialog, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.keyboard.press("Escape")
    open_display(g)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390



def test_touch_previews_then_plays_and_the_setting_turns_it_off(phone_game):
    g, page = phone_game, phone_game.page
    g.open(FAST)
    page.touchscreen.tap(*g.cell_point("h8"))
    assert "h8" in page.inner_text("#announce")
    page.touchscreen.tap(*g.cell_point("g7"))  # a tap elsewhere moves the preview
    assert "g7" in page.inner_text("#announce")
    page.wait_for_timeout(300)
    assert g.moves() == []
    page.touchscreen.tap(*g.cell_point("g7"))
    moves = g.wait_moves(2)
    assert moves[0] == "g7"
    g.wait_status("your-turn")
    # the Records dialog does not focus its text box (no phone keyboard)
    page.click("#records")
    assert page.evaluate("() => document.activeElement.id") != "record-text"
    page.keyboard.press("Escape")
    # touch targets: the Display check boxes' rows, the summaries, the buttons
    page.click("details.display summary")
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, summary, select, label.check')]
            .filter((el) => el.offsetParent && el.getBoundingClientRect().height < 40
              && !el.closest('dialog') && !el.classList.contains('mv'))
            .map((el) => [el.id || el.textContent.trim().slice(0, 20),
              el.getBoundingClientRect().height])"""
    )
    assert small == [], small
    # the setting off: one tap plays
    page.uncheck("#opt-touch")
    free = next(c for c in ("c3", "m13", "c13") if c not in g.moves())
    page.evaluate("() => window.scrollTo(0, 0)")
    page.touchscreen.tap(*g.cell_point(free))
    assert g.wait_moves(3)[2] == free
