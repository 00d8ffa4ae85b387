"""What a Relic player sees at the terminal: the seat's :class:`~wizprint.solo.kernel.screen.Screen` (``screen``).

The header is one line: the turn, whose turn and which phase, your seat and character, and how the scenario is won
in a few words. The rest of the table is in panels, each a command at the prompt and shown again by itself when
what matters in it changes (its ``key``):

- ``status``: every character, two or three lines each: space, attributes, Life, level, influence, Power cards,
  mission, completed missions, relics, Corruption, trophies. Shown when the race changes: a level, a relic, a
  completed mission, the Inner tier reached, a new character, a player out (Life and influence are in the log);
- ``here``: your space: its tier, movement box, text boxes (or the confrontation) and the Threat cards on it, each
  enemy with its values; shown when you move or the cards on it change;
- ``board``: the spaces up to six away either way along your tier (as far as a roll goes) or the Inner tier to the
  scenario space, who stands where, the Threat cards on them and those the Exploration phase will draw there, the
  Threat cards anywhere else, the Guardian of the Rift; on request;
- ``hand``: your Power cards with their text, your assets with their charges, your Corruption cards, trophies,
  mission and completed missions; shown when your cards change;
- ``sheet``: your character sheet (limits, abilities, the level track, the levels reached marked); during set-up
  the two sheets dealt to you; shown when your character or level changes;
- ``scenario``: the scenario sheet (its rules and confrontation); shown once.

``view`` (the whole table, e.g. for ``solo table``) is the header and every panel. The questions and options in
words are in ``asking.py``; ``look`` in ``look.py``. Every data text is escaped into rich markup; nothing is cut:
the terminal wraps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from wizprint.cards.markup import plural
from wizprint.cards.model import Effect
from wizprint.solo.kernel.screen import Panel, Screen

from .asking import card, describe, question
from .data import NESTED, TROPHY_POINTS, RelicData
from .observation import HeroView, RelicObservation
from .pending import BattleResult, Phase, SkillTestResult
from .texts import (
    TIMING,
    attr,
    boxes_line,
    character_sheet,
    enemy_line,
    movement_box,
    rules,
    scenario_sheet,
    threat_brief,
    tier_name,
    to_draw,
)

if TYPE_CHECKING:
    from .state import RelicState

NEAR = 6  # spaces shown either way along your tier: as far as a roll goes
PHASES = {"start": "the start of the turn", "movement": "Movement phase", "exploration": "Exploration phase",
          "engagement": "Engagement phase", "experience": "Experience phase", "select": "choosing characters",
          "over": "the game is over"}
_PHASE_WORD = {"start": "start of turn", "movement": "Movement", "exploration": "Exploration",
               "engagement": "Engagement", "experience": "Experience"}


def last_words(s: RelicState, seat: int) -> str:
    """The last battle or skill test in words, saying whose it was."""
    r = s.last
    if r is None:
        return ""
    if isinstance(r, BattleResult):
        who = "yours" if r.seat == seat else s.who(r.seat) + "'s"
        res = {1: "won", -1: "lost", 0: "a tie"}[r.result]
        foe = f" against {r.foe} ({attr(r.attribute)})" if r.foe else ""
        return (f"Last battle ({who}){foe}: {r.player} (roll {r.roll}) to {r.enemy} (enemy roll {r.enemy_roll}), "
                f"{res}")
    if isinstance(r, SkillTestResult):
        who = "yours" if r.seat == seat else s.who(r.seat) + "'s"
        what = f", {r.what}" if r.what else ""
        return (f"Last test ({who}{what}): {r.score} (roll {r.roll}) against {r.target}, "
                f"{'passed' if r.result > 0 else 'failed'}")
    return ""


def heading(s: RelicState, seat: int) -> str:
    """Where the game is, in a few words (the observation's ``heading``; the same for every seat)."""
    if s.phase == Phase.SELECT:
        return "Choosing the characters"
    if s.phase == Phase.OVER:
        return "Game over"
    return f"turn {s.turn_number}, {s.who(s.turn_player)}: {PHASES[str(s.phase)]}"


# -- the header: how the game is won -----------------------------------------------------------------------------
def _ways(effs: Sequence[object] | None, gate: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], int]]:
    """The ways a confrontation's effects win the game: (what must be beaten or passed, how many times)."""
    out: list[tuple[tuple[str, ...], int]] = []
    for e in effs or ():
        if not isinstance(e, Effect):
            continue
        w = e.word
        if w == "win_game":
            out.append((gate, 1))
        elif w == "scenario_token":
            out += [(g, int(e["need"])) for g, _ in _ways(e.get("then"), gate)]
        elif w == "battle":
            out += _ways(e.get("then_win"), ("battle", str(e["foe"])))
        elif w == "test":
            out += _ways(e.get("then_pass"), ("test", str(e["attribute"]).capitalize(), str(e["target"])))
        elif w == "choose":
            for opt in e["options"]:
                out += _ways(opt.get("then"), gate)
        else:
            for k in NESTED:
                out += _ways(e.get(k), gate)
    return out


