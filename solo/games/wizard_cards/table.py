"""Wizard Cards on a real table (``wizprint solo table wizard-cards``): where each zone lies, in words, and the set-up
from the printed deck.

Hidden information: the spell deck is one shared face-down pile, so the automaton cannot hold a secret hand drawn
from it; it plays with its hand open (face up in front of it, as many published automata play), and the person
deals its cards and says which they are. The person's hand stays secret: the program learns a card when it is
played. In the constructed variant the drafted decks are shuffled face down; the person draws for both.
"""

from __future__ import annotations

from wizprint.solo.kernel.table import Place, TablePolicy

from .state import HAND, WizardCardsState

POLICY_TEXT = ("The automaton plays with its hand open, face up in front of it: the spell deck is shared and face "
               "down, so a secret hand drawn from it could not be kept. You deal its cards and say which they are; "
               "your own hand stays secret until you play a card.")


def place(zone: str, person: int) -> Place:
    name, _, seat = zone.partition(".")
    if name == "spell_pile" or name == "deck":
        return Place.HIDDEN
    if name == "hand":
        return Place.PERSON if seat == str(person) else Place.PUBLIC
    return Place.PUBLIC


def name(zone: str, person: int) -> str:
    base, _, key = zone.partition(".")
    mine = key == str(person)
    who = "your" if mine else f"P{int(key) + 1}'s" if key.isdigit() else ""
    return {
        "spell_pile": "the spell deck",
        "discard": "the discard pile",
        "spell": "the spell being cast (in the middle of the table)",
        "hand": "your hand" if mine else f"{who} hand (face up)",
        "damage": f"{who} damage pile",
        "ward": "your wards (face up before you)" if mine else f"{who} wards (face up before them)",
        "deck": f"{who} drafted deck (face down)",
        "draft_pile": f"the {key} draft pile",
    }.get(base, zone)


def setup(state: WizardCardsState, person: int) -> list[str]:
    auto = 1 - person
    if state.variant == "constructed":
        return ["Set-up: sort the 52 spell cards into four piles by suit, ace at the bottom and king on top, face up; "
                "give each player a Wild Magic card as the first card of their deck.",
                "The program tells each draft pick, yours and the automaton's."]
    return ["Set-up: put the 2 reference cards aside. Shuffle the 54 spell cards (with both Wild Magic cards) "
            "into one face-down spell deck.",
            f"Deal {HAND} cards to each player: yours in your hand, secret; P{auto + 1}'s (the automaton's) face "
            f"up in front of it.",
            f"P{state.first_player + 1} takes the first turn."]


def laid_out(state: WizardCardsState, person: int) -> set[str]:
    """The constructed variant's draft piles are sorted by rank, and each deck starts with a Wild Magic card."""
    if state.variant != "constructed":
        return set()
    return {c for pile in state.draft_piles.values() for c in pile} | {c for d in state.decks for c in d}


def label(state: WizardCardsState, card: str) -> str:
    """``8H Double Spell``: the id and the spell's name, the title the printed card shows."""
    return state.data.label(card)


POLICY = TablePolicy(place=place, name=name, setup=setup, policy=POLICY_TEXT, laid_out=laid_out, label=label)
