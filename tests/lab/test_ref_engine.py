"""Tests of the JavaScript reference opponent (tools/ref-engine), driven through a pipe
like a Gomocup manager would. Skipped when ``node`` is not on PATH."""

from __future__ import annotations

import io
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from gomoku_lab.match import MatchConfig, build_schedule, load_openings, run_match

ROOT = Path(__file__).resolve().parents[2]
REF_DIR = ROOT / "tools" / "ref-engine"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


class Pipe:
    """A running reference brain: send lines, read answer lines (MESSAGE/DEBUG skipped)."""

    def __init__(self, *args: str) -> None:
        assert NODE is not None
        self.proc = subprocess.Popen(
            [NODE, str(REF_DIR / "pbrain.js"), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(s + "\n" for s in lines))
        self.proc.stdin.flush()

    def answer(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError("the brain exited")
            if line.split(" ", 1)[0] in ("MESSAGE", "DEBUG") or not line:
                continue
            return line

    def move(self, *lines: str, timeout: float = 10.0) -> tuple[int, int]:
        self.send(*lines)
        text = self.answer(timeout)
        x, y = (int(v) for v in text.split(","))
        return x, y

    def close(self) -> int:
        if self.proc.poll() is None:
            self.send("END")
        try:
            return self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def brain():
    p = Pipe()
    p.send("INFO timeout_turn 300", "INFO timeout_match 0")
    p.send("START 15")
    assert p.answer() == "OK"
    yield p
    p.close()


def board_cmd(own: list[tuple[int, int]], opp: list[tuple[int, int]]) -> list[str]:
    return ["BOARD", *(f"{x},{y},1" for x, y in own), *(f"{x},{y},2" for x, y in opp), "DONE"]


def test_js_selftest() -> None:
    out = subprocess.run(
        [NODE, str(REF_DIR / "selftest.js")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "selftest ok" in out.stdout


def test_about_and_end() -> None:
    p = Pipe()
    p.send("ABOUT")
    assert 'name="ref-js-abvct"' in p.answer()
    assert p.close() == 0


def test_tutorial_profile_plays_and_a_bad_profile_is_refused() -> None:
    p = Pipe("--profile", "tutorial")
    p.send("ABOUT")
    assert 'name="ref-js-abvct-tutorial"' in p.answer()
    p.send("START 15")
    assert p.answer() == "OK"
    p.send("INFO timeout_turn 300")
    p.send("TURN 7,7")
    x, y = (int(v) for v in p.answer().split(","))
    assert (x, y) != (7, 7) and 0 <= x < 15 and 0 <= y < 15
    p.send("END")
    assert p.close() == 0
    assert NODE is not None
    out = subprocess.run(
        [NODE, str(REF_DIR / "pbrain.js"), "--profile", "strongest"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2 and "unknown --profile" in out.stderr


def test_begin_then_turns_are_legal(brain: Pipe) -> None:
    taken = set()
    first = brain.move("BEGIN")
    assert first == (7, 7)
    taken.add(first)
    # The opponent answers next to the last move; every reply must be on an empty cell.
    opp_moves = [(8, 8), (6, 6), (8, 6), (6, 8)]
    for mv in opp_moves:
        if mv in taken:
            continue
        taken.add(mv)
        reply = brain.move(f"TURN {mv[0]},{mv[1]}")
        assert 0 <= reply[0] < 15 and 0 <= reply[1] < 15
        assert reply not in taken
        taken.add(reply)


def test_wins_in_one(brain: Pipe) -> None:
    # Own four h8..k8 open on one side (l8), opponent has an open three elsewhere.
    own = [(7, 7), (8, 7), (9, 7), (10, 7), (2, 2)]
    opp = [(6, 7), (7, 8), (8, 8), (9, 8), (3, 12)]
    assert brain.move(*board_cmd(own, opp)) == (11, 7)


def test_blocks_a_four(brain: Pipe) -> None:
    # Opponent has a closed four on the diagonal with the only five point at (9,9).
    opp = [(5, 5), (6, 6), (7, 7), (8, 8)]
    own = [(4, 4), (10, 2), (2, 10)]
    assert brain.move(*board_cmd(own, opp)) == (9, 9)


def test_makes_open_four_from_open_three(brain: Pipe) -> None:
    own = [(6, 7), (7, 7), (8, 7), (1, 13)]
    opp = [(6, 8), (7, 9), (13, 1), (13, 13)]
    assert brain.move(*board_cmd(own, opp)) in {(5, 7), (9, 7)}


def test_answers_board_with_many_stones_in_time(brain: Pipe) -> None:
    # 60 stones in a dense pattern without any five (checked below), we are black to move.
    own: list[tuple[int, int]] = []
    opp: list[tuple[int, int]] = []
    for y in range(3, 13):
        for x in range(3, 9):
            # Stripes of two cells, shifted from row to row: no five (checked below).
            (own if ((x + 2 * y) // 2) % 2 == 0 else opp).append((x, y))
    while len(own) > len(opp):
        opp.append(own.pop())
    while len(opp) > len(own):
        own.append(opp.pop())
    cells = {p: 1 for p in own} | {p: 2 for p in opp}
    assert len(cells) == 60
    for (x, y), c in cells.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            assert not all(cells.get((x + k * dx, y + k * dy)) == c for k in range(5))
    t0 = time.monotonic()
    reply = brain.move(*board_cmd(own, opp))
    elapsed = time.monotonic() - t0
    assert reply not in cells and 0 <= reply[0] < 15 and 0 <= reply[1] < 15
    # timeout_turn is 300 ms; allow for a loaded machine but not for ignoring the limit.
    assert elapsed < 1.5


def test_takeback_errors_and_unknown(brain: Pipe) -> None:
    first = brain.move("BEGIN")
    reply = brain.move("TURN 0,0")
    brain.send(f"TAKEBACK {reply[0]},{reply[1]}")
    assert brain.answer() == "OK"
    brain.send("TAKEBACK 0,0")
    assert brain.answer() == "OK"
    # 0,0 is free again, the first move is not.
    assert brain.move("TURN 0,0") not in {first, (0, 0)}
    brain.send(f"TURN {first[0]},{first[1]}")
    assert brain.answer().startswith("ERROR")
    brain.send("TURN 15,3")
    assert brain.answer().startswith("ERROR")
    brain.send("FROBNICATE")
    assert brain.answer().startswith("UNKNOWN")


def test_beats_a_naive_player() -> None:
    openings = load_openings(ROOT / "openings" / "balanced.txt")
    cfg = MatchConfig(
        engine1=f"{NODE} {REF_DIR / 'pbrain.js'}",
        engine2=f"{NODE} {REF_DIR / 'naive.js'}",
        games=4,
        turn_ms=100,
        tolerance_ms=1000,
    )
    summary = run_match(cfg, build_schedule(openings, cfg.games, None), out=io.StringIO())
    assert summary.wins == 4, [r.reason for r in summary.results]
