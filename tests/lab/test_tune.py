"""The evaluation tuner (gomoku_lab.tune) on a small data set, and the shipped weights."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.game.evaluation import evaluate, evaluate_from_scratch
from gomoku.patterns.weights import (
    SUMMARY_INDEX,
    EvalWeights,
    load_weights,
    summary_from_name,
    weights_path,
)
from gomoku_lab import tune
from gomoku_lab.selfplay import generate_games


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return list(generate_games(12, seed=3, budgets=(200, 400)))


def test_selfplay_games_are_finished_legal_and_seeded(games: list[dict]) -> None:
    again = list(generate_games(3, seed=3, budgets=(200, 400)))
    assert again == games[:3]  # the same seed gives the same games
    for g in games:
        board = Board()
        from gomoku.core.geometry import moves_from_text

        for x, y in moves_from_text(g["moves"], 15):
            board.play(x, y)
        assert board.winner == g["winner"] or (g["winner"] == 0 and board.is_full())


def test_match_records_give_the_winners_colour(games: list[dict]) -> None:
    """The match runner's records name the winning engine in ``winner`` and the result
    from black's view in ``result``: the colour comes from the result."""
    decided = [g for g in games if g["winner"]][:4]
    assert {g["winner"] for g in decided} == {1, 2}
    as_match = []
    for i, g in enumerate(decided):
        engine = "engine1" if i % 2 else "engine2"  # the winner's name says nothing of colour
        result = "1-0" if g["winner"] == 1 else "0-1"
        as_match.append({"moves": g["moves"], "result": result, "winner": engine})
    ours = tune.build_dataset(decided, Rule.FREESTYLE)
    theirs = tune.build_dataset(as_match, Rule.FREESTYLE)
    assert theirs.positions == ours.positions > 0
    assert np.array_equal(theirs.target, ours.target)
    draw = {"moves": decided[0]["moves"], "result": "1/2-1/2", "winner": None}
    assert set(tune.build_dataset([draw], Rule.FREESTYLE).target) == {0.5}
    with pytest.raises(ValueError, match="unknown game result"):
        tune.build_dataset([{"moves": "h8 h9 i9", "result": "2-0"}], Rule.FREESTYLE)


def test_features_agree_with_the_boards_incremental_evaluation(games: list[dict]) -> None:
    """The tuner's features, scored by the shipped weights, give the engine's evaluation."""
    weights = load_weights(Rule.FREESTYLE)
    model = tune.from_weights(weights)
    data = tune.build_dataset(games[:4], Rule.FREESTYLE)
    assert data.positions > 20
    logits = model.logits(data)
    # replay the same positions and compare with evaluate() (in 1/FINE rounding)
    i = 0
    from gomoku.core.geometry import moves_from_text

    for g in games[:4]:
        board = Board()
        for x, y in moves_from_text(g["moves"], 15):
            if board.winner:
                break
            if board.ply >= tune.MIN_PLY and tune.evaluable(board):
                want = logits[i] * weights.scale
                assert abs(evaluate(board) - want) <= 1.0
                assert evaluate(board) == evaluate_from_scratch(board)
                i += 1
            board.play(x, y)
    assert i == data.positions


def test_fit_learns_something_and_saves_weights_that_load(games: list[dict], tmp_path) -> None:
    data = tune.build_dataset(games, Rule.FREESTYLE)
    constant = tune.log_loss(np.full(data.positions, data.target.mean()), data.target)
    model = tune.fit(data, iterations=60, out=None)
    fitted = tune.log_loss(tune.sigmoid(model.logits(data)), data.target)
    assert fitted < constant - 0.02
    weights = tune.to_weights(model, Rule.FREESTYLE, 200, "test")
    path = tmp_path / "w.json"
    weights.save(path)
    back = EvalWeights.from_json(path.read_text(encoding="utf-8"))
    again = tune.log_loss(tune.sigmoid(tune.from_weights(back).logits(data)), data.target)
    assert abs(again - fitted) < 1e-3  # the file keeps the model (5 decimals per logit)


