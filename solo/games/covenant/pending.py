"""The kinds of pending work in Covenant of Wizards: what is being resolved, innermost last, on the state's
``stack``. Each is a declared class (cloned and saved by the kernel) with an enum for its step where it has steps;
its code is registered by type in :data:`~.state.RULES` (``windows.py``, ``duel.py``, ``quest.py``).

- :class:`Negation`: a spell, event, wizard action or duel card was played; the players are asked in turn whether
  they negate it (Dispell, Alter Reality).
- :class:`Roll`: dice were rolled for a duel, a quest or an action; each player is asked whether they reroll
  (Probability Shift), the roller last.
- :class:`Play`: a card played from hand: its negation window, then its effects.
- :class:`Effects`: a card's effects resolving one after the other (when played, on entering play, on completing).
- :class:`Slaying`: a wizard or follower would be slain; its controller may save it (Healing).
- :class:`Theft`: a card is being stolen: its controller may discard a guard for an item; the thief places it.
- :class:`BonusWindow`: the duellists (or the quester) may add bonus spells to their totals.
- :class:`TrapsWindow`: a rival went on a quest; the others may play Tricks & Traps.
- :class:`WizardAction`: a wizard's action (conjuror, maker, stealth, scry).
- :class:`Duel`: a Wizards Duel, from the challenge to the slaying.
- :class:`Quest`: an adventure: the participants join, then two rounds of Danger against the Quest Level.
- :class:`Choice`: the player who resolves an effect chooses its target (or the card a search takes).
- :class:`Lookup`: on a real table (``solo table``), a search by a seat the program plays: the person looks through
  the deck and lays out the cards the searcher may take.
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import ClassVar, Literal

from wizprint.errors import EngineBug
from wizprint.solo.kernel import Pending, declare

from .data import CardEffect


class RollFor(enum.StrEnum):
    """Which number of the pending work below a roll gives."""

    ACTION = "action"  # a wizard action's d6
    CHALLENGER = "challenger"  # the challenger's 3d6 duel roll
    DEFENDER = "defender"  # the defender's 3d6 duel roll
    DANGER = "danger"  # a quest round's 3d6 Danger
    LEVEL = "level"  # a quest round's 2d6 Quest Level


class PlayStep(enum.IntEnum):
    NEGATION = 0  # open the negation window
    RESOLVE = 1  # negated: discard it; else resolve its effects
    DONE = 2  # to the discard pile


class EffectSource(enum.StrEnum):
    RESOLVE = "resolve"  # cast or played
    ON_ENTER = "on_enter"  # put into play
    ON_COMPLETE = "on_complete"  # a quest completed


class SlayStep(enum.IntEnum):
    ASK = 0  # the controller may save it
    DECIDED = 1


class TheftStep(enum.IntEnum):
    GUARD = 0  # the owner may discard a guard instead of the item
    TAKE = 1
    PLACE = 2  # the thief chooses the wizard the card joins


class ActionStep(enum.IntEnum):
    NEGATION = 0
    RESOLVE = 1  # negated, scry, or roll for it
    RESULT = 2  # the roll is made


class DuelStep(enum.IntEnum):
    NEGATION = 0
    CHALLENGED = 1  # the duel stands: the defender answers (or has one wizard)
    ANSWER = 2  # the defender chooses its wizard
    CHALLENGER_ROLL = 3
    DEFENDER_ROLL = 4
    BONUS = 5
    COMPARE = 6
    DONE = 7


class QuestStep(enum.IntEnum):
    JOIN = 0  # the quester chooses the participants
    SET_OUT = 1  # the Tricks & Traps window
    ROUND = 2  # a round begins: the Danger roll
    LEVEL_ROLL = 3
    BONUS = 4
    COMPARE = 5
    LOSSES = 6  # round one: the quester chooses who is slain
    AFTER_LOSSES = 7
    COMPLETE = 9
    FAIL = 10
    DONE = 11


@declare
class CovenantPending(Pending):
    """Base of the pending kinds: ``who`` is the seat to decide while it waits."""

    who: int = -1

    def take_roll(self, slot: RollFor, total: int) -> None:
        """A roll made for this work gives its total."""
        raise EngineBug(f"covenant: a roll for {slot} was made for pending {self.label!r}")


@declare
class Negatable(CovenantPending):
    """Work that a negation window is opened for (its result lands in ``negated``)."""

    negated: bool = False


@declare
class Window(CovenantPending):
    """A response window: the seats of ``order`` are asked in turn from ``index``; ``answered`` is the card the
    last of them answered with (the window moves on to the next seat once that card is done)."""

    order: tuple[int, ...] = ()
    index: int = 0
    answered: str = ""


@declare
class Negation(Window):
    kind: ClassVar[str] = "negation"
    what: str = ""  # spell, event, action or duel
    source: str = ""  # the card played (the wizard, for an action)
    owner: int = 0
    negated: bool = False


@declare
class Roll(Window):
    kind: ClassVar[str] = "roll"
    seat: int = 0
    dice: int = 1
    slot: RollFor = RollFor.ACTION
    label: str = ""
    done: bool = False  # rerolled: the new roll stands
    total: int = 0


@declare
class Play(Negatable):
    kind: ClassVar[str] = "play"
    seat: int = 0
    card: str = ""
    what: str = ""  # spell or event
    target: str = ""
    step: PlayStep = PlayStep.NEGATION


@declare
class Effects(CovenantPending):
    kind: ClassVar[str] = "effects"
    seat: int = 0
    card: str = ""
    source: EffectSource = EffectSource.RESOLVE
    index: int = 0
    target: str = ""


@declare
class Slaying(CovenantPending):
    kind: ClassVar[str] = "slaying"
    target: str = ""
    step: SlayStep = SlayStep.ASK
    saved: bool = False


@declare
class Theft(CovenantPending):
    kind: ClassVar[str] = "theft"
    seat: int = 0  # the thief
    target: str = ""
    step: TheftStep = TheftStep.GUARD


@declare
class BonusWindow(CovenantPending):
    """The casters are asked round and round until all of them pass in a row."""

    kind: ClassVar[str] = "bonus"
    casters: tuple[int, ...] = ()
    context: str = ""  # duel or quest
    index: int = 0
    passes: int = 0
    answered: str = ""


@declare
class TrapsWindow(Window):
    kind: ClassVar[str] = "traps"
    seat: int = 0  # the quester


class WizardAct(str):
    """The typed argument of a wizard's action move (``act W ARG``): the action's ``ability`` and, for Scry, what it
    looks at (``looks_at``: ``"deck"``, or a rival's seat); its text is the move key's last word (``maker``,
    ``scry:deck``, ``scry:1``), so a move compares and hashes as its key does.

    >>> WizardAct("scry", 1), WizardAct("scry", 1).looks_at, WizardAct.of("scry:deck").looks_at
    ('scry:1', 1, 'deck')
    """

    ability: str
    looks_at: Literal["deck"] | int | None

    def __new__(cls, ability: str, looks_at: Literal["deck"] | int | None = None) -> WizardAct:
        self = super().__new__(cls, ability if looks_at is None else f"{ability}:{looks_at}")
        self.ability, self.looks_at = ability, looks_at
        return self

    @classmethod
    def of(cls, arg: str) -> WizardAct:
        """The typed argument of a move (as the legal actions carry it), or read from its text (a move written by
        hand: ``scry:1``)."""
        if isinstance(arg, WizardAct):
            return arg
        ability, _, at = arg.partition(":")
        return cls(ability, None if not at else "deck" if at == "deck" else int(at))

    @property
    def target(self) -> str:
        """What the action looks at as :attr:`WizardAction.target` keeps it (``deck``, a seat, or nothing)."""
        return "" if self.looks_at is None else str(self.looks_at)


@declare
class WizardAction(Negatable):
    kind: ClassVar[str] = "action"
    seat: int = 0
    wizard: str = ""
    ability: str = ""
    target: str = ""  # scry: "deck" or a seat
    step: ActionStep = ActionStep.NEGATION
    roll: int = 0

    def take_roll(self, slot: RollFor, total: int) -> None:
        self.roll = total


@declare
class Duel(Negatable):
    kind: ClassVar[str] = "duel"
    seat: int = 0  # the challenger
    card: str = ""  # the Wizards Duel card
    challenger: str = ""  # the challenging wizard
    rival: int = 0
    defender: str = ""  # the wizard that answers
    step: DuelStep = DuelStep.NEGATION
    challenger_roll: int = 0
    defender_roll: int = 0
    challenger_bonus: int = 0
    defender_bonus: int = 0
    challenger_total: int = 0
    defender_total: int = 0

    def take_roll(self, slot: RollFor, total: int) -> None:
        if slot is RollFor.CHALLENGER:
            self.challenger_roll = total
        else:
            self.defender_roll = total


@declare
class Quest(CovenantPending):
    kind: ClassVar[str] = "quest"
    seat: int = 0
    card: str = ""
    participants: tuple[str, ...] = ()
    last_joined: str = ""  # participants are chosen in id order
    step: QuestStep = QuestStep.JOIN
    danger_bonus: int = 0  # Tricks & Traps
    level_bonus: int = 0  # bonus spells cast in this round (each adds to one quest roll)
    round: int = 0
    danger_roll: int = 0
    level_roll: int = 0
    losses: int = 0  # round one: participants still to be slain
    spared: tuple[str, ...] = ()  # chosen to be slain already (saved or not)

    def take_roll(self, slot: RollFor, total: int) -> None:
        if slot is RollFor.DANGER:
            self.danger_roll = total
        else:
            self.level_roll = total


@declare
class Choice(CovenantPending):
    kind: ClassVar[str] = "choice"
    seat: int = 0
    effect: CardEffect = field(default_factory=CardEffect)
    # the targets (a search reads its choices from the deck when asked, or from the cards a Lookup laid out)
    options: tuple[str, ...] = ()
    card: str = ""


@declare
class Lookup(CovenantPending):
    """On a real table, a search by a seat the program plays (the program does not know the deck): the person
    (``who``, the table seat) looks through the deck and lays out its cards of the kind searched for, one at a time
    (``found``, face up in the middle of the table), until they say there are no more; then the searcher chooses."""

    kind: ClassVar[str] = "lookup"
    seat: int = 0  # the searcher
    effect: CardEffect = field(default_factory=CardEffect)
    card: str = ""  # what the search comes from (a card, or the wizard whose action it is)
    found: tuple[str, ...] = ()


KINDS: tuple[type[CovenantPending], ...] = (Negation, Roll, Play, Effects, Slaying, Theft, BonusWindow, TrapsWindow,
                                            WizardAction, Duel, Quest, Choice, Lookup)
