"""Tests of the Gomocup brain: pure parse/format helpers, the protocol state machine on a
stub engine, and a scripted session with the real brain through a pipe."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gomoku.core.errors import IllegalMoveError
from gomoku.core.rules import Rule
from gomoku.engine.session import fallback_move
from gomoku.game.evaluation import WIN_SCORE
from gomoku.protocol import pbrain, pbrain_limits, pbrain_swap2, pbrain_text
from gomoku.protocol.pbrain import Brain, run
from gomoku.protocol.pbrain_limits import TimeSettings, node_limits, swap2_limits, time_controls
from gomoku.protocol.pbrain_text import (
    ProtocolError,
    format_about,
    format_move,
    format_pv,
    format_search_info,
    format_top_move,
    order_board_stones,
    parse_board_line,
    parse_command,
    parse_point,
    rule_from_info,
)
from gomoku.search import timeman

ROOT = Path(__file__).resolve().parents[3]
PY_DIR = ROOT / "py"

# ----------------------------------------------------------------------------------------
# Pure helpers


def test_parse_command() -> None:
    assert parse_command("START 15\r\n") == ("START", "15")
    assert parse_command("  turn   7,8 ") == ("TURN", "7,8")
    assert parse_command("INFO timeout_turn 1000") == ("INFO", "timeout_turn 1000")
    assert parse_command("END") == ("END", "")
    assert parse_command(" \n") == ("", "")


def test_parse_point() -> None:
    assert parse_point("7,8", 15) == (7, 8)
    assert parse_point(" 0 , 14 ", 15) == (0, 14)
    assert parse_point("19,19", 20) == (19, 19)
    for bad in ("15,0", "0,15", "-1,2", "a,b", "7", "7,8,9", "", "7.0,8", "1e1,2"):
        with pytest.raises(ProtocolError):
            parse_point(bad, 15)


def test_parse_board_line() -> None:
    assert parse_board_line("7,7,1", 15) == (7, 7, 1)
    assert parse_board_line(" 3,4,2 ", 15) == (3, 4, 2)
    assert parse_board_line("3,4,3", 15) == (3, 4, 3)
    for bad in ("7,7", "7,7,0", "7,7,4", "15,1,1", "x,1,1", "7,7,1,1"):
        with pytest.raises(ProtocolError):
            parse_board_line(bad, 15)


def test_order_board_stones() -> None:
    # we are black: equal counts, interleaved own first, in the given order
    moves, colour = order_board_stones([(7, 7, 1), (8, 8, 2), (6, 6, 1), (9, 9, 2)])
    assert (moves, colour) == ([(7, 7), (8, 8), (6, 6), (9, 9)], 1)
    # we are white: one more opponent stone
    moves, colour = order_board_stones([(8, 8, 1), (7, 7, 2), (6, 6, 2)])
    assert (moves, colour) == ([(7, 7), (8, 8), (6, 6)], 2)
    # empty board: we are black and move first
    assert order_board_stones([]) == ([], 1)
    # continuous-game stones are skipped
    assert order_board_stones([(1, 1, 3), (7, 7, 2)]) == ([(7, 7)], 2)
    with pytest.raises(ProtocolError, match="whose turn"):
        order_board_stones([(7, 7, 1), (8, 8, 1)])
    with pytest.raises(ProtocolError, match="whose turn"):
        order_board_stones([(7, 7, 2), (8, 8, 2)])
    with pytest.raises(ProtocolError, match="twice"):
        order_board_stones([(7, 7, 1), (7, 7, 2)])


def test_rule_from_info() -> None:
    assert rule_from_info(0) == (Rule.FREESTYLE, None)
    assert rule_from_info(1) == (Rule.STANDARD, None)
    assert rule_from_info(2) == (Rule.FREESTYLE, None)  # continuous game: ignored
    assert rule_from_info(3) == (Rule.STANDARD, None)
    for bits in (4, 5, 6, 7):  # renju, whatever the exact-five and continuous bits
        assert rule_from_info(bits) == (Rule.RENJU, None)
    rule, warning = rule_from_info(8)
    assert rule == Rule.STANDARD and warning is not None and "caro" in warning
    rule, warning = rule_from_info(12)
    assert rule == Rule.RENJU and warning is not None and "caro" in warning
    with pytest.raises(ProtocolError):
        rule_from_info(-1)


def _times(settings: TimeSettings, stones: int = 0, **extra: Any) -> timeman.MoveTimes:
    """The engine's optimum and maximum (ms) for what INFO gave (time_controls)."""
    from gomoku.engine.limits import Limits

    return Limits(**{"time_ms": None, **time_controls(settings), **extra}).times(225 - stones)


