"""Tactics: the engine wins, blocks and defends where it must; VCF lines are sound.

Every winning line the threat search reports is checked by a brute-force referee that
knows nothing of pattern tables: it scans the stones for five in a row.
"""

from __future__ import annotations

import time

import pytest

from gomoku.core.geometry import from_text, moves_from_text, to_text
from gomoku.core.rules import Rule
from gomoku.engine.facade import Engine
from gomoku.engine.limits import Limits
from gomoku.engine.results import SearchPlan
from gomoku.game.board import Board
from gomoku.game.evaluation import WIN_THRESHOLD
from gomoku.search.threats import ThreatSearch

# Positions (15x15 freestyle, side to move = attacker) mined from random games, each with
# a shortest VCF of the given number of attacker moves. The lines are not stored: the
# test finds them and has them checked by the referee.
VCF_POSITIONS = {
    3: "h8 i8 i7 j7 g9 f10 j6 k5 h9 h10 i9 j9 g7 f6 k11 j10 e9 f9 f8",
    4: "h8 h7 g7 g6 j10 k11 f6 i9 j9 j8 d4 e5 h10 f5 d3 i8 e4 i11 i12",
    5: "h8 i7 g7 i5 f6 e5 i6 h6 j10 i9 g5 e7 g8 g6 f8 e8 j8 i8 e6 i10 i11 f9 h9 j9 f7 d5 k10",
    6: "h8 i7 g7 i5 f6 i9 d4 e5 i10 i8 i6 f5 g5 g4 g6 j6",
    7: "h8 i7 h6 h5 i6 j6 j5 g7 h7 g8 h9 h10 g6 i8 e6 f6 l3 k4 f5 g4 i9 d3 f9 e9 k9 j9 j10 "
    "l8 l12 k11 i11 k7 m9 h4 i5 k5 h12 g13 k3",
    8: "h8 i8 i7 j6 h9 h7 j9 k9 h11 k8 h12 h10 k10 i11 i10 j12 k13 g9 f8 k12 g12 f13 f12 e12 "
    "f7 g8 f10 f11 i13 j14 f6 f9 e9 g11 e10",
    9: "h8 g7 h6 i7 h7 h5 h9 h10 g9 f9 e8 f8 f11 i8 i10 f6 f7 j11 e6 g8 e5 e4 e9 e7 d8 g11 "
    "i9 c7 c10 d9 j9 k9 k8 l7 h11 g12 i12 g13 g10 g15 g14 j13",
    # the 9 position less one attacker four and its block (found by program: h8 / h5)
    10: "h6 g7 h7 i7 h9 h10 g9 f9 e8 f8 f11 i8 i10 f6 f7 j11 e6 g8 e5 e4 e9 e7 d8 g11 i9 c7 "
    "c10 d9 j9 k9 k8 l7 h11 g12 i12 g13 g10 g15 g14 j13",
}


def stones_five(cells: dict[tuple[int, int], int], size: int, exact: bool) -> set[int]:
    """Colours that have five in a row (exactly five when ``exact``): brute force."""
    out = set()
    for (x, y), c in cells.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if cells.get((x - dx, y - dy)) == c:
                continue  # not the start of the run
            n = 0
            while cells.get((x + n * dx, y + n * dy)) == c:
                n += 1
            if n == 5 or (n > 5 and not exact):
                out.add(c)
    return out


def referee_five_cells(cells: dict, side: int, size: int, exact: bool) -> list[tuple[int, int]]:
    spots = []
    for x in range(size):
        for y in range(size):
            if (x, y) not in cells:
                cells[(x, y)] = side
                if side in stones_five(cells, size, exact):
                    spots.append((x, y))
                del cells[(x, y)]
    return spots


def check_vcf_line(
    moves: list[tuple[int, int]], line: list[tuple[int, int]], size: int = 15, exact: bool = False
) -> None:
    """Referee: every attacker move is a four answered by the only block, and the last
    attacker move wins (five, or two fives threatened while the defender has none)."""
    cells = {m: 1 + (i % 2) for i, m in enumerate(moves)}
    attacker = 1 + len(moves) % 2
    defender = 3 - attacker
    for i in range(0, len(line), 2):
        a = line[i]
        assert a not in cells
        cells[a] = attacker
        if attacker in stones_five(cells, size, exact):
            assert i == len(line) - 1
            return
        threats = referee_five_cells(cells, attacker, size, exact)
        if i == len(line) - 1:
            assert len(threats) >= 2 and not referee_five_cells(cells, defender, size, exact)
            return
        assert threats == [line[i + 1]], "attacker move is not a four with a single block"
        cells[line[i + 1]] = defender
        assert defender not in stones_five(cells, size, exact)
    raise AssertionError("line ended without a win")


