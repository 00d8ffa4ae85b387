"""Comparing two solo checks (``wizprint solo compare BEFORE.json AFTER.json``, ``solo check --compare``): what
changed between the checks of a game before and after an edit, and whether each change is more than chance.

Each figure is compared by a two-sided z test of its difference: a card's lift (its standard error read from the
check's 95 % interval), and the win rates of seats, bots and starting choices and the share of each ending (from
their counts). The tests are corrected for how many are made with Holm's step-down method, in two families (the
cards; the rest), so that two checks of the same data find a change anywhere in a family in at most 5 % of
comparisons (the family-wise error rate). A card is compared when both checks measured its lift on at least
:data:`MIN_GAMES` games it was played in."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wizprint.errors import WizprintError, quote
from wizprint.files import FileProblem, read_file

ALPHA = 0.05  # the family-wise error rate of each family of tests
MIN_GAMES = 20  # a card is compared when played in at least this many games in each check
Z95 = 1.959963984540054
MAX_CHECK_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Change:
    """One figure in both checks: ``diff`` (after minus before) with its 95 % interval, the test's p-value and
    the p-value corrected for the figures of its family (Holm)."""

    family: str  # "card" or "game"
    key: str  # "Q09 Find the Treasure", "seat 1", "ending: a player reaches 25-30 VP"
    measure: str  # "lift", "win rate", "share of games"
    before: float
    after: float
    before_n: int  # the games behind each figure
    after_n: int
    diff: float
    lo: float
    hi: float
    p: float
    p_holm: float = 1.0

    @property
    def significant(self) -> bool:
        return self.p_holm < ALPHA


@dataclass(frozen=True)
class Comparison:
    game: str
    before: str  # the checks' names (their files)
    after: str
    before_games: int
    after_games: int
    changes: tuple[Change, ...]  # significant first (smallest corrected p), then the rest by size of change
    not_compared: tuple[str, ...]  # cards measured too little in one of the checks
    notes: tuple[str, ...]  # how the checks differ in their settings

    @property
    def significant(self) -> list[Change]:
        return [c for c in self.changes if c.significant]


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal ``z``.

    >>> round(two_sided_p(1.96), 3)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2))


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down correction of the p-values ``ps`` (in their order): the k-th smallest is multiplied by
    the number of p-values not smaller than it, and the corrected values never decrease.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = [1.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = round(running, 12)
    return out


def difference(a: float, se_a: float, b: float, se_b: float) -> tuple[float, float, float, float]:
    """``b - a``, its 95 % interval and the p-value of a z test, for two independent estimates."""
    d = b - a
    se = math.hypot(se_a, se_b)
    if se == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    return d, d - Z95 * se, d + Z95 * se, two_sided_p(d / se)


def proportions(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float, float, float]:
    """The change of a rate between two samples: its difference and 95 % interval (unpooled), and the p-value of
    the pooled two-proportion z test."""
    pa, pb = wins_a / n_a, wins_b / n_b
    se = math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    p = 1.0 if se0 == 0 else two_sided_p((pb - pa) / se0)
    return pb - pa, pb - pa - Z95 * se, pb - pa + Z95 * se, p


# -- reading a check's JSON --------------------------------------------------------------------------------------
def read_check(path: Path) -> dict[str, Any]:
    """A solo check's JSON summary (``solo check --json``), checked enough to be compared: a clear error for a file
    that is not one."""
    from wizprint.finite import NonFinite, loads_json

    shown = quote(str(path), 120)
    try:
        raw = read_file(path, MAX_CHECK_BYTES, "a check's JSON")
    except FileProblem as exc:
        raise WizprintError(str(exc)) from None
    try:
        data = loads_json(raw)
    except NonFinite as exc:
        raise WizprintError(f"{shown}: {exc}") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise WizprintError(f"{shown}: not a solo check's JSON summary (not JSON: {why})") from None
    need = {"game": str, "completed": int, "cards": list, "win_rate_by_seat": dict, "win_rate_by_bot": dict,
            "end_reasons": dict}
    if not isinstance(data, dict):
        raise WizprintError(f"{shown}: not a solo check's JSON summary (write one with solo check --json)")
    for key, kind in need.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise WizprintError(f"{shown}: not a solo check's JSON summary: no {kind.__name__} '{key}' (write one "
                                f"with solo check --json)")
    for i, c in enumerate(data["cards"]):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("name"), str):
            raise WizprintError(f"{shown}: cards[{i}] is not a card of a check (an id and a name)")
    return data


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def _rates(table: Any, prefix: str, min_games: int = 1) -> dict[str, tuple[float, int]]:
    """``{name: (wins, games)}`` of a check's win-rate table (a tie counted as half a win, as the check does)."""
    out: dict[str, tuple[float, int]] = {}
    if not isinstance(table, Mapping):
        return out
    for name, row in table.items():
        if not isinstance(row, Mapping):
            continue
        games, rate = row.get("games"), _number(row.get("win_rate"))
        if isinstance(games, int) and not isinstance(games, bool) and games >= min_games and rate is not None:
            out[f"{prefix}{name}"] = (rate * games, games)
    return out