def test_time_controls_give_the_gomocup_caps() -> None:
    safety = timeman.SAFETY_MS
    # default: 5 s per move, no match clock
    times = _times(TimeSettings())
    assert times.clock_ms is None
    assert times.maximum_ms == 5000 - (30 + 250) - safety
    assert 1 <= times.optimum_ms <= times.maximum_ms
    # short turn: the margin keeps the cap well below the turn time
    times = _times(TimeSettings(timeout_turn=100))
    share = timeman.SOFT_SHARE_NUM / timeman.SOFT_SHARE_DEN
    assert times.maximum_ms == 65 - safety and times.optimum_ms == int(65 * share)
    # the margin is capped for long turns
    assert _times(TimeSettings(timeout_turn=60000)).maximum_ms == 59700 - safety
    # instant play
    times = _times(TimeSettings(timeout_turn=0))
    assert times == timeman.MoveTimes(1, timeman.INSTANT_HARD_MS - safety, None)
    # little time left on the match clock: both clamped, the clock known
    times = _times(TimeSettings(timeout_turn=5000, timeout_match=100000, time_left=3000), 20)
    assert times.clock_ms == 3000
    assert times.maximum_ms <= 1000 and times.optimum_ms <= 3000 // 25
    assert 1 <= times.optimum_ms <= times.maximum_ms
    # nearly no time at all still gives a valid (tiny) budget
    times = _times(TimeSettings(timeout_turn=5000, timeout_match=1000, time_left=0))
    assert times.optimum_ms == 1 and times.maximum_ms == 1
    # timeout_match 0 means no match limit: time_left is ignored
    times = _times(TimeSettings(timeout_turn=1000, timeout_match=0, time_left=10))
    assert times.clock_ms is None and times.maximum_ms == 1000 - 80 - safety
    # a "no limit" sentinel time_left is ignored too
    assert _times(TimeSettings(timeout_turn=1000, time_left=2**31 - 1)).clock_ms is None


def test_node_limits_keep_only_the_hard_cap() -> None:
    settings = TimeSettings(timeout_turn=5000, timeout_match=100000, time_left=3000)
    lim = node_limits(time_controls(settings), 3000)
    assert lim["nodes"] == 3000 and lim["seed"] == pbrain_limits.NODE_LIMIT_SEED
    assert lim["time_ms"] is None
    capped, timed = _times(settings, **lim), _times(settings)
    # the clock-clamped cap (a third of the clock less the margin), as a safety cap only:
    # no soft target and not the timed move's quarter of the clock
    assert capped.optimum_ms is None
    assert capped.maximum_ms == 3000 // 3 - (30 + int(3000 * 0.05 / 25)) - timeman.SAFETY_MS
    assert capped.maximum_ms > timed.maximum_ms
    with pytest.raises(ValueError):
        node_limits(time_controls(settings), 0)


def test_engine_budget_under_a_node_limit_has_no_soft_target() -> None:
    from gomoku.engine.limits import Limits

    assert Limits(time_ms=None, hard_ms=20000, nodes=500).budget()[0] is None
    # a bare clock: the safety cap of a third of it (test_timeman: changed on purpose)
    assert Limits(time_ms=None, time_left_ms=8000, depth=3).budget() == (None, (2620 - 5) / 1000)
    # without a node or depth limit the cap stays a time limit (soft = hard), as before
    assert Limits(time_ms=None, hard_ms=1000).budget() == (0.995, 0.995)
    assert Limits(time_ms=400, nodes=500).budget() == (0.4, (1000 - 5) / 1000)


def test_max_node_on_stub() -> None:
    brain, out = _stub_brain()
    brain.handle("START 15")
    brain.handle("INFO timeout_turn 30000")
    brain.handle("INFO max_node 2500")
    assert _answers(out) == ["OK"]
    brain.handle("BEGIN")
    lim = brain.engine.limits[-1]
    assert lim["nodes"] == 2500 and lim["time_ms"] is None and lim["seed"] is not None
    assert "DEBUG limits nodes 2500 hard 29695 ms" in out  # 30000 - 300 - SAFETY_MS
    brain.handle("INFO max_node 0")  # no limit again
    brain.handle("TURN 0,0")
    lim = brain.engine.limits[-1]
    assert "nodes" not in lim and lim["turn_ms"] == 30000
    from gomoku.engine.limits import Limits

    assert Limits(**lim).budget()[0] > 0  # a plain time budget again
    out.clear()
    brain.handle("INFO max_node lots")
    assert out[0].startswith("ERROR")


