"""Fit the evaluation to game results ("Texel tuning"): ``python -m gomoku_lab.tune``.

The evaluation (evaluation.py) is a logistic model of the side to move's result:

    logit = sum over empty cells of MOVER[s_mover(cell)] + OTHER[s_other(cell)]
            + THREAT[best class of the mover, best class of the other side] + TEMPO

where ``s_side(cell)`` is the cell's one-side summary: the multiset of that side's
pattern classes in the 4 directions (patterns.py; 715 possible), and a side's "best
class" is the strongest threat class (patterns.threat_class) over its empty cells.

The fit minimises the cross-entropy between sigmoid(logit) and the game's result for the
side to move (1 win, 0.5 draw, 0 loss) over positions of recorded games, by full-batch
Adam on sparse counts. Each summary's weight is an additive part (a weight per pattern
class, times how often the summary has that class) plus a residual under an L2 penalty:
rare summaries stay close to the additive model, common ones get their own value.

With ``fit --by-colour`` two such models are fitted, one on the positions with black to
move and one on those with white to move (renju, where the colours play different games:
black's double threes, double fours and overlines are forbidden, white's are not, yet the
pattern summaries are the same). The engine uses them at no cost: its incremental sums keep
each colour's mover and other terms apart (EvalWeights.for_side).

Only positions the search can evaluate are used: the side to move has no five to make,
the other side no five to make, and the side to move no open four to make (the search
scores those without the evaluation).

Commands::

    python -m gomoku_lab.tune games --games 2000 --out games.jsonl [--workers 2] [--seed 1]
    python -m gomoku_lab.tune fit games.jsonl [more.jsonl ...] [--rule freestyle] [--out PATH]
    python -m gomoku_lab.tune fit renju.jsonl --rule renju --by-colour --out PATH
    python -m gomoku_lab.tune check games.jsonl  # log loss of the shipped weights on a file
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from gomoku.core.geometry import moves_from_text
from gomoku.core.rules import Rule, parse_rule
from gomoku.game.board import Board
from gomoku.patterns.tables import (
    COUNT_BITS,
    NONE,
    PATTERN_COUNT,
    SIDE_MASK,
    SIDE_SHIFT,
    T_FIVE,
    T_OPEN_FOUR,
)
from gomoku.patterns.weights import (
    FINE,
    SUMMARY_INDEX,
    SUMMARY_LIST,
    SUMMARY_THREAT,
    THREAT_CLASSES,
    EvalWeights,
    weights_path,
)

N_SUMMARIES = len(SUMMARY_LIST)
D = TypeVar("D")  # a data set split by game (split_by_game)
N_THREAT = THREAT_CLASSES * THREAT_CLASSES
MIN_PLY = 3  # positions with fewer stones are not used


@dataclass
class Dataset:
    """Sparse features of positions: per position, counts per summary index for the side
    to move and for the other side, the threat pair index, the target and the game."""

    rows: np.ndarray  # entry -> position
    cols: np.ndarray  # entry -> feature (0..N_SUMMARIES-1 mover, N_SUMMARIES.. other)
    vals: np.ndarray  # entry -> count
    threat: np.ndarray  # position -> mover_best * THREAT_CLASSES + other_best
    target: np.ndarray  # position -> result for the side to move (0, 0.5, 1)
    game: np.ndarray  # position -> game index
    side: np.ndarray  # position -> side to move (1 black, 2 white)

    @property
    def positions(self) -> int:
        return len(self.target)

    def subset(self, mask: np.ndarray) -> Dataset:
        """The positions where mask is True (renumbered)."""
        keep = np.flatnonzero(mask)
        new_index = np.full(len(mask), -1, dtype=np.int64)
        new_index[keep] = np.arange(len(keep))
        entry = mask[self.rows]
        return Dataset(
            new_index[self.rows[entry]],
            self.cols[entry],
            self.vals[entry],
            self.threat[keep],
            self.target[keep],
            self.game[keep],
            self.side[keep],
        )


def evaluable(board: Board) -> bool:
    """Would the search call the evaluation here (see the module docstring)?"""
    mover, other = board.side, 3 - board.side
    return not (
        board.threat_count(mover, T_FIVE)
        or board.threat_count(other, T_FIVE)
        or board.threat_count(mover, T_OPEN_FOUR)
    )


def position_features(board: Board) -> tuple[dict[int, int], int]:
    """(counts per feature index, threat pair index) of a position, computed from the
    cell summaries (the slow, obvious way; the board's incremental sums must agree)."""
    counts: dict[int, int] = {}
    mover = board.side
    best = [0, 0, 0]
    cells = board.cells
    for q in board.layout.onboard:
        if cells[q]:
            continue
        s = board.summary[q]
        for side in (1, 2):
            one = (s >> (SIDE_SHIFT if side == 2 else 0)) & SIDE_MASK
            idx = SUMMARY_INDEX[one]
            t = SUMMARY_THREAT[idx]
            if t > best[side]:
                best[side] = t
            f = idx if side == mover else N_SUMMARIES + idx
            counts[f] = counts.get(f, 0) + 1
    return counts, best[mover] * THREAT_CLASSES + best[3 - mover]


def read_games(paths: Iterable[str | Path]) -> Iterator[dict]:
    """Game records from JSON lines files (.gz allowed): the self-play format or the match
    runner's --records format (moves as text or [x, y] lists, winner)."""
    for path in paths:
        path = Path(path)
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line:
                    yield json.loads(line)


def _record_moves(rec: dict, size: int) -> list[tuple[int, int]]:
    moves = rec["moves"]
    if isinstance(moves, str):
        return moves_from_text(moves, size)
    return [(int(m[0]), int(m[1])) for m in moves]


MATCH_RESULTS = {"1-0": 1, "0-1": 2, "1/2-1/2": 0}  # the match runner's, black's view


def _record_winner(rec: dict) -> int:
    """0 draw, 1 black, 2 white: a self-play record's ``winner`` colour, or a match
    record's ``result`` (its ``winner`` names an engine, not a colour)."""
    if "winner_colour" in rec:
        return int(rec["winner_colour"])
    if "result" in rec:
        try:
            return MATCH_RESULTS[rec["result"]]
        except (KeyError, TypeError):
            raise ValueError(f"unknown game result {rec['result']!r}") from None
    return int(rec.get("winner", 0) or 0)


def build_dataset(records: Iterable[dict], rule: Rule) -> Dataset:
    """Replay each game and collect the features of its evaluable positions."""
    rows, cols, vals, threat, target, game, side = [], [], [], [], [], [], []
    n = 0
    for gi, rec in enumerate(records):
        if parse_rule(rec.get("rule", "freestyle")) != rule:
            continue
        size = int(rec.get("size", 15))
        winner = _record_winner(rec)
        board = Board(size, rule)
        for x, y in _record_moves(rec, size):
            if board.winner:
                break
            if board.ply >= MIN_PLY and evaluable(board):
                counts, t = position_features(board)
                for f, c in counts.items():
                    rows.append(n)
                    cols.append(f)
                    vals.append(c)
                threat.append(t)
                target.append(0.5 if winner == 0 else float(winner == board.side))
                game.append(gi)
                side.append(board.side)
                n += 1
            board.play(x, y)
    return Dataset(
        np.array(rows, dtype=np.int64),
        np.array(cols, dtype=np.int64),
        np.array(vals, dtype=np.float64),
        np.array(threat, dtype=np.int64),
        np.array(target, dtype=np.float64),
        np.array(game, dtype=np.int64),
        np.array(side, dtype=np.int64),
    )


def class_counts() -> np.ndarray:
    """(N_SUMMARIES, PATTERN_COUNT): how many directions of each summary have each class."""
    out = np.zeros((N_SUMMARIES, PATTERN_COUNT))
    for i, s in enumerate(SUMMARY_LIST):
        for c in range(PATTERN_COUNT):
            out[i, c] = (s >> (COUNT_BITS * c)) & 7
    return out


@dataclass
class Model:
    """Real-valued weights of the logistic model (logit units). With ``white``, these
    tables are black's to move and ``white``'s are used when white is to move (a model
    by colour, for renju)."""

    mover: np.ndarray  # (N_SUMMARIES,)
    other: np.ndarray
    threat: np.ndarray  # (THREAT_CLASSES * THREAT_CLASSES,)
    tempo: float
    white: Model | None = None

    def logits(self, data: Dataset) -> np.ndarray:
        w = np.concatenate([self.mover, self.other])
        z = np.bincount(data.rows, weights=w[data.cols] * data.vals, minlength=data.positions)
        z = z + self.threat[data.threat] + self.tempo
        if self.white is not None:
            z = np.where(data.side == 2, self.white.logits(data), z)
        return z


def fit_by_colour(data: Dataset, iterations: int = 300, out=print, **kw) -> Model:
    """Two models (fit), one on the positions with black to move and one on those with
    white to move."""
    models = []
    for side, name in ((1, "black"), (2, "white")):
        if out:
            out(f"{name} to move:")
        models.append(fit(data.subset(data.side == side), iterations, out=out, **kw))
    black, white = models
    black.white = white
    return black


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


PARAM_GROUPS = (
    ("base_m", PATTERN_COUNT),
    ("base_o", PATTERN_COUNT),
    ("res_m", N_SUMMARIES),
    ("res_o", N_SUMMARIES),
    ("threat", N_THREAT),
    ("tempo", 1),
)


def fit(
    data: Dataset,
    iterations: int = 300,
    residual_l2: float = 3e-4,
    base_l2: float = 1e-6,
    threat_l2: float = 1e-4,
    out=print,
    prior: Model | None = None,
) -> Model:
    """Fit the model by L-BFGS on the regularised cross-entropy (see the module
    docstring). The weight of the summary with no pattern at all (an empty
    neighbourhood) is fixed at 0.

    With a ``prior`` (a model without tables by colour, e.g. another rule's), the fitted
    model is ``k * prior + delta``: a free factor k (from 1) and the usual parameters as
    the change, so the penalties pull towards the scaled prior instead of towards 0 (for
    a rule with fewer games than the prior's)."""
    counts = class_counts()  # (S, C)
    none_index = SUMMARY_INDEX[4 << (COUNT_BITS * NONE)]  # four NONE directions
    l2_of = {
        "base_m": base_l2,
        "base_o": base_l2,
        "res_m": residual_l2,
        "res_o": residual_l2,
        "threat": threat_l2,
        "tempo": 0.0,
    }
    l2 = np.concatenate([np.full(n, l2_of[k]) for k, n in PARAM_GROUPS])
    n = data.positions
    if prior is not None:
        if prior.white is not None:
            raise ValueError("a prior with tables by colour is not supported")
        z0 = prior.logits(data)
        l2 = np.append(l2, 0.0)  # the prior's factor, last

    def loss_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        params = _unflatten(theta)
        z = _model(params, counts, none_index).logits(data)
        if prior is not None:
            z = z + theta[-1] * z0
        p = sigmoid(z)
        err = (p - data.target) / n
        gw = np.bincount(data.cols, weights=err[data.rows] * data.vals, minlength=2 * N_SUMMARIES)
        gw[none_index] = 0.0
        gw[N_SUMMARIES + none_index] = 0.0
        grads = {
            "base_m": counts.T @ gw[:N_SUMMARIES],
            "base_o": counts.T @ gw[N_SUMMARIES:],
            "res_m": gw[:N_SUMMARIES],
            "res_o": gw[N_SUMMARIES:],
            "threat": np.bincount(data.threat, weights=err, minlength=N_THREAT),
            "tempo": np.array([err.sum()]),
        }
        if prior is not None:
            grads["prior"] = np.array([float(err @ z0)])
        g = np.concatenate(list(grads.values())) + l2 * theta
        return log_loss(p, data.target) + 0.5 * float(l2 @ (theta * theta)), g

    start = np.zeros(len(l2))
    if prior is not None:
        start[-1] = 1.0
    theta = lbfgs(loss_and_grad, start, iterations, out=out)
    model = _model(_unflatten(theta), counts, none_index)
    if prior is not None:
        k = float(theta[-1])
        if out:
            out(f"prior factor {k:.4f}")
        model = Model(
            model.mover + k * prior.mover,
            model.other + k * prior.other,
            model.threat + k * prior.threat,
            model.tempo + k * prior.tempo,
        )
    return model


def _unflatten(theta: np.ndarray) -> dict[str, np.ndarray]:
    out, i = {}, 0
    for k, n in PARAM_GROUPS:
        out[k] = theta[i : i + n]
        i += n
    return out


def lbfgs(f, x: np.ndarray, iterations: int, memory: int = 12, out=print) -> np.ndarray:
    """Minimise f (returning value and gradient) by L-BFGS with a backtracking line
    search; stops after ``iterations`` steps or when the value stops improving."""
    fx, g = f(x)
    steps: list[tuple[np.ndarray, np.ndarray, float]] = []
    for it in range(1, iterations + 1):
        q = g.copy()
        alphas = []
        for s, y, rho in reversed(steps):
            a = rho * float(s @ q)
            alphas.append(a)
            q -= a * y
        if steps:
            s, y, _ = steps[-1]
            q *= float(s @ y) / float(y @ y)
        else:
            q /= max(1.0, float(np.linalg.norm(g)))
        for (s, y, rho), a in zip(steps, reversed(alphas), strict=True):
            q += s * (a - rho * float(y @ q))
        d = -q
        slope = float(g @ d)
        if slope >= 0:  # not a descent direction: restart from the gradient
            steps.clear()
            d, slope = -g, -float(g @ g)
        t = 1.0
        while True:
            x_new = x + t * d
            f_new, g_new = f(x_new)
            if f_new <= fx + 1e-4 * t * slope or t < 1e-12:
                break
            t *= 0.5
        s, y = x_new - x, g_new - g
        if float(s @ y) > 1e-12:
            steps.append((s, y, 1.0 / float(s @ y)))
            if len(steps) > memory:
                steps.pop(0)
        improved = fx - f_new
        x, fx, g = x_new, f_new, g_new
        if out and (it % 50 == 0 or it == iterations):
            out(f"iteration {it}: objective {fx:.5f}")
        if 0 <= improved < 1e-9:
            break
    return x


def _model(params: dict, counts: np.ndarray, none_index: int) -> Model:
    mover = counts @ params["base_m"] + params["res_m"]
    other = counts @ params["base_o"] + params["res_o"]
    mover[none_index] = 0.0
    other[none_index] = 0.0
    return Model(mover, other, params["threat"].copy(), float(params["tempo"][0]))


def to_weights(model: Model, rule: Rule, scale: int, note: str) -> EvalWeights:
    """Integer tables for the engine: logit units times ``scale`` centi-units, in
    1/FINE centi-units."""

    def ints(a: np.ndarray) -> list[int]:
        return [int(round(x * scale * FINE)) for x in a]

    white = model.white
    return EvalWeights(
        rule=rule,
        scale=scale,
        mover=ints(model.mover),
        other=ints(model.other),
        threat=ints(model.threat),
        tempo=int(round(model.tempo * scale * FINE)),
        note=note,
        white_mover=ints(white.mover) if white else None,
        white_other=ints(white.other) if white else None,
        white_threat=ints(white.threat) if white else None,
        white_tempo=int(round(white.tempo * scale * FINE)) if white else None,
    )


def from_weights(w: EvalWeights) -> Model:
    unit = w.scale * FINE

    def model(side: int) -> Model:
        mover, other, threat, tempo = w.for_side(side)
        return Model(
            np.array(mover, dtype=np.float64) / unit,
            np.array(other, dtype=np.float64) / unit,
            np.array(threat, dtype=np.float64) / unit,
            tempo / unit,
        )

    out = model(1)
    if w.by_colour:
        out.white = model(2)
    return out


def best_scale(z: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The multiplier of the logits with the lowest log loss (golden-section search on a
    log scale) -> (multiplier, loss): how well a model ranks positions, whatever its
    units."""
    lo, hi = -6.0, 3.0  # log multiplier bounds

    def f(t: float) -> float:
        return log_loss(sigmoid(z * math.exp(t)), y)

    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = f(a), f(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = f(b)
    t = (lo + hi) / 2
    return math.exp(t), f(t)


def split_by_game(data: D, holdout: float, seed: int = 7) -> tuple[D, D]:
    """(train, validation): whole games go to one side. ``data`` is any data set with a
    game index per position (``.game``) and ``.subset(mask)``: this one's, or the move
    ordering's (order_fit.py)."""
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    held = set(rng.choice(games, size=int(len(games) * holdout), replace=False).tolist())
    mask = np.array([g in held for g in data.game])
    return data.subset(~mask), data.subset(mask)


def _print_by_colour(z: np.ndarray, data: Dataset) -> None:
    """Log loss of logits z split by the colour to move."""
    parts = []
    for side, name in ((1, "black"), (2, "white")):
        m = data.side == side
        if m.any():
            loss = log_loss(sigmoid(z[m]), data.target[m])
            parts.append(f"{name} to move {int(m.sum())} positions, {loss:.5f}")
    print("  by colour: " + "; ".join(parts))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m gomoku_lab.tune", description=__doc__.split("\n")[0]
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games", help="play self-play games at fixed node counts")
    g.add_argument("--games", type=int, required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--workers", type=int, default=1)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--rule", default="freestyle")
    g.add_argument("--size", type=int, default=15)
    g.add_argument("--nodes", default="500,1000,2000,4000", help="budgets drawn per game")
    f = sub.add_parser("fit", help="fit the evaluation to recorded games")
    f.add_argument("games", nargs="+")
    f.add_argument("--rule", default="freestyle")
    f.add_argument("--out", default=None, help="weights file (default: the packaged one)")
    f.add_argument("--iterations", type=int, default=300)
    f.add_argument("--holdout", type=float, default=0.1, help="share of games held out")
    f.add_argument("--residual-l2", type=float, default=3e-4)
    f.add_argument("--scale", type=int, default=200, help="centi-units per logit unit")
    f.add_argument("--base-l2", type=float, default=1e-6)
    f.add_argument("--threat-l2", type=float, default=1e-4)
    f.add_argument(
        "--prior",
        default=None,
        help="weights file to start from: fit k * prior + change (penalties pull to it)",
    )
    f.add_argument(
        "--by-colour",
        action="store_true",
        help="separate tables for black to move and white to move (renju)",
    )
    c = sub.add_parser("check", help="log loss of the shipped weights on recorded games")
    c.add_argument("games", nargs="+")
    c.add_argument("--rule", default="freestyle")
    c.add_argument("--classic", action="store_true", help="the hand-typed model instead")
    c.add_argument("--weights", default=None, help="a weights file instead")
    args = p.parse_args(argv)

    if args.cmd == "games":
        from gomoku_lab.selfplay import generate_games, write_games

        budgets = tuple(int(x) for x in args.nodes.split(","))
        records = generate_games(
            args.games, args.seed, args.size, args.rule, budgets, workers=args.workers
        )
        n = write_games(args.out, records)
        print(f"wrote {n} games to {args.out}")
        return 0

    rule = parse_rule(args.rule)
    data = build_dataset(read_games(args.games), rule)
    print(f"{data.positions} positions from {len(np.unique(data.game))} games")
    if args.cmd == "check":
        if args.classic:
            weights = EvalWeights.classic(rule)
        elif args.weights:
            path = Path(args.weights)
            weights = EvalWeights.from_json(path.read_text(encoding="utf-8"), str(path))
        else:
            weights = EvalWeights.load(rule)
        z = from_weights(weights).logits(data)
        scale, loss = best_scale(z, data.target)
        print(f"{weights.source or 'weights'}: log loss {log_loss(sigmoid(z), data.target):.5f}")
        print(f"best rescaled (logits x {scale:.3f}): log loss {loss:.5f}")
        _print_by_colour(z, data)
        return 0
    fitter = fit_by_colour if args.by_colour else fit
    kw = {"residual_l2": args.residual_l2, "base_l2": args.base_l2, "threat_l2": args.threat_l2}
    if args.prior:
        path = Path(args.prior)
        text = path.read_text(encoding="utf-8")
        kw["prior"] = from_weights(EvalWeights.from_json(text, str(path)))
    train, valid = split_by_game(data, args.holdout) if args.holdout > 0 else (data, None)
    model = fitter(train, args.iterations, **kw)
    if valid is not None and valid.positions:
        z = model.logits(valid)
        loss = log_loss(sigmoid(z), valid.target)
        print(f"validation: {valid.positions} positions, log loss {loss:.5f}")
        _print_by_colour(z, valid)
        model = fitter(data, args.iterations, out=None, **kw)
    note = (
        f"fitted by python -m gomoku_lab.tune fit{' --by-colour' if args.by_colour else ''}"
        f"{' --prior ' + Path(args.prior).name if args.prior else ''} "
        f"on {data.positions} positions of "
        f"{len(np.unique(data.game))} games ({', '.join(Path(x).name for x in args.games)})"
    )
    weights = to_weights(model, rule, args.scale, note)
    out = Path(args.out) if args.out else weights_path(rule)
    weights.save(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Dataset", "Model", "build_dataset", "fit", "fit_by_colour", "position_features", "main"]