def _times(n: int) -> str:
    return "" if n == 1 else " twice" if n == 2 else f" {n} times"


def win_words(D: RelicData, sc: str) -> tuple[str, str, str]:
    """How the scenario is won, from the confrontation's effects, in three lengths: ``beat the Norn-Beast of Tessaly
    twice at the centre``, ``beat the Norn-Beast of Tessaly twice``, ``2 centre battles``."""
    ways = _ways(D.effects(D.scenarios[sc].confrontation))
    long: list[str] = []
    brief: list[str] = []
    foes: dict[str, int] = {}
    tests: dict[tuple[str, int], list[str]] = {}
    for gate, need in ways:
        if gate and gate[0] == "battle":
            foes.setdefault(gate[1], need)
        elif gate and gate[0] == "test":
            tests.setdefault((gate[2], need), []).append(gate[1])
    for foe, need in foes.items():
        long.append(f"beat {foe}{_times(need)}")
        brief.append("a centre battle" if need == 1 else f"{need} centre battles")
    for (target, need), attrs in tests.items():
        which = " or ".join(attrs)
        long.append(f"pass {plural(need, f'{which} {target} test')}")
        brief.append("a centre test" if need == 1 else f"{need} centre tests")
    if not long:
        return "the confrontation", "the confrontation", "the confrontation"
    if len(brief) > 1:  # "a centre battle or 3 tests"
        brief = [brief[0], *(b.replace("centre ", "") for b in brief[1:])]
    return " or ".join(long) + " at the centre", " or ".join(long), " or ".join(brief)


def header(D: RelicData, obs: RelicObservation, width: int = 80) -> str:
    """``Turn 12, P2: Engagement · you: P1 Primaris Psyker · win: beat the Mystery Beyond at the centre``: as many of
    these words as fit one row of the screen."""
    me = obs["seat"]
    sc = obs["scenario"]
    phase = obs["phase"]
    wins = win_words(D, sc) if sc else ("",)
    if phase == "over":
        return "Game over"
    if phase == "select":
        when = "Choosing characters"
        mine = [f"you: P{me + 1}"]
    else:
        active = obs["active"]
        who = "you" if active == me else f"P{active + 1}"
        when = f"Turn {obs['turn']}, {who}: {_PHASE_WORD.get(phase, phase)}"
        ch = obs["table"][me]["character"]
        name = D.characters[ch].name if ch else ""
        mine = [f"P{me + 1} {name}".rstrip()] if active == me else [f"you: P{me + 1} {name}".rstrip(),
                                                                    f"P{me + 1} {name}".rstrip()]
    tries = [f"{when} · {m} · win: {w}" for w in wins for m in mine]
    got = next((t for t in tries if len(t) <= width), None)  # the most words that fit one row
    seat = f"P{me + 1}" if phase != "select" and obs["active"] == me else f"you: P{me + 1}"
    return got or f"{when} · {seat} · win: {wins[-1]}"  # the character's name is in 'status' and 'sheet'


