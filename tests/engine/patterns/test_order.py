"""The move scorer learned from search (gomoku_lab.order_fit, patterns.order_weights) and
the order it gives movegen: fitted on a small set, the same under the 8 symmetries,
tables equal to the cached keys, and tactical moves first."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gomoku.core.geometry import moves_from_text, to_text, transform
from gomoku.core.rules import Rule
from gomoku.game.board import Board
from gomoku.patterns import order_weights
from gomoku.patterns.order_weights import OrderWeights, load_order, order_path
from gomoku.search import movegen
from gomoku.search.threats import ThreatSearch
from gomoku_lab import order_fit
from gomoku_lab.selfplay import generate_games


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return list(generate_games(10, seed=5, budgets=(300, 600)))


@pytest.fixture(scope="module")
def data(games: list[dict]) -> order_fit.OrderData:
    return order_fit.build_data(games, Rule.FREESTYLE)


def test_the_engine_ships_fitted_tables() -> None:
    w = load_order(Rule.FREESTYLE)
    assert w.source == str(order_path(Rule.FREESTYLE))
    assert movegen.FITTED and w.uses_last
    assert load_order(Rule.RENJU).own == w.own  # other rules use freestyle's file


def test_fit_on_a_small_set_learns_the_chosen_moves(data: order_fit.OrderData) -> None:
    assert data.positions > 50
    model = order_fit.fit(data, iterations=60, pair=True, last=True, out=lambda *_: None)
    loss, _ = order_fit.softmax_loss(model.scores(data), data)
    uniform, _ = order_fit.softmax_loss(np.zeros(len(data.own)), data)
    assert loss < uniform - 0.5
    stats = order_fit.rank_stats(model.scores(data), data)
    mean_candidates = float(np.mean(np.diff(data.start)))
    assert stats["top1"] > 3 / mean_candidates  # far better than a random order


def test_fitted_tables_survive_the_file_and_give_the_same_order(
    data: order_fit.OrderData, tmp_path
) -> None:
    model = order_fit.fit(data, iterations=30, pair=True, last=True, out=lambda *_: None)
    w = order_fit.to_weights(model, Rule.FREESTYLE, "test")
    path = tmp_path / "order.json"
    w.save(path)
    back = OrderWeights.from_json(path.read_text(), str(path))
    assert back == w
    ints = order_fit.from_weights(back).scores(data) / order_fit.SCORE_UNIT
    floats = model.scores(data)
    shift = np.median(floats - ints)
    assert np.max(np.abs(floats - ints - shift)) < 4 / order_fit.SCORE_UNIT  # rounding only


def test_movegen_keys_equal_the_tables(data: order_fit.OrderData) -> None:
    """The cached per-summary keys plus the last stones maps (fast) give the shipped
    tables' score looked up one by one (slow)."""
    slow = order_fit.from_weights(load_order(Rule.FREESTYLE)).scores(data)
    fast = data.key % movegen.BUCKET_SCALE
    assert np.array_equal(slow.astype(np.int64), fast)


def test_malformed_order_files_are_refused(tmp_path) -> None:
    good = load_order(Rule.FREESTYLE).to_json()
    doc = json.loads(good)
    cells = next(k for k in doc if k.startswith("cells"))
    del doc[cells][next(iter(doc[cells]))]
    for text in ("", "{}", good.replace('"format": 1', '"format": 9'), json.dumps(doc)):
        with pytest.raises(ValueError):
            OrderWeights.from_json(text, "bad.json")


def test_a_broken_file_falls_back_to_the_classic_tables(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(order_weights, "DATA_DIR", tmp_path)
    (tmp_path / "order-freestyle.json").write_text("{ not json")
    load_order.cache_clear()
    try:
        assert load_order(Rule.FREESTYLE) == OrderWeights.classic(Rule.FREESTYLE)
    finally:
        load_order.cache_clear()


@pytest.mark.parametrize("seed", range(4))
def test_order_is_the_same_under_the_8_symmetries(seed: int) -> None:
    """The whole quiet order (keys and cells) maps onto itself, last stones included."""
    import random

    rng = random.Random(seed)
    board = Board()
    while board.ply < 12 + 4 * seed:
        moves = movegen.generate(board, None)
        board.make(rng.choice(moves[:6]))
        if board.winner:
            board.unmake()
            break
    moves = board.moves
    base = {board.point(q): k for k, q in movegen.ranked(board)}
    for k in range(8):
        moved = Board.from_moves([transform(k, x, y, 15) for x, y in moves])
        got = {moved.point(q): key for key, q in movegen.ranked(moved)}
        assert got == {transform(k, x, y, 15): key for (x, y), key in base.items()}


@pytest.mark.parametrize("seed", range(4))
def test_generate_orders_quiet_positions_as_ranked_does(seed: int) -> None:
    """generate's inline last stones look-up (fast) gives ranked's order, which adds
    last_bonus cell by cell (slow), in quiet positions of random games."""
    import random

    rng = random.Random(100 + seed)
    board = Board()
    compared = 0
    while board.ply < 40 and not board.winner:
        moves = order_fit.quiet_candidates(board)
        if moves is not None:
            assert moves == [q for _, q in movegen.ranked(board)]
            compared += 1
        board.make(rng.choice(movegen.generate(board, None)[:5]))
    assert compared >= 5


def _first(text: str) -> tuple[Board, str]:
    board = Board.from_moves(moves_from_text(text, 15))
    return board, to_text(*board.point(movegen.generate(board)[0]), 15)


def test_a_block_of_an_open_three_comes_first() -> None:
    # white's open three f10 g10 h10, black has nothing to attack with
    _, first = _first("h8 f10 i7 g10 b2 h10")
    assert first in {"e10", "i10"}


def test_a_four_three_comes_first() -> None:
    # black: h8 i8 j8 (a three, k8 / g8 make it four) and k5 k6 k7 (open three):
    # k8 makes a four and an open four at once
    _, first = _first("h8 a1 i8 a3 j8 a5 k5 a7 k6 a9 k7 a11")
    assert first == "k8"


VCT_THREATS = (  # as in test_search: the side not to move would win by VCT
    "h8 g7 h7 h6 i7 f8 i5 d10 e9",
    "h8 h7 g8 f8 f7 e6 e8 d9 e9 e10 c8 g9 e7",
    "h8 h7 i7 i8 k5 l4 f10 e11 j6 g9 f9 f5 e4 g6 j9 f7",
    "h8 h9 h10 g7 j8 k7 i8 k8 k10 j10 i7",
)


def _stops_the_threat(board: Board, q: int) -> bool:
    board.make(q)
    try:
        probe = ThreatSearch(board)
        return probe.vcf(12) is None and probe.vct(4) is None
    finally:
        board.unmake()


@pytest.mark.parametrize("text", VCT_THREATS)
def test_a_move_that_stops_the_opponents_vct_comes_first_or_second(text: str) -> None:
    """Where the opponent threatens a VCT, a defence leads the order: first in three of
    these four positions, second in the other (behind a counter-attack), and so never
    reduced by LMR (from index alphabeta.LMR_FROM) nor cut."""
    board = Board.from_moves(moves_from_text(text, 15))
    moves = movegen.generate(board)
    assert not _stops_the_threat(board, moves[-1]) or len(moves) < 3  # the premise
    assert any(_stops_the_threat(board, q) for q in moves[:2])


def test_a_defence_is_first_in_most_vct_positions() -> None:
    firsts = 0
    for text in VCT_THREATS:
        board = Board.from_moves(moves_from_text(text, 15))
        firsts += _stops_the_threat(board, movegen.generate(board)[0])
    assert firsts >= 3
