"""Openings Rapfi calls balanced (gomoku_lab.rapfi_openings, rapfi_judge): candidates one
per position class, a judge asked once per rule and position (a fake Gomocup brain here,
so no outside engine is needed), the balanced ones kept and split, and the match runner's
default against Rapfi."""

from __future__ import annotations

from pathlib import Path

from fake_brain import fake_brain

from gomoku.core.geometry import moves_from_text
from gomoku.core.rules import Rule
from gomoku_lab import openings, rapfi_openings
from gomoku_lab.openings import default_openings, load_openings, names_rapfi, position_key
from gomoku_lab.rapfi_judge import PositionJudgements, RuleJudge
from gomoku_lab.rapfi_openings import candidates, heldout, named_candidates


# A brain whose evaluation of a BOARD depends on the rule (INFO rule) and the stones: an
# opening is balanced when the sum of its stones' x coordinates is even, a mate when it
# is divisible by 5, else 400; under any rule but freestyle every evaluation is R00
# (R: the rule's code).
def brain(tmp_path: Path) -> str:
    return fake_brain(tmp_path, """
        def answer(stones, rule):
            s = sum(x for x, _ in stones)
            ev = "+M9" if s % 5 == 0 else str(s % 100 - 50) if s % 2 == 0 else "400"
            if rule:
                ev = f"{rule}00"
            return [f"Depth 9-9 | Eval {ev} | Node 1K"], (0, 0)
    """)


def test_candidates_are_one_per_position_class_named_first():
    named = named_candidates()
    assert len(named) == 26 and all(len(c.moves) == 3 for c in named)
    cands = candidates(Rule.FREESTYLE, 60, [3, 4, 5], 2, 2, seed=3)
    keys = [position_key(c.moves) for c in cands]
    assert len(set(keys)) == len(keys)
    # Keigetsu = Kyogetsu and Ugetsu = Ungetsu as positions: 24 named classes
    assert sum(c.source.startswith("named") for c in cands) == 24
    assert any(c.source == "book" and len(c.moves) in (4, 5) for c in cands)
    randoms = [c for c in cands if c.source == "random"]
    assert randoms and all(max(abs(x - 7), abs(y - 7)) <= 2 for c in randoms for x, y in c.moves)


def test_the_heldout_split_is_a_seeded_hash_of_the_position():
    a = moves_from_text("h8 i9 j10", 15)
    mirrored = moves_from_text("h8 g9 f10", 15)
    assert heldout(a, 1, 0.5) == heldout(mirrored, 1, 0.5)  # the same position
    ops = [c.moves for c in candidates(Rule.FREESTYLE, 300, [5], 2, 2, seed=1)]
    share = sum(heldout(m, 1, 1 / 3) for m in ops) / len(ops)
    assert 0.2 < share < 0.45
    assert [heldout(m, 2, 1 / 3) for m in ops] != [heldout(m, 1, 1 / 3) for m in ops]


def test_judgements_are_kept_by_rule_and_asked_once(tmp_path: Path):
    store = PositionJudgements(tmp_path / "j.jsonl")
    moves = moves_from_text("h8 i9 j10", 15)
    free = RuleJudge(brain(tmp_path), Rule.FREESTYLE)
    renju = RuleJudge(brain(tmp_path), "renju")
    try:
        assert store.ask(free, moves, 1000).eval == "-26"  # x: 7 + 8 + 9 = 24
        assert store.ask(renju, moves, 1000).eval == "400"  # INFO rule 4
        assert store.ask(free, moves, 2000).nodes == 2000
    finally:
        free.close()
        renju.close()
    again = PositionJudgements(tmp_path / "j.jsonl")
    assert len(again.known) == 3
    assert again.get(Rule.RENJU, 15, moves, 1000).best == "a15"


def test_generate_keeps_the_balanced_openings_and_writes_both_parts(tmp_path: Path):
    out = tmp_path / "rapfi-freestyle.txt"
    args = ["--brain", brain(tmp_path), "--random", "40", "--nodes", "500", "--screen-nodes"]
    args += ["200", "--judgements", str(tmp_path / "j.jsonl"), "--out", str(out)]
    assert rapfi_openings.main(args) == 0
    match = load_openings(out)
    held = load_openings(tmp_path / "rapfi-freestyle-heldout.txt")
    assert match and held
    store = PositionJudgements(tmp_path / "j.jsonl")
    for ops in (match, held):
        for m in ops:
            for nodes in (200, 500):
                value = int(store.get(Rule.FREESTYLE, 15, m, nodes).eval)  # no mate
                assert abs(value) < 150
    keys = {position_key(m) for m in match}
    assert not keys & {position_key(m) for m in held}
    header = out.read_text().splitlines()[:12]
    assert any("python -m gomoku_lab.rapfi_openings --brain" in line for line in header)
    # every candidate was judged: a second run needs no brain and writes the same sets
    again = tmp_path / "again.txt"
    rerun = ["--random", "40", "--nodes", "500", "--screen-nodes", "200"]
    rerun += ["--judgements", str(tmp_path / "j.jsonl"), "--out", str(again)]
    assert rapfi_openings.main(rerun) == 0
    assert load_openings(again) == match
    missing = ["--random", "41", "--judgements", str(tmp_path / "j.jsonl"), "--out", str(again)]
    assert rapfi_openings.main(missing) == 2  # a candidate never judged, no brain


def test_the_match_runner_plays_rapfi_balanced_openings_against_rapfi(tmp_path, monkeypatch):
    assert names_rapfi("/work/rapfi/pbrain-rapfi") and names_rapfi("'/x y/PBRAIN-Rapfi' -v")
    assert not names_rapfi("python -m gomoku.pbrain") and not names_rapfi("rev:main --no-book")
    monkeypatch.setattr(openings, "OPENINGS_DIR", tmp_path)
    ours = "python -m gomoku.pbrain"
    rapfi = "/work/rapfi/pbrain-rapfi"
    # no file for the rule yet: the former defaults
    assert default_openings(Rule.FREESTYLE, True, [ours, rapfi]) == openings.SPRT_OPENINGS
    assert default_openings(Rule.FREESTYLE, False, [ours, rapfi]) == openings.BALANCED_OPENINGS
    (tmp_path / "rapfi-freestyle.txt").write_text("h8 i9 j10\n")
    assert default_openings(Rule.FREESTYLE, True, [ours, rapfi]) == tmp_path / "rapfi-freestyle.txt"
    assert (
        default_openings(Rule.FREESTYLE, False, [rapfi, ours]) == tmp_path / "rapfi-freestyle.txt"
    )
    assert default_openings(Rule.STANDARD, True, [ours, rapfi]) == openings.SPRT_OPENINGS
    assert default_openings(Rule.FREESTYLE, True, [ours, ours]) == openings.SPRT_OPENINGS
