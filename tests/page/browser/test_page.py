"""End-to-end: the built site in headless Chromium, served on 127.0.0.1."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
import site_build as build

COLS = "abcdefghijklmno"


def on_board(text: str) -> bool:
    return bool(re.fullmatch(r"[a-o](1[0-5]|[1-9])", text))


@pytest.mark.warm
def test_engine_becomes_ready(game, console_log):
    game.open()
    assert game.status() == "your-turn"
    assert game.page.inner_text("#status") == "Your turn"
    info = game.page.inner_text("#engine-info")
    assert re.search(r"Engine \S+ ready in [\d.]+ s \(Pyodide 0\.27\.7\)", info), info
    assert not [m for m in console_log if m.startswith(("error", "pageerror"))], console_log


@pytest.mark.warm
def test_click_move_gets_legal_reply(game):
    game.open()
    game.click_cell("h8")
    moves = game.wait_moves(2)
    assert moves[0] == "h8"
    assert len(moves) == 2 and on_board(moves[1]) and moves[1] != "h8"
    game.wait_status("your-turn")
    assert game.page.inner_text("#announce").startswith(f"Engine plays {moves[1]}")


@pytest.mark.warm
def test_keyboard_move_gets_legal_reply(game):
    game.open()
    game.page.focus("#board")
    # the cursor starts on the centre, h8: right, right, up -> j9
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        game.page.keyboard.press(key)
    assert "Cursor on j9" in (game.page.get_attribute("#board", "aria-label") or "")
    game.page.keyboard.press("Enter")
    moves = game.wait_moves(2)
    assert moves[0] == "j9"
    assert on_board(moves[1]) and moves[1] != "j9"
    # Space places a stone too: two (or three, if the engine took j7) rows down
    game.wait_status("your-turn")
    for key in ("ArrowDown", "ArrowDown") + (("ArrowDown",) if "j7" in moves else ()):
        game.page.keyboard.press(key)
    target = "j6" if "j7" in moves else "j7"
    game.page.keyboard.press(" ")
    moves = game.wait_moves(4)
    assert moves[2] == target and on_board(moves[3]) and len(set(moves)) == 4


def weak_human_cells() -> list[str]:
    """Edge cells two apart: never five in a row, never near the action."""
    cells = []
    for row in (1, 15):
        cells += [f"{c}{row}" for c in COLS[::2]]
    for col in ("a", "o"):
        cells += [f"{col}{r}" for r in range(3, 14, 2)]
    return cells


@pytest.mark.warm
def test_whole_game_engine_wins(game):
    game.open()
    pool = weak_human_cells()
    for _turn in range(60):
        status = game.status()
        if status.endswith("-wins") or status == "draw":
            break
        played = set(game.moves())
        cell = next(c for c in pool if c not in played)
        count = len(played)
        game.click_cell(cell)
        game.wait_moves(count + 2)
        game.wait_status("your-turn", "black-wins", "white-wins", "draw")
    assert game.status() == "white-wins", (game.status(), game.moves())
    assert game.page.inner_text("#status").startswith("White wins")
    assert "White wins." in game.page.inner_text("#announce")
    state = game.page.evaluate("() => window.gomokuTest.state()")
    assert len(state["game"]["line"]) >= 5
    # the board refuses further moves
    n = len(game.moves())
    free = next(c for c in pool if c not in game.moves())
    game.click_cell(free)  # refused at once (actions.humanPlay), and said so
    game.page.wait_for_function(
        "() => document.querySelector('#announce').textContent.includes('The game is over')"
    )
    assert len(game.moves()) == n


def test_every_request_stays_on_localhost(game, localhost_only):
    seen, blocked = localhost_only.seen, localhost_only.blocked
    game.open()
    game.click_cell("h8")
    game.wait_moves(2)
    assert not blocked, blocked
    # the worker's own fetches went through the route too
    paths = {urlparse(u).path for u in seen}
    assert any(p.endswith("/pyodide/pyodide.asm.wasm") for p in paths), paths
    assert any(p.endswith(".whl") and "numpy" in p for p in paths), paths
    assert any(p.endswith("-py3-none-any.whl") for p in paths), paths
    assert all(urlparse(u).hostname == "127.0.0.1" for u in seen if u.startswith("http"))


def test_hung_worker_is_replaced_and_play_continues(game):
    game.open("test=1&time=200&deadline=4000")
    game.page.evaluate("() => window.gomokuTest.hang()")
    game.click_cell("h8")
    game.page.wait_for_function("() => window.gomokuTest.state().restarts >= 1", timeout=60_000)
    assert "restarted" in game.page.inner_text("#notice")
    moves = game.wait_moves(2)
    assert moves[0] == "h8" and on_board(moves[1])
    game.wait_status("your-turn")
    # and the replacement answers the next move as usual
    free = next(c for c in ("c3", "m13", "c13") if c not in moves)
    game.click_cell(free)
    moves = game.wait_moves(4)
    assert len(set(moves)) == 4
    assert game.page.evaluate("() => window.gomokuTest.state().restarts") >= 1


@pytest.mark.warm
def test_malformed_messages_get_error_replies(game):
    game.open()
    send = "([m, id]) => window.gomokuTest.send(m, id)"
    bad_moves = {"type": "think", "id": "b1", "moves": "h8", "limits": {"timeMs": 100}}
    reply = game.page.evaluate(send, [bad_moves, "b1"])
    assert reply["type"] == "error" and reply["id"] == "b1" and "moves" in reply["message"]

    occupied = {"type": "think", "id": 7, "moves": [[7, 7], [7, 7]], "limits": {"timeMs": 100}}
    reply = game.page.evaluate(send, [occupied, 7])
    assert reply["type"] == "error" and reply["id"] == 7

    reply = game.page.evaluate(send, [{"type": "fly", "id": "b2"}, "b2"])
    assert reply == {"type": "error", "id": "b2", "message": reply["message"]}
    assert "unknown message type" in reply["message"]

    reply = game.page.evaluate(send, ["not an object", None])
    assert reply["type"] == "error" and reply["id"] is None

    # the worker is still fine afterwards
    good = {"type": "think", "id": "g1", "moves": [[7, 7]], "limits": {"timeMs": 100}}
    reply = game.page.evaluate(send, [good, "g1"])
    assert reply["type"] == "result" and reply["id"] == "g1"
    x, y = reply["move"]
    assert 0 <= x < 15 and 0 <= y < 15 and [x, y] != [7, 7]


@pytest.mark.warm
def test_bench_messages_answer_in_the_page(game):
    """gomoku.bench's rates are timed by a CPU clock that Pyodide does not advance: the
    bench messages must still finish in the worker (they hung before cpu_clock)."""
    game.open()
    send = "([m, id]) => window.gomokuTest.send(m, id, 60000)"
    core = {"type": "bench", "id": "bc", "what": "core", "seconds": 0.05}
    reply = game.page.evaluate(send, [core, "bc"])
    assert reply["type"] == "bench" and reply["results"]["makeUnmakePerS"] > 0
    threats = {"type": "bench", "id": "bt", "what": "threats", "depth": 3}
    reply = game.page.evaluate(send, [threats, "bt"])
    assert reply["type"] == "bench" and reply["results"]["nodes"] > 0
    multipv = {"type": "bench", "id": "bm", "what": "multipv", "depth": 2, "lines": 3}
    reply = game.page.evaluate(send, [multipv, "bm"])
    assert reply["type"] == "bench", reply
    assert reply["results"]["multiS"] > 0 and reply["results"]["sameFirst"] == 8


def test_csp_meta_matches_build_and_is_not_violated(game, console_log, dist_dir, base_url):
    html = (dist_dir / "index.html").read_text()
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert meta and meta.group(1) == build.PAGE_CSP
    assert "wasm-unsafe-eval" not in build.PAGE_CSP and "unsafe-inline" not in build.PAGE_CSP
    # the worker runs under its own policy (the server's header): the engine loads under it
    headers = game.page.request.get(f"{base_url}engine/worker.js").headers
    assert headers["content-security-policy"] == build.WORKER_CSP
    assert "'unsafe-eval'" not in build.WORKER_CSP
    game.open()
    game.click_cell("h8")
    game.wait_moves(2)
    violations = [m for m in console_log if "Content Security Policy" in m]
    assert not violations, violations


def test_a_missing_wheel_is_reported_not_hung_and_the_first_move_is_kept(game, context):
    held = []  # the wheel's request, answered (aborted) once the player has moved
    context.route("**/wheels/**", lambda route: held.append(route))
    game.page.goto(f"{game.base_url}?test=1")
    game.page.evaluate("() => localStorage.clear()")
    game.page.goto(f"{game.base_url}?test=1&time=200")
    game.page.wait_for_function("() => !!document.querySelector('#board')?.dataset.engine")
    game.click_cell("h8")  # while the engine loads
    assert game.moves() == ["h8"]
    while not held:  # the worker asks for the wheel once Pyodide has started
        game.page.wait_for_timeout(100)
    held.pop().abort()
    game.page.wait_for_function(
        "() => document.querySelector('#board').dataset.engine === 'failed'", timeout=180_000
    )
    assert "could not be started" in game.page.inner_text("#notice")
    assert game.status() == "error"
    assert game.moves() == ["h8"]  # the player's move is kept, on the board and stored
    context.unroute("**/wheels/**")
    game.page.reload()
    moves = game.wait_moves(2)
    assert moves[0] == "h8" and on_board(moves[1])  # the engine answers it once it loads


def test_first_move_need_not_wait_for_the_engine(game):
    game.page.goto(f"{game.base_url}?test=1&time=200")
    game.page.evaluate("() => localStorage.clear()")
    game.page.goto(f"{game.base_url}?test=1&time=200")
    # main.js has run once the board carries data-engine (the HTML does not)
    game.page.wait_for_function("() => !!document.querySelector('#board')?.dataset.engine")
    engine_state = game.page.get_attribute("#board", "data-engine")
    game.click_cell("h8")
    assert game.moves() == ["h8"]
    if engine_state == "loading":  # nearly always: loading takes seconds
        assert game.status() == "loading"
    moves = game.wait_moves(2)
    assert moves[0] == "h8" and on_board(moves[1])
    game.wait_status("your-turn")


@pytest.mark.warm
def test_page_stays_responsive_while_the_engine_thinks(game):
    game.open()
    probe = """async () => {
        const msg = {type: "think", id: "long", moves: [[0, 0], [14, 14], [0, 14], [3, 9]],
                     limits: {timeMs: 2500}, reset: true};
        const t0 = performance.now();
        let done = false;
        const reply = window.gomokuTest.send(msg, "long", 120000).finally(() => { done = true; });
        const gaps = [];
        let last = performance.now();
        while (!done) {
            await new Promise((r) => setTimeout(r, 20));
            const now = performance.now();
            gaps.push(now - last);
            last = now;
        }
        return {reply: await reply, elapsed: performance.now() - t0, gaps};
    }"""
    out = game.page.evaluate(probe)
    assert out["reply"]["type"] == "result"
    assert out["elapsed"] >= 1000  # the worker really was busy for a while
    # the page's own timers kept ticking all along: no freeze anywhere near the search time
    assert max(out["gaps"]) < min(1000, out["elapsed"] / 2), max(out["gaps"])
    assert len(out["gaps"]) >= 10
