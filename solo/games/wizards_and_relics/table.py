"""Wizards & Relics on a real table (``wizprint solo table wizards-and-relics``): where each zone lies, in words, the
set-up from the printed cards, and what the person's hand may hold that the program does not know.

Hidden information: each player has a deck of their own, so the program keeps the automaton's. It deals the four
30-card decks as the rules' rarity deal does; the wizards and relics wait in one pile sorted by id (the reserve),
the automaton's deck and hand among them, and the person fetches a card from it only when the rules show it (a
wizard and a relic revealed, a discard, the top of a deck revealed). The person takes their own deck from the
reserve when they choose it, shuffles it and keeps their hand secret: the program knows which 30 cards the deck
holds, never their order, the hand or a face-down play until the person shows them. Where the rules read the
person's hand (no wizard or no relic to play; another relic or a wizard to play from it; the relics it reveals),
the person says it (the state's ``table_seat``), and the program offers what either kind of hand allows
(:func:`arrangements`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action
from wizprint.solo.kernel.table import Place, TablePolicy

from .data import DECKS, HAND
from .effects import matches
from .pending import Ask, Choose, Round
from .state import WizardsAndRelicsState

POLICY_TEXT = ("Each player has a deck of their own, so the program keeps the automaton's: its cards wait in the "
               "reserve, a pile of the wizards and relics sorted by id, and you fetch one only when the rules show "
               "it. The program deals the four decks, so it knows which 30 cards make yours, but never their order, "
               "your hand or your face-down plays until you show them.")


def _seat(key: str) -> int:
    return int(key) if key.isdigit() else -1


def place(zone: str, person: int) -> Place:
    base, _, key = zone.partition(".")
    seat = _seat(key)
    if base == "pile":
        return Place.KEPT
    if base == "shrine_pile":
        return Place.HIDDEN
    if base == "deck":
        return Place.HIDDEN if seat == person else Place.KEPT
    if base == "hand":
        return Place.PERSON if seat == person else Place.KEPT
    return Place.PUBLIC


def name(zone: str, person: int) -> str:
    base, _, key = zone.partition(".")
    seat = _seat(key)
    mine = seat == person
    who = "your" if mine else f"P{seat + 1}'s"
    if base == "pile":
        return "the reserve"
    if base in ("deck", "hand") and not mine:
        return f"the reserve ({who} {base}, kept by the program)"
    return {
        "deck": "your deck (face down)",
        "hand": "your hand",
        "discard": f"{who} discard pile (face up)",
        "hall": f"{who} Hall of Immortality",
        "wizard": f"{who} wizard in play (face up)",
        "relic": f"{who} relic in play (face up)",
        "tied": f"{who} cards of the tied battle (aside, face up)",
        "shrine_pile": "the shrine pile (face down on the map)",
        "shrine": "the shrine in play (face up on the map)",
        "shrine_discard": "the used shrines (face up by the map)",
    }.get(base, zone)


def setup(state: WizardsAndRelicsState, person: int) -> list[str]:
    n = state.players
    autos = [f"P{s + 1}" for s in range(n) if s != person]
    out = [
        "Set-up, from the printed files of `wizprint build wizards-and-relics`: cards-duel.pdf (the 60 wizards "
        "W01-W60 and the 60 relics R01-R60, and the Friend cards on its last sheet), cards-shrines.pdf (the 24 "
        "shrines S01-S24, and the +1/+3 tokens on its last sheet) and map.pdf.",
        "Lay out the map, put the +1/+3 tokens beside it and give each player a Friend card.",
        "Shuffle the 24 shrines and lay them face down on the map: the shrine pile.",
        "Sort the 60 wizards (W01-W60) and the 60 relics (R01-R60) by id into a pile you can look through: the "
        f"reserve. The program has dealt them into {DECKS} decks of 30 as the rules deal them (3 Glorious, 6 Superb "
        "and 6 Common wizards, and as many relics); each deck's cards stay in the reserve until a player takes "
        "that deck.",
        f"You are P{person + 1}; the automaton plays {' and '.join(autos)}. Its deck and hand stay in the "
        "reserve: take a card of it out only when the program names it.",
        f"P{state.master + 1} is the Master Wizard of the first round and chooses a deck first, then clockwise. "
        "When you choose yours, the program names its 30 cards: take them from the reserve, shuffle them and lay "
        "them face down (your deck), with room beside it for your discard pile.",
        f"Then draw {HAND} cards, your hand, secret, when the program says so.",
    ]
    if n < DECKS:
        out.append(f"The {plural(DECKS - n, 'deck')} nobody chooses stay in the reserve, out of the game.")
    return out


def prepare(state: WizardsAndRelicsState, person: int) -> None:
    """A new game whose seat ``person`` is played with printed cards: the rules ask that player what their hand
    holds instead of reading it."""
    state.table_seat = person


def secret(state: WizardsAndRelicsState, action: Action, person: int) -> str | None:
    """A move of the person's taken in secret, in words: the cards the program does not know are not named (a card
    every player has seen in their hand is); None for a move that is not secret."""
    d = state.data
    hand = set(state.hands[person]) - set(state.known_hand[person])

    def card(c: str, kind: str) -> str:
        if c == "none":
            return f"no {kind} (you have none in hand)"
        return f"a {kind}" if c in hand else d.label(c)

    if action.kind == "play" and action.b:  # (a wizard and a relic laid face down; not another relic played)
        return f"lay {card(action.a, 'wizard')} and {card(action.b, 'relic')} face down"
    if action.kind == "aside":
        return "set aside a card of your hand; it goes back into your deck unseen"
    if action.kind == "back":
        return "keep a card you set aside after all"
    return None


# -- what the person's hand may hold ---------------------------------------------------------------------------------
def _needs(state: WizardsAndRelicsState, person: int) -> list[Callable[[str], bool]]:
    """The kinds of card the person's decision depends on having in hand (the rules would read the hand there)."""
    if state.table_seat != person or state.current_player != person or not state.stack:
        return []
    top = state.stack[-1]
    d = state.data
    if isinstance(top, Round):
        return [d.is_wizard, d.is_relic]
    if not isinstance(top, Choose):
        return []
    what = top.what
    if top.ask is Ask.EXTRA_RELIC:
        return [d.is_relic]
    if top.ask is Ask.SUMMON and what.startswith("hand:"):
        kind = what.partition(":")[2]
        return [lambda c: matches(state, c, kind)]
    if top.ask is Ask.SHOW:
        return [lambda c: matches(state, c, what) and c not in top.picked]
    return []