def test_broken_weights_files_are_refused() -> None:
    text = weights_path(Rule.FREESTYLE).read_text(encoding="utf-8")
    doc = json.loads(text)
    cells = next(k for k in doc if k.startswith("cells"))
    del doc[cells]["4,3o,-,-"]
    with pytest.raises(ValueError, match="missing"):
        EvalWeights.from_json(json.dumps(doc))
    with pytest.raises(ValueError):
        EvalWeights.from_json("{not json")


def test_shipped_weights_are_fitted_and_value_threats_sensibly() -> None:
    """The fitted tables rank the main threats as a player would: a four-three or a double
    three cell is worth more to its owner than a plain four cell, and worse for the side
    to move when it is the other side's."""
    w = load_weights(Rule.FREESTYLE)
    assert w.source.endswith("eval-freestyle.json") and "fitted" in w.note
    i = {
        name: SUMMARY_INDEX[summary_from_name(name)]
        for name in ("4,3o,-,-", "3o,3o,-,-", "4,-,-,-")
    }
    for strong in ("4,3o,-,-", "3o,3o,-,-"):
        assert w.mover[i[strong]] > w.mover[i["4,-,-,-"]]
        assert w.other[i[strong]] < w.other[i["4,-,-,-"]]


def test_a_rules_own_weights_file_serves_it_else_freestyles(tmp_path, monkeypatch) -> None:
    """load_weights(rule) reads eval-<rule>.json when it exists and reads; otherwise (no file,
    or a broken one) freestyle's file, and in every case the weights carry the asked rule."""
    from gomoku.patterns import weights as weights_module

    free_text = weights_path(Rule.FREESTYLE).read_text(encoding="utf-8")
    doc = json.loads(free_text)
    doc["rule"], doc["tempo"] = "standard", 0.5
    monkeypatch.setattr(weights_module, "DATA_DIR", tmp_path)
    (tmp_path / "eval-freestyle.json").write_text(free_text, encoding="utf-8")
    (tmp_path / "eval-standard.json").write_text(json.dumps(doc), encoding="utf-8")
    load_weights.cache_clear()
    try:
        free, std, renju = (load_weights(r) for r in (Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU))
        assert std.source.endswith("eval-standard.json") and std.rule is Rule.STANDARD
        assert std.tempo == 0.5 * std.scale * weights_module.FINE != free.tempo
        assert std.mover == free.mover
        assert renju.source.endswith("eval-freestyle.json") and renju.rule is Rule.RENJU
        (tmp_path / "eval-standard.json").write_text("{ broken", encoding="utf-8")
        load_weights.cache_clear()
        fallback = load_weights(Rule.STANDARD)
        assert fallback.source.endswith("eval-freestyle.json") and fallback.rule is Rule.STANDARD
    finally:
        load_weights.cache_clear()


def test_each_rule_loads_its_own_weights_and_the_board_plays_with_them() -> None:
    """Standard has its own fitted file; renju has none and falls back to freestyle's (with
    its own rule). A standard board's incremental evaluation reads the standard tables: it
    agrees with the from-scratch score, and differs from the freestyle tables' score."""
    from gomoku.core.geometry import moves_from_text

    free, std, renju = (load_weights(r) for r in (Rule.FREESTYLE, Rule.STANDARD, Rule.RENJU))
    assert std.source.endswith("eval-standard.json") and std.rule is Rule.STANDARD
    assert "fitted" in std.note and std.mover != free.mover
    assert renju.source.endswith("eval-freestyle.json") and renju.rule is Rule.RENJU
    assert not weights_path(Rule.RENJU).exists()
    moves = moves_from_text("h8 i9 g7 i7 i8 g9 j8 k8 h9", 15)
    scores = {}
    for rule in (Rule.FREESTYLE, Rule.STANDARD):
        board = Board(15, rule)
        for x, y in moves:
            board.play(x, y)
        assert evaluate(board) == evaluate_from_scratch(board)
        scores[rule] = evaluate(board)
    assert scores[Rule.STANDARD] != scores[Rule.FREESTYLE]


