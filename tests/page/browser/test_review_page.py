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

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "py"))
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
    # in the player's words (black, the player, won): white's move is the opponent's
    title = page.text_content("#review-graph .rg-dot.blunder title")
    assert title.startswith("Move 6, your opponent played j9: a blunder. "), title
    assert re.search(r"(k8|g8) was better\.", title), title
    summary = page.inner_text("#review-summary")
    assert "Your opponent: " in summary and "1 blunder" in summary, summary
    # the player won, with nothing of theirs flagged: nothing to learn, nothing offered
    assert "You: nothing marked" in summary, summary
    assert page.is_hidden("#review-learn")
    assert "Review done." in page.inner_text("#announce")
    # a click on its marker: the board shows the position after it, with the better line
    page.click("#review-graph .rg-dot.blunder")
    assert game.moves() == BLUNDER_GAME.split()[:6]
    overlay = page.get_attribute("#board", "data-overlay").split()
    assert overlay and overlay[0] in ("k8", "g8"), overlay
    note = page.inner_text("#review-note")
    assert "Move 6, your opponent played j9: a blunder." in note, note
    assert f"{overlay[0]} was better" in note and "After it you win by force." in note, note
    # the mover's chance, not black's; the method and budget only in the details line
    assert "Your opponent's chance " in note and "Black's chance" not in note, note
    details = page.inner_text("#review-note .rv-details")
    assert details == "Details: proven (the engine found a forced win); 12,000 nodes per position."
    rest = note.replace(details, "")
    assert "proven" not in rest and "nodes" not in rest, note
    assert "Move 6, your opponent played j9: a blunder." in page.inner_text("#announce")
    # the move list: "??" after j9, with the class as text
    j9 = page.locator("#move-list button.mv[data-index='6']")
    assert j9.locator(".rv-mark").inner_text() == "??"
    assert j9.get_attribute("data-class") == "blunder"
    assert "blunder" in j9.text_content()
    # browsing to another move: its class is said, and no line for a move that is fine
    page.click("#move-list button.mv[data-index='5']")
    assert page.inner_text("#announce").startswith("Move 5, you played j8: ")
    assert page.get_attribute("#board", "data-overlay") == ""
    # the graph from the keyboard: focus, Down to the next marked move, Enter shows it
    page.focus("#review-graph")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#review-graph", "aria-valuenow") == "6"
    said = page.get_attribute("#review-graph", "aria-valuetext")
    assert said.startswith("Move 6, your opponent played j9: a blunder."), said
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


def marked_review(moves: str, marks: dict[int, str]) -> dict:
    """A stored review of a game (as encodeReview writes it) whose moves are all good but
    those in marks (move number -> class, each with the better move a1): what the page
    shows of a reviewed game, without the engine's time."""
    total = len(moves.split())
    classes = [marks.get(i, "good") for i in range(1, total + 1)]
    summary = {c: {k: 0 for k in ("inaccuracy", "mistake", "blunder", "missed_win", "only_move")}
               for c in ("black", "white")}
    for i, cls in enumerate(classes):
        if cls != "good":
            summary["black" if i % 2 == 0 else "white"][cls] += 1
    return {
        "nodes": DEFAULT_NODES,
        "black": [0.5] * (total + 1),
        "moves": [
            {"class": c} if c == "good" else {"class": c, "better": "a1", "line": "a1"}
            for c in classes
        ],
        "summary": summary,
    }


def game_items(moves: str, review: dict, human: int = 1) -> dict[str, str]:
    """localStorage: a finished game (shown at its end) and its review."""
    points = [list(m) for m in moves_from_text(moves, 15)]
    stored_game = {
        "size": 15, "rule": "freestyle", "first": 1, "human": human, "level": 1, "seed": 0,
        "moves": points, "cursor": len(points), "recorded": True, "ladder": 2,
    }
    key = "15/1/freestyle/" + " ".join(f"{x}.{y}" for x, y in points)
    return {
        "gomoku.game.v1": json.dumps(stored_game),
        "gomoku.review.v1": json.dumps({"key": key, "review": review}),
    }


# every element's right edge, and the document's width, within the window
WIDEST = """() => {
  const w = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('body *')]
    .map((el) => [el.id || el.className || el.tagName, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
    .map(([name, r]) => [String(name), Math.round(r.left), Math.round(r.right)]);
  return {scroll: document.documentElement.scrollWidth, width: w, out};
}"""
# what a tap at the centre of an element would hit: the element itself (or inside it)
HIT = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""


