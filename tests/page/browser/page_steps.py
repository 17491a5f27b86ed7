"""Steps a player takes on the game page, shared by the browser tests: a move played, a
record loaded, the board's move list waited for, a game in progress and what the finished
games' list kept of it."""

from __future__ import annotations

import json
import re

from conftest import DEFAULT_QUERY, MOVE_MS, GamePage

FAST = DEFAULT_QUERY  # the warm tab's query (conftest.py)
CELL = r"[a-o](?:1[0-5]|[1-9])"
NOTICE_HAS = "t => document.querySelector('#notice').textContent.includes(t)"


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


def finished(game: GamePage) -> list[dict]:
    return json.loads(game.page.evaluate("() => localStorage.getItem('gomoku.history.v1')") or "[]")


def game_in_progress(game: GamePage) -> list[str]:
    """Play two moves of a game against the engine (it answers each): four stones."""
    game.open(FAST)
    game.page.evaluate("() => window.scrollTo(0, 0)")
    game.click_cell("h8")
    game.wait_moves(2)
    game.wait_status("your-turn")
    free = next(c for c in ("c3", "m13", "c13") if c not in game.moves())
    game.click_cell(free)
    moves = game.wait_moves(4)
    game.wait_status("your-turn")
    return moves


def kept_as_unfinished(game: GamePage, moves: list[str]) -> None:
    entries = finished(game)
    assert entries, "nothing kept"
    assert entries[-1]["result"] == "unfinished", entries[-1]
    assert entries[-1]["moves"] == " ".join(moves), entries[-1]