# -- status: every character -------------------------------------------------------------------------------------
def _whose(me: int, s: int) -> str:
    return "You" if s == me else f"P{s + 1}"


def _hero(D: RelicData, obs: RelicObservation, s: int) -> list[str]:
    e = escape
    me = obs["seat"]
    t = obs["table"][s]
    who = f"P{s + 1}" + (" (you)" if s == me else "")
    if t["eliminated"] or not t["space"]:
        return [f"[bold]{who}[/bold]: out of the game"]
    sp = t["space"]
    a = t["attributes"]
    lines = [f"[bold]{who}[/bold] {e(D.characters[t['character']].name)}, level {t['level']}, on {sp} "
             f"{e(D.spaces[sp].name)}" + (f" ({tier_name(D.spaces[sp].tier)})" if D.spaces[sp].tier != "outer" else ""),
             f"  Strength {a[0]}, Willpower {a[1]}, Cunning {a[2]}, Life {t['life']}, {t['influence']} influence, "
             f"{plural(t['hand'], 'Power card')}"]
    extra = []
    if t["mission"]:
        extra.append(f"mission {t['mission']} {e(D.cards[t['mission']].name)}" +
                     (f" ({t['progress']} defeated so far)" if t["progress"] else ""))
    done = len(t["completed"]) + t["completed_hidden"]
    if done:
        extra.append(plural(done, "completed mission"))
    relics = [x for x in t["assets"] if D.cards[x].deck == "relic"]
    if relics:
        extra.append(("relic " if len(relics) == 1 else "relics ") +
                     ", ".join(f"{x} {e(D.cards[x].name)}" for x in relics))
    others = len(t["assets"]) - len(relics)
    if others:
        extra.append(plural(others, "other asset"))
    corruption = len(t["corruption_up"]) + t["corruption_down"]
    if corruption:
        extra.append(plural(corruption, "Corruption card"))
    if t["trophies"]:
        pts = sum(D.cards[x].value for x in t["trophies"])
        extra.append(f"{plural(len(t['trophies']), 'trophy', 'trophies')} worth {plural(pts, 'point')}")
    if t["scenario_tokens"]:
        extra.append(f"{plural(t['scenario_tokens'], 'token')} on the scenario sheet")
    if t["skip"]:
        extra.append(f"misses {plural(t['skip'], 'turn')}")
    if extra:
        lines.append("  " + "; ".join(extra))
    return lines


def _status(D: RelicData, obs: RelicObservation) -> Panel:
    table = obs["table"]
    lines: list[str] = []
    race: list[str] = []
    for s, t in enumerate(table):
        if t["character"]:
            lines.extend(_hero(D, obs, s))
            sp = t["space"]
            relics = sorted(x for x in t["assets"] if D.cards[x].deck == "relic")
            done = len(t["completed"]) + t["completed_hidden"]
            race.append(f"{t['character']} {t['level']} {','.join(relics)} {done} {D.spaces[sp].tier if sp else ''} "
                        f"{t['scenario_tokens']} {t['eliminated']}")
    if not lines:
        lines = [f"P{s + 1}: choosing a character" for s in range(len(table))]
    return Panel("status", "the characters", tuple(lines),
                 key="|".join(race) or None)


# -- here: your space --------------------------------------------------------------------------------------------
def _threat_lines(D: RelicData, xs: list[str], sc: str, indent: str) -> list[str]:
    out = []
    for x in xs:
        c = D.cards[x]
        if c.category == "enemy":
            out.append(f"{indent}{escape(enemy_line(D, x, sc))}")
        else:
            text = rules(D, x)
            out.append(f"{indent}{escape(f'{x} {c.name} ({c.category})')}" + (f": {escape(text)}" if text else ""))
    return out