def test_formatters() -> None:
    assert format_move((7, 14)) == "7,14"
    about = format_about()
    for key in ("name=", "version=", "author=", "country="):
        assert key in about
    assert format_about(name='a"b').startswith('name="a\'b"')
    assert format_pv([(7, 7), (8, 6), (99, 99)], 15) == "h8 i9"
    info = SimpleNamespace(
        depth=6, score=120, nodes=5000, nps=25000.7, pv=[(7, 7), (0, 0)],
        time_ms=200,
    )  # fmt: skip
    line = format_search_info(info, 15)
    assert line == "MESSAGE depth 6 score +1.2 nodes 5000 nps 25000 time 200ms pv h8 a15"
    # the text is made here, from the search's integer: a forced five reads "win in N"
    won = SimpleNamespace(**{**vars(info), "score": WIN_SCORE - 9})
    assert " score win in 5 " in format_search_info(won, 15)
    top = SimpleNamespace(move=(7, 7), score=-(WIN_SCORE - 4), pv=[(7, 7)])
    assert format_top_move(2, top, 15) == "MESSAGE multipv 2 move h8 score loss in 2 pv h8"


# ----------------------------------------------------------------------------------------
# The state machine on a stub engine (fast and independent of the search)


class StubEngine:
    """Implements the part of the Engine facade that the brain uses."""

    def __init__(self, size: int, rule: Rule) -> None:
        self.new_game(size, rule)
        self.limits: list[Any] = []

    def new_game(self, size: int = 15, rule: Any = Rule.FREESTYLE) -> None:
        self.size, self.rule, self.moves = size, Rule(rule), []

    def play(self, x: int, y: int) -> None:
        if (x, y) in self.moves:
            raise IllegalMoveError(f"{x},{y} is occupied")
        self.moves.append((x, y))

    def undo(self) -> tuple[int, int]:
        if not self.moves:
            raise IllegalMoveError("no move to undo")
        return self.moves.pop()

    def set_position(self, moves: list[tuple[int, int]]) -> None:
        if len(set(moves)) != len(moves):
            raise IllegalMoveError("duplicate")
        self.moves = list(moves)

    @property
    def is_over(self) -> bool:
        return len(self.moves) >= self.size * self.size

    def think(self, limits: Any, on_info: Any = None) -> Any:
        self.limits.append(limits)
        move = fallback_move(self.moves, self.size)
        info = SimpleNamespace(depth=1, score=0, nodes=1, nps=1, pv=[move], time_ms=0)
        if on_info:
            on_info(info)
        return SimpleNamespace(move=move, source="search", **vars(info))


def _stub_brain() -> tuple[Brain, list[str]]:
    out: list[str] = []
    brain = Brain(out.append, engine_factory=StubEngine, make_limits=lambda kw: kw)
    return brain, out


def _answers(out: list[str]) -> list[str]:
    return [s for s in out if not s.startswith(("MESSAGE", "DEBUG"))]


def test_state_machine_session_on_stub() -> None:
    brain, out = _stub_brain()

    def say(line: str) -> list[str]:
        out.clear()
        assert brain.handle(line)
        return _answers(out)

    assert say("TURN 7,7")[0].startswith("ERROR")  # before START
    assert say("BEGIN")[0].startswith("ERROR")
    assert say("START 10")[0].startswith("ERROR")
    assert say("START 21")[0].startswith("ERROR")
    assert say("START x")[0].startswith("ERROR")
    assert say("START 20") == ["OK"]
    assert say("START 15") == ["OK"]
    assert say("INFO timeout_turn 1000") == []
    assert say("INFO timeout_match 60000") == []
    assert say("INFO time_left 60000") == []
    assert say("INFO folder /tmp") == []
    assert say("INFO some_future_key 3") == []
    assert say("INFO timeout_turn soon")[0].startswith("ERROR")
    assert say("BEGIN") == ["7,7"]
    assert say("BEGIN")[0].startswith("ERROR")  # board not empty
    assert say("TURN 7,7")[0].startswith("ERROR")  # occupied
    assert say("TURN 8,8") == ["8,7"]  # the stub plays next to the last move
    assert any(s.startswith("MESSAGE depth 1") for s in out)
    assert "DEBUG limits soft 736 ms hard 915 ms clock 60000 ms" in out  # 1000 - 80 - 5
    eng = brain.engine
    assert eng.moves == [(7, 7), (8, 8), (8, 7)]
    lim = eng.limits[-1]  # the INFO values, passed on as they are
    assert (lim["turn_ms"], lim["match_ms"], lim["time_left_ms"]) == (1000, 60000, 60000)
    assert say("TAKEBACK 8,8")[0].startswith("ERROR")  # not the last move
    assert say("TAKEBACK 8,7") == ["OK"]
    assert say("TAKEBACK 8,8") == ["OK"]
    assert eng.moves == [(7, 7)]
    assert say("RESTART") == ["OK"] and eng.moves == []
    # BOARD: we are white (one opponent stone more)
    for line in ("BOARD", "7,7,2", "8,7,1", "7,8,2"):
        assert say(line) == []
    assert say("DONE") == ["6,8"]
    assert eng.moves == [(7, 7), (8, 7), (7, 8), (6, 8)]
    # a bad BOARD is one ERROR at DONE, and the position is kept
    for line in ("BOARD", "7,7,1", "garbage", "8,8,1"):
        assert say(line) == []
    assert say("DONE")[0].startswith("ERROR")
    assert eng.moves == [(7, 7), (8, 7), (7, 8), (6, 8)]
    assert say("DONE")[0].startswith("ERROR")  # DONE without BOARD
    assert say("INFO rule 1") == [] and brain.rule == Rule.STANDARD
    assert say("INFO rule 4") == [] and brain.rule == Rule.RENJU
    out.clear()
    assert brain.handle("INFO rule 8")
    assert out and out[0].startswith("MESSAGE") and "caro" in out[0]
    assert say("FOO bar")[0] == "ERROR unknown command 'FOO'"
    assert say("") == []
    assert say("about")[0].startswith('name="')
    assert not brain.handle("END")
    assert not brain.handle("ABOUT")  # nothing is processed after END


