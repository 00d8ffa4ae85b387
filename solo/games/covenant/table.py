"""Covenant of Wizards on a real table (``wizprint solo table covenant``): where each zone lies, in words, the set-up
from the printed deck, and the rules that run otherwise when the person's cards are on a real table.

Hidden information: every card comes from one shared face-down deck, so the automaton cannot hold a secret hand
drawn from it; it plays with its hand open (face up in front of it, as many published automata play), and the
person deals its cards and says which they are. The person's hand stays secret: the program learns a card when it
is played or shown. The program does not know the deck either, so the person's phases are asked whenever their
hand could act in them, and a search by the automaton is made by the person, who lays out the cards of the kind
searched for; the automaton takes one and sees nothing else of the deck.
"""

from __future__ import annotations

from typing import Any

from wizprint.solo.kernel.table import Place, TablePolicy

from .data import HAND
from .game import CovenantGame
from .pending import BonusWindow, Choice, Lookup, Negation, Roll, Slaying, TrapsWindow
from .state import CovenantState, Phase

POLICY_TEXT = ("The automaton plays with its hand open, face up in front of it: the deck is shared and face down, "
               "so a secret hand drawn from it could not be kept. You deal its cards and say which they are; your "
               "own hand stays secret until you play or show a card. When the automaton searches the deck, you look "
               "through it and lay out the cards it may take; it sees only those.")


def place(zone: str, person: int) -> Place:
    base, _, key = zone.partition(".")
    if base == "deck":
        return Place.HIDDEN
    if base == "hand":
        return Place.PERSON if key == str(person) else Place.PUBLIC
    return Place.PUBLIC


def name(zone: str, person: int) -> str:
    base, _, key = zone.partition(".")
    mine = key == str(person)
    who = "your" if mine else f"P{int(key) + 1}'s" if key.isdigit() else ""
    if base == "attached":
        return f"the cards attached to {key} (tucked under it)"
    return {
        "deck": "the deck",
        "discard": "the discard pile",
        "limbo": "the middle of the table",
        "hand": "your hand" if mine else f"{who} open hand",
        "wizards": f"{who} wizards in play",
        "followers": f"{who} followers in play",
        "resources": f"{who} resources in play",
        "quests": f"{who} completed quests",
    }.get(base, zone)


def setup(state: CovenantState, person: int) -> list[str]:
    autos = [s for s in range(state.players) if s != person]
    them = " and ".join(f"P{s + 1}'s" for s in autos)
    first = state.turn_player
    research = ("draw 1 more card: the Research of your first turn" if first == person else
                f"deal P{first + 1} 1 more card, face up: the Research of its first turn")
    decl = state.data.game.decl
    decks = "; ".join(f"the {d.count} cards of the {d.name} (cards-{d.id}.pdf)" for d in decl.decks.values())
    sheets = "; ".join(f"{c.name} (sheet-{c.id}.pdf)" for c in decl.components if c.kind == "sheet")
    return [f"Set-up: take {decks} and shuffle them into one face-down deck. Lay the sheet where everyone can read "
            f"it: {sheets}. Have three six-sided dice at hand.",
            f"Deal {HAND} cards to each player: yours into your hand, secret; {them} face up in a row in front of "
            + ("it (the automaton's open hand)." if len(autos) == 1 else "each (the automata's open hands)."),
            f"P{first + 1} takes the first turn: {research}."]


def new_state(engine: Any, players: int, seed: int, variant: str, person: int) -> CovenantGame:
    """A new game whose seat ``person`` is played with the printed cards (the engine asks that seat's phases
    whenever its hand could act, and lets it lay out the deck's cards for the automaton's searches)."""
    s = CovenantGame.new(engine.data, players, seed, variant, table_seat=person)
    s.step_cap = engine.decl.step_cap
    return s


WINDOWS = (Negation, Roll, Slaying, BonusWindow, TrapsWindow)


def may_play(state: CovenantState, person: int) -> bool:
    """Where the person may play a card the program does not list: in their phases and in the response windows
    (what they may play depends on their hand), and in a search of the deck (what they find there)."""
    top = state.pending
    if top is None:
        return state.phase is not Phase.OVER and bool(state.hands[person])
    if isinstance(top, Lookup):
        return True
    if isinstance(top, Choice):
        return top.effect.word == "search" and not top.options
    return isinstance(top, WINDOWS) and bool(state.hands[person])


POLICY = TablePolicy(place=place, name=name, setup=setup, policy=POLICY_TEXT, new_state=new_state,
                     may_play=may_play)
