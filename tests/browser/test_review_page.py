"""Game review in the page: the Review card, the evaluation graph, the marks in the move
list, the better line on the board, the summary, what is stored, and the review as one
engine job (progress, cancel, the board usable meanwhile, an error reply, a worker that
dies mid-review).

The game of the brief: black's open three h8 i8 j8 is left open by white's j9 (move 6),
a blunder (better k8 or g8); black wins with k8 and g8. What the page sends to its
workers is seen through an init script that wraps Worker.prototype.postMessage
(window.__posted: every message's type and index), which can also change or drop a
message (window.__tamper) to make the engine answer with an error or not at all.

The tests but one run on the warm tab (conftest.py): the spy is installed on it for this
module (and stays, idle, for later loads of the tab) and emptied at the start of each test
(reset_spy). The dying worker's test needs its own page (a shorter worker deadline).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import DEFAULT_QUERY, PHONE, READY_MS, GamePage, WarmGamePage

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
from gomoku.core.geometry import moves_from_text, to_text  # noqa: E402
from gomoku.protocol.webapi import handle  # noqa: E402
from gomoku.review import DEFAULT_NODES  # noqa: E402

BLUNDER_GAME = "h8 h9 i8 i9 j8 j9 k8 a1 g8"
LONG_GAME = (
    "h8 i7 i6 h6 j8 i8 h10 h7 j7 i9 j9 j10 h12 h11 i11 g9 i12 g12 i13 i14 "
    "k8 l9 l7 i10 j5 j6 k6 m8 h5 g4 h3 i4 n5 m6 k5 f13 e14 l5 k7 k9"
)
REVIEW_MS = 240_000

# Wraps the workers' postMessage: window.__posted lists [type, index] of every message
# sent to a worker; window.__tamper(message) may return a changed message, or null to
# drop it (the worker never sees it).
SPY = """(() => {
  if (window.__posted) return;  // installed already in this document
  const post = Worker.prototype.postMessage;
  window.__posted = [];
  window.__tamper = null;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && typeof message === "object") {
      window.__posted.push([message.type, message.index ?? null]);
      if (window.__tamper) {
        message = window.__tamper(message);
        if (message === null) return undefined;
      }
    }
    return post.call(this, message, ...rest);
  };
})()"""


@pytest.fixture(scope="module")
def spied_warm_tab(warm_tab):
    """The warm tab, with the spy on every document it loads from now on."""
    warm_tab.page.add_init_script(SPY)
    return warm_tab


@pytest.fixture
def game(spied_warm_tab, game):
    """The conftest's game page, with the spy installed (on a page of its own: before it
    loads)."""
    if not isinstance(game, WarmGamePage):
        game.page.add_init_script(SPY)
    return game


def reset_spy(game: GamePage) -> None:
    """The spy in this document (the warm tab may show a page loaded before it was added),
    nothing posted yet, nothing tampered with."""
    game.page.evaluate(SPY)
    game.page.evaluate(
        "() => { window.__posted = []; window.__tamper = null;"
        " delete window.__tampered; delete window.__dropped; }"
    )


def link(moves: str) -> str:
    return "#moves=" + moves.replace(" ", ",") + "&rule=freestyle&size=15"


def open_link(game: GamePage, moves: str, query: str = DEFAULT_QUERY) -> None:
    """A fresh page (empty storage), engine ready, that then opens the game of a share link
    (the link's hash set as a player's click on it sets it)."""
    game.open(query)
    reset_spy(game)
    game.page.evaluate("h => { location.hash = h; }", link(moves))
    game.page.wait_for_function(
        "t => document.querySelector('#board').dataset.moves === t", arg=moves, timeout=READY_MS
    )


def review_posts(game: GamePage) -> list[int]:
    return [i for kind, i in game.page.evaluate("() => window.__posted") if kind == "review"]


def wait_review(game: GamePage, state: str, timeout: int = REVIEW_MS) -> None:
    game.page.wait_for_function(
        "s => document.querySelector('#board').dataset.review === s", arg=state, timeout=timeout
    )


def stored_review(moves: str) -> dict:
    """The stored form of a review (web/model/review.js encodeReview), made with the engine in
    CPython: what a page that reviewed the game keeps."""
    points = [list(m) for m in moves_from_text(moves, 15)]
    answers = [
        handle({"type": "review", "id": i, "moves": points, "index": i})
        for i in range(len(points) + 1)
    ]
    out = []
    for a in answers[1:]:
        m = a["move"]
        flagged = m["class"] in ("inaccuracy", "mistake", "blunder", "missed_win")
        if flagged and m["better"]:
            line = " ".join(to_text(x, y, 15) for x, y in m["line"])
            out.append({"class": m["class"], "better": to_text(*m["better"], 15), "line": line})
        else:
            out.append({"class": m["class"]})
    return {
        "nodes": DEFAULT_NODES,
        "black": [a["position"]["black"] for a in answers],
        "moves": out,
        "summary": answers[-1]["summary"],
    }


def reviewed_game_items(cursor: int, review: dict) -> dict[str, str]:
    """localStorage: the blunder game (shown at cursor) and its review, as a page that
    reviewed it keeps them (web/model/storage.js gomoku.game.v1 and gomoku.review.v1)."""
    points = [list(m) for m in moves_from_text(BLUNDER_GAME, 15)]
    stored_game = {
        "size": 15,
        "rule": "freestyle",
        "first": 1,
        "human": 1,
        "level": "t1",
        "moves": points,
        "cursor": cursor,
        "recorded": True,
    }
    key = "15/1/freestyle/" + " ".join(f"{x}.{y}" for x, y in points)
    return {
        "gomoku.game.v1": json.dumps(stored_game),
        "gomoku.review.v1": json.dumps({"key": key, "review": review}),
    }


@pytest.mark.warm
def test_review_marks_the_blunder_draws_the_better_line_and_survives_a_reload(game):
    open_link(game, BLUNDER_GAME)
    page = game.page
    assert page.is_visible("#review-box")
    assert page.is_enabled("#review-start")
    page.click("#review-start")
    wait_review(game, "done")
    # one request per position, in order, and one point per position on the graph
    assert review_posts(game) == list(range(10))
    assert page.get_attribute("#review-graph", "data-points") == "10"
    assert page.locator("#review-graph .rg-pt").count() == 10
    # the blunder, and nothing else of black's or white's but white's inaccuracy
    dots = page.eval_on_selector_all(
        "#review-graph .rg-dot", "ds => ds.map(d => [d.dataset.index, d.dataset.class])"
    )
    assert ["6", "blunder"] in dots, dots
    title = page.text_content("#review-graph .rg-dot.blunder title")
    assert title.startswith("Move 6, white j9: blunder, proven. Better: "), title
    assert re.search(r"Better: (k8|g8)\.", title), title
    summary = page.inner_text("#review-summary")
    assert "White: " in summary and "1 blunder" in summary, summary
    assert "Review done." in page.inner_text("#announce")
    # a click on its marker: the board shows the position after it, with the better line
    page.click("#review-graph .rg-dot.blunder")
    assert game.moves() == BLUNDER_GAME.split()[:6]
    overlay = page.get_attribute("#board", "data-overlay").split()
    assert overlay and overlay[0] in ("k8", "g8"), overlay
    note = page.inner_text("#review-note")
    assert "Move 6, white j9: blunder, proven." in note and f"Better: {overlay[0]}" in note, note
    assert "Proven: the engine found a forced win." in note, note  # issue 31
    assert "Move 6, white j9: blunder, proven. Better:" in page.inner_text("#announce")
    # the move list: "??" after j9, with the class as text
    j9 = page.locator("#move-list button.mv[data-index='6']")
    assert j9.locator(".rv-mark").inner_text() == "??"
    assert j9.get_attribute("data-class") == "blunder"
    assert "blunder" in j9.text_content()
    # browsing to another move: its class is said, and no line for a move that is fine
    page.click("#move-list button.mv[data-index='5']")
    assert page.inner_text("#announce").startswith("Move 5, black j8: ")
    assert page.get_attribute("#board", "data-overlay") == ""
    # the graph from the keyboard: focus, Down to the next marked move, Enter shows it
    page.focus("#review-graph")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#review-graph", "aria-valuenow") == "6"
    said = page.get_attribute("#review-graph", "aria-valuetext")
    assert said.startswith("Move 6, white j9: blunder, proven."), said
    assert game.moves() == BLUNDER_GAME.split()[:5], "the board moves on Enter only"
    page.keyboard.press("Enter")
    assert game.moves() == BLUNDER_GAME.split()[:6]
    # a reload: the review is there, nothing is asked of the engine again
    page.reload()
    game.wait_ready()
    wait_review(game, "done", timeout=10_000)
    assert page.get_attribute("#review-graph", "data-points") == "10"
    assert page.locator("#move-list .rv-mark").first.inner_text() in ("?!", "??")
    page.wait_for_timeout(1500)
    assert review_posts(game) == []
    assert page.is_disabled("#review-start"), "complete at this budget"


@pytest.mark.warm
def test_a_finished_game_reopened_from_the_list_shows_its_review(game):
    points = [list(m) for m in moves_from_text(BLUNDER_GAME, 15)]
    entry = {
        "date": "2025-05-01T10:00:00.000Z",
        "size": 15,
        "rule": "freestyle",
        "first": 1,
        "human": 1,
        "result": "black",
        "moves": BLUNDER_GAME,
        "review": stored_review(BLUNDER_GAME),
    }
    assert len(points) == 9
    game.plant({"gomoku.history.v1": json.dumps([entry])})
    game.open(fresh=False)
    reset_spy(game)
    page = game.page
    assert page.is_hidden("#review-box"), "a new game: nothing to review"
    page.click("#records")
    assert "reviewed" in page.inner_text("#history-list")
    page.click("#history-list button")
    wait_review(game, "done", timeout=10_000)
    assert game.moves() == BLUNDER_GAME.split()
    assert page.locator("#review-graph .rg-dot.blunder").count() == 1
    page.wait_for_timeout(1000)
    assert review_posts(game) == []


@pytest.mark.warm
def test_the_board_stays_usable_during_a_review_and_cancel_stops_it(game):
    open_link(game, LONG_GAME)
    page = game.page
    page.click("#review-start")
    page.wait_for_function(
        "() => document.querySelector('#review-progress').value >= 3", timeout=REVIEW_MS
    )
    assert page.is_visible("#review-progress")
    label = page.get_attribute("#review-progress", "aria-label")
    assert re.fullmatch(r"Reviewing: move \d+ of 40", label), label
    assert page.is_visible("#review-cancel")
    # browsing while it runs: the board follows, the review goes on
    page.click("#nav-first")
    assert game.moves() == []
    page.click("#move-list button.mv[data-index='10']")
    assert len(game.moves()) == 10
    page.click("#nav-next")
    assert len(game.moves()) == 11
    assert page.get_attribute("#board", "data-review") == "running"
    done = page.evaluate("() => document.querySelector('#review-progress').value")
    page.wait_for_function(
        "n => document.querySelector('#review-progress').value > n", arg=done, timeout=REVIEW_MS
    )
    page.click("#review-cancel")
    wait_review(game, "partial", timeout=5000)
    assert page.is_hidden("#review-progress")
    assert page.inner_text("#review-start") == "Resume review"
    sent = len(review_posts(game))
    page.wait_for_timeout(2500)
    assert len(review_posts(game)) == sent, "nothing more asked after Cancel"
    # the board is the player's: browse to the end; Resume goes on where it stopped
    page.click("#nav-last")
    assert len(game.moves()) == 40
    reviewed = page.evaluate("() => window.gomokuTest.review().black.length")
    page.click("#review-start")
    page.wait_for_function(
        "n => window.gomokuTest.review().black.length > n", arg=reviewed, timeout=REVIEW_MS
    )
    assert review_posts(game)[sent] == reviewed
    # a new game ends it, and there is nothing to review then
    page.click("#new-game")
    assert page.evaluate("() => window.gomokuTest.state().job") is None
    assert page.is_hidden("#review-box")
    assert game.moves() == []


@pytest.mark.warm
def test_an_error_reply_stops_the_review_and_keeps_the_game(game):
    open_link(game, BLUNDER_GAME)
    page = game.page
    # the request for position 3 goes out with a budget the worker refuses (once)
    page.evaluate("""() => { window.__tamper = (m) => {
        if (m.type !== 'review' || m.index !== 3 || window.__tampered) return m;
        window.__tampered = true;
        return {...m, nodes: -1};
    }; }""")
    page.click("#review-start")
    page.wait_for_function(
        "() => document.querySelector('#notice').textContent.includes('The review stopped')",
        timeout=REVIEW_MS,
    )
    notice = page.inner_text("#notice")
    assert "nodes must be an integer" in notice and "your game is unchanged" in notice, notice
    assert page.get_attribute("#notice", "data-kind") == "error"
    wait_review(game, "partial", timeout=5000)
    assert game.moves() == BLUNDER_GAME.split()
    assert game.status() == "black-wins", "the engine is fine: no engine error"
    assert page.inner_text("#review-start") == "Resume review"
    page.click("#review-start")
    wait_review(game, "done")
    assert page.locator("#review-graph .rg-dot.blunder").count() == 1


def test_a_worker_that_dies_mid_review_is_replaced_and_the_review_goes_on(game):
    open_link(game, BLUNDER_GAME, query=f"{DEFAULT_QUERY}&deadline=6000")
    page = game.page
    # the request for position 4 never reaches the worker (once): as a dead worker, it
    # never answers; the page's deadline replaces the worker
    page.evaluate("""() => { window.__tamper = (m) => {
        if (m.type !== 'review' || m.index !== 4 || window.__dropped) return m;
        window.__dropped = true;
        return null;
    }; }""")
    page.click("#review-start")
    wait_review(game, "done")
    assert page.evaluate("() => window.gomokuTest.state().restarts") >= 1
    posts = review_posts(game)
    assert posts == [0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9], posts
    assert page.get_attribute("#review-graph", "data-points") == "10"
    assert game.moves() == BLUNDER_GAME.split()


@pytest.mark.warm
def test_a_broken_stored_review_is_dropped_with_a_notice_the_game_kept(game):
    review = stored_review(BLUNDER_GAME)
    review["moves"][5]["class"] = "brilliant"
    game.plant(reviewed_game_items(9, review))
    game.open(fresh=False)
    page = game.page
    assert "The saved review could not be read" in page.inner_text("#notice")
    assert game.moves() == BLUNDER_GAME.split()
    assert page.get_attribute("#board", "data-review") == ""
    assert page.is_enabled("#review-start"), "the game can be reviewed again"
    assert page.evaluate("() => localStorage.getItem('gomoku.review.v1')") is None


@pytest.mark.warm
def test_a_stored_review_on_a_phone(game):
    """390x844: the review card, its graph and the marks fit the phone's width."""
    page = game.page
    page.set_viewport_size(PHONE["viewport"])
    game.plant(reviewed_game_items(6, stored_review(BLUNDER_GAME)))
    game.open(fresh=False)
    wait_review(game, "done", timeout=10_000)
    for sel in ("#review-box", "#review-graph", "#review-summary", "#review-note"):
        box = page.locator(sel).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (sel, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.get_attribute("#board", "data-overlay").split()[0] in ("k8", "g8")