# The renju double three of tests/engine/game/renju_cases.py: black on 7,5 8,5 6,6 6,7 makes 6,5 a
# double three; the white stones are far away.
RENJU_BLACK = [(7, 5), (8, 5), (6, 6), (6, 7)]
RENJU_WHITE = [(0, 0), (0, 2), (0, 4), (0, 6)]


def test_renju_turn_on_a_forbidden_point_is_an_error_and_changes_nothing() -> None:
    brain, out = _stub_brain()
    brain.handle("INFO rule 4")
    brain.handle("START 15")
    # we are white: the opponent's (black) stones first in each pair, a far one last
    black = [*RENJU_BLACK, (14, 14)]
    lines = [f"{x},{y},2" for x, y in black] + [f"{x},{y},1" for x, y in RENJU_WHITE]
    for line in ("BOARD", *lines, "DONE"):
        brain.handle(line)
    before = list(brain.engine.moves)
    assert len(before) == 10 and brain.engine.rule == Rule.RENJU
    out.clear()
    brain.handle("TURN 6,5")
    assert _answers(out) == ["ERROR 6,5 is forbidden for black (double three)"]
    assert brain.engine.moves == before
    out.clear()
    brain.handle("TURN 5,5")  # an allowed point is played and answered
    assert len(_answers(out)) == 1 and not _answers(out)[0].startswith("ERROR")
    assert brain.engine.moves[:11] == [*before, (5, 5)]


def test_renju_board_with_black_on_a_forbidden_point_is_refused() -> None:
    brain, out = _stub_brain()
    brain.handle("INFO rule 5")
    brain.handle("START 15")
    brain.handle("BEGIN")
    kept = list(brain.engine.moves)
    black = [*RENJU_BLACK, (6, 5)]  # the fifth black stone is the double three
    lines = [f"{x},{y},2" for x, y in black] + [f"{x},{y},1" for x, y in RENJU_WHITE]
    out.clear()
    for line in ("BOARD", *lines, "DONE"):
        brain.handle(line)
    assert _answers(out) == ["ERROR 6,5 is forbidden for black (double three)"]
    assert brain.engine.moves == kept
    # white may play that point; under freestyle black may too
    out.clear()
    lines = [f"{x},{y},1" for x, y in RENJU_BLACK] + [f"{x},{y},2" for x, y in RENJU_WHITE[:3]]
    lines.append("6,5,2")
    for line in ("BOARD", *lines, "DONE"):
        brain.handle(line)
    assert not _answers(out)[0].startswith("ERROR")
    brain.handle("INFO rule 0")
    out.clear()
    lines = [f"{x},{y},2" for x, y in black] + [f"{x},{y},1" for x, y in RENJU_WHITE]
    for line in ("BOARD", *lines, "DONE"):
        brain.handle(line)
    assert not _answers(out)[0].startswith("ERROR")


def test_rule_change_rebuilds_engine_position() -> None:
    brain, out = _stub_brain()
    brain.handle("START 15")
    brain.handle("BEGIN")
    brain.handle("INFO rule 1")
    brain.handle("TURN 0,0")
    assert brain.engine.rule == Rule.STANDARD
    assert brain.engine.moves[:2] == [(7, 7), (0, 0)] and len(brain.engine.moves) == 3


