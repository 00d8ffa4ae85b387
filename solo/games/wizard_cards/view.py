"""What a Wizard Cards player reads: the terminal view of an observation, and each action in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.solo.kernel import Action

from .data import WizardCardsData
from .state import WizardCardsState


def describe(s: WizardCardsState, action: Action) -> str:
    sp = s.data.spells
    if action.kind == "play":
        c = sp[action.a]
        if c.school == "wild":
            return f"play {action.a} {c.name} as {action.b.capitalize()} 4"
        return f"play {action.a} {c.name} ({c.school.capitalize()} {c.magnitude})"
    if action.kind == "discard":
        c = sp[action.a]
        return f"discard {action.a} {c.name} ({c.school.capitalize()} {c.magnitude}) to damage"
    if action.kind == "stop":
        return "end the spell"
    if action.kind == "draft":
        top = s.draft_piles[action.a][-1]
        return f"draft {top} from the {action.a} pile"
    return action.key


def view(data: WizardCardsData, obs: Mapping[str, Any]) -> list[str]:
    """The terminal view of a seat's observation (rich markup)."""
    me, opp = obs["seat"], 1 - obs["seat"]
    lines = []
    if obs["phase"] == "draft":
        tops = ", ".join(f"{s}: {p[-1]}" if p else f"{s}: -" for s, p in obs["piles"].items())
        lines.append(f"Draft - tops of the piles: {tops}")
        lines.append(f"Your deck so far: {' '.join(obs['own_deck_cards']) or '-'}")
        return lines
    deck = f"spell pile {obs['deck']}" if "opponent_deck" not in obs else (
        f"your deck {obs['deck']}, rival's deck {obs['opponent_deck']}")
    end = "" if obs["end_after_turn"] is None else f"  [bold red]final phase: the game ends after turn " \
                                                   f"{obs['end_after_turn'] + 1}[/bold red]"
    lines.append(f"{deck}; discard pile {len(obs['spell_discard'])}{end}")
    lines.append(f"Damage piles: you {len(obs['damage'][me])}, rival {len(obs['damage'][opp])}   "
                 f"Rival's hand: {obs['opponent_hand']} cards")
    for who, seat in (("Your", me), ("Rival's", opp)):
        ws = obs["wards"][seat]
        if ws:
            lines.append(f"{who} ward: " + ", ".join(f"{c} ({r} left)" for c, r in ws))
    if obs["spell"]:
        whose = "Your" if obs["turn_player"] == me else "Rival's"
        lines.append(f"{whose} spell so far: {', '.join(data.text(c) for c in obs['spell'])}; "
                     f"plays left {obs['plays_left']}")
    if obs["pending_discards"]:
        lines.append(f"[bold]You take {obs['pending_discards']} damage: choose the cards to discard[/bold]")
    lines.append("Your hand: " + ("; ".join(data.text(c) for c in obs["hand"]) or "(empty)"))
    return lines
