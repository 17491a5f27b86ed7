"""Opening rules in the page: swap2 and Soosõrv-8 from the New game dialog and from links,
the status saying whose turn it is and what to do (English and Chinese), the player's
choices on the panel (mouse and keyboard) and stones on the board, the engine's turn
through the worker's "opening" message, refusals said in the player's language, a reload
in the middle of the opening, the records (link, .psq, finished games), a phone, and
two players on one device making the opening on a clock that starts after it."""

from __future__ import annotations

import json

import pytest
from conftest import DEFAULT_QUERY, MOVE_MS, GamePage, chinese_text, choose_language, english_words

FAST = DEFAULT_QUERY  # the warm tab's query


def data(game: GamePage, name: str) -> str:
    return game.page.get_attribute("#board", f"data-{name}") or ""


def wait_data(game: GamePage, name: str, test: str, timeout: int = MOVE_MS) -> str:
    """Wait until data-<name> passes ``test`` (a JS expression of v)."""
    js = "const v = document.querySelector('#board').dataset[n] || '';"
    game.page.wait_for_function(
        f"([n]) => {{ {js} return {test}; }}",
        arg=[name],
        timeout=timeout,
    )
    return data(game, name)


def status_text(game: GamePage) -> str:
    return game.page.inner_text("#status")


def open_link(game: GamePage, fragment: str) -> None:
    game.open(FAST)
    game.page.goto(f"{game.base_url}?{FAST}#{fragment}")
    game.wait_ready()


def new_game(game: GamePage, rule: str = "freestyle", opener: str = "1", size: str = "15") -> None:
    page = game.page
    page.click("#setup")
    page.check(f'input[name="ng-rule"][value="{rule}"]')
    page.select_option("#ng-size", size)
    page.check('input[name="ng-opening"][value="rule"]')
    page.check(f'input[name="ng-opener"][value="{opener}"]')
    page.click("#ng-start")


def free_cells(game: GamePage, wanted: list[str]) -> list[str]:
    taken = set(game.moves())
    return [c for c in wanted if c not in taken]


@pytest.mark.warm
def test_swap2_as_the_second_player_the_engine_opens_and_chooses(game):
    game.open(FAST)
    new_game(game, opener="2")
    # the engine places three stones (through the worker), then it is the player's choice
    wait_data(game, "opening", "v === 'swap2 choose human'")
    assert len(game.moves()) == 3
    assert game.status() == "your-turn"
    assert status_text(game) == "Your turn: place two more stones, or choose a colour"
    assert game.page.inner_text("#announce").startswith("The engine places ")
    assert game.page.inner_text("#you-are") == (
        "Opening rule: swap2. You are the second player; white for now."
    )
    for button in ("#op-black", "#op-white", "#op-two"):
        assert game.page.is_visible(button)
    assert game.page.is_disabled("#undo") and game.page.is_disabled("#hint")
    assert game.page.is_disabled("#swap") and game.page.is_disabled("#analyse")
    # the keyboard: "Place two more stones"
    game.page.focus("#op-two")
    game.page.keyboard.press("Enter")
    assert status_text(game) == "Your turn: place two more stones (white now)"
    assert not game.page.is_visible("#opening-panel")
    # the keyboard's focus went on to the board, where the stones go
    assert game.page.evaluate("() => document.activeElement.id") == "board"
    white, black = free_cells(game, ["k11", "e4", "l4", "d12", "m3"])[:2]
    game.click_cell(white)
    assert status_text(game) == "Your turn: place two more stones (black now)"
    game.click_cell(black)
    assert game.moves()[3:5] == [white, black]
    # the engine (the first player) takes a colour; the game goes on
    wait_data(game, "opening", "v === 'swap2 done'")
    said = game.page.inner_text("#announce")
    assert said.startswith(("The engine takes black.", "The engine takes white."))
    assert "The opening is over: you play " in said
    mine = "white" if "takes black" in said else "black"
    assert game.page.inner_text("#you-are").startswith(f"You play {mine}.")
    game.wait_status("your-turn")
    assert len(game.moves()) == (5 if mine == "white" else 6)  # the engine's 6th as white


@pytest.mark.warm
def test_swap2_as_the_first_player_survives_a_reload_and_is_kept_in_records(game):
    game.open(FAST)
    new_game(game, rule="standard", opener="1")
    assert status_text(game) == "Your turn: place the three opening stones (black now, 1 of 3)"
    game.click_cell("h8")
    game.click_cell("h8")  # taken: refused with the rule's sentence
    assert game.page.inner_text("#announce") == "h8 is taken"
    game.click_cell("f6")
    assert data(game, "opening") == "swap2 open human" and game.moves() == ["h8", "f6"]
    # a reload in the middle of the opening loses nothing
    game.open(FAST, fresh=False)
    assert game.moves() == ["h8", "f6"] and data(game, "opening") == "swap2 open human"
    assert status_text(game) == "Your turn: place the three opening stones (black now, 3 of 3)"
    game.click_cell("l11")
    wait_data(game, "opening", "v.endsWith('done') || v.endsWith('final human')")
    if data(game, "opening") == "swap2 final human":  # the engine placed two more
        game.page.click("#op-white")
    wait_data(game, "opening", "v === 'swap2 done'")
    game.wait_status("your-turn")
    # the records keep the opening: the share link and the .psq file
    game.page.click("#records")
    link = game.page.input_value("#share-link")
    assert "&opening=swap2&choices=" in link and "rule=standard" in link
    with game.page.expect_download() as got:
        game.page.click("#psq-export")
    text = open(got.value.path(), encoding="utf-8").read()
    assert "opening=swap2" in text and "rule=standard" in text
    game.page.click("#records-close")
    # the link gives the same opening and position (the game on the board is kept)
    moves = game.moves()
    game.page.goto(link)
    wait_data(game, "moves", f"v === {json.dumps(' '.join(moves))}")
    assert data(game, "opening") == "swap2 done"