def _here_lines(D: RelicData, obs: RelicObservation) -> list[str]:
    """Your space: where it is, its movement box, its text boxes (or the confrontation), the Threat cards on it."""
    e = escape
    me = obs["seat"]
    here = obs["table"][me]["space"]
    sc = obs["scenario"]
    sp = D.spaces[here]
    where = tier_name(sp.tier) + (f", {sp.area}" if sp.area else "")
    out = [f"[bold]Your space[/bold]: {here} {e(sp.name)} ({e(where)})"]
    mb = movement_box(D, here)
    if mb:
        out.append(f"  {e(mb)}")
    if sp.tier == "centre":
        out.append(f"  Confrontation: {e(D.text(D.effects(D.scenarios[sc].confrontation), sc))}")
    elif sp.boxes:
        out.append(f"  Text box: {e(boxes_line(D, here))}" if len(sp.boxes) == 1 else
                   f"  Text boxes: {e(boxes_line(D, here))}")
    threats = obs["board"].get(here) or []
    if threats:
        out.append(f"  Threat cards here ({len(threats)}), resolved before any text box:")
        out.extend(_threat_lines(D, threats, sc, "    "))
    others = [f"P{s + 1}" for s, t in enumerate(obs["table"]) if s != me and t["character"] and
              not t["eliminated"] and t["space"] == here]
    if others:
        out.append(f"  Also here: {', '.join(others)}")
    return out


def _here(D: RelicData, obs: RelicObservation) -> Panel | None:
    me = obs["seat"]
    if not obs["table"][me]["character"] or not obs["table"][me]["space"]:
        return None
    here = obs["table"][me]["space"]
    key = f"{here} {','.join(obs['board'].get(here) or [])}"
    return Panel("here", "your space and its Threat cards", tuple(_here_lines(D, obs)), key=key)


# -- board: around you -------------------------------------------------------------------------------------------
def _board(D: RelicData, obs: RelicObservation) -> Panel | None:
    e = escape
    me = obs["seat"]
    if not obs["table"][me]["character"]:
        return None
    if not obs["table"][me]["space"]:
        return None
    board: Mapping[str, list[str]] = obs["board"]
    sc = obs["scenario"]
    who: dict[str, list[str]] = {}
    for s, t in enumerate(obs["table"]):
        if t["character"] and not t["eliminated"] and t["space"]:
            who.setdefault(t["space"], []).append("you" if s == me else f"P{s + 1}")
    here = obs["table"][me]["space"]
    shown: set[str] = set()
    lines: list[str] = []

    def row(tag: str, sp: str, text: str = "") -> str:
        shown.add(sp)
        out = f"{tag:>5} {sp} {e(D.spaces[sp].name)}"
        if who.get(sp):
            out += " (" + ", ".join(who[sp]) + ")"
        bits = [e(", ".join(threat_brief(D, x) for x in board.get(sp) or []))] if board.get(sp) else []
        draw = to_draw(D, sp, board.get(sp) or []) if sp != here else ""
        if draw:
            bits.append(draw)
        if text:
            bits.append(text)
        return out + (": " + "; ".join(b for b in bits if b) if any(bits) else "")

    if here in D.ring_index:
        tier = D.spaces[here].tier
        ring = D.rings[tier]
        i = D.ring_index[here]
        lines.append(f"Near you on {tier_name(tier)} (+ clockwise, - anticlockwise; 'look' a space for its text):")
        for k in range(-NEAR, NEAR + 1):
            sp = ring[(i + k) % len(ring)]
            if sp not in shown:
                lines.append(row("here" if k == 0 else f"{k:+d}", sp))
    else:
        # the Inner tier from the Warp Rift along its arrow to the scenario space, with what each space does
        sp_id = D.rift
        lines.append("The Inner tier, along the arrow:")
        while sp_id in D.spaces and sp_id not in shown:
            space = D.spaces[sp_id]
            if space.tier == "centre":
                text = f"{e(D.scenarios[sc].name)}: {e(D.text(D.effects(D.scenarios[sc].confrontation), sc))}"
            else:
                text = e(boxes_line(D, sp_id)) if space.boxes else ""
            lines.append(row("here" if sp_id == here else "", sp_id, text))
            sp_id = space.next
    rest = [sp for sp in board if board[sp] and sp not in shown]
    if rest:
        lines.append("Threat cards elsewhere:")
        for sp in rest:
            lines.append(f"  {sp} {e(D.spaces[sp].name)}" + (f" ({', '.join(who[sp])})" if who.get(sp) else "") +
                         ": " + e(", ".join(threat_brief(D, x) for x in board[sp])))
    lines.extend(_guardian(D, obs, here))
    return Panel("board", "the board around you",
                 tuple(lines))


