"""Two players on one device and the game clock in the page (web/model/clock.js,
state.js, clock-view.js, undo-dialog.js, new-game-dialog.js): the two-player flow in
English and Chinese and on a phone, undo by both players' agreement, the clock's presets
and custom setting, the clock across a reload, the engine's clock stopped while it loads,
and a timeout loss. Time is moved on by the page's test hook (gomokuTest.advanceClock:
the clock's time source), not waited for."""

from __future__ import annotations

import json

import pytest
from conftest import DEFAULT_QUERY, PHONE, GamePage, chinese_text, choose_language, english_words
from playwright.sync_api import expect

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
GAME_KEY = "gomoku.game.v1"
WON_BY_BLACK = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]


def moves_are(game: GamePage, text: str, timeout: int = 60_000) -> None:
    game.page.wait_for_function(
        "t => document.querySelector('#board').dataset.moves === t", arg=text, timeout=timeout
    )


def play(game: GamePage, cell: str) -> None:
    """Click an intersection (the board scrolled into view first) and wait for the stone."""
    before = len(game.moves())
    game.page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell(cell)
    game.wait_moves(before + 1)


def new_game(game: GamePage, players: str = "engine", clock: str = "none", level: int | None = None,
             custom: tuple[str, str] | None = None) -> None:
    """The New game dialog: against the engine or two players, a clock preset ("5+3"),
    "none", or "custom" with (minutes, seconds)."""
    page = game.page
    page.click("#setup")
    page.check(f'input[name="ng-players"][value="{players}"]')
    page.select_option("#ng-clock", clock)
    if custom:
        page.fill("#ng-clock-min", custom[0])
        page.fill("#ng-clock-inc", custom[1])
    if level is not None:
        page.select_option("#ng-level", str(level))
    page.click("#ng-start")


def clock_ms(game: GamePage, colour: int) -> int:
    return int(game.page.get_attribute(f"#clock-{colour}", "data-ms") or -1)


def stored(game: GamePage, key: str):
    return json.loads(game.page.evaluate("k => localStorage.getItem(k)", key) or "null")


# ---- two players ---------------------------------------------------------------------------


@pytest.mark.warm
def test_two_players_take_turns_undo_by_agreement_and_a_kept_result(game):
    page = game.page
    game.open(FAST)
    page.click("#setup")
    page.check('input[name="ng-players"][value="two"]')
    expect(page.locator("#ng-side-set")).to_be_hidden()  # no colour, no level to choose
    expect(page.locator("#ng-level")).to_be_hidden()
    page.click("#ng-start")
    expect(page.locator("#status")).to_have_text("Black to move")
    expect(page.locator(".settings")).to_be_hidden()
    expect(page.locator("#level")).to_be_hidden()  # (beside the status against the engine)
    expect(page.locator("#swap")).to_be_hidden()
    expect(page.locator("#clocks")).to_be_hidden()  # no clock by default
    play(game, "h8")
    expect(page.locator("#status")).to_have_text("White to move")
    assert game.status() == "white-to-move"
    expect(page.locator("#you-are")).to_contain_text("Two players on this device")
    expect(page.locator("#announce")).to_have_text("Black plays h8.")
    play(game, "i9")
    page.wait_for_timeout(600)  # the engine would have answered a level-1 game by now
    assert game.moves() == ["h8", "i9"]
    expect(page.locator("#status")).to_have_text("Black to move")
    # a hint for the side to move (black here)
    page.click("#hint")
    page.wait_for_function("() => !!document.querySelector('#board').dataset.hint")
    # undo asks both players; Keep playing keeps the move, Take back takes one move back
    page.click("#undo")
    expect(page.locator("#undo-dialog")).to_be_visible()
    expect(page.locator("#undo-ask")).to_have_text("Take back white's move i9?")
    page.click("#undo-no")
    expect(page.locator("#undo-dialog")).to_be_hidden()
    assert game.moves() == ["h8", "i9"]
    page.click("#undo")
    page.click("#undo-yes")
    page.wait_for_function(
        "() => document.querySelector('#nav-pos').textContent.startsWith('Move 1 ')"
    )
    expect(page.locator("#status")).to_have_text("White to move")
    # Chinese: whose turn, the dialog's words
    choose_language(page, "zh")
    expect(page.locator("#status")).to_have_text("轮到白棋")
    page.click("#undo")
    expect(page.locator("#undo-ask")).to_have_text("悔掉黑棋的 h8 这一步？")
    page.keyboard.press("Escape")  # no agreement: nothing taken back
    choose_language(page, "en")
    # white plays elsewhere, black makes five: kept, not counted for a level
    for cell in ["a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]:
        play(game, cell)
    game.wait_status("black-wins")
    expect(page.locator("#you-are")).to_contain_text("Black wins — well played!")
    history = stored(game, "gomoku.history.v1")
    assert len(history) == 1 and history[0]["twoPlayers"] is True
    assert history[0]["result"] == "black"
    assert not stored(game, "gomoku.results.v2")  # no level's record
    page.click("#records")
    expect(page.locator("#history-list li").first).to_contain_text(
        "Black won · 9 moves · two players"
    )
    page.click("#records-close")
    # the review names the colours (neither side is "you"); nothing offered to learn from
    page.click("#review-start")
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.review === 'done'", timeout=240_000
    )
    summary = page.inner_text("#review-summary")
    assert "Black: " in summary and "White: " in summary, summary
    assert "You" not in summary and "opponent" not in summary, summary
    assert page.is_hidden("#review-learn")
    # New game keeps the mode, and so does a reload
    page.click("#new-game")
    play(game, "h8")
    game.open(FAST, fresh=False)
    assert game.moves() == ["h8"]
    expect(page.locator("#status")).to_have_text("White to move")
    expect(page.locator(".settings")).to_be_hidden()


