"""Board sizes 15..20 in the page: a 17x17 game by click and keyboard, a 19x19
share link and .psq file that open at their size and survive a reload, and a 20x20 board
at phone width."""

from __future__ import annotations

import pytest
from conftest import DEFAULT_QUERY, MOVE_MS, READY_MS, GamePage

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
COLUMNS = "abcdefghijklmnopqrst"


def is_point(text: str, size: int) -> bool:
    """A written point ("q17") of a size x size board."""
    return (
        len(text) >= 2
        and text[0] in COLUMNS[:size]
        and text[1:].isdigit()
        and not text[1:].startswith("0")
        and 1 <= int(text[1:]) <= size
    )


def legal_game(moves: list[str], size: int) -> bool:
    return len(set(moves)) == len(moves) and all(is_point(m, size) for m in moves)


def board(game: GamePage, name: str) -> str:
    return game.page.get_attribute("#board", f"data-{name}") or ""


def label(game: GamePage) -> str:
    return game.page.get_attribute("#board", "aria-label") or ""


def wait_board(game: GamePage, name: str, value: str, timeout: int = MOVE_MS) -> None:
    game.page.wait_for_function(
        "([n, v]) => document.querySelector('#board').dataset[n] === v",
        arg=[name, value],
        timeout=timeout,
    )


def new_game_of_size(game: GamePage, size: int) -> None:
    game.page.click("#setup")
    options = game.page.eval_on_selector_all("#ng-size option", "os => os.map(o => o.value)")
    assert options == [str(n) for n in range(15, 21)], options
    game.page.select_option("#ng-size", str(size))
    game.page.click("#ng-start")
    wait_board(game, "size", str(size), timeout=5_000)


@pytest.mark.warm
def test_17x17_game_by_click_and_keyboard(game):
    game.open(FAST)
    assert board(game, "size") == "15"
    new_game_of_size(game, 17)
    assert "Gomoku board, 17 by 17" in label(game)
    assert "Game:\xa017×17." in game.page.inner_text("#you-are")

    # a click on the top right corner, a point only boards of 17 and more have
    game.click_cell("q17")
    moves = game.wait_moves(2)
    assert moves[0] == "q17" and legal_game(moves, 17), moves
    game.wait_status("your-turn")
    assert game.page.evaluate("() => window.gomokuTest.state().game.size") == 17

    # the keyboard cursor is where the click was and stops at the board's edge
    game.page.focus("#board")
    game.page.keyboard.press("ArrowRight")
    game.page.keyboard.press("ArrowUp")
    assert "Cursor on q17, black stone" in label(game)
    for _ in range(8):
        game.page.keyboard.press("ArrowLeft")
        game.page.keyboard.press("ArrowDown")
    target = "i9" if "i9" not in moves else "h9"
    if target == "h9":
        game.page.keyboard.press("ArrowLeft")
    assert f"Cursor on {target}, empty" in label(game)
    game.page.keyboard.press("Enter")
    moves = game.wait_moves(4)
    assert moves[2] == target and legal_game(moves, 17), moves
    game.wait_status("your-turn")
    assert game.page.inner_text("#announce").startswith(f"Engine plays {moves[3]}")
    # the move list names the points of this board
    listed = game.page.eval_on_selector_all(
        "#move-list button.mv", "bs => bs.map(b => b.textContent)"
    )
    assert listed == moves


@pytest.mark.warm
def test_19x19_link_and_psq_open_at_their_size_and_survive_a_reload(game):
    game.open(FAST)  # a 15x15 game
    # s19 exists only on boards of 19 and more
    game.page.goto(f"{game.base_url}?{FAST}#moves=j10,k11,s19,a1&rule=standard&size=19")
    wait_board(game, "moves", "j10 k11 s19 a1", timeout=READY_MS)
    assert board(game, "size") == "19" and board(game, "rule") == "standard"
    assert "Opened the position" in game.page.inner_text("#notice")
    game.open(FAST, fresh=False)  # reload
    assert board(game, "size") == "19" and board(game, "moves") == "j10 k11 s19 a1"
    assert game.status() == "your-turn"  # the player took the side to move

    game.page.click("#records")
    link = game.page.input_value("#share-link")
    assert link.endswith("#moves=j10,k11,s19,a1&rule=standard&size=19"), link
    with game.page.expect_download() as dl:
        game.page.click("#psq-export")
    text = open(dl.value.path(), encoding="utf-8").read()
    lines = text.splitlines()
    assert lines[0] == "Piskvorky 19x19, 11:11, 0"
    # x from the left, y from the top, 1-based: a1 is 1,19 on this board
    assert [ln.rsplit(",", 1)[0] for ln in lines[1:5]] == ["10,10", "11,9", "19,1", "1,19"]
    assert lines[5:] == ["homo-1", "homo-2", "rule=standard"]  # the rule, after the moves
    game.page.click("#records-close")

    new_game_of_size(game, 15)
    assert board(game, "moves") == ""
    game.page.click("#records")
    game.page.set_input_files(
        "#psq-file",
        files=[{"name": "g.psq", "mimeType": "text/plain", "buffer": text.encode()}],
    )
    wait_board(game, "moves", "j10 k11 s19 a1")
    assert board(game, "size") == "19" and board(game, "rule") == "standard"
    # a move list is read on the board shown: t20 is not on it, and nothing changes
    game.page.fill("#record-text", "j10 t20")
    game.page.click("#record-load")
    msg = game.page.inner_text("#record-msg")
    assert "off the 19x19 board" in msg and "unchanged" in msg, msg
    game.page.click("#records-close")
    game.open(FAST, fresh=False)  # reload
    assert board(game, "size") == "19" and board(game, "moves") == "j10 k11 s19 a1"

    # a broken link leaves the 19x19 game as it was
    game.page.goto(f"{game.base_url}?{FAST}#moves=j10,u1&size=19")
    game.page.wait_for_function(
        "() => document.querySelector('#notice').textContent.includes('could not be opened')",
        timeout=READY_MS,
    )
    assert board(game, "size") == "19" and board(game, "moves") == "j10 k11 s19 a1"


def test_20x20_board_at_phone_width(phone_game):
    g, page = phone_game, phone_game.page
    g.open(FAST)
    page.evaluate("() => { location.hash = 'moves=k10,t20,a1&size=20'; }")
    wait_board(g, "moves", "k10 t20 a1")
    assert board(g, "size") == "20"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert box["width"] >= 340, box  # the board takes the phone's width
    page.touchscreen.tap(*g.cell_point("j11"))  # a preview; the second tap plays
    page.touchscreen.tap(*g.cell_point("j11"))
    moves = g.wait_moves(5)
    assert moves[3] == "j11" and legal_game(moves, 20), moves