def test_search_crash_falls_back_to_a_legal_move() -> None:
    class Broken(StubEngine):
        def think(self, limits: Any, on_info: Any = None) -> Any:
            raise RuntimeError("boom")

    out: list[str] = []
    brain = Brain(out.append, engine_factory=Broken, make_limits=lambda kw: kw)
    brain.handle("START 15")
    brain.handle("TURN 7,7")
    mv = pbrain_text.parse_point(_answers(out)[-1], 15)
    assert mv != (7, 7) and max(abs(mv[0] - 7), abs(mv[1] - 7)) == 1
    assert brain.engine.moves == [(7, 7), mv]
    assert any("internal error" in s for s in out)


def test_run_reads_until_end() -> None:
    import io

    stdin = io.StringIO("ABOUT\nEND\nABOUT\n")
    stdout = io.StringIO()
    assert run(stdin, stdout) == 0
    assert stdout.getvalue().count("name=") == 1


# ----------------------------------------------------------------------------------------
# The real brain through a pipe


class BrainProcess:
    def __init__(self, *options: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(PY_DIR))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gomoku.pbrain", *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, env=env,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.messages: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(s + "\n" for s in lines))
        self.proc.stdin.flush()

    def answer(self, timeout: float = 60.0) -> str:
        """Next line that is not MESSAGE/DEBUG (generous timeout: slow machines)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, "brain exited: " + (self.proc.stderr.read() or "")
            if line.startswith(("MESSAGE", "DEBUG")):
                self.messages.append(line)
                continue
            return line

    def ask(self, *lines: str) -> str:
        self.send(*lines)
        return self.answer()

    def move(self, *lines: str) -> tuple[int, int]:
        answer = self.ask(*lines)
        return pbrain_text.parse_point(answer, 15)


def _engine_available() -> bool:
    return (PY_DIR / "gomoku" / "engine" / "facade.py").exists()


@pytest.mark.skipif(not _engine_available(), reason="engine.py not written yet")
def test_scripted_session_through_a_pipe() -> None:
    b = BrainProcess()
    try:
        assert b.ask("TURN 7,7").startswith("ERROR")  # before START
        assert b.ask("START 12").startswith("ERROR")
        assert b.ask("START 15") == "OK"
        b.send(
            "INFO timeout_turn 300", "INFO timeout_match 600000", "INFO time_left 600000",
            "INFO max_memory 83886080", "INFO game_type 1", "INFO rule 0", "INFO folder /tmp",
            "INFO thread_num 1",
        )  # fmt: skip
        about = b.ask("ABOUT")
        assert 'name="' in about and 'version="' in about
        first = b.move("BEGIN")
        stones = {first}
        reply = (first[0], first[1] + 1) if first[1] < 14 else (first[0], first[1] - 1)
        second = b.move(f"TURN {reply[0]},{reply[1]}")
        assert second not in stones | {reply}
        stones |= {reply, second}
        # malformed and illegal lines: one ERROR each, the brain keeps working
        for bad in (
            "HELLO world",
            "TURN 99,99",
            "TURN a,b",
            "TURN 7",
            f"TURN {reply[0]},{reply[1]}",  # occupied
            "TAKEBACK 0,0",  # not the last move
            "DONE",
        ):
            assert b.ask(bad).startswith("ERROR"), bad
        assert any(m.startswith("MESSAGE depth") for m in b.messages)
        # take back our move and the opponent's, then continue
        assert b.ask(f"TAKEBACK {second[0]},{second[1]}") == "OK"
        assert b.ask(f"TAKEBACK {reply[0]},{reply[1]}") == "OK"
        again = b.move(f"TURN {reply[0]},{reply[1]}")
        assert again not in (first, reply)

        # a BOARD with many stones where we (1) have an open four: we must make five
        own = [(3, 3), (4, 3), (5, 3), (6, 3), (10, 10), (11, 12), (2, 12), (13, 1)]
        opp = [(5, 5), (6, 6), (8, 8), (9, 9), (12, 3), (1, 1), (0, 14), (14, 0)]
        board = [f"{x},{y},1" for x, y in own] + [f"{x},{y},2" for x, y in opp]
        assert b.move("BOARD", *board, "DONE") in ((2, 3), (7, 3))
        # as white (one more opponent stone) facing a four closed on one side: we must block
        opp2 = [(3, 7), (4, 7), (5, 7), (6, 7), (12, 12)]
        own2 = [(2, 7), (10, 2), (11, 3), (12, 4)]
        board2 = [f"{x},{y},2" for x, y in opp2] + [f"{x},{y},1" for x, y in own2]
        assert b.move("BOARD", *board2, "DONE") == (7, 7)
        # a BOARD whose counts cannot be a game
        assert b.ask("BOARD", "1,1,1", "2,2,1", "DONE").startswith("ERROR")
        assert b.ask("RESTART") == "OK"
        b.send("INFO rule 4")
        # renju: black (the opponent) ends the BOARD on a double-three point
        black = [(7, 5), (8, 5), (6, 6), (6, 7), (6, 5)]
        white = [(0, 0), (0, 2), (14, 0), (14, 2)]
        lines = [f"{x},{y},2" for x, y in black] + [f"{x},{y},1" for x, y in white]
        assert b.ask("BOARD", *lines, "DONE") == "ERROR 6,5 is forbidden for black (double three)"
        assert b.ask("ABOUT").startswith('name="')
        b.send("END")
        assert b.proc.wait(timeout=30) == 0
    finally:
        if b.proc.poll() is None:
            b.proc.kill()
            b.proc.wait()


@pytest.mark.skipif(not _engine_available(), reason="engine.py not written yet")
def test_brain_keeps_time_at_short_turn() -> None:
    b = BrainProcess()
    try:
        assert b.ask("START 15") == "OK"
        b.send("INFO timeout_turn 200")
        taken = {b.move("BEGIN")}  # the first search may pay one-off costs
        # scattered opponent moves along the edges; 4 stones of ours cannot make five yet
        ours = iter([(0, 0), (14, 0), (0, 14), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)])
        worst = 0.0
        for _ in range(3):
            mv = next(p for p in ours if p not in taken)
            t0 = time.monotonic()
            taken |= {mv, b.move(f"TURN {mv[0]},{mv[1]}")}
            worst = max(worst, time.monotonic() - t0)
        assert len(taken) == 7
        # generous bound: the brain aims at 200 ms minus a margin; allow for a slow box
        assert worst < 2.0
        b.send("END")
        assert b.proc.wait(timeout=30) == 0
    finally:
        if b.proc.poll() is None:
            b.proc.kill()
            b.proc.wait()


def test_no_book_option_and_bad_option() -> None:
    """--no-book makes the brain search even the first move; unknown options are refused."""
    brain = BrainProcess("--no-book")
    try:
        assert brain.ask("START 15") == "OK"
        assert brain.move("INFO timeout_turn 300", "BEGIN") == (7, 7)
        assert not any("source book" in m for m in brain.messages)
        brain.send("END")
        assert brain.proc.wait(timeout=30) == 0
    finally:
        if brain.proc.poll() is None:
            brain.proc.kill()
    bad = subprocess.run(
        [sys.executable, "-m", "gomoku.pbrain", "--bogus"],
        input="",
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(PY_DIR)),
        timeout=60,
    )
    assert bad.returncode == 2 and "unknown option" in bad.stderr


def test_command_line_options_are_read_or_refused() -> None:
    read = pbrain_text.command_line_options
    assert read([]) == pbrain_text.BrainOptions()
    opts = read(["--no-threats", "--threads", "3", "--no-book"])
    assert opts.threads == 3 and not opts.help
    assert opts.overrides == {"use_threats": False, "use_book": False}
    assert read(["-h"]).help and read(["--help"]).help
    for bad in (["--threads"], ["--threads", "two"], ["--fast"], ["no-book"]):
        with pytest.raises(ProtocolError):
            read(bad)


def test_the_threads_option_is_the_brain_s_thread_count(monkeypatch) -> None:
    """--threads N sets the brain's processes as INFO thread_num N would (clamped), with no
    INFO line of its own."""
    started = []
    monkeypatch.setattr(pbrain, "GameSearch", lambda n: started.append(n) or n)
    out: list[str] = []
    assert Brain(out.append, threads=20).threads == pbrain.MAX_THREADS
    assert Brain(out.append, threads=0).threads == 1 and Brain(out.append).threads == 1
    assert started == [pbrain.MAX_THREADS] and out == []


def test_thread_num_two_searches_on_processes() -> None:
    """INFO thread_num 2 makes the brain search with the parallel driver: legal answers,
    within a generous bound of the turn time."""
    brain = BrainProcess("--no-book")
    try:
        assert brain.ask("START 15") == "OK"
        brain.send("INFO thread_num 2", "INFO timeout_turn 500")
        taken = {(7, 7), (8, 8), (9, 9)}
        start = time.perf_counter()
        first = brain.move("BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE")
        assert time.perf_counter() - start < 500 / 1000 + 2.0
        assert first not in taken
        taken.add(first)
        assert brain.move("TURN 6,6") not in taken | {(6, 6)}
        brain.send("END")
        assert brain.proc.wait(timeout=30) == 0
    finally:
        if brain.proc.poll() is None:
            brain.proc.kill()


# ----------------------------------------------------------------------------------------
# Node-limited play is deterministic


def _node_limited_self_play(nodes: int, plies: int) -> list[tuple[str, int]]:
    """Two real brains (in this process) play each other from the empty board under
    INFO max_node; returns each answer with the node count of its result MESSAGE."""
    outs: list[list[str]] = [[], []]
    brains = [Brain(outs[0].append), Brain(outs[1].append)]
    for b in brains:
        for line in ("INFO timeout_turn 120000", f"INFO max_node {nodes}", "START 15"):
            b.handle(line)
    played: list[tuple[str, int]] = []
    command = "BEGIN"
    for ply in range(plies):
        out = outs[ply % 2]
        out.clear()
        brains[ply % 2].handle(command)
        answers = _answers(out)
        assert len(answers) == 1 and not answers[0].startswith("ERROR"), out
        result = [m for m in out if m.startswith("MESSAGE")][-1]  # the move's totals
        nodes_reported = int(result.split(" nodes ")[1].split()[0])
        played.append((answers[0], nodes_reported))
        if brains[ply % 2].engine.is_over:
            break
        command = f"TURN {answers[0]}"
    return played


@pytest.mark.skipif(not _engine_available(), reason="engine.py not written yet")
def test_max_node_play_is_deterministic_under_load() -> None:
    """The same node-limited game twice, the second time with a thread hogging the CPU
    (and the GIL) in this process: same moves, same node counts. The book has close
    alternatives for white's first reply, so an unseeded book choice would show."""
    quiet = _node_limited_self_play(1500, 16)
    stop = threading.Event()

    def hog() -> None:
        x = 0
        while not stop.is_set():
            x = (x * 31 + 7) % 1000003

    spinner = threading.Thread(target=hog, daemon=True)
    spinner.start()
    try:
        loaded = _node_limited_self_play(1500, 16)
    finally:
        stop.set()
        spinner.join()
    assert loaded == quiet
    assert sum(n for _, n in quiet) > 5 * 1500  # real searches took part, not only the book