def test_two_players_on_a_phone_with_a_clock_in_chinese(phone_game):
    g, page = phone_game, phone_game.page
    g.open(FAST)
    choose_language(page, "zh")
    page.evaluate("() => window.scrollTo(0, 0)")
    new_game(g, players="two", clock="3+2")
    expect(page.locator("#status")).to_have_text("轮到黑棋")
    expect(page.locator("#clocks")).to_be_visible()
    expect(page.locator("#clock-note")).to_have_text("第一手落子后开始计时。")
    for cell, count in (("h8", 1), ("i9", 2)):
        page.evaluate("() => window.scrollTo(0, 0)")
        page.touchscreen.tap(*g.cell_point(cell))  # a first tap previews,
        page.touchscreen.tap(*g.cell_point(cell))  # a second plays
        g.wait_moves(count)
    expect(page.locator("#status")).to_have_text("轮到黑棋")
    expect(page.locator("#clock-1")).to_have_class("clock running ticking")
    expect(page.locator("#clock-1 .clock-who")).to_have_text("黑棋")
    used = stored(g, GAME_KEY)["clock"]["used"]  # white's move: 3:00 less its time, + 2 s
    assert abs(clock_ms(g, 2) - (180_000 - used[1] + 2000)) <= 1, used
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    # the clocks are in view under the board, without scrolling
    box = page.locator("#clocks").bounding_box()
    assert box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    # undo on a phone: the dialog fits
    page.click("#undo")
    dialog = page.locator("#undo-dialog").bounding_box()
    assert dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= PHONE["viewport"]["width"]
    page.click("#undo-yes")
    g.wait_status("white-to-move")
    assert g.moves() == ["h8"]


@pytest.mark.warm
def test_two_players_on_the_clock_follow_a_language_switch(game):
    """What is said in a two-player game under a clock (a move, a stone refused while
    looking back, a move taken back, a fallen flag) follows a change of language at once."""
    page = game.page
    game.open(FAST)
    new_game(game, players="two", clock="3+2")
    play(game, "h8")
    play(game, "i9")
    expect(page.locator("#announce")).to_have_text("White plays i9.")
    choose_language(page, "zh")
    expect(page.locator("#announce")).to_have_text("白棋下在 i9。")
    expect(page.locator("#clock-1 .clock-who")).to_have_text("黑棋")
    assert not english_words(page), english_words(page)
    choose_language(page, "en")
    assert not chinese_text(page), chinese_text(page)
    # looking back under a running clock: a stone there is refused, and said so
    page.click("#nav-prev")
    page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("c3")
    expect(page.locator("#announce")).to_have_text(
        "The clock is running: go to the last move to play."
    )
    choose_language(page, "zh")
    expect(page.locator("#announce")).to_have_text("计时进行中：回到最后一手才能落子。")
    choose_language(page, "en")
    page.click("#nav-last")
    page.click("#undo")
    page.click("#undo-yes")
    expect(page.locator("#announce")).to_have_text("Move taken back.")
    choose_language(page, "zh")
    expect(page.locator("#announce")).to_have_text("已悔棋。")
    choose_language(page, "en")
    # white's flag falls
    page.evaluate("() => window.gomokuTest.advanceClock(200_000)")
    game.wait_status("black-wins")
    expect(page.locator("#announce")).to_have_text("White lost on time.")
    choose_language(page, "zh")
    expect(page.locator("#announce")).to_have_text("白棋超时判负。")
    expect(page.locator("#status")).to_have_text("白棋超时负")
    assert not english_words(page), english_words(page)
    choose_language(page, "en")
    expect(page.locator("#announce")).to_have_text("White lost on time.")
    assert not chinese_text(page), chinese_text(page)


