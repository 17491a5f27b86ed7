"""Tests of the match runner: statistics, referee, openings, and matches between engines.

Fake Gomocup engines (small scripts written to a temporary folder) check that a crash, an
illegal move or a late answer loses; two copies of our own brain play a short real match.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gomoku.core.geometry import from_text, transform
from gomoku.core.rules import Rule
from gomoku_lab import match, pairs
from gomoku_lab.match import build_schedule
from gomoku_lab.openings import load_openings, parse_openings
from gomoku_lab.processes import EngineProcess
from gomoku_lab.referee import (
    GameResult,
    GameSpec,
    MatchConfig,
    find_five,
    parse_move_answer,
    play_game,
)
from gomoku_lab.stats import elo_from_score, elo_with_error, format_elo, score_stats

ROOT = Path(__file__).resolve().parents[2]
PY_DIR = ROOT / "py"

# ----------------------------------------------------------------------------------------
# Statistics against slow, obvious computations


def _expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _elo_by_bisection(score: float) -> float:
    lo, hi = -4000.0, 4000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if _expected_score(mid) < score:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _slow_elo_and_error(w: int, l: int, d: int) -> tuple[float, float]:
    outcomes = [1.0] * w + [0.0] * l + [0.5] * d
    mean = statistics.fmean(outcomes)
    se = math.sqrt(statistics.pvariance(outcomes) / len(outcomes))
    lo = _elo_by_bisection(mean - 1.96 * se)
    hi = _elo_by_bisection(mean + 1.96 * se)
    return _elo_by_bisection(mean), (hi - lo) / 2


@pytest.mark.parametrize(
    "w,l,d",
    [(10, 10, 0), (12, 5, 3), (3, 14, 3), (30, 10, 60), (2, 1, 3), (7, 2, 11), (55, 45, 0)],
)
def test_elo_matches_slow_computation(w: int, l: int, d: int) -> None:
    elo, err = elo_with_error(w, l, d)
    slow_elo, slow_err = _slow_elo_and_error(w, l, d)
    assert elo == pytest.approx(slow_elo, abs=1e-6)
    assert err == pytest.approx(slow_err, abs=1e-6)


def test_elo_known_values_and_edges() -> None:
    assert elo_from_score(0.5) == 0.0
    # 10^(1/4) ... a score of 1/(1+10^-0.25) is exactly +100 Elo
    assert elo_from_score(_expected_score(100.0)) == pytest.approx(100.0)
    assert elo_from_score(0.75) == pytest.approx(190.848501887865, abs=1e-9)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    score, se = score_stats(0, 0, 8)
    assert (score, se) == (0.5, 0.0)
    assert elo_with_error(0, 0, 8) == (0.0, 0.0)
    assert elo_with_error(5, 0, 0) == (math.inf, math.inf)
    assert elo_with_error(0, 3, 0) == (-math.inf, math.inf)
    assert elo_with_error(9, 1, 0)[1] == math.inf  # the upper bound reaches a score of 1
    with pytest.raises(ValueError):
        score_stats(0, 0, 0)
    assert format_elo(35.24, 80.06) == "+35.2 +/- 80.1"
    assert format_elo(-math.inf, math.inf) == "-inf +/- inf"
    assert format_elo(-0.0, 163.34) == "+0.0 +/- 163.3"
    assert format_elo(-0.04, 1.0) == "+0.0 +/- 1.0"


def test_score_stats_trinomial_variance() -> None:
    # 2 wins, 1 loss, 1 draw: mean 0.625; variance by hand
    score, se = score_stats(2, 1, 1)
    var = (2 * 0.375**2 + 1 * 0.625**2 + 1 * 0.125**2) / 4
    assert score == 0.625
    assert se == pytest.approx(math.sqrt(var / 4))


# ----------------------------------------------------------------------------------------
# Referee and parsing


def _board(size: int, black: list[str], white: list[str]) -> list[list[int]]:
    b = [[0] * size for _ in range(size)]
    for colour, stones in ((1, black), (2, white)):
        for t in stones:
            x, y = from_text(t, size)
            b[y][x] = colour
    return b


def test_find_five_freestyle_and_standard() -> None:
    five = ["d4", "e5", "f6", "g7", "h8"]
    b = _board(15, five, ["a1"])
    assert find_five(b, *from_text("f6", 15), Rule.FREESTYLE) is not None
    assert find_five(b, *from_text("f6", 15), Rule.STANDARD) is not None
    six = ["c8", "d8", "e8", "f8", "g8", "h8"]
    b = _board(15, six, [])
    assert find_five(b, *from_text("h8", 15), Rule.FREESTYLE) is not None
    assert find_five(b, *from_text("h8", 15), Rule.STANDARD) is None
    four = _board(15, ["h4", "h5", "h6", "h7"], ["h8"])
    assert find_five(four, *from_text("h4", 15), Rule.FREESTYLE) is None
    assert find_five(four, *from_text("h9", 15), Rule.FREESTYLE) is None  # empty cell
    # an anti-diagonal white five at the board edge
    edge = _board(15, [], ["a5", "b4", "c3", "d2", "e1"])
    line = find_five(edge, *from_text("c3", 15), Rule.STANDARD)
    assert line is not None and len(line) == 5


def test_parse_move_answer() -> None:
    assert parse_move_answer("7,8", 15) == (7, 8)
    assert parse_move_answer(" 14 , 0 \r", 15) == (14, 0)
    for bad in ("ERROR foo", "7 8", "15,0", "-1,3", "", "OK"):
        with pytest.raises(ValueError):
            parse_move_answer(bad, 15)


def test_parse_openings_comments_shift_and_errors() -> None:
    text = "# comment\n\nh8 i9 j10   # trailing comment\nh8,h9\n"
    ops = parse_openings(text, 15)
    assert ops == [[(7, 7), (8, 6), (9, 5)], [(7, 7), (7, 6)]]
    # on 19x19 the shapes move to the centre (shift 2)
    assert parse_openings("h8 i9", 19) == [[(9, 9), (10, 8)]]
    with pytest.raises(ValueError, match="line 2"):
        parse_openings("h8\nh8 z99\n", 15)
    with pytest.raises(ValueError, match="twice"):
        parse_openings("h8 i9 h8", 15)
    with pytest.raises(ValueError, match="five"):
        parse_openings("a1 a2 b1 b2 c1 c2 d1 d2 e1", 15)


def test_default_openings_file_is_varied_and_valid() -> None:
    ops = load_openings(ROOT / "openings" / "balanced.txt", 15)
    assert len(ops) >= 40
    keys = set()
    for op in ops:
        assert 2 <= len(op) <= 4
        assert all(3 <= x <= 11 and 3 <= y <= 11 for x, y in op)  # near the centre
        key = min(tuple((transform(k, x, y, 15) for x, y in op)) for k in range(8))
        keys.add(key)
    assert len(keys) == len(ops), "two openings are the same up to symmetry"


def test_schedule_pairs_colours_and_cycles() -> None:
    ops = [[(7, 7)], [(7, 7), (8, 8)], [(7, 7), (6, 6)]]
    specs = build_schedule(ops, 7, seed=None)
    assert [s.opening_index for s in specs] == [0, 0, 1, 1, 2, 2, 0]
    assert [s.black for s in specs] == [0, 1, 0, 1, 0, 1, 0]
    shuffled = build_schedule(ops, 6, seed=3)
    assert sorted(s.opening_index for s in shuffled) == [0, 0, 1, 1, 2, 2]
    assert build_schedule(ops, 6, seed=3) == shuffled  # deterministic


# ----------------------------------------------------------------------------------------
# Matches with fake engines

FAKE_ENGINE = textwrap.dedent(
    """
    import sys, time
    MODE = sys.argv[1]
    size = 15
    board = {}
    max_node = None
    def out(s):
        sys.stdout.write(s + "\\n"); sys.stdout.flush()
    def move():
        if MODE == "crash":
            sys.exit(3)
        if MODE == "slow":
            time.sleep(30)
        if MODE == "half":
            time.sleep(0.5)
        if MODE == "garbage":
            out("MESSAGE thinking hard"); out("hello"); return
        if MODE == "illegal" and board:
            x, y = next(iter(board))
            out(f"{x},{y}"); return
        c = size // 2
        cells = sorted(((x, y) for x in range(size) for y in range(size)),
                       key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), p[1], p[0]))
        for p in cells:
            if p not in board:
                board[p] = 1
                extra = f" max_node {max_node}" if max_node else ""
                out("MESSAGE depth 1" + extra); out(f"{p[0]},{p[1]}"); return
    for line in sys.stdin:
        parts = line.strip().split(" ", 1)
        cmd = parts[0].upper()
        arg = parts[1] if len(parts) > 1 else ""
        if cmd == "START":
            size = int(arg); board = {}; out("OK")
        elif cmd == "RESTART":
            board = {}; out("OK")
        elif cmd == "INFO" and arg.startswith("max_node "):
            max_node = int(arg.split()[1])
        elif cmd == "ABOUT":
            out(f'name="fake-{MODE}", version="1"')
        elif cmd == "BEGIN":
            move()
        elif cmd == "TURN":
            x, y = map(int, arg.split(",")); board[(x, y)] = 2; move()
        elif cmd == "BOARD":
            board = {}
            for l2 in sys.stdin:
                if l2.strip().upper() == "DONE":
                    break
                x, y, f = map(int, l2.split(",")); board[(x, y)] = f
            move()
        elif cmd == "END":
            break
    """
)


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    path.write_text(FAKE_ENGINE)
    return path


def _cmd(fake: Path, mode: str) -> str:
    return f"{sys.executable} {fake} {mode}"


def _play_two(cfg: MatchConfig, opening: list[tuple[int, int]]) -> list[GameResult]:
    engines = [
        EngineProcess(cfg.engine1, "engine1"),
        EngineProcess(cfg.engine2, "engine2"),
    ]
    try:
        return [play_game(engines, GameSpec(i, 0, opening, i), cfg) for i in (0, 1)]
    finally:
        for e in engines:
            e.stop()


@pytest.mark.parametrize(
    "mode,kind", [("crash", "crash"), ("illegal", "illegal"), ("garbage", "illegal")]
)
def test_faulty_engine_loses_with_either_colour(fake: Path, mode: str, kind: str) -> None:
    cfg = MatchConfig(_cmd(fake, mode), _cmd(fake, "good"), turn_ms=500, tolerance_ms=5000)
    results = _play_two(cfg, [(7, 7), (8, 8)])
    for r in results:
        assert r.winner == 1, r.reason
        assert r.kind == kind
        assert r.reason.startswith("engine1")


def test_slow_engine_loses_on_time(fake: Path) -> None:
    cfg = MatchConfig(_cmd(fake, "good"), _cmd(fake, "slow"), turn_ms=100, tolerance_ms=1500)
    engines = [
        EngineProcess(cfg.engine1, "engine1"),
        EngineProcess(cfg.engine2, "engine2"),
    ]
    try:
        res = play_game(engines, GameSpec(0, 0, [(7, 7)], 0), cfg)
        assert res.winner == 0 and res.kind == "time", res.reason
        assert not engines[1].alive  # the late engine was stopped
        # the next game restarts it (and it loses on time again)
        res = play_game(engines, GameSpec(1, 0, [(7, 7)], 1), cfg)
        assert res.winner == 0 and res.kind == "time"
    finally:
        for e in engines:
            e.stop()


@pytest.mark.slow
def test_each_engine_is_held_to_its_own_time_per_move(fake: Path) -> None:
    """--turn-ms1 / --turn-ms2: a 0.5 s answer is in time under 2 s and late under 0.1 s."""
    for own_ms, late in ((2000, False), (100, True)):
        cfg = MatchConfig(
            _cmd(fake, "good"), _cmd(fake, "half"), turn_ms=2000, turn_ms2=own_ms, tolerance_ms=200
        )
        assert cfg.turn_ms_of(0) == 2000 and cfg.turn_ms_of(1) == own_ms
        engines = [EngineProcess(cfg.engine1, "engine1"), EngineProcess(cfg.engine2, "engine2")]
        try:
            res = play_game(engines, GameSpec(0, 0, [(7, 7)], 0), cfg)
            if late:
                assert res.winner == 0 and res.kind == "time", res.reason
            else:
                assert res.kind != "time", res.reason
        finally:
            for e in engines:
                e.stop()


def test_match_main_with_fake_engines_writes_summary_and_records(
    fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "ops.txt"
    openings.write_text("# two openings\nh8 i9\nh8 h9 j8\n")
    records = tmp_path / "games.jsonl"
    code = match.main(
        [
            "--engine1", _cmd(fake, "good"),
            "--engine2", _cmd(fake, "illegal"),
            "--games", "4", "--turn-ms", "300", "--tolerance-ms", "5000",
            "--openings", str(openings), "--records", str(records), "--concurrency", "2",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("] game ") == 4
    assert "Result: engine1 fake-good vs engine2 fake-illegal: +4 -0 =0 of 4" in out
    assert "reported search depth (last MESSAGE per move): mean 1.0" in out
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert sorted(r["game"] for r in recs) == [1, 2, 3, 4]
    assert all(r["winner"] == "engine1" for r in recs)
    assert {r["black"] for r in recs} == {"engine1", "engine2"}
    assert all(r["infos"][0] in ("depth 1", "") for r in recs)


def test_good_fakes_play_to_a_result_and_referee_checks_it(fake: Path) -> None:
    cfg = MatchConfig(_cmd(fake, "good"), _cmd(fake, "good"), turn_ms=500, tolerance_ms=5000)
    for r in _play_two(cfg, [(7, 7)]):
        assert r.kind in ("five", "full")
        # replay the game independently: all cells distinct, and a five ends it exactly
        assert len(set(r.moves)) == len(r.moves)
        if r.kind == "five":
            b = [[0] * 15 for _ in range(15)]
            for i, (x, y) in enumerate(r.moves):
                b[y][x] = 1 + i % 2
                done = find_five(b, x, y, Rule.FREESTYLE)
                assert (done is not None) == (i == len(r.moves) - 1)


# ----------------------------------------------------------------------------------------
# A real match: two copies of our brain


def _engine_available() -> bool:
    return (PY_DIR / "gomoku" / "engine" / "facade.py").exists()


@pytest.mark.skipif(not _engine_available(), reason="engine.py not written yet")
def test_our_brain_self_play_match(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(PY_DIR))
    brain = f"{sys.executable} -m gomoku.pbrain"
    records = tmp_path / "games.jsonl"
    proc = subprocess.run(
        [
            sys.executable, "-m", "gomoku_lab.match", "--engine1", brain, "--engine2", brain,
            "--games", "2", "--turn-ms", "50", "--tolerance-ms", "3000",
            "--records", str(records),
        ],
        env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    result = [line for line in proc.stdout.splitlines() if line.startswith("Result:")]
    assert len(result) == 1
    assert " of 2," in result[0] and "Elo" in result[0]
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(recs) == 2
    for r in recs:
        # our engine never loses by a protocol fault against itself
        assert r["reason"].endswith("made five") or r["reason"] == "board full", r


# ----------------------------------------------------------------------------------------
# Fixed nodes, pairs, SPRT, records


def _fake_openings(tmp_path: Path) -> Path:
    openings = tmp_path / "ops.txt"
    openings.write_text("h8 i9\nh8 h9 j8\nh8 g9 g7\n")
    return openings


def test_nodes_options_send_max_node_with_a_generous_turn_cap(
    fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "games.jsonl"
    code = match.main(
        [
            "--engine1", _cmd(fake, "good"), "--engine2", _cmd(fake, "good"),
            "--nodes1", "123", "--nodes2", "456", "--games", "2",
            "--openings", str(_fake_openings(tmp_path)), "--records", str(records),
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert f"turn cap {match.default_turn_ms([123, 456])} ms/move" in out
    assert match.default_turn_ms([123, 456]) >= 10_000
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(recs) == 2
    for rec in recs:
        assert (rec["nodes1"], rec["nodes2"]) == (123, 456)
        opening = len(rec["opening"].split())
        for i, info in enumerate(rec["infos"]):
            black_to_move = (opening + i) % 2 == 0
            engine = rec["black"] if black_to_move else rec["white"]
            assert info == f"depth 1 max_node {123 if engine == 'engine1' else 456}"
    # --nodes gives both the same budget; no --turn-ms and no --nodes is refused
    code = match.main(
        ["--engine1", _cmd(fake, "good"), "--engine2", _cmd(fake, "good"), "--nodes", "77",
         "--games", "1", "--openings", str(_fake_openings(tmp_path)), "--records", str(records)]
    )  # fmt: skip
    assert code == 0 and "77 nodes/move" in capsys.readouterr().out
    rec = json.loads(records.read_text())
    assert rec["infos"] and all(i == "depth 1 max_node 77" for i in rec["infos"])
    with pytest.raises(SystemExit):
        match.main(["--engine1", "a", "--engine2", "b", "--games", "2"])


@pytest.mark.parametrize("better,verdict", [(0, "H1 accepted"), (1, "H0 accepted")])
def test_sprt_stops_the_match_at_a_decision(
    fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], better: int, verdict: str
) -> None:
    """A sound engine against one that plays an illegal move: every pair is won by the
    sound one, and an SPRT [0, 200] decides after a few pairs, long before --games."""
    cmds = [_cmd(fake, "illegal"), _cmd(fake, "illegal")]
    cmds[better] = _cmd(fake, "good")
    code = match.main(
        ["--engine1", cmds[0], "--engine2", cmds[1], "--turn-ms", "2000", "--games", "100",
         "--sprt", "0", "200", "--openings", str(_fake_openings(tmp_path))]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    final = next(line for line in out.splitlines() if line.startswith("SPRT: ") and "final" in line)
    assert final.startswith(f"SPRT: {verdict} after ")
    pairs = int(final.split(" after ")[1].split()[0])
    games = out.count("] game ")
    assert 2 <= pairs < 50 and games == 2 * pairs  # one game at a time: none after the stop
    assert out.count("\npairs ") == pairs and "LLR" in out


def _result(index: int, winner: int | None) -> GameResult:
    spec = GameSpec(index, index // 2, [(7, 7)], index % 2)
    return GameResult(spec, winner, "five" if winner is not None else "full", "r")


def test_pair_statistics_are_recomputed_from_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(5)
    results = [_result(i, rng.choice([0, 1, None])) for i in range(41)]  # one unpaired
    expected = pairs.pentanomial_of(results)
    assert expected.pairs == 20
    cfg = MatchConfig("a", "b")
    records = [pairs.game_record(r, cfg, ["a", "b"]) for r in results]
    rng.shuffle(records)
    assert pairs.pentanomial_from_records(records) == expected
    # records of older runs have neither "pair" nor "score1"
    old = [{k: v for k, v in r.items() if k not in ("pair", "score1")} for r in records]
    assert pairs.pentanomial_from_records(old) == expected
    # and from the command line, with an SPRT
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert match.main(["--from-records", str(path), "--sprt", "0", "20"]) == 0
    out = capsys.readouterr().out
    assert f"pairs 20 {expected.text()}" in out and "LLR" in out
    with pytest.raises(ValueError):
        pairs.pentanomial_from_records(records + records[:1])


def test_resume_counts_complete_pairs_and_plays_only_the_rest(
    fake: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interrupted match resumed gives the records of the uninterrupted one: complete
    pairs kept and counted, the unpaired game replayed, the rest played and appended."""
    openings = _fake_openings(tmp_path)
    args = ["--engine1", _cmd(fake, "good"), "--engine2", _cmd(fake, "good"),
            "--games", "6", "--turn-ms", "2000", "--openings", str(openings)]  # fmt: skip
    full = tmp_path / "full.jsonl"
    assert match.main([*args, "--records", str(full)]) == 0
    whole = {r["game"]: r for r in pairs.read_records(full)}
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(json.dumps(whole[g]) + "\n" for g in (2, 1, 3)))
    capsys.readouterr()
    assert match.main([*args, "--resume", str(cut)]) == 0
    out = capsys.readouterr().out
    assert "resumed pairs 1 " in out
    assert out.count("] game ") == 4  # game 3 lost its partner: played again with 4, 5, 6
    assert "of 3 pairs (with 1 resumed)" in out
    resumed = {r["game"]: r for r in pairs.read_records(cut)}
    assert sorted(resumed) == [1, 2, 3, 4, 5, 6]
    assert all(resumed[g]["moves"] == whole[g]["moves"] for g in whole)
    assert pairs.pentanomial_from_records(resumed.values()) == pairs.pentanomial_from_records(
        whole.values()
    )
    # another openings file gives other games: refused, the file left as it was
    other = tmp_path / "other.txt"
    other.write_text("h8 j10\nh8 h10 j8\nh8 g10 g7\n")
    before = cut.read_text()
    bad = [*args[:-1], str(other), "--resume", str(cut)]
    assert match.main(bad) == 2
    assert "not the same openings" in capsys.readouterr().err
    assert cut.read_text() == before


