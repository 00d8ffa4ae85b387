"""The kinds of pending work in Wizards & Relics, innermost last on the state's ``stack``. Each is a declared class
(cloned and saved by the kernel) with an enum for its steps; its code is registered by type in :data:`~.state.RULES`
(``phases.py`` runs the set-up, the round and the reveal; ``effects.py`` runs effects and the choices they ask).

- :class:`Setup`: the players choose their decks, draw 7 and take the one-time partial mulligan.
- :class:`Round`: phases 1-5 of a round: shrine, play (secret, repeated for each tie battle), reveal, victory,
  spoils.
- :class:`Reveal`: phase 3 of one wizard battle: wizards, relics with their enchantments, advantage, shrine
  abilities, wizard abilities.
- :class:`Enter`: an extra wizard enters play after the reveal (the rulebook's Jeff the Mage): advantage is checked
  again, then the shrine, then its ability.
- :class:`Triggers`: one player's triggers that fire together (the discard triggers of one discard, the win or loss
  triggers of the round), resolved one at a time in the order the player chooses when it can matter.
- :class:`Effects`: a card's effects resolving one after the other (an enchantment, an ability, a shrine for one
  wizard, a discard trigger, a win or loss trigger).
- :class:`Choose`: a player decides inside an effect or a phase (what to take, discard, ignore, summon...).
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import ClassVar

from wizprint.solo.kernel import Pending, declare


class SetupStep(enum.IntEnum):
    DECKS = 0  # each player chooses one of the four decks, from the Master Wizard clockwise
    MULLIGAN = 1  # each player sets aside any cards and draws back up to 7, once
    DONE = 2


class RoundStep(enum.IntEnum):
    SHRINE = 0  # phase 1: the top shrine is revealed
    PLAY = 1  # phase 2: the players in the battle each play a wizard and a relic face down
    REVEAL = 2  # phase 3 (the Reveal item runs it)
    COMPARE = 3  # the totals: a winner, or a tie battle (back to PLAY)
    VICTORY = 4  # phase 4: the winning wizard to the Hall of Immortality
    HAND_CHECK = 5  # phase 5: everyone above 7 cards discards down to 7
    SPOILS = 6  # the winner draws 1 or takes a loser's relic
    WIN_TRIGGERS = 7
    LOSERS = 8  # each loser draws 2, then their loss triggers
    CLEAR = 9  # the losers' cards to their discard piles
    END = 10


class RevealStep(enum.IntEnum):
    WIZARDS = 0
    RELICS = 1  # from the Master Wizard clockwise; a player with several relics orders them
    ADVANTAGE = 2
    SHRINE = 3
    ABILITIES = 4
    DONE = 5


class EnterStep(enum.IntEnum):
    ADVANTAGE = 0
    SHRINE = 1
    ABILITY = 2
    DONE = 3


class Source(enum.StrEnum):
    """Which effects of a card resolve: its own (an enchantment, an ability, a shrine), or a trigger's."""

    CARD = "card"
    ON_DISCARD = "on_discard"
    ON_WIN = "on_win"
    ON_LOSE = "on_lose"


class Ask(enum.StrEnum):
    """What a :class:`Choose` asks."""

    DECK = "deck"  # set-up: which deck
    MULLIGAN = "mulligan"  # set-up: the cards to set aside
    ORDER = "order"  # which of your relics resolves next
    TRIGGER = "trigger"  # which of your triggers that fired together resolves next
    TAKE = "take"  # a card from your discard pile into your hand
    PUT = "put"  # a card from your discard pile on top of your deck
    DISCARD_FOR = "discard_for"  # discard cards for power
    RIVAL_DISCARD = "rival_discard"  # a rival's effect: discard cards of your choice
    IGNORE = "ignore"  # a rival relic to ignore
    SILENCE = "silence"  # a rival wizard whose ability does not resolve
    EXTRA_RELIC = "extra_relic"  # another relic from hand
    SUMMON = "summon"  # a wizard to put into play
    HAND_CHECK = "hand_check"  # spoils: discard down to 7
    SPOILS = "spoils"  # the winner: draw 1 or take a loser's relic
    SHOW = "show"  # on a real table, the table's player reveals the cards of a kind from hand, one at a time


@declare
class WizardsAndRelicsPending(Pending):
    """Base of the pending kinds: ``seat`` is the player it is about (who decides, for a choice)."""

    seat: int = 0


@declare
class Setup(WizardsAndRelicsPending):
    kind: ClassVar[str] = "setup"
    step: SetupStep = SetupStep.DECKS
    index: int = 0  # the position in clockwise order from the Master Wizard of the seat to act


@declare
class Round(WizardsAndRelicsPending):
    kind: ClassVar[str] = "round"
    step: RoundStep = RoundStep.SHRINE
    index: int = 0  # within a step: the position in order of the seat to act next
    winner: int = -1
    eek: list[int] = field(default_factory=list)  # seats that discarded their hand this battle (no wizard/relic)
    triggered: list[str] = field(default_factory=list)  # cards whose win or loss trigger is to resolve


@declare
class Reveal(WizardsAndRelicsPending):
    kind: ClassVar[str] = "reveal"
    step: RevealStep = RevealStep.WIZARDS
    index: int = 0  # the position in ``fighters`` of the seat whose relics, shrine or wizard resolve next
    todo: list[str] = field(default_factory=list)  # that seat's relics still to resolve


@declare
class Enter(WizardsAndRelicsPending):
    kind: ClassVar[str] = "enter"
    wizard: str = ""
    step: EnterStep = EnterStep.ADVANTAGE


@declare
class Triggers(WizardsAndRelicsPending):
    kind: ClassVar[str] = "triggers"
    source: Source = Source.ON_DISCARD  # which trigger of each card fires
    cards: list[str] = field(default_factory=list)  # the cards whose trigger is still to resolve, in the usual order


@declare
class Effects(WizardsAndRelicsPending):
    kind: ClassVar[str] = "effects"
    card: str = ""  # the card whose effects resolve
    subject: str = ""  # "your wizard": the wizard the effects are about (for a shrine, the affected wizard)
    source: Source = Source.CARD
    index: int = 0  # the next effect to resolve


@declare
class Choose(WizardsAndRelicsPending):
    kind: ClassVar[str] = "choose"
    ask: Ask = Ask.TAKE
    card: str = ""  # the card whose effect asks (empty in a phase's own choice)
    what: str = ""  # a filter: wizard, relic, card, devoted, red...; summon: also where from ("hand:devoted");
    # trigger: which trigger fired (on_discard, on_win, on_lose)
    left: int = 1  # how many more times it may (or must) be chosen
    n: int = 0  # discard_for: power for each card
    done: int = 0  # how many have been chosen
    picked: list[str] = field(default_factory=list)  # mulligan: the cards set aside so far; show: shown so far
    subject: str = ""


KINDS: tuple[type[WizardsAndRelicsPending], ...] = (Setup, Round, Reveal, Enter, Triggers, Effects, Choose)
