"""Covenant of Wizards' card data as its engine reads it, compiled from the loaded game folder.

Every behaviour comes from a card's ``effects`` words (``cards/covenant/vocabulary.toml``) and its ``vp`` and
``ability`` fields; nothing tests a card's name or id. Each word has one compiling handler in :data:`TRAITS`,
which says what the word makes of the card (:class:`Info`); the words that happen when a card resolves are carried
out by their handler in ``effects.py`` (:data:`~.effects.EFFECTS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from wizprint.cards.model import Effect, Game, Record, effect_words
from wizprint.errors import EngineError
from wizprint.solo.kernel import Action, Declared, RulesData, Termination, Words, one_per_design, value

ABILITIES = ("conjuror", "adventurer", "dueler", "scry", "nature", "stealth", "maker")
ACTION_ABILITIES = ("conjuror", "maker", "stealth", "scry")
# a wizard action's die: the least roll that works, and what it does then
NEEDS = {"conjuror": (4, "4 or more draws a card"), "maker": (6, "a 6 finds an Item in the deck"),
         "stealth": (6, "a 6 takes an Item from a rival")}
HAND = 7
HAND_LIMIT = 8
WIN_VP = 25
ROUND_LIMIT = 200  # project ruling: a game still running after this many rounds ends on points
ABILITY_SETS = 50_000  # wizards' ability sets kept with the data (cleared when full)

# the words a card resolves when it is played (ACTIVE) or answers a window (RESPONSE)
ACTIVE_WORDS = frozenset({"draw", "search", "skip_turn", "destroy", "steal", "slay", "look_hand", "look_deck",
                          "reanimate", "vortex"})
RESPONSE_WORDS = frozenset({"negate", "reroll", "prevent_slay", "roll_bonus", "danger"})
RESOLVED_WORDS = ACTIVE_WORDS | RESPONSE_WORDS
TARGETED = frozenset({"steal", "destroy", "slay", "look_hand", "reanimate", "skip_turn"})


class CovenantTermination(Termination):
    """How a game of Covenant ends: a player reaches the VP goal (the number: their VP), or the round limit (a
    project ruling) ends it on points."""

    VP_GOAL = "a player reaches {} VP"
    TURN_LIMIT = "turn limit"


@value
class CardEffect(Declared):
    """One effect a card resolves: its word, what it acts on (a card type, or a roll kind) and its number."""

    word: str = ""
    what: str = ""
    n: int = 0


@dataclass(frozen=True, slots=True)
class Info:
    """What the engine needs of one card instance, compiled from its record."""

    instance: str
    design: str
    name: str
    type: str
    vp: int
    abilities: tuple[str, ...]  # innate (wizards)
    grants: tuple[str, ...]  # an item gives its wizard these
    grant_one: tuple[str, ...]  # a resource gives one wizard these for a turn
    duel_bonus: int
    quest_bonus: int
    quest_bonus_on: tuple[tuple[str, int], ...]
    quest_level: int
    attach: bool
    guard: bool
    extra_research: str
    on_enter: tuple[CardEffect, ...]
    on_complete: tuple[CardEffect, ...]
    resolve: tuple[CardEffect, ...]  # what happens when the card is cast / played and resolves
    negate: frozenset[str]
    reroll: bool
    prevent_slay: bool
    roll_bonus: int
    roll_kind: str
    danger: int
    duel: bool
    castable: bool  # a spell or event that is played on its own in the Event phase (it has an active word)
    active: CardEffect | None = None  # the first of ``resolve`` with an active word (``first_active``)

    @property
    def first_active(self) -> CardEffect:
        """The effect that names what the card is cast for (its target)."""
        if self.active is not None:
            return self.active
        return next(e for e in self.resolve if e.word in ACTIVE_WORDS)  # none: raises, as it always did


@dataclass
class Traits:
    """What a card's words say of it, gathered while it is compiled (then frozen into :class:`Info`)."""

    card_id: str
    abilities: list[str] = field(default_factory=list)
    grants: list[str] = field(default_factory=list)
    grant_one: list[str] = field(default_factory=list)
    duel_bonus: int = 0
    quest_bonus: int = 0
    quest_bonus_on: list[tuple[str, int]] = field(default_factory=list)
    quest_level: int = 0
    attach: bool = False
    guard: bool = False
    extra_research: str = ""
    on_enter: tuple[CardEffect, ...] = ()
    on_complete: tuple[CardEffect, ...] = ()
    resolve: list[CardEffect] = field(default_factory=list)
    negate: set[str] = field(default_factory=set)
    reroll: bool = False
    prevent_slay: bool = False
    roll_bonus: int = 0
    roll_kind: str = ""
    danger: int = 0
    duel: bool = False


