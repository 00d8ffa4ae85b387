"""Fit the weights of a game's position evaluation (``solo/games/<game>/evaluate.py``: ``FEATURES``, ``WEIGHTS``;
Covenant of Wizards has one), which the search bot uses to score its shortened playouts.

It plays automaton games (one move in ten at random, for variety), records every seat's features at positions a
few steps apart, and fits a conditional logit: the chance that seat k wins is softmax over the seats of
weights · features(k). The fit is Newton's method with a small ridge penalty, in plain Python (a dozen weights
do not need numpy). It prints the weights to paste into ``WEIGHTS``, and the held-out log loss, accuracy and Brier
score of the fitted evaluation, of the weights in the code and of the hand-set evaluation it replaced.

    python scripts/fit_eval.py --game covenant [--games 3000] [--players 2] [--seed 777]
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from wizprint.solo.agents import make_agent
from wizprint.solo.kernel import engine
from wizprint.solo.kernel.rng import Rng, derive

Row = tuple[list[tuple[float, ...]], int]  # features per seat, the winner
Features = Callable[[Any, int], tuple[float, ...]]


def evaluation(game: str) -> tuple[tuple[str, ...], Features, tuple[float, ...]]:
    """A game's ``FEATURES``, ``eval_features`` and ``WEIGHTS`` (its package's ``evaluate`` module)."""
    m = importlib.import_module(f"wizprint.solo.games.{engine(game).decl.module}.evaluate")
    return m.FEATURES, m.eval_features, m.WEIGHTS


def positions(game: str, players: int, games: int, seed: int) -> list[Row]:
    eng = engine(game)
    _, eval_features, _ = evaluation(game)
    rows: list[Row] = []
    for i in range(games):
        gs = derive(seed, players, i)
        s = eng.new_state(players, gs)
        agents = [make_agent("automaton", eng, derive(gs, "a", k)) for k in range(players)]
        rng = Rng(derive(gs, "eps"))
        mine: list[list[tuple[float, ...]]] = []
        nxt = rng.below(12)
        while not s.is_terminal():
            if s.steps >= nxt:
                mine.append([eval_features(s, k) for k in range(players)])
                nxt = s.steps + 6 + rng.below(12)
            acts = s.legal_actions()
            p = s.current_player
            a = acts[rng.below(len(acts))] if len(acts) > 1 and rng.random() < 0.1 else agents[p].choose(s, p)
            s.apply(a)
        out = s.outcome()
        if out is not None and len(out.winners) == 1:
            rows.extend((x, out.winners[0]) for x in mine)
    return rows


def chances(x: Sequence[Sequence[float]], w: Sequence[float]) -> list[float]:
    f = [sum(a * b for a, b in zip(w, xs, strict=True)) for xs in x]
    top = max(f)
    e = [math.exp(v - top) for v in f]
    z = sum(e)
    return [v / z for v in e]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: Sequence[Row], ridge: float = 1.0) -> list[float]:
    k = len(rows[0][0][0])
    w = [0.0] * k
    for _ in range(20):
        g = [-ridge * v for v in w]
        h = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, win in rows:
            p = chances(x, w)
            mean = [sum(p[s] * x[s][i] for s in range(len(x))) for i in range(k)]
            for i in range(k):
                g[i] += x[win][i] - mean[i]
            for s in range(len(x)):
                d = [x[s][i] - mean[i] for i in range(k)]
                for i in range(k):
                    di = p[s] * d[i]
                    if di:
                        hi = h[i]
                        for j in range(k):
                            hi[j] += di * d[j]
        step = solve(h, g)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(v) for v in step) < 1e-6:
            break
    return w


def score(rows: Sequence[Row], w: Sequence[float]) -> tuple[float, float, float]:
    """(mean log likelihood, accuracy, Brier score) of the evaluation ``w`` on ``rows``."""
    ll = acc = brier = 0.0
    for x, win in rows:
        p = chances(x, w)
        ll += math.log(max(p[win], 1e-12))
        acc += max(range(len(p)), key=lambda s: p[s]) == win
        brier += sum((p[s] - (s == win)) ** 2 for s in range(len(p)))
    n = len(rows)
    return ll / n, acc / n, brier / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, help="a game with a fitted evaluation (covenant)")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=777)
    args = ap.parse_args()
    features, _, weights = evaluation(args.game)
    rows = positions(args.game, args.players, args.games, args.seed)
    random.Random(1).shuffle(rows)
    test, train = rows[: len(rows) // 5], rows[len(rows) // 5:]
    w = fit(train)
    print(f"{len(rows)} positions from {args.games} games ({len(train)} to fit, {len(test)} held out)")
    for name, v in zip(features, w, strict=True):
        print(f"  {name:20} {v:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    for label, ws in (("fitted", w), ("in the code", list(weights)), ("none (even chances)", [0.0] * len(w))):
        ll, acc, brier = score(test, ws)
        print(f"held out, {label:20}: log loss {-ll:.4f}, accuracy {acc:.1%}, Brier {brier:.4f}")

if __name__ == "__main__":
    main()