def _lift(card: Mapping[str, Any]) -> tuple[float, float, int] | None:
    """A card's lift, its standard error and the games it was played in; None when the check gave no lift or
    measured it on too few games.

    The error is read from the check's 95 % interval, on its wider side (an interval cut at +-100 points is
    narrower on the cut side), and widened for the play rate the lift is divided by, which is itself measured (the
    delta method: a lift of L over a rate r measured on n draws adds L * sqrt(r (1 - r) / n) / r)."""
    lift, ci, n = _number(card.get("lift")), card.get("lift_ci95"), card.get("games_played_in")
    if lift is None or not isinstance(ci, list) or len(ci) != 2 or not isinstance(n, int) or n < MIN_GAMES:
        return None
    lo, hi = _number(ci[0]), _number(ci[1])
    if lo is None or hi is None or not lo <= lift <= hi:
        return None
    se = max(hi - lift, lift - lo) / Z95
    rate, drawn = _number(card.get("play_rate")), card.get("seat_games_drawn")
    if rate is not None and 0 < rate < 1 and isinstance(drawn, int) and drawn > 0:
        se = math.hypot(se, lift * math.sqrt(rate * (1 - rate) / drawn) / rate)
    return lift, se, n


# -- the comparison ------------------------------------------------------------------------------------------------
def compare(before: Mapping[str, Any], after: Mapping[str, Any], before_name: str = "before",
            after_name: str = "after") -> Comparison:
    shared = {c["id"] for c in before["cards"]} & {c["id"] for c in after["cards"]}
    if before["game"] != after["game"] and not shared:
        raise WizprintError(f"the checks are of two games ({quote(before['game'])} and {quote(after['game'])}) "
                            f"that share no card: compare checks of one game, or of a game and its copy")
    notes = [f"the checks differ in {k}: {before.get(k)!r} and {after.get(k)!r}"
             for k in ("game", "players", "variant", "bots", "assign") if before.get(k) != after.get(k)]
    if before.get("seed") == after.get("seed") and before.get("games") == after.get("games"):
        notes.append("both checks have the same seed: games that the edit did not change are the same games, so "
                     "the tests (made for independent checks) are cautious")
    cards: list[Change] = []
    skipped: list[str] = []
    after_cards = {c["id"]: c for c in after["cards"]}
    for c in before["cards"]:
        d = after_cards.get(c["id"])
        if d is None:
            continue
        a, b = _lift(c), _lift(d)
        name = f"{c['id']} {d['name']}"
        if a is None or b is None:
            skipped.append(name)
            continue
        diff, lo, hi, p = difference(a[0], a[1], b[0], b[1])
        cards.append(Change("card", name, "lift", a[0], b[0], a[2], b[2], diff, lo, hi, p))
    game: list[Change] = []
    for label, key, min_games in (("seat ", "win_rate_by_seat", 1), ("", "win_rate_by_bot", 1),
                                  ("starting choice: ", "win_rate_by_choice", MIN_GAMES)):
        ra, rb = _rates(before.get(key), label, min_games), _rates(after.get(key), label, min_games)
        if key == "win_rate_by_bot" and len(ra) < 2:
            continue  # one bot on every seat: its win rate is the fair share in both
        for name in ra.keys() & rb.keys():
            (wa, na), (wb, nb) = ra[name], rb[name]
            diff, lo, hi, p = proportions(wa, na, wb, nb)
            game.append(Change("game", name if label or key != "win_rate_by_bot" else f"bot {name}", "win rate",
                               wa / na, wb / nb, na, nb, diff, lo, hi, p))
    na, nb = int(before["completed"]), int(after["completed"])
    if na > 0 and nb > 0:
        ends_a, ends_b = before["end_reasons"], after["end_reasons"]
        if len(set(ends_a) | set(ends_b)) > 1:
            for end in sorted(set(ends_a) | set(ends_b)):
                ka, kb = _number(ends_a.get(end, 0)) or 0.0, _number(ends_b.get(end, 0)) or 0.0
                diff, lo, hi, p = proportions(ka, na, kb, nb)
                game.append(Change("game", f"ending: {end}", "share of games", ka / na, kb / nb, na, nb, diff, lo,
                                   hi, p))
    out: list[Change] = []
    for family in (cards, game):
        for ch, adj in zip(family, holm([c.p for c in family]), strict=True):
            out.append(Change(**{**ch.__dict__, "p_holm": adj}))
    out.sort(key=lambda c: (not c.significant, c.p_holm if c.significant else -abs(c.diff), c.key))
    return Comparison(str(before["game"]), before_name, after_name, na, nb, tuple(out), tuple(sorted(skipped)),
                      tuple(notes))


