"""Wizards Cup's wizards as the engine reads them (``../shared/rules/wizards-cup.txt``): two identical sets of 18
designs (``C01#1`` is the Black set's copy, ``C01#2`` the White set's), each with its Value, Element, the type of
its Magic power, its effects and its Weakness."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wizprint.cards.model import Game, effect_words
from wizprint.solo.kernel import RulesData, Termination, design_of

SETS = ("Black", "White")  # seat 0 plays the Black set (copy 1), seat 1 the White set (copy 2)
DECK = 6  # the cards of a player's Deck
TO_WIN = 2  # Victory tokens to win the Cup


class WizardsCupTermination(Termination):
    """How a game of Wizards Cup ends: a player takes the Victory tokens that win (the number: the tokens), or both
    do in the same round, and the lower Deck Value wins, or equal Deck Values (the number: that value) share the
    Cup."""

    TOKENS = "a player wins the Wizards Cup with {} Victory tokens"
    BOTH_LOWER_DECK = "Both players reach {} Victory tokens"
    BOTH_SHARE = "Both players reach {} Victory tokens with Decks worth {}"

# an Element loses to these (the Element compatibility diagram); void has no weakness
LOSES_TO: dict[str, frozenset[str]] = {
    "fire": frozenset({"water"}), "water": frozenset({"nature"}), "nature": frozenset({"fire"}),
    "shadow": frozenset({"light"}), "light": frozenset({"water", "fire", "nature"}), "void": frozenset(),
}
ELEMENTS = tuple(LOSES_TO)
POWER_TYPES = ("immediate", "dormant", "permanent")
# the power types each effect word may appear under
WORD_TYPES: dict[str, tuple[str, ...]] = {
    "discard_waiting": ("immediate",), "swap_waiting": ("immediate",), "both_lose": ("immediate",),
    "rearrange": ("immediate",), "sink": ("immediate",), "boost": ("dormant", "permanent"),
    "weaken": ("permanent",), "guard": ("dormant",), "lower_wins": ("permanent",), "wins_ties": ("permanent",),
    "no_dormant": ("permanent",), "on_win_discard": ("permanent",), "no_element": ("permanent",),
}


@dataclass(frozen=True, slots=True)
class Effect:
    word: str
    params: Mapping[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True, slots=True)
class Wizard:
    id: str  # the design
    name: str
    element: str
    value: int
    power: str  # immediate, dormant, permanent or none
    weakness: str  # a wizard's name or "None"
    effects: tuple[Effect, ...] = ()

    def has(self, word: str) -> Effect | None:
        for e in self.effects:
            if e.word == word:
                return e
        return None


def element_loses(a: str, b: str) -> bool:
    """Whether Element ``a`` loses to Element ``b``."""
    return b in LOSES_TO.get(a, frozenset())


def needs(game: Game, players_min: int, players_max: int) -> list[str]:
    """A set holds every wizard design, and a player's Deck is six of them."""
    n = sum(1 for r in game.cards() if r.type == "wizard")
    return [] if n >= DECK else [f"only {n} wizard design{'s' if n != 1 else ''}, and a player's Deck holds {DECK} "
                                 "of their set"]


class WizardsCupData(RulesData):
    """The two sets of wizards, compiled from the loaded game."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.designs: dict[str, Wizard] = {}
        self.records = {r.id: r for r in game.cards()}
        for r in game.cards():
            if r.type != "wizard":
                continue
            f = r.fields
            self.designs[r.id] = Wizard(r.id, r.name, str(f.get("element", "void")), int(f.get("value", 0)),
                                        str(f.get("power", "none")), str(f.get("weakness", "None")),
                                        tuple(Effect(e.word, dict(e.params)) for e in r.effects))
        order = sorted(self.designs)
        self.sets: list[list[str]] = [[f"{d}#{k + 1}" for d in order] for k in range(len(SETS))]
        self.cards: dict[str, Wizard] = {c: self.designs[design_of(c)] for st in self.sets for c in st}
        self.by_name = {w.name.lower(): d for d, w in self.designs.items()}

    @property
    def instances(self) -> list[str]:
        return list(self.cards)

    def __getitem__(self, card: str) -> Wizard:
        return self.cards[card]

    def owner(self, card: str) -> int:
        """The seat whose set the card belongs to."""
        return int(card[card.index("#") + 1:]) - 1

    def label(self, card: str) -> str:
        """``The Alchemist (water 4)``."""
        w = self.cards[card]
        return f"{w.name} ({w.element} {w.value})"

    def kind_line(self, card: str) -> str:
        w = self.cards[card]
        power = f"{w.power.capitalize()} power" if w.power != "none" else "no Magic power"
        weak = f"Weakness: {w.weakness}" if w.weakness != "None" else "no Weakness"
        return f"{w.element.capitalize()}, Value {w.value}, {power}, {weak}"

    def printed(self, card: str) -> str:
        """The card's Magic power as printed (markup; empty without one)."""
        return self.game.text(self.records[design_of(card)])

    def words(self) -> set[str]:
        return effect_words(e for card in self.game.cards() for e in card.effects)


__all__ = [
    "DECK",
    "ELEMENTS",
    "LOSES_TO",
    "POWER_TYPES",
    "SETS",
    "TO_WIN",
    "WORD_TYPES",
    "Wizard",
    "WizardsCupData",
    "element_loses",
]