@pytest.mark.parametrize("length", sorted(VCF_POSITIONS))
def test_vcf_found_within_a_second_and_sound(length: int) -> None:
    moves = moves_from_text(VCF_POSITIONS[length], 15)
    board = Board.from_moves(moves)
    start = time.perf_counter()
    line = ThreatSearch(board).vcf(16, deadline=start + 10)
    assert line is not None
    points = [board.point(q) for q in line]
    assert (len(points) + 1) // 2 == length
    check_vcf_line(moves, points)
    assert board.moves == moves  # the board is restored


@pytest.mark.parametrize("length", [3, 5, 8])
def test_engine_plays_the_vcf(length: int) -> None:
    eng = Engine()
    eng.set_position(moves_from_text(VCF_POSITIONS[length], 15))
    r = eng.think(Limits(time_ms=2000, use_book=False))
    assert r.source == "threat" and r.score >= WIN_THRESHOLD
    check_vcf_line(eng.moves, r.pv)


def engine_move(moves: str, time_ms: float = 1000, rule: Rule = Rule.FREESTYLE) -> str:
    eng = Engine(15, rule)
    eng.set_position(moves_from_text(moves, 15))
    r = eng.think(Limits(time_ms=time_ms, use_book=False))
    assert eng.board.at(*r.move) == 0
    return to_text(*r.move, 15)


def test_win_in_one() -> None:
    # black h8 i8 j8 k8 (white stones elsewhere): black plays g8 or l8
    assert engine_move("h8 h10 i8 i10 j8 a1 k8 c3") in {"g8", "l8"}


def test_block_five() -> None:
    # white has four a1..a4 and black nothing: black must block a5
    assert engine_move("h8 a1 h10 a2 j12 a3 l8 a4") == "a5"


def test_win_beats_block() -> None:
    # both sides have a four; the side to move wins instead of blocking
    assert engine_move("h8 a1 i8 a2 j8 a3 k8 a4 c14") in {"a5"}
    assert engine_move("h8 a1 i8 a2 j8 a3 k8 a4") in {"g8", "l8"}


def test_make_open_four_from_open_three() -> None:
    # black open three g8 h8 i8, white scattered: black wins (open four or a threat line)
    eng = Engine()
    eng.set_position(moves_from_text("h8 a1 g8 a3 i8 c1", 15))
    r = eng.think(Limits(time_ms=1000, use_book=False))
    assert r.score >= WIN_THRESHOLD
    assert to_text(*r.move, 15) in {"f8", "j8", "e8", "k8"}


def test_defend_open_three() -> None:
    # white open three f10 g10 h10; black has nothing: black must stop it
    assert engine_move("h8 f10 i7 g10 b2 h10") in {"d10", "e10", "i10", "j10"}


def test_never_ignore_a_four() -> None:
    # black has an open three but white has a four: black must block first
    assert engine_move("h8 a1 i8 a2 j8 a3 c13 a4") == "a5"


# The defence tests' search: by nodes, not the clock (they check what the search finds,
# not its time use): 20,000 nodes reach depth 5-8 in these positions, about 0.5 s, where a
# 3 s search took 3 s on any machine.
DEFENCE_LIMITS = Limits(time_ms=None, nodes=20_000, use_book=False)


def test_defends_against_vcf_threat() -> None:
    """The opponent (black) would win by VCF if it moved: white's move must stop it."""
    text = VCF_POSITIONS[4]
    moves = moves_from_text(text, 15)
    # Let the VCF side pass by one move: white to move in a position where black threatens.
    board = Board.from_moves(moves[:-1])
    board.side = 3 - board.side
    threat_exists = ThreatSearch(board).vcf(12) is not None
    board.side = 3 - board.side
    if not threat_exists:
        pytest.skip("position lost its threat without the last move")
    eng = Engine()
    eng.set_position(moves[:-1])
    r = eng.think(DEFENCE_LIMITS)
    eng.play(*r.move)
    # now black to move must not have a VCF any more (unless white is simply lost)
    line = ThreatSearch(eng.board).vcf(12)
    assert line is None or r.score <= -WIN_THRESHOLD


