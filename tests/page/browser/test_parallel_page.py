"""Parallel search in the page (web/engine/parallel-client.js): two search workers, each its own
Pyodide, plus the coordinator in the engine worker; headless Chromium on 127.0.0.1.

Every page here starts three Pyodides (the engine worker and two search workers), so the
tests share pages where they can: the parallel path at a fixed depth runs on the page of
the threads setting's test (the two were one test each before)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

from conftest import MOVE_MS, READY_MS

# bench position 0 (gomoku.bench), black to move: out of the opening book
POSITION = "h8,i9,g9,i7,i8,g7"


def on_board(text: str) -> bool:
    return bool(re.fullmatch(r"[a-o](1[0-5]|[1-9])", text))


def wait_workers(game, n: int) -> None:
    game.page.wait_for_function(
        "n => document.querySelector('#board').dataset.workers === String(n)",
        arg=n,
        timeout=READY_MS,
    )


def stats(game) -> dict:
    return game.page.evaluate("() => window.gomokuParallel.stats()")


def test_threads_setting_two_workers_legal_reply_localhost_only(game, localhost_only):
    seen, blocked = localhost_only.seen, localhost_only.blocked
    game.open("test=1&time=600")
    # the setting: 2 threads, kept in localStorage with the other settings
    game.page.click("details.display summary")
    game.page.select_option("#opt-threads", "2")
    stored = json.loads(game.page.evaluate("localStorage.getItem('gomoku.settings.v1')"))
    assert stored["threads"] == 2
    game.page.reload()
    game.wait_ready()
    wait_workers(game, 2)
    assert game.page.get_attribute("#board", "data-threads") == "2"
    assert game.page.input_value("#opt-threads") == "2"
    assert "2 of 2 search workers ready" in game.page.inner_text("#workers-info")

    # a timed level: parallel search applies to those only (a level think is the engine
    # worker's)
    game.set_level(game.timed_level())
    game.click_cell("h8")
    moves = game.wait_moves(2)
    assert moves[0] == "h8" and on_board(moves[1]) and moves[1] != "h8"
    game.wait_status("your-turn")
    # a second move, out of the book's reach: searched by the two workers
    free = next(c for c in ("a1", "o15", "a15") if c not in moves)
    game.click_cell(free)
    moves = game.wait_moves(4)
    assert len(set(moves)) == 4 and all(on_board(m) for m in moves)
    s = stats(game)
    assert s["parallel"] >= 2 and s["fallbacks"] == 0, s
    game.wait_status("your-turn")

    # the parallel machinery fails: the engine worker thinks alone, the move still comes
    game.page.evaluate("() => window.gomokuParallel.breakNext()")
    free = next(c for c in ("o1", "a15", "o15") if c not in moves)
    game.click_cell(free)
    moves = game.wait_moves(6)
    assert len(set(moves)) == 6 and all(on_board(m) for m in moves)
    s = stats(game)
    assert s["fallbacks"] == 1 and s["parallel"] >= 2, s
    game.wait_status("your-turn", "black-wins", "white-wins")

    # the parallel path itself (the test hook names the scheme): a think at a fixed depth
    # answers with a legal move of that depth, through the search workers
    parallel_think_at_depth(game)

    assert not blocked, blocked
    searchers = [u for u in seen if urlparse(u).path.endswith("/worker.js")]
    roles = [parse_qs(urlparse(u).query).get("role") for u in searchers]
    assert roles.count(["search"]) >= 2, searchers
    assert all(urlparse(u).hostname == "127.0.0.1" for u in seen if u.startswith("http"))


def fail_during_search(game, cell: str, failure: str, moves_after: int) -> list[str]:
    """Play ``cell``; once the engine has searched a while, run ``failure`` (JS) on the
    page; the engine still answers with a legal move through the parallel path, and the
    failure is counted. Returns the moves."""
    before = stats(game)
    game.click_cell(cell)
    game.page.wait_for_function("() => window.gomokuParallel.stats().searching", timeout=MOVE_MS)
    game.page.wait_for_timeout(500)
    assert stats(game)["searching"], f"the search ended before {failure}: no test"
    game.page.evaluate(f"() => window.gomokuParallel.{failure}")
    moves = game.wait_moves(moves_after)
    assert len(set(moves)) == moves_after and all(on_board(m) for m in moves)
    s = stats(game)
    assert s["failures"] >= before["failures"] + 1, s
    assert s["parallel"] == before["parallel"] + 1 and s["fallbacks"] == 0, s
    return moves


def test_a_search_worker_lost_mid_search_does_not_stop_play(game):
    game.open(f"test=1&threads=2&time=3000#moves={POSITION}")
    wait_workers(game, 2)
    assert game.moves() == POSITION.split(",")
    game.set_level(game.timed_level())  # parallel search is for the timed levels

    # 1: worker 0 is terminated while the engine searches
    fail_during_search(game, "a1", "kill(0)", 8)
    game.wait_status("your-turn")

    # the lost worker is restarted for later moves
    wait_workers(game, 2)
    assert stats(game)["restarts"] >= 1

    # 2: worker 1 throws (an error event) while the engine searches. Back to POSITION
    # first: after a second wasted move (a corner) white has a win by threats, which the
    # engine's threat stage answers in about 0.1 s, before the failure could come; with one
    # corner stone POSITION takes a real search of seconds, whichever corner it is.
    game.page.click("#undo")  # the player's a1 and the engine's reply
    assert game.moves() == POSITION.split(",")
    fail_during_search(game, "o1", "crash(1)", 8)
    game.wait_status("your-turn", "black-wins", "white-wins")


def parallel_think_at_depth(game) -> None:
    wait_workers(game, 2)
    moves = [[7, 7], [8, 6], [6, 6], [8, 8], [8, 7], [6, 8]]  # POSITION as [x, y]
    limits = {"depth": 4, "book": False, "threats": False}
    before = stats(game)
    r = game.page.evaluate(
        "([m, l, s]) => window.gomokuParallel.think(m, l, 120000, s)", [moves, limits, "lazy"]
    )
    reply = r["reply"]
    assert reply["type"] == "result" and reply["depth"] == 4, reply
    assert reply["move"] not in moves and all(0 <= v < 15 for v in reply["move"])
    s = r["stats"]
    assert s["parallel"] == before["parallel"] + 1, s
    assert s["fallbacks"] == before["fallbacks"], s
    # start, then the think's plan and iterations were relayed
    assert s["coordCalls"] >= before["coordCalls"] + 6, s
