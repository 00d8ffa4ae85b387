"""What a Relic player reads: each action in words (``describe``) and the terminal view of a seat's observation: the
scenario, every hero, the board around the seat, what is being resolved, and the seat's own hidden cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from wizprint.solo.kernel import Action

from .data import ATTRS, WARP_INFLUENCE, RelicData
from .pending import Battle, BuyPower, Choose, Dice, Engagement, Experience, Movement, Pay, RelicPending

if TYPE_CHECKING:
    from .state import RelicState


def _seat_of(f: RelicPending | None) -> int:
    assert f is not None
    return f.seat


def describe(s: RelicState, action: Action) -> str:
    """A readable label for an action (names of the cards, spaces and characters it names; printed text)."""
    k, a, b = action.kind, action.a, action.b
    D = s.data
    nm = D.name_of
    f = s.pending
    if k == "pick":
        c = D.characters[a]
        return (f"play the {c.name} (Str {c.attributes[0]}, Wil {c.attributes[1]}, Cun {c.attributes[2]}, "
                f"Life {c.life}; starts at {D.spaces[c.start].name})")
    if k == "number":
        return f"play {nm(a)} for its number {D.cards[a].number} instead of rolling"
    if k == "play":
        return f"play {nm(a)} for its ability: {D.card_text(D.cards[a].design)}"
    if k == "evade":
        return f"evade {nm(a)}" + (f" with {nm(b)}" if b else "")
    if k == "reroll" and isinstance(f, Dice):
        return f"reroll the die showing {f.values[int(b)]} with {nm(a)}"
    if k == "box":
        sp = s.space_of(_seat_of(f))
        return f"resolve text box {a}: {D.box_text(sp.id, int(a))}"
    if k in ("cw", "acw"):
        d = 1 if k == "cw" else -1
        here = s.positions[_seat_of(f)]
        pts = f.points if isinstance(f, Movement) else 0
        end = here
        for _ in range(max(1, pts or 1)):
            end = s.next_space(end, d)
        return (f"move {'clockwise' if d > 0 else 'anticlockwise'} (next: {nm(s.next_space(here, d))}; "
                f"{pts or 1} space(s) end on {nm(end)} unless a box on the way stops you)")
    if k == "to":
        return f"move to {nm(a)}"
    if k == "fight":
        return f"battle the {a.capitalize()} enemies"
    if k == "level":
        seat = _seat_of(f)
        gains = [f"level {lv}: {D.reward_text(s.characters[seat], lv)}"
                 for lv in range(s.level[seat] + 1, s.level[seat] + int(a) + 1)]
        return f"spend trophies for {a} level(s) ({'; '.join(gains)})"
    if k == "relic":
        return "spend three completed missions to acquire a relic"
    if k == "option" and isinstance(f, Choose):
        return f"option {a}: {D.text(D.effects(f.options[int(a) - 1]))}"
    if k == "buy" and isinstance(f, BuyPower):
        n = int(a)
        return f"draw {n} Power card(s) for {n * f.price} influence" if n else "draw no Power cards"
    if k == "buy":
        return f"buy {nm(a)} for {D.cards[a].cost} influence"
    if k == "done":
        return "buy nothing more"
    if k == "end":
        return "end the Experience phase" if isinstance(f, Experience) else "end the Engagement phase"
    if k in ("yes", "no") and isinstance(f, Pay):
        return f"{'pay' if k == 'yes' else 'do not pay'} {f.cost} influence"
    if k == "pass":
        if isinstance(f, Dice):
            return "keep the roll"
        if isinstance(f, Engagement):
            return "go on with the Engagement phase"
        if isinstance(f, Battle):
            return "go on to the rolls (Prepare for Battle is over)"
        return "pass"
    if k == "new":
        return "start a new character (a random unused character sheet)"
    if k == "concede":
        return "do not start a new character: lose the game"
    if k == "first":
        return f"resolve first the ability of {nm(a)}"
    if k == "spend":
        return f"spend {WARP_INFLUENCE} influence to skip one more space"
    if k == "save":
        return "keep the influence"
    return " ".join(p for p in (k, nm(a) if a else "", nm(b) if b else "") if p)


def view(data: RelicData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    D = data
    nm = D.name_of
    me = int(obs["seat"])
    lines = [f"Scenario: [bold]{D.scenarios[obs['scenario']].name}[/bold]   phase: {obs['phase']} "
             f"(P{int(obs['active']) + 1}'s turn)"]
    if obs.get("dealt"):
        lines.append("Your character choices: " + "; ".join(nm(c) for c in obs["dealt"]))
    for s, t in enumerate(obs["table"]):
        if not t["character"]:
            continue
        who = "You" if s == me else f"P{s + 1}"
        a = t["attributes"]
        head = (f"[bold]{who}[/bold] ({t['colour']}) {nm(t['character'])} at {nm(t['space'])}: "
                f"Str {a[0]} Wil {a[1]} Cun {a[2]}, Life {t['life']}, level {t['level']}, "
                f"{t['influence']} influence, {t['hand']} Power card(s)")
        if t["eliminated"]:
            head = f"[bold]{who}[/bold]: eliminated"
        lines.append(head)
        extra = []
        if t["assets"]:
            extra.append("assets " + ", ".join(nm(x) + (f" [{obs['charges'][x]}]" if x in obs["charges"] else "")
                                               for x in t["assets"]))
        if t["trophies"]:
            extra.append(f"trophies {sum(D.cards[x].value for x in t['trophies'])} pts")
        if t["corruption_up"] or t["corruption_down"]:
            extra.append("corruption " + ", ".join([nm(x) for x in t["corruption_up"]] +
                                                   ([f"{t['corruption_down']} face down"] if t["corruption_down"]
                                                    else [])))
        if t["mission"]:
            extra.append(f"mission {nm(t['mission'])}" + (f" (tokens {', '.join(t['tokens'])})"
                                                          if t["tokens"] else ""))
        done = len(t["completed"]) + t["completed_hidden"]
        if done:
            extra.append(f"{done} completed mission(s)")
        if t["scenario_tokens"]:
            extra.append(f"{t['scenario_tokens']} token(s) on the scenario")
        if extra:
            lines.append("    " + "; ".join(extra))
    lines.extend(_near(D, obs))
    if obs["revealed"]:
        lines.append("Revealed: " + ", ".join(nm(x) for x in obs["revealed"]))
    b = obs.get("battle")
    for f in obs.get("stack", ()):
        if f.get("kind") == "battle" and b:
            er = b["enemy_roll"]
            lines.append(f"[bold]Battle[/bold] against {f['foe_name']} ({ATTRS[f['attribute']].capitalize()}): "
                         f"P{b['seat'] + 1} {b['score']} + roll against {b['enemy']} + " +
                         (f"{er} (rolled)" if er is not None else "roll"))
        elif f.get("kind") == "test":
            lines.append(f"[bold]Test[/bold] {ATTRS[f['attribute']].capitalize()} {f['target']}" +
                         (f"; you add {f['bonus']}" if f["bonus"] else ""))
        elif f.get("kind") == "dice" and f.get("values"):
            lines.append(f"Your roll: {'+'.join(map(str, f['values']))}" +
                         (f", exploded {'+'.join(map(str, f['exploded']))}" if f.get("exploded") else ""))
    last = obs.get("last") or {}
    if "enemy" in last:
        res = {1: "won", -1: "lost", 0: "a tie"}.get(int(last.get("result", 0)), "")
        lines.append(f"Last battle: {last['player']} (die {last['roll']}) against {last['enemy']} "
                     f"(die {last['enemy_roll']}): {res}")
    elif "test" in last:
        lines.append(f"Last test: {last['test']} (die {last['roll']}) against {last['target']}: "
                     f"{'passed' if int(last.get('result', 0)) > 0 else 'failed'}")
    lines.append("Your Power cards: " + ("; ".join(nm(x) for x in obs["hand"]) or "(none)"))
    if obs["my_corruption_down"]:
        lines.append("Your face-down Corruption: " + ", ".join(nm(x) for x in obs["my_corruption_down"]))
    return lines


NEAR = 4  # spaces shown either way along your tier


def _near(D: RelicData, obs: Mapping[str, Any]) -> list[str]:
    """The board around the seat: the spaces up to NEAR away either way on its tier, with the Threat cards and the
    players on them; then the Threat cards anywhere else."""
    me = int(obs["seat"])
    board: Mapping[str, list[str]] = obs["board"]
    who: dict[str, list[str]] = {}
    for s, t in enumerate(obs["table"]):
        if t["character"] and not t["eliminated"] and t["space"]:
            who.setdefault(t["space"], []).append("you" if s == me else f"P{s + 1}")
    here = obs["table"][me]["space"] if obs["table"][me]["character"] else ""
    shown: set[str] = set()
    lines: list[str] = []

    def row(tag: str, sp: str) -> str:
        shown.add(sp)
        text = f"{tag:>5} {sp:<4}{D.spaces[sp].name}"
        if who.get(sp):
            text += " (" + ", ".join(who[sp]) + ")"
        if board.get(sp):
            text += ": " + ", ".join(D.name_of(x) for x in board[sp])
        return text

    if here in D.ring_index:
        ring = D.rings[D.spaces[here].tier]
        i = D.ring_index[here]
        lines.append(f"Near you on the {D.spaces[here].tier.capitalize()} tier (clockwise +, anticlockwise -):")
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
                scen = D.scenarios[str(obs["scenario"])]
                text += f", {scen.name}: {D.text(D.effects(scen.confrontation), str(obs['scenario']))}"
            elif space.boxes:
                text += ": " + " / ".join(D.box_text(sp_id, i) for i in range(1, len(space.boxes) + 1))
            lines.append(text)
            sp_id = space.next
    rest = [sp for sp in board if board[sp] and sp not in shown]
    if rest:
        lines.append("Threat cards elsewhere: " + "; ".join(
            f"{D.spaces[sp].name} ({sp}): " + ", ".join(D.name_of(x) for x in board[sp]) for sp in rest))
    return lines
