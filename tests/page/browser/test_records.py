"""Records: the move list, .psq files and share links, each exported and loaded back, bad
ones refused with the game left as it was; and a game in progress is never lost to a link,
a move list or a .psq file (it is kept in the finished games and opens again as it
stood).
"""

from __future__ import annotations

import re

import pytest
from conftest import READY_MS, GamePage
from page_steps import (
    FAST,
    NOTICE_HAS,
    game_in_progress,
    kept_as_unfinished,
    load_moves,
    moves_are,
    play,
)


@pytest.mark.warm
def test_move_list_export_import_round_trip(game):
    game.open(FAST)
    play(game, "h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")
    game.page.click("#records")
    assert game.page.input_value("#record-text") == " ".join(moves)
    game.page.click("#records-close")

    load_moves(game, "h8 i9 j10 k11 h9")
    moves_are(game, "h8 i9 j10 k11 h9")
    assert game.status() == "your-turn"  # the player takes the side to move (white)
    game.page.click("#records")
    assert game.page.input_value("#record-text") == "h8 i9 j10 k11 h9"

    for bad in ("h8 h8", "h8 zz9", "h8 p3", "1. h8 i9 h8"):
        game.page.fill("#record-text", bad)
        game.page.click("#record-load")
        assert "Could not load" in game.page.inner_text("#record-msg"), bad
        assert game.moves() == ["h8", "i9", "j10", "k11", "h9"], bad
    # move numbers and commas are fine
    game.page.fill("#record-text", "1. h8 i9 2. j10, k11")
    game.page.click("#record-load")
    moves_are(game, "h8 i9 j10 k11")


@pytest.mark.warm
def test_psq_export_import_round_trip(game):
    game.open(FAST)
    load_moves(game, "h8 i9 a1 o15 h7")
    moves_are(game, "h8 i9 a1 o15 h7")
    game.page.click("#records")
    with game.page.expect_download() as dl:
        game.page.click("#psq-export")
    path = dl.value.path()
    text = open(path, encoding="utf-8").read()
    lines = text.splitlines()
    # 1-based x from the left, y from the top: h8 = 8,8; a1 = 1,15; o15 = 15,1
    assert lines[0] == "Piskvorky 15x15, 11:11, 0"
    assert [ln.rsplit(",", 1)[0] for ln in lines[1:]] == ["8,8", "9,7", "1,15", "15,1", "8,9"]
    game.page.click("#records-close")

    game.page.click("#new-game")
    # The loaded record made the player white (the side to move), so in the new game the
    # engine opens: its book move h8 may already be on the board.
    assert game.moves() in ([], ["h8"])
    game.page.click("#records")
    # Piskvork's trailing lines (players, result) are ignored
    data = (text + "pbrain-one.zip\r\npbrain-two.zip\r\n-1\r\n").encode()
    game.page.set_input_files(
        "#psq-file", files=[{"name": "game.psq", "mimeType": "text/plain", "buffer": data}]
    )
    moves_are(game, "h8 i9 a1 o15 h7")
    assert "Loaded 5 moves" in game.page.inner_text("#record-msg")

    bad_files = {
        "hello.psq": b"hello\n1,1,0\n",
        "big.psq": b"Piskvorky 21x21, 11:11, 0\n1,1,0\n",
        "oblong.psq": b"Piskvorky 15x20, 11:11, 0\n1,1,0\n",
        "off.psq": b"Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n",
        "twice.psq": b"Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n",
    }
    for name, content in bad_files.items():
        game.page.set_input_files(
            "#psq-file", files=[{"name": name, "mimeType": "text/plain", "buffer": content}]
        )
        game.page.wait_for_function(
            "() => document.querySelector('#record-msg').textContent.startsWith('Could not load')",
            timeout=10_000,
        )
        assert game.moves() == ["h8", "i9", "a1", "o15", "h7"], name
        game.page.evaluate("() => { document.querySelector('#record-msg').textContent = ''; }")


@pytest.mark.warm
def test_share_link_reopens_the_position_in_a_new_page(game, browser):
    game.open(FAST)
    load_moves(game, "h8 i9 j10 k11")
    game.page.click("#nav-prev")  # the link shares the position on the board
    game.page.click("#records")
    link = game.page.input_value("#share-link")
    assert link.endswith("#moves=h8,i9,j10&rule=freestyle&size=15"), link

    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = other.new_page()
        page.goto(link)
        fresh = GamePage(page, game.base_url)
        moves_are(fresh, "h8 i9 j10", timeout=READY_MS)
        fresh.wait_ready()
        assert fresh.status() == "your-turn"  # the player takes the side to move
        assert "Opened the position" in page.inner_text("#notice")
        assert "#" not in page.url  # a reload shows the game as it goes on
        # a broken link leaves the game alone
        page.goto(game.base_url + "#moves=h8,h8&rule=freestyle&size=15")
        page.wait_for_function(
            "() => document.querySelector('#notice').textContent.includes('could not be opened')"
        )
        moves_are(fresh, "h8 i9 j10")
    finally:
        other.close()


@pytest.mark.warm
def test_a_link_during_a_game_keeps_it_and_an_empty_link_is_an_error(game):
    moves = game_in_progress(game)
    game.page.evaluate("() => { location.hash = 'moves=a1,b2'; }")
    moves_are(game, "a1 b2")
    kept_as_unfinished(game, moves)
    notice = game.page.inner_text("#notice")
    assert "Opened the position" in notice and "kept in the finished games" in notice, notice
    # the kept game is in the list, and opens again where it stood
    game.page.click("#records")
    first = game.page.locator("#history-list li").first
    assert re.search(r"Unfinished · 4 moves", first.inner_text()), first.inner_text()
    first.locator("button").click()
    moves_are(game, " ".join(moves))
    # an empty link is an error like any other: the board stays as it was
    game.page.evaluate("() => { location.hash = 'moves='; }")
    game.page.wait_for_function(NOTICE_HAS, arg="could not be opened")
    assert "no moves" in game.page.inner_text("#notice")
    moves_are(game, " ".join(moves))


@pytest.mark.warm
def test_a_move_list_or_psq_file_during_a_game_keeps_it(game):
    moves = game_in_progress(game)
    game.page.click("#records")
    game.page.fill("#record-text", "")
    game.page.click("#record-load")
    assert "the move list is empty" in game.page.inner_text("#record-msg")
    assert game.moves() == moves
    game.page.fill("#record-text", "h8 i9 j10")
    game.page.click("#record-load")
    moves_are(game, "h8 i9 j10")
    assert "kept in the finished games" in game.page.inner_text("#record-msg")
    kept_as_unfinished(game, moves)
    game.page.click("#records-close")

    # play on from the loaded record (it becomes a game of the player's), then a .psq
    game.wait_status("your-turn")
    game.page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("c3")
    played = game.wait_moves(5)
    game.wait_status("your-turn")
    game.page.click("#records")
    game.page.set_input_files(
        "#psq-file",
        files=[{"name": "g.psq", "mimeType": "text/plain",
                "buffer": b"Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n1,1,0\r\n"}],
    )
    moves_are(game, "h8 a15")
    kept_as_unfinished(game, played)
    # reopened from the list, the kept game comes back as it was: the player still white
    # (the .psq game, black to move, had made the player black)
    assert game.page.evaluate("() => window.gomokuTest.state().game.human") == 1
    game.page.locator("#history-list li").first.locator("button").click()
    moves_are(game, " ".join(played))
    assert game.page.evaluate("() => window.gomokuTest.state().game.human") == 2
    game.wait_status("your-turn")