def _guardian(D: RelicData, obs: RelicObservation, here: str) -> list[str]:
    """Where the Guardian of the Rift stands (the spaces whose movement box leads into the Inner tier)."""
    out = []
    for g in obs["guardians"]:
        sp = D.spaces[g]
        where = ""
        if here in D.ring_index and D.spaces[here].tier == sp.tier and here != g:
            ring = D.rings[sp.tier]
            k = (D.ring_index[g] - D.ring_index[here]) % len(ring)
            where = f", {plural(k, 'space')} clockwise or {len(ring) - k} anticlockwise from you"
        elif here == g:
            where = ", your space"
        out.append(f"The way into the Inner tier: {g} {escape(sp.name)} ({tier_name(sp.tier)}{where}); with a relic, "
                   f"its movement box leads to {sp.inner} {escape(D.spaces[sp.inner].name)}.")
    return out


def limits(D: RelicData, t: HeroView) -> tuple[int, int]:
    """A seat's power and asset limits (``RelicState.power_limit``, ``asset_limit``) from what all may see: the
    character sheet at its level, and what its assets and face-up Corruption cards change."""
    ch = D.characters[t["character"]]
    kit = D.kit(t["character"], tuple(t["assets"]), tuple(t["corruption_up"]))
    base = next((lim for lo, hi, lim in ch.power_limits if lo <= t["level"] <= hi), 0)
    return max(0, base + kit.limits.get("power", 0)), max(0, ch.asset_limit + kit.limits.get("asset", 0))


# -- hand: your cards --------------------------------------------------------------------------------------------
def _hand(D: RelicData, obs: RelicObservation) -> Panel | None:
    e = escape
    me = obs["seat"]
    t = obs["table"][me]
    if not t["character"]:
        return None
    charges = obs["charges"]
    hand = list(obs["hand"])
    power, assets_limit = limits(D, t)
    out = [f"[bold]Your Power cards[/bold]: {len(hand)} (limit {power}; play one for its ability, or for its number "
           f"instead of a roll)"]
    for x in hand:
        c = D.cards[x]
        out.append(f"  {e(x)} {e(c.name)}, number {c.number}, {e(TIMING.get(c.timing, c.timing))}: "
                   f"{e(rules(D, x))}")
    assets = list(t["assets"])
    out.append(f"[bold]Your assets[/bold]: {len(assets)} (limit {assets_limit})")
    for x in assets:
        c = D.cards[x]
        kind = "Relic" if c.deck == "relic" else f"Wargear, {c.gear}" if c.deck == "wargear" and c.gear else \
            "Wargear" if c.deck == "wargear" else "Threat card asset"
        ch = f", {plural(charges[x], 'charge')}" if x in charges else ""
        out.append(f"  {e(x)} {e(c.name)} ({kind}{ch}): {e(rules(D, x))}")
    up, down = list(t["corruption_up"]), list(obs["my_corruption_down"])
    if up or down:
        out.append(f"[bold]Your Corruption cards[/bold]: {len(up) + len(down)}")
        out.extend(f"  {e(x)} {e(D.cards[x].name)} (face up): {e(rules(D, x))}" for x in up)
        out.extend(f"  {e(x)} {e(D.cards[x].name)} (face down, activation {D.cards[x].activation})" for x in down)
    if t["trophies"]:
        pts = sum(D.cards[x].value for x in t["trophies"])
        out.append(f"[bold]Your trophies[/bold]: worth {plural(pts, 'point')} ({TROPHY_POINTS} buy a level): " +
                   ", ".join(f"{e(x)} {e(D.cards[x].name)} ({D.cards[x].value})" for x in t["trophies"]))
    if t["mission"]:
        m = t["mission"]
        tokens = f" Objective tokens on {', '.join(f'{x} {e(D.spaces[x].name)}' for x in t['tokens'])}." \
            if t["tokens"] else ""
        progress = f" {t['progress']} defeated so far." if t["progress"] else ""
        out.append(f"[bold]Your mission[/bold]: {e(card(D, m))}{tokens}{progress}")
    done = [f"{e(x)} {e(D.cards[x].name)}" for x in t["completed"]] + \
        [f"{e(x)} {e(D.cards[x].name)} (face down)" for x in obs["my_completed_hidden"]]
    if done:
        out.append(f"[bold]Your completed missions[/bold] (3 buy a relic): {', '.join(done)}")
    key = "|".join([",".join(hand), ",".join(f"{x}:{charges.get(x, '')}" for x in assets), ",".join(up),
                    ",".join(down), ",".join(t["trophies"]), t["mission"], ",".join(done)])
    return Panel("hand", "your cards", tuple(out), key=key)