# -- the report ----------------------------------------------------------------------------------------------------
def _pts(x: float) -> str:
    return f"{x * 100:+.1f}"


def _pc(x: float) -> str:
    return f"{x * 100:.1f} %"


def change_line(c: Change) -> str:
    value = _pts if c.measure == "lift" else _pc
    return (f"{c.key}: {c.measure} {value(c.before)} -> {value(c.after)}, {_pts(c.diff)} points (95% {_pts(c.lo)} "
            f"to {_pts(c.hi)}; p = {c.p:.2g}, {c.p_holm:.2g} corrected; played in {c.before_n} and {c.after_n} "
            f"games)" if c.measure == "lift" else
            f"{c.key}: {c.measure} {value(c.before)} -> {value(c.after)}, {_pts(c.diff)} points (95% {_pts(c.lo)} "
            f"to {_pts(c.hi)}; p = {c.p:.2g}, {c.p_holm:.2g} corrected; of {c.before_n} and {c.after_n} games)")


def text_report(cmp: Comparison, shown: int = 5) -> list[str]:
    """The comparison in lines for the terminal: the significant changes first, then the largest others."""
    n_cards = sum(1 for c in cmp.changes if c.family == "card")
    n_game = len(cmp.changes) - n_cards
    out = [f"{cmp.game}: {cmp.before} ({cmp.before_games} games) against {cmp.after} ({cmp.after_games} games); "
           f"{n_cards} cards and {n_game} other figures compared, each family corrected by Holm's method "
           f"(5 % family-wise error)"]
    out += [f"  note: {n}" for n in cmp.notes]
    sig = cmp.significant
    if sig:
        out.append(f"  significant changes ({len(sig)}):")
        out += [f"    {change_line(c)}" for c in sig]
    else:
        out.append("  no significant change: every difference is within what chance gives two checks of the same "
                   "game")
    rest = [c for c in cmp.changes if not c.significant][:shown]
    if rest:
        out.append(f"  the largest other changes (not significant; {len(cmp.changes) - len(sig)} in all):")
        out += [f"    {change_line(c)}" for c in rest]
    if cmp.not_compared:
        names = ", ".join(x.split(" ", 1)[0] for x in cmp.not_compared[:20])
        more = f" and {len(cmp.not_compared) - 20} more" if len(cmp.not_compared) > 20 else ""
        out.append(f"  not compared (no lift, or played in fewer than {MIN_GAMES} games in a check): {names}{more}")
    return out


def html_report(cmp: Comparison) -> str:
    """The comparison as a page of its own: every figure in a table, the significant ones first."""
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    page = env.from_string(HTML)
    rows = [{"key": c.key, "measure": c.measure, "line": change_line(c), "significant": c.significant,
             "diff": _pts(c.diff), "interval": f"{_pts(c.lo)} to {_pts(c.hi)}", "p": f"{c.p:.2g}",
             "p_holm": f"{c.p_holm:.2g}",
             "before": (_pts if c.measure == "lift" else _pc)(c.before),
             "after": (_pts if c.measure == "lift" else _pc)(c.after)} for c in cmp.changes]
    return page.render(cmp=cmp, rows=rows, head=text_report(cmp)[0], min_games=MIN_GAMES)


HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ cmp.game }}: {{ cmp.before }} against {{ cmp.after }}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; width: 100%; } td, th { padding: .25em .6em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } tr.sig { background: #fff4d6; font-weight: 600; }
</style></head><body>
<h1>{{ cmp.game }}: what changed</h1>
<p>{{ head }}</p>
{% for n in cmp.notes %}<p><em>Note: {{ n }}</em></p>{% endfor %}
<p>Highlighted rows are significant: more than chance gives two checks of the same game, after Holm's correction
for the number of figures compared (the cards, and the other figures, each a family with a 5 % family-wise error).
A card's lift is compared when both checks measured it on {{ min_games }} or more games it was played in.</p>
<table><thead><tr><th>figure</th><th>measure</th><th>before</th><th>after</th><th>change (points)</th>
<th>95 % interval</th><th>p</th><th>corrected p</th></tr></thead><tbody>
{% for r in rows %}<tr{% if r.significant %} class="sig"{% endif %}><td>{{ r.key }}</td><td>{{ r.measure }}</td>
<td class="n">{{ r.before }}</td><td class="n">{{ r.after }}</td><td class="n">{{ r.diff }}</td>
<td class="n">{{ r.interval }}</td><td class="n">{{ r.p }}</td><td class="n">{{ r.p_holm }}</td></tr>
{% endfor %}</tbody></table>
{% if cmp.not_compared %}<p>Not compared (no lift, or played in fewer than {{ min_games }} games in a check):
{{ cmp.not_compared|join(", ") }}.</p>{% endif %}
</body></html>
"""