@pytest.mark.parametrize("time_ms", [10, 50])
def test_tiny_budgets_return_legal_moves_in_time(time_ms: float) -> None:
    eng = Engine()
    eng.set_position(moves_from_text(VCF_POSITIONS[8], 15)[:-3])
    start = time.perf_counter()
    r = eng.think(Limits(time_ms=time_ms, use_book=False))
    elapsed = (time.perf_counter() - start) * 1000
    assert eng.board.at(*r.move) == 0
    assert elapsed < time_ms * 2.5 + 150  # generous: the hard cap plus interpreter noise


def test_fixed_node_limit_is_deterministic() -> None:
    results = []
    for _ in range(2):
        eng = Engine()
        eng.set_position(moves_from_text(VCF_POSITIONS[6], 15)[:-2])
        r = eng.think(Limits(time_ms=None, nodes=3000, use_book=False))
        results.append((r.move, r.score, r.nodes, r.depth, r.pv))
    assert results[0] == results[1]


def test_single_legal_move_and_game_over() -> None:
    eng = Engine()
    moves = [from_text(t, 15) for t in "h8 a1 i8 a2 j8 a3 k8".split()]
    eng.set_position(moves)
    r = eng.think(Limits(time_ms=100, use_book=False))
    assert to_text(*r.move, 15) in {"g8", "l8", "a4"}
    eng.play(*from_text("a4", 15))
    eng.play(*from_text("l8", 15))
    assert eng.winner == 1 and eng.is_over
    with pytest.raises(ValueError):
        eng.think(Limits(time_ms=100))


def test_think_reports_progress_and_pv() -> None:
    infos = []
    eng = Engine()
    eng.set_position(moves_from_text("h8 i9 g9 i7 i8 g7", 15))
    r = eng.think(Limits(time_ms=None, depth=3, use_book=False, use_threats=False), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]
    assert r.depth == 3 and r.pv and r.pv[0] == r.move
    # the PV is a legal sequence
    board = Board.from_moves(eng.moves)
    for m in r.pv:
        board.play(*m)


def test_root_skips_symmetric_duplicates() -> None:
    """After h8 alone every move has 7 twins: the search looks at one of each class."""
    eng = Engine()
    eng.play(7, 7)
    seen = []
    original = eng._unique_root_moves

    def spy(moves: list[int]) -> list[int]:
        out = original(moves)
        seen.append((len(moves), len(out)))
        return out

    eng._unique_root_moves = spy  # type: ignore[method-assign]
    r = eng.think(Limits(time_ms=None, depth=2, use_book=False, use_threats=False))
    assert eng.board.at(*r.move) == 0
    ((before, after),) = seen
    assert after < before  # the 8 neighbours collapse to 2 classes, and so on
    # and an asymmetric position keeps every move
    eng.play(*r.move)
    eng.play(9, 4)
    seen.clear()
    eng.think(Limits(time_ms=None, depth=1, use_book=False, use_threats=False))
    ((before, after),) = seen
    assert after == before


@pytest.mark.slow
def test_brain_answers_within_generous_bound_of_timeout_turn() -> None:
    """Per-move wall time through the Gomocup brain over 50 seeded positions (4..60
    stones) at 150 ms a turn; BENCHMARKS.md reports max and p99. Here only generous
    bounds (p99 within the turn + 450 ms, the slowest within the turn + 1350 ms: a load
    spike on a shared machine once took a move to 659 ms), so a slow or loaded machine
    does not fail it, while an engine that ignored its cap (a search to depth 10 takes
    seconds, on every move) would."""
    from gomoku.bench import bench_timing

    result = bench_timing(count=50, turn_ms=150, out=lambda *_: None)
    assert result["positions"] == 50
    assert result["p99_ms"] < 150 + 450, result
    assert result["max_ms"] < 150 + 1350, result


