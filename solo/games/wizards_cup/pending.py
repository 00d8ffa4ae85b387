"""The kinds of pending work in Wizards Cup, innermost last on the state's ``stack``; their code is registered by
type in :data:`~.state.RULES` (``phases.py``).

- :class:`Setup`: the wizard selection: each player's random card, then each player's five secret picks.
- :class:`Round`: one round: the planning, the duels one after the other, the end of the round, the swap.
- :class:`Choose`: a player decides (a pick, the Waiting card, the order, The Rogues' rearranging, the swap).
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import ClassVar

from wizprint.solo.kernel import Pending, declare


class SetupStep(enum.IntEnum):
    RANDOM = 0  # the opponent picks one card at random from each player's shuffled set
    SELECT = 1  # each player picks 5 more, secretly
    DONE = 2


class RoundStep(enum.IntEnum):
    PLAN = 0  # each player chooses the Waiting card and the order of the other 5, secretly
    DRAW = 1  # each player without a wizard in the Duel zone places the top card of their Deck there
    POWERS = 2  # the wizards just placed come into play (the lower printed Value first): Immediate powers act
    RESOLVE = 3  # A Magic power (and Weakness), B Element, C Value; then the end of the duel
    END = 4  # the round is over: Victory tokens, the end of the game or the cards back to the Deck
    SWAP = 5  # each player may swap one card of their Deck with one of the 12 set aside
    DONE = 6


class Ask(enum.StrEnum):
    """What a :class:`Choose` asks."""

    SELECT = "select"  # one more card for your Deck from your set
    WAIT = "wait"  # the Waiting card
    ORDER = "order"  # the next card of your Deck, from the top
    REARRANGE = "rearrange"  # The Rogues: rearrange your Deck or keep it
    SWAP_OUT = "swap_out"  # between rounds: a card of your Deck to swap, or keep it
    SWAP_IN = "swap_in"  # the card from your set that takes its place


@declare
class WizardsCupPending(Pending):
    """Base of the pending kinds: ``seat`` is the player it is about (who decides, for a choice)."""

    seat: int = 0


@declare
class Setup(WizardsCupPending):
    kind: ClassVar[str] = "setup"
    step: SetupStep = SetupStep.RANDOM
    index: int = 0  # the seat to act next within the step


@declare
class Round(WizardsCupPending):
    kind: ClassVar[str] = "round"
    step: RoundStep = RoundStep.PLAN
    index: int = 0  # the seat to act next within PLAN and SWAP
    queue: list[str] = field(default_factory=list)  # wizards just placed still to come into play, in order
    winners: list[int] = field(default_factory=list)  # the round's winners once it is over


@declare
class Choose(WizardsCupPending):
    kind: ClassVar[str] = "choose"
    ask: Ask = Ask.SELECT
    left: int = 1  # how many more cards to choose (SELECT, ORDER)
    card: str = ""  # SWAP_IN: the card being swapped out


KINDS: tuple[type[WizardsCupPending], ...] = (Setup, Round, Choose)
