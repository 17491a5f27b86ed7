"""The match runner's swap2 mode (gomoku_lab.swap2): the SWAP2BOARD exchange with scripted
engines (every choice, every fault and whose it is), the summary's counts, the records,
and a short match of our brain against itself with no protocol fault."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gomoku.core.rules import Rule
from gomoku_lab.match import swap2_lines
from gomoku_lab.processes import EngineProcess
from gomoku_lab.referee import GameResult, GameSpec, MatchConfig
from gomoku_lab.swap2 import Swap2Fault, parse_reply, play_swap2_game

ROOT = Path(__file__).resolve().parents[2]
PY_DIR = ROOT / "py"

# A Gomocup engine for the tests: plays the free cell nearest the centre; answers
# SWAP2BOARD by its mode: OPEN the three stones it opens with, CHOOSE its answer to three
# stones, FINAL its answer to five ("first" there: the first free cell); "slow" and
# "crash" as said.
SCRIPTED = textwrap.dedent(
    """
    import sys, time
    OPEN, CHOOSE, FINAL = sys.argv[1], sys.argv[2], sys.argv[3]
    size = 15
    board = {}
    log = open(sys.argv[4], "a") if len(sys.argv) > 4 else None
    def out(s):
        sys.stdout.write(s + "\\n"); sys.stdout.flush()
    def free():
        c = size // 2
        cells = sorted(((x, y) for x in range(size) for y in range(size)),
                       key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), p[1], p[0]))
        return [p for p in cells if p not in board]
    def move():
        p = free()[0]; board[p] = 1; out(f"{p[0]},{p[1]}")
    def answer(text):
        if text == "slow":
            time.sleep(30)
        if text == "crash":
            sys.exit(3)
        if text == "first":
            p = free()[0]; text = f"{p[0]},{p[1]}"
        out("MESSAGE swap2 scripted"); out(text.replace("_", " "))
    for line in sys.stdin:
        if log:
            log.write(line); log.flush()
        parts = line.strip().split(" ", 1)
        cmd = parts[0].upper()
        arg = parts[1] if len(parts) > 1 else ""
        if cmd == "START":
            size = int(arg); board = {}; out("OK")
        elif cmd == "RESTART":
            board = {}; out("OK")
        elif cmd == "ABOUT":
            out('name="scripted", version="1"')
        elif cmd in ("BOARD", "SWAP2BOARD"):
            board = {}
            for l2 in sys.stdin:
                if log:
                    log.write(l2); log.flush()
                if l2.strip().upper() == "DONE":
                    break
                x, y = map(int, l2.split(",")[:2]); board[(x, y)] = 2
            if cmd == "BOARD":
                move()
            else:
                answer({0: OPEN, 3: CHOOSE, 5: FINAL}[len(board)])
        elif cmd == "TURN":
            x, y = map(int, arg.split(",")); board[(x, y)] = 2; move()
        elif cmd == "END":
            break
    """
)

OPENING = "7,7_8,6_5,5"  # three stones far from the cells the engines play first


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("swap2") / "scripted.py"
    path.write_text(SCRIPTED)
    return path


def cmd(script: Path, choose: str = "SWAP", final: str = "SWAP", opening: str = OPENING) -> str:
    return f"{sys.executable} {script} {opening} {choose} {final}"


def play(cfg: MatchConfig, opener: int = 0) -> GameResult:
    engines = [EngineProcess(cfg.engine1, "engine1"), EngineProcess(cfg.engine2, "engine2")]
    try:
        return play_swap2_game(engines, GameSpec(opener, 0, [], opener), cfg)
    finally:
        for e in engines:
            e.stop()


def config(first: str, second: str, **kw) -> MatchConfig:
    return MatchConfig(first, second, turn_ms=2000, tolerance_ms=3000, rule=Rule.STANDARD, **kw)


def test_replies_are_read():
    assert parse_reply("SWAP", 15) == "SWAP" and parse_reply(" swap ", 15) == "SWAP"
    assert parse_reply("7,7 8,8", 15) == [(7, 7), (8, 8)]
    for bad in ("7,7 8", "15,3", "x,y", "", "SWAP 7,7"):
        with pytest.raises(Swap2Fault) as e:
            parse_reply(bad, 15)
        assert e.value.kind == "illegal"


@pytest.mark.parametrize(
    ("choose", "final", "black", "choice", "stones"),
    [
        ("SWAP", "SWAP", 1, "black", 3),  # the second player (engine2) takes black
        ("first", "SWAP", 0, "white", 4),  # it takes white and plays the 4th move
        ("9,9_3,3", "SWAP", 0, "two", 5),  # two more; the first player takes black
        ("9,9_3,3", "first", 1, "two", 6),  # two more; the first player takes white
    ],
)
def test_each_way_the_opening_can_go(script, choose, final, black, choice, stones):
    engine = cmd(script, choose, final)
    res = play(config(engine, engine))
    assert res.spec.black == black and res.swap2["choice"] == choice
    assert res.swap2["opener"] == "engine1"
    assert len(res.spec.opening) == stones and res.moves[:stones] == res.spec.opening
    assert res.spec.opening[:3] == [(7, 7), (8, 6), (5, 5)]
    assert res.kind in ("five", "full"), res.reason  # then the game was played out
    assert res.swap2["final"] == (
        {"SWAP": "black", "first": "white"}[final] if choice == "two" else None
    )
    assert len(res.swap2["times_ms"]) == (3 if choice == "two" else 2)
    assert res.swap2["messages"][0] == "swap2 scripted"


def test_engine2_opens_the_second_game_of_a_pair(script):
    res = play(config(cmd(script, "SWAP"), cmd(script, "SWAP")), opener=1)
    assert res.swap2["opener"] == "engine2" and res.spec.black == 0  # engine1 took black


def test_the_stones_are_sent_with_fields_as_rapfi_reads_them(script, tmp_path):
    log = tmp_path / "second.log"
    first = cmd(script)
    second = f"{cmd(script, 'SWAP')} {log}"
    play(config(first, second))
    lines = log.read_text().splitlines()
    i = lines.index("SWAP2BOARD")
    # white to move: white's stone is the side to move's (1), black's the other's (2)
    assert lines[i + 1 : i + 5] == ["7,7,2", "8,6,1", "5,5,2", "DONE"]


@pytest.mark.parametrize(
    ("first", "second", "loser", "kind", "says"),
    [
        (("7,7_8,6",), ("SWAP",), 0, "illegal", "three stones"),
        (("7,7_8,6_7,7",), ("SWAP",), 0, "illegal", "is taken"),
        (("SWAP",), ("SWAP",), 0, "illegal", "three stones"),
        ((OPENING,), ("1,1_2,2_3,3",), 1, "illegal", "3 stones where SWAP, one or two go"),
        ((OPENING,), ("7,7",), 1, "illegal", "is taken"),
        ((OPENING,), ("9,9_7,7",), 1, "illegal", "is taken"),
        ((OPENING,), ("nonsense",), 1, "illegal", "bad answer"),
        ((OPENING, "9,9_3,3", "1,1_2,2"), ("9,9_3,3",), 0, "illegal", "2 stones where one"),
        ((OPENING,), ("crash",), 1, "crash", "swap2"),
        ((OPENING, "SWAP", "slow"), ("9,9_3,3",), 0, "time", "no answer within"),
    ],
)
def test_a_bad_answer_loses_for_the_engine_that_gave_it(script, first, second, loser, kind, says):
    opening = first[0]
    final = first[2] if len(first) > 2 else "SWAP"
    cfg = config(cmd(script, "SWAP", final, opening), cmd(script, second[0]))
    if kind == "time":
        cfg.turn_ms, cfg.tolerance_ms = 300, 300
    res = play(cfg)
    assert res.winner == 1 - loser and res.kind == kind, res.reason
    assert res.reason.startswith(f"engine{loser + 1} swap2") and says in res.reason
    assert "fault" in res.swap2


def test_the_summary_counts_choices_and_results():
    def result(opener, choice, final, winner, black):
        r = GameResult(GameSpec(0, 0, [], black), winner, "five", "x")
        r.swap2 = {"opener": opener, "choice": choice, "final": final}
        return r

    lines = swap2_lines(
        [
            result("engine1", "black", None, 1, 1),
            result("engine1", "two", "white", 0, 1),
            result("engine2", "white", None, None, 1),
            result("engine2", "two", "black", 0, 1),
            GameResult(
                GameSpec(0, 0, [], 0), 1, "illegal", "x", swap2={"opener": "engine1", "fault": "f"}
            ),
        ],
        ["ours", "rapfi"],
    )
    assert lines[0] == "swap2: 4 openings played, 1 faulty"
    assert "engine1 (ours) as second player: white 1 (+0 -0 =1), two 1 (+1 -0 =0)" in lines
    assert "engine1 (ours) as first player after two: white 1 (+1 -0 =0)" in lines
    assert "engine2 (rapfi) as second player: black 1 (+1 -0 =0), two 1 (+0 -1 =0)" in lines
    assert "engine2 (rapfi) as first player after two: black 1 (+0 -1 =0)" in lines
    assert swap2_lines([GameResult(GameSpec(0, 0, [], 0), 0, "five", "x")], ["a", "b"]) == []


def test_the_match_command_plays_swap2_pairs_and_records_them(script, tmp_path, capsys):
    from gomoku_lab import match

    records = tmp_path / "games.jsonl"
    code = match.main([
        "--engine1", cmd(script, "SWAP"), "--engine2", cmd(script, "9,9_3,3", "first"),
        "--swap2", "--games", "2", "--turn-ms", "2000", "--rule", "standard",
        "--records", str(records),
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "swap2 openings by the engines" in out
    assert "(swap2 by engine1: two, black: h8 i9 f10 j6 d12; black=engine1)" in out
    assert "(swap2 by engine2: black: h8 i9 f10; black=engine1)" in out
    assert "swap2: 2 openings played, 0 faulty" in out
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["swap2"]["opener"] for r in recs] == ["engine1", "engine2"]
    assert recs[1]["swap2"]["choice"] == "black"  # engine1's answer to engine2's stones
    with pytest.raises(SystemExit) as stop:  # a resumed match needs a file's openings
        match.main(["--engine1", "a", "--engine2", "b", "--swap2", "--resume", "x"])
    assert stop.value.code == 2


@pytest.mark.slow
def test_our_brain_plays_a_swap2_pair_against_itself_without_a_fault(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(PY_DIR))
    brain = f"{sys.executable} -m gomoku.pbrain"
    records = tmp_path / "games.jsonl"
    proc = subprocess.run(
        [
            sys.executable, "-m", "gomoku_lab.match", "--engine1", brain, "--engine2", brain,
            "--swap2", "--games", "2", "--nodes", "600", "--rule", "standard",
            "--records", str(records),
        ],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(recs) == 2
    for r in recs:
        assert "fault" not in r["swap2"], r["swap2"]
        assert r["reason"].endswith("made five") or r["reason"] == "board full", r["reason"]
        assert r["swap2"]["messages"][0].startswith("swap2")
