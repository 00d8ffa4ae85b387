"""The HTML report of a solo check: jinja2 (autoescaped) with SVG charts drawn here: game length histogram,
win rate by seat, by bot and by starting choice with 95 % intervals, and per deck a dot plot of each card's lift
with its interval, coloured where the interval lies clear of 0. A check stopped by Ctrl-C says so in a banner."""

from __future__ import annotations

from html import escape
from typing import Any

import jinja2
from markupsafe import Markup

from wizprint.cards.markup import plural

W = 720


def _nice(x: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 ... that is at least ``x``."""
    k = 1
    while True:
        for m in (1, 2, 5):
            if m * k >= x:
                return m * k
        k *= 10


def _bars(hist: list[list[int]]) -> Markup:
    """The length histogram: bins of 1, 2, 5, 10 ... turns (at most about 25 bars), a count axis in whole steps of
    1, 2, 5, 10 ..., and turn labels on bin edges."""
    if not hist:
        return Markup("<p>No completed games.</p>")
    h = 220
    left, bottom = 44, 34
    lo_v, hi_v = hist[0][0], hist[-1][0]
    width = _nice((hi_v - lo_v + 1) / 25)
    lo = lo_v // width * width
    nbins = hi_v // width - lo // width + 1
    counts = [0] * nbins
    for k, n in hist:
        counts[(k - lo) // width] += n
    bw = (W - left - 10) / nbins
    ystep = _nice(max(counts) / 4)
    top = ystep * -(-max(counts) // ystep)
    parts = [f'<svg viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="game length histogram">']
    for v in range(0, top + 1, ystep):
        y = h - bottom - (h - bottom - 12) * v / top
        parts.append(f'<line x1="{left}" x2="{W - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" class="axis" text-anchor="end">{v}</text>')
    for b, n in enumerate(counts):
        x = left + b * bw
        bh = (h - bottom - 12) * n / top
        first = lo + b * width
        what = f"{first} turns" if width == 1 else f"{first}-{first + width - 1} turns"
        parts.append(f'<rect x="{x + 1:.1f}" y="{h - bottom - bh:.1f}" width="{max(1.0, bw - 2):.1f}" '
                     f'height="{bh:.1f}" class="bar"><title>{what}: {plural(n, "game")}</title></rect>')
    every = _nice(nbins / 12)
    for b in range(0, nbins + 1, every):
        x = left + b * bw + (bw / 2 if width == 1 else 0)
        if width == 1 and b == nbins:
            break
        parts.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" class="axis" text-anchor="middle">'
                     f'{lo + b * width}</text>')
    parts.append(f'<text x="{(W + left) / 2:.0f}" y="{h - 4}" class="axis" text-anchor="middle">turns</text></svg>')
    return Markup("".join(parts))


def _rates(rows: list[tuple[str, float, float, float, int]], label: str) -> Markup:
    """Horizontal win-rate dots with 95 % interval whiskers; rows are (label, rate, lo, hi, n)."""
    if not rows:
        return Markup("<p>No data.</p>")
    row_h = 18
    left = 210
    h = 30 + row_h * len(rows)
    scale = W - left - 60
    parts = [f'<svg viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="{escape(label)}">']
    for t in range(0, 11, 2):
        x = left + scale * t / 10
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="14" y2="{h - 4}" class="grid"/>'
                     f'<text x="{x:.1f}" y="11" class="axis" text-anchor="middle">{t * 10}%</text>')
    x50 = left + scale / 2
    parts.append(f'<line x1="{x50:.1f}" x2="{x50:.1f}" y1="14" y2="{h - 4}" class="half"/>')
    for i, (name, rate, lo, hi, n) in enumerate(rows):
        y = 26 + i * row_h
        parts.append(f'<text x="{left - 8}" y="{y + 4}" class="label" text-anchor="end">{escape(name)}</text>')
        parts.append(f'<line x1="{left + scale * lo:.1f}" x2="{left + scale * hi:.1f}" y1="{y}" y2="{y}" '
                     f'class="ci"/>')
        parts.append(f'<circle cx="{left + scale * rate:.1f}" cy="{y}" r="4" class="dot"><title>{escape(name)}: '
                     f'{rate:.1%} (95% {lo:.1%}-{hi:.1%}, n={n})</title></circle>')
        parts.append(f'<text x="{W - 54}" y="{y + 4}" class="axis">n={n}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


SIDES = {"above": "clearly above 0", "below": "clearly below 0", None: "interval holds 0"}


def side_class(lo: float, hi: float) -> str:
    """The colour class of a lift interval: ``above`` or ``below`` 0 when it lies clear of it, ``even`` otherwise."""
    from .playtest import clear_side

    return clear_side(lo, hi) or "even"


def _lifts(rows: list[tuple[str, float, float, float, int]], label: str) -> Markup:
    """Horizontal lift dots (points above or below the baseline) with 95 % interval whiskers, on an axis symmetric
    about 0 that holds every interval; rows are (label, lift, lo, hi, n). A card whose interval lies above 0 is
    coloured as ``above``, below 0 as ``below``, the others neutral (``even``)."""
    if not rows:
        return Markup("<p>No card of this deck was played.</p>")
    row_h = 16
    left = 230
    h = 30 + row_h * len(rows)
    reach = max(max(abs(lo), abs(hi)) for _, _, lo, hi, _ in rows)
    span = next((s for s in (0.2, 0.4, 0.6, 0.8, 1.0) if s >= reach), 1.0)  # the axis: -span to +span, ticks in 4ths
    scale = (W - left - 60) / 2
    mid = left + scale

    def x(v: float) -> float:
        return mid + scale * max(-1.0, min(1.0, v / span))

    parts = [f'<svg viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" aria-label="{escape(label)}">']
    for k in range(-4, 5):
        v = span * k / 4
        line = "half" if k == 0 else "grid"
        parts.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="14" y2="{h - 4}" class="{line}"/>'
                     f'<text x="{x(v):.1f}" y="11" class="axis" text-anchor="middle">{v * 100:+.0f}</text>')
    for i, (name, lift, lo, hi, n) in enumerate(rows):
        y = 24 + i * row_h
        parts.append(f'<text x="{left - 8}" y="{y + 4}" class="label" text-anchor="end">{escape(name)}</text>')
        side = side_class(lo, hi)
        what = SIDES.get(side, SIDES[None])
        parts.append(f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y}" y2="{y}" class="ci {side}"/>')
        parts.append(f'<circle cx="{x(lift):.1f}" cy="{y}" r="3.5" class="dot {side}"><title>{escape(name)}: '
                     f'{lift * 100:+.1f} points (95% {lo * 100:+.1f} to {hi * 100:+.1f}, {what}; played in {n} '
                     f'games)</title></circle>')
        parts.append(f'<text x="{W - 54}" y="{y + 4}" class="axis">n={n}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ s.game }} solo check</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; max-width: 780px; margin: 2em auto; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; font-size: 14px; } td, th { padding: 3px 8px; text-align: left; }
th { border-bottom: 1px solid #999; } tr:nth-child(even) td { background: #f5f5f5; }
td.n { text-align: right; white-space: nowrap; }
.ok { color: #1d6b2c; } .bad { color: #a01818; } .muted { color: #666; }
svg { display: block; margin: .6em 0; } .grid { stroke: #e4e4e4; } .half { stroke: #999; stroke-dasharray: 3 3; }
.bar { fill: #5a7fb8; } .axis { font-size: 11px; fill: #555; } .label { font-size: 12px; fill: #222; }
.ci { stroke: #5a7fb8; stroke-width: 2; } .dot { fill: #1f3f73; }
.ci.above { stroke: #0072b2; } .dot.above { fill: #0072b2; }
.ci.below { stroke: #d55e00; } .dot.below { fill: #d55e00; }
.ci.even { stroke: #cfcfcf; } .dot.even { fill: #8a8a8a; }
td.above { color: #0072b2; font-weight: 600; } td.below { color: #d55e00; font-weight: 600; }
.key { display: inline-block; width: 11px; height: 11px; border-radius: 50%; vertical-align: -1px;
       margin: 0 4px 0 10px; }
.key.above { background: #0072b2; } .key.below { background: #d55e00; } .key.even { background: #8a8a8a; }
.partial { background: #fff3cd; border: 1px solid #e0b84c; padding: .6em .9em; font-weight: 600; }
</style></head><body>
<h1>{{ s.game }}: solo check{% if s.get("partial") %} (partial){% endif %}</h1>
{% if s.get("partial") %}<p class="partial">Partial report: Ctrl-C stopped the check
{%- if stopped_ladder %} during the strength ladder; the check's own {{ s.games }} games were all played, and the
ladder's last match counts only the games it finished.{% else %} after {{ s.games }} of {{ s.games_planned }} games;
every figure below covers those {{ s.games }} games only.{% endif %}</p>{% endif %}
<p class="muted">{{ s.games }} games, {{ s.players }} players, bots {{ s.bots|join(", ") }}, seed {{ s.seed }}
{%- if s.variant %}, variant {{ s.variant }}{% endif %}.</p>
<p class="{{ 'ok' if not s.errors and not s.step_cap_hits else 'bad' }}">
<strong>{{ s.completed }} of {{ s.games }}
completed</strong>; {{ s.errors|length }} errors; {{ s.step_cap_hits }} step-cap hits.</p>
{% if s.errors %}<h2>Errors</h2><table><tr><th>game</th><th>error</th><th>reproduce</th></tr>
{% for e in s.errors[:50] %}
<tr><td>{{ e.game }}</td><td>{{ e.error }}</td><td><code>{{ e.reproduce }}</code></td></tr>
{% endfor %}
</table>{% if s.errors|length > 50 %}<p>... and {{ "{:,}".format(s.errors|length - 50) }} more (every error is in the
JSON summary)</p>{% endif %}{% endif %}
<h2>Game length</h2>
<p>Mean {{ s.length_turns.mean }} turns, median {{ s.length_turns.median }}, 95th percentile {{ s.length_turns.p95 }}
(shortest {{ s.length_turns.min }}, longest {{ s.length_turns.max }}).</p>
{{ length_chart }}
<p>Turns per player: mean {{ s.turns_per_player.mean }}, median {{ s.turns_per_player.median }}, 95th percentile
{{ s.turns_per_player.p95 }}.</p>
<h2>Win rate by seat</h2>
{{ seat_chart }}
{% if s.first_player %}<p>The first player won {{ pc(s.first_player.win_rate) }} of {{ s.first_player.games }} games
(95% {{ pc(s.first_player.ci95[0]) }} to {{ pc(s.first_player.ci95[1]) }}) against a fair share of
{{ pc(s.first_player.fair_share) }}: {{ pts(s.first_player.advantage) }} points.</p>{% endif %}
{% if s.win_rate_by_choice %}<h2>Win rate by starting choice</h2>
<p>{% if s.assign == "random" %}Starting choices were dealt at random.{% else %}Starting choices were made by the
bots (use <code>--assign random</code> to deal them at random and measure the content, not the bots' taste).
{% endif %} The dashed line is 50%; the fair share is {{ pc(1 / s.players) }}.</p>
{{ choice_chart }}{% endif %}
<h2>Win rate by bot</h2>
{{ bot_chart }}
{% if s.ladder %}<h2>Strength ladder</h2>
<p>Short matches between neighbouring bots, each on every seat in turn: where the stronger bot wins clearly more
than its fair share, skill matters in the game.</p>
<table><tr><th>match</th><th>games</th><th>stronger bot's win rate</th><th>95% interval</th><th>fair share</th>
<th>skill shows</th></tr>
{% for r in s.ladder %}<tr><td>{{ r.upper }} against {{ r.lower }}</td><td class="n">{{ r.games }}</td>
<td class="n">{{ pc(r.upper_win_rate) }}</td><td class="n">{{ pc(r.ci95[0]) }} to {{ pc(r.ci95[1]) }}</td>
<td class="n">{{ pc(r.fair_share) }}</td><td>{{ "yes" if r.skill_shows else "not clearly" }}
{%- if r.partial %} (stopped by Ctrl-C){% endif %}</td></tr>{% endfor %}
</table>{% endif %}
<h2>How games end</h2>
<table><tr><th>reason</th><th>games</th></tr>
{% for r, n in s.end_reasons.items() %}<tr><td>{{ r }}</td><td class="n">{{ n }}</td></tr>{% endfor %}
</table>
{% if s.by_setting %}<h2>By scenario</h2>
<table><tr><th>played on</th><th>games</th><th>how they ended</th><th>median turns</th></tr>
{% for name, st in s.by_setting.items() %}<tr><td>{{ name }}</td><td class="n">{{ st.games }}</td>
<td>{% for r, n in st.end_reasons.items() %}{{ n }} {{ r }}{% if not loop.last %}; {% endif %}{% endfor %}</td>
<td class="n">{{ st.median_turns }}</td></tr>{% endfor %}
</table>{% endif %}
{% if s.events %}<h2>Rules in play</h2>
<p>The game's own events (a rule or a card taking effect): the share of games in which each happened at least once,
and how often it happened a game{% if s.by_setting %}; then the share by scenario{% endif %}.</p>
<table><tr><th>event</th><th>games</th><th>share of games</th><th>per game</th></tr>
{% for name, e in s.events.items() %}<tr><td>{{ name }}</td><td class="n">{{ e.games }}</td>
<td class="n">{{ pc(e.share_of_games) }}</td><td class="n">{{ e.per_game }}</td></tr>{% endfor %}
</table>
{% if s.by_setting %}<table><tr><th>played on</th><th>event: share of that scenario's games</th></tr>
{% for name, st in s.by_setting.items() %}<tr><td>{{ name }}</td>
<td>{% for e, share in st.events.items() %}{{ e }} {{ pc(share) }}{% if not loop.last %}; {% endif %}{% endfor %}
</td></tr>{% endfor %}</table>{% endif %}{% endif %}
{% if s.groups %}<h2>Contests by group</h2>
<p>The game's own contests (Wizards &amp; Relics: wizard battles by the colour and rarity of the wizard and the
relic played; Wizards Cup: the wizards each player drafted, and whether that player won the game): how many per seat
and game (for a draft, the draft rate), how often each group won, against its fair share (one in as many players as
the contest had).</p>
<table><tr><th>group</th><th>contests</th><th>per seat and game</th><th>win rate</th><th>fair share</th>
<th>above fair share</th><th>95% interval</th></tr>
{% for name, g in s.groups.items() %}<tr><td>{{ name }}</td><td class="n">{{ g.contests }}</td>
<td class="n">{{ '%.1f'|format(g.per_seat_game * 100) }}%</td>
<td class="n">{{ '%.1f'|format(g.win_rate * 100) }}%</td><td class="n">{{ '%.1f'|format(g.fair_share * 100) }}%</td>
<td class="n">{{ '%+.1f'|format(g.above_fair * 100) }}</td>
<td class="n">{{ '%.1f'|format(g.ci95[0] * 100) }}–{{ '%.1f'|format(g.ci95[1] * 100) }}%</td></tr>{% endfor %}
</table>{% endif %}
<h2>Cards: lift</h2>
<p>Each card's {{ s.lift_baseline }}. Positive: seats that played the card won more often. Every card played at
least once is shown; a card played rarely has a wide interval. Cards are grouped by deck, from the highest lift to
the lowest.</p>
<p class="legend"><span class="key above"></span>interval above 0: clearly helps ({{ n_above }})
<span class="key below"></span>interval below 0: clearly hurts ({{ n_below }})
<span class="key even"></span>interval holds 0: not clear</p>
<p>The counts: <em>games drawn in</em> and <em>games played in</em> count a game once for each seat (a card played
without being drawn, such as a threat met or a shrine revealed, counts as drawn in that game, so a card is never
played in more games than it was drawn in); <em>times drawn</em> counts every copy each time it was drawn or dealt,
and <em>times used</em> every play or use, which can be more than the draws (a card used again without a new draw:
back in hand, played again in a later round, a charge spent, a bonus used in each battle). The play rate is games
played in over games drawn in.</p>
{% for deck, chart, rows in decks %}<h3>{{ deck }}</h3>
{{ chart }}
<table><tr><th>id</th><th>name</th><th>games drawn in</th><th>games played in</th><th>times drawn</th>
<th>times used</th><th>play rate when drawn</th><th>win rate when played</th><th>lift</th><th>95% interval</th></tr>
{% for c in rows %}
<tr><td>{{ c.id }}</td><td>{{ c.name }}</td><td class="n">{{ c.seat_games_drawn }}</td>
<td class="n">{{ c.games_played_in }}</td><td class="n">{{ c.drawn }}</td><td class="n">{{ c.played }}</td>
<td class="n">{{ pc(c.play_rate) }}</td><td class="n">{{ pc(c.win_rate_when_played) }}</td>
<td class="n{% if c.lift_ci95 %} {{ side(c.lift_ci95[0], c.lift_ci95[1]) }}{% endif %}">{{ pts(c.lift) }}</td>
<td class="n">{% if c.lift_ci95 %}{{ pts(c.lift_ci95[0]) }} to {{ pts(c.lift_ci95[1]) }}{% else %}-{% endif %}</td>
</tr>
{% endfor %}
</table>
{% endfor %}
{% if s.draw_follows_play %}<h3>No lift: the draw follows the game</h3>
<p>The seats that drew these cards clearly won (or lost) more often, by more than playing them could explain, so
their draw is not left to chance (a card drawn because of how the game is going) and no lift is
estimated: {{ s.draw_follows_play|join(", ") }}.</p>{% endif %}
<h2>Never drawn</h2>
<p>{% if s.never_drawn %}{{ s.never_drawn|join(", ") }}{% else %}Every card was drawn at least once.{% endif %}</p>
<h2>Never played</h2>
<p>{% if s.never_played %}{{ s.never_played|join(", ") }}{% else %}Every card was played at least once.{% endif %}</p>
<p class="muted">Made by wizprint solo check.</p>
</body></html>
"""


def _pc(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def _pts(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:+.1f}"


def html_report(s: dict[str, Any]) -> str:
    from .playtest import by_lift

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    seats = [(f"seat {k}", v["win_rate"] or 0.0, v["ci95"][0], v["ci95"][1], v["games"])
             for k, v in s["win_rate_by_seat"].items()]
    bots = [(k, v["win_rate"] or 0.0, v["ci95"][0], v["ci95"][1], v["games"]) for k, v in s["win_rate_by_bot"].items()]
    choices = [(k, v["win_rate"] or 0.0, v["ci95"][0], v["ci95"][1], v["games"])
               for k, v in sorted(s.get("win_rate_by_choice", {}).items(), key=lambda kv: -(kv[1]["win_rate"] or 0))]
    decks = []
    for deck in sorted({c["deck"] for c in s["cards"]}):
        rows = by_lift([c for c in s["cards"] if c["deck"] == deck])
        chart_rows = [(f"{c['id']} {c['name']}", c["lift"], c["lift_ci95"][0], c["lift_ci95"][1],
                       c["games_played_in"]) for c in rows if c["lift"] is not None]
        decks.append((deck or "Cards", _lifts(chart_rows, f"lift of the {deck} cards"), rows))
    sides = [side_class(*c["lift_ci95"]) for c in s["cards"] if c["lift"] is not None and c["lift_ci95"]]
    return env.from_string(TEMPLATE).render(
        s=s, pc=_pc, pts=_pts, decks=decks, side=side_class, n_above=sides.count("above"),
        n_below=sides.count("below"), stopped_ladder=any(r.get("partial") for r in s.get("ladder", [])),
        length_chart=_bars(s["length_turns"]["histogram"]),
        seat_chart=_rates(seats, "win rate by seat"), bot_chart=_rates(bots, "win rate by bot"),
        choice_chart=_rates(choices, "win rate by starting choice"))
