"""Every visible sentence follows the chosen language at once. The page is switched to
Chinese and back at several states: after a move against the engine (what was said, the
coach's line), a link that is not valid text (its notice, quoting what was sent), a won
game (the level offered, with the levels' names), a reviewed game browsed (the review's
note, summary and details, the words said), the opening of a swap2 game (its status and
line, a stone refused with the rule's sentence), and stored data that could not be read
(the notices of the load). Each time no English word is left in Chinese and no Chinese in
English: the notice and the last thing said are kept as messages and rendered anew.
The chosen language is kept across a reload; the page walked in Chinese (a move, a review,
the Records dialog's errors, New game, a broken link) shows no English word; on a phone in
Chinese no button's text wraps.
"""

from __future__ import annotations

import pytest
from conftest import (
    DEFAULT_QUERY,
    GamePage,
    chinese_text,
    choose_chinese,
    choose_language,
    english_words,
)
from page_steps import NOTICE_HAS, moves_are, open_display

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
TEXT_HAS = "([sel, t]) => document.querySelector(sel).textContent.includes(t)"


def wait_text(game: GamePage, sel: str, text: str) -> None:
    game.page.wait_for_function(TEXT_HAS, arg=[sel, text], timeout=60_000)


def switched(game: GamePage) -> dict[str, list[str]]:
    """Chinese, then English again: the English words left in the first, the Chinese in the
    second; the page's notice and announcement in each."""
    page = game.page
    said = lambda: [page.inner_text("#notice"), page.inner_text("#announce")]  # noqa: E731
    choose_language(page, "zh")
    out = {"zh": english_words(page), "zh said": said()}
    choose_language(page, "en")
    out["en"] = chinese_text(page)
    out["en said"] = said()
    return out


@pytest.mark.warm
def test_a_language_switch_renders_every_sentence_anew(game):
    page = game.page
    seen = {}

    # a move against the engine: "Engine plays ...", the coach's sentence (level 1)
    game.open(FAST)
    page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("h8")
    game.wait_moves(2)
    game.wait_status("your-turn")
    wait_text(game, "#coach-line", "Coach")
    assert page.inner_text("#announce").startswith("Engine plays ")
    seen["a move"] = switched(game)
    assert seen["a move"]["zh said"][1].startswith("引擎下在 "), seen["a move"]

    # a link that is not valid text: quoted as it was sent, in either language
    page.evaluate("() => { location.hash = 'moves=%E0%A4%A'; }")
    wait_text(game, "#notice", "not valid text")
    notice = page.inner_text("#notice")
    assert notice == ('The link could not be opened: it is not valid text: "moves=%E0%A4%A" has a '
                      "broken %-code. Your current game is unchanged."), notice
    seen["a broken link"] = switched(game)
    seen["a broken link"]["zh"].remove("moves")  # the link's own text, quoted as it was sent
    assert seen["a broken link"]["zh said"][0] == (
        "无法打开链接：它不是有效的文本：“moves=%E0%A4%A”中有损坏的 % 编码。当前棋局未改变。"
    )
    assert all("\ufffd" not in s for s in seen["a broken link"]["zh said"] + [notice])

    # a won game: the next level offered (the levels' names are the table's, per language)
    page.evaluate("() => { location.hash = 'moves=h8,a1,h9,a2,h10,a3,h11,a4'; }")
    game.page.wait_for_function(
        "() => document.querySelector('#board').dataset.moves === 'h8 a1 h9 a2 h10 a3 h11 a4'"
    )
    game.click_cell("h12")
    game.wait_status("black-wins")
    wait_text(game, "#notice", "You beat level")
    seen["the offer"] = switched(game)
    assert seen["the offer"]["zh said"][0].startswith("你战胜了第"), seen["the offer"]

    # the game reviewed and browsed: the note, the summary, the details, what is said
    page.click("#review-start")
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.review === 'done'", timeout=240_000
    )
    page.click("#move-list button.mv[data-index='6']")
    wait_text(game, "#announce", "Move 6, your opponent played a3")
    assert page.is_visible("#review-note .rv-details")
    seen["a review"] = switched(game)
    assert seen["a review"]["zh said"][1].startswith("第 6 手，对手下 a3："), seen["a review"]

    # the opening of a swap2 game the player opens: its status and line, a stone said,
    # a stone the rule refuses said with the rule's sentence
    page.click("#setup")
    page.check('input[name="ng-players"][value="engine"]')
    page.check('input[name="ng-rule"][value="freestyle"]')
    page.check('input[name="ng-opening"][value="rule"]')
    page.check('input[name="ng-opener"][value="1"]')
    page.click("#ng-start")
    game.click_cell("h8")
    game.click_cell("h8")
    wait_text(game, "#announce", "h8 is taken")
    assert page.inner_text("#status") == (
        "Your turn: place the three opening stones (white now, 2 of 3)"
    )
    seen["the opening"] = switched(game)
    assert seen["the opening"]["zh said"][1] == "h8 已有棋子", seen["the opening"]

    # stored data that could not be read: the load's notices
    game.plant({"gomoku.game.v1": "{", "gomoku.settings.v1": "[]"})
    game.open(FAST, fresh=False)
    wait_text(game, "#notice", "could not be read")
    seen["stored"] = switched(game)

    left = {state: [got["zh"], got["en"]] for state, got in seen.items() if got["zh"] or got["en"]}
    assert not left, left
    # and back in English, what is said is English again
    said = [s for got in seen.values() for s in got["en said"]]
    assert not [s for s in said if any("\u4e00" <= c <= "\u9fff" for c in s)], said


