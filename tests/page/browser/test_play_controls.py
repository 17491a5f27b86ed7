"""The game page's play controls: undo and redo (and undo while the engine thinks), the hint,
swap sides, playing white (from the side menu and from the new game dialog), and white
first at an unlimited level with Move now.

Think times stay short (?time=); waits are generous so that a busy machine does not fail a
test.
"""

from __future__ import annotations

import pytest
from conftest import MOVE_MS
from page_steps import FAST, free_cell, load_moves, on_board, play


@pytest.mark.warm
def test_undo_redo_restores_moves_and_both_sides_are_announced(game):
    game.open(FAST)
    game.page.evaluate("""() => {
        window.said = [];
        const el = document.querySelector('#announce');
        new MutationObserver(() => window.said.push(el.textContent))
            .observe(el, {childList: true, characterData: true, subtree: true});
    }""")
    play(game, "h8")
    two = game.wait_moves(2)
    game.wait_status("your-turn")
    play(game, free_cell(two))
    four = game.wait_moves(4)
    game.wait_status("your-turn")
    said = game.page.evaluate("() => window.said")
    assert "You play h8." in said and f"Engine plays {two[1]}." in said, said
    assert f"Engine plays {four[3]}." in said, said

    game.page.click("#undo")
    assert game.moves() == four[:2]
    game.page.click("#undo")
    assert game.moves() == []
    assert game.page.is_disabled("#undo")
    game.page.click("#redo")
    assert game.moves() == four[:2]
    game.page.click("#redo")
    assert game.moves() == four
    assert game.page.is_disabled("#redo")
    assert game.status() == "your-turn"
    # the engine did not move on its own meanwhile, nor started to (a move's job starts as
    # its turn comes: engine-jobs.js)
    assert game.page.evaluate("() => window.gomokuTest.state().job") is None
    assert game.moves() == four


def test_undo_while_the_engine_thinks_cancels_the_thought(game):
    game.open("test=1&time=3000")
    load_moves(game, "a1 o15")  # far from any opening-book line: the engine searches 3 s
    play(game, "h8")
    game.wait_status("thinking")
    game.page.click("#undo")
    assert game.moves() == ["a1", "o15"]
    assert game.status() == "your-turn"
    # the cancelled search ends (3 s) and its move is not played: the worker answers one
    # message at a time, so the reply to this one comes after the cancelled search's
    reply = game.page.evaluate("() => window.gomokuTest.send({type: 'fly', id: 'p'}, 'p')")
    assert reply["type"] == "error" and "unknown message type" in reply["message"]
    assert game.moves() == ["a1", "o15"]
    # and the engine answers the next move as usual
    play(game, "h8")
    moves = game.wait_moves(4)
    assert moves[2] == "h8" and on_board(moves[3]) and len(set(moves)) == 4


@pytest.mark.warm
def test_hint_is_shown_not_played(game):
    game.open(FAST)
    play(game, "h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")
    game.page.click("#hint")
    game.page.wait_for_function(
        "() => document.querySelector('#board').dataset.hint !== ''", timeout=MOVE_MS
    )
    hint = game.page.get_attribute("#board", "data-hint")
    assert on_board(hint) and hint not in moves
    assert game.moves() == moves
    assert game.status() == "your-turn"
    assert f"Hint: {hint}." in game.page.inner_text("#announce")
    # playing a move clears the hint
    play(game, free_cell(moves + [hint]))
    game.wait_moves(4)
    assert game.page.get_attribute("#board", "data-hint") == ""


@pytest.mark.warm
def test_swap_sides_lets_the_engine_take_over(game):
    game.open(FAST)
    play(game, "h8")
    game.wait_moves(2)
    game.wait_status("your-turn")
    game.page.click("#swap")
    moves = game.wait_moves(3)
    game.wait_status("your-turn")
    assert len(set(moves)) == 3 and on_board(moves[2])
    assert "You play white" in game.page.inner_text("#you-are")


@pytest.mark.warm
def test_playing_white_from_the_side_menu_or_the_new_game_dialog(game):
    # the side menu: the engine opens, then answers the player's move
    game.open(FAST)
    game.page.select_option("#side", "2")
    moves = game.wait_moves(1)
    game.wait_status("your-turn")
    assert len(moves) == 1 and on_board(moves[0])
    assert "You play white" in game.page.inner_text("#you-are")
    free = next(c for c in ("h9", "g7", "j9") if c not in moves)
    game.click_cell(free)
    moves = game.wait_moves(3)
    assert moves[1] == free and on_board(moves[2]) and len(set(moves)) == 3

    # the new game dialog: white, with the rule and the level chosen there
    game.open(FAST)
    game.page.click("#setup")
    assert game.page.is_visible("#new-game-dialog")
    game.page.check("input[name=ng-side][value='2']")
    game.page.check("input[name=ng-rule][value=standard]")
    game.page.select_option("#ng-level", "1")
    game.page.click("#ng-start")
    assert not game.page.is_visible("#new-game-dialog")
    moves = game.wait_moves(1)
    game.wait_status("your-turn")
    assert len(moves) == 1 and on_board(moves[0])
    assert "You play white" in game.page.inner_text("#you-are")
    assert game.page.get_attribute("#board", "data-rule") == "standard"
    state = game.page.evaluate("() => window.gomokuTest.state().game")
    assert state["human"] == 2 and state["level"] == 1 and state["rule"] == "standard"



@pytest.mark.warm
def test_white_first_and_unlimited_level_with_move_now(game):
    game.open(FAST)
    game.page.click("#setup")
    game.page.check("input[name=ng-first][value=white]")  # white opens; we keep black
    game.page.select_option("#ng-level", str(game.timed_level(unlimited=True)))
    game.page.click("#ng-start")
    # the engine (white) thinks in slices until Move now
    game.page.wait_for_selector("#move-now", state="visible", timeout=60_000)
    game.page.wait_for_timeout(700)
    assert game.moves() == []
    game.page.click("#move-now")
    moves = game.wait_moves(1)
    game.wait_status("your-turn")
    assert on_board(moves[0])
    assert "You play black." in game.page.inner_text("#you-are")
    state = game.page.evaluate("() => window.gomokuTest.state().game")
    assert state["first"] == 2 and state["human"] == 1
