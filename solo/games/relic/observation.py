"""What one seat of Relic sees: the declared type of its observation (JSON-able), which the screen (``view.py``)
and ``look`` (``look.py``) read; :class:`~.game.RelicGame` builds it."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from wizprint.solo.kernel.values import OutcomeRecord


class HeroView(TypedDict):
    """One seat's hero as everyone sees it."""

    character: str  # "" before the characters are chosen
    colour: str  # the seat's colour
    space: str  # "" before the character is placed, and once eliminated
    attributes: list[int]  # strength, willpower, cunning
    life: int
    level: int
    influence: int
    hand: int  # how many Power cards it holds
    assets: list[str]
    trophies: list[str]
    corruption_up: list[str]
    corruption_down: int  # face-down Corruption cards (their number)
    mission: str
    completed: list[str]  # completed missions face up
    completed_hidden: int  # and face down (their number)
    tokens: list[str]  # the spaces holding its objective tokens
    scenario_tokens: int
    progress: int  # the mission's enemies defeated so far
    skip: int  # turns it must miss
    eliminated: bool


class BattleView(TypedDict):
    """The battle under way: whose, the scores' bonuses so far and the enemy's roll once made."""

    seat: int
    score: int
    enemy: int
    enemy_roll: int | None


class RelicObservation(TypedDict):
    """What one seat sees: its hand, its face-down Corruption cards and completed missions; of the table, what is
    public. ``table`` is indexed by seat."""

    game: str
    seat: int
    players: int
    scenario: str
    phase: str  # a :class:`~.pending.Phase` value
    turn: int
    active: int  # the turn player
    current: int  # the seat to decide (-1 once the game is over)
    table: list[HeroView]
    hand: list[str]
    my_corruption_down: list[str]
    my_completed_hidden: list[str]
    board: dict[str, list[str]]  # the Threat cards on each space
    decks: dict[str, int]  # the cards left in each deck
    discards: dict[str, list[str]]
    revealed: list[str]  # cards being chosen from (Wargear to buy, relics, a second mission)
    charges: dict[str, int]  # the charges left on each card that has them
    spent: list[str]  # cards a charge was spent from this turn
    evaded: list[str]  # enemies evaded this turn
    evade_uses: list[str]  # per evasion this turn, the limited ability used
    unused_characters: list[str] | None  # None while the characters are being chosen
    retired: list[str]  # characters corrupted out of the game
    stack: list[dict[str, object]]  # the pending work as saved (its kind and fields), innermost last
    last: dict[str, int]  # the last battle's or skill test's numbers
    log: list[str]
    heading: str
    last_words: str  # the last battle or skill test in words
    guardians: list[str]  # the spaces guarded by the scenario's guardians
    battle: NotRequired[BattleView]  # while a battle is under way
    dealt: NotRequired[list[str]]  # while the characters are chosen: the two sheets dealt to this seat
    choices: NotRequired[dict[str, str | None]]  # and each seat's choice as this seat may know it
    outcome: NotRequired[OutcomeRecord]  # once the game is over