@pytest.mark.warm
def test_language_switch_changes_visible_text(game):
    game.open(FAST)
    assert game.page.inner_text("#new-game") == "New game"
    open_display(game)
    game.page.select_option("#opt-lang", "zh")
    assert game.page.inner_text("#new-game") == "新游戏"
    assert game.page.inner_text("#status") == "轮到你了"
    assert game.page.get_attribute("html", "lang") == "zh-CN"
    game.open(FAST, fresh=False)  # kept across a reload
    assert game.page.inner_text("#undo") == "悔棋"
    open_display(game)
    game.page.select_option("#opt-lang", "en")
    assert game.page.inner_text("#undo") == "Undo"
    assert game.page.inner_text("#status") == "Your turn"


@pytest.mark.warm
def test_the_chinese_page_has_no_english_sentence(game):
    game.open(FAST)
    choose_chinese(game.page)
    game.page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("h8")
    game.wait_moves(2)
    game.wait_status("your-turn")
    seen = {"page": english_words(game.page)}
    # the review card and its progress bar
    game.page.evaluate("() => { location.hash = 'moves=h8,a1,h9,a2,h10,a3,h11,a4,h12'; }")
    moves_are(game, "h8 a1 h9 a2 h10 a3 h11 a4 h12")
    game.page.wait_for_selector("#review-box:not([hidden])")
    game.page.click("#review-start")
    seen["review"] = english_words(game.page)
    game.page.click("#nav-prev")
    seen["browsing"] = english_words(game.page)
    # the Records dialog with an error of each kind of record
    game.page.click("#records")
    for text in ("h8 z99", "h8 h8", "h8 a16"):
        game.page.fill("#record-text", text)
        game.page.click("#record-load")
        msg = game.page.inner_text("#record-msg")
        assert "无法载入" in msg, msg
        seen[f"records {text}"] = english_words(game.page)
    game.page.set_input_files(
        "#psq-file",
        files=[{"name": "g.psq", "mimeType": "text/plain",
                "buffer": b"Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n"}],
    )
    game.page.wait_for_function(
        "() => document.querySelector('#record-msg').textContent.includes('第 4 行')"
    )
    seen["psq"] = english_words(game.page)
    game.page.keyboard.press("Escape")
    game.page.click("#setup")
    seen["new game"] = english_words(game.page)
    game.page.keyboard.press("Escape")
    # a broken link's notice
    game.page.evaluate("() => { location.hash = 'moves=h8,zz'; }")
    game.page.wait_for_function(NOTICE_HAS, arg="无法打开链接")
    seen["link"] = english_words(game.page)
    assert all(not words for words in seen.values()), seen



def test_buttons_do_not_wrap_on_a_phone_in_chinese(phone_game):
    g, page = phone_game, phone_game.page
    g.open(FAST)
    choose_chinese(page)
    page.evaluate("() => { location.hash = 'moves=h8,a1,h9,a2,h10,a3,h11,a4,h12'; }")
    moves_are(g, "h8 a1 h9 a2 h10 a3 h11 a4 h12")
    page.click("#records")
    # a button's text on more than one line: its text's boxes at different heights
    wrapped = page.evaluate(
        """() => [...document.querySelectorAll('button')]
            .filter((b) => b.offsetParent && b.id !== 'next-level' && b.textContent.trim())
            .map((b) => {
              const range = document.createRange();
              range.selectNodeContents(b);
              const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              return [b.id || b.textContent.trim(), tops.size];
            }).filter(([, lines]) => lines > 1)"""
    )
    assert wrapped == [], wrapped