def test_revision_specs() -> None:
    from gomoku_lab.revisions import RevisionError, parse_revision_spec

    assert parse_revision_spec("python -m gomoku.pbrain") is None
    assert parse_revision_spec("rev:main") == ("main", [])
    assert parse_revision_spec(" rev:43bc1d6 --no-book ") == ("43bc1d6", ["--no-book"])
    with pytest.raises(RevisionError):
        parse_revision_spec("rev:")


def _in_git_checkout() -> bool:
    probe = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"], capture_output=True
    )
    return probe.returncode == 0


def _exported_folder(line: str) -> Path:
    return Path(line.split("exported to ", 1)[1].strip())


@pytest.mark.skipif(not _in_git_checkout(), reason="not a git checkout")
def test_rev_engine_plays_the_working_tree_and_is_removed(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(PY_DIR))
    proc = subprocess.run(
        [
            sys.executable, "-m", "gomoku_lab.match",
            "--engine1", f"{sys.executable} -m gomoku.pbrain --no-book",
            "--engine2", "rev:HEAD --no-book", "--nodes", "150", "--games", "2",
            "--openings", str(ROOT / "openings" / "balanced.txt"),
        ],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(s for s in proc.stdout.splitlines() if s.startswith("engine2: rev:HEAD"))
    folder = _exported_folder(line)
    assert folder.name.startswith("gomoku-rev-") and not folder.exists()
    assert "Result:" in proc.stdout and " of 2," in proc.stdout
    assert "pentanomial" in proc.stdout


@pytest.mark.skipif(not _in_git_checkout(), reason="not a git checkout")
def test_rev_folder_is_removed_on_interrupt(fake: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(PY_DIR))
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "gomoku_lab.match", "--engine1", _cmd(fake, "slow"),
            "--engine2", "rev:HEAD", "--turn-ms", "60000", "--games", "2",
            "--openings", str(ROOT / "openings" / "balanced.txt"),
        ],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = ""
        while not line.startswith("engine2:"):
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
        folder = _exported_folder(line)
        assert folder.exists()
        time.sleep(1.0)  # the slow engine1 is thinking now
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert not folder.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_time_use_counts_only_the_engines_searched_moves() -> None:
    from gomoku_lab.pairs import time_use

    # opening of 2 stones: black (engine2 here) moves first, then engine1, alternately
    record = {
        "turn_ms": 1000,
        "opening": "h8 i9",
        "black": "engine2",
        "white": "engine1",
        "times_ms": [500, 800, 10, 400, 900, 0],
        "infos": [
            "depth 5 source search",  # engine2
            "depth 7 score 1 source search pv a1",  # engine1: 0.8
            "source book",  # engine2
            "depth 6 source search",  # engine1: 0.4
            "nothing said",  # engine2
            "depth 0 source forced",  # engine1: apart
        ],
    }
    use = time_use([record], "engine1")
    assert use is not None and use.searched == 2 and use.other == 1
    assert abs(use.mean_share - 0.6) < 1e-9 and use.median_share == 0.8
    other = time_use([record], "engine2")
    assert other is not None and other.searched == 1 and other.mean_share == 0.5
    record2 = dict(record, infos=["plain"] * 6)
    assert time_use([record2], "engine1") is None


