"""Renju in the page: black's forbidden points marked (data-forbidden) and named
to the keyboard cursor, a click or Enter on one refused with a sentence naming the shape
(English and Chinese), the engine's black move never a forbidden point, and renju kept by
the new-game dialog, share links, .psq files, reloads and the finished-games list."""

from __future__ import annotations

import json

import pytest
from conftest import DEFAULT_QUERY, MOVE_MS, READY_MS, GamePage

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
# Black h10 i10 g9 g8, white far away in the bottom row: g10 is a double three for black
# (two open threes), the only forbidden point. Black is to move.
DOUBLE_THREE = "h10,a1,i10,c1,g9,e1,g8,o1"
LINK = f"#moves={DOUBLE_THREE}&rule=renju&size=15"


def board(game: GamePage, name: str) -> str:
    return game.page.get_attribute("#board", f"data-{name}") or ""


def wait_board(game: GamePage, name: str, value: str, timeout: int = MOVE_MS) -> None:
    game.page.wait_for_function(
        "([n, v]) => document.querySelector('#board').dataset[n] === v",
        arg=[name, value],
        timeout=timeout,
    )


def open_link(game: GamePage, fragment: str) -> None:
    game.page.goto(f"{game.base_url}?{FAST}{fragment}")
    game.wait_ready()


@pytest.mark.warm
def test_forbidden_points_are_marked_named_and_refused(game):
    game.open(FAST)
    assert board(game, "forbidden") == ""  # freestyle: nothing is forbidden
    open_link(game, LINK)
    wait_board(game, "moves", DOUBLE_THREE.replace(",", " "))
    assert board(game, "rule") == "renju" and game.status() == "your-turn"
    assert board(game, "forbidden") == "g10"

    # a click on g10 is refused with a sentence naming the shape, and nothing is played
    game.click_cell("g10")
    sentence = "Black may not play g10: it makes a double three, forbidden in renju."
    assert game.page.inner_text("#announce") == sentence
    assert board(game, "moves") == DOUBLE_THREE.replace(",", " ")

    # the keyboard cursor names the shape, and Enter there is refused too
    game.page.focus("#board")
    game.page.evaluate("() => { document.querySelector('#announce').textContent = ''; }")
    # the cursor is on g10 (the click put it there); step off and back
    game.page.keyboard.press("ArrowRight")
    game.page.keyboard.press("ArrowLeft")
    assert game.page.inner_text("#cursor-announce") == "g10, forbidden for black: double three"
    game.page.keyboard.press("Enter")
    assert game.page.inner_text("#announce") == sentence
    assert game.status() == "your-turn"

    # in Chinese
    if not game.page.eval_on_selector("details.display", "d => d.open"):
        game.page.click("details.display summary")
    game.page.select_option("#opt-lang", "zh")
    game.page.locator("#board").scroll_into_view_if_needed()
    game.click_cell("g10")
    assert game.page.inner_text("#announce") == "黑棋不能下在 g10：这是三三禁手（连珠规则）。"
    game.page.select_option("#opt-lang", "en")

    # the engine playing black never plays g10: its move generator leaves forbidden points
    # out, so the worker's renju check (tests/engine/engine/test_renju_guard.py) has nothing
    # to replace
    game.page.click("#swap")
    moves = game.wait_moves(9)
    assert moves[8] != "g10", moves
    source = game.page.inner_text("#think-source")
    assert source and "renju check" not in source, source
    # white to move now: no marks
    game.wait_status("your-turn")
    assert board(game, "forbidden") == ""