@pytest.mark.warm
def test_soosorv8_from_a_link_black_offers_and_the_engine_chooses(game):
    open_link(game, "moves=h8,h9,j10,i7&rule=renju&size=15&opening=soosorv8&choices=white,2")
    wait_data(game, "opening", "v === 'soosorv8 second-swap human'")
    assert status_text(game) == "Your turn: take white (swap) or stay black"
    assert game.page.is_visible("#op-black") and not game.page.is_visible("#op-two")
    game.page.click("#op-black")
    assert status_text(game) == "Your turn: offer 2 5th moves for black (1 of 2)"
    game.click_cell("h9")
    assert game.page.inner_text("#announce") == "h9 is taken"
    game.click_cell("j8")
    assert data(game, "offers") == "j8"
    assert game.page.inner_text("#you-are").endswith("black's offered 5th moves.")
    # the keyboard cursor names an offer
    game.page.focus("#board")
    game.page.keyboard.press("ArrowLeft")
    game.page.keyboard.press("ArrowRight")
    assert game.page.inner_text("#cursor-announce") == "j8, black's offered 5th move 1"
    game.click_cell("g8")
    # white (the engine) chooses one offer: the 5th move; then it plays the 6th
    wait_data(game, "opening", "v === 'soosorv8 done'")
    assert "The engine chooses the 5th move " in game.page.inner_text("#announce")
    moves = game.wait_moves(6)
    assert moves[4] in ("j8", "g8") and data(game, "offers") == ""
    assert game.page.inner_text("#you-are").startswith("You play black.")


@pytest.mark.warm
def test_soosorv8_dialog_and_the_opening_in_chinese(game):
    game.open(FAST)
    page = game.page
    page.click("details.display summary")
    page.select_option("#opt-lang", "zh")
    page.click("#setup")
    page.check('input[name="ng-rule"][value="renju"]')
    assert page.inner_text("#ng-opening-name") == "索索夫-8"
    page.select_option("#ng-size", "17")  # RIF's rules are for 15x15: no opening rule there
    assert page.is_disabled('input[name="ng-opening"][value="rule"]')
    page.select_option("#ng-size", "15")
    page.check('input[name="ng-opening"][value="rule"]')
    assert not page.is_visible("#ng-side-set") and page.is_visible("#ng-opener")
    page.check('input[name="ng-opener"][value="1"]')
    page.click("#ng-start")
    assert (
        status_text(game) == "轮到你：摆出 26 种开局之一（现在是黑棋，第 1 子，共 3 子：下在天元）"
    )
    game.click_cell("i9")
    assert page.inner_text("#announce") == "第一子必须下在天元 h8，不能下在 i9"
    # the keyboard: the cursor from i9 to h8, Enter places the stone
    page.focus("#board")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert game.moves() == ["h8"] and page.inner_text("#announce") == "你摆了 h8。"
    game.click_cell("i9")
    game.click_cell("k10")  # outside the central 5x5
    assert page.inner_text("#announce") == "第三子必须下在 h8 周围的 5×5 范围内，不能下在 k10"
    game.click_cell("j10")
    # the engine (tentative white) takes a side; the page says the rest in Chinese
    wait_data(game, "opening", "!v.includes('engine')")
    assert page.inner_text("#announce").startswith("你摆了") or "引擎" in page.inner_text(
        "#announce"
    )
    assert "开局" in page.inner_text("#you-are") or "你执" in page.inner_text("#you-are")
    page.select_option("#opt-lang", "en")


@pytest.mark.warm
def test_the_worker_answers_the_opening_message(game):
    game.open(FAST)
    send = "([m, id]) => window.gomokuTest.send(m, id, 120000)"
    reply = game.page.evaluate(
        send, [{"type": "opening", "id": "op1", "opening": "swap2", "moves": [], "seed": 3}, "op1"]
    )
    assert reply["type"] == "opening" and [a["kind"] for a in reply["actions"]] == ["place"] * 3
    bad = game.page.evaluate(
        send,
        [{"type": "opening", "id": "op2", "opening": "swap2", "moves": [[7, 7], [7, 7]]}, "op2"],
    )
    assert bad["type"] == "error" and "h8 is taken" in bad["message"]


