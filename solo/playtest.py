"""A playtest (``wizprint solo check``): many automaton games over worker processes (or a Dask cluster), summarised
as JSON and an HTML report (:mod:`.report`). (A playtest plays games; a loaded state's invariants are checked by
:mod:`.kernel.invariants`; a game folder's data is validated by :mod:`wizprint.validation`.)

Game i is seeded from (seed, i) and its seats from i alone, so the results are the same whatever ``--jobs``, and on
a cluster (``--cluster``).
"""

from __future__ import annotations

import itertools
import math
import shlex
import signal
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from wizprint.errors import UsageError
from wizprint.processes import signal_of

from .kernel.rng import derive
from .runner import GameResult
from .workers import CHUNK, Task, one_by_one, pool_map, worker_pool

if TYPE_CHECKING:
    from .cluster import Cluster

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


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM: ``signum``) stopped :func:`run_games`: ``results`` holds the games finished by then, in
    game order, of the ``planned`` games."""

    def __init__(self, results: list[GameResult], planned: int, signum: int = signal.SIGINT) -> None:
        super().__init__()
        self.results = results
        self.planned = planned
        self.signum = int(signum)
        self.rungs: list[dict[str, Any]] = []  # the ladder's matches played by then (:func:`ladder`)


def run_games(game: str, games: int, seed: int, bots: Sequence[str], players: int, variant: str = "",
              jobs: int = 1, progress: Callable[[int], None] | None = None, assign: str = "bots",
              cluster: Cluster | None = None, budget_seconds: float | None = None) -> list[GameResult]:
    """Play ``games`` games; results in game order. The tasks are made as the workers need them (a few per
    worker in flight), so nothing is set up per game before the games run. With ``cluster``, its workers play
    the same tasks instead of ``jobs`` local processes (:mod:`wizprint.solo.cluster`); ``budget_seconds`` bounds
    every search move (``--budget-seconds``).

    Ctrl-C (KeyboardInterrupt) stops the games, ends the worker processes and raises :class:`Interrupted` with the
    games finished so far (those of chunks that came back, in or out of turn)."""
    from .kernel import engine

    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"a check plays from 1 to {MAX_GAMES:,} games, not {games:,}")
    results: list[GameResult] = []
    try:
        engine(game).new_state(players, 0)  # load card data once, before the workers fork, so they share it
        slots = jobs
        if cluster is not None:
            from .cluster import game_for_workers

            slots, game = cluster.slots, game_for_workers(game)
        chunk = max(1, min(CHUNK, games // (slots * 8) or 1))
        tasks = (Task(game, range(s, min(s + chunk, games)), seed, list(bots), players, variant, assign,
                      budget_seconds) for s in range(0, games, chunk))
        with ExitStack() as stack:
            parts: Iterator[list[GameResult]]
            if cluster is not None:
                parts = cluster.map(tasks, 4 * slots)
            elif jobs <= 1:
                parts = one_by_one(tasks)
            else:
                pool = stack.enter_context(worker_pool(jobs))
                parts = pool_map(pool, tasks, 4 * jobs, results.extend)
            try:
                for part in parts:
                    results.extend(part)
                    if progress:
                        progress(len(part))
            finally:
                close = getattr(parts, "close", None)
                if close is not None:
                    close()  # at once (before the workers end): the chunks done but not yet taken are kept
    except KeyboardInterrupt as stop:
        results.sort(key=lambda r: r.index)
        raise Interrupted(results, games, signal_of(stop)) from None
    results.sort(key=lambda r: r.index)
    return results


def _rate(points: list[float]) -> dict[str, Any]:
    n = len(points)
    s = sum(points)
    lo, hi = wilson(s, n)
    return {"games": n, "wins": sum(1 for p in points if p == 1.0), "ties": sum(1 for p in points if p == 0.5),
            "win_rate": round(s / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    v = sorted(values)
    k = (len(v) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(v) - 1)
    return float(v[f] + (v[c] - v[f]) * (k - f))


def summarise(game: str, results: list[GameResult], seed: int, bots: Sequence[str], players: int, variant: str,
              all_designs: Sequence[str], names: dict[str, str], decks: dict[str, str] | None = None,
              assign: str = "bots", rungs: list[dict[str, Any]] | None = None, planned: int | None = None,
              partial: bool = False, ran: str | None = None, budget_seconds: float | None = None) -> dict[str, Any]:
    """The summary of a check (the JSON); ``planned`` is the games asked for and ``partial`` says that Ctrl-C
    stopped the check before they were all played (``results`` holds those finished). ``ran`` is the game as the
    command named it (a folder's path), for the command that reproduces an error; ``budget_seconds`` the bound the
    command put on every search move."""
    done = [r for r in results if r.outcome is not None]
    again = reproduce(ran or game, seed, bots, players, variant, assign, budget_seconds)
    errors = [{"game": r.index, "seed": r.seed, "bots": r.bots, "error": r.error,
               "reproduce": again(r.index)} for r in results if r.error]
    by_seat = {str(s): _rate([p for r in done if (p := r.points(s)) is not None]) for s in range(players)}
    bot_points: dict[str, list[float]] = {}
    for r in done:
        for s, b in enumerate(r.bots):
            p = r.points(s)
            if p is not None:
                bot_points.setdefault(b, []).append(p)
    lengths = [r.turns for r in done]
    cards = card_stats(done, players, all_designs, names, decks or {})
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
    # how the games ended, by termination (the endings each game declares): counted, and said in the words the game
    # gives each ending, with the numbers all such games had (or their range)
    ends: dict[str, int] = {}
    settings: dict[str, dict[str, Any]] = {}
    words: dict[str, str] = {}
    numbers: dict[str, list[list[int]]] = {}
    for r in done:
        key = _termination(r)
        words.setdefault(key, r.outcome.get("words", "") if r.outcome else "")
        numbers.setdefault(key, []).append(list(r.outcome.get("numbers", ())) if r.outcome else [])
        ends[key] = ends.get(key, 0) + 1
        if r.setting is not None:
            st = settings.setdefault(r.setting, {"games": 0, "ends": {}, "turns": [], "events": {}})
            st["games"] += 1
            for e in r.events:
                st["events"][e] = st["events"].get(e, 0) + 1
            st["ends"][key] = st["ends"].get(key, 0) + 1
            st["turns"].append(r.turns)
    shown = {k: _said(words[k] or k, v) for k, v in numbers.items()}
    by_setting = {k: {"games": v["games"], "end_reasons": _by_count({shown[t]: n for t, n in v["ends"].items()}),
                      "end_terminations": _by_count(v["ends"]),
                      "median_turns": round(float(statistics.median(v["turns"])), 1),
                      "events": {e: round(n / v["games"], 4) for e, n in sorted(v["events"].items())}}
                  for k, v in sorted(settings.items())}
    return {
        "game": game, "variant": variant or None, "players": players, "bots": list(bots), "seed": seed,
        "assign": assign, "budget_seconds": budget_seconds,
        "games": len(results), "completed": len(done), "errors": errors,
        "partial": partial, "games_planned": len(results) if planned is None else planned,
        "step_cap_hits": sum(1 for r in results if r.step_cap),
        "win_rate_by_seat": by_seat, "win_rate_by_bot": {b: _rate(p) for b, p in sorted(bot_points.items())},
        "first_player": _first_player(done, players),
        "win_rate_by_choice": _by_choice(done, players),
        "length_turns": {"mean": round(statistics.fmean(lengths), 2) if lengths else None,
                         "median": statistics.median(lengths) if lengths else None,
                         "p95": round(percentile(lengths, 0.95), 1), "min": min(lengths, default=None),
                         "max": max(lengths, default=None), "histogram": _histogram(lengths)},
        "turns_per_player": _spread([r.turns / players for r in done]),
        "steps_mean": round(statistics.fmean([r.steps for r in done]), 1) if done else None,
        "end_reasons": _by_count({shown[t]: n for t, n in ends.items()}),
        "end_terminations": _by_count(ends),
        "by_setting": by_setting,
        "groups": groups,
        "events": _events(done),
        "lift_baseline": LIFT_BASELINE,
        "lift_headline_rule": HEADLINE_RULE,
        "lift_headline": [c["id"] for c in headline_cards(cards)],
        "card_counts": CARD_COUNTS,
        "cards": cards,
        "never_drawn": [c["id"] for c in cards if c["drawn"] == 0 and c["played"] == 0],
        "never_played": [c["id"] for c in cards if c["played"] == 0],
        "draw_follows_play": [c["id"] for c in cards if c["draw_follows_play"]],
        "ladder": rungs or [],
    }


def reproduce(game: str, seed: int, bots: Sequence[str], players: int, variant: str, assign: str,
              budget_seconds: float | None) -> Callable[[int], str]:
    """The command that plays a check's game ``i`` again (as the last of its games), for each ``i``: the game as
    the check named it (a folder by its path), every option that changes the games, each word quoted for a shell
    where it needs to be."""
    words = [shlex.quote(game), "--games", "{n}", "--seed", str(seed), "--bots", shlex.quote(",".join(bots)),
             "--players", str(players)]
    if variant:
        words += ["--variant", shlex.quote(variant)]
    if assign != "bots":
        words += ["--assign", shlex.quote(assign)]
    if budget_seconds is not None:
        words += ["--budget-seconds", f"{budget_seconds:g}"]
    line = "wizprint solo check " + " ".join(words)
    return lambda i: line.replace("{n}", str(i + 1), 1)


# The headline ranks only the cards whose lift is measured well enough to mean something
HEADLINE_MIN_PLAYED = 20  # seat-games played in, at least
HEADLINE_HALF_WIDTH = 0.20  # the 95 % interval of the lift reaches at most this far either side of it
HEADLINE_RULE = (f"cards played in {HEADLINE_MIN_PLAYED}+ games with a 95% interval within "
                 f"±{HEADLINE_HALF_WIDTH * 100:.0f} points")

CARD_COUNTS = {  # what each card's counts mean (the games are seat-games: a game counts once for each seat)
    "seat_games_drawn": "games drawn in: the games in which the seat drew the card (opening hands included), or "
                        "met it and played or used it without drawing it (a threat on its space, a shrine revealed "
                        "in its round, a card swapped in or taken from a discard pile); never fewer than "
                        "games_played_in",
    "games_played_in": "games played in: the games in which the seat played or used the card",
    "drawn": "times drawn: each copy each time the seat drew it or was dealt it (opening hands and drafts "
             "included; Relic: assets gained too)",
    "played": "times used: each time the seat played or used the card; it can exceed times drawn, as a card can be "
              "used again without a new draw (played again after going back to hand or in a later round, a "
              "charge spent, a bonus used in a battle, a threat fought or resolved, a shrine revealed)",
}


def half_width(card: dict[str, Any]) -> float | None:
    """How far the card's 95 % lift interval reaches either side (half its width), or None without a lift."""
    ci = card.get("lift_ci95")
    return None if not ci else (ci[1] - ci[0]) / 2


def headline_cards(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards the headline ranks (:data:`HEADLINE_RULE`), from the highest lift to the lowest."""
    return [c for c in by_lift(cards) if c["lift"] is not None and c["games_played_in"] >= HEADLINE_MIN_PLAYED
            and (half_width(c) or 0.0) <= HEADLINE_HALF_WIDTH + 1e-9]


def clear_side(lo: float, hi: float) -> str | None:
    """"above" when a 95 % interval lies above 0, "below" when it lies below, None when it holds 0."""
    return "above" if lo > 0 else "below" if hi < 0 else None


STRATA = 5  # seat-games are compared within bands of as many cards drawn
LIFT_BASELINE = (
    "lift: how much playing the card changes its seat's chance to win, in points, estimated from the draw (chance "
    "decides who draws a card, while the choice to play it follows the game): the win rate of the seats that drew "
    f"it minus the win rate of the seats that did not, compared among seats that drew about as many cards "
    f"({STRATA} bands, so seats that simply draw or play more cards do not make every card look good), divided by "
    "the share of the seats that drew it and played it. 95 % interval: the normal interval of that difference "
    "(its error summed game by game, as the seats of a game share its result), divided the same way. The JSON "
    "also holds played_vs_held: the win rate when played minus the win rate when "
    "drawn and not played. No lift is given for a card whose drawers clearly won (or lost) more often (an interval "
    "clear of 0), by more than playing it could explain: its draw follows how the game goes rather than chance "
    "(listed as draw_follows_play)")


def stratified_difference(cells: list[tuple[float, int, float, int]]) -> tuple[float, float] | None:
    """The difference of two win rates within strata, weighted by the first group's size, and its standard error:
    ``cells`` are (points, seat-games) of the group and of the rest, per stratum; strata missing either group are
    left out. None when no stratum has both."""
    num = wsum = var = 0.0
    for s1, n1, s0, n0 in cells:
        if n1 == 0 or n0 == 0:
            continue
        p1, p0 = s1 / n1, s0 / n0
        # the variance of each rate, kept off zero (a stratum where everyone won still has some)
        q1, q0 = (s1 + 0.5) / (n1 + 1), (s0 + 0.5) / (n0 + 1)
        num += n1 * (p1 - p0)
        var += n1 * n1 * (q1 * (1 - q1) / n1 + q0 * (1 - q0) / n0)
        wsum += n1
    if wsum == 0:
        return None
    return num / wsum, math.sqrt(var) / wsum


def clustered_se(cells: list[tuple[float, int, float, int]], members: list[list[tuple[int, bool, float]]]
                 ) -> float:
    """The standard error of :func:`stratified_difference` when the seat-games of one game are not independent
    (the seats of a game share its result: in a two-player game, one seat's win is the other's loss): the
    sandwich estimate that sums each game's contribution before squaring it. ``members`` lists, per game, its
    seat-games as (stratum, in the group, points)."""
    w = sum(n1 for _, n1, _, n0 in cells if n1 and n0)
    if w == 0:
        return 0.0
    m1 = [s1 / n1 if n1 and n0 else 0.0 for s1, n1, _, n0 in cells]
    m0 = [s0 / n0 if n1 and n0 else 0.0 for _, n1, s0, n0 in cells]
    ratio = [n1 / n0 if n1 and n0 else 0.0 for _, n1, _, n0 in cells]
    total = 0.0
    for game in members:
        g = 0.0
        for b, inside, y in game:
            if ratio[b]:
                g += (y - m1[b]) if inside else -ratio[b] * (y - m0[b])
        total += g * g
    return math.sqrt(total) / w


def _bands(counts: list[int], k: int) -> list[int]:
    """The band (0 .. k-1) of each count: cut at its quantiles, equal counts in one band."""
    order = sorted(counts)
    cuts = [order[min(len(order) - 1, len(order) * i // k)] for i in range(1, k)] if order else []
    return [sum(1 for c in cuts if n >= c) if cuts else 0 for n in counts]


def card_stats(done: list[GameResult], players: int, all_designs: Sequence[str], names: dict[str, str],
               decks: dict[str, str]) -> list[dict[str, Any]]:
    """Per design: times drawn and used, the seat-games drawn and played in (:data:`CARD_COUNTS`), the play rate
    when drawn, the win rate when played, and its lift (:data:`LIFT_BASELINE`) with its 95 % interval and the side
    of 0 it clearly lies on (``lift_clear``)."""
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    seat_games: list[tuple[float, set[str], set[str], int]] = []  # points, designs drawn, designs played, cards
    game_of: list[int] = []  # the game of each seat-game
    for gi, r in enumerate(done):
        for seat in range(players):
            p = r.points(seat)
            if p is None:
                continue
            dr = r.drawn[seat] if seat < len(r.drawn) else {}
            pl = r.played[seat] if seat < len(r.played) else {}
            for d, n in dr.items():
                drawn[d] = drawn.get(d, 0) + n
            for d, n in pl.items():
                played[d] = played.get(d, 0) + n
            seat_games.append((p, set(dr) | set(pl), set(pl), sum(dr.values())))
            game_of.append(gi)
    band = _bands([g[3] for g in seat_games], STRATA)
    band_pts = [0.0] * STRATA
    band_n = [0] * STRATA
    for (p, _, _, _), b in zip(seat_games, band, strict=True):
        band_pts[b] += p
        band_n[b] += 1
    # per design and band: points and seat-games of the seats that drew it; points of those that played it, of
    # those that drew and held it
    had: dict[str, list[list[float]]] = {}
    plays: dict[str, list[float]] = {}
    holds: dict[str, list[float]] = {}
    for (p, had_designs, played_designs, _), b in zip(seat_games, band, strict=True):
        for d in had_designs:
            cell = had.setdefault(d, [[0.0, 0.0] for _ in range(STRATA)])[b]
            cell[0] += p
            cell[1] += 1
            (plays if d in played_designs else holds).setdefault(d, []).append(p)
    out = []
    for d in all_designs:
        pts, held = plays.get(d, []), holds.get(d, [])
        n_p, s_p = len(pts), sum(pts)
        lo, hi = wilson(s_p, n_p)
        n_d = n_p + len(held)
        lift: float | None = None
        lift_lo: float | None = None
        lift_hi: float | None = None
        confounded = False
        cells = had.get(d)
        if n_p and cells is not None:
            strata = [(c[0], int(c[1]), band_pts[b] - c[0], band_n[b] - int(c[1])) for b, c in enumerate(cells)]
            effect = stratified_difference(strata)
            if effect is not None:
                rate = n_p / n_d
                diff, se = effect
                # the seats of a game share its result: the larger of the two errors (see clustered_se)
                members: list[list[tuple[int, bool, float]]] = [[] for _ in done]
                for i, (y, had_designs, _, _) in enumerate(seat_games):
                    members[game_of[i]].append((band[i], d in had_designs, y))
                se = max(se, clustered_se(strata, members))
                raw = [v / rate for v in (diff, diff - Z95 * se, diff + Z95 * se)]
                if (raw[0] > 1.0 and raw[1] > 0.0) or (raw[0] < -1.0 and raw[2] < 0.0):
                    # the seats that drew it clearly won (or lost) more often, by more than playing it could
                    # explain: the draw is not chance here (e.g. cards drawn because of how the game goes)
                    confounded = True
                else:
                    # an effect on a chance lies between -1 and +1 (a small sample divided by a low play rate may
                    # not)
                    lift, lift_lo, lift_hi = (max(-1.0, min(1.0, v)) for v in raw)
        pvh = None
        if n_p and held:
            pvh = round(s_p / n_p - sum(held) / len(held), 4)
        out.append({
            "id": d, "name": names.get(d, d), "deck": decks.get(d, ""), "drawn": drawn.get(d, 0),
            "played": played.get(d, 0), "seat_games_drawn": n_d, "games_played_in": n_p,
            "play_rate": round(n_p / n_d, 4) if n_d else None,
            "win_rate_when_played": round(s_p / n_p, 4) if n_p else None,
            "ci95": [round(lo, 4), round(hi, 4)] if n_p else None,
            "lift": round(lift, 4) if lift is not None else None,
            "lift_ci95": [round(lift_lo, 4), round(lift_hi, 4)] if lift_lo is not None and lift_hi is not None
            else None,
            "lift_clear": clear_side(lift_lo, lift_hi) if lift_lo is not None and lift_hi is not None else None,
            "played_vs_held": pvh,
            "draw_follows_play": confounded,
        })
    return out


def by_lift(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards from the highest lift to the lowest (cards never played, with no lift, last)."""
    return sorted(cards, key=lambda c: (c["lift"] is None, -(c["lift"] or 0.0), c["id"]))


def _events(done: list[GameResult]) -> dict[str, dict[str, Any]]:
    """Each of the game's own events: in how many games it happened (and their share), and how often a game."""
    games: dict[str, int] = {}
    total: dict[str, int] = {}
    for r in done:
        for e, n in r.events.items():
            games[e] = games.get(e, 0) + 1
            total[e] = total.get(e, 0) + n
    return {e: {"games": games[e], "share_of_games": round(games[e] / len(done), 4),
                "per_game": round(total[e] / len(done), 3)} for e in sorted(games)}


def _first_player(done: list[GameResult], players: int) -> dict[str, Any] | None:
    """How the seat that moved first did, against its fair share (one in as many players)."""
    pts = [p for r in done if r.first is not None and (p := r.points(r.first)) is not None]
    if not pts:
        return None
    rate = _rate(pts)
    rate["fair_share"] = round(1 / players, 4)
    rate["advantage"] = round((rate["win_rate"] or 0.0) - 1 / players, 4)
    return rate


def _by_choice(done: list[GameResult], players: int) -> dict[str, Any]:
    """Win rate by starting choice (Relic: the character), with 95 % intervals."""
    pts: dict[str, list[float]] = {}
    for r in done:
        for seat, ch in enumerate(r.choices):
            p = r.points(seat)
            if ch is not None and p is not None:
                pts.setdefault(ch, []).append(p)
    out = {}
    for ch, ps in sorted(pts.items()):
        rate = _rate(ps)
        rate["fair_share"] = round(1 / players, 4)
        out[ch] = rate
    return out


def _spread(values: list[float]) -> dict[str, float | None]:
    """Mean, median and 95th percentile, rounded for people."""
    if not values:
        return {"mean": None, "median": None, "p95": None}
    return {"mean": round(statistics.fmean(values), 2), "median": round(float(statistics.median(values)), 2),
            "p95": round(percentile(values, 0.95), 1)}


UNKNOWN_ENDING = "unknown"  # the termination of a result that names none (never a game this version played)


def _termination(r: GameResult) -> str:
    """The key of the ending a game's result names (its termination)."""
    return (r.outcome.get("termination") if r.outcome else None) or UNKNOWN_ENDING


def _said(words: str, seen: list[list[int]]) -> str:
    """An ending in words: each ``{}`` is the number all such games had, or their range (``12-15``)."""
    parts = words.split("{}")
    out = parts[0]
    for i, rest in enumerate(parts[1:]):
        vals = [t[i] for t in seen if len(t) > i]
        lo, hi = (min(vals), max(vals)) if vals else (0, 0)
        out += (str(lo) if lo == hi else f"{lo}-{hi}") + rest
    return out


def _by_count(counts: dict[str, int]) -> dict[str, int]:
    """Most first (ties in the order first met)."""
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def _histogram(values: list[int]) -> list[list[int]]:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return [[k, counts[k]] for k in sorted(counts)]


LADDER = ("random", "automaton")  # the lower rungs; the search bot is the top one


def ladder(game: str, games: int, seed: int, players: int, variant: str, jobs: int, search: str,
           assign: str = "bots", progress: Callable[[int], None] | None = None, cluster: Cluster | None = None,
           budget_seconds: float | None = None) -> list[dict[str, Any]]:
    """The strength ladder: short matches between neighbouring rungs (random against the automaton, the automaton
    against ``search``), each bot on every seat in turn. A rung whose upper bot wins clearly more than its fair
    share shows that skill matters in the game."""
    rungs = [*LADDER, search]
    out: list[dict[str, Any]] = []
    for lower, upper in itertools.pairwise(rungs):
        # each match has its own seed, so it does not replay the check's games
        try:
            res = run_games(game, games, derive(seed, "ladder", lower, upper), [lower, upper], players, variant,
                            jobs, progress, assign, cluster, budget_seconds)
        except Interrupted as stop:  # the matches played so far, this one as far as it went
            stop.rungs = [*out, _rung(lower, upper, stop.results, players, partial=True)]
            raise
        out.append(_rung(lower, upper, res, players))
    return out


def _rung(lower: str, upper: str, res: list[GameResult], players: int, partial: bool = False) -> dict[str, Any]:
    done = [r for r in res if r.outcome is not None]
    pts = [p for r in done for s, b in enumerate(r.bots) if b == upper and (p := r.points(s)) is not None]
    rate = _rate(pts)
    return {"lower": lower, "upper": upper, "games": len(res), "errors": len(res) - len(done),
            "upper_win_rate": rate["win_rate"], "ci95": rate["ci95"], "fair_share": round(1 / players, 4),
            "skill_shows": rate["ci95"][0] > 1 / players, "partial": partial}