def _by_colour(w: EvalWeights) -> EvalWeights:
    """A weights set by colour made from ``w``: white to move gets other tables."""
    from dataclasses import replace

    return replace(
        w,
        white_mover=[v // 2 + 3 for v in w.mover],
        white_other=[v * 2 - 5 for v in w.other],
        white_threat=[-v for v in w.threat],
        white_tempo=w.tempo + 77,
    )


@pytest.fixture(scope="module")
def renju_games() -> list[dict]:
    return list(generate_games(4, seed=5, rule=Rule.RENJU, budgets=(200, 400)))


def test_weights_by_colour_round_trip_and_score_each_colour_with_its_tables(
    renju_games: list[dict], tmp_path
) -> None:
    w = _by_colour(load_weights(Rule.FREESTYLE))
    path = tmp_path / "w.json"
    w.save(path)
    back = EvalWeights.from_json(path.read_text(encoding="utf-8"))
    assert back.by_colour and back == w
    assert back.for_side(1) == (w.mover, w.other, w.threat, w.tempo)
    assert back.for_side(2) == (w.white_mover, w.white_other, w.white_threat, w.white_tempo)
    data = tune.build_dataset(renju_games, Rule.RENJU)
    assert set(data.side.tolist()) == {1, 2}
    z = tune.from_weights(w).logits(data)
    black = tune.from_weights(replace_white(w, None)).logits(data)
    white = tune.from_weights(replace_white(w, 2)).logits(data)
    assert np.allclose(z[data.side == 1], black[data.side == 1])
    assert np.allclose(z[data.side == 2], white[data.side == 2])
    assert not np.allclose(z[data.side == 2], black[data.side == 2])


def replace_white(w: EvalWeights, side: int | None) -> EvalWeights:
    """The single-table weights of one colour to move (black's when side is None)."""
    mover, other, threat, tempo = w.for_side(side or 1)
    return EvalWeights(w.rule, w.scale, mover, other, threat, tempo)


def test_the_engine_evaluates_with_weights_by_colour(renju_games: list[dict], monkeypatch) -> None:
    """The board's incremental sums, read by colour to move, give the from-scratch score
    and the tuner's logits for weights by colour."""
    from gomoku.core.geometry import moves_from_text
    from gomoku.game import board as board_module
    from gomoku.game import evaluation

    w = _by_colour(load_weights(Rule.RENJU))
    values = board_module.CellValues(w)
    monkeypatch.setattr(evaluation, "load_weights", lambda rule: w)
    model = tune.from_weights(w)
    data = tune.build_dataset(renju_games, Rule.RENJU)
    logits = model.logits(data)
    i = 0
    for g in renju_games:
        board = Board(15, Rule.RENJU)
        board.values = values
        board._init_keys()  # the incremental state from these weights
        for x, y in moves_from_text(g["moves"], 15):
            if board.winner:
                break
            if board.ply >= tune.MIN_PLY and tune.evaluable(board):
                assert evaluate(board) == evaluate_from_scratch(board)
                assert abs(evaluate(board) - logits[i] * w.scale) <= 1.0
                i += 1
            board.play(x, y)
    assert i == data.positions


def test_fit_by_colour_learns_something(renju_games: list[dict]) -> None:
    data = tune.build_dataset(renju_games, Rule.RENJU)
    constant = tune.log_loss(np.full(data.positions, data.target.mean()), data.target)
    model = tune.fit_by_colour(data, iterations=40, out=None)
    assert model.white is not None
    assert tune.log_loss(tune.sigmoid(model.logits(data)), data.target) < constant - 0.02


def test_fit_from_a_prior_starts_at_it_and_improves_on_it(renju_games: list[dict]) -> None:
    """fit(prior=...) fits k * prior + change: on its own training data it does at least
    as well as the prior (here the freestyle tables on renju games)."""
    data = tune.build_dataset(renju_games, Rule.RENJU)
    prior = tune.from_weights(load_weights(Rule.FREESTYLE))
    before = tune.log_loss(tune.sigmoid(prior.logits(data)), data.target)
    model = tune.fit(data, iterations=30, out=None, prior=prior)
    after = tune.log_loss(tune.sigmoid(model.logits(data)), data.target)
    assert model.white is None and after < before