@pytest.mark.warm
def test_a_finished_game_with_an_opening_is_listed_and_opens_with_it(game):
    entry = {
        "date": "2026-11-27T14:05:00.000Z", "size": 15, "rule": "freestyle", "first": 1,
        "human": 2, "level": 1, "seed": 5, "result": "unfinished",
        "moves": "h8 f3 c5 k11 e4 j9", "ladder": 2,
        "opening": {"rule": "swap2", "player": 2, "choices": ["two", "black"], "offers": []},
    }  # fmt: skip
    game.plant({"gomoku.history.v1": json.dumps([entry])})
    game.open(FAST, fresh=False)
    game.page.click("#records")
    item = game.page.locator("#history-list li").first
    assert "· swap2" in item.inner_text()
    item.locator("button").first.click()
    wait_data(game, "moves", "v === 'h8 f3 c5 k11 e4 j9'")
    assert data(game, "opening") == "swap2 done"
    assert game.page.inner_text("#you-are").startswith("You play white.")


def test_an_opening_on_a_phone(phone_game):
    g = phone_game
    g.open(FAST)
    g.page.goto(f"{g.base_url}?{FAST}#moves=h8,f3,c5&rule=freestyle&opening=swap2")
    g.wait_ready()
    wait_data(g, "opening", "v === 'swap2 choose human'")
    page = g.page
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for button in ("#op-black", "#op-white", "#op-two"):
        box = page.locator(button).bounding_box()
        assert box["height"] >= 40 and box["x"] + box["width"] <= 390, (button, box)
    page.locator("#op-two").tap()
    # a tap previews, a second tap places (touch confirm), as for moves
    free = free_cells(g, ["k11", "e4", "l4"])
    page.touchscreen.tap(*g.cell_point(free[0]))
    assert len(g.moves()) == 3
    page.touchscreen.tap(*g.cell_point(free[0]))
    assert g.moves()[3] == free[0]
    page.touchscreen.tap(*g.cell_point(free[1]))
    page.touchscreen.tap(*g.cell_point(free[1]))
    wait_data(g, "opening", "v === 'swap2 done'")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


@pytest.mark.warm
def test_two_players_make_the_opening_on_the_device_and_the_clock_starts_after_it(game):
    page = game.page
    game.open(FAST)
    page.click("#setup")
    page.check('input[name="ng-players"][value="two"]')
    page.check('input[name="ng-rule"][value="freestyle"]')
    page.check('input[name="ng-opening"][value="rule"]')
    # both make the opening's choices: who opens is not asked, nor a colour
    assert not page.is_visible("#ng-opener") and not page.is_visible("#ng-side-set")
    page.select_option("#ng-clock", "5+3")
    assert page.inner_text("#ng-clock-note").endswith(
        "Under an opening rule the clock starts when the opening is over."
    )
    page.click("#ng-start")
    assert status_text(game) == (
        "First player's turn: place the three opening stones (black now, 1 of 3)"
    )
    assert page.inner_text("#clock-note") == "The clock starts when the opening is over."
    for cell in ("h8", "h9", "j10"):
        game.click_cell(cell)
    assert game.moves() == ["h8", "h9", "j10"]
    assert page.inner_text("#announce") == "The first player places j10."
    assert status_text(game) == "Second player's turn: place two more stones, or choose a colour"
    assert data(game, "opening") == "swap2 choose human"
    assert page.is_visible("#op-white")
    # a minute of thought in the opening costs nobody time
    page.evaluate("() => window.gomokuTest.advanceClock(60000)")
    assert [int(page.get_attribute(f"#clock-{c}", "data-ms")) for c in (1, 2)] == [300_000, 300_000]
    # the language switched mid-opening: the players' words in Chinese, then back
    choose_language(page, "zh")
    assert status_text(game) == "轮到后手方：再摆两子，或选择颜色"
    assert page.inner_text("#announce") == "先手方摆了 j10。"
    assert page.inner_text("#you-are") == "开局规则：交换二。双人对弈：先手方暂时执黑棋。"
    assert not english_words(page), english_words(page)
    choose_language(page, "en")
    assert not chinese_text(page), chinese_text(page)
    # the second player takes white: the opening is over, white's clock runs
    page.click("#op-white")
    assert page.inner_text("#announce") == (
        "The second player takes white. "
        "The opening is over: the first player plays black, the second white."
    )
    game.wait_status("white-to-move")
    assert not page.is_visible("#clock-note")
    page.evaluate("() => window.gomokuTest.advanceClock(2000)")
    white = int(page.get_attribute("#clock-2", "data-ms"))
    assert 290_000 < white <= 298_000, white
    assert int(page.get_attribute("#clock-1", "data-ms")) == 300_000
    # nobody's engine: white plays on the board, then black
    game.click_cell("k11")
    game.wait_status("black-to-move")
    assert page.inner_text("#announce") == "White plays k11."
    assert game.moves() == ["h8", "h9", "j10", "k11"]
    # undo (by agreement) takes back white's move, never the opening's stones
    page.click("#undo")
    page.click("#undo-yes")
    game.wait_status("white-to-move")
    assert game.moves() == ["h8", "h9", "j10"] and page.is_disabled("#undo")