def test_a_closed_engine_is_not_started_again(fake: Path) -> None:
    """An interrupted match closes its engines; a game thread that then tries to start
    one gets EngineCrash and no process is launched."""
    from gomoku_lab.processes import EngineCrash

    engine = EngineProcess(_cmd(fake, "slow"), "engine1")
    engine.start()
    assert engine.alive
    engine.close()
    assert not engine.alive
    with pytest.raises(EngineCrash):
        engine.start()
    assert engine.proc is None


@pytest.mark.slow
def test_a_match_clock_with_an_increment_credits_each_move(fake: Path) -> None:
    """--inc-ms: each move's increment goes on the engine's match clock. An engine that
    answers in 0.5 s with 0.7 s on its clock loses on time at its second move without an
    increment (0.7 - 0.5 - 0.5 < -0.2) and several moves later with 0.4 s a move."""
    lost_at = {}
    for inc in (0, 400):
        cfg = MatchConfig(
            _cmd(fake, "good"), _cmd(fake, "half"), turn_ms=5000, match_ms=700, inc_ms=inc,
            tolerance_ms=200,
        )
        engines = [EngineProcess(cfg.engine1, "engine1"), EngineProcess(cfg.engine2, "engine2")]
        try:
            res = play_game(engines, GameSpec(0, 0, [(7, 7)], 0), cfg)
        finally:
            for e in engines:
                e.stop()
        assert res.winner == 0 and res.kind == "time", res.reason
        lost_at[inc] = len(res.moves)
    assert lost_at[0] == 3  # the opening (black), half's 1st, good's 1st; half's 2nd too late
    assert lost_at[400] > lost_at[0] + 2, lost_at
