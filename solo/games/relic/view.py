"""What a Relic player reads: the terminal view of a seat's observation (rich markup, every data text escaped): the
heroes, the space you stand on with its text boxes and Threat cards (enemies with their values as soon as they are
drawn), the spaces in reach of each roll while you move, the board around you, where the Guardian of the Rift
stands, what is being resolved, whose the last battle or test was, and your own cards with their text. The
questions and options in words are in ``asking.py``; ``look`` in ``look.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from wizprint.cards.markup import plural, short

from .asking import card, describe, question
from .data import ATTRS, TROPHY_POINTS, RelicData
from .pending import BattleResult, SkillTestResult
from .texts import attr, boxes_line, enemy_line, movement_box, tier_name

if TYPE_CHECKING:
    from .state import RelicState

NEAR = 4  # spaces shown either way along your tier
PHASES = {"start": "the start of the turn", "movement": "Movement phase", "exploration": "Exploration phase",
          "engagement": "Engagement phase", "experience": "Experience phase", "select": "choosing characters",
          "over": "the game is over"}


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


def _threat(D: RelicData, x: str, scenario: str) -> str:
    """A Threat card on the board in a few words: an enemy with its values, else its kind."""
    c = D.cards[x]
    if c.category == "enemy":
        return enemy_line(D, x, scenario)
    return f"{x} {c.name} ({c.category})"


def view(data: RelicData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    D = data
    me = int(obs["seat"])
    sc = str(obs["scenario"])
    e = escape
    out = [f"Scenario: [bold]{e(D.scenarios[sc].name)}[/bold] ({sc})"]
    if obs.get("dealt"):
        out.append("Your character choices: " + "; ".join(f"{c} {e(D.characters[c].name)}" for c in obs["dealt"]))
    for s, t in enumerate(obs["table"]):
        if t["character"]:
            out.extend(_hero(D, obs, s, t, s == me))
    here = str(obs["table"][me]["space"]) if obs["table"][me]["character"] else ""
    if here:
        out.extend(_here(D, obs, here))
    moving = _my_move(obs, me)
    if here and moving is not None:
        out.extend(_reach(D, obs, here, moving))
    out.extend(_near(D, obs))
    out.extend(_guardian(D, obs, here))
    if obs["revealed"]:
        out.append("Revealed:")
        out.extend(f"  {e(card(D, x))}" for x in obs["revealed"])
    out.extend(_under_way(D, obs, me))
    if obs.get("last_words"):
        out.append(e(str(obs["last_words"])))
    hand = obs["hand"]
    out.append("Your Power cards:" + ("" if hand else " none"))
    for x in hand:
        c = D.cards[x]
        out.append(f"  {e(x)} {e(c.name)} (number {c.number}): {e(short(D.card_text(c.design)))}")
    if obs["my_corruption_down"]:
        out.append("Your face-down Corruption cards: " + ", ".join(f"{x} {e(D.cards[x].name)}"
                                                                  for x in obs["my_corruption_down"]))
    if obs["my_completed_hidden"]:
        out.append("Your completed missions from the deck: " + ", ".join(f"{x} {e(D.cards[x].name)}"
                                                                         for x in obs["my_completed_hidden"]))
    return out


def _hero(D: RelicData, obs: Mapping[str, Any], s: int, t: Mapping[str, Any], mine: bool) -> list[str]:
    e = escape
    who = "You" if mine else f"P{s + 1}"
    if t["eliminated"]:
        return [f"[bold]{who}[/bold]: out of the game"]
    a = t["attributes"]
    sp = t["space"]
    lines = [f"[bold]{who}[/bold] ({t['colour']}), {e(D.characters[t['character']].name)} ({t['character']}), on "
             f"{sp} {e(D.spaces[sp].name)}: Strength {a[0]}, Willpower {a[1]}, Cunning {a[2]}, Life {t['life']}, "
             f"level {t['level']}, {t['influence']} influence, {plural(t['hand'], 'Power card')}"]
    extra = []
    charges = obs["charges"]
    if t["assets"]:
        extra.append("assets " + ", ".join(f"{x} {e(D.cards[x].name)}" + (
            f" ({plural(charges[x], 'charge')})" if x in charges else "") for x in t["assets"]))
    if t["trophies"]:
        pts = sum(D.cards[x].value for x in t["trophies"])
        extra.append(f"{plural(len(t['trophies']), 'trophy', 'trophies')} worth {plural(pts, 'point')} "
                     f"({TROPHY_POINTS} a level)")
    if t["corruption_up"] or t["corruption_down"]:
        extra.append("Corruption: " + ", ".join([f"{x} {e(D.cards[x].name)}" for x in t["corruption_up"]] + (
            [f"{t['corruption_down']} face down"] if t["corruption_down"] else [])))
    if t["mission"]:
        extra.append(f"mission {t['mission']} {e(D.cards[t['mission']].name)}" + (
            f" (tokens on {', '.join(t['tokens'])})" if t["tokens"] else "") + (
            f" ({t['progress']} defeated so far)" if t["progress"] else ""))
    done = len(t["completed"]) + t["completed_hidden"]
    if done:
        extra.append(f"{plural(done, 'completed mission')}")
    if t["scenario_tokens"]:
        extra.append(f"{plural(t['scenario_tokens'], 'token')} on the scenario sheet")
    if t["skip"]:
        extra.append(f"misses {plural(t['skip'], 'turn')}")
    if extra:
        lines.append("    " + "; ".join(extra))
    return lines


def _here(D: RelicData, obs: Mapping[str, Any], here: str) -> list[str]:
    """The space you stand on: where it is, its text boxes (or the confrontation) and the Threat cards on it."""
    e = escape
    sp = D.spaces[here]
    out = [f"[bold]Your space[/bold]: {here} {e(sp.name)}, on {tier_name(sp.tier)}"]
    mb = movement_box(D, here)
    if mb:
        out.append(f"  {e(mb)}")
    if sp.tier == "centre":
        sc = str(obs["scenario"])
        out.append(f"  Confrontation: {e(D.text(D.effects(D.scenarios[sc].confrontation), sc))}")
    elif sp.boxes:
        out.append(f"  {e(boxes_line(D, here))}")
    threats = obs["board"].get(here) or []
    if threats:
        out.append(f"  Threat cards here ({len(threats)}):")
        for x in threats:
            c = D.cards[x]
            line = _threat(D, x, str(obs["scenario"]))
            if c.category != "enemy":
                line += ": " + short(D.card_text(c.design))
            out.append(f"    {e(line)}")
    return out


def _my_move(obs: Mapping[str, Any], me: int) -> int | None:
    """While the seat is about to move: the movement score if known (0 before the roll), else None."""
    stack = obs.get("stack") or []
    if not stack or int(obs["current"]) != me:
        return None
    mv = [f for f in stack if f.get("kind") == "movement" and int(f.get("seat", -1)) == me]
    if not mv:
        return None
    m = mv[-1]
    top = stack[-1]
    if top.get("kind") == "dice" and top.get("context", "move") == "move":
        vals = top.get("values") or []
        if not vals:
            return 0
        if len(vals) == 1:  # rolled, a reroll to decide: where the roll leads
            return max(1, int(vals[0]) + int(m.get("bonus", 0)))
        return None
    if top is m and int(m.get("step", 0)) == 4:  # MoveStep.DIRECTION
        return int(m.get("points", 0))
    return None


def _reach(D: RelicData, obs: Mapping[str, Any], here: str, points: int) -> list[str]:
    """The spaces each roll (or Power card number) takes you to, either way, with their text boxes."""
    e = escape
    sp = D.spaces[here]
    if sp.tier not in D.rings:
        return []
    ring = D.rings[sp.tier]
    rolls = [points] if points else list(range(1, 7))
    out = ["In reach " + (f"with your movement score {points}:" if points else
                          "by roll or Power card number (clockwise, anticlockwise):")]
    for n in rolls:
        for d, tag in ((1, "cw"), (-1, "acw")):
            pos, pts = here, n
            while pts > 0:
                pts -= 1
                pos = ring[(D.ring_index[pos] + d) % len(ring)]
                pts = max(0, pts + D.spaces[pos].move_bonus)
            s2 = D.spaces[pos]
            txt = boxes_line(D, pos)
            threats = obs["board"].get(pos) or []
            if threats:
                txt = f"{plural(len(threats), 'Threat card')} there; " + txt
            head = f"  {n} {tag:<3} {pos} {s2.name}: "
            out.append(f"{e(head)}{e(short(txt, max(20, 79 - len(head))))}")
    return out


def _guardian(D: RelicData, obs: Mapping[str, Any], here: str) -> list[str]:
    """Where the Guardian of the Rift stands (the spaces whose movement box leads into the Inner tier)."""
    out = []
    for g in obs.get("guardians", ()):
        sp = D.spaces[g]
        where = ""
        if here in D.ring_index and D.spaces[here].tier == sp.tier and here != g:
            ring = D.rings[sp.tier]
            k = (D.ring_index[g] - D.ring_index[here]) % len(ring)
            where = f", {plural(k, 'space')} clockwise or {len(ring) - k} anticlockwise from you"
        elif here == g:
            where = ", your space"
        out.append(f"Guardian of the Rift: {g} ({tier_name(sp.tier)}{where}); with a relic, its movement box "
                   f"leads into the Inner tier, at {sp.inner} {escape(D.spaces[sp.inner].name)}.")
    return out


def _near(D: RelicData, obs: Mapping[str, Any]) -> list[str]:
    """The board around the seat: the spaces up to NEAR away either way on its tier, with the Threat cards and the
    players on them; then the Threat cards anywhere else."""
    e = escape
    me = int(obs["seat"])
    board: Mapping[str, list[str]] = obs["board"]
    sc = str(obs["scenario"])
    who: dict[str, list[str]] = {}
    for s, t in enumerate(obs["table"]):
        if t["character"] and not t["eliminated"] and t["space"]:
            who.setdefault(t["space"], []).append("you" if s == me else f"P{s + 1}")
    here = obs["table"][me]["space"] if obs["table"][me]["character"] else ""
    shown: set[str] = set()
    lines: list[str] = []

    def row(tag: str, sp: str) -> str:
        shown.add(sp)
        text = f"{tag:>5} {sp} {e(D.spaces[sp].name)}"
        if who.get(sp):
            text += " (" + ", ".join(who[sp]) + ")"
        if board.get(sp) and sp != here:
            text += ": " + "; ".join(e(_threat(D, x, sc)) for x in board[sp])
        return text

    if here in D.ring_index:
        ring = D.rings[D.spaces[here].tier]
        i = D.ring_index[here]
        lines.append(f"Near you on the {D.spaces[here].tier.capitalize()} tier (+ clockwise, - anticlockwise):")
        for k in range(-NEAR, NEAR + 1):
            sp = ring[(i + k) % len(ring)]
            if sp not in shown:
                lines.append(row("here" if k == 0 else f"{k:+d}", sp))
    elif here:
        # the Inner tier from the Warp Rift along its arrow to the scenario space, with what each space does
        sp_id = D.rift
        lines.append("The Inner tier, along the arrow:")
        while sp_id in D.spaces and sp_id not in shown:
            space = D.spaces[sp_id]
            text = row("here" if sp_id == here else "", sp_id)
            if space.tier == "centre":
                conf = D.text(D.effects(D.scenarios[sc].confrontation), sc)
                text += f": {e(short(D.scenarios[sc].name + ': ' + conf, 60))}"
            elif space.boxes:
                text += ": " + e(short(boxes_line(D, sp_id), 60))
            lines.append(text)
            sp_id = space.next
    rest = [sp for sp in board if board[sp] and sp not in shown]
    if rest:
        lines.append("Threat cards elsewhere:")
        for sp in rest:
            lines.append(f"  {sp} {e(D.spaces[sp].name)}" + (f" ({', '.join(who[sp])})" if who.get(sp) else "") +
                         ": " + "; ".join(e(_threat(D, x, sc)) for x in board[sp]))
    return lines


def _under_way(D: RelicData, obs: Mapping[str, Any], me: int) -> list[str]:
    """What is being resolved: a battle, a skill test, a roll, trophies set aside."""
    e = escape
    out: list[str] = []
    b = obs.get("battle")
    for f in obs.get("stack", ()):
        kind = f.get("kind")
        seat = int(f.get("seat", 0))
        who = "You" if seat == me else f"P{seat + 1}"
        if kind == "battle" and b:
            er = b["enemy_roll"]
            foes = f.get("foes") or []
            out.append(f"[bold]Battle[/bold]: {who} ({ATTRS[int(f.get('attribute', 0))].capitalize()} "
                       f"{b['score']} + roll) against {e(str(f.get('foe_name', '')))} ({b['enemy']} + " +
                       (f"{er} rolled" if er is not None else "roll") + ")")
            for x in foes:
                out.append(f"  {e(enemy_line(D, x, str(obs['scenario'])))}")
        elif kind == "test":
            bonus = int(f.get("bonus", 0))
            out.append(f"[bold]Test[/bold]: {who}, {attr(int(f.get('attribute', 0)))} {f.get('target', 0)}" +
                       (f" (+{bonus} this test)" if bonus else ""))
        elif kind == "dice" and f.get("values"):
            vals = list(f["values"])
            sep = "/" if f.get("context", "move") == "move" else "+"
            out.append(f"{who} rolled {sep.join(map(str, vals))}" +
                       (f", and {'+'.join(map(str, f['exploded']))} for sixes" if f.get("exploded") else ""))
        elif kind == "experience" and f.get("aside"):
            out.append("Trophies set aside to spend: " + ", ".join(f"{x} {e(D.cards[x].name)} ({D.cards[x].value})"
                                                                   for x in f["aside"]))
    return out


__all__ = ["describe", "last_words", "question", "view"]
