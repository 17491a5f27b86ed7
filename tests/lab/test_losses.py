"""gomoku_lab.losses: reading Rapfi's evaluations and classing the turning move of a
lost game (no Rapfi needed: the records are written here)."""

from __future__ import annotations

from gomoku_lab.losses import rapfi_value, turning_move


def test_rapfi_value_reads_scores_and_mates() -> None:
    assert rapfi_value("Speed 1K | Depth 9-12 | Eval -250 | Node 10K") == -250
    assert rapfi_value("Depth 7-17 | Eval +M13 | Node 10K") == 100_000
    assert rapfi_value("Depth 7-17 | Eval -M5 | Node 10K") == -100_000
    assert rapfi_value("depth 8 score +1.0 nodes 30001") is None


def record(moves: str, infos: list[str]) -> dict:
    return {
        "game": 1, "size": 15, "rule": "freestyle", "opening": "h8", "moves": moves,
        "black": "engine2", "white": "engine1", "score1": 0.0, "infos": infos,
    }  # fmt: skip


OURS = "depth 8 score -0.5 nodes 30001 nps 1 time 1ms source search pv a1"


def test_an_open_three_left_alone_is_a_missed_defence() -> None:
    """Black (Rapfi) builds h8 i8 j8; white (engine1) plays in the corner. After a2 black
    already threatens (an open three: a VCF were it to move), and a3 does not stop it."""
    rec = record(
        "h8 a1 i8 a2 j8 a3 k8 a4 l8",
        [OURS, "Eval 10", OURS, "Eval 100", OURS, "Eval +M3", OURS, "Eval +M1", ""],
    )
    t = turning_move(rec, 600)
    assert t is not None
    assert (t.ply, t.move, t.rapfi_before, t.rapfi_after) == (6, "a3", "100", "+M3")
    assert t.cls == "missed defence (VCF)"


def test_no_decisive_evaluation_means_no_turning_move() -> None:
    rec = record("h8 a1 i8 a2", [OURS, "Eval 10", OURS, ""])
    assert turning_move(rec, 600) is None
