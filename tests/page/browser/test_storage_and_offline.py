"""What the page keeps: the game, its line, the settings and the finished games across a
reload (a game against the engine too), corrupt storage discarded with a notice, the page
offline after the first visit, and the service worker caching every file of the build.
"""

from __future__ import annotations

import re

import pytest
from conftest import READY_MS
from page_steps import FAST, load_moves, moves_are, on_board, open_display, play


@pytest.mark.warm
def test_reload_keeps_the_game_its_line_the_settings_and_finished_games(game):
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

    # a game against the engine, its reply included, survives a reload too
    game.page.click("#new-game")
    assert game.moves() == []
    play(game, "h8")
    moves = game.wait_moves(2)
    game.wait_status("your-turn")
    game.open(FAST, fresh=False)
    assert game.moves() == moves
    assert game.status() == "your-turn"
    game.page.click("#new-game")
    assert game.moves() == []



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
