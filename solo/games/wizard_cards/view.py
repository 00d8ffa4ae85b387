"""What a Wizard Cards player reads: the terminal view of an observation, the question of each decision, each
action in words, and any card looked up by id or name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.markup import escape

from wizprint.cards.markup import spoken
from wizprint.solo.kernel import Action

from .data import WizardCardsData
from .state import Phase, WizardCardsState, cards


def describe(s: WizardCardsState, action: Action) -> str:
    sp = s.data.spells
    if action.kind == "play":
        c = sp[action.a]
        if c.school == "wild":
            return f"play {action.a} {c.name} as {action.b.capitalize()} 4"
        return f"play {s.data.text(action.a)}: {school_does(c.school, c.magnitude)}"
    if action.kind == "discard":
        return f"put {s.data.text(action.a)} on your damage pile"
    if action.kind == "stop":
        return "end the spell"
    if action.kind == "draft":
        return f"take {s.data.text(s.draft_piles[action.a][-1])} from the {action.a} pile"
    return action.key


def school_does(school: str, magnitude: int) -> str:
    """What a school does, in a few words."""
    return {"ward": f"stops {magnitude} damage until your next turn",
            "vigor": f"{magnitude} more component{'s' if magnitude != 1 else ''} in this spell",
            "fortune": f"draw {cards(magnitude)} now",
            "wrath": f"your rival puts {cards(magnitude)} on their damage pile, less their ward"}.get(school, "")


def question(s: WizardCardsState) -> str:
    seat = s.current_player
    if s.phase == Phase.DRAFT:
        left = sum(len(p) for p in s.draft_piles.values())
        return f"The draft: take the top card of a pile for your deck ({left} cards left; P{2 - seat} picks next)"
    if s.phase == Phase.DISCARD:
        return (f"P{s.turn_player + 1}'s Wrath gets through your ward: put {cards(s.damage_due)} from your hand on "
                f"your damage pile, one at a time")
    if not s.cast:
        return "Your turn: cast a spell, one component at a time (the first is free; each Vigor adds plays)"
    return f"Your spell goes on: {s.plays_left} play{'s' if s.plays_left != 1 else ''} left; add a component or end it"


def _card(data: WizardCardsData, c: str) -> str:
    return escape(data.text(c))


def view(data: WizardCardsData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    me, opp = obs["seat"], 1 - obs["seat"]
    lines = []
    if obs["phase"] == "draft":
        tops = ", ".join(f"{s}: {_card(data, p[-1])}" if p else f"{s}: empty" for s, p in obs["piles"].items())
        lines.append(f"Tops of the piles: {tops}")
        lines.append(f"Your deck so far: {', '.join(escape(c) for c in obs['own_deck_cards']) or 'empty'}")
        return lines
    deck = f"spell pile {cards(obs['deck'])}" if "opponent_deck" not in obs else (
        f"your deck {cards(obs['deck'])}, rival's deck {cards(obs['opponent_deck'])}")
    end = "" if obs["end_after_turn"] is None else f"  [bold red]final phase: the game ends after turn " \
                                                   f"{obs['end_after_turn'] + 1}[/bold red]"
    lines.append(f"{deck}; discard pile {cards(len(obs['spell_discard']))}{end}")
    lines.append(f"Damage piles: you {cards(len(obs['damage'][me]))}, rival {cards(len(obs['damage'][opp]))}. "
                 f"Rival's hand: {cards(obs['opponent_hand'])}")
    for who, seat in (("Your", me), ("Rival's", opp)):
        ws = obs["wards"][seat]
        if ws:
            lines.append(f"{who} ward: " + ", ".join(f"{_card(data, c)}, stops {r} more" for c, r in ws))
    if obs["spell"]:
        whose = "Your" if obs["turn_player"] == me else "Rival's"
        lines.append(f"{whose} spell so far: {', '.join(_card(data, c) for c in obs['spell'])}; "
                     f"plays left {obs['plays_left']}")
    if obs["pending_discards"]:
        lines.append(f"[bold]You take {obs['pending_discards']} damage: choose the cards to discard[/bold]")
    lines.append("Your hand: " + ("; ".join(_card(data, c) for c in obs["hand"]) or "empty"))
    return lines


def find(data: WizardCardsData, query: str) -> list[str]:
    """The card instances a query names: an id (``QS``, ``WM#2``, ``WM``) or a word of a name (``wood``)."""
    q = query.strip()
    up = q.upper()
    if up in data.spells:
        return [up]
    copies = [c for c in data.spells if c.split("#")[0] == up]
    if copies:
        return copies[:1]
    low = q.lower()
    if len(low) < 3:
        return []
    hits = [c for c, sp in data.spells.items() if low in sp.name.lower() or low in data.card_name(c).lower()]
    return sorted(hits, key=data.sort_key.__getitem__)


def look(data: WizardCardsData, obs: Mapping[str, Any], query: str) -> list[str] | None:
    """A card's printed text and where it is, as the seat may know it."""
    hits = find(data, query)
    if not hits:
        return None
    out: list[str] = []
    if len(hits) > 1:
        designs = sorted({h.split("#")[0] for h in hits})
        if len(designs) > 1:
            out.append(f"{len(designs)} cards match: " + ", ".join(escape(d) for d in designs[:12]) +
                       ("..." if len(designs) > 12 else "") + ". Look one up by its id.")
        hits = hits[:1]
    c = hits[0]
    sp = data.spells[c]
    if sp.school == "wild":
        out.append(f"[bold]{escape(c)} {escape(data.card_name(c))}[/bold] (a joker: any school, magnitude "
                   f"{sp.magnitude})")
    else:
        out.append(f"[bold]{escape(c)} {escape(data.card_name(c))}[/bold] ({escape(sp.name)}: "
                   f"{sp.school.capitalize()} {sp.magnitude})")
    out.append(escape(spoken(data.printed(c))))
    out.append(escape(where(obs, c)))
    return out


def where(obs: Mapping[str, Any], c: str) -> str:
    """Where a card is, as the observing seat may know it."""
    me, opp = obs["seat"], 1 - obs["seat"]
    if c in obs["hand"]:
        return "It is in your hand."
    for seat, who in ((me, "your"), (opp, "your rival's")):
        for w, left in obs["wards"][seat]:
            if w == c:
                return f"It stands in {who} ward and stops {left} more damage."
        if c in obs["damage"][seat]:
            return f"It is on {who} damage pile."
    if c in obs["spell"]:
        return "It is part of the spell being cast."
    if c in obs["spell_discard"]:
        return "It is on the discard pile."
    for suit, pile in (obs.get("piles") or {}).items():
        if c in pile:
            return f"It is in the {suit} pile of the draft" + (" (on top)." if pile[-1] == c else ".")
    if c in obs.get("own_deck_cards", ()):
        return "It is in your deck." if obs["phase"] != "draft" else "It is in your deck (you drafted it)."
    if c in obs.get("opponent_cards", ()):
        return "It is in your rival's deck or hand (drafted by them)."
    return "You cannot see it: it is in the spell pile or your rival's hand."