def test_a_reviewed_long_game_on_a_phone_stays_within_its_width(phone_game):
    """360x640 and a Pixel 5 (393x851): after a review of 40 moves with marks in the move
    list, no element is wider than the window; the list scrolls down and says so; a tap on
    a move in it lands on that move."""
    g, page = phone_game, phone_game.page
    marks = {6: "blunder", 9: "mistake", 14: "inaccuracy", 20: "blunder", 27: "mistake",
             33: "blunder"}
    for viewport in ({"width": 360, "height": 640}, {"width": 393, "height": 851}):
        page.set_viewport_size(viewport)
        g.plant(game_items(LONG_GAME, marked_review(LONG_GAME, marks)))
        g.open(fresh=False)
        wait_review(g, "done", timeout=10_000)
        assert page.locator("#move-list .rv-mark").count() == len(marks)
        widest = page.evaluate(WIDEST)
        assert widest["scroll"] <= viewport["width"] and not widest["out"], (viewport, widest)
        # the list holds more than it shows: it scrolls down (not sideways) and says so
        box = page.evaluate(
            "() => { const l = document.querySelector('#move-list');"
            " return [l.scrollHeight, l.clientHeight, l.scrollWidth, l.clientWidth]; }"
        )
        assert box[0] > box[1] and box[2] <= box[3], box
        hint = page.locator("#move-list-more")
        assert hint.is_visible() and "40 moves" in hint.inner_text(), hint.inner_text()
        # a marked move far down the list, scrolled to and tapped: the board shows it
        move = page.locator("#move-list button.mv[data-index='33']")
        move.scroll_into_view_if_needed()
        assert page.evaluate(HIT, "#move-list button.mv[data-index='33']"), viewport
        b = move.bounding_box()
        page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        page.wait_for_function(
            "() => document.querySelector('#nav-pos').textContent.startsWith('Move 33 ')"
        )
        assert len(g.moves()) == 33
        widest = page.evaluate(WIDEST)
        assert widest["scroll"] <= viewport["width"] and not widest["out"], (viewport, widest)


def test_the_new_game_dialog_shows_start_and_cancel_on_a_phone(phone_game):
    """A Pixel 5 (393x851) and 360x640: the New game dialog's Start and Cancel are whole,
    inside the window, and what a tap there hits."""
    g, page = phone_game, phone_game.page
    g.open()
    for viewport in ({"width": 393, "height": 851}, {"width": 360, "height": 640}):
        page.set_viewport_size(viewport)
        page.click("#setup")
        for sel in ("#ng-start", "#ng-cancel"):
            b = page.locator(sel).bounding_box()
            inside = b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= viewport["width"] \
                and b["y"] + b["height"] <= viewport["height"]
            assert inside, (viewport, sel, b)
            assert page.evaluate(HIT, sel), (viewport, sel)
        page.click("#ng-cancel")
        assert page.is_hidden("#new-game-dialog")


# White (the player) to move: black's four h8 h9 h10 h11 is closed at h7, so only h12 holds.
CLOSED_FOUR = [[7, 7], [7, 8], [7, 6], [0, 14], [7, 5], [0, 13], [7, 4]]
PZ_FEEDBACK = "() => document.querySelector('#pz-feedback').textContent"


@pytest.mark.warm
def test_learn_from_your_mistakes_after_a_lost_game_reviews_it_itself(game):
    """Right after a lost game nobody reviewed, the page offers Learn from your mistakes;
    the puzzles page reviews the game itself (saying how far it is), keeps the review where
    the game page finds it, and sets the losing move as an exercise."""
    page = game.page
    stored_game = {
        "size": 15, "rule": "freestyle", "first": 1, "human": 2, "level": 3, "seed": 0,
        "moves": CLOSED_FOUR, "cursor": len(CLOSED_FOUR), "recorded": False, "ladder": 2,
    }
    game.plant({"gomoku.game.v1": json.dumps(stored_game)})
    game.open(fresh=False)
    page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("o15")
    game.wait_status("black-wins")
    assert page.get_attribute("#board", "data-review") == "", "nothing reviewed"
    learn = page.locator("#review-learn")
    assert learn.is_visible() and learn.inner_text() == "Learn from your mistakes"
    puzzles = page.context.new_page()
    try:
        puzzles.goto(game.base_url + learn.get_attribute("href"))
        puzzles.wait_for_function("() => document.body.dataset.status === 'reviewing'")
        said = puzzles.evaluate(PZ_FEEDBACK)
        assert said.startswith("Reviewing your last game to find your mistakes: move "), said
        puzzles.wait_for_function(
            "() => window.gomokuPuzzles.state.mode === 'mistakes'", timeout=REVIEW_MS
        )
        ex = puzzles.evaluate(
            "() => window.gomokuPuzzles.state.exercises.map((e) => [e.index, e.better])"
        )
        assert [8, [7, 3]] in ex, ex  # o15, with the block h12
        assert re.fullmatch(r"You played [a-o]\d+\. Find a better move for white\.",
                            puzzles.inner_text("#pz-prompt")), puzzles.inner_text("#pz-prompt")
        # the review is kept with the game: the game page shows it without asking again
        kept = json.loads(puzzles.evaluate("() => localStorage.getItem('gomoku.review.v1')"))
        assert kept["key"].endswith("7.4 14.0 7.3"), kept["key"]
        assert kept["review"]["moves"][7]["class"] == "blunder", kept["review"]["moves"][7]
        assert kept["review"]["moves"][7]["better"] == "h12"
        history = json.loads(puzzles.evaluate("() => localStorage.getItem('gomoku.history.v1')"))
        assert history[-1]["review"] == kept["review"]
    finally:
        puzzles.close()
