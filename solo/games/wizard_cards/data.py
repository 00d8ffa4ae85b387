"""Wizard Cards' card data as its engine reads it: each spell card's effect word is its school (``ward``,
``vigor``, ``fortune``, ``wrath``, or ``wild`` for the jokers) and its ``magnitude`` how strong it is."""

from __future__ import annotations

from dataclasses import dataclass

from wizprint.cards.model import Game, effect_words
from wizprint.solo.kernel import Action, RulesData, Termination

SCHOOLS = ("ward", "vigor", "fortune", "wrath")
SUITS = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
WORDS = frozenset({*SCHOOLS, "wild"})  # the effect words, and what the engine does with them: see state.py


class WizardCardsTermination(Termination):
    """How a game of Wizard Cards ends: after the last turn, the smaller damage pile wins; equal piles tie."""

    SMALLER_DAMAGE_PILE = "a player has the smaller damage pile"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class Spell:
    """One card instance: its school (effect word), magnitude, spell name and suit."""

    school: str
    magnitude: int
    name: str
    suit: str
    rank: str


def needs(game: Game, players_min: int, players_max: int) -> list[str]:
    """Each card of the spell deck has one effect word: its school."""
    return [f"card {c.id} has {len(c.effects)} effects; a spell card has one, its school"
            for c in game.cards("spells") if len(c.effects) != 1]


class WizardCardsData(RulesData):
    """The spell deck, compiled from the loaded game."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.spells: dict[str, Spell] = {}
        for card, n in game.iter_copies("spells"):
            (eff,) = card.effects
            iid = card.id if card.copies == 1 else f"{card.id}#{n}"
            name = card.get("spell") or card.name
            self.spells[iid] = Spell(eff.word, int(eff.get("magnitude", 4)), str(name), str(card.get("suit") or ""),
                                     str(card.get("rank") or ""))
        order = ("wild", *SCHOOLS)
        # hands are listed wild cards first, then by school and magnitude
        self.sort_key = {c: (order.index(sp.school) if sp.school in order else 9, sp.magnitude, c)
                         for c, sp in self.spells.items()}
        self.jokers = [c for c, sp in self.spells.items() if sp.school == "wild"]
        # the moves a card in hand offers: play it (a Wild Magic card as each school)
        self.plays: dict[str, tuple[Action, ...]] = {
            c: tuple(Action("play", c, s) for s in SCHOOLS) if sp.school == "wild" else (Action("play", c),)
            for c, sp in self.spells.items()}
        self.records = {r.id: r for r in game.cards("spells")}

    @property
    def instances(self) -> list[str]:
        return list(self.spells)

    def sorted(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=self.sort_key.__getitem__)

    def label(self, card: str) -> str:
        """``QS Fortress of Iron``: the id and the name the printed card shows as its title (the spell's name)."""
        return f"{card} {self.spells[card].name}"

    def text(self, card: str) -> str:
        """``QS Fortress of Iron (Ward 3)``: the label and what the card is (``Wild Magic 4`` for a joker)."""
        sp = self.spells[card]
        what = "Wild Magic 4" if sp.school == "wild" else f"{sp.school.capitalize()} {sp.magnitude}"
        return f"{self.label(card)} ({what})"

    def names(self, cards: list[str]) -> str:
        """``10S Wall of Stone (Ward 2), 2H Haste (Vigor 1) and AD Clairvoyance (Fortune 1)``."""
        texts = [self.text(c) for c in cards]
        return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}" if texts else "none"

    def kind(self, card: str) -> str:
        """What the printed card says it is under its title (``Lesser Ward``, ``Wild Magic``); its title is the
        spell's name (``spells[card].name``)."""
        return self.records[card.split("#")[0]].name

    def printed(self, card: str) -> str:
        """The card's printed rules text (markup)."""
        return self.game.text(self.records[card.split("#")[0]])

    def words(self) -> set[str]:
        return effect_words(e for card in self.game.cards() for e in card.effects)