# The side NOT to move would win by VCT (fours and threes, 3 attacker moves) if it could
# move now, and has no VCF (mined from random games; checked again in the test).
VCT_THREATS = (
    "h8 g7 h7 h6 i7 f8 i5 d10 e9",
    "h8 h7 g8 f8 f7 e6 e8 d9 e9 e10 c8 g9 e7",
    "h8 h7 i7 i8 k5 l4 f10 e11 j6 g9 f9 f5 e4 g6 j9 f7",
)


@pytest.mark.parametrize("text", VCT_THREATS)
def test_defends_against_vct_threat(text: str) -> None:
    moves = moves_from_text(text, 15)
    board = Board.from_moves(moves)
    board.side = 3 - board.side
    probe = ThreatSearch(board)
    assert probe.vcf(12) is None and probe.vct(4) is not None  # the premise
    board.side = 3 - board.side
    eng = Engine()
    eng.set_position(moves)
    r = eng.think(DEFENCE_LIMITS)
    eng.play(*r.move)
    after = ThreatSearch(eng.board)
    threat = after.vcf(12) or after.vct(4)
    assert threat is None or r.score <= -WIN_THRESHOLD


# White to move; black (were it to move) wins by a VCT of 4 threats. White's j6 lets it
# through (the reference won the game that way); f8 stops it.
UNDEFENDED_VCT = "h8 h9 h10 g7 j8 k7 i8 k8 k10 j10 i7"


def _loses_to_vct(eng: Engine, move: tuple[int, int]) -> bool:
    eng.play(*move)
    try:
        probe = ThreatSearch(eng.board)
        return (probe.vcf(12) or probe.vct(4)) is not None
    finally:
        eng.undo()


def test_chosen_move_left_unchecked_is_verified_after_the_search() -> None:
    """When the defence checks ran out of time before the search, the move the search
    chose is checked afterwards and replaced by one that holds if it loses."""
    eng = Engine()
    eng.set_position(moves_from_text(UNDEFENDED_VCT, 15))
    board = eng.board
    losing, holding = board.index(9, 9), board.index(5, 7)  # j6, f8
    assert _loses_to_vct(eng, (9, 9)) and not _loses_to_vct(eng, (5, 7))  # the premise
    plan = eng.prepare(Limits(time_ms=None, depth=1, use_book=False))
    assert isinstance(plan, SearchPlan) and (plan.safe or plan.unchecked)
    for safe, unchecked, want in (
        ([holding], [losing], holding),  # the first move shown to hold
        ([], [losing, holding], holding),  # else the first unchecked one that holds
        ([], [holding, losing], holding),  # a move that holds is kept
    ):
        plan.safe, plan.unchecked = safe, unchecked
        move, nodes = eng.recheck(unchecked[0], plan)
        assert move == want and nodes > 0
    assert board.history == [board.index(*m) for m in moves_from_text(UNDEFENDED_VCT, 15)]


def test_engine_defends_the_undefended_vct_at_play_speed() -> None:
    eng = Engine()
    eng.set_position(moves_from_text(UNDEFENDED_VCT, 15))
    r = eng.think(Limits(time_ms=700, use_book=False))
    assert not _loses_to_vct(eng, r.move)


def test_book_variety_is_seeded() -> None:
    """Close book replies are chosen by the engine's RNG: the same seed, the same choices;
    across seeds, more than one reply to the centre stone appears."""

    def replies(seed: int) -> list[tuple[int, int]]:
        eng = Engine(seed=seed)
        eng.play(7, 7)
        return [eng.think(Limits(time_ms=200)).move for _ in range(6)]

    assert replies(1) == replies(1)
    seen = {m for s in range(8) for m in replies(s)}
    eng = Engine()
    eng.play(7, 7)
    r = eng.think(Limits(time_ms=200))
    assert r.source == "book"
    if len(eng.book.candidates(eng.moves, 15, "freestyle")) > 1:
        assert len(seen) > 1