@pytest.mark.skipif(not _engine_available(), reason="engine.py not written yet")
def test_max_node_play_is_the_same_in_fresh_processes() -> None:
    """Two brain processes with different string-hash seeds answer the same moves with
    the same node counts (nothing depends on set order of hashed objects or on time)."""
    runs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONPATH=str(PY_DIR), PYTHONHASHSEED=hash_seed)
        script = "\n".join(
            ["INFO timeout_turn 120000", "INFO max_node 1200", "START 15",
             "BOARD", "7,7,2", "8,6,1", "9,7,2", "DONE", "TURN 6,8", "TURN 10,8", "END"]
        )  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "-m", "gomoku.pbrain", "--no-book"],
            input=script + "\n", capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        moves = [s for s in lines if s[:1].isdigit()]
        totals = [
            s.split(" nodes ")[1].split()[0]
            for s, nxt in zip(lines, lines[1:], strict=False)
            if s.startswith("MESSAGE") and nxt[:1].isdigit()
        ]
        assert len(moves) == 3 and len(totals) == 3, proc.stdout
        runs.append((moves, totals))
    assert runs[0] == runs[1]


# ----------------------------------------------------------------------------------------
# SWAP2BOARD (Gomocup's swap2 opening)


def _swap2_brain(nodes: int = 1500) -> tuple[Brain, list[str]]:
    out: list[str] = []
    brain = Brain(out.append)
    for line in ("INFO rule 1", f"INFO max_node {nodes}", "START 15"):
        brain.handle(line)
    out.clear()
    return brain, out


