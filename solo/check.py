"""``wizprint solo check``: many automaton games over worker processes, summarised as JSON and an HTML report.

Game i is seeded from (seed, i) and its seats from i alone, so the results are the same whatever ``--jobs``.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import asdict
from typing import Any

from wizprint.errors import UsageError

from .runner import GameResult, run_one

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (ties count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


MAX_GAMES = 10_000_000  # games of one check (each result is kept for the summary: about a kilobyte a game)
MAX_JOBS = 64
CHUNK = 50  # games a worker plays per task


def _chunk(args: tuple[str, range, int, list[str], int, str]) -> list[GameResult]:
    game, indices, seed, bots, players, variant = args
    return [run_one(game, i, seed, bots, players, variant) for i in indices]


def run_games(game: str, games: int, seed: int, bots: Sequence[str], players: int, variant: str = "",
              jobs: int = 1, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play ``games`` games; results in game order. The tasks are made as the workers need them (a few per
    worker in flight), so nothing is set up per game before the games run."""
    from .kernel import engine

    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"a check plays from 1 to {MAX_GAMES:,} games, not {games:,}")
    engine(game).new_state(players, 0)  # load card data once, before the workers fork, so they share it
    chunk = max(1, min(CHUNK, games // (jobs * 8) or 1))
    tasks = ((game, range(s, min(s + chunk, games)), seed, list(bots), players, variant)
             for s in range(0, games, chunk))
    results: list[GameResult] = []
    if jobs <= 1:
        for t in tasks:
            part = _chunk(t)
            results.extend(part)
            if progress:
                progress(len(part))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in _bounded_map(pool, tasks, 4 * jobs):
                results.extend(part)
                if progress:
                    progress(len(part))
    results.sort(key=lambda r: r.index)
    return results


def _bounded_map(pool: Executor, tasks: Iterator[tuple[str, range, int, list[str], int, str]],
                 in_flight: int) -> Iterator[list[GameResult]]:
    """``pool.map(_chunk, tasks)`` with at most ``in_flight`` tasks submitted at a time (``Executor.map`` submits
    every task at once), results in task order."""
    pending: deque[Future[list[GameResult]]] = deque()
    try:
        for t in tasks:
            pending.append(pool.submit(_chunk, t))
            if len(pending) >= in_flight:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()


def _rate(points: list[float]) -> dict[str, Any]:
    n = len(points)
    s = sum(points)
    lo, hi = wilson(s, n)
    return {"games": n, "wins": sum(1 for p in points if p == 1.0), "ties": sum(1 for p in points if p == 0.5),
            "win_rate": round(s / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}


def percentile(values: list[int], q: float) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    k = (len(v) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(v) - 1)
    return float(v[f] + (v[c] - v[f]) * (k - f))


def summarise(game: str, results: list[GameResult], seed: int, bots: Sequence[str], players: int, variant: str,
              all_designs: Sequence[str], names: dict[str, str]) -> dict[str, Any]:
    done = [r for r in results if r.outcome is not None]
    errors = [{"game": r.index, "seed": r.seed, "bots": r.bots, "error": r.error,
               "reproduce": f"wizprint solo check {game} --games {r.index + 1} --seed {seed} --bots {','.join(bots)}"
                            f" --players {players}" + (f" --variant {variant}" if variant else "")}
              for r in results if r.error]
    by_seat = {str(s): _rate([p for r in done if (p := r.points(s)) is not None]) for s in range(players)}
    bot_points: dict[str, list[float]] = {}
    for r in done:
        for s, b in enumerate(r.bots):
            p = r.points(s)
            if p is not None:
                bot_points.setdefault(b, []).append(p)
    lengths = [r.turns for r in done]
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    played_points: dict[str, list[float]] = {}
    for r in done:
        for table in r.drawn:
            for d, n in table.items():
                drawn[d] = drawn.get(d, 0) + n
        for seat, table in enumerate(r.played):
            for d, n in table.items():
                played[d] = played.get(d, 0) + n
                p = r.points(seat)
                if p is not None:
                    played_points.setdefault(d, []).append(p)
    cards = []
    for d in all_designs:
        pts = played_points.get(d, [])
        lo, hi = wilson(sum(pts), len(pts))
        cards.append({"id": d, "name": names.get(d, d), "drawn": drawn.get(d, 0), "played": played.get(d, 0),
                      "games_played_in": len(pts),
                      "win_rate_when_played": round(sum(pts) / len(pts), 4) if pts else None,
                      "ci95": [round(lo, 4), round(hi, 4)] if pts else None})
    group_sums: dict[str, list[float]] = {}
    for r in done:
        for k, (g_won, g_n, g_fair) in r.groups.items():
            g = group_sums.setdefault(k, [0.0, 0.0, 0.0])
            g[0] += g_won
            g[1] += g_n
            g[2] += g_fair
    groups = {}
    for k, (g_won, g_n, g_fair) in sorted(group_sums.items()):
        lo, hi = wilson(g_won, int(g_n))
        groups[k] = {"contests": int(g_n), "per_seat_game": round(g_n / (len(done) * players), 4) if done else None,
                     "won": int(g_won), "win_rate": round(g_won / g_n, 4) if g_n else None,
                     "fair_share": round(g_fair / g_n, 4) if g_n else None,
                     "above_fair": round((g_won - g_fair) / g_n, 4) if g_n else None,
                     "ci95": [round(lo, 4), round(hi, 4)]}
    reasons: dict[str, int] = {}
    settings: dict[str, dict[str, Any]] = {}
    numbers: dict[str, list[tuple[int, ...]]] = {}
    for r in done:
        key, nums = _reason_kind(r)
        numbers.setdefault(key, []).append(nums)
        reasons[key] = reasons.get(key, 0) + 1
        if r.setting is not None:
            st = settings.setdefault(r.setting, {"games": 0, "end_reasons": {}, "turns": []})
            st["games"] += 1
            st["end_reasons"][key] = st["end_reasons"].get(key, 0) + 1
            st["turns"].append(r.turns)
    shown = {k: _with_numbers(k, v) for k, v in numbers.items()}
    reasons = {shown[k]: n for k, n in reasons.items()}
    for v in settings.values():
        v["end_reasons"] = {shown[k]: n for k, n in v["end_reasons"].items()}
    by_setting = {k: {"games": v["games"], "end_reasons": dict(sorted(v["end_reasons"].items(), key=lambda kv: -kv[1])),
                      "median_turns": round(float(statistics.median(v["turns"])), 1)}
                  for k, v in sorted(settings.items())}
    return {
        "game": game, "variant": variant or None, "players": players, "bots": list(bots), "seed": seed,
        "games": len(results), "completed": len(done), "errors": errors,
        "step_cap_hits": sum(1 for r in results if r.step_cap),
        "win_rate_by_seat": by_seat, "win_rate_by_bot": {b: _rate(p) for b, p in sorted(bot_points.items())},
        "length_turns": {"mean": round(statistics.fmean(lengths), 2) if lengths else None,
                         "median": statistics.median(lengths) if lengths else None,
                         "p95": round(percentile(lengths, 0.95), 1), "min": min(lengths, default=None),
                         "max": max(lengths, default=None), "histogram": _histogram(lengths)},
        "steps_mean": round(statistics.fmean([r.steps for r in done]), 1) if done else None,
        "end_reasons": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "by_setting": by_setting,
        "groups": groups,
        "cards": cards,
        "never_played": [c["id"] for c in cards if c["played"] == 0],
    }


def _reason_kind(r: GameResult) -> tuple[str, tuple[int, ...]]:
    """The kind of ending: the reason without the seat or the details after a colon or in brackets, with its
    numbers taken out (a NUL marks each) and returned apart, so that endings differing only in a number are one
    kind."""
    key = str((r.outcome or {}).get("reason", "")).split(":")[0].split("(")[0].strip()
    key = re.sub(r"\bP\d+\b", "a player", key)
    return re.sub(r"\d+", "\0", key), tuple(int(n) for n in re.findall(r"\d+", key))


def _with_numbers(kind: str, seen: list[tuple[int, ...]]) -> str:
    """A kind of ending in words: each marked number is the number all such games had, or their range (``12-15``)."""
    parts = kind.split("\0")
    out = parts[0]
    for i, rest in enumerate(parts[1:]):
        vals = [t[i] for t in seen if len(t) > i]
        lo, hi = (min(vals), max(vals)) if vals else (0, 0)
        out += (str(lo) if lo == hi else f"{lo}-{hi}") + rest
    return out


def _histogram(values: list[int]) -> list[list[int]]:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return [[k, counts[k]] for k in sorted(counts)]


def results_as_json(results: list[GameResult]) -> list[dict[str, Any]]:
    return [asdict(r) for r in results]