# Positions (side to move = attacker) with a VCT whose lines mix fours and threes, or
# where a counter-four must be blocked before the attack goes on; the first version of
# the threat search (threes only after the first move, gave up on counter-fours) found
# none of them within depth 6. Mined from the games of a match against the reference
# engine. Value: the least depth (attacker moves) at which the search proves the win.
MIXED_VCT_POSITIONS = {
    "h8 f10 j6 g9 j5 g10 j8 j7 g8 f8 i10 i8 h9 f7 f9 h7 i7 g6 j9 f5 e4 f6 f4 h6 e6 e7 k5 "
    "l4 j11 k12 j10": 3,
    "h8 f10 j10 i9 j9 j8 h10 h9 k10 i10 j11 i8 j12 j13 i11 i7 i6 g9 k13 l14": 3,
    "h8 g9 j6 k5 h6 i6 j8 h7 g8 i8 i5 j9 g6 h9 i9 j7 k6 h5 g4 l9 k8 k10 l11 g10 f11 g7 k7 f7": 3,
    "h8 f10 j6 e9 j8 g11 d8 f8 i7 g9 k5 l4 h6 k9 g5 f4 h5 h12": 3,
}


def attacker_wins(board: Board, depth: int, full: bool) -> bool:
    """Check a VCT against every defender reply, not only the ones the search generates:
    the attacker (side to move) has a five point, or the search's first move leaves, for
    each empty cell within two of a stone (every possible counter-four among them) the
    defender could answer with, a position where the attacker still wins with one move
    less (checked the same way when ``full``, else by the search itself)."""
    attacker = board.side
    if board.fives(attacker):
        return True
    if depth == 0:
        return False
    line = ThreatSearch(board).vct(depth)
    if line is None:
        return False
    board.make(line[0])
    try:
        for reply in sorted(board.candidates):
            board.make(reply)
            try:
                if board.winner:
                    return False
                if full:
                    ok = attacker_wins(board, depth - 1, True)
                else:
                    ok = board.fives(attacker) > 0 or (
                        ThreatSearch(board).vct(depth - 1) is not None
                    )
                if not ok:
                    return False
            finally:
                board.unmake()
    finally:
        board.unmake()
    return True


@pytest.mark.parametrize("text", sorted(MIXED_VCT_POSITIONS))
def test_vct_with_mixed_threats_is_found_and_holds_against_every_reply(text: str) -> None:
    moves = moves_from_text(text, 15)
    board = Board.from_moves(moves)
    depth = MIXED_VCT_POSITIONS[text]
    probe = ThreatSearch(board)
    assert probe.vcf(12) is None  # not a plain VCF
    assert probe.vct(depth - 1) is None
    assert probe.vct(depth) is not None
    assert attacker_wins(board, depth, full=True)
    assert board.moves == moves


def test_shared_threat_cache_gives_the_answers_of_fresh_searches() -> None:
    """One cache for a whole game (as the engine keeps it): searches for both sides, with
    passes in between, answer as searches that each start with an empty cache."""
    texts = [*VCT_THREATS, *MIXED_VCT_POSITIONS]
    shared: dict[int, int] = {}
    for text in texts:
        board = Board.from_moves(moves_from_text(text, 15))
        for _ in range(2):  # the side to move, then the opponent after a pass
            for depth in (2, 4):
                fresh = ThreatSearch(board).vct(depth)
                again = ThreatSearch(board, cache=shared).vct(depth)
                assert (fresh is None) == (again is None)
            board.pass_move()
        assert board.moves == moves_from_text(text, 15)
    assert shared  # the searches did store into it


def test_pass_move_flips_side_and_hash_and_undoes_itself() -> None:
    board = Board.from_moves(moves_from_text("h8 h9 i8", 15))
    side, key = board.side, board.hash
    board.pass_move()
    assert board.side == 3 - side and board.hash != key
    board.pass_move()
    assert (board.side, board.hash) == (side, key)


def test_bench_threats_reports_what_the_threat_search_finds() -> None:
    from gomoku.bench import THREAT_POSITIONS, bench_threats

    lines: list[str] = []
    summary = bench_threats(5, out=lines.append, positions=[1, 4])
    assert summary["positions"] == 2 and summary["nodes"] > 0
    # position 1 is won by a VCT of at most 5 attacker moves; position 4 needs more
    board = Board.from_moves(moves_from_text(THREAT_POSITIONS[1], 15))
    assert ThreatSearch(board).vct(5) is not None
    assert summary["found"] == 1
    assert lines[0].startswith("pos 1: win") and lines[1].startswith("pos 4: none")
