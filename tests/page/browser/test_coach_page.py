"""The coach in the page (web/model/coach.js, coach-view.js over the worker's "threats"
message): it marks a white open three and says so in English and Chinese, to screen
readers too; it is on by default at the lowest levels and off above; the player's choice
survives a reload."""

from __future__ import annotations

import json

import pytest
from conftest import DEFAULT_QUERY, GamePage
from playwright.sync_api import expect

from gomoku.core.geometry import from_text, to_text
from gomoku.engine.coach import threats

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
GAME_KEY = "gomoku.game.v1"
SETTINGS_KEY = "gomoku.settings.v1"
# black a1 a3 a5, white f8 g8 h8: black (the player) to move, white's open three on row 8
WHITE_THREE = [[0, 14], [5, 7], [0, 12], [6, 7], [0, 10], [7, 7]]
SENTENCE_EN = "White threatens to make an open four at e8 or i8: block at e8 or i8."
SENTENCE_ZH = "白棋威胁在 e8或i8 走成活四：请在 e8或i8 防守。"


def stored_game(level: int, moves=WHITE_THREE) -> str:
    return json.dumps({
        "size": 15, "rule": "freestyle", "first": 1, "human": 1, "level": level, "seed": 7,
        "moves": moves, "cursor": len(moves), "recorded": False, "ladder": 2,
    })


def open_with(game: GamePage, items: dict[str, str]) -> None:
    """Open the page with exactly these localStorage items."""
    game.plant(items)
    game.open(FAST, fresh=False)


def expected_marks(moves) -> str:
    """data-coach as coach.js would write it for CPython's gomoku.engine.coach answer."""
    found = threats(moves)
    out = []
    for colour in ("black", "white"):
        seen: dict = {}
        for t in getattr(found, colour):
            for p in t.points:
                seen.setdefault(p, f"{colour}-{t.kind}:{to_text(*p, 15)}")
        for t in getattr(found, colour):
            for p in t.blocks if t.kind != "four" else ():
                seen.setdefault(p, f"{colour}-block:{to_text(*p, 15)}")
        out += seen.values()
    return " ".join(out)


def wait_coach(game: GamePage, text: str) -> None:
    game.page.wait_for_function(
        "t => (document.querySelector('#board').dataset.coach || '') === t", arg=text,
        timeout=30_000,
    )


def lowest(game: GamePage) -> int:
    return min(lv["number"] for lv in game.levels()["data"])


@pytest.mark.warm
def test_the_coach_marks_a_white_open_three_in_english_and_chinese(game):
    game.open(FAST)  # the page, for its levels
    open_with(game, {GAME_KEY: stored_game(lowest(game))})
    expect(game.page.locator("#opt-coach")).to_be_checked()
    wait_coach(game, "white-three:e8 white-three:i8")
    expect(game.page.locator("#coach-line")).to_have_text(SENTENCE_EN)
    expect(game.page.locator("#coach-line")).to_be_visible()
    expect(game.page.locator("#coach-announce")).to_have_text(SENTENCE_EN)
    expect(game.page.locator("#coach-legend")).to_contain_text("4: makes an open four")
    # the keyboard cursor (from the centre, h8) on e8 says what the coach marks there
    game.page.focus("#board")
    for _ in range(3):
        game.page.keyboard.press("ArrowLeft")
    expect(game.page.locator("#cursor-announce")).to_have_text(
        "e8, empty, coach: white makes an open four here"
    )
    game.page.locator("summary", has_text="Display").click()
    game.page.select_option("#opt-lang", "zh")
    expect(game.page.locator("#coach-line")).to_have_text(SENTENCE_ZH)
    # the English sentence said before the switch is not left in the live region
    expect(game.page.locator("#coach-announce")).to_have_text("")
    # the player blocks at e8, the engine answers: the marks follow the position, the
    # same as CPython's coach says for it
    game.page.evaluate("window.scrollTo(0, 0)")
    game.click_cell("e8")
    moves = game.wait_moves(8)
    want = expected_marks([from_text(m, 15) for m in moves])
    wait_coach(game, want)


@pytest.mark.warm
def test_off_above_the_lowest_levels_and_the_choice_survives_a_reload(game):
    game.open(FAST)  # the page, for its levels
    data = game.levels()["data"]
    top = max(lv["number"] for lv in data)
    open_with(game, {GAME_KEY: stored_game(top)})
    box = game.page.locator("#opt-coach")
    expect(box).not_to_be_checked()
    expect(game.page.locator("#coach-line")).to_be_hidden()
    assert game.page.get_attribute("#board", "data-coach") == ""
    # turned on by the player: it marks, and stays on after a reload at this level
    game.page.locator("summary", has_text="Display").click()
    box.check()
    wait_coach(game, "white-three:e8 white-three:i8")
    stored = game.page.evaluate(f"localStorage.getItem('{SETTINGS_KEY}')")
    assert json.loads(stored)["coach"] is True
    game.page.reload()
    game.wait_ready()
    expect(box).to_be_checked()
    wait_coach(game, "white-three:e8 white-three:i8")
    # turned off at the lowest level, where it is on by default: off after a reload too
    game.page.select_option("#level", str(lowest(game)))
    game.page.locator("summary", has_text="Display").click()
    box.uncheck()
    expect(game.page.locator("#coach-line")).to_be_hidden()
    game.page.reload()
    game.wait_ready()
    expect(box).not_to_be_checked()
    assert game.page.get_attribute("#board", "data-coach") == ""
    assert game.page.get_attribute("#board", "data-coach-on") == "false"


@pytest.mark.warm
def test_once_seen_the_coach_stays_on_up_the_ladder_and_says_so_once(game):
    """A player who had the coach at the lowest levels keeps it at the first level where it
    is off by default (it does not go off without a word): told once, with how to turn it
    off; the next game says nothing, and turned off it stays off."""
    game.open(FAST)  # the page, for its levels
    up_to = game.page.evaluate(
        "() => import('./model/levels.js').then((m) => m.COACH_DEFAULT_UP_TO)"
    )
    settings = lambda: json.loads(game.page.evaluate(f"localStorage.getItem('{SETTINGS_KEY}')"))  # noqa: E731
    open_with(game, {GAME_KEY: stored_game(up_to)})
    wait_coach(game, "white-three:e8 white-three:i8")  # seen
    assert settings()["coachSeen"] is True
    # the next level up, chosen beside the status
    game.page.select_option("#level", str(up_to + 1))
    box = game.page.locator("#opt-coach")
    expect(box).to_be_checked()
    expect(game.page.locator("#notice")).to_contain_text("The coach stays on at this level")
    expect(game.page.locator("#notice")).to_contain_text('"Coach: mark the threats"')
    wait_coach(game, "white-three:e8 white-three:i8")
    assert settings()["coach"] is True
    # a new game at that level: on, and nothing said again
    game.page.click("#new-game")
    expect(box).to_be_checked()
    assert "coach" not in game.page.inner_text("#notice").lower()
    # the player turns it off: off, and it stays off at the levels below too
    game.page.locator("summary", has_text="Display").click()
    box.uncheck()
    game.page.select_option("#level", str(up_to))
    expect(box).not_to_be_checked()