# ---- the clock ------------------------------------------------------------------------------


@pytest.mark.warm
def test_the_dialog_offers_presets_and_a_custom_clock(game):
    page = game.page
    game.open(FAST)
    page.click("#setup")
    options = page.eval_on_selector_all("#ng-clock option", "os => os.map((o) => o.value)")
    assert options == ["none", "1+0", "3+2", "5+3", "10+5", "15+10", "custom"]
    assert page.input_value("#ng-clock") == "none"  # no clock by default
    expect(page.locator("#ng-clock-min")).to_be_hidden()
    page.select_option("#ng-clock", "custom")
    page.fill("#ng-clock-min", "0")
    page.click("#ng-start")
    expect(page.locator("#ng-clock-bad")).to_have_text(
        "Minutes 1 to 180 and seconds 0 to 60, whole numbers."
    )
    expect(page.locator("#new-game-dialog")).to_be_visible()  # nothing started
    page.fill("#ng-clock-min", "2")
    page.fill("#ng-clock-inc", "7")
    page.click("#ng-start")
    expect(page.locator("#clock-1 .clock-time")).to_have_text("2:00")
    expect(page.locator("#clock-2 .clock-who")).to_have_text("White · engine")
    expect(page.locator("#you-are")).to_contain_text("clock 2+7")
    # the dialog opens on the game's clock
    page.click("#setup")
    assert page.input_value("#ng-clock") == "custom"
    assert (page.input_value("#ng-clock-min"), page.input_value("#ng-clock-inc")) == ("2", "7")
    page.click("#ng-cancel")


@pytest.mark.warm
def test_the_clock_across_a_reload_the_engines_load_and_a_timeout_loss(game):
    page = game.page
    game.open(FAST)
    new_game(game, clock="1+0", level=1)
    play(game, "h8")
    game.wait_moves(2)  # the engine's answer, charged to its clock
    game.wait_status("your-turn")
    assert clock_ms(game, 2) < 60_000
    expect(page.locator("#clock-1")).to_have_class("clock running ticking")
    page.evaluate("() => window.gomokuTest.advanceClock(20_000)")  # black thinks 20 s
    left = clock_ms(game, 1)
    assert 35_000 <= left <= 40_000, left
    # black moves; the engine's worker hangs (a test hook), so that the page is left on
    # the engine's turn: the reload stores the times as the page was left (pagehide)
    page.evaluate("() => window.gomokuTest.hang()")
    # a free point (level 1's reply is seeded per game: it may have taken g8)
    play(game, next(c for c in ("g8", "j8", "h10") if c not in game.moves()))
    page.reload()
    # the engine's clock stops while its worker loads; the time while closed is not charged
    expect(page.locator("#clock-note")).to_have_text(
        "The clock is stopped while the engine loads."
    )
    clock = stored(game, GAME_KEY)["clock"]
    assert clock["baseMs"] == 60_000 and clock["running"] == 2 and len(clock["used"]) == 3, clock
    assert left - 2000 <= clock["left"][0] <= left, (left, clock)  # black's move charged
    engine_before = clock["left"][1]
    game.wait_ready()
    game.wait_moves(4)
    load_ms = int(page.get_attribute("#board", "data-load-ms") or 0)
    live = page.evaluate("() => window.gomokuTest.state().game.clock")
    # the engine's time after the reload ran from its worker's ready, not from the load
    charged = engine_before - live["left"][1]
    assert 0 < charged <= live["since"] - load_ms + 5, (charged, live, load_ms)
    assert live["running"] == 1 and live["since"] is not None
    # the flag: black's time gone, lost on time, plainly
    page.evaluate("() => window.gomokuTest.advanceClock(45_000)")
    game.wait_status("white-wins")
    expect(page.locator("#status")).to_have_text("Black lost on time")
    expect(page.locator("#clock-1")).to_have_class("clock low flagged")
    expect(page.locator("#clock-1 .clock-time")).to_have_text("0.0")
    expect(page.locator("#announce")).to_have_text("Black lost on time.")
    assert stored(game, "gomoku.results.v2") == {"1": {"won": 0, "lost": 1, "drawn": 0}}
    page.click("#records")
    expect(page.locator("#history-list li").first).to_contain_text("Black lost on time · 4 moves")
    expect(page.locator("#history-list li").first).to_contain_text("clock 1+0")
    assert page.input_value("#share-link").endswith("&clock=1+0")
    page.click("#records-close")
    # no more moves on a fallen flag
    page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("c3")
    page.wait_for_timeout(200)
    assert len(game.moves()) == 4