def arrangements(state: WizardsAndRelicsState, person: int, known: frozenset[str]) -> list[dict[str, str]]:
    """Other ways the person's unknown cards may lie between hand and deck where the decision depends on them: for
    each kind it depends on, a hand with none of it and a hand with one (each as few exchanges of the program's
    samples as make it)."""
    seen = set(known) | set(state.known_hand[person]) | set(state.known_top[person])
    hand = [c for c in state.hands[person] if c not in seen]
    deck = [c for c in state.decks[person] if c not in seen]
    out = []
    for fits in _needs(state, person):
        held = [c for c in state.hands[person] if fits(c)]
        free = [c for c in deck if not fits(c)]
        if held and all(c in hand for c in held) and len(free) >= len(held):  # a hand with none of the kind
            out.append(_swaps(zip(held, free, strict=False)))
        other = [c for c in hand if not fits(c)]
        found = [c for c in deck if fits(c)]
        if not any(fits(c) for c in hand) and other and found:  # a hand with one the program does not know
            out.append(_swaps([(other[0], found[0])]))
    return out


def _swaps(pairs: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for x, y in pairs:
        out[x], out[y] = y, x
    return out


POLICY = TablePolicy(place=place, name=name, setup=setup, policy=POLICY_TEXT, prepare=prepare, secret=secret,
                     arrangements=arrangements)

__all__ = ["POLICY", "arrangements", "name", "place", "secret", "setup"]
