"""Wizards & Relics' card data as its engine reads it: each wizard's colour, rarity, base power and ability, each
relic's power and enchantment, each shrine's wizards and effects, compiled once from the loaded game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wizprint.cards.markup import spoken
from wizprint.cards.model import Game, effect_words
from wizprint.solo.kernel import RulesData, Termination

COLOURS = ("red", "blue", "green")
BEATS = {"green": "blue", "blue": "red", "red": "green"}  # the colour each colour has advantage over
RARITIES = ("common", "superb", "glorious")
HAND = 7  # the starting hand, the Replenish target (less the wizards in your Hall) and the hand limit
DECKS = 4  # the set-up deals four 30-card decks
PER_DECK = {"common": 6, "superb": 6, "glorious": 3}  # wizards (and as many relics) of each rarity in a deck
HALL_TO_WIN = {2: 5, 3: 4, 4: 3}  # wizards in your Hall of Immortality that win, by the number of players


class WizardsAndRelicsTermination(Termination):
    """How a game of Wizards & Relics ends: a player's Hall of Immortality holds the wizards that win (the number:
    the wizards in it)."""

    HALL_FILLED = "a player has {} wizards in the Hall of Immortality"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a card: its word and parameters (nested effects for on_discard, on_win, on_lose)."""

    word: str
    params: Mapping[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    @property
    def then(self) -> tuple[Effect, ...]:
        return tuple(self.params.get("then", ()))


@dataclass(frozen=True, slots=True)
class Card:
    """A wizard, relic or shrine as the engine reads it."""

    id: str
    kind: str  # wizard, relic, shrine
    name: str
    colour: str = ""  # wizards
    rarity: str = ""  # wizards and relics
    power: int = 0
    subtype: str = ""
    affects: str = ""  # shrines
    effects: tuple[Effect, ...] = ()

    @property
    def enlightened(self) -> bool:
        """An Enlightened wizard or an Enchanted relic: it has effects."""
        return bool(self.effects)

    def has(self, word: str) -> Effect | None:
        for e in self.effects:
            if e.word == word:
                return e
        return None


def _effects(effs: Any) -> tuple[Effect, ...]:
    out = []
    for e in effs:
        params = {k: (_effects(v) if k == "then" else v) for k, v in e.params.items()}
        out.append(Effect(e.word, params))
    return tuple(out)


def needs(game: Game, players_min: int, players_max: int) -> list[str]:
    """The set-up deals the wizards into four decks, as evenly as it can: each deck must hold the wizards that win
    (5 in a Hall with 2 players), or a game could never end."""
    n = sum(1 for r in game.cards() if r.type == "wizard")
    need = DECKS * HALL_TO_WIN.get(players_min, max(HALL_TO_WIN.values()))
    return [] if n >= need else [
        f"{n} wizard{'s' if n != 1 else ''}: the set-up deals them into {DECKS} decks, and with "
        f"{players_min} players each deck needs the {need // DECKS} wizards a Hall of Immortality wins with "
        f"(at least {need} wizards)"]


class WizardsAndRelicsData(RulesData):
    """The wizards, relics and shrines, compiled from the loaded game."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.cards: dict[str, Card] = {}
        self.records = {r.id: r for r in game.cards()}
        for r in game.cards():
            if r.type not in ("wizard", "relic", "shrine"):
                continue
            f = r.fields
            self.cards[r.id] = Card(r.id, r.type, r.name, str(f.get("colour", "")), str(f.get("rarity", "")),
                                    int(f.get("power", 0)), str(f.get("subtype", "")), str(f.get("affects", "")),
                                    _effects(r.effects))
        self.wizards = sorted(c for c, x in self.cards.items() if x.kind == "wizard")
        self.relics = sorted(c for c, x in self.cards.items() if x.kind == "relic")
        self.shrines = sorted(c for c, x in self.cards.items() if x.kind == "shrine")
        self.by_name = {x.name.lower(): c for c, x in self.cards.items()}
        self._spoken: dict[str, str] = {}  # each card's text in words, made once (``spoken``)
        # the cards of each kind and rarity, sorted: the piles every game's deal shuffles (``phases.deal``)
        self.piles: dict[tuple[str, str], tuple[str, ...]] = {
            (kind, rarity): tuple(c for c in ids if self.cards[c].rarity == rarity)
            for kind, ids in (("wizard", self.wizards), ("relic", self.relics)) for rarity in RARITIES}

    @property
    def instances(self) -> list[str]:
        return list(self.cards)

    def __getitem__(self, card: str) -> Card:
        return self.cards[card]

    def is_wizard(self, card: str) -> bool:
        return self.cards[card].kind == "wizard"

    def is_relic(self, card: str) -> bool:
        return self.cards[card].kind == "relic"

    def kind_line(self, card: str) -> str:
        """``red Pyromancer, Devoted 4, Superb``, ``Enchanted relic, power 2, Common``, ``Shrine: red wizards``."""
        c = self.cards[card]
        if c.kind == "wizard":
            kind = "Enlightened" if c.effects else "Devoted"
            return f"{c.colour} {c.subtype}, {kind}, power {c.power}, {c.rarity.capitalize()}"
        if c.kind == "relic":
            return f"{'Enchanted' if c.effects else 'Basic'} relic, power {c.power}, {c.rarity.capitalize()}"
        return f"shrine: {AFFECTS[c.affects]}"

    def facts(self, card: str) -> str:
        """What a player weighs a card by, in a few words: ``red wizard, power 3, Superb`` (``, Devoted`` for a wizard
        without an ability), ``relic, power 2, Common``, ``shrine for red wizards``."""
        c = self.cards[card]
        if c.kind == "wizard":
            return f"{c.colour} wizard, power {c.power}, {c.rarity.capitalize()}" + ("" if c.effects else ", Devoted")
        if c.kind == "relic":
            return f"relic, power {c.power}, {c.rarity.capitalize()}"
        return f"shrine for {AFFECTS[c.affects]}"

    def spoken(self, card: str) -> str:
        """The card's printed rules text in words on one line, whole (empty for a Devoted wizard or a Basic relic)."""
        got = self._spoken.get(card)
        if got is None:
            got = self._spoken[card] = spoken(self.printed(card)) if self.cards[card].effects else ""
        return got

    def label(self, card: str) -> str:
        """``W03 Cinder Adept``."""
        return f"{card} {self.cards[card].name}"

    def printed(self, card: str) -> str:
        """The card's printed rules text (markup; empty for a Devoted wizard or a Basic relic)."""
        return self.game.text(self.records[card])

    def words(self) -> set[str]:
        return effect_words(e for card in self.game.cards() for e in card.effects)


AFFECTS = {"red": "red wizards", "blue": "blue wizards", "green": "green wizards", "devoted": "Devoted wizards",
           "enlightened": "Enlightened wizards", "common": "Common wizards", "superb": "Superb wizards",
           "glorious": "Glorious wizards", "low": "wizards of base power 3 or less",
           "high": "wizards of base power 5 or more", "every": "every wizard"}


def affected(shrine: Card, wizard: Card) -> bool:
    """Whether a shrine affects a wizard."""
    a = shrine.affects
    if a in COLOURS:
        return wizard.colour == a
    if a == "devoted":
        return not wizard.effects
    if a == "enlightened":
        return bool(wizard.effects)
    if a in RARITIES:
        return wizard.rarity == a
    if a == "low":
        return wizard.power <= 3
    if a == "high":
        return wizard.power >= 5
    return a == "every"