Trait = Callable[[Traits, Effect], None]
TRAITS: Words[Trait] = Words("covenant")  # one handler per effect word: what the word makes of a card


@TRAITS("ability")
def _ability(t: Traits, e: Effect) -> None:
    if e["ability"] not in t.abilities:
        t.abilities.append(str(e["ability"]))


@TRAITS("grant")
def _grant(t: Traits, e: Effect) -> None:
    t.grants.append(str(e["ability"]))


@TRAITS("grant_one")
def _grant_one(t: Traits, e: Effect) -> None:
    t.grant_one.append(str(e["ability"]))


@TRAITS("duel_bonus")
def _duel_bonus(t: Traits, e: Effect) -> None:
    t.duel_bonus += int(e["n"])


@TRAITS("quest_bonus")
def _quest_bonus(t: Traits, e: Effect) -> None:
    t.quest_bonus += int(e["n"])


@TRAITS("quest_bonus_on")
def _quest_bonus_on(t: Traits, e: Effect) -> None:
    t.quest_bonus_on.append((str(e["quest"]), int(e["n"])))


@TRAITS("quest_level")
def _quest_level(t: Traits, e: Effect) -> None:
    t.quest_level += int(e["n"])


@TRAITS("attach")
def _attach(t: Traits, e: Effect) -> None:
    t.attach = True


@TRAITS("guard")
def _guard(t: Traits, e: Effect) -> None:
    t.guard = True


@TRAITS("extra_research")
def _extra_research(t: Traits, e: Effect) -> None:
    t.extra_research = str(e["unless"])


@TRAITS("on_enter")
def _on_enter(t: Traits, e: Effect) -> None:
    t.on_enter = _compile_effects(t.card_id, e["then"])


@TRAITS("on_complete")
def _on_complete(t: Traits, e: Effect) -> None:
    t.on_complete = _compile_effects(t.card_id, e["then"])


@TRAITS("duel")
def _duel(t: Traits, e: Effect) -> None:
    t.duel = True


@TRAITS("negate")
def _negate(t: Traits, e: Effect) -> None:
    t.negate.update(str(x) for x in e["what"])
    t.resolve.append(CardEffect("negate", "", 0))


@TRAITS("reroll")
def _reroll(t: Traits, e: Effect) -> None:
    t.reroll = True
    t.resolve.append(CardEffect("reroll", "", 0))


@TRAITS("prevent_slay")
def _prevent_slay(t: Traits, e: Effect) -> None:
    t.prevent_slay = True
    t.resolve.append(CardEffect("prevent_slay", "", 0))


@TRAITS("roll_bonus")
def _roll_bonus(t: Traits, e: Effect) -> None:
    t.roll_bonus = int(e["n"])
    t.roll_kind = str(e["roll"])
    t.resolve.append(CardEffect("roll_bonus", t.roll_kind, t.roll_bonus))


@TRAITS("danger")
def _danger(t: Traits, e: Effect) -> None:
    t.danger = int(e["n"])
    t.resolve.append(CardEffect("danger", "", t.danger))


@TRAITS(*sorted(ACTIVE_WORDS))
def _active(t: Traits, e: Effect) -> None:
    t.resolve.append(_effect_of(e))


def _effect_of(e: Effect) -> CardEffect:
    return CardEffect(e.word, str(e.get("what", "")), int(e.get("n", 0)))