def _swap2(brain: Brain, out: list[str], *stones: str) -> list[str]:
    out.clear()
    for line in ("SWAP2BOARD", *stones, "DONE"):
        assert brain.handle(line)
    return _answers(out)


def _stones_of(answer: str) -> list[tuple[int, int]]:
    return [parse_point(word, 15) for word in answer.split()]


def test_swap2board_opens_with_three_stones_of_the_balanced_set() -> None:
    from gomoku.engine.opening_play import proposed_stones

    brain, out = _swap2_brain()
    answers = [_swap2(brain, out)[0] for _ in range(6)]
    assert any(line.startswith("MESSAGE swap2") for line in out)
    for i, answer in enumerate(answers):
        # the n-th opening of the process, drawn with the seed (0) and n
        assert _stones_of(answer) == proposed_stones(Rule.STANDARD, 15, i)
    assert len(set(answers)) >= 2  # consecutive games get other openings


@pytest.mark.parametrize(("white_score", "answer"), [(-400, "SWAP"), (400, "move"), (0, "two")])
def test_swap2board_three_stones_each_choice(monkeypatch, white_score, answer) -> None:
    def scripted(engine, limits):
        def evaluate(moves, k):
            free = [(x, 0) for x in range(15) if (x, 0) not in moves]
            return [(p, white_score if len(moves) == 3 else 10) for p in free[:k]]

        return evaluate

    monkeypatch.setattr(pbrain_swap2, "engine_evaluator", scripted)
    brain, out = _swap2_brain()
    got = _swap2(brain, out, "7,7", "8,7", "9,9")
    assert len(got) == 1
    assert any("white's chance after its best move" in line for line in out)
    if answer == "SWAP":
        assert got == ["SWAP"]
    elif answer == "move":  # we take white and play the 4th move (a real search)
        (move,) = _stones_of(got[0])
        assert move not in [(7, 7), (8, 7), (9, 9)]
        assert any(line.startswith("MESSAGE depth") for line in out)
    else:  # two more stones, from the scripted moves
        assert _stones_of(got[0]) == [(0, 0), (1, 0)]


