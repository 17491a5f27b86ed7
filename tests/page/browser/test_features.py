"""Player features of the page: undo/redo, hint, swap, analysis and browsing,
records (move list, .psq, share link), persistence, offline, language, phone layout.

Think times stay short (?time=, ?slice=) so the whole file runs in a few minutes; waits are
generous so that a busy machine does not fail a test.
"""

from __future__ import annotations

import re

import pytest
from conftest import DEFAULT_QUERY, MOVE_MS, READY_MS, GamePage

CELL = r"[a-o](?:1[0-5]|[1-9])"
FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)


def on_board(text: str) -> bool:
    return bool(re.fullmatch(CELL, text))


def moves_are(game: GamePage, text: str, timeout: int = MOVE_MS) -> None:
    game.page.wait_for_function(
        "t => document.querySelector('#board').dataset.moves === t", arg=text, timeout=timeout
    )


def free_cell(taken, options=("c3", "m13", "c13", "m3", "b2", "n14")) -> str:
    return next(c for c in options if c not in taken)


def play(game: GamePage, cell: str) -> None:
    """Click an intersection, with the board scrolled into view first."""
    game.page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell(cell)


def load_moves(game: GamePage, text: str) -> None:
    """Load a move list through the Records dialog."""
    game.page.click("#records")
    game.page.fill("#record-text", text)
    game.page.click("#record-load")
    game.page.click("#records-close")


def open_display(game: GamePage) -> None:
    if not game.page.eval_on_selector("details.display", "d => d.open"):
        game.page.click("details.display summary")


# ---- play: undo / redo, hint, swap, new game dialog -----------------------------------


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
def test_new_game_dialog_white_makes_the_engine_open(game):
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


# ---- thinking panel, analysis, browsing ------------------------------------------------


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


# ---- records -----------------------------------------------------------------------------


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


# ---- persistence --------------------------------------------------------------------------


@pytest.mark.warm
def test_reload_keeps_game_settings_and_finished_games(game):
    game.open(FAST)
    open_display(game)
    game.page.check("#opt-numbers")
    game.page.select_option("#opt-theme", "dark")
    load_moves(game, "h8 a1 h9 a2 h10 a3 h11 a4")
    play(game, "h12")  # five: black (the player) wins
    game.wait_status("black-wins")
    game.page.click("#undo")
    moves_are(game, "h8 a1 h9 a2 h10 a3 h11 a4")
    game.page.click("#undo")
    moves_are(game, "h8 a1 h9 a2 h10 a3")
    game.open(FAST, fresh=False)
    moves_are(game, "h8 a1 h9 a2 h10 a3")
    game.page.click("#redo")
    moves_are(game, "h8 a1 h9 a2 h10 a3 h11 a4")  # the rest of the line came back too
    assert game.page.get_attribute("html", "data-theme") == "dark"
    open_display(game)
    assert game.page.is_checked("#opt-numbers")
    game.page.click("#records")
    history = game.page.inner_text("#history-list")
    assert "You won · 9 moves" in history, history  # the player had black
    game.page.click("#history-list button")
    moves_are(game, "h8 a1 h9 a2 h10 a3 h11 a4 h12")
    assert game.status() == "black-wins"


@pytest.mark.warm
def test_corrupt_storage_is_discarded_with_a_notice(game):
    game.plant({
        "gomoku.game.v1": '{"size": 15, "moves": [[7, 7], [7, 7]]}',
        "gomoku.settings.v1": "[1, 2",
        "gomoku.history.v1": '{"x": 1}',
    })
    game.open(FAST, fresh=False)
    assert game.moves() == [] and game.status() == "your-turn"
    notice = game.page.inner_text("#notice")
    assert "discarded" in notice and "defaults" in notice and "cleared" in notice, notice
    play(game, "h8")
    moves = game.wait_moves(2)
    assert on_board(moves[1])
    # what is stored now is sound again
    stored = game.page.evaluate("() => JSON.parse(localStorage.getItem('gomoku.game.v1')).moves")
    assert len(stored) >= 1
    for junk in ('"just a string"', "null", '{"size": 15, "moves": [[99, 1]]}'):
        game.page.evaluate("j => localStorage.setItem('gomoku.game.v1', j)", junk)
        game.open(FAST, fresh=False)
        assert game.status() == "your-turn", junk


# ---- presentation, language, layout ------------------------------------------------------


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


def test_phone_layout_has_no_horizontal_scroll(phone_game):
    g, page = phone_game, phone_game.page
    g.open(FAST)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    # a tap previews, a second tap on the same point plays (settings.touchConfirm)
    page.touchscreen.tap(*g.cell_point("h8"))
    page.touchscreen.tap(*g.cell_point("h8"))
    moves = g.wait_moves(2)
    assert moves[0] == "h8"
    for opener, dialog in (("#records", "#records-dialog"), ("#setup", "#new-game-dialog")):
        page.click(opener)
        box = page.locator(dialog).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (dialog, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.keyboard.press("Escape")
    open_display(g)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


# ---- offline -----------------------------------------------------------------------------


def test_offline_after_the_first_visit(game, context):
    game.open(FAST)
    # the service worker is registered once the engine is ready and takes control
    game.page.wait_for_function(
        "() => document.querySelector('#board').dataset.offline === 'ready'", timeout=READY_MS
    )
    caches = game.page.evaluate("async () => await caches.keys()")
    assert len(caches) == 1 and caches[0].startswith("gomoku-"), caches
    context.set_offline(True)
    try:
        response = game.page.reload()
        assert response is not None and response.from_service_worker
        game.wait_ready()
        play(game, "h8")
        moves = game.wait_moves(2)
        assert moves[0] == "h8" and on_board(moves[1])
    finally:
        context.set_offline(False)


def test_service_worker_caches_every_file_of_this_build(dist_dir):
    import json

    info = json.loads((dist_dir / "build-info.json").read_text())
    text = (dist_dir / "sw.js").read_text()
    build_id = re.search(r'^const BUILD = "([^"]+)";$', text, re.M).group(1)
    assert build_id == f"{info['build']}-pyodide{info['pyodideVersion']}"
    files = json.loads(re.search(r"^const FILES = (\[.*?\]);$", text, re.M | re.S).group(1))
    on_disk = {
        p.relative_to(dist_dir).as_posix()
        for p in dist_dir.rglob("*")
        if p.is_file() and p.name not in ("sw.js", ".nojekyll")
    }
    assert set(files) == on_disk | {"./"}
    assert info["wheel"] in files and "pyodide/pyodide.asm.wasm" in files


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