@pytest.mark.warm
def test_renju_game_record_link_and_psq_survive_reloads(game):
    game.open(FAST)
    # the new-game dialog: renju turns "White first" off
    game.page.click("#setup")
    game.page.check('input[name="ng-first"][value="white"]')
    game.page.check('input[name="ng-rule"][value="renju"]')
    assert game.page.is_disabled('input[name="ng-first"][value="white"]')
    assert game.page.is_checked('input[name="ng-first"][value="black"]')
    assert game.page.is_visible("#ng-renju-note")
    game.page.click("#ng-start")
    wait_board(game, "rule", "renju", timeout=5_000)
    assert "renju" in game.page.inner_text("#you-are")
    game.click_cell("h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")

    game.open(FAST, fresh=False)  # reload: still a renju game, same moves
    assert board(game, "rule") == "renju" and game.moves() == moves

    # share link and .psq carry the rule
    game.page.click("#records")
    link = game.page.input_value("#share-link")
    assert link.endswith(f"#moves={','.join(moves)}&rule=renju&size=15"), link
    with game.page.expect_download() as dl:
        game.page.click("#psq-export")
    text = open(dl.value.path(), encoding="utf-8").read()
    assert text.splitlines()[-3:] == ["homo-1", "homo-2", "rule=renju"], text
    game.page.click("#records-close")

    # a freestyle game, then the .psq file: it opens in renju, marks and all
    game.page.click("#setup")
    game.page.check('input[name="ng-rule"][value="freestyle"]')
    assert not game.page.is_disabled('input[name="ng-first"][value="white"]')
    game.page.click("#ng-start")
    wait_board(game, "rule", "freestyle", timeout=5_000)
    psq = (
        "Piskvorky 15x15, 11:11, 0\n"
        + "".join(
            f"{'abcdefghijklmno'.index(m[0]) + 1},{16 - int(m[1:])},0\n"
            for m in DOUBLE_THREE.split(",")
        )
        + "homo-1\nhomo-2\nrule=renju\n"
    )
    game.page.click("#records")
    game.page.set_input_files(
        "#psq-file", files=[{"name": "r.psq", "mimeType": "text/plain", "buffer": psq.encode()}]
    )
    wait_board(game, "moves", DOUBLE_THREE.replace(",", " "))
    assert board(game, "rule") == "renju" and board(game, "forbidden") == "g10"
    # a move list with black on g10 is refused under renju, and the game is kept
    game.page.fill("#record-text", DOUBLE_THREE.replace(",", " ") + " g10")
    game.page.click("#record-load")
    msg = game.page.inner_text("#record-msg")
    assert "move 9 (g10) is forbidden for black: double three" in msg and "unchanged" in msg
    game.page.click("#records-close")

    game.open(FAST, fresh=False)  # reload
    assert board(game, "rule") == "renju" and board(game, "forbidden") == "g10"

    # the link opens in renju in a new page; a link with black on g10 does not open
    open_link(game, link[link.index("#") :])
    wait_board(game, "moves", " ".join(moves))
    assert board(game, "rule") == "renju"
    game.page.goto(f"{game.base_url}?{FAST}#moves={DOUBLE_THREE},g10&rule=renju")
    game.page.wait_for_function(
        "() => document.querySelector('#notice').textContent.includes('could not be opened')",
        timeout=READY_MS,
    )
    assert "forbidden for black: double three" in game.page.inner_text("#notice")
    assert board(game, "moves") == " ".join(moves)

    # a finished renju game in the list says so, and reopens in renju
    entry = {
        "date": "2025-05-01T10:00:00.000Z",
        "size": 15,
        "rule": "renju",
        "first": 1,
        "human": 1,
        "result": "white",
        "moves": DOUBLE_THREE.replace(",", " "),
    }
    game.page.evaluate("e => localStorage.setItem('gomoku.history.v1', e)", json.dumps([entry]))
    game.open(FAST, fresh=False)
    game.page.click("#records")
    item = game.page.inner_text("#history-list li")
    assert "renju" in item and "15×15" in item, item
    game.page.click("#history-list li button")
    wait_board(game, "moves", DOUBLE_THREE.replace(",", " "))
    assert board(game, "rule") == "renju" and board(game, "forbidden") == "g10"