def test_swap2board_five_stones_swap_or_the_sixth_move(monkeypatch) -> None:
    brain, out = _swap2_brain()
    five = ("7,7", "8,7", "9,9", "8,8", "8,6")
    got = _swap2(brain, out, *five)
    assert len(got) == 1
    if got[0] != "SWAP":
        (move,) = _stones_of(got[0])
        assert move not in _stones_of(" ".join(five))
    for score, expected in ((-300, "SWAP"), (300, None)):
        monkeypatch.setattr(
            pbrain_swap2, "engine_evaluator", lambda e, lim, s=score: lambda m, k: [((0, 0), s)]
        )
        got = _swap2(brain, out, *five)
        if expected:
            assert got == [expected]
        else:
            assert got != ["SWAP"] and len(_stones_of(got[0])) == 1


def test_swap2board_reads_rapfi_s_fields_and_refuses_what_is_not_swap2() -> None:
    brain, out = _swap2_brain()
    got = _swap2(brain, out, "7,7,2", "8,7,1", "9,9,2")  # Rapfi's form: x,y,field
    assert len(got) == 1 and not got[0].startswith("ERROR")
    for stones, says in [
        (("7,7", "8,7"), "0, 3 or 5 stones, got 2"),
        (("7,7", "8,7", "9,9", "1,1"), "got 4"),
        (("7,7", "8,7", "7,7"), "is taken"),
        (("7,7", "8,7", "99,9"), "off the 15x15 board"),
        (("7,7", "8,7", "9;9"), "malformed SWAP2BOARD line"),
        (("7,7", "8,7", "9,9,x"), "malformed SWAP2BOARD field"),
    ]:
        got = _swap2(brain, out, *stones)
        assert got[0].startswith("ERROR") and says in got[0], (stones, got)
    brain.handle("INFO rule 4")
    assert _swap2(brain, out) == ["ERROR swap2 is not an opening rule of renju"]
    brain.handle("INFO rule 0")  # the brain goes on afterwards
    assert len(_stones_of(_swap2(brain, out)[0])) == 3
    fresh: list[str] = []
    before = Brain(fresh.append)
    for line in ("SWAP2BOARD", "DONE"):
        before.handle(line)
    assert _answers(fresh)[0] == "ERROR SWAP2BOARD before START"


def test_swap2board_node_limit_or_a_share_of_the_turn() -> None:
    brain, _ = _swap2_brain(nodes=60000)  # one answer's searches share the limit
    share = 60000 // pbrain_limits.SWAP2_NODE_SHARE
    assert swap2_limits(brain.times, brain.max_nodes).nodes == share
    brain.handle("INFO max_node 777")
    assert swap2_limits(brain.times, brain.max_nodes).nodes == pbrain_limits.SWAP2_MIN_NODES
    brain.handle("INFO max_node 0")
    brain.handle("INFO timeout_turn 6000")
    limits = swap2_limits(brain.times, brain.max_nodes)
    assert limits.nodes is None and limits.turn_ms == 6000 // pbrain_limits.SWAP2_SEARCHES


def test_swap2board_through_a_pipe() -> None:
    b = BrainProcess()
    try:
        assert b.ask("START 15") == "OK"
        b.send("INFO rule 1", "INFO max_node 2000", "INFO timeout_turn 30000")
        opening = b.ask("SWAP2BOARD", "DONE")
        assert len(opening.split()) == 3
        choice = b.ask("SWAP2BOARD", *opening.split(), "DONE")
        assert choice == "SWAP" or 1 <= len(choice.split()) <= 2
        assert any(m.startswith("MESSAGE swap2") for m in b.messages)
        b.send("END")
        assert b.proc.wait(timeout=30) == 0
    finally:
        if b.proc.poll() is None:
            b.proc.kill()
            b.proc.wait()