# -- sheet: your character ---------------------------------------------------------------------------------------
def _sheet(D: RelicData, obs: RelicObservation) -> Panel | None:
    me = obs["seat"]
    t = obs["table"][me]
    dealt = obs.get("dealt", [])
    if not t["character"]:
        if not dealt:
            return None
        lines = []
        for ch in dealt:
            sheet = character_sheet(D, ch)
            lines.append(f"[bold]{escape(sheet[0])}[/bold]")
            lines.extend(escape(ln) for ln in sheet[1:])
        return Panel("sheet", "the character sheets dealt to you", tuple(lines), key=",".join(dealt))
    ch = t["character"]
    level = t["level"]
    sheet = character_sheet(D, ch)
    lines = [f"[bold]{escape(sheet[0])}[/bold] (you), level {level}"]
    for ln in sheet[1:]:
        m = ln.strip().split(":", 1)[0]
        if m.startswith("level ") and m[6:].isdigit() and int(m[6:]) <= level:
            ln += " (reached)"
        lines.append(escape(ln))
    return Panel("sheet", "your character sheet", tuple(lines),
                 key=f"{ch} {level}")


def _scenario(D: RelicData, obs: RelicObservation) -> Panel | None:
    sc = obs["scenario"]
    if not sc:
        return None
    sheet = scenario_sheet(D, sc)
    lines = [f"[bold]Scenario: {escape(sheet[0])}[/bold]",
             *(escape(ln) for ln in sheet[1:] if ln.startswith(("Rules: ", "Confrontation: ")))]
    return Panel("scenario", "the scenario sheet", tuple(lines), key=sc)


def screen(data: RelicData, obs: RelicObservation) -> Screen:
    """The seat's screen: the header and the panels (see the module's docstring)."""
    panels = [_status(data, obs), _here(data, obs), _board(data, obs), _hand(data, obs), _sheet(data, obs),
              _scenario(data, obs)]
    return Screen(header(data, obs), tuple(p for p in panels if p is not None))


def view(data: RelicData, obs: RelicObservation) -> list[str]:
    """The whole table as the seat sees it (rich markup): the header and every panel."""
    sc = screen(data, obs)
    out = [f"[bold]{escape(sc.header)}[/bold]"]
    for p in sc.panels:
        out.extend(p.lines)
    return out


__all__ = ["describe", "header", "last_words", "question", "screen", "view", "win_words"]
