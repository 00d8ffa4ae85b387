"""Wizards Cup on a real table (``wizprint solo table wizards-cup``): where each zone lies, in words, the set-up
from the two printed sets, and the words of the person's secret moves.

Hidden information: each player has a set of their own, so the program keeps the automaton's: its 18 wizards wait
face down in a pile sorted by id, and the person takes a card out only when the rules bring it to light (placed
in the Duel zone, discarded); the automaton's selection, Waiting card and Deck order exist only in the program.
The person's selection, Waiting card and Deck order stay on the table, secret: they choose and order their cards
in secret, and the program learns each card when it is turned face up. Between rounds the person's whole set is
theirs to rearrange, so the program knows the place of none of their face-down cards, only what the automaton
knows too (which wizards it has seen face up).
"""

from __future__ import annotations

from wizprint.solo.kernel import Action, design_of
from wizprint.solo.kernel.table import Place, TablePolicy

from .data import DECK, SETS
from .pending import Ask, Choose
from .state import WizardsCupState

POLICY_TEXT = ("Each player has a set of their own, so the program keeps the automaton's: its wizards wait face "
               "down in a pile sorted by id, and you take one out only when the rules turn it face up. Its "
               "selection, Waiting card and Deck order exist only in the program. Yours stay secret on the table: "
               "the program never asks which wizards you select, how you order them or which you swap; it learns "
               "each of your wizards when it is turned face up.")

PERSON_ZONES = ("set", "deck", "plan", "waiting")  # face down, the person's own (the automaton's: kept)


def place(zone: str, person: int) -> Place:
    base, _, seat = zone.partition(".")
    if base in PERSON_ZONES:
        return Place.PERSON if seat == str(person) else Place.KEPT
    return Place.PUBLIC


def arranged(zone: str, person: int) -> bool:
    """Every face-down card of the person's: between rounds they may swap and order them in secret."""
    return place(zone, person) is Place.PERSON


def name(zone: str, person: int) -> str:
    base, _, seat = zone.partition(".")
    mine = seat == str(person)
    other = f"P{int(seat) + 1}" if seat.isdigit() else ""
    if base in PERSON_ZONES:
        if not mine:
            return f"{other}'s sorted pile"
        return {"set": "your wizards set aside", "deck": "your Deck", "plan": "your Deck",
                "waiting": "your Waiting place"}[base]
    if base == "duel":
        return "the Duel zone, on your side" if mine else f"the Duel zone, on {other}'s side"
    if base == "discard":
        return "your discard pile" if mine else f"{other}'s discard pile"
    return zone


def setup(state: WizardsCupState, person: int) -> list[str]:
    auto = 1 - person
    d = state.data

    def card(c: str) -> str:
        return f"{design_of(c)} {d[c].name}"

    mine, its = state.decks[person][0], state.decks[auto][0]
    first, last = design_of(d.sets[0][0]), design_of(d.sets[0][-1])
    n = len(d.sets[auto])
    return [
        f"Set-up, from the printed files of wizards-cup: the 36 wizards of cards-wizards.pdf ({first} to {last} "
        f"twice: the {SETS[0]} set, then the {SETS[1]} set, told apart by their backs), the 2 player aids of "
        f"cards-aids.pdf and the 3 Victory tokens on the same sheet.",
        f"You are P{person + 1}: take the {SETS[person]} set and a player aid (Element side up). Leave room "
        f"between you and P{auto + 1} for the Duel zone, one card on each side; keep a place beside your Deck for "
        f"your Waiting card and for your discard pile. Put the Victory tokens within reach.",
        f"P{auto + 1}, the automaton, has the {SETS[auto]} set: sort its {n} wizards by id into one face-down "
        f"pile, {first} on top: P{auto + 1}'s sorted pile. The program keeps P{auto + 1}'s selection, Deck order "
        f"and Waiting card; take a card out of the pile only when the program names it, and put cards back in id "
        f"order.",
        f"The random wizards (the program picks them): P{auto + 1} picks your {card(mine)}: take it out of your "
        f"set, face up for now; it is one of your {DECK}. You pick P{auto + 1}'s {card(its)}: it is one of its "
        f"{DECK} and stays in the sorted pile.",
    ]


def secret(state: WizardsCupState, action: Action, person: int) -> str | None:
    """The person's moves made in secret, in words; "" for the next steps of one already said (the program makes
    them without asking: the person does the whole of it on the table at once); None for the others."""
    top = state.stack[-1] if state.stack else None
    k = action.kind
    if k == "select":
        if isinstance(top, Choose) and top.left < DECK - 1:
            return ""
        return (f"look through your set and choose {DECK - 1} more wizards; with the random one they are your "
                f"Deck of {DECK}; put the other {len(state.sets[person]) - DECK + 1} aside, face down")
    if k == "wait":
        return (f"choose your Waiting card (face down on your Waiting place) and put the other {DECK - 1} in the "
                f"order they will duel, face down, the first on top: that is your Deck")
    if k == "out":
        return "swap one wizard of your Deck for one set aside"
    if k in ("next", "in"):
        return ""  # the order after the Waiting card or The Rogues' rearranging; the wizard swapped in
    return None


def question(state: WizardsCupState, person: int) -> str | None:
    """The decisions whose words in solo play name the person's cards (which the program does not know)."""
    top = state.stack[-1] if state.stack else None
    if not isinstance(top, Choose):
        return None
    if top.ask is Ask.SELECT:
        return "Wizard selection: your Deck"
    if top.ask is Ask.WAIT:
        return f"Round {state.round}: the planning"
    if top.ask is Ask.REARRANGE:
        return "The Rogues: you may rearrange your Deck (face down, in secret)"
    return None


POLICY = TablePolicy(place=place, name=name, setup=setup, policy=POLICY_TEXT,
                     arranged=arranged, secret=secret, question=question)