def _compile_effects(card_id: str, effects: Iterable[Any]) -> tuple[CardEffect, ...]:
    out: list[CardEffect] = []
    for e in effects:
        if e.word not in ACTIVE_WORDS:
            raise EngineError(f"{card_id}: the engine cannot resolve {e.word!r} inside on_enter/on_complete")
        out.append(_effect_of(e))
    return tuple(out)


def compile_card(instance: str, card: Record) -> Info:
    """One database record as the engine sees it; an effect word the engine does not handle is an error."""
    t = Traits(card.id)
    if card.get("ability"):
        t.abilities.append(str(card.get("ability")))
    for e in card.effects:
        handler = TRAITS.handlers.get(e.word)
        if handler is None:
            raise EngineError(f"{card.id}: the Covenant engine does not handle the effect word {e.word!r}")
        handler(t, e)
    return Info(instance, card.id, card.name, str(card.type), int(card.get("vp") or 0), tuple(t.abilities),
                tuple(t.grants), tuple(t.grant_one), t.duel_bonus, t.quest_bonus, tuple(t.quest_bonus_on),
                t.quest_level, t.attach, t.guard, t.extra_research, t.on_enter, t.on_complete, tuple(t.resolve),
                frozenset(t.negate), t.reroll, t.prevent_slay, t.roll_bonus, t.roll_kind, t.danger, t.duel,
                any(e.word in ACTIVE_WORDS for e in t.resolve),
                next((e for e in t.resolve if e.word in ACTIVE_WORDS), None))


class CovenantData(RulesData):
    """The shared deck, compiled from the loaded game: every card instance (``D01#3`` for copies) and its
    :class:`Info`; also the automaton's cache of quest odds (they depend on this data)."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.cards: dict[str, Info] = {}
        for card, n in game.iter_copies():
            iid = card.id if card.copies == 1 else f"{card.id}#{n}"
            self.cards[iid] = compile_card(iid, card)
        self.quest_odds: dict[tuple[object, ...], tuple[float, float]] = {}
        # a wizard's abilities by (wizard, what is attached to it, what was granted it this turn)
        self.abilities: dict[tuple[str, tuple[str, ...], tuple[str, ...]], frozenset[str]] = {}
        self.records = {r.id: r for r in game.cards()}  # by design id: the printed cards (their rules text)
        self.labels = {c: f"{c} {info.name}" for c, info in self.cards.items()}  # ``W10 Mentalist``, for the log
        self.every_design = one_per_design(self.cards)  # a hand that holds every card (``idle_whatever_the_hand``)
        # printed texts in words, by design ("ability NAME": an ability's) (``texts.printed``, ``ability_text``)
        self.texts: dict[str, str] = {}
        # what each card offers in the Event phase, worked out once: (move kind, needs a wizard in play, the
        # targeted word or "", needs a deck, the move itself when it has no target); castable cards only
        self.event_moves: dict[str, tuple[str, bool, str, bool, Action]] = {}
        for iid, info in self.cards.items():
            if info.castable:
                eff = info.first_active
                kind = "cast" if info.type == "spell" else "play"
                self.event_moves[iid] = (kind, info.type == "spell", eff.word if eff.word in TARGETED else "",
                                         eff.word == "look_deck", Action(kind, iid))
        # the moves that name one card and nothing else, made once: discard, summon and quest by card
        self.card_moves: dict[str, dict[str, Action]] = {
            kind: {iid: Action(kind, iid) for iid in self.cards} for kind in ("discard", "summon", "quest")}
        # the wizard actions a set of abilities gives, in ACTION_ABILITIES order (by the set)
        self.action_abilities: dict[frozenset[str], tuple[str, ...]] = {}

    @property
    def instances(self) -> list[str]:
        return list(self.cards)

    def words(self) -> set[str]:
        """Every effect word the card database uses (nested ones too)."""
        out: set[str] = set()
        for card in self.game.cards():
            out |= effect_words(card.effects)
        return out

    def label(self, card: str) -> str:
        """``W10 Mentalist``."""
        return self.labels[card]
