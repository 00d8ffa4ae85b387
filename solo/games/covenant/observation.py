"""What one seat of Covenant of Wizards sees: the declared type of its observation (JSON-able), which the screen
(``screen.py``) and ``look`` (``texts.py``) read; :class:`~.game.CovenantGame` builds it."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from wizprint.solo.kernel.values import OutcomeRecord


class TableView(TypedDict):
    """One seat's cards in play (public)."""

    wizards: dict[str, list[str]]  # each wizard in play and the items and followers attached to it
    followers: list[str]  # stand-alone followers
    resources: list[str]
    quests: list[str]  # completed quests


class CovenantObservation(TypedDict):
    """What one seat sees: its own hand and the cards it has seen where it saw them; of the table, what is public.
    Lists by seat are indexed by seat; ``seen_by`` is keyed by the other seat's number as text."""

    game: str
    seat: int
    players: int
    phase: str  # a :class:`~.state.Phase` value
    turn: int
    turn_player: int
    current: int  # the seat to decide (-1 once the game is over)
    hand: list[str]
    hand_sizes: list[int]
    deck: int  # the cards left in the deck
    discard: list[str]  # bottom first
    limbo: list[str]  # the cards being played (a spell, an event, the duel card, the quest)
    table: list[TableView]
    vp: list[int]
    skips: list[int]  # turns each seat must miss
    acted: list[str]  # wizards that used their action this turn
    duelled: list[str]
    granted: dict[str, list[str]]  # abilities granted to a wizard until the turn ends
    grants_used: list[str]  # resources whose grant was used this turn
    summons: list[str]  # the summon slots used this turn
    stack: list[dict[str, object]]  # the pending work as saved (its kind and fields), innermost last
    seen: dict[str, str]  # hidden cards this seat has seen, and where: ``h1`` (seat 1's hand), ``d36`` (deck)
    seen_by: dict[str, list[str]]  # the cards of this seat's hand each other seat has seen
    log: list[str]
    under_way: list[str]  # the duel, quest or card being resolved, in words
    heading: str
    outcome: NotRequired[OutcomeRecord]  # once the game is over
